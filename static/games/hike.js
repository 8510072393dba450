// Let's Take a Hike: backpacks drawn as their seven spaces, the trail (piles and hike), scores.
// Every control comes from view.legal_moves; moves not placed here fall to the frame's bar.
import { h, ICONS as SITE_ICONS, svgIcon } from "../js/dom.js";

const TROPHY = SITE_ICONS.trophy;

// Line art (24 × 24) per item and hazard, drawn inline so no page needs an emoji font.
const ICONS = {
  tent: '<path d="M12 4 2.5 20h19z"/><path d="m12 12-3.5 8h7z"/>',
  sleeping_bag: '<rect x="3" y="7" width="18" height="10" rx="5"/><path d="M8 7v10"/>',
  pans: '<circle cx="10" cy="13" r="6"/><path d="m15 9 6-5"/>',
  camera: '<rect x="3" y="7" width="18" height="13" rx="2"/><circle cx="12" cy="13.5" r="3.5"/><path d="M8 7l2-3h4l2 3"/>',
  map: '<path d="M3 6l6-2 6 2 6-2v14l-6 2-6-2-6 2z"/><path d="M9 4v14M15 6v14"/>',
  compass: '<circle cx="12" cy="12" r="9"/><path d="m15.5 8.5-2 5-5 2 2-5z"/>',
  flashlight: '<path d="M8 3h8l-1 6H9z"/><rect x="9" y="9" width="6" height="12" rx="1"/><path d="M12 13v2"/>',
  water_bottle: '<path d="M10 2h4v3l2 3v12a2 2 0 0 1-2 2h-4a2 2 0 0 1-2-2V8l2-3z"/><path d="M8 12h8"/>',
  walking_stick: '<path d="M8 21 15 5"/><path d="M15 5c1-2 4-2 4 0"/>',
  bear_spray: '<rect x="7" y="7" width="10" height="14" rx="2"/><path d="M9 7V4h6v3M15 4h3"/><path d="M10 12h4"/>',
  socks: '<path d="M9 3h6v9l4 3a3 3 0 0 1-3 5l-6-4a3 3 0 0 1-1-2z"/><path d="M9 6h6"/>',
  granola_bar: '<rect x="3" y="8" width="18" height="8" rx="2"/><path d="M7 8v8M11 8v8M15 8v8"/>',
  raccoon: '<path d="M4 6l3 4M20 6l-3 4"/><ellipse cx="12" cy="14" rx="8" ry="6"/><path d="M6 13h12"/><circle cx="9" cy="13" r="1"/><circle cx="15" cy="13" r="1"/>',
  skunk: '<path d="M4 18c0-5 3-8 8-8h2c3 0 4 3 4 6"/><path d="M18 16c2-2 3-6 1-10-1 3-3 4-5 4"/><path d="M6 18v2M12 18v2"/>',
  blister: '<path d="M5 17c0-6 3-11 7-11s7 5 7 11z"/><circle cx="12" cy="13" r="2.5"/>',
  bear: '<circle cx="6" cy="6" r="2"/><circle cx="18" cy="6" r="2"/><circle cx="12" cy="13" r="7"/><circle cx="12" cy="15" r="2"/>',
  boot: '<path d="M7 3h5v9l7 3v4H5V9z"/><path d="M5 19v2h14v-2"/>',
  item: '<path d="M6 8h12l-1 12H7z"/><path d="M9 8a3 3 0 0 1 6 0"/>',
  hazard: '<path d="M12 3 2 21h20z"/><path d="M12 9v5M12 17v.5"/>',
};
const SPACE_TITLES = {
  top: "Top", left_hand: "Left hand", left_pocket: "Left pocket", middle: "Middle",
  right_pocket: "Right pocket", right_hand: "Right hand", bottom: "Bottom",
};
const BUTTON_MOVES = ["draw", "hike", "join", "stay", "continue"];

