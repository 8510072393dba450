// Play now: choose a game, the players you accept, the speed, rated or not and whether bots
// may fill seats after a wait; then wait in its queue, seeing how long, how many wait and the
// rating gap accepted now, until a table is formed (the home socket says "seated").
import { api } from "./api.js";
import { SPEED_DEFAULT, speedOptions } from "./clock.js";
import { errorBox, fill, h } from "./dom.js";
import { levelPicker } from "./options.js";
import { settledPlayer } from "./player.js";

// The waits a player may choose before bots fill seats.
const BOT_WAITS = [[10, "10 s"], [30, "30 s"], [60, "1 min"], [180, "3 min"]];

// "0:07", "1:02": seconds waited.
const waited = (seconds) => `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, "0")}`;

const peopleWaiting = (n) => (n === 1 ? "1 person is waiting" : `${n} people are waiting`);

// The card: {element, place(p) (the socket's or a call's place; null: not waiting),
// counts(c) (people waiting by game), chosen() (the game chosen), playWithBots(gameId),
// redraw() (the player changed), stop()}.
export function playNowCard(games, speeds, getMe) {
  const element = h("section", { class: "card play-now", "data-testid": "play-now-card" });
  let counts = {};
  let current = null; // the place while waiting: {place, at} (at: when it was received)
  let chosen = games[0];
  let timer = null;
  let joinedAt = 0; // when this page joined: a socket's "not waiting" just after is older news
  const error = h("div");

  const game = h("select", { id: "play-game", "data-testid": "play-game", onchange: () => { chosen = games.find((g) => g.id === game.value); drawForm(); } },
    games.map((g) => h("option", { value: g.id }, g.title)));
  const fewest = h("select", { id: "play-fewest", "data-testid": "play-fewest", "aria-label": "Fewest players" });
  const most = h("select", { id: "play-most", "data-testid": "play-most", "aria-label": "Most players" });
  const speed = h("select", { id: "play-speed", "data-testid": "play-speed" },
    speedOptions(speeds, SPEED_DEFAULT));
  const bots = h("input", { type: "checkbox", id: "play-bots", checked: true, "data-testid": "play-bots" });
  const botWait = h("select", { id: "play-bot-wait", "data-testid": "play-bot-wait", "aria-label": "Bots after" },
    BOT_WAITS.map(([s, name]) => h("option", { value: s, selected: s === 30 }, name)));
  const rated = h("input", { type: "checkbox", id: "play-rated", checked: true, "data-testid": "play-rated" });
  const ratedField = h("div", { class: "field check" });
  const levelBox = h("div", { class: "field" });
  const countLine = h("p", { class: "muted small", "data-testid": "play-count", "aria-live": "polite" });
  const submit = h("button", { type: "submit", class: "primary", "data-testid": "play-now" }, "Play now");
  let level = null;
  const form = h("form", { class: "create-form", onsubmit: (event) => { event.preventDefault(); join(); } });

  const showCount = () => {
    const n = counts[chosen.id] || 0;
    countLine.textContent = n ? `${peopleWaiting(n)} for ${chosen.title} now.` : `Nobody is waiting for ${chosen.title} right now.`;
  };

  const drawForm = () => {
    const sizes = [];
    for (let n = chosen.min_players; n <= chosen.max_players; n++) sizes.push(n);
    fill(fewest, sizes.map((n) => h("option", { value: n, selected: n === chosen.min_players }, String(n))));
    fill(most, sizes.map((n) => h("option", { value: n, selected: n === chosen.max_players }, String(n))));
    fewest.disabled = most.disabled = sizes.length === 1;
    level = levelPicker(chosen, { chosen: "heuristic", label: "Bot level", testid: "play-bot-level" });
    level.select.id = "play-bot-level";
    fill(levelBox, h("label", { for: "play-bot-level" }, "Bot level"), level.select, level.about);
    const me = getMe();
    fill(ratedField, me?.handle
      ? [rated, h("label", { for: "play-rated" }, "Rated")]
      : h("span", { class: "muted small" }, "Guests play unrated."));
    showCount();
  };
  fewest.onchange = () => { if (Number(most.value) < Number(fewest.value)) most.value = fewest.value; };
  most.onchange = () => { if (Number(fewest.value) > Number(most.value)) fewest.value = most.value; };

  fill(form,
    h("div", { class: "row wrap" },
      h("div", { class: "field" }, h("label", { for: "play-game" }, "Game"), game),
      h("div", { class: "field" }, h("span", { class: "label" }, "Players"),
        h("div", { class: "row" }, fewest, h("span", {}, "to"), most)),
      h("div", { class: "field" }, h("label", { for: "play-speed" }, "Speed"), speed),
      ratedField),
    h("div", { class: "row wrap" },
      h("div", { class: "field check" }, bots, h("label", { for: "play-bots" }, "Bots may fill seats after"), botWait),
      levelBox),
    h("div", { class: "row wrap" }, submit, countLine),
    error);

  const join = async (withBotsNow = false) => {
    error.replaceChildren();
    submit.disabled = true;
    try {
      const me = getMe() || await settledPlayer();
      if (!me) {
        error.append(errorBox("Enter your name first."));
        document.getElementById("player-name-input")?.focus();
        return;
      }
      const body = {
        game: chosen.id, fewest: Number(fewest.value), most: Number(most.value), speed: speed.value,
        rated: Boolean(me?.handle) && rated.checked,
        bots_after: withBotsNow ? 0 : (bots.checked ? Number(botWait.value) : null),
        bot_level: level.select.value,
      };
      joinedAt = Date.now();
      place(await api("POST", "/api/queue", body));
    } catch (err) {
      error.append(errorBox(err.message));
    } finally {
      submit.disabled = false;
    }
  };

  const leave = async (button) => {
    button.disabled = true;
    try {
      await api("DELETE", "/api/queue");
      place(null);
    } catch (err) {
      if (err.status === 404) place(null);
      else fill(error, errorBox(err.message));
      button.disabled = false;
    }
  };

  // Waiting: the game and choices, the time waited, how many wait and the gap, and Leave.
  const drawWaiting = () => {
    const p = current.place;
    const clockText = h("strong", { "data-testid": "queue-waited" });
    const tick = () => { clockText.textContent = waited(p.waited + (Date.now() - current.at) / 1000); };
    tick();
    clearInterval(timer);
    timer = setInterval(tick, 1000);
    const players = p.fewest === p.most ? `${p.fewest} players` : `${p.fewest} to ${p.most} players`;
    const speedName = speeds.find((s) => s.id === p.speed)?.words || p.speed;
    const leaveButton = h("button", { type: "button", "data-testid": "leave-queue", onclick: () => leaveButton && leave(leaveButton) }, "Leave");
    fill(element,
      h("h2", {}, "Play now"),
      h("div", { class: "queue-status", role: "status", "data-testid": "queue-status" },
        h("p", {}, "Looking for a table of ", h("strong", {}, p.title), ` · ${players} · ${speedName}${p.rated ? " · rated" : ""}`),
        h("p", { class: "queue-figures" },
          h("span", {}, "Waited ", clockText),
          h("span", { "data-testid": "queue-count" }, p.waiting > 1 ? `${p.waiting} waiting, you too` : "Only you so far"),
          h("span", { "data-testid": "queue-gap", title: `matched by your rating ${p.rating}, the cautious one (less three times its uncertainty)` },
            p.gap === null ? "Any rating now" : `Ratings up to ${p.gap} points from yours`)),
        p.bots_after !== null ? h("p", { class: "muted small" },
          p.bots_after ? `Bots fill the empty seats after ${waited(p.bots_after)} if nobody else comes.` : "Bots fill the empty seats.") : null,
        h("div", { class: "row" }, leaveButton)),
      error);
  };

  const drawIdle = () => {
    clearInterval(timer);
    fill(element, h("h2", {}, "Play now"),
      h("p", { class: "muted" }, "A table with people near your rating, in seconds when others are waiting; with bots when nobody comes."),
      form);
    showCount();
  };

  const place = (p, { fromSocket = false } = {}) => {
    if (fromSocket && !p && Date.now() - joinedAt < 3000) return;
    const was = current;
    current = p && !p.game_id ? { place: p, at: Date.now() } : null;
    if (current) drawWaiting();
    else if (was || !element.firstChild) drawIdle();
  };

  drawForm();
  drawIdle();
  return {
    element,
    place,
    counts: (c) => {
      counts = c;
      if (!current) showCount();
    },
    chosen: () => chosen,
    // "Play now with bots" from an empty list of seeks: this game, bots at once.
    playWithBots: (gameId) => {
      chosen = games.find((g) => g.id === gameId) || chosen;
      game.value = chosen.id;
      drawForm();
      return join(true);
    },
    redraw: () => { if (!current) drawForm(); },
    stop: () => clearInterval(timer),
  };
}
