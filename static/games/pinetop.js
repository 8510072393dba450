// Camp Pinetop: the map grid (tents, edge patches, costs, campers, module pieces), the mastery
// cards, the supply area, your hand, every player's rank, patches and hand count.
// Every control comes from view.legal_moves; moves not placed here fall to the frame's bar.
// The view (engine/pinetop/view.py) names components by id; the catalog holds what they show.
import { h, markup } from "../js/dom.js";
import {
  animalIcon, camperIcon, friendshipIcon, patchShape, suitIcon, tentIcon, towerIcon, weatherIcon, wildlifeIcon,
} from "./pinetop-art.js";

// The components (map cards, patches, ranks, mastery cards...) are the same for every table:
// fetched once, when the module loads.
const catalog = await loadCatalog();
const MAP = new Map(catalog.map_cards.map((c) => [c.id, c]));
const PATCH = new Map(catalog.patches.map((p) => [p.key, p]));
const MASTERY = new Map(catalog.masteries.map((m) => [m.key, m]));
const SUITS = catalog.suits;
const EDGES = catalog.edges; // north, east, south, west
const SLOT_NAMES = ["left, outer", "left, inner", "right, inner", "right, outer"];

async function loadCatalog() {
  const response = await fetch("/api/games/pinetop/catalog");
  if (!response.ok) throw new Error(`the Camp Pinetop components could not be loaded (${response.status})`);
  return response.json();
}

export function render(root, view, ctx) {
  const of = (type) => view.legal_moves.filter((e) => e.move.type === type);
  root.append(h("div", { class: "pt", "data-testid": "pinetop" },
    prompt(view, ctx, of),
    h("div", { class: "pt-board" },
      mapSection(view, ctx, of),
      masterySection(view, ctx, of)),
    h("div", { class: "pt-lower" },
      h("div", { class: "pt-col" },
        supplySection(view, ctx, of),
        handSection(view, ctx, of)),
      h("div", { class: "pt-col" },
        playersSection(view, ctx, of),
        rankSection(view, ctx),
        natureSection(view)))));
}

// The engine's log names seats by colour; show who sits there too.
const SEAT_NAMES = ["Red", "Blue", "Yellow", "Green", "Purple"];
// Each seat's colour, as the game names it: the frame draws the seat's badges in it.
export function seatColour(view, seat) {
  return view.seats?.[seat]?.name || null;
}

export function logText(event, ctx) {
  return event.text.replace(/\b(Red|Blue|Yellow|Green|Purple)\b(?! tent)/g,
    (colour) => `${ctx.seatName(SEAT_NAMES.indexOf(colour))} (${colour})`);
}

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
const colourOf = (view, seat) => view.seats[seat].name.toLowerCase();
const who = (view, ctx, seat) => (seat === view.you ? "You" : ctx.seatName(seat));
const cardName = (view, pos) => MAP.get(view.map[pos].card).name;

// ---------------------------------------------------------------- prompt

const ASK = {
  setup: "place your first camper: tap a map card",
  action: "draw supply cards (tap the deck or a face-up card), move a camper onto a card for a patch (tap the highlighted patch on its edge), move one and then draw a card (tap an arrow on the map), or place a camper (tap a highlighted card)",
  draw: "draw a second card, move a camper (tap an arrow on the map), or draw no more",
  // Draw & Move with the move first: its one card.
  drawAfterMove: "draw a card: tap the deck or a face-up card (not a wild)",
  pay: "pay the cost one card at a time: tap a card in your hand",
  power: "use your green patch's power, or skip it",
  mastery: "claim a spot on the mastery card you completed: tap a highlighted patch",
  after: "make a free Trailblazer move (tap an arrow on the map), spend your Friendship token, or end your turn",
  discard: "discard down to your hand limit: tap a card in your hand",
};
const WAITING = {
  setup: "to place a first camper", action: "to choose an action", draw: "to draw", gift: "to give gifts",
  pay: "to pay", power: "to use a patch's power", mastery: "to claim a mastery card",
  after: "to finish their turn", discard: "to discard",
};
const BUTTONS = ["refresh", "stop", "skip", "pass", "done"];

