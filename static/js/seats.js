// A table's seats: each seat's badge, and the strip of seats over the table (who acts, bots,
// ratings, who is away, the time each has).
import { duration, timeLeft } from "./clock.js";
import { h, ICONS, svgIcon } from "./dom.js";
import { botLevel } from "./options.js";
import { standInText } from "./outcome.js";
import { ratingTag } from "./rating.js";

// A seat's badge: its number on the seat's colour where the game gives seats colours (the
// number and the colour's name are the cues that do not rely on colour).
export function seatBadge(seat, colour, title) {
  return h("span", { class: `badge${colour ? ` seat-colour-${colour.toLowerCase()}` : ""}`,
    title: colour ? `${title} (${colour})` : title, "data-testid": "seat-badge" }, seat + 1);
}

export function seatsStrip(view, seatName, colourOf, kind) {
  const seats = view.table?.seats || Array.from({ length: view.players }, (_, seat) => ({ seat }));
  return h("ol", { class: "seat-strip", "data-testid": "seat-strip" }, seats.map((s) => {
    const acting = !view.outcome && view.to_act.includes(s.seat);
    const winner = view.outcome?.winners.includes(s.seat);
    return h("li", { class: ["chip", acting && "acting", s.seat === view.you && "you", winner && "winner"].filter(Boolean).join(" ") },
      acting ? h("span", { class: "dot", role: "img", "aria-label": "to act" }) : null,
      seatBadge(s.seat, colourOf(s.seat), seatName(s.seat)),
      seatName(s.seat),
      colourOf(s.seat) ? h("span", { class: "seat-colour-name" }, colourOf(s.seat)) : null,
      s.bot ? h("span", { class: "tag bot", title: botLevel(kind, s.bot).about, "data-testid": "seat-level" },
        svgIcon(ICONS.bot), `Bot · ${botLevel(kind, s.bot).name}`) : null,
      ratingTag(s.rating),
      s.seat === view.you ? h("span", { class: "tag you" }, "you") : null,
      s.conceded ? h("span", { class: "tag" }, "conceded") : null,
      standInText(view, s.seat) ? h("span", { class: "tag", "data-testid": "stand-in" }, standInText(view, s.seat)) : null,
      s.away && !view.outcome ? h("span", { class: "tag away", title: "away: the bot plays this seat", "data-testid": "seat-away" }, "away") : null,
      acting && s.deadline ? h("span", { class: "countdown", "data-deadline": s.deadline, "data-testid": "countdown", title: "time left" },
        timeLeft(s.deadline)) : null,
      !acting && s.bank != null && !view.outcome ? h("span", { class: "bank muted small", "data-testid": "bank", title: "time in the bank for the next turn" },
        duration(s.bank)) : null,
      winner ? h("span", { class: "chip-icon trophy" }, svgIcon(ICONS.trophy, { label: "winner" })) : null);
  }));
}
