// One listener for a whole table, however often it is patched: a move control carries its move
// in its data (`data-move-key`, the move's JSON), so a tap sends what the element on screen
// shows, never a move closed over by a drawing that a patch has since replaced. A renderer's
// own taps (open a card's details, choose which card to place) are elements with
// `data-action`: the renderer's `actions[name](el)` changes what it shows, then the table is
// drawn again.
export function tableEvents(root, { play, act, redraw }) {
  const control = (target) => target.closest?.("[data-move-key]");
  root.addEventListener("click", (e) => {
    const el = control(e.target);
    if (el && root.contains(el)) {
      e.stopPropagation();
      play(JSON.parse(el.dataset.moveKey));
      return;
    }
    const action = e.target.closest?.("[data-action]");
    if (action && root.contains(action)) {
      e.stopPropagation();
      act(action.dataset.action, action);
      redraw();
    }
  });
  // A control that is no button (a card, a space on the map) answers Enter and Space as one.
  root.addEventListener("keydown", (e) => {
    if (e.key !== "Enter" && e.key !== " ") return;
    const el = control(e.target);
    if (!el || el instanceof HTMLButtonElement) return;
    e.preventDefault();
    play(JSON.parse(el.dataset.moveKey));
  });
}