export function render(root, view, ctx) {
  const moves = view.legal_moves;
  const of = (type) => moves.filter((e) => e.move.type === type);
  const me = view.you == null ? null : view.seats[view.you];
  const same = ctx.same || ((_key, _inputs, build) => build());

  root.append(h("div", { class: me ? "hike" : "hike watching", "data-testid": "hike" },
    prompt(view, ctx, of),
    trail(view, ctx, of),
    me ? h("section", { class: "hike-mine" },
      h("h2", {}, "Your backpack ", h("span", { class: "muted" }, `${me.backpack_miles} mi packed`)),
      backpack(view, me, ctx, of, "large"),
      seatNotes(view, me, ctx)) : null,
    h("section", { class: "hike-others" },
      h("h2", { class: "sr-only" }, me ? "The other backpacks" : "Backpacks"),
      // The other backpacks and the scores are drawn again only when what they show changes.
      view.seats.filter((s) => s.seat !== view.you).map((s) => same(`hike-seat-${s.seat}`,
        [s, ctx.seatName(s.seat), view.spaces, view.hike?.lead, view.hike?.dropped_out, view.turn, Boolean(view.outcome),
          view.spaces.map((space) => ctx.changed("seats", s.seat, "backpack", space)), ctx.lastMover],
        () => h("div", { class: `hike-seat${s.hiking ? " hiking" : ""}`, "data-testid": "other-backpack" },
          h("h3", {}, seatLabel(s.seat, ctx)),
          h("p", { class: "muted small packed" }, `${s.backpack_miles} mi packed · ${s.score} mi hiked`),
          backpack(view, s, ctx, null, "small"),
          seatNotes(view, s, ctx))))),
    same("hike-scores", [view.seats.map((s) => [s.score, s.scored, ctx.seatName(s.seat), ctx.changed("seats", s.seat, "score")]),
      view.outcome, ctx.outcomeText, ctx.concededText, ctx.lastMover], () => scoreboard(view, ctx))));
}

// The engine's log says "Player 2"; show the name sitting in that seat instead.
export function logText(event, ctx) {
  return event.text.replace(/\bPlayer (\d+)\b/g, (_, n) => ctx.seatName(Number(n) - 1));
}

function seatLabel(seat, ctx) {
  return [h("span", { class: "badge" }, seat + 1), ctx.seatName(seat)];
}

function icon(card) {
  return svgIcon(ICONS[card.name] || ICONS[card.kind] || ICONS.item);
}

function cardEl(card, extra = "") {
  return h("div", { class: `hcard ${card.kind} ${extra}`.trim(), title: `${card.title}${card.kind === "item" ? `, ${card.miles} mi` : " (hazard)"}` },
    icon(card),
    h("span", { class: "name" }, card.title),
    card.kind === "item" ? h("span", { class: "miles" }, `${card.miles} mi`) : h("span", { class: "miles" }, "hazard"));
}

// What you are asked now, with the plain-button moves (draw, hike, join, stay, continue, drop out);
// while others decide, what they are deciding. Always drawn, so the table does not jump.
function prompt(view, ctx, of) {
  if (view.outcome) return null;
  if (!view.to_act.includes(view.you)) {
    return h("section", { class: "hike-prompt waiting", "data-testid": "hike-prompt" },
      h("p", {}, waitingText(view, ctx)));
  }
  const owes = view.seats[view.you].owes;
  let text = "Your move.";
  if (owes) text = oweText(owes);
  else if (view.phase === "pack") text = of("pack").length
    ? `Pack the ${view.pending.title}: tap a space in your backpack.`
    : `No room for the ${view.pending.title}: tap a card to discard.`;
  else if (view.phase === "join") text = `${ctx.seatName(view.hike.lead)} is taking a hike. Will you join?`;
  else if (view.phase === "decide") text = "Continue the hike, or drop out and score?";
  else if (view.phase === "turn") text = "Your turn: draw a card for your backpack, or take a hike.";
  else if (view.phase === "setup") text = "Your dealt items do not all fit in your backpack: tap one to leave out.";

  const buttons = BUTTON_MOVES.flatMap(of).map((e) => ctx.moveButton(e));
  // Dropping out with nothing to pick (or taking the whole pile) is a button; scoring one card is a tap on it.
  const dropAll = of("drop_out").filter((e) => e.move.score == null).map((e) => ctx.moveButton(e));
  return h("section", { class: "hike-prompt", "data-testid": "hike-prompt" },
    view.pending && view.phase === "pack" ? pendingCard(view, ctx, of) : null,
    view.phase === "setup" ? dealtCards(view.seats[view.you], ctx, of) : null,
    h("div", { class: "ask" },
      h("p", {}, text),
      buttons.length || dropAll.length ? h("div", { class: "buttons" }, buttons, dropAll) : null,
      of("drop_out").some((e) => e.move.score != null)
        ? h("p", { class: "muted small" }, "To drop out, tap the hiking-pile card you score.") : null));
}