function prompt(view, ctx, of) {
  if (view.outcome) return winnerBox(view, ctx);
  const mine = view.to_act.includes(view.you);
  const gift = of("give")[0];
  const ask = gift ? `give a supply card to ${ctx.seatName(gift.move.to)}: tap a card in your hand`
    : view.phase === "draw" && view.turn_state?.moved ? ASK.drawAfterMove : ASK[view.phase];
  const text = mine ? `Your turn: ${ask || "choose a move"}.`
    : view.to_act.length ? `Waiting for ${view.to_act.map(ctx.seatName).join(", ")} ${WAITING[view.phase] || ""}.` : "";
  const buttons = BUTTONS.flatMap(of).map((e) => ctx.moveButton(e));
  return h("section", { class: `pt-prompt${mine ? " mine" : ""}`, "data-testid": "pt-prompt" },
    h("div", { class: "pt-status" },
      view.turn ? h("span", { class: "pill" }, `Turn ${view.turn}`) : h("span", { class: "pill" }, "Setting out"),
      h("span", { class: "pill" }, `${ctx.seatName(view.active)} is playing`)),
    h("p", { class: "pt-ask" }, text),
    pendingNote(view, ctx),
    powerNote(view),
    borrowedNote(view, ctx),
    buttons.length ? h("div", { class: "buttons" }, buttons) : null);
}

// The camper on its way: where to, what for, the gifts still due and the cost still to pay.
function pendingNote(view, ctx) {
  const p = view.pending;
  if (!p) return null;
  const where = p.start == null ? `to ${cardName(view, p.to)}` : `${cardName(view, p.start)} → ${cardName(view, p.to)}`;
  const what = { setup: "First camper", move: "Moving", gain: "Moving", place: "New camper", power: "New camper" }[p.kind];
  return h("div", { class: "pt-pending small", "data-testid": "pending" },
    h("p", {}, `${what} ${where}`, p.patch ? ` for ${PATCH.get(p.patch).name}` : "", "."),
    p.gifts && p.owed.length ? h("p", {}, `Gifts still due: ${p.gifts}, to ${p.owed.map((s) => who(view, ctx, s)).join(", ")}.`) : null,
    p.cost.length ? h("p", { class: "pt-cost-left" }, "Still to pay: ", requirementIcons(p.cost)) : null,
    p.paid.length ? h("div", { class: "pt-paid" }, h("span", {}, "Paid: "), p.paid.map((c) => supplyCard(c, "mini"))) : null);
}

function powerNote(view) {
  const p = view.power;
  if (!p) return null;
  const patch = PATCH.get(p.patch);
  return h("p", { class: "pt-power small" }, patchShape(patch.colour, p.advanced),
    h("strong", {}, ` ${patch.name}: `), p.advanced ? patch.advanced : patch.basic, ` (${p.left} left)`);
}

function borrowedNote(view, ctx) {
  const b = view.turn_state?.borrowed;
  if (!b) return null;
  return h("p", { class: "pt-power small" }, friendshipIcon(),
    ` Friendship: ${who(view, ctx, view.active)} ${view.active === view.you ? "use" : "uses"} ${ctx.seatName(b.owner)}'s ${PATCH.get(b.patch).name}${b.advanced ? " (advanced)" : ""} this turn.`);
}

// The outcome box's figure for a seat: the rank reached, named.
export function figure(view, seat) {
  const rank = view.outcome.scores[seat];
  return { value: catalog.ranks[rank].name, unit: `(rank ${rank + 1} of ${catalog.ranks.length})` };
}

