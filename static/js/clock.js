// Table clocks: how long a person has per move, and the countdown to a seat's deadline.

// "45 s", "3 min", "2 h", "1 day": a lobby's turn_seconds (null: no clock).
export function perMove(seconds) {
  if (seconds == null) return "no clock";
  if (seconds < 60) return `${seconds} s per move`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min per move`;
  if (seconds < 86400) return `${Math.round(seconds / 3600)} h per move`;
  const days = Math.round(seconds / 86400);
  return `${days} day${days > 1 ? "s" : ""} per move`;
}

// Time left until an ISO deadline: "2:05", "1:02:05", "3 d 4 h"; "0:00" once it has passed.
export function timeLeft(deadline, now = Date.now()) {
  const left = Math.max(0, Math.floor((Date.parse(deadline) - now) / 1000));
  const [d, h, m, s] = [Math.floor(left / 86400), Math.floor(left / 3600) % 24, Math.floor(left / 60) % 60, left % 60];
  if (d) return `${d} d ${h} h`;
  const mmss = `${String(m).padStart(h ? 2 : 1, "0")}:${String(s).padStart(2, "0")}`;
  return h ? `${h}:${mmss}` : mmss;
}

// Keeps every [data-deadline] element under root counting down, once a second; returns a stop.
export function countDown(root) {
  const tick = () => {
    for (const el of root.querySelectorAll("[data-deadline]")) el.textContent = timeLeft(el.dataset.deadline);
  };
  const timer = setInterval(tick, 1000);
  return () => clearInterval(timer);
}

// The choices a host has when creating a lobby; the server's default is 3 minutes.
export const PER_MOVE_CHOICES = [60, 180, 600, 3600, 86400, null];
export const PER_MOVE_DEFAULT = 180;
