// Camping Life: both play areas, the round's row with its coin stacks, the next-round cards,
// coins in hand and on the table, missions, the latest turn-over and the final scoring.
// Every control comes from view.legal_moves; moves not placed here fall to the frame's bar.
import { h, markup } from "../js/dom.js";

// Simple line icons (24 × 24), one per kind of card, plus the umbrella symbol.
const ICONS = {
  road: '<path d="M8 2 5 22M16 2l3 20"/><path d="M12 3v3m0 4v4m0 4v3"/>',
  pool: '<rect x="3" y="5" width="18" height="14" rx="4"/><path d="M6 11c1.5-1.5 3-1.5 4 0s2.5 1.5 4 0 2.5-1.5 4 0M6 15c1.5-1.5 3-1.5 4 0s2.5 1.5 4 0 2.5-1.5 4 0"/>',
  forest: '<path d="M8 3 3 14h10zM8 14v6M16 7l-4.5 9h9zM16 16v4"/>',
  tent: '<path d="M12 4 2.5 20h19z"/><path d="m12 12-3.5 8h7z"/>',
  campfire: '<path d="M12 3c3 4 5 6 5 9a5 5 0 0 1-10 0c0-2 1-3 2-4 0 2 1 3 2 3-1-3 0-6 1-8z"/><path d="m4 21 16-3M4 18l16 3"/>',
  house: '<path d="M4 11 12 4l8 7v9H4z"/><path d="M10 20v-5h4v5"/>',
  mission: '<path d="M12 3l2.6 5.6 6.1.7-4.5 4.2 1.2 6L12 16.6l-5.4 2.9 1.2-6-4.5-4.2 6.1-.7z"/>',
  umbrella: '<path d="M3 12a9 9 0 0 1 18 0z"/><path d="M12 12v7a2 2 0 0 1-4 0"/>',
};
const SHORT = { road: "Road", pool: "Pool", forest: "Forest", tent: "Tent", campfire: "Campfire", house: "House" };
const CATEGORIES = [
  ["roads", "Roads"], ["pools", "Swimming pools"], ["forests", "Forests"], ["tents", "Tents"], ["campfires", "Campfires"],
];
const STAGE = { pick: "Picking", place: "Placing cards" };
const ASK = {
  bid_card: "put a coin face down on a card of this round",
  bid_table: "put a coin face down on the table",
  pick: "pick a next-round card",
  place: "place a card",
};

// Of the won cards waiting to be placed, the one this player chose to place next.
let chosen = null;
export const actions = {
  choose: (el) => { chosen = JSON.parse(el.dataset.card); },
};

export function render(root, view, ctx) {
  const all = (type) => view.legal_moves.filter((e) => e.move.type === type);
  // Several won cards may wait: the player taps the one to place next, then a space for it.
  const toPlace = [...new Set(all("place").map((e) => e.move.card))];
  if (!toPlace.includes(chosen)) chosen = toPlace[0] ?? null;
  all("place").filter((e) => e.move.card !== chosen).forEach(ctx.claim);
  const of = (type) => type === "place" ? all("place").filter((e) => e.move.card === chosen) : all(type);
  const me = view.you ?? 0;
  const them = 1 - me;

  const same = ctx.same || ((_key, _inputs, build) => build());
  // Once this round's coins on the cards are turned over, the turn-over takes the row's place.
  const turnedOver = view.phase === "place" && view.last_round?.round === view.round;

  root.append(h("div", { class: `cl you-${me}`, "data-testid": "camping-life" },
    prompt(view, ctx, toPlace),
    view.outcome ? scoring(view, ctx) : null,
    // Two columns on a wide screen; on a phone the sections are reordered into one (CSS order).
    h("div", { class: "cl-board" },
      h("div", { class: "cl-col cl-main" },
        view.outcome ? null : [
          turnedOver ? revealSection(view, ctx, "This round: coins turned over", "cl-row") : rowSection(view, ctx, of),
          coinsSection(view, ctx, of, me, them),
          nextSection(view, ctx, of)],
        seatPanel(view, view.seats[me], ctx, of, "large")),
      h("div", { class: "cl-col cl-side" },
        // The other seat's area and the missions are drawn again only when they change.
        same(`cl-seat-${them}`, [view.seats[them], view.you, ctx.seatName(them),
          view.seats[them].area.map((row, r) => row.map((_, c) => ctx.changed("seats", them, "area", r, c))), ctx.lastMover],
        () => seatPanel(view, view.seats[them], ctx, null, "small")),
        turnedOver ? null : revealSection(view, ctx, "Last turn-over", "cl-reveal"),
        same("cl-missions", [view.open_missions, view.secret_missions, view.secret_mission, view.you,
          ctx.seatName(0), ctx.seatName(1)], () => missionsSection(view, ctx))))));
}