// The end, in the outcome box's words, then what the map says: who reached Badger (a seat
// that conceded and that the bot played on may be the one), every seat's rank.
function winnerBox(view, ctx) {
  const d = view.outcome.details || {};
  const top = view.outcome.scores.length ? view.outcome.scores.indexOf(catalog.ranks.length - 1) : -1;
  const reached = top < 0 ? null : view.outcome.conceded?.includes(top)
    ? `${ctx.seatName(top)}'s seat, played by the ${view.table?.stand_in_bot || "bot"} after ${top === view.you ? "you" : ctx.seatName(top)} conceded, reached Badger and ended the game.`
    : `${who(view, ctx, top)} ${top === view.you ? "reach" : "reaches"} Badger.`;
  return h("section", { class: "pt-prompt pt-won", "data-testid": "pt-winner" },
    h("div", { class: "pt-won-head" }, animalIcon("badger"),
      h("p", { class: "pt-ask", "data-testid": "table-outcome" }, ctx.outcomeText)),
    ctx.concededText ? h("p", { class: "small" }, ctx.concededText) : null,
    reached ? h("p", { class: "small", "data-testid": "reached" }, reached) : null,
    d.ranks ? h("p", { class: "small", "data-testid": "final-ranks" }, "Final ranks: ",
      d.ranks.map((rank, s) => `${s ? ", " : ""}${ctx.seatName(s)} ${rank}`), ".") : null,
    d.turns ? h("p", { class: "small muted" }, `After ${plural(d.turns, "turn")}.`) : null);
}

// ---------------------------------------------------------------- the map

function mapSection(view, ctx, of) {
  const { cols, rows } = view.grid;
  // A move onto a card sits on the edge it crosses: the patch there (move and gain it) or an
  // arrow (just move); placements sit on the card itself. A detour by the Observation Tower's
  // free step crosses the edge from the space beside it: when a direct move already sits there,
  // the detour gets a small tower button of its own on that edge.
  // Trailblazer's free move has an arrow of its own ("free"), beside a Draw & Move arrow.
  const edgeMoves = new Map(); // `${to}:${edge}` -> {gain, plain, free, tower_gain, tower_plain}
  const travels = [...of("move"), ...of("step")].sort((a, b) => Number(Boolean(a.move.tower)) - Number(Boolean(b.move.tower)));
  for (const e of travels) {
    const from = e.move.tower ? toward(cols, e.move.start, view.tower) : e.move.start;
    const key = `${e.move.to}:${entryEdge(cols, from, e.move.to)}`;
    const slot = edgeMoves.get(key) || {};
    const kind = e.move.type === "step" ? "free" : e.move.patch ? "gain" : "plain";
    if (!slot[kind]) slot[kind] = e;
    else if (e.move.tower && !slot[`tower_${kind}`]) slot[`tower_${kind}`] = e;
    edgeMoves.set(key, slot);
  }
  const places = new Map(of("place").map((e) => [e.move.to, e]));
  // With Nature on, a ring of spaces round the map carries the weather.
  const ring = view.nature ? 1 : 0;
  // Cards never narrower than 8.5rem: room for 24 px edge targets and whole patch names. On a
  // phone the map is then wider than the screen and scrolls sideways in its panel.
  const track = "minmax(8.5rem, 1fr)";
  const style = `--cols:${cols};` + (ring
    ? `grid-template-columns:1.1rem repeat(${cols}, ${track}) 1.1rem;grid-template-rows:1.1rem repeat(${rows}, auto) 1.1rem`
    : `grid-template-columns:repeat(${cols}, ${track})`);
  const grid = h("div", { class: `pt-grid cols-${cols}${ring ? " with-ring" : ""}`, style, "data-testid": "pt-map" },
    view.map.map((cell) => {
      // Drawn again only when something it shows changes: most of the map stays as it was.
      const pos = cell.pos;
      const inputs = [cell, ring, EDGES.map((_, i) => edgeMoves.get(`${pos}:${i}`) || null), places.get(pos) || null,
        view.tower === pos, Object.entries(view.nature?.animals || {}).filter(([, at]) => at === pos),
        view.nature ? [view.nature.weather, inLine(view.nature.weather_line, cell)] : null,
        cell.campers.map((seat) => [colourOf(view, seat), ctx.seatName(seat)]),
        ctx.changed("map", pos, "campers") && ctx.lastMover];
      return (ctx.same || ((_key, _inputs, build) => build()))(`pt-cell-${pos}`, inputs, () => {
        const el = mapCard(view, ctx, cell, edgeMoves, places.get(pos));
        el.style.gridRow = String(cell.row + 1 + ring);
        el.style.gridColumn = String(cell.col + 1 + ring);
        return el;
      });
    }),
    ring ? weatherToken(view) : null);
  const details = h("div", { class: "pt-card-details", "data-testid": "card-details", "aria-live": "polite" },
    cardDetails(view, ctx));
  return h("section", { class: "pt-map pt-panel" },
    h("h2", {}, "The map ", h("span", { class: "muted small" }, `${cols} × ${rows} · tap a card for its patches`)),
    // Focusable, so a keyboard can scroll a map wider than the screen when no card on it is.
    h("div", { class: "pt-map-scroll", "data-testid": "map-scroll", tabindex: "0", role: "region",
      "aria-label": "The map, scrolls sideways" }, grid),
    details);
}

