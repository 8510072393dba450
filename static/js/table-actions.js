// Below the table: concede while the game runs; once it is over, play again with the same people.
import { api } from "./api.js";
import { errorBox, fill, h } from "./dom.js";
import { navigate } from "./main.js";

export function tableActions(box, view, gameId, rematchLobby) {
  const seated = view.you !== null && view.you !== undefined;
  const me = seated ? view.table?.seats?.[view.you] : null;
  const error = h("div");
  const run = async (button, request) => {
    button.disabled = true;
    error.replaceChildren();
    try {
      await request();
    } catch (err) {
      fill(error, errorBox(err.message));
      button.disabled = false;
    }
  };
  if (!seated || view.table?.status === "aborted") return fill(box);
  if (!view.outcome) {
    if (me?.conceded) return fill(box, h("p", { class: "muted", "data-testid": "conceded" }, "You conceded: the bot plays your seat."));
    const concede = h("button", {
      type: "button", class: "quiet", "data-testid": "concede",
      onclick: () => {
        const text = view.players === 2
          ? "Concede? The other player wins at once."
          : "Concede? The bot plays your seat to the end and you are ranked last.";
        if (confirm(text)) run(concede, () => api("POST", `/api/games/${gameId}/concede`));
      },
    }, "Concede");
    return fill(box, h("div", { class: "table-actions" }, concede, error));
  }
  const lobbyId = view.table?.rematch_lobby_id || rematchLobby;
  // The rematch waits only while its lobby is open: once it starts, the table points to it.
  const status = view.table?.rematch_status || (lobbyId ? "open" : null);
  if (status === "started") {
    return fill(box, h("p", { class: "notice", "data-testid": "rematch-started" }, "The rematch has started. ",
      h("a", { href: `/games/${view.table.rematch_game_id}`, "data-nav": true }, "Go to the rematch")));
  }
  if (status === "closed") {
    return fill(box, h("p", { class: "muted", "data-testid": "rematch-closed" }, "The rematch was called off: its lobby is closed."));
  }
  const again = h("button", {
    type: "button", class: "primary", "data-testid": "rematch",
    onclick: () => run(again, async () => {
      const lobby = await api("POST", `/api/games/${gameId}/rematch`);
      navigate(`/lobbies/${lobby.id}`);
    }),
  }, lobbyId ? "Join the rematch" : "Play again");
  return fill(box, h("div", { class: "table-actions" },
    lobbyId ? h("p", { class: "notice", "data-testid": "rematch-offer" }, "A rematch is waiting for you.") : null,
    again, error));
}
