// Summer Camp: what is asked now, the lake and the three paths, the display, your hand and
// played cards, every player's board, and the final scoring. The view names cards by catalog
// id; the catalog (names, packs, costs, points, texts) is fetched once when this module loads.
// Every control comes from view.legal_moves; moves not placed here fall to the frame's bar.
import { api } from "../js/api.js";
import { cardBack } from "../js/card.js";
import { h, markup } from "../js/dom.js";
import { boardSvg, icon, PACK_NAMES, scCard, SEAT_COLOURS } from "./summer-camp-art.js";

const CATALOG = await api("GET", "/api/games/summer-camp/catalog").catch(() => null);
const CARDS = CATALOG?.cards || {};
const BOARD = CATALOG?.board || { bridges: [6, 12, 18], lake_points: { 13: 1, 14: 2, 15: 3, 16: 4, 17: 5 } };

// Where a prompt's card choice is made: on the cards of your hand, or on copies of the cards
// offered (from the display or your discard pile) drawn in the prompt itself.
const CHOOSE_FROM = {
  take_display: "display",
  plant_identification: "discard",
  scavenger_hunt: "hand",
  tie_dye: "hand",
  macaroni_sculpture: "hand",
  bird_watching: "hand",
  dodgeball: "hand",
};
const CHOOSE_WORD = { display: "Take", discard: "Take", hand: "Discard" };
const WHERE_HINT = { hand: "Tap Discard under a card of your hand." };
const BADGE_NAMES = { participation: "Participation", all_star: "Camp all-star" };

export function render(root, view, ctx) {
  const moves = (type) => view.legal_moves.filter((e) => e.move.type === type);
  const chooseFrom = CHOOSE_FROM[view.prompt?.kind];
  const cardChoices = moves("choose_card");
  const choices = (where) => (chooseFrom === where ? cardChoices : []);

  // Drawn first so the table places its controls; the prompt goes on top and takes the rest.
  // The board and the display are drawn again only when what they show changes.
  const same = ctx.same || ((_key, _inputs, build) => build());
  const mover = ctx.lastMover;
  const board = same("sc-board", [view.paths, view.seats.map((s) => s.pawns), view.participation, view.all_star,
    view.you, moves("choose_path"), view.seats.map((s) => view.paths.map((_, p) => ctx.changed("seats", s.seat, "pawns", p))), mover],
  () => boardSection(view, ctx, moves("choose_path")));
  const display = same("sc-display", [view.paths, view.supply, moves("buy"),
    view.paths.map((path, p) => path.display.map((_, i) => ctx.changed("paths", p, "display", i))), mover],
  () => displaySection(view, ctx, moves("buy")));
  const played = playedSection(view, ctx);
  const mine = view.you == null ? null : handSection(view, ctx, moves("play"), choices("hand"));
  const seats = seatsSection(view, ctx);
  const ask = prompt(view, ctx, moves, cardChoices.filter((e) => !choices("hand").includes(e)));

  root.append(h("div", { class: "sc", "data-testid": "summer-camp" },
    view.outcome ? scoring(view, ctx) : ask,
    h("div", { class: "sc-layout" },
      board,
      h("div", { class: "sc-col sc-main" }, mine, played, seats),
      h("div", { class: "sc-col sc-side" }, display))));
}

// The engine's log names seats by colour; show who sits there too.
// Each seat's colour, as the game names it: the frame draws the seat's badges in it.
export function seatColour(view, seat) {
  return SEAT_COLOURS[seat] || null;
}

export function logText(event, ctx) {
  return event.text.replace(/\b(Red|Blue|Green|Yellow)\b/g,
    (colour) => `${ctx.seatName(SEAT_COLOURS.indexOf(colour))} (${colour})`);
}

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
const who = (seat, view, ctx) => (seat === view.you ? "You" : ctx.seatName(seat));
const cardName = (key) => CARDS[key]?.name || key;

function dot(seat) {
  return h("span", { class: `sc-dot seat-${seat}`, "aria-hidden": "true" });
}

function pill(iconName, text, attrs = {}) {
  return h("span", { class: "pill sc-pill", ...attrs }, iconName ? icon(iconName) : null, text);
}