// The map card whose details are open. The one piece of state kept between draws: a tap on a
// card that is no move opens them (a tap on a move control makes the move), and they stay open
// while the game moves on.
let shownCard = null;
export const actions = {
  details: (el) => {
    const pos = Number(el.dataset.pos);
    shownCard = shownCard === pos ? null : pos;
  },
  "close-details": () => { shownCard = null; },
};

// A card in full: its patches with their powers, basic and advanced, its cost and who is there.
function cardDetails(view, ctx) {
  const cell = view.map[shownCard];
  if (!cell) return null;
  const card = MAP.get(cell.card);
  return h("div", { class: `pt-details tent-${card.colour}` },
    h("div", { class: "pt-details-head" }, tentIcon(card.colour),
      h("strong", {}, card.name), h("span", { class: "muted small" }, ` ${card.colour} tent · cost `),
      requirementIcons(card.cost),
      h("button", { type: "button", class: "quiet pt-details-close", "data-action": "close-details" }, "Close")),
    h("ul", {}, EDGES.map((edge) => {
      const patch = PATCH.get(card.edges[edge]);
      return h("li", {}, patchShape(patch.colour), h("span", {},
        h("strong", {}, `${patch.name}`), ` (${edge} edge): ${patch.basic} `, h("em", {}, `Advanced: ${patch.advanced}`)));
    })),
    cell.campers.length ? h("p", { class: "small" }, "Campers here: ",
      cell.campers.map((s, i) => `${i ? ", " : ""}${ctx.seatName(s)}`), ".") : null);
}

// The edge of `to` (0 north, 1 east, 2 south, 3 west) a camper crosses coming from `from`.
function entryEdge(cols, from, to) {
  if (to === from + 1) return 3;
  if (to === from - 1) return 1;
  return to === from + cols ? 0 : 2;
}

// The Observation Tower's free step: one space from `pos` toward the tower.
function toward(cols, pos, tower) {
  const [r, c, tr, tc] = [Math.floor(pos / cols), pos % cols, Math.floor(tower / cols), tower % cols];
  if (r === tr) return pos + (tc > c ? 1 : -1);
  return pos + (tr > r ? cols : -cols);
}

function mapCard(view, ctx, { pos, card: id, campers }, edgeMoves, place) {
  const card = MAP.get(id);
  const animals = Object.entries(view.nature?.animals || {}).filter(([, at]) => at === pos).map(([a]) => a);
  const weatherHere = view.nature && inLine(view.nature.weather_line, view.map[pos]);
  const el = h("div", {
    class: `pt-card tent-${card.colour}${weatherHere ? ` weather-${view.nature.weather}` : ""}`,
    "data-pos": pos, "data-name": card.name, "data-action": "details",
    title: `${card.name} (${card.colour} tent). Patches: ${EDGES.map((e) => `${e} ${PATCH.get(card.edges[e]).name}`).join(", ")}. Cost: ${card.cost.join(", ")}.`,
  },
  tentIcon(card.colour),
  EDGES.map((edge, i) => edgePatch(card, edge, edgeMoves.get(`${pos}:${i}`), ctx)),
  h("div", { class: "pt-card-body" },
    h("span", { class: "pt-card-name" }, card.name),
    h("div", { class: "pt-campers", "data-testid": "campers" }, campers.map((seat) =>
      camperIcon(colourOf(view, seat), `${ctx.seatName(seat)}'s camper`))),
    view.tower === pos || animals.length ? h("div", { class: "pt-pieces" },
      view.tower === pos ? h("span", { class: "pt-token tower", "data-testid": "tower", title: "Observation Tower" }, towerIcon()) : null,
      animals.map((a) => h("span", { class: `pt-token animal-${a}`, "data-testid": "animal", title: `${a}: ${catalog.animals[a]}` }, wildlifeIcon(a)))) : null,
    h("div", { class: "pt-cost", title: `cost: ${card.cost.join(", ")}` }, requirementIcons(card.cost))));
  ctx.mark(el, "map", pos, "campers");
  if (place) {
    el.classList.add("placeable");
    ctx.moveControl(el, place);
  }
  return el;
}