// The engine's log names seats by colour; show who sits there too.
// Each seat's colour, as the game names it: the frame draws the seat's badges in it.
export function seatColour(view, seat) {
  return ["Red", "Blue"][seat] || null;
}

export function logText(event, ctx) {
  return event.text.replace(/\b(Red|Blue)\b/g, (colour) => `${ctx.seatName(colour === "Red" ? 0 : 1)} (${colour})`);
}

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

function who(seat, ctx, view) {
  return seat === view.you ? "You" : ctx.seatName(seat);
}

function icon(name) {
  const span = h("span", { class: "cl-icon", "aria-hidden": "true" });
  span.append(markup(`<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round">${ICONS[name]}</svg>`));
  return span;
}

// A card is a picture named by its whole name; one that is a move control becomes a button.
function tile(card, extra = "") {
  const classes = ["tile", card.kind, card.road && "with-road", extra].filter(Boolean);
  return h("div", { class: classes.join(" "), title: card.name, role: "img", "aria-label": card.name },
    icon(card.kind),
    h("span", { class: "tile-name" }, SHORT[card.kind], card.road ? h("span", { class: "tile-extra" }, " + road") : null),
    card.umbrella ? h("span", { class: "umbrella-mark", title: "umbrella" }, icon("umbrella")) : null);
}

// A coin: its value when this page may know it, otherwise a blank face-down disc. A face-down
// coin of your own shows its value to you, drawn dashed.
function coin(seat, value, { hidden = false, down = false, testid = null } = {}) {
  if (hidden) return h("span", { class: `coin down seat-${seat}`, "data-testid": testid || "hidden-coin", role: "img", "aria-label": "face-down coin" });
  return h("span", { class: `coin seat-${seat}${down ? " own-down" : ""}`, "data-testid": testid, title: down ? "face down: only you see it" : null }, value);
}

function coinButton(ctx, entry, seat) {
  const button = ctx.moveButton(entry, String(entry.move.coin));
  button.classList.add("coin", `seat-${seat}`);
  button.setAttribute("aria-label", entry.label);
  return button;
}

function prompt(view, ctx, toPlace) {
  const mine = view.to_act.includes(view.you) && !view.outcome;
  const won = [view.placing, ...view.waiting].filter((p) => p && p.seat === view.you);
  const placing = mine && view.phase === "place" ? won.find((p) => p.card.id === chosen) : view.placing;
  let text;
  if (view.outcome?.ended_by === "concession") text = "The game is over: a camper conceded.";
  else if (view.outcome) text = "The game is over: the coins are put away and the secret missions are revealed.";
  else if (mine && view.phase === "place" && toPlace.length > 1) text = `Choose the card to place next, then tap a highlighted space for the ${placing.card.name}.`;
  else if (mine && view.phase === "place") text = `Place the ${placing.card.name} in your play area: tap a highlighted space.`;
  else if (mine && view.phase === "pick") text = "Your table total is highest: pick one of the next-round cards. You place it first.";
  else if (mine && view.phase === "bid_card") text = "Put a coin face down on a card of this round: tap a coin under the card.";
  else if (mine && view.phase === "bid_table") text = "Now put a coin face down on the table: tap one of your coins.";
  else if (view.to_act.length) {
    const seat = view.to_act[0];
    const what = view.phase === "place" && placing ? `to place the ${placing.card.name}` : `to ${ASK[view.phase] || "move"}`;
    text = `Waiting for ${ctx.seatName(seat)} ${what}.`;
  } else text = "";
  const after = view.waiting.length
    ? h("p", { class: "muted small" }, "Still to place: ",
      view.waiting.map((w, i) => [i ? ", " : "", `${w.card.name} (${who(w.seat, ctx, view)})`]))
    : null;
  return h("section", { class: `cl-prompt${mine ? " mine" : ""}`, "data-testid": "cl-prompt" },
    h("div", { class: "cl-status" },
      h("span", { class: "pill" }, `Round ${view.round}`),
      view.outcome ? null : h("span", { class: "pill" }, STAGE[view.phase] || `Turn ${view.turn} of 3`),
      h("span", { class: "pill" }, `Starts: ${ctx.seatName(view.starter)}`),
      h("span", { class: "pill" }, `Draw pile ${view.draw_pile}`),
      view.discard_pile == null ? null : h("span", { class: "pill" }, `Discarded ${view.discard_pile}`)),
    h("div", { class: "cl-ask-row" },
      placing && !view.outcome ? tile(placing.card, "placing") : null,
      h("p", { class: "cl-ask" }, text)),
    mine && toPlace.length > 1 ? h("div", { class: "cl-choose", role: "group", "aria-label": "Card to place next" },
      toPlace.map((id) => {
        const card = won.find((p) => p.card.id === id).card;
        return h("button", { type: "button", class: `choose-card${id === chosen ? " chosen" : ""}`, "aria-pressed": String(id === chosen),
          "data-testid": "choose-card", "data-action": "choose", "data-card": JSON.stringify(id) }, tile(card));
      })) : null,
    after);
}

