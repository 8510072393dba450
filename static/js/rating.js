// A seat's rating in the table's game, as a small tag: "1530", or "1530?" while provisional.
import { h } from "./dom.js";

export function ratingTag(rating) {
  if (!rating) return null;
  const title = rating.provisional
    ? `rating ${rating.points}, provisional: ${rating.games} rated game${rating.games === 1 ? "" : "s"} so far`
    : `rating ${rating.points} after ${rating.games} rated games`;
  return h("span", { class: "tag rating", title, "data-testid": "rating" }, `${rating.points}${rating.provisional ? "?" : ""}`);
}

// A player's name links to their profile when they have one.
export function profileLink(name, handle) {
  return handle ? h("a", { href: `/players/${encodeURIComponent(handle)}`, class: "profile-name" }, name) : name;
}
