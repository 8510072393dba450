// Home: who you are, Play now, your tables (your turn first), the open public tables (live),
// and a new lobby for any game.
import { api, wsUrl } from "./api.js";
import { showBadge, yourTurns } from "./badge.js";
import { countDown, duration, SPEED_DEFAULT, speedOptions } from "./clock.js";
import { clear, errorBox, fill, h, patch } from "./dom.js";
import { navigate } from "./main.js";
import { levelPicker, optionsForm } from "./options.js";
import { playNowCard } from "./play-now.js";
import { getPlayer, playerBox, settledPlayer } from "./player.js";
import { seeksList } from "./seeks.js";
import { whenSignedOut } from "./signed-out.js";
import { LiveSocket } from "./socket.js";

export function homePage(root) {
  document.title = "Campground";
  let stopped = false;
  let timer;
  const play = h("div", {}, h("section", { class: "card" }, h("h2", {}, "Play now"), h("p", { class: "muted" }, "Loading games…")));
  const seeks = h("div", {});
  const create = h("div", {}, h("p", { class: "muted" }, "Loading games…"));
  let player; // undefined until known; null for a visitor without a name yet
  let live = null; // the home socket: seeks, the queue, the table formed
  let card = null;
  let list = null;

  const mine = h("div", { "data-testid": "my-games" });
  // The list is patched every 5 s: its one listener pages on to older tables.
  mine.addEventListener("click", (e) => {
    const more = e.target.closest('[data-testid="more-games"]');
    if (more) showMyGames(mine, player, more.dataset.before);
  });
  const leaderboards = h("p", { "data-testid": "leaderboards" });
  const rules = h("p", { "data-testid": "rules-links" });
  // The page's heading, for screen readers: the site's name stands in the header already.
  const title = h("h1", { class: "sr-only" }, "Campground: camp games to play with friends");
  const refresh = async () => {
    await showMyGames(mine, player);
    if (!stopped) timer = setTimeout(refresh, 5000);
  };

  // The socket is the player's: opened again when a name is given, so that it keeps their
  // place in the queue.
  const connect = () => {
    live?.close();
    live = new LiveSocket(wsUrl("/ws/home"), {
      onMessage: (msg) => {
        if (msg.type === "seeks") list.show(msg);
        else if (msg.type === "waiting") { card.counts(msg.games); list.counts(msg.games); }
        else if (msg.type === "queue") card.place(msg.place, { fromSocket: true });
        else if (msg.type === "seated") navigate(`/games/${msg.game_id}`);
      },
      onStatus: (status) => { if (status === "online") live.send(list.filter()); },
    });
  };

  (async () => {
    try {
      const [me, games, speeds] = await Promise.all([getPlayer(), api("GET", "/api/games"), api("GET", "/api/queue/speeds")]);
      if (stopped) return;
      player = me;
      title.after(playerBox(me, (p) => {
        player = p;
        showMyGames(mine, p);
        card.redraw();
        connect();
      }, { prompt: "Your name around the campfire" }));
      card = playNowCard(games, speeds, () => player);
      list = seeksList(games, speeds, {
        getMe: () => player,
        gameNamed: () => card.chosen().id,
        onFilter: (message) => live?.send(message),
        playWithBots: (gameId) => card.playWithBots(gameId),
        openTable: (gameId) => {
          create.querySelector(`[data-testid="game-${gameId}"]`)?.click();
          create.scrollIntoView({ behavior: "smooth" });
        },
      });
      fill(play, card.element);
      fill(seeks, list.element);
      connect();
      showMyGames(mine, me);
      showCreate(create, games, speeds, () => player);
      fill(leaderboards, games.flatMap((g, i) => [i ? " · " : null, h("a", { href: `/leaderboard/${g.id}` }, g.title)]));
      fill(rules, games.flatMap((g, i) => [i ? " · " : null, h("a", { href: `/rules/${g.id}` }, g.title)]));
    } catch (err) {
      fill(create, errorBox(err.message));
    }
  })();
  refresh();

  root.append(
    title,
    play,
    h("section", { class: "card" }, h("h2", {}, "Your tables"), mine),
    seeks,
    h("section", { class: "card", id: "start-a-table" }, h("h2", {}, "Start a table"), create),
    h("section", { class: "card" }, h("h2", {}, "How to play"), rules),
    h("section", { class: "card" }, h("h2", {}, "Leaderboards"), leaderboards),
  );
  // Signed out elsewhere: this device is nobody now, with no tables and no place of its own.
  whenSignedOut(() => {
    player = null;
    showMyGames(mine, null);
    card?.redraw();
    connect();
  }, mine);
  const stopClock = countDown(mine);
  return () => { stopped = true; clearTimeout(timer); stopClock(); live?.close(); card?.stop(); };
}