function rowSection(view, ctx, of) {
  const bids = of("bid_card");
  const cards = view.row.map(({ card, bids: stack }, i) => {
    const mineHere = bids.filter((e) => e.move.card === card.id);
    return h("div", { class: `row-card${mineHere.length ? " biddable" : ""}`, "data-testid": "row-card" },
      tile(card),
      ctx.mark(h("div", { class: "stack", role: "group", "aria-label": "coins on this card" },
        stack.length
          ? stack.map((b) => coin(b.seat, b.coin, { hidden: b.coin == null, down: true }))
          : h("span", { class: "muted small" }, "no coins")), "row", i, "bids"),
      mineHere.length ? h("div", { class: "bid-coins" },
        mineHere.map((e) => coinButton(ctx, e, view.you))) : null);
  });
  return h("section", { class: "cl-row cl-panel" },
    h("h2", {}, "This round"),
    cards.length ? h("div", { class: "row-cards" }, cards)
      : h("p", { class: "muted small" }, "No cards this round."));
}

function nextSection(view, ctx, of) {
  const picks = new Map(of("pick").map((e) => [e.move.card, e]));
  const picker = view.picker == null ? null : ctx.seatName(view.picker);
  return h("section", { class: "cl-next cl-panel" },
    h("h2", {}, "Next round"),
    view.next_round.length ? h("div", { class: "next-cards" }, view.next_round.map((card) => {
      const el = tile(card);
      const entry = picks.get(card.id);
      if (entry) ctx.moveControl(el, entry);
      return el;
    })) : h("p", { class: "muted small" }, "No next-round cards."),
    h("p", { class: "muted small" }, picker && view.phase === "pick"
      ? `${picker} has the higher table total and picks one.`
      : "The higher table total picks one at the end of the round."));
}

function revealSection(view, ctx, heading, where) {
  const last = view.last_round;
  if (!last) return null;
  return ctx.mark(h("section", { class: `${where} cl-turnover cl-panel`, "data-testid": "reveal" },
    h("h2", {}, heading),
    h("p", { class: "small" }, tableNote(last, ctx, view)),
    h("ul", {}, last.cards.map((r) => h("li", {},
      tile(r.card, "mini"),
      h("span", { class: "reveal-bids" }, r.bids.length
        ? r.bids.map((b) => h("span", { class: "bid" }, b.coins.map((c) => coin(b.seat, c))))
        : h("span", { class: "muted small" }, "no coins")),
      cardFate(r, ctx, view))))), "last_round");
}

// Who won the table and what they picked with it.
function tableNote(last, ctx, view) {
  const [red, blue] = last.table_totals;
  const totals = `Table totals: ${ctx.seatName(0)} ${red}, ${ctx.seatName(1)} ${blue}.`;
  if (last.picker != null) return `${totals} ${who(last.picker, ctx, view)} picked the ${last.picked.name}.`;
  if (red === blue) return `${totals} A tie: nobody picked; the next-round cards were discarded.`;
  return `${totals} No next-round card was left to pick.`;
}