function inLine(line, cell) {
  return (line.axis === "row" ? cell.row : cell.col) === line.index;
}

// The patch on one edge; a legal move over that edge makes it (or an arrow beside it) a control.
function edgePatch(card, edge, moves, ctx) {
  const patch = PATCH.get(card.edges[edge]);
  const el = h("span", { class: `pt-edge edge-${edge}`, "data-patch": patch.key, title: `${patch.name}: ${patch.basic}` },
    h("span", { class: "pt-edge-name" }, patch.name));
  if (moves?.gain) {
    el.classList.add("gain");
    ctx.moveControl(el, moves.gain);
    el.title = `${moves.gain.label}. ${patch.name}: ${patch.basic}`;
  }
  const wrap = h("div", { class: `pt-edge-wrap edge-${edge}` }, el);
  if (moves?.plain) {
    const arrow = h("span", { class: `pt-arrow from-${edge}` }, arrowIcon(edge));
    ctx.moveControl(arrow, moves.plain);
    wrap.append(arrow);
  }
  if (moves?.free) {
    const free = h("span", { class: `pt-arrow pt-free from-${edge}` }, arrowIcon(edge));
    ctx.moveControl(free, moves.free);
    wrap.append(free);
  }
  for (const kind of ["tower_gain", "tower_plain"]) {
    if (!moves?.[kind]) continue;
    const detour = h("span", { class: `pt-arrow pt-detour ${kind}` }, towerIcon());
    ctx.moveControl(detour, moves[kind]);
    wrap.append(detour);
  }
  return wrap;
}

// Arrows point the way a camper walks in over that edge.
const ARROW_TURN = { north: 90, east: 180, south: 270, west: 0 };
function arrowIcon(edge) {
  const span = h("span", { class: "pt-arrow-icon", "aria-hidden": "true" });
  // A transform attribute, not a style: the page's CSP refuses inline styles.
  span.append(markup(`<svg viewBox="0 0 12 12"><g transform="rotate(${ARROW_TURN[edge]} 6 6)"><path d="M2 6h7M6 2.5 9.5 6 6 9.5" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round"/></g></svg>`));
  return span;
}

// A cost: supplies, "any" (any card), or a tent ("tent:green").
function requirementIcons(cost) {
  return cost.map((req) => {
    if (req === "any") return h("span", { class: "pt-cost-any", title: "any supply card" }, "+1");
    if (req.startsWith("tent:")) return h("span", { class: "pt-cost-suit", title: `${req.slice(5)} tent` }, tentIcon(req.slice(5), { label: false }));
    return h("span", { class: `pt-cost-suit suit-${req}`, title: req }, suitIcon(req, SUITS));
  });
}

// The weather travels clockwise round the map on the ring of spaces beside the outer cards.
function weatherToken(view) {
  const { cols, rows } = view.grid;
  const n = view.nature;
  const ring = n.weather_pos % (2 * (cols + rows));
  let row, col; // in the frame, the map filling rows 1..rows and columns 1..cols
  if (ring < cols) [row, col] = [0, ring + 1];
  else if (ring < cols + rows) [row, col] = [ring - cols + 1, cols + 1];
  else if (ring < 2 * cols + rows) [row, col] = [rows + 1, cols - (ring - cols - rows)];
  else [row, col] = [rows - (ring - 2 * cols - rows), 0];
  return h("div", {
    class: `pt-weather-token weather-${n.weather}`, "data-testid": "weather",
    style: `grid-row:${row + 1};grid-column:${col + 1}`, title: `${n.weather}: ${catalog.weather[n.weather]}`,
  }, weatherIcon(n.weather));
}

