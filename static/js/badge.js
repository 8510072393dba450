// The app's badge (the Badging API, where the browser has it) counts the tables where it is
// your turn; "Next table" takes you to the next of them.
import { api } from "./api.js";
import { fill, h } from "./dom.js";

let shown = null;

// The tables waiting for the player, soonest deadline first ({count, games}); the badge says
// how many.
export async function yourTurns() {
  const turns = await api("GET", "/api/players/me/turns");
  showBadge(turns.count);
  return turns;
}

// A count of 0 clears the badge; the same count is not set twice.
export function showBadge(count) {
  if (!("setAppBadge" in navigator) || count === shown) return;
  shown = count;
  (count ? navigator.setAppBadge(count) : navigator.clearAppBadge()).catch(() => {});
}

// The table to go to after ``gameId``: the next in the list's order, round to the first; null
// when no other table waits.
export function nextTable(turns, gameId) {
  const others = turns.games.filter((g) => g.game_id !== gameId);
  if (!others.length) return null;
  const at = turns.games.findIndex((g) => g.game_id === gameId);
  return at < 0 ? others[0] : turns.games[(at + 1) % turns.games.length];
}

// The table page's link to the next table where it is the player's turn: {element, ask()}.
export function nextTableLink(gameId) {
  const element = h("span", { class: "next-table" });
  const ask = async () => {
    let turns;
    try {
      turns = await yourTurns();
    } catch {
      return; // a watcher without a name, or the server away: no link this time
    }
    const next = nextTable(turns, gameId);
    const others = turns.games.filter((g) => g.game_id !== gameId).length;
    fill(element, next ? h("a", {
      href: `/games/${next.game_id}`, "data-nav": true, class: "button", "data-testid": "next-table",
      title: `${others} other table${others > 1 ? "s" : ""} where it is your turn`,
    }, `Next table (${others})`) : null);
  };
  return { element, ask };
}
