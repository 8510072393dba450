// Table clocks: a speed's choices, and the time a seat has left.
import { h } from "./dom.js";

// Whole seconds as a clock reads them: "2:05", "1:02:05", "3 d 4 h".
export function duration(left) {
  left = Math.max(0, Math.floor(left));
  const [d, h, m, s] = [Math.floor(left / 86400), Math.floor(left / 3600) % 24, Math.floor(left / 60) % 60, left % 60];
  if (d) return `${d} d ${h} h`;
  const mmss = `${String(m).padStart(h ? 2 : 1, "0")}:${String(s).padStart(2, "0")}`;
  return h ? `${h}:${mmss}` : mmss;
}

// Time left until an ISO deadline; "0:00" once it has passed.
export function timeLeft(deadline, now = Date.now()) {
  return duration((Date.parse(deadline) - now) / 1000);
}

// Keeps every [data-deadline] element under root counting down, once a second; returns a stop.
export function countDown(root) {
  const tick = () => {
    for (const el of root.querySelectorAll("[data-deadline]")) el.textContent = timeLeft(el.dataset.deadline);
  };
  const timer = setInterval(tick, 1000);
  return () => clearInterval(timer);
}

// A select of the speeds (GET /api/queue/speeds), grouped by pace: "Real time", "Turn-based",
// then "Untimed"; the option's text is the speed's own name.
export function speedOptions(speeds, chosen) {
  const groups = new Map();
  for (const s of speeds) {
    if (!groups.has(s.pace)) groups.set(s.pace, []);
    groups.get(s.pace).push(s);
  }
  return [...groups].map(([pace, list]) => (pace === "untimed"
    ? list.map((s) => option(s, chosen, "Untimed"))
    : h("optgroup", { label: pace === "real time" ? "Real time" : "Turn-based" }, list.map((s) => option(s, chosen, s.name))))).flat();
}

const option = (speed, chosen, text) => h("option", { value: speed.id, selected: speed.id === chosen }, text);

// Play now's and a new lobby's first choice: a real-time game in one sitting.
export const SPEED_DEFAULT = "3m";