// ---------------------------------------------------------------- mastery cards

function masterySection(view, ctx, of) {
  const claims = new Map(of("claim").map((e) => [`${e.move.mastery}:${e.move.spot}`, e]));
  return h("section", { class: "pt-masteries pt-panel" },
    h("h2", {}, "Mastery cards"),
    h("div", { class: "pt-mastery-list" }, view.masteries.map(({ key, spots }) => {
      const m = MASTERY.get(key);
      return h("div", { class: "pt-mastery", "data-testid": "mastery", "data-key": key },
        h("strong", { class: "pt-mastery-name" }, m.name),
        h("p", { class: "pt-mastery-text" }, m.text),
        h("div", { class: "pt-spots" }, spots.map(({ patch: key2, seat }, spot) => {
          const patch = PATCH.get(key2);
          const el = h("div", {
            class: `pt-spot${seat == null ? "" : " claimed"}`,
            title: `${patch.name}: ${patch.basic}${seat == null ? "" : ` (claimed by ${ctx.seatName(seat)})`}`,
          },
          patchShape(patch.colour),
          h("span", { class: "pt-spot-name" }, patch.name),
          seat == null ? null : h("span", { class: `pt-disc seat-${colourOf(view, seat)}`, "data-testid": "mastery-disc", title: `claimed by ${ctx.seatName(seat)}` }));
          const entry = claims.get(`${key}:${spot}`);
          if (entry) ctx.moveControl(el, entry);
          ctx.mark(el, "masteries", view.masteries.findIndex((m) => m.key === key), "spots", spot);
          return el;
        })));
    })));
}

// ---------------------------------------------------------------- supply

function supplyCard(c, extra = "") {
  const suits = c.suits.map((s) => h("span", { class: `pt-supply-suit suit-${s}` }, suitIcon(s, SUITS), h("span", { class: "pt-suit-name" }, s)));
  const label = [...c.suits, c.wild ? "wild" : null].filter(Boolean).join(" + ");
  return h("div", {
    class: ["pt-supply", c.wild ? "wild" : `tent-${c.tent}`, c.double && "double", extra].filter(Boolean).join(" "),
    "data-card": c.id, title: `${label}${c.tent ? `, ${c.tent} tent` : ""}`,
  },
  h("div", { class: "pt-supply-suits" }, suits,
    c.wild ? h("span", { class: "pt-supply-suit wild" }, suitIcon("wild"), h("span", { class: "pt-suit-name" }, "wild")) : null),
  c.tent ? h("span", { class: "pt-supply-tent" }, tentIcon(c.tent)) : null);
}

function supplySection(view, ctx, of) {
  const { supply } = view;
  const takes = new Map(of("take").map((e) => [e.move.slot, e]));
  const slot = (i) => {
    const c = supply.face_up[i];
    if (c == null) return h("div", { class: "pt-supply empty", title: SLOT_NAMES[i] });
    const el = supplyCard(c);
    el.title = `${el.title} (${SLOT_NAMES[i]})`;
    if (takes.has(i)) ctx.moveControl(el, takes.get(i));
    return el;
  };
  const deck = h("div", { class: "pt-deck", title: `${plural(supply.deck, "card")} in the supply deck` },
    h("span", { class: "pt-deck-count" }, supply.deck),
    h("span", { class: "small" }, "deck"));
  const draw = of("draw_deck")[0];
  if (draw) ctx.moveControl(deck, draw);
  return h("section", { class: "pt-supply-area pt-panel", "data-testid": "supply-area" },
    h("h2", {}, "Supply"),
    h("div", { class: "pt-supply-row" },
      h("div", { class: "pt-side", role: "group", "aria-label": "left of the deck" }, slot(0), slot(1)),
      deck,
      h("div", { class: "pt-side", role: "group", "aria-label": "right of the deck" }, slot(2), slot(3))),
    h("p", { class: "pt-discard small muted" }, `Discard pile: ${supply.discard}`,
      supply.discard_top ? [" · top: ", supplyName(supply.discard_top)] : null));
}