function waitingText(view, ctx) {
  const who = view.to_act.map(ctx.seatName).join(" and ");
  const many = view.to_act.length > 1;
  const what = {
    setup: many ? "are choosing which dealt items to leave out" : "is choosing which dealt item to leave out",
    turn: "is choosing: draw a card or take a hike",
    pack: `is packing the ${view.pending?.title}`,
    join: "is deciding whether to join the hike",
    resolve: many ? "are discarding" : "is discarding",
    decide: "is deciding whether to continue or drop out",
  }[view.phase];
  return what ? `${who} ${what}.` : `Waiting for ${who}.`;
}

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

// owes = {rule, count, miles, reason}: what a seat still has to discard, and why.
function oweText(owes) {
  if (owes.rule === "miles") return `No ${owes.reason} in your backpack: discard cards worth at least ${plural(owes.miles, "more mile")}.`;
  if (owes.rule === "highest") return `The ${owes.reason}: discard one of your cards with the most miles.`;
  return `The ${owes.reason}: discard ${plural(owes.count, "card")} of your choice.`;
}

function oweTag(owes) {
  if (owes.rule === "miles") return `owes ${owes.miles} mi (${owes.reason})`;
  if (owes.rule === "highest") return `${owes.reason}: loses a top card`;
  return `${owes.reason}: discards ${owes.count}`;
}

function pendingCard(view, ctx, of) {
  const card = cardEl(view.pending, "pending");
  const discardNew = of("discard").find((e) => e.move.card === view.pending.id);
  if (discardNew) ctx.moveControl(card, discardNew);
  return h("div", { class: "pending-wrap" }, h("span", { class: "small muted" }, "Drawn"), card);
}

// Setup: the dealt items that do not all fit; tapping one leaves it out.
function dealtCards(me, ctx, of) {
  const choices = new Map(of("discard").map((e) => [e.move.card, e]));
  return h("div", { class: "pending-wrap dealt", "data-testid": "dealt" },
    h("span", { class: "small muted" }, "Dealt"),
    me.unpacked.map((c) => {
      const el = cardEl(c);
      if (choices.has(c.id)) ctx.moveControl(el, choices.get(c.id));
      return el;
    }));
}

function trail(view, ctx, of) {
  const hike = view.hike;
  const scorable = new Map(of("drop_out").filter((e) => e.move.score != null).map((e) => [e.move.score, e]));
  const pile = hike ? hike.pile.map((c, i) => {
    const el = ctx.mark(cardEl(c), "hike", "pile", i);
    if (scorable.has(c.id)) ctx.moveControl(el, scorable.get(c.id));
    return el;
  }) : [];
  return h("section", { class: "hike-trail" },
    h("div", { class: "piles" },
      h("div", { class: "pile", "data-testid": "draw-pile" }, h("strong", {}, view.draw_pile), h("span", {}, "draw pile")),
      h("div", { class: "pile discard" }, h("strong", {}, view.discard_pile), h("span", {}, "discards"))),
    h("div", { class: "hiking" },
      hike ? [
        h("p", { class: "hikers" }, svgIcon(ICONS.boot), " Lead hiker: ", h("strong", {}, ctx.seatName(hike.lead)),
          hike.hikers.length > 1 ? [" · with ", hike.hikers.filter((s) => s !== hike.lead).map(ctx.seatName).join(", ")] : null,
          hike.dropped_out.length ? h("span", { class: "muted" }, ` · back at camp: ${hike.dropped_out.map(ctx.seatName).join(", ")}`) : null),
        h("div", { class: "hike-pile", "data-testid": "hiking-pile" },
          pile.length ? pile : h("span", { class: "muted" }, "No card turned up yet.")),
        h("p", { class: "muted small" }, `Hiking pile: ${hike.pile_miles} mi`,
          view.ended_during_hike ? " · the draw pile ran out: this is the last hike" : ""),
      ] : h("p", { class: "muted" }, "Nobody is on a hike. The hiking pile is empty.")));
}

