// A playing card drawn as a card: name, art, action text, cost and points, in its group's
// colour. One look wherever the card is (a display, a hand, just played); the container sets
// its width and the card scales its type with it (container query units in app.css).
import { h, svgIcon } from "./dom.js";

const BOLT = '<path d="M13 2 4 14h7l-1 8 9-12h-7z"/>';
const STAR = '<path d="M12 3l2.6 5.6 6.1.7-4.5 4.2 1.2 6L12 16.6l-5.4 2.9 1.2-6-4.5-4.2 6.1-.7z"/>';

/**
 * cardFace({id, name, text, short, cost, points, group, tone, art}, {count, testid, note})
 *
 * The face shows `short` (a few words) when given, else `text`; the whole `text` is the
 * card's tooltip. `cost` null: the card is never bought (no cost corner). `tone` is a class giving the colour
 * (`--card-colour`, `--card-tint`); `art` the inner markup of a 24 × 24 SVG. `count` shows how
 * many are left in a pile; `note` a short line under the card (who played it, how).
 */
export function cardFace(card, { count = null, testid = "card", note = null } = {}) {
  const cost = card.cost == null ? null : `costs ${card.cost} energy`;
  const points = `${card.points ?? 0} experience point${card.points === 1 ? "" : "s"}`;
  return h("article", {
    class: ["card-face", card.tone].filter(Boolean).join(" "),
    "data-testid": testid,
    "data-card": card.id,
    title: [card.name, card.text, cost, points].filter(Boolean).join(" · "),
  },
  h("header", { class: "cf-name" }, card.name),
  h("div", { class: "cf-art" }, svgIcon(card.art || STAR, { cls: "cf-pic" }),
    count == null ? null : h("span", { class: "cf-count", title: `${count} left` }, `×${count}`)),
  h("p", { class: "cf-text" }, card.short || card.text || ""),
  h("footer", { class: "cf-foot" },
    card.cost == null
      ? h("span", { class: "cf-cost none", role: "img", "aria-label": "not for sale" }, "")
      : h("span", { class: "cf-cost", "data-testid": "card-cost", role: "img", "aria-label": cost }, svgIcon(BOLT), card.cost),
    h("span", { class: "cf-group" }, card.group || ""),
    h("span", { class: `cf-points${card.points ? "" : " zero"}`, "data-testid": "card-points", role: "img", "aria-label": points },
      svgIcon(STAR), card.points ?? 0)),
  note ? h("span", { class: "cf-note" }, note) : null);
}

// The back of a card, for a pile: how many it holds and what it is.
export function cardBack(label, count, { testid = "pile" } = {}) {
  return h("div", { class: "card-back", "data-testid": testid, title: `${label}: ${count}` },
    h("strong", {}, count), h("span", {}, label));
}

export const ICON = { bolt: BOLT, star: STAR };