function cardFate(r, ctx, view) {
  if (r.winner == null) return h("strong", { class: "fate discarded" }, "discarded");
  return h("strong", { class: `fate won seat-${r.winner}` }, `→ ${who(r.winner, ctx, view)}`,
    r.placed === false ? h("span", { class: "discarded no-room" }, "no room: discarded") : null);
}

function missionCard(m, label, testid) {
  return h("div", { class: "mission", "data-testid": testid },
    icon("mission"),
    h("div", {}, h("span", { class: "mission-label" }, label), h("span", { class: "mission-text" }, m.text)),
    h("strong", { class: "points", title: `${m.points} points` }, m.points));
}

function missionsSection(view, ctx) {
  const me = view.you ?? 0;
  const them = 1 - me;
  const secrets = view.secret_missions;
  const mySecret = secrets ? secrets[me] : view.secret_mission;
  return h("section", { class: "cl-missions cl-panel" },
    h("h2", {}, "Missions"),
    view.open_missions.map((m) => missionCard(m, "Open", "open-mission")),
    mySecret ? missionCard(mySecret, view.you == null ? `Secret · ${ctx.seatName(me)}` : "Your secret", "my-secret") : null,
    secrets
      ? missionCard(secrets[them], `Secret · ${ctx.seatName(them)}`, "their-secret")
      : h("div", { class: "mission down", "data-testid": "their-secret" },
        icon("mission"), h("span", { class: "mission-label" }, view.you == null ? "Two secret missions, face down" : `${ctx.seatName(them)}'s secret: face down`)),
    h("p", { class: "muted small" }, "Every mission scores for whoever meets it; a tie scores nothing."));
}

function seatPanel(view, seat, ctx, of, size) {
  const mine = size === "large";
  const own = seat.seat === view.you;
  const places = new Map((of ? of("place") : []).map((e) => [`${e.move.row},${e.move.col}`, e]));
  const ghost = places.size ? [view.placing, ...view.waiting].find((p) => p?.card.id === chosen)?.card : null;
  // The area may grow past its grid's edge (a row above, a column to the left…) while it still
  // fits in 3 rows of 4: those spaces are drawn around the grid while they can be chosen.
  const targets = [...places.values()].map((e) => e.move);
  const rows = span(0, 2, targets.map((m) => m.row));
  const cols = span(0, 3, targets.map((m) => m.col));
  const area = h("div", { class: `area ${size} cols-${cols.length}`, "data-testid": mine ? "my-area" : "their-area" },
    rows.flatMap((r) => cols.map((c) => {
      const card = seat.area[r]?.[c];
      const entry = places.get(`${r},${c}`);
      if (card) return ctx.mark(h("div", { class: "cell" }, tile(card)), "seats", seat.seat, "area", r, c);
      const outside = !seat.area[r] || c < 0 || c > 3;
      const cell = h("div", { class: `cell empty${outside ? " outside" : ""}`, "data-row": r, "data-col": c });
      if (entry) {
        cell.classList.add("target");
        cell.append(tile(ghost, "ghost"));
        ctx.moveControl(cell, entry);
      }
      return cell;
    })));
  return h("section", { class: `cl-seat cl-panel seat-${seat.seat} ${size}`, "data-testid": mine ? "my-seat" : "their-seat" },
    h("h2", {}, h("span", { class: `dot seat-${seat.seat}` }), own ? `You · ${seat.name}` : `${ctx.seatName(seat.seat)} · ${seat.name}`,
      h("span", { class: "muted small" }, ` ${seat.cards_in_area}/12 cards · ${plural(seat.terrain_score, "point")} on the cards`)),
    area);
}