// What is asked now, and the controls that are not on a card or a path.
function prompt(view, ctx, moves, otherCards) {
  const p = view.prompt;
  const mineNow = view.to_act.includes(view.you);
  const active = view.active;
  const status = h("div", { class: "sc-status" },
    pill(null, `Round ${view.turn}`),
    view.ending ? pill(null, "Last round", { class: "pill sc-pill ending" }) : null,
    pill(null, [dot(active), ` ${who(active, view, ctx)} ${active === view.you ? "play" : "plays"}`]),
    pill("energy", `${view.energy} energy`, { "data-testid": "energy", title: "energy left this turn" }),
    view.bird_feeder ? pill("snack", "Tokens give 2 energy", { title: "Bird feeder: each snack bar token spent gives 2 energy" }) : null);

  let text;
  if (p && p.seats.includes(view.you)) {
    // The prompt's text names its card first ("Dodgeball: discard…"): say it once.
    const named = p.card ? `${cardName(p.card)}: ` : "";
    const ask = named && p.text.startsWith(named) ? p.text.slice(named.length) : p.text;
    text = active === view.you ? p.text : p.card ? `${ctx.seatName(active)} played ${cardName(p.card)}: ${ask}` : p.text;
  } else if (p) text = `Waiting for ${p.seats.map((s) => ctx.seatName(s)).join(", ")}: ${p.text}`;
  else if (active === view.you) text = "Your turn: play cards, buy from the display, then end your turn.";
  else text = `${ctx.seatName(active)} is playing.`;

  const buttons = [];
  for (const e of moves("choose_path")) {
    const pack = view.paths[e.move.path].pack;
    const from = view.you == null ? null : view.seats[view.you].pawns[e.move.path];
    buttons.push(ctx.moveButton(e, [icon(pack), ` ${PACK_NAMES[pack]}`, from == null ? null : h("span", { class: "sc-from" }, ` from ${from || "start"}`)]));
  }
  for (const e of moves("choose_pile")) {
    const path = view.paths[e.move.path];
    buttons.push(ctx.moveButton(e, [icon(path.pack), ` ${PACK_NAMES[path.pack]} pile (${path.draw_pile})`]));
  }
  for (const e of moves("choose_player")) buttons.push(ctx.moveButton(e, [dot(e.move.seat), ` ${ctx.seatName(e.move.seat)}`]));
  for (const e of moves("done")) buttons.push(ctx.moveButton(e, e.label));
  const turnButtons = [
    ...moves("spend_snack").map((e) => ctx.moveButton(e, [icon("snack"), " Spend a token"])),
    ...moves("end_turn").map((e) => {
      const b = ctx.moveButton(e, "End turn");
      b.classList.add("primary");
      return b;
    }),
  ];
  const where = p && p.seats.includes(view.you) ? CHOOSE_FROM[p.kind] : null;
  const cardsBelow = moves("choose_card").length > otherCards.length;
  const asking = p?.card && CARDS[p.card] ? scCard(CARDS, p.card, { testid: "asking-card" }) : null;
  return h("section", { class: `sc-prompt${mineNow ? " mine" : ""}`, "data-testid": "sc-prompt" },
    status,
    h("div", { class: "sc-ask-row" },
      asking ? h("div", { class: "sc-asking" }, asking) : null,
      h("div", { class: "sc-ask-body" },
        h("p", { class: "sc-ask", "data-testid": "sc-ask" }, text),
        WHERE_HINT[where] && cardsBelow ? h("p", { class: "sc-hint small" }, WHERE_HINT[where]) : null,
        buttons.length ? h("div", { class: "buttons" }, buttons) : null,
        turnButtons.length ? h("div", { class: "buttons sc-turn-buttons" }, turnButtons) : null)),
    otherCards.length ? h("div", { class: "sc-cards sc-choice" }, cardSlots(otherCards.map((e) => e.move.card), (key) =>
      otherCards.filter((e) => e.move.card === key).map((e) => ctx.moveButton(e, CHOOSE_WORD[CHOOSE_FROM[p?.kind]] || "Choose")))) : null);
}

// Cards grouped by id (a hand of three Lights out! shows one card, ×3), with their buttons.
function cardSlots(keys, buttonsFor, opts = {}) {
  const counts = new Map();
  for (const key of keys) counts.set(key, (counts.get(key) || 0) + 1);
  return [...counts].map(([key, n]) => {
    const buttons = buttonsFor(key);
    return h("div", { class: "sc-slot", "data-card": key },
      scCard(CARDS, key, { count: n > 1 ? n : null, testid: opts.testid || "card" }),
      buttons.length ? h("div", { class: "buttons" }, buttons) : null);
  });
}