function supplyName(c) {
  return [...c.suits, c.wild ? "wild" : null].filter(Boolean).join(" + ") + (c.tent ? ` (${c.tent} tent)` : "");
}

function handSection(view, ctx, of) {
  if (view.you == null) return null;
  const me = view.seats[view.you];
  const byCard = new Map();
  for (const e of [...of("pay"), ...of("discard"), ...firstRecipient(of("give"), view, ctx)]) byCard.set(e.move.card, e);
  return h("section", { class: "pt-hand pt-panel", "data-testid": "my-hand" },
    h("h2", {}, "Your hand ", h("span", { class: "muted small" }, `${plural(me.hand.length, "card")} · limit ${me.hand_limit}`)),
    me.hand.length ? h("div", { class: "pt-hand-cards" }, me.hand.map((c) => {
      const el = supplyCard(c);
      const entry = byCard.get(c.id);
      if (entry) ctx.moveControl(el, entry);
      return el;
    })) : h("p", { class: "muted small" }, "No cards."));
}

// Gifts go to one player at a time: the hand gives to the first the engine lists. When every
// player there is due one, the others' turn comes next, so their moves need no control now;
// when fewer gifts than players are due (Good Neighbor), the others stay in the bar as choices.
function firstRecipient(gives, view, ctx) {
  if (!gives.length) return [];
  const to = gives[0].move.to;
  const p = view.pending;
  if (p && p.gifts >= p.owed.length) gives.filter((e) => e.move.to !== to).forEach(ctx.claim);
  return gives.filter((e) => e.move.to === to);
}

// ---------------------------------------------------------------- players and ranks

function playersSection(view, ctx, of) {
  const friends = of("friendship");
  const onMap = view.seats.map(() => 0);
  for (const cell of view.map) for (const seat of cell.campers) onMap[seat] += 1;
  return h("section", { class: "pt-players pt-panel" },
    h("h2", {}, "Players"),
    view.seats.map((seat) => playerPanel(view, ctx, seat, onMap[seat.seat], friends)));
}

function playerPanel(view, ctx, s, onMap, friends) {
  const colour = s.name.toLowerCase();
  const acting = !view.outcome && view.to_act.includes(s.seat);
  return h("div", {
    class: ["pt-player", `seat-${colour}`, acting && "acting", s.seat === view.you && "you"].filter(Boolean).join(" "),
    "data-testid": "player", "data-seat": s.seat,
  },
  h("div", { class: "pt-player-head" },
    camperIcon(colour),
    h("strong", { class: "pt-player-name" }, s.seat === view.you ? `You (${s.name})` : `${ctx.seatName(s.seat)} (${s.name})`),
    h("span", { class: "pt-rank-chip", "data-testid": "rank", title: `rank: ${s.rank_name}` }, animalIcon(s.rank_name), s.rank_name)),
  h("div", { class: "pt-player-counts" },
    h("span", { class: "pt-count", "data-testid": "hand-count", title: `hand limit ${s.hand_limit}` }, `${plural(s.hand_count, "card")} (limit ${s.hand_limit})`),
    h("span", { class: "pt-count", title: "campers on the map, and still in the player's supply" }, `${onMap} on the map · ${s.campers_left} to place`),
    h("span", { class: "pt-count" }, `${s.advanced} advanced`),
    s.friendship === "held" ? h("span", { class: "pt-friend-chip", "data-testid": "friendship", title: "holds a Friendship token" }, friendshipIcon(), "token") : null,
    s.friendship === "used" ? h("span", { class: "pt-count", title: "Friendship token spent" }, "token used") : null),
  s.patches.length ? h("ul", { class: "pt-patches", "data-testid": "patches" }, s.patches.map(({ patch: key, advanced }) => {
    const patch = PATCH.get(key);
    const el = h("li", {
      class: `pt-patch ${advanced ? "advanced" : "basic"}`, "data-patch": key,
      title: `${patch.name} (${advanced ? "advanced" : "basic"}): ${advanced ? patch.advanced : patch.basic}`,
    }, patchShape(patch.colour, advanced), h("span", {}, patch.name), advanced ? h("span", { class: "pt-adv" }, "advanced") : null);
    const entry = friends.find((e) => e.move.owner === s.seat && e.move.patch === key);
    if (entry) ctx.moveControl(el, entry);
    return el;
  })) : h("p", { class: "muted small pt-no-patches" }, "No patches yet."));
}