// The whole numbers from min(low, values) to max(high, values).
function span(low, high, values) {
  const from = Math.min(low, ...values);
  const to = Math.max(high, ...values);
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

// Both players' coins: in hand (the opponent's face down) and on the table.
function coinsSection(view, ctx, of, me, them) {
  return h("section", { class: "cl-coins cl-panel", "data-testid": "coins" },
    [me, them].map((s) => coinsLine(view, view.seats[s], ctx, of)));
}

function coinsLine(view, seat, ctx, of) {
  const table = [
    seat.table_coins.map((v) => coin(seat.seat, v)),
    seat.table_coin_down ? coin(seat.seat, seat.table_coin, { hidden: seat.table_coin == null, down: true }) : null,
  ];
  let hand;
  if (seat.coins) {
    const tables = new Map((of ? of("bid_table") : []).map((e) => [e.move.coin, e]));
    hand = seat.coins.map((v) => {
      const entry = tables.get(v);
      if (!entry) return coin(seat.seat, v);
      tables.delete(v);
      return coinButton(ctx, entry, seat.seat);
    });
  } else {
    hand = Array.from({ length: seat.coins_left }, () => coin(seat.seat, null, { hidden: true, testid: "held-coin" }));
  }
  const own = seat.seat === view.you;
  return h("div", { class: "coins", "data-testid": own ? "my-coins" : "their-coins" },
    h("span", { class: "coins-who" }, h("span", { class: `dot seat-${seat.seat}` }), own ? "You" : ctx.seatName(seat.seat)),
    h("div", { class: "coin-group" }, h("span", { class: "label" }, "In hand"),
      hand.length ? hand : h("span", { class: "muted small" }, "none")),
    ctx.mark(h("div", { class: "coin-group" }, h("span", { class: "label" }, seat.table_coins.length ? `On the table (${seat.table_total})` : "On the table"),
      seat.table_coins.length || seat.table_coin_down ? table : h("span", { class: "muted small" }, "none")), "seats", seat.seat, "table_coin_down"));
}

// The outcome box's figure for a seat: what its score counts.
export function figure(view, seat) {
  return { value: view.outcome.scores[seat], unit: "points" };
}

function scoring(view, ctx) {
  const told = [h("h2", { "data-testid": "table-outcome" }, ctx.outcomeText),
    ctx.concededText ? h("p", { class: "small" }, ctx.concededText) : null];
  if (!view.outcome.details?.breakdown) {
    return h("section", { class: "cl-scoring cl-panel", "data-testid": "breakdown" }, told,
      h("p", { class: "muted small" }, "Nobody was scored: the game ended when a camper conceded, and the secret missions stay secret."));
  }
  const { breakdown, secret_missions: secrets, cards_in_area: cards } = view.outcome.details;
  const seats = view.seats.map((s) => s.seat);
  const missions = [
    ...view.open_missions.map((m) => [m, "open"]),
    ...secrets.map((m, seat) => [m, `secret · ${ctx.seatName(seat)}`]),
  ];
  const { scores, winners } = view.outcome;
  const tied = winners.length === 1 && seats.every((s) => scores[s] === scores[winners[0]]);
  const score = [...scores].sort((a, b) => b - a).join(" to ");
  const headline = winners.length > 1
    ? `${winners.map((s) => ctx.seatName(s)).join(" and ")} share the victory, ${score}`
    : `${ctx.seatName(winners[0])} wins, ${score}${tied ? ", with more cards in the play area" : ""}`;
  const row = (label, values, attrs = {}) => h("tr", attrs, h("th", { scope: "row" }, label), values.map((v) => h("td", {}, v)));
  return h("section", { class: "cl-scoring cl-panel", "data-testid": "breakdown" },
    told,
    h("p", { "data-testid": "cl-winner" }, headline),
    h("table", {},
      h("thead", {}, h("tr", {}, h("td", {}), seats.map((s) => h("th", { scope: "col" }, ctx.seatName(s), h("br"), h("span", { class: "muted small" }, view.seats[s].name))))),
      h("tbody", {},
        CATEGORIES.map(([key, label]) => row(label, seats.map((s) => breakdown[s][key]), { "data-testid": "category", "data-category": key })),
        missions.map(([m, kind]) => row(
          [m.text, h("span", { class: "muted small" }, ` (${kind} · ${m.points} points)`)],
          seats.map((s) => breakdown[s].missions[m.key] ?? 0),
          { "data-testid": "mission-score", "data-mission": m.key, class: "mission-row" })),
        row("Cards in the play area", seats.map((s) => cards[s]), { class: "cards-row" })),
      h("tfoot", {}, row("Total", seats.map((s) => h("strong", {}, breakdown[s].total)), { class: "total" }))));
}
