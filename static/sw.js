// Campground's service worker: keeps the page's shell (the page, its styles, scripts and icons)
// so the installed app opens on a slow or absent network, besides showing notices. Every request goes
// to the network first, so a fresh page is always played; the cache answers only when the
// network does not. The API and the sockets are never cached: a table's state is the server's.
// The app's badge is set by the page (static/js/badge.js). Notices off the site (push and a
// click on a notice) are static/js/sw-push.js's.
importScripts("/static/js/sw-push.js");

// Registered as /sw.js?v={the client's version} (static/js/worker.js): the page's files are
// under /static/v/{version}/, and each version is a shell of its own.
const VERSION = new URL(self.location.href).searchParams.get("v");
const STATIC = VERSION ? `/static/v/${VERSION}/` : "/static/";
const SHELL = `campground-shell-${VERSION || "plain"}`;
const SHELL_FILES = [
  "/",
  `${STATIC}app.css`,
  `${STATIC}accounts.css`,
  `${STATIC}js/main.js`,
  `${STATIC}icons/camp.svg`,
  `${STATIC}icons/icon-192.png`,
  "/manifest.webmanifest",
];
// The pages the shell draws (app/main.py's PAGES); the rules and profiles are the server's.
const SHELL_PAGE = /^\/((lobbies|join|games)\/[^/]+\/?|account\/?|device\/?)?$/;
const NEVER_CACHED = ["/api/", "/ws/", "/metrics", "/asyncapi.json", "/openapi.json", "/docs"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL).then((cache) => cache.addAll(SHELL_FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys().then((names) => Promise.all(
    names.filter((name) => name.startsWith("campground-shell-") && name !== SHELL).map((name) => caches.delete(name)))));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (NEVER_CACHED.some((prefix) => url.pathname.startsWith(prefix))) return;
  const page = request.mode === "navigate";
  if (page ? !SHELL_PAGE.test(url.pathname)
    : !url.pathname.startsWith("/static/") && url.pathname !== "/manifest.webmanifest") return;
  event.respondWith(networkFirst(request, page));
});

// Every page of the app is the same shell (the script routes by its address): offline, any
// page opens as "/" would.
async function networkFirst(request, page) {
  const cache = await caches.open(SHELL);
  try {
    const answer = await fetch(request);
    if (answer.ok && answer.type === "basic") cache.put(page ? "/" : request, answer.clone());
    return answer;
  } catch (err) {
    const kept = await cache.match(page ? "/" : request);
    if (kept) return kept;
    throw err;
  }
}
