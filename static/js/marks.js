// The last move on the table: a renderer names the part of the view an element draws
// (ctx.mark(el, "seats", 1, "area", 0, 2)) and the frame compares it with the view before the
// latest change. What changed gets the class `just-changed` and a badge with the mover's seat.
import { addedEntries } from "./log.js";

const at = (doc, path) => path.reduce((value, key) => (value == null ? undefined : value[key]), doc);

export function lastMove(before, view) {
  // Who moved: the first seat named by the log lines this change added.
  const added = before ? addedEntries(before, view) : [];
  const mover = added.find((event) => event.seat != null)?.seat ?? null;
  const changed = (...path) => before != null
    && JSON.stringify(at(before, path)) !== JSON.stringify(at(view, path));
  const mark = (el, ...path) => {
    if (el && changed(...path)) {
      el.classList.add("just-changed");
      if (mover != null) el.dataset.movedBy = String(mover + 1);
    }
    return el;
  };
  return { changed, mark, mover };
}

export const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

// On your turn, when no move control is on screen (a placement below the fold on a phone),
// the first one is scrolled into view.
export function showFirstMove(root) {
  const controls = [...root.querySelectorAll('[data-testid="move"]:not(.undo-step)')].filter((el) => el.getClientRects().length);
  const onScreen = (el) => {
    const r = el.getBoundingClientRect();
    return r.bottom > 0 && r.top < window.innerHeight && r.right > 0 && r.left < window.innerWidth;
  };
  if (!controls.length || controls.some(onScreen)) return;
  controls[0].scrollIntoView({ block: "center", behavior: reducedMotion() ? "auto" : "smooth" });
}