function boardSection(view, ctx, paths) {
  const targets = new Map(paths.map((e) => [e.move.path, e]));
  const board = {
    paths: view.paths,
    pawns: view.seats.map((s) => s.pawns),
    participation: view.participation,
    all_star: view.all_star,
    bridges: BOARD.bridges,
    lakePoints: BOARD.lake_points,
    you: view.you,
    targets: new Set(targets.keys()),
  };
  const section = h("section", { class: "sc-panel sc-board", "data-testid": "board" });
  section.append(markup(boardSvg(board, "tall") + boardSvg(board, "wide")));
  for (const g of section.querySelectorAll(".sc-path")) {
    const entry = targets.get(Number(g.dataset.path));
    if (entry) ctx.moveControl(g, entry);
    for (const s of view.seats) ctx.mark(g, "seats", s.seat, "pawns", Number(g.dataset.path));
  }
  const key = h("p", { class: "sc-key muted small" },
    h("span", {}, icon("draw"), "draw a card"),
    h("span", {}, icon("snack"), "snack bar token"),
    h("span", {}, icon("move"), "move any of your pawns"),
    h("span", {}, h("span", { class: "sc-lake-key" }, "1–5"), "lake points if short of the final bridge"));
  section.append(key);
  return section;
}

function displaySection(view, ctx, buys) {
  const buttonsFor = (key) => buys.filter((e) => e.move.card === key).map((e) => ctx.moveButton(e, "Buy"));
  const slot = (key, count = null) => {
    if (!key) return h("div", { class: "sc-slot empty-slot" }, h("div", { class: "sc-empty" }, "empty"));
    const buttons = buttonsFor(key);
    const face = scCard(CARDS, key, { count, testid: "display-card" });
    return h("div", { class: "sc-slot", "data-card": key }, face, buttons.length ? h("div", { class: "buttons" }, buttons) : null);
  };
  return h("section", { class: "sc-panel sc-display", "data-testid": "display" },
    h("h2", {}, "The display"),
    view.paths.map((path, p) => h("div", { class: "sc-display-row" },
      h("h3", {}, icon(path.pack), PACK_NAMES[path.pack]),
      h("div", { class: "sc-cards" },
        h("div", { class: "sc-slot" }, cardBack("left in the pile", path.draw_pile, { testid: "activity-pile" })),
        path.display.map((key, i) => ctx.mark(slot(key), "paths", p, "display", i))))),
    h("h3", {}, "Camp supplies"),
    h("div", { class: "sc-cards" }, view.supply.map(({ card, left }) => (left ? slot(card, left)
      : h("div", { class: "sc-slot" }, h("div", { class: "sc-empty" }, `No ${cardName(card)} left`))))));
}

function playedSection(view, ctx) {
  const active = view.active;
  const cards = view.played.map(({ card, use }, i) => ctx.mark(h("div", { class: "sc-slot" },
    scCard(CARDS, card, { testid: "played-card", note: use === "energy" ? "for 1 energy" : "for its action" })), "played", i));
  return h("section", { class: "sc-panel sc-played", "data-testid": "played" },
    h("h2", {}, dot(active), active === view.you ? "You played this turn" : `${ctx.seatName(active)} played this turn`),
    cards.length ? h("div", { class: "sc-cards" }, cards) : h("p", { class: "muted small" }, "Nothing yet."));
}

function handSection(view, ctx, plays, discards) {
  const me = view.seats[view.you];
  const buttonsFor = (key) => [
    ...plays.filter((e) => e.move.card === key).map((e) => ctx.moveButton(e, e.move.use === "energy" ? "+1 energy" : "Play")),
    ...discards.filter((e) => e.move.card === key).map((e) => ctx.moveButton(e, "Discard")),
  ];
  return h("section", { class: "sc-panel sc-hand seat-panel", "data-testid": "my-hand" },
    h("h2", {}, dot(view.you), "Your hand", h("span", { class: "muted small" }, ` ${plural(view.hand.length, "card")}`)),
    view.hand.length ? h("div", { class: "sc-cards", "data-testid": "hand" }, cardSlots(view.hand, buttonsFor, { testid: "hand-card" }))
      : h("p", { class: "muted small" }, "No cards in your hand."),
    h("div", { class: "sc-mine" },
      pill("snack", plural(me.snack_tokens, "snack bar token"), { "data-testid": "my-snacks" }),
      pill(null, `Draw pile ${me.draw_pile}`),
      pill(null, `Discard pile ${me.discard_pile}`)),
    me.discard?.length ? h("details", { class: "sc-discard" },
      h("summary", {}, `Your discard pile (${me.discard.length})`),
      h("p", { class: "small" }, me.discard.map(cardName).join(", "))) : null);
}