function rankSection(view, ctx) {
  return h("section", { class: "pt-ranks pt-panel", "data-testid": "rank-track" },
    h("h2", {}, "Rank track"),
    h("ol", { class: "pt-track" }, catalog.ranks.map((rank, i) => h("li", { class: "pt-rank" },
      h("div", { class: "pt-rank-animal" }, animalIcon(rank.name)),
      h("strong", {}, rank.name),
      h("span", { class: "muted small" }, `hand ${rank.hand_limit}`),
      rank.columns.length ? h("span", { class: "pt-req small" }, rank.columns.map((col, j) => [j ? h("span", { class: "muted" }, "or") : null,
        h("span", { class: "pt-col-req" }, Object.entries(col).map(([colour, n]) => h("span", { class: "pt-req-item", title: `${n} ${colour}` }, n, patchShape(colour))))]),
      rank.advanced ? h("span", { class: "pt-req-adv", title: `and ${rank.advanced} advanced` }, `+${rank.advanced}`, patchShape("grey", true)) : null)
        : h("span", { class: "muted small" }, "start"),
      h("div", { class: "pt-rank-tokens" }, view.seats.filter((s) => s.rank === i).map((s) =>
        h("span", { class: `pt-disc seat-${s.name.toLowerCase()}`, title: ctx.seatName(s.seat) })))))),
    rankLegend());
}

// What the requirements under each rank mean: shapes are patches of that colour, a column is
// one way to qualify, and the arrowed grey shape counts advanced patches.
function rankLegend() {
  const item = (shape, text) => h("span", { class: "pt-legend-key" }, shape, h("span", {}, text));
  return h("div", { class: "pt-legend small", "data-testid": "rank-legend" },
    h("p", {}, "To move up a rank, hold the patches of any one column under it (",
      h("span", { class: "pt-req-item" }, "3", patchShape("green")), " is three green patches), plus the advanced patches it asks for. Your hand limit becomes the rank's."),
    h("div", { class: "pt-legend-keys" },
      item(patchShape("green"), "green patch"),
      item(patchShape("blue"), "blue patch"),
      item(patchShape("grey"), "grey patch"),
      item(h("span", { class: "pt-req-adv" }, "+2", patchShape("grey", true)), "and 2 advanced patches, of any colour"),
      item(h("span", { class: "muted" }, "or"), "another column that qualifies too")));
}

function natureSection(view) {
  const n = view.nature;
  if (!n) return null;
  const f = n.forecast;
  return h("section", { class: "pt-nature pt-panel", "data-testid": "nature" },
    h("h2", {}, "Nature"),
    h("p", { class: "small" }, weatherIcon(n.weather), h("span", {}, h("strong", {}, n.weather), `: ${catalog.weather[n.weather]}`)),
    h("ul", { class: "pt-animal-list small" }, Object.keys(n.animals).map((a) =>
      h("li", {}, wildlifeIcon(a), h("span", {}, h("strong", {}, a), `: ${catalog.animals[a]}`)))),
    h("p", { class: "small muted pt-forecast" },
      `Forecast: ${f.weather} next; `,
      Object.keys(n.animals).map((a, i) => `${i ? ", " : ""}${a} ${f.animals[a].direction}`),
      `. ${plural(n.conditions_left, "conditions card")} left.`));
}
