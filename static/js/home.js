// Home: who you are, a new lobby for any game, and the open public lobbies.
import { api } from "./api.js";
import { clear, errorBox, fill, h } from "./dom.js";
import { navigate } from "./main.js";
import { optionsForm } from "./options.js";
import { getPlayer, playerBox } from "./player.js";

export function homePage(root) {
  document.title = "Campground";
  let stopped = false;
  let timer;
  const lobbies = h("div", { class: "lobby-list", "data-testid": "open-lobbies" }, h("p", { class: "muted" }, "Looking for open tables…"));
  const create = h("div", {}, h("p", { class: "muted" }, "Loading games…"));
  let player = null;

  const refresh = async () => {
    try {
      showLobbies(lobbies, await api("GET", "/api/lobbies"), () => player);
    } catch (err) {
      fill(lobbies, errorBox(err.message));
    }
    if (!stopped) timer = setTimeout(refresh, 5000);
  };

  (async () => {
    try {
      const [me, games] = await Promise.all([getPlayer(), api("GET", "/api/games")]);
      if (stopped) return;
      player = me;
      root.prepend(playerBox(me, (p) => { player = p; }, { prompt: "Your name around the campfire" }));
      showCreate(create, games, () => player);
    } catch (err) {
      fill(create, errorBox(err.message));
    }
  })();
  refresh();

  root.append(
    h("section", { class: "card" }, h("h1", {}, "Start a table"), create),
    h("section", { class: "card" }, h("h2", {}, "Open tables"), lobbies),
  );
  return () => { stopped = true; clearTimeout(timer); };
}

export const playerRange = (g) => (g.min_players === g.max_players
  ? `${g.min_players} players` : `${g.min_players}–${g.max_players} players`);

function showCreate(box, games, getMe) {
  let chosen = games[0];
  const cards = h("div", { class: "game-cards", role: "radiogroup", "aria-label": "Game" });
  const form = h("form", { class: "create-form" });

  const pick = (game) => {
    chosen = game;
    for (const card of cards.children) card.setAttribute("aria-checked", String(card.dataset.game === game.id));
    drawForm();
  };
  for (const game of games) {
    cards.append(h("button", {
      type: "button", class: "game-card", role: "radio", "data-game": game.id, "data-testid": `game-${game.id}`,
      onclick: () => pick(game),
    }, h("strong", {}, game.title), h("span", {}, playerRange(game))));
  }

  const drawForm = () => {
    const options = optionsForm(chosen.options_schema);
    const seats = h("select", { id: "seats", name: "seats", "data-testid": "seats" });
    for (let n = chosen.min_players; n <= chosen.max_players; n++) {
      seats.append(h("option", { value: n, selected: n === chosen.min_players }, `${n} seats`));
    }
    const visibility = h("select", { id: "visibility", name: "visibility", "data-testid": "visibility" },
      h("option", { value: "private", selected: true }, "Private: invite link only"),
      h("option", { value: "public" }, "Public: listed below"));
    const error = h("div");
    const submit = h("button", { type: "submit", class: "primary", "data-testid": "create-lobby" }, "Create lobby");
    form.onsubmit = async (event) => {
      event.preventDefault();
      error.replaceChildren();
      if (!getMe()) {
        error.append(errorBox("Enter your name first."));
        document.getElementById("player-name-input")?.focus();
        return;
      }
      submit.disabled = true;
      try {
        const lobby = await api("POST", "/api/lobbies", {
          game: chosen.id,
          options: options ? options.read() : {},
          seats: Number(seats.value),
          private: visibility.value === "private",
        });
        navigate(`/lobbies/${lobby.id}`);
      } catch (err) {
        error.append(errorBox(err.message));
        submit.disabled = false;
      }
    };
    fill(form,
      options ? options.element : null,
      h("div", { class: "row wrap" },
        h("div", { class: "field" }, h("label", { for: "seats" }, "Seats"), seats),
        h("div", { class: "field" }, h("label", { for: "visibility" }, "Who can join"), visibility)),
      error,
      submit,
    );
  };

  clear(box).append(cards, form);
  if (chosen) pick(chosen);
}

function showLobbies(box, list, getMe) {
  if (!list.length) {
    fill(box, h("p", { class: "empty" },
      "No open tables right now. Start one above, or share a private invite link with friends."));
    return;
  }
  fill(box, ...list.map((lobby) => {
    const taken = lobby.seats.filter((s) => s.player || s.bot).length;
    const host = lobby.seats.find((s) => s.player && s.player.id === lobby.host_id)?.player.name;
    const mine = lobby.seats.some((s) => s.player && s.player.id === getMe()?.id);
    const error = h("div");
    const join = h("button", {
      type: "button", class: "primary", "data-testid": "join-lobby",
      onclick: async () => {
        if (mine) return navigate(`/lobbies/${lobby.id}`);
        if (!getMe()) {
          fill(error, errorBox("Enter your name first."));
          return;
        }
        join.disabled = true;
        try {
          await api("POST", `/api/lobbies/${lobby.id}/join`);
          navigate(`/lobbies/${lobby.id}`);
        } catch (err) {
          fill(error, errorBox(err.message));
          join.disabled = false;
        }
      },
    }, mine ? "Open" : "Join");
    return h("article", { class: "lobby-row" },
      h("div", {}, h("strong", {}, lobby.title), h("div", { class: "muted" },
        host ? `${host}'s table · ` : "", `${taken}/${lobby.seats.length} seats taken`)),
      join, error);
  }));
}
