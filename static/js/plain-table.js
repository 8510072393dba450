// The table of a game that has no renderer of its own (static/games/{kind}.js): the parts of
// its view that are the game's, each as its name and its value in plain words or JSON, so a
// new game can be played and checked before anyone draws it.
import { h } from "./dom.js";

// What the frame already shows, or what no person needs to read.
const FRAME = new Set(["game", "players", "you", "to_act", "legal_moves", "last_decision", "outcome",
  "table", "log", "log_length"]);

const words = (name) => name.replaceAll("_", " ").replace(/^./, (c) => c.toUpperCase());
const shown = (value) => (value !== null && typeof value === "object" ? JSON.stringify(value) : String(value));

export function plainTable(view) {
  const parts = Object.entries(view).filter(([name]) => !FRAME.has(name));
  return h("dl", { class: "plain-table card", "data-testid": "plain-table" },
    parts.flatMap(([name, value]) => [h("dt", {}, words(name)), h("dd", {}, shown(value))]));
}
