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

const figure = (rating) => `${rating.points}${rating.provisional ? "?" : ""}`;

// What a rated game did to a seat's rating, in the outcome box: "1779? → 1897?".
export function ratingChange(change) {
  if (!change) return null;
  const delta = change.after.points - change.before.points;
  const title = `rating ${figure(change.before)} before this game, ${figure(change.after)} after `
    + `(${delta < 0 ? "−" : "+"}${Math.abs(delta)}; ? while provisional)`;
  return h("span", { class: "tag rating", title, "data-testid": "rating-change" },
    `${figure(change.before)} → ${figure(change.after)}`);
}

// Why a table its host made rated is not: "Not rated: Gus has no sign-in." (the outcome box).
export function unratedNote(table) {
  if (!table?.rated || !table.unrated_because) return null;
  return h("p", { class: "muted", "data-testid": "unrated-because" }, `Not rated: ${table.unrated_because}.`);
}

// In a lobby the host made rated, who keeps it from being rated; a guest seated here is
// offered a sign-in, which keeps their seat and makes the table rated.
export function lobbyRatedNote(lobby, me) {
  const seats = lobby.seats.filter((s) => s.unrated_because);
  if (!seats.length || lobby.status !== "open") return null;
  const mine = seats.some((s) => s.player?.id === me?.id);
  const why = seats.map((s) => (s.player?.id === me?.id ? "you have no sign-in" : s.unrated_because)).join("; ");
  return h("p", { class: "notice", "data-testid": "unrated-because" },
    `Not rated: ${why}. `,
    mine
      ? [h("a", { href: `/account?next=${encodeURIComponent(`/lobbies/${lobby.id}`)}`, "data-testid": "add-sign-in" }, "Add a sign-in"),
        " (a handle and a password; you keep your seat) to make this table rated."]
      : "It becomes rated if they add a sign-in before the start.");
}
