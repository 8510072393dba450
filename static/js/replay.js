// Replay of an ended game: step, play and scrub through every move, each state drawn by the
// game's own table as a spectator saw it (GET /api/games/{id}/replay?at=k).
import { api, withInvite } from "./api.js";
import { h } from "./dom.js";
import { logEntry } from "./log.js";
import { lastMove } from "./marks.js";
import { concededNote, outcomeHeadline } from "./outcome.js";
import { plainTable } from "./plain-table.js";
import { tableEvents } from "./table-events.js";

const PLAY_EVERY_MS = 700;
const SCRUB_REST_MS = 150;

// The caption of a step is its last decision, in the table's words ("Ana (Red) plays…"),
// with the seat's badge in its colour.
export function replayBox(gameId, last, renderer, seatName, seatBadge) {
  let at = last;
  let timer = null;
  const table = h("div", { class: "game-root replay-table", "data-testid": "replay-table" });
  const where = h("span", { class: "muted", "aria-live": "polite", "data-testid": "replay-at" });
  const slider = h("input", {
    type: "range", min: 0, max: last, value: last, "aria-label": "Move", "data-testid": "replay-slider",
    oninput: () => scrub(Number(slider.value)),
  });
  // Dragging the slider asks for the step it rests on, not every step it passes: replays
  // are rate-limited like everything else.
  let resting = null;
  const scrub = (k) => {
    at = k;
    where.textContent = k === 0 ? `Setup · ${last} moves` : `After move ${k} of ${last}`;
    clearTimeout(resting);
    resting = setTimeout(() => show(k), SCRUB_REST_MS);
  };
  const stop = () => {
    clearInterval(timer);
    timer = null;
    play.textContent = "Play";
  };
  const play = h("button", {
    type: "button", "data-testid": "replay-play",
    onclick: () => {
      if (timer) return stop();
      if (at >= last) show(0);
      play.textContent = "Pause";
      timer = setInterval(() => (at >= last ? stop() : show(at + 1)), PLAY_EVERY_MS);
    },
  }, "Play");
  const step = (label, testid, to) => h("button", { type: "button", "data-testid": testid, onclick: () => { stop(); show(to()); } }, label);

  const ctx = {
    you: null, pending: true, send: () => {}, seatName, changed: () => false, mark: (el) => el, lastMover: null,
    moveButton: (_entry, label) => h("button", { type: "button", disabled: true }, label),
    moveControl: (el) => el,
    claim: () => {},
    same: (_key, _inputs, build) => build(),
  };

  let shown = -1;
  let previous = null; // the step drawn before, {at, view}: one step on, its move is marked
  async function show(k) {
    clearTimeout(resting); // a button pressed while the slider rests wins
    at = Math.max(0, Math.min(last, k));
    slider.value = at;
    where.textContent = at === 0 ? `Setup · ${last} moves` : `After move ${at} of ${last}`;
    if (shown === at) return;
    const asked = (shown = at);
    try {
      const { view } = await api("GET", withInvite(`/api/games/${gameId}/replay?at=${asked}`));
      if (shown !== asked) return; // another step was asked for meanwhile: its answer is drawn
      const marks = lastMove(previous?.at === asked - 1 ? previous.view : null, view);
      previous = { at: asked, view };
      drawn = { view, marks };
      draw();
    } catch (err) {
      table.replaceChildren(h("p", { class: "error" }, err.message));
    }
  }

  // The step shown, drawn again when a tap on it changes what its table shows (a card's details).
  let drawn = null;
  function draw() {
    if (!drawn) return;
    const { view, marks } = drawn;
    const shownCtx = { ...ctx, changed: marks.changed, mark: marks.mark, lastMover: marks.mover,
      outcomeText: outcomeHeadline(view, seatName), concededText: concededNote(view, seatName) };
    table.replaceChildren();
    if (renderer) renderer.render(table, view, shownCtx);
    else table.append(plainTable(view));
    const latest = logEntry(view, view.last_decision);
    if (latest) {
      table.prepend(h("p", { class: "replay-event", "data-testid": "replay-event" },
        latest.seat == null ? null : seatBadge(latest.seat, renderer?.seatColour?.(view, latest.seat) || null, seatName(latest.seat)),
        renderer?.logText ? renderer.logText(latest, shownCtx) : latest.text));
    }
  }
  tableEvents(table, { play: () => {}, act: (name, el) => renderer?.actions?.[name]?.(el), redraw: draw });

  // Closed until asked for: the replay draws a second table, which would double the page.
  const box = h("details", { class: "replay card", "data-testid": "replay",
    ontoggle: () => { if (box.open && shown < 0) show(last); } },
    h("summary", { "data-testid": "replay-open" }, h("h2", {}, "Replay the game")),
    h("div", { class: "replay-controls" },
      step("First", "replay-first", () => 0),
      step("Back", "replay-back", () => at - 1),
      play,
      step("Next", "replay-next", () => at + 1),
      step("Last", "replay-last", () => last),
      where),
    slider,
    table);
  return box;
}
