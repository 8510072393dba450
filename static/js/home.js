// Home: who you are, your tables (your turn first), a new lobby for any game, and the open
// public lobbies.
import { api } from "./api.js";
import { PER_MOVE_CHOICES, PER_MOVE_DEFAULT, perMove } from "./clock.js";
import { clear, errorBox, fill, h } from "./dom.js";
import { navigate } from "./main.js";
import { levelPicker, optionsForm } from "./options.js";
import { getPlayer, playerBox, settledPlayer } from "./player.js";

export function homePage(root) {
  document.title = "Campground";
  let stopped = false;
  let timer;
  const lobbies = h("div", { class: "lobby-list", "data-testid": "open-lobbies" }, h("p", { class: "muted" }, "Looking for open tables…"));
  const create = h("div", {}, h("p", { class: "muted" }, "Loading games…"));
  let player; // undefined until known; null for a visitor without a name yet

  const mine = h("div", { "data-testid": "my-games" });
  const leaderboards = h("p", { "data-testid": "leaderboards" });
  const rules = h("p", { "data-testid": "rules-links" });
  const refresh = async () => {
    try {
      showLobbies(lobbies, await api("GET", "/api/lobbies"), () => player);
    } catch (err) {
      fill(lobbies, errorBox(err.message));
    }
    await showMyGames(mine, player);
    if (!stopped) timer = setTimeout(refresh, 5000);
  };

  (async () => {
    try {
      const [me, games] = await Promise.all([getPlayer(), api("GET", "/api/games")]);
      if (stopped) return;
      player = me;
      root.prepend(playerBox(me, (p) => { player = p; showMyGames(mine, p); }, { prompt: "Your name around the campfire" }));
      showMyGames(mine, me);
      showCreate(create, games, () => player);
      fill(leaderboards, games.flatMap((g, i) => [i ? " · " : null, h("a", { href: `/leaderboard/${g.id}` }, g.title)]));
      fill(rules, games.flatMap((g, i) => [i ? " · " : null, h("a", { href: `/rules/${g.id}` }, g.title)]));
    } catch (err) {
      fill(create, errorBox(err.message));
    }
  })();
  refresh();

  root.append(
    h("section", { class: "card" }, h("h2", {}, "Your tables"), mine),
    h("section", { class: "card" }, h("h1", {}, "Start a table"), create),
    h("section", { class: "card" }, h("h2", {}, "Open tables"), lobbies),
    h("section", { class: "card" }, h("h2", {}, "How to play"), rules),
    h("section", { class: "card" }, h("h2", {}, "Leaderboards"), leaderboards),
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
    const clock = h("select", { id: "turn-seconds", name: "turn_seconds", "data-testid": "turn-seconds" },
      PER_MOVE_CHOICES.map((s) => h("option", { value: s ?? "", selected: s === PER_MOVE_DEFAULT }, perMove(s))));
    // Only a signed-in host opens a rated table; it is rated unless they say otherwise.
    const rated = getMe()?.handle ? h("input", { type: "checkbox", id: "rated", checked: true, "data-testid": "rated" }) : null;
    const standIn = levelPicker(chosen, { chosen: "heuristic", label: "Stand-in bot", testid: "stand-in-level" });
    standIn.select.id = "stand-in-level";
    const error = h("div");
    const submit = h("button", { type: "submit", class: "primary", "data-testid": "create-lobby" }, "Create lobby");
    form.onsubmit = async (event) => {
      event.preventDefault();
      error.replaceChildren();
      submit.disabled = true;
      if (!(getMe() || await settledPlayer())) {
        error.append(errorBox("Enter your name first."));
        document.getElementById("player-name-input")?.focus();
        submit.disabled = false;
        return;
      }
      try {
        const lobby = await api("POST", "/api/lobbies", {
          game: chosen.id,
          options: options ? options.read() : {},
          seats: Number(seats.value),
          private: visibility.value === "private",
          turn_seconds: clock.value ? Number(clock.value) : null,
          rated: rated ? rated.checked : false,
          stand_in_level: standIn.select.value,
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
        h("div", { class: "field" }, h("label", { for: "visibility" }, "Who can join"), visibility),
        h("div", { class: "field" }, h("label", { for: "turn-seconds" }, "Clock"), clock),
        h("div", { class: "field" }, h("label", { for: "stand-in-level", title: "plays for a player who is away or conceded" },
          "Stand-in bot"), standIn.select, standIn.about),
        rated ? h("div", { class: "field check" }, rated, h("label", { for: "rated" }, "Rated: counts for ratings and profiles")) : null),
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
        join.disabled = true;
        if (!(getMe() || await settledPlayer())) {
          fill(error, errorBox("Enter your name first."));
          join.disabled = false;
          return;
        }
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

// Your turn on top, then the tables waiting for others (lobbies too), then recent results.
async function showMyGames(box, player, before = null) {
  if (player === undefined) return;
  if (!player) {
    fill(box, emptyTables());
    return;
  }
  let page;
  try {
    page = await api("GET", `/api/players/me/games${before ? `?before=${encodeURIComponent(before)}` : ""}`);
  } catch (err) {
    fill(box, errorBox(err.message));
    return;
  }
  const rows = before ? [...box.querySelectorAll("[data-testid=my-game]")].map((row) => row.game) : [];
  const games = [...rows, ...page.games];
  const lobbies = before ? box.lobbies || [] : page.lobbies;
  box.lobbies = lobbies;
  if (!games.length && !lobbies.length) {
    fill(box, emptyTables());
    return;
  }
  const yourTurn = games.filter((g) => g.your_turn);
  const waiting = games.filter((g) => g.status === "active" && !g.your_turn);
  const results = games.filter((g) => g.status !== "active");
  const group = (title, testid, items) => (items.length
    ? h("div", { class: "my-group", "data-testid": testid }, h("h3", {}, title), items) : null);
  fill(box,
    group("Your turn", "your-turn", yourTurn.map((g) => gameRow(g, "Play"))),
    group("Waiting", "waiting", [
      ...waiting.map((g) => gameRow(g, "Open")),
      ...lobbies.map((lobby) => h("article", { class: "lobby-row", "data-testid": "my-lobby" },
        h("div", {}, h("strong", {}, lobby.title), h("div", { class: "muted" },
          `Lobby · ${lobby.seats.filter((s) => s.player || s.bot).length}/${lobby.seats.length} seats taken`)),
        h("a", { href: `/lobbies/${lobby.id}`, "data-nav": true, class: "button" }, "Open"))),
    ]),
    group("Recent results", "results", results.map((g) => gameRow(g, "See"))),
    page.next_before ? h("button", {
      type: "button", class: "quiet", "data-testid": "more-games",
      onclick: () => showMyGames(box, player, page.next_before),
    }, "Show older tables") : null);
}

function emptyTables() {
  return h("p", { class: "empty", "data-testid": "no-tables" },
    "No tables yet. Start one below, or open an invite link from a friend.");
}

function gameRow(game, action) {
  const others = game.seats.filter((s) => s.seat !== game.you).map((s) => s.name);
  const result = game.status === "aborted" ? "Aborted"
    : game.status === "finished" ? (game.winners?.includes(game.you) ? "You won"
      : `${game.winners.map((w) => game.seats[w]?.name).join(" and ")} won`) : null;
  const row = h("article", { class: "lobby-row", "data-testid": "my-game", "data-game-id": game.game_id },
    h("div", {}, h("strong", {}, game.title),
      h("div", { class: "muted" }, `with ${others.join(", ")}`, result ? ` · ${result}` : "")),
    h("a", { href: `/games/${game.game_id}`, "data-nav": true, class: game.your_turn ? "button primary" : "button" }, action));
  row.game = game;
  return row;
}
