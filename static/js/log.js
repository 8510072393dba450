// A view holds the latest entries of the game's log (`log`) and how many it has in all
// (`log_length`): entry n, numbered over the whole game, is log[n - first]. Patches append new
// entries; older ones come a page at a time from GET /api/games/{id}/log.
import { api, withInvite } from "./api.js";

const PAGE = 50;

export const firstHeld = (view) => (view.log_length ?? (view.log || []).length) - (view.log || []).length;

export const logEntry = (view, n) => (n == null ? null : view.log?.[n - firstHeld(view)] ?? null);

// The entries a change added: the last (new length - old length) of them.
export function addedEntries(before, view) {
  const added = (view.log_length ?? 0) - (before.log_length ?? 0);
  return added > 0 ? (view.log || []).slice(-added) : [];
}

// Prepends the page before the oldest entry `view` holds; false when there is none, or
// another page is on its way.
let loading = false;
export async function loadOlder(gameId, view) {
  const before = firstHeld(view);
  if (before <= 0 || loading) return false;
  loading = true;
  try {
    const page = await api("GET", withInvite(`/api/games/${gameId}/log?before=${before}&limit=${PAGE}`));
    // The view may have been replaced meanwhile (a whole state): only a page that ends where
    // it starts is put before its entries.
    if (firstHeld(view) !== page.before) return false;
    view.log = [...page.entries, ...view.log];
    return page.entries.length > 0;
  } finally {
    loading = false;
  }
}
