// /join/{code}: say whose table and which game the link leads to, then ask a name if needed,
// take a seat and go to the lobby. A dead link creates nobody; a full or started table offers
// to watch.
import { api } from "./api.js";
import { errorBox, fill, h } from "./dom.js";
import { navigate } from "./main.js";
import { gameKinds, tableOptionsLine } from "./options.js";
import { getPlayer, playerBox } from "./player.js";

export function joinPage(root, code) {
  document.title = "Join a table · Campground";
  const about = h("div", { "data-testid": "invite-about" }, h("p", { class: "muted" }, "Looking up the table…"));
  const status = h("div", { "data-testid": "join-status" });
  const card = h("section", { class: "card" }, h("h1", {}, "Join a table"), about, status);
  root.append(card);

  const join = async () => {
    fill(status, h("p", { class: "muted" }, "Taking a seat…"));
    try {
      const lobby = await api("POST", "/api/lobbies/join", { invite_code: code });
      navigate(`/lobbies/${lobby.id}`, { replace: true });
    } catch (err) {
      fill(status, errorBox(joinError(err)), backHome());
    }
  };

  api("GET", `/api/lobbies/invite/${encodeURIComponent(code)}`).then(async (lobby) => {
    const host = lobby.seats.find((s) => s.player?.id === lobby.host_id)?.player?.name || "A camper";
    const taken = lobby.seats.filter((s) => s.player || s.bot).length;
    document.title = `${host}'s ${lobby.title} table · Campground`;
    const kind = (await gameKinds()).find((g) => g.id === lobby.game);
    fill(about,
      h("p", { class: "lead", "data-testid": "invite-table" }, h("strong", {}, `${host}'s table`), ` · ${lobby.title}`),
      h("p", { class: "muted" }, `${taken} of ${lobby.seats.length} seats taken`, " · ",
        h("a", { href: `/rules/${lobby.game}`, target: "_blank", rel: "noopener" }, `How to play ${lobby.title}`)),
      tableOptionsLine(kind, lobby.options, lobby.speed_name));
    if (lobby.you != null) return navigate(`/lobbies/${lobby.id}`, { replace: true });
    if (lobby.status === "closed") return fill(status, errorBox("The host closed this table."), backHome());
    if (lobby.game_id) {
      return fill(status, h("p", {}, "This game has already started."),
        h("p", {}, h("a", { href: watching(`/games/${lobby.game_id}`, code), "data-nav": true, class: "button primary", "data-testid": "watch" }, "Watch the game")));
    }
    if (taken === lobby.seats.length) {
      return fill(status, h("p", {}, "Every seat is taken."),
        h("p", {}, h("a", { href: watching(`/lobbies/${lobby.id}`, code), "data-nav": true, class: "button", "data-testid": "watch" }, "Watch the lobby")));
    }
    const player = await getPlayer();
    if (player) return join();
    card.insertBefore(
      playerBox(null, join, { prompt: `${host} invites you to play ${lobby.title}! What should the others call you?`, submit: "Join" }),
      status,
    );
  }, (err) => fill(about, errorBox(joinError(err)), backHome()));
}

// A private table is watched with its invite code, which the link carries along.
const watching = (path, code) => `${path}?invite=${encodeURIComponent(code)}`;

const backHome = () => h("p", {}, h("a", { href: "/", "data-nav": true }, "Back to camp"));

function joinError(err) {
  if (err.status === 404) return "That invite link does not match any table. Check the link, or ask for a new one.";
  if (err.status === 410) return err.message;
  return `Could not join: ${err.message}`;
}
