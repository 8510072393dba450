// Routes by location.pathname; each page mounts into #app and returns a cleanup function.
import { clear, h } from "./dom.js";
import { homePage } from "./home.js";
import { joinPage } from "./join.js";
import { lobbyPage } from "./lobby.js";
import { gamePage } from "./game.js";
import { accountPage, devicePage } from "./account.js";
import { noticesPage } from "./notices.js";
import { registerWorker } from "./worker.js";

const routes = [
  [/^\/$/, homePage],
  [/^\/join\/([^/]+)\/?$/, joinPage],
  [/^\/lobbies\/([^/]+)\/?$/, lobbyPage],
  [/^\/games\/([^/]+)\/?$/, gamePage],
  [/^\/account\/?$/, accountPage],
  [/^\/device\/?$/, devicePage],
  [/^\/notices\/?$/, noticesPage],
];

const root = document.getElementById("app");
let cleanup = null;

export function navigate(path, { replace = false } = {}) {
  if (replace) history.replaceState(null, "", path);
  else history.pushState(null, "", path);
  route();
}

function route() {
  if (cleanup) cleanup();
  cleanup = null;
  clear(root);
  window.scrollTo(0, 0);
  const path = location.pathname;
  for (const [pattern, page] of routes) {
    const match = path.match(pattern);
    if (match) {
      cleanup = page(root, ...match.slice(1).map(decodeURIComponent)) || null;
      return;
    }
  }
  document.title = "Not found · Campground";
  root.append(
    h("section", { class: "card" },
      h("h1", {}, "Lost in the woods"),
      h("p", {}, "There is no page here."),
      h("a", { href: "/", "data-nav": true }, "Back to camp")),
  );
}

// Same-origin links marked data-nav change pages without a reload.
document.addEventListener("click", (event) => {
  const link = event.target.closest("a[data-nav]");
  if (!link || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
  event.preventDefault();
  navigate(link.getAttribute("href"));
});
window.addEventListener("popstate", route);
route();

// The service worker keeps the page's shell, so the app installed on a phone opens offline too.
if ("serviceWorker" in navigator) registerWorker().catch(() => {});
