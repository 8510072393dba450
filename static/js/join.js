// /join/{code}: make sure we have a name, take a seat, go to the lobby.
import { api } from "./api.js";
import { errorBox, fill, h } from "./dom.js";
import { navigate } from "./main.js";
import { getPlayer, playerBox } from "./player.js";

export function joinPage(root, code) {
  document.title = "Join a table · Campground";
  const status = h("div", { "data-testid": "join-status" });
  const card = h("section", { class: "card" }, h("h1", {}, "Join a table"), status);
  root.append(card);

  const join = async () => {
    fill(status, h("p", { class: "muted" }, "Taking a seat…"));
    try {
      const lobby = await api("POST", "/api/lobbies/join", { invite_code: code });
      navigate(`/lobbies/${lobby.id}`, { replace: true });
    } catch (err) {
      fill(status, errorBox(joinError(err)), h("p", {}, h("a", { href: "/", "data-nav": true }, "Back to camp")));
    }
  };

  getPlayer().then((player) => {
    if (player) return join();
    card.insertBefore(
      playerBox(null, join, { prompt: "You are invited! What should the others call you?", submit: "Join" }),
      status,
    );
  }, (err) => fill(status, errorBox(err.message)));
}

function joinError(err) {
  if (err.status === 404) return "That invite link does not match any table. Check the link, or ask for a new one.";
  return `Could not join: ${err.message}`;
}