// The seven spaces in the shape of a backpack; packing and discarding happen by tapping them.
function backpack(view, seat, ctx, of, size) {
  const packs = of ? new Map(of("pack").map((e) => [e.move.space, e])) : new Map();
  const discards = of ? of("discard").filter((e) => e.move.card !== view.pending?.id) : [];
  const names = new Map(Object.values(seat.backpack).filter(Boolean).map((c) => [c.id, c.name]));
  return h("div", { class: `backpack ${size}`, "data-testid": size === "large" ? "my-backpack" : null },
    h("div", { class: "pack-body", "aria-hidden": "true" }),
    view.spaces.map((space) => {
      const card = seat.backpack[space];
      const cell = ctx.mark(h("div", { class: `space ${space}${card ? "" : " empty"}`, "data-space": space },
        card ? cardEl(card) : h("span", { class: "space-name" }, SPACE_TITLES[space] || space)), "seats", seat.seat, "backpack", space);
      const pack = packs.get(space);
      const discard = card && discards.find((e) => names.get(e.move.card) === card.name);
      if (pack) {
        cell.classList.add("target");
        cell.append(h("span", { class: "hint" }, card ? "swap in" : "pack here"));
        ctx.moveControl(cell, pack);
      } else if (discard) {
        cell.classList.add("target", "discard");
        cell.append(h("span", { class: "hint" }, "discard"));
        ctx.moveControl(cell, discard);
      }
      return cell;
    }));
}

function seatNotes(view, seat, ctx) {
  const hike = view.hike;
  const notes = [];
  if (hike?.lead === seat.seat) notes.push(h("span", { class: "tag lead" }, svgIcon(ICONS.boot), " lead hiker"));
  else if (seat.hiking) notes.push(h("span", { class: "tag hiker" }, "hiking"));
  else if (hike?.dropped_out.includes(seat.seat)) notes.push(h("span", { class: "tag" }, "back at camp"));
  if (view.turn === seat.seat && !view.outcome) notes.push(h("span", { class: "tag" }, "turn"));
  // What the seat still owes is the longest note: last, where it may wrap.
  if (seat.owes) notes.push(h("span", { class: "tag owes" }, oweTag(seat.owes)));
  return notes.length ? h("p", { class: "notes" }, notes) : null;
}

// The outcome box's figure for a seat: what its score counts.
export function figure(view, seat) {
  const miles = view.outcome.scores[seat];
  return { value: miles, unit: miles === 1 ? "mile" : "miles" };
}

function scoreboard(view, ctx) {
  const winners = view.outcome?.winners || [];
  const tie = view.outcome?.details?.tie_break;
  return h("section", { class: "hike-scores card", "data-testid": "scoreboard" },
    h("h2", {}, view.outcome ? "Final miles" : "Miles hiked"),
    view.outcome ? h("p", { class: "hike-result", "data-testid": "table-outcome" }, ctx.outcomeText) : null,
    ctx.concededText ? h("p", { class: "small" }, ctx.concededText) : null,
    h("ul", {}, view.seats.map((s) => h("li", { class: winners.includes(s.seat) ? "winner" : "" },
      h("span", { class: "who" }, seatLabel(s.seat, ctx), winners.includes(s.seat) ? svgIcon(TROPHY, { label: "winner" }) : ""),
      ctx.mark(h("strong", { class: "number" }, `${s.score} mi`,
        view.outcome ? h("span", { class: "muted small" }, ` · ${plural(s.scored.length, "card")}`) : null), "seats", s.seat, "score"),
      h("span", { class: "scored" }, s.scored.length
        ? s.scored.map((c) => h("span", { class: "mini", title: `${c.title}, ${c.miles} mi` }, icon(c), c.miles))
        : h("span", { class: "muted small" }, "no cards yet"))))),
    tie ? h("p", { class: "small" },
      `${tie.tied.map(ctx.seatName).join(" and ")} tied on miles and cards, so they drew from the discards until the Skunk turned up`,
      tie.losers.length ? `: ${tie.losers.map(ctx.seatName).join(" and ")} drew it and lost.` : ".") : null);
}
