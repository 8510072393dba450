// The open tables (seeks) on the home page, live over the home socket: the game, the host and
// their rating, the seats taken, the speed, rated or not; filtered by game and speed. When
// nobody waits, it says so and offers bots or a table of one's own.
import { api } from "./api.js";
import { speedOptions } from "./clock.js";
import { errorBox, fill, h, patch } from "./dom.js";
import { navigate } from "./main.js";
import { settledPlayer } from "./player.js";
import { profileLink, ratingTag } from "./rating.js";

// {element, filter() (the socket message asking for the seeks chosen), show(msg), counts(c)}.
// ``onFilter(message)``: send it; ``playWithBots(gameId)``; ``openTable(gameId)``: the create
// form with that game chosen.
export function seeksList(games, speeds, { getMe, gameNamed, onFilter, playWithBots, openTable }) {
  const list = h("div", { class: "lobby-list", "data-testid": "open-lobbies", "aria-live": "polite" },
    h("p", { class: "muted" }, "Looking for open tables…"));
  const game = h("select", { id: "seek-game", "data-testid": "seek-game" },
    h("option", { value: "" }, "Every game"), games.map((g) => h("option", { value: g.id }, g.title)));
  const speed = h("select", { id: "seek-speed", "data-testid": "seek-speed" },
    h("option", { value: "" }, "Any speed"), speedOptions(speeds, null));
  const filter = () => ({ type: "seeks", game: game.value || null, speed: speed.value || null });
  game.onchange = speed.onchange = () => onFilter(filter());
  let counts = {};
  let last = null;

  const element = h("section", { class: "card" },
    h("div", { class: "title-row" }, h("h2", {}, "Open tables"),
      h("div", { class: "row wrap seek-filters" },
        h("span", { class: "row" }, h("label", { for: "seek-game", class: "small" }, "Game"), game),
        h("span", { class: "row" }, h("label", { for: "seek-speed", class: "small" }, "Speed"), speed))),
    list);


  // The list is patched at every change: its one listener reads the table from the row.
  const join = async (button) => {
    const lobbyId = button.dataset.lobby;
    if (button.dataset.mine) return navigate(`/lobbies/${lobbyId}`);
    const error = button.closest("[data-testid=seek]").querySelector(".seek-error");
    button.disabled = true;
    if (!(getMe() || await settledPlayer())) {
      fill(error, errorBox("Enter your name first."));
      button.disabled = false;
      return;
    }
    try {
      await api("POST", `/api/lobbies/${lobbyId}/join`);
      navigate(`/lobbies/${lobbyId}`);
    } catch (err) {
      fill(error, errorBox(err.message));
      button.disabled = false;
    }
  };
  list.addEventListener("click", (e) => {
    const button = e.target.closest("button[data-testid]");
    if (!button) return;
    const testid = button.dataset.testid;
    if (testid === "join-lobby") join(button);
    else if (testid === "play-with-bots") playWithBots(button.dataset.game);
    else if (testid === "open-a-table") openTable(button.dataset.game);
  });

  const row = (seek) => {
    const mine = seek.host.id === getMe()?.id;
    const join = h("button", { type: "button", class: "primary", "data-testid": "join-lobby", "data-lobby": seek.lobby_id,
      "data-mine": mine }, mine ? "Open" : "Join");
    return h("article", { class: "lobby-row", "data-testid": "seek", "data-key": `seek-${seek.lobby_id}` },
      h("div", {}, h("strong", {}, seek.title),
        h("div", { class: "muted" },
          profileLink(seek.host.name, seek.host.handle), "'s table", ratingTag(seek.host.rating),
          ` · ${seek.taken}/${seek.seats} seats taken · ${seek.speed_name}${seek.rated ? " · rated" : ""}`)),
      join, h("div", { class: "seek-error" }));
  };

  // "Nobody is waiting for Summer Camp now: play now with bots, or open a table and share its link."
  const nobody = (gameId) => {
    const title = games.find((g) => g.id === gameId)?.title || "a game";
    const waiting = counts[gameId] || 0;
    if (waiting) {
      return h("p", { class: "empty", "data-testid": "nobody-waiting" },
        `${waiting === 1 ? "1 person is" : `${waiting} people are`} waiting to play ${title} now: press Play now to join them.`);
    }
    return h("p", { class: "empty", "data-testid": "nobody-waiting" },
      `Nobody is waiting for ${title} now: `,
      h("button", { type: "button", class: "link", "data-testid": "play-with-bots", "data-game": gameId }, "play now with bots"),
      ", or ",
      h("button", { type: "button", class: "link", "data-testid": "open-a-table", "data-game": gameId }, "open a table and share its link"),
      ".");
  };

  const draw = () => {
    if (!last) return;
    if (last.seeks.length) patch(list, last.seeks.map(row));
    else patch(list, nobody(last.game || gameNamed()));
  };

  return {
    element,
    filter,
    show: (msg) => { last = msg; draw(); },
    counts: (c) => { counts = c; draw(); },
    redraw: draw,
  };
}