function badgeList(badges) {
  if (!badges.length) return h("span", { class: "muted small" }, "no badges yet");
  return badges.map((b) => h("span", { class: `sc-badge kind-${b.kind}`, "data-testid": "badge", title: `${BADGE_NAMES[b.kind] || PACK_NAMES[b.kind]} badge` },
    icon(BADGE_NAMES[b.kind] ? "badge" : b.kind), `${BADGE_NAMES[b.kind] || PACK_NAMES[b.kind]} ${b.points}`));
}

function seatsSection(view, ctx) {
  return h("section", { class: "sc-panel sc-seats", "data-testid": "seats" },
    h("h2", {}, "Campers"),
    view.seats.map((s) => h("div", { class: `sc-seat${s.seat === view.you ? " you" : ""}${s.seat === view.active ? " active" : ""}`, "data-testid": s.seat === view.you ? "my-seat" : "their-seat" },
      h("div", { class: "sc-seat-head" },
        dot(s.seat),
        h("strong", {}, s.seat === view.you ? `You · ${ctx.seatName(s.seat)}` : ctx.seatName(s.seat)),
        h("span", { class: "muted small" }, ` ${s.name}${s.seat === view.start_player ? " · start player" : ""}`)),
      h("div", { class: "sc-seat-facts" },
        pill(null, `Hand ${s.hand}`, { "data-testid": "hand-count" }),
        pill(null, `Draw ${s.draw_pile}`),
        pill(null, `Discard ${s.discard_pile}`, { title: s.discard_top ? `top: ${cardName(s.discard_top)}` : "empty" }),
        pill("snack", `${s.snack_tokens}`, { title: "snack bar tokens", "data-testid": "snacks" }),
        pill("badge", `${s.card_points} card pts`, { title: "experience points on the cards they own" }),
        s.lake_points ? pill(null, `${s.lake_points} lake pts`) : null),
      h("div", { class: "sc-badges" }, badgeList(s.badges)))));
}

// The outcome box's figure for a seat: what its score counts.
export function figure(view, seat) {
  return { value: view.outcome.scores[seat], unit: "points" };
}

function scoring(view, ctx) {
  const rows = view.outcome.details?.breakdown;
  const { winners } = view.outcome;
  const told = [h("h2", { "data-testid": "table-outcome" }, ctx.outcomeText),
    ctx.concededText ? h("p", { class: "small" }, ctx.concededText) : null];
  if (!rows) {
    return h("section", { class: "sc-panel sc-scoring", "data-testid": "breakdown" }, told,
      h("p", { class: "muted small" }, "Nobody was scored: the game ended when a camper conceded."));
  }
  const tieBroken = winners.length === 1 && rows.filter((r) => r.total === rows[winners[0]].total).length > 1;
  const headline = winners.length > 1
    ? `${winners.map((s) => who(s, view, ctx)).join(" and ")} share the win with ${rows[winners[0]].total} points`
    : `${who(winners[0], view, ctx)} ${winners[0] === view.you ? "have" : "has"} ${rows[winners[0]].total} points${tieBroken ? " and won on snack bar tokens" : ""}`;
  const badgeNames = (r) => r.badges.map((b) => `${BADGE_NAMES[b.kind] || PACK_NAMES[b.kind]} ${b.points}`).join(" · ");
  // One row per player (so four players still fit a phone), their badges on a line below.
  return h("section", { class: "sc-panel sc-scoring", "data-testid": "breakdown" },
    told,
    h("p", { "data-testid": "sc-winner" }, headline),
    h("table", {},
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, "Camper"), h("th", { scope: "col" }, "Badges"), h("th", { scope: "col" }, "Cards"),
        h("th", { scope: "col" }, "Lake"), h("th", { scope: "col", title: "snack bar tokens: the tie-break" }, "Snacks"),
        h("th", { scope: "col" }, "Total"))),
      rows.map((r) => h("tbody", { class: winners.includes(r.seat) ? "winner" : "", "data-testid": "score-row" },
        h("tr", {},
          h("th", { scope: "row" }, h("span", { class: "sc-who" }, dot(r.seat), h("span", {}, who(r.seat, view, ctx)))),
          h("td", { "data-testid": "badge-points" }, r.badge_points),
          h("td", { "data-testid": "card-points" }, r.card_points),
          h("td", { "data-testid": "lake-points" }, r.lake_points),
          h("td", { class: "tie" }, r.snack_tokens),
          h("td", { class: "total" }, h("strong", { "data-testid": "total" }, r.total))),
        h("tr", { class: "sc-badge-line" }, h("td", { colspan: 6 }, r.badges.length ? badgeNames(r) : "no merit badges"))))),
    h("p", { class: "muted small" }, "Score: merit badges + the points on every card a camper owns + lake points for pawns short of the final bridge. A tie goes to the most snack bar tokens."));
}