export const playerRange = (g) => (g.min_players === g.max_players
  ? `${g.min_players} players` : `${g.min_players}–${g.max_players} players`);

function showCreate(box, games, speeds, getMe) {
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
    // A private table's record, once it ends: still its players' and invited watchers', or anyone's.
    const afterEnd = h("select", { id: "after-end", name: "after_end", "data-testid": "after-end" },
      h("option", { value: "private", selected: true }, "Players and invited watchers"),
      h("option", { value: "public" }, "Anyone"));
    const afterEndField = h("div", { class: "field" },
      h("label", { for: "after-end", title: "who may watch the game and its replay once it has ended" }, "After the end, seen by"),
      afterEnd);
    visibility.onchange = () => { afterEndField.hidden = visibility.value !== "private"; };
    const clock = h("select", { id: "speed", name: "speed", "data-testid": "speed" }, speedOptions(speeds, SPEED_DEFAULT));
    const clockAbout = h("span", { class: "muted small", "data-testid": "speed-about" });
    const aboutSpeed = () => { clockAbout.textContent = speeds.find((s) => s.id === clock.value)?.words || ""; };
    clock.onchange = aboutSpeed;
    aboutSpeed();
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
          ...(visibility.value === "private" ? { after_end: afterEnd.value } : {}),
          speed: clock.value,
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
        afterEndField,
        h("div", { class: "field" }, h("label", { for: "speed" }, "Speed"), clock, clockAbout),
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

// Your turn on top, then the tables waiting for others (lobbies too), then recent results.
async function showMyGames(box, player, before = null) {
  if (player === undefined) return;
  if (!player) {
    showBadge(0);
    patch(box, emptyTables());
    return;
  }
  yourTurns().catch(() => {});
  let page;
  try {
    page = await api("GET", `/api/players/me/games${before ? `?before=${encodeURIComponent(before)}` : ""}`);
  } catch (err) {
    fill(box, errorBox(err.message));
    return;
  }
  const games = [...(before ? box.games || [] : []), ...page.games];
  const lobbies = before ? box.lobbies || [] : page.lobbies;
  box.games = games;
  box.lobbies = lobbies;
  if (!games.length && !lobbies.length) {
    patch(box, emptyTables());
    return;
  }
  const yourTurn = games.filter((g) => g.your_turn);
  const waiting = games.filter((g) => g.status === "active" && !g.your_turn);
  const results = games.filter((g) => g.status !== "active");
  const group = (title, testid, items) => (items.length
    ? h("div", { class: "my-group", "data-testid": testid, "data-key": testid }, h("h3", {}, title), items) : null);
  patch(box,
    group("Your turn", "your-turn", yourTurn.map((g) => gameRow(g, "Play"))),
    group("Waiting", "waiting", [
      ...waiting.map((g) => gameRow(g, "Open")),
      ...lobbies.map((lobby) => h("article", { class: "lobby-row", "data-testid": "my-lobby", "data-key": `lobby-${lobby.id}` },
        h("div", {}, h("strong", {}, lobby.title), h("div", { class: "muted" },
          `Lobby · ${lobby.seats.filter((s) => s.player || s.bot).length}/${lobby.seats.length} seats taken`)),
        h("a", { href: `/lobbies/${lobby.id}`, "data-nav": true, class: "button" }, "Open"))),
    ]),
    group("Recent results", "results", results.map((g) => gameRow(g, "See"))),
    page.next_before ? h("button", {
      type: "button", class: "quiet", "data-testid": "more-games", "data-before": page.next_before,
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
  return h("article", { class: "lobby-row", "data-testid": "my-game", "data-game-id": game.game_id, "data-key": `game-${game.game_id}` },
    h("div", {}, h("strong", {}, game.title),
      h("div", { class: "muted" }, `with ${others.join(", ")}`, result ? ` · ${result}` : ""),
      game.status === "active" ? h("div", { class: "muted small" }, game.speed_name, timeLeftOf(game)) : null),
    h("a", { href: `/games/${game.game_id}`, "data-nav": true, class: game.your_turn ? "button primary" : "button" }, action));
}

// Your time at an active table: counting down while it is your turn, else what your bank holds.
function timeLeftOf(game) {
  if (game.your_turn && game.deadline) {
    return [" · ", h("strong", { class: "time-left", "data-testid": "time-left", "data-deadline": game.deadline }, duration(game.time_left)), " left"];
  }
  if (game.time_left == null) return null;
  return [" · ", h("span", { class: "time-left", "data-testid": "time-left" }, duration(game.time_left)), " on your clock"];
}
