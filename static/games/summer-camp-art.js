// Summer Camp's pictures and card faces: pack colours, line art, the short card texts, and the
// board (the lake and three paths) as one SVG. Drawing only; the rules stay in the engine.
import { cardFace } from "../js/card.js";
import { svgIcon } from "../js/dom.js";

// 24 × 24 line art, drawn with currentColor.
export const ART = {
  adventure: '<path d="m2 20 7-12 4 6 3-4 6 10z"/><path d="m7.3 11 1.7 1.2 1.7-1.2"/>',
  arts_crafts: '<path d="M12 3a9 9 0 1 0 0 18c1.6 0 2-1 2-2s-1-1.5-1-2.5 1-1.5 2-1.5h2a4 4 0 0 0 4-4c0-4.5-4-8-9-8z"/><circle cx="7.5" cy="11" r="1.2"/><circle cx="10" cy="7" r="1.2"/><circle cx="15" cy="7" r="1.2"/>',
  cooking: '<path d="M4 10h16v4a6 6 0 0 1-6 6h-4a6 6 0 0 1-6-6z"/><path d="M2 10h20M9 7c0-1.3 1-1.3 1-2.6M14 7c0-1.3 1-1.3 1-2.6"/>',
  friendship: '<path d="M12 20s-7-4.5-7-10a4 4 0 0 1 7-2.6A4 4 0 0 1 19 10c0 5.5-7 10-7 10z"/>',
  games: '<circle cx="12" cy="12" r="8.5"/><path d="M4.3 9.3c3.5 1.3 11.9 1.3 15.4 0M4.3 14.7c3.5-1.3 11.9-1.3 15.4 0M12 3.5c-2.3 3-2.3 14 0 17"/>',
  outdoors: '<path d="M12 2 5 12h4l-3 5h12l-3-5h4z"/><path d="M12 17v5"/>',
  water_sports: '<path d="M2 9c2-2 4-2 5 0s3 2 5 0 3-2 5 0 3 2 5 0M2 15c2-2 4-2 5 0s3 2 5 0 3-2 5 0 3 2 5 0"/>',
  smores: '<rect x="4" y="4" width="16" height="5" rx="1.5"/><rect x="6" y="10" width="12" height="4" rx="2"/><rect x="4" y="15" width="16" height="5" rx="1.5"/>',
  scavenger_hunt: '<circle cx="10" cy="10" r="6"/><path d="m14.5 14.5 6 6"/>',
  free_time: '<circle cx="12" cy="12" r="4"/><path d="M12 2v3M12 19v3M2 12h3M19 12h3M4.9 4.9 7 7M17 17l2.1 2.1M4.9 19.1 7 17M17 7l2.1-2.1"/>',
  lights_out: '<path d="M20 14.5A8 8 0 1 1 9.5 4a6.5 6.5 0 0 0 10.5 10.5z"/>',
  draw: '<rect x="5" y="3" width="13" height="18" rx="2"/><path d="M11.5 8.5v7M8 12h7"/>',
  snack: '<rect x="2.5" y="8" width="19" height="8" rx="2.5"/><path d="M7 8v8M17 8v8M10 12h4"/>',
  move: '<path d="M4 12h14M13 6l6 6-6 6"/>',
  energy: '<path d="M13 2 4 14h7l-1 8 9-12h-7z"/>',
  badge: '<circle cx="12" cy="10" r="6.5"/><path d="m8.5 15.5-2 6 5.5-2.5 5.5 2.5-2-6"/>',
};

export const PACK_NAMES = {
  base: "Base",
  adventure: "Adventure",
  arts_crafts: "Arts & Crafts",
  cooking: "Cooking",
  friendship: "Friendship",
  games: "Games",
  outdoors: "Outdoors",
  water_sports: "Water Sports",
};

export const SEAT_COLOURS = ["Red", "Blue", "Green", "Yellow"];

// A card's action in a few words, for a card face on a phone; the full text is on the card too.
const SHORT = {
  none: () => "No action: play it for 1 energy.",
  energy: (c) => `Gain ${c.amount} energy.`,
  snacks: (c) => `Gain ${c.amount} snack bar tokens.`,
  draw: (c) => `Draw ${c.amount} cards.`,
  move: (c) => `Move ${c.amount} on the ${PACK_NAMES[c.pack]} path.`,
  move_any: (c) => `Move ${c.amount} on any path.`,
  scavenger_hunt: () => "Discard 1–3 cards, then draw as many.",
  take_display: (c) => ({
    4: "Take a display card costing 4 or less into your hand.",
    5: "Put a display card costing 5 or less on top of your draw pile.",
    6: "Put a display card costing 6 or less on your discard pile.",
  }[c.amount] || `Take a display card costing ${c.amount} or less.`),
  cave_exploration: () => "Put the top card of an activity pile on your discard pile.",
  tie_dye: () => "Up to twice: discard a card, move 1 on any path.",
  gods_eye: () => "Up to 3 times: pay 2 snack bar tokens, move 1 on any path.",
  macaroni_sculpture: () => "Up to twice: discard a card, gain 3 snack bar tokens.",
  bird_feeder: () => "This turn each snack bar token you spend gives 2 energy.",
  secret_admirer: () => "Gain 5 energy. Then give this card to an opponent.",
  friendship_bracelet: () => "Draw 3 cards. Then give this card to an opponent.",
  candy_stash: () => "Gain 3 snack bar tokens; every other player gains 1.",
  sing_along: () => "Draw 2 cards; every other player draws 1.",
  tag: () => "Move 1 on any path; landing on your right-hand opponent's pawn draws 1.",
  capture_the_flag: () => "Move 1 on any path; landing on your right-hand opponent's pawn gains 2 snack bar tokens.",
  dodgeball: () => "Draw 2 cards; each opponent discards 1.",
  tug_o_war: () => "Gain 2 snack bar tokens; each opponent returns 1.",
  plant_identification: () => "Take any card of your discard pile into your hand.",
  bird_watching: () => "Draw 3 cards, then discard 3.",
  fishing: () => "Move 1 on any path; landing on a bridge draws 1.",
  swim_practice: () => "Move your furthest-back pawn 1.",
  water_skiing: () => "Move your furthest-forward pawn 1.",
};

export function shortText(card) {
  const make = SHORT[card.action];
  return make ? make(card) : card.text;
}

// The face of a card from the catalog (or a bare name when the catalog lacks it).
export function scCard(catalog, key, opts = {}) {
  const card = catalog?.[key] || { name: key, pack: "base", cost: null, points: 0, text: "" };
  return cardFace({
    id: key,
    name: card.name,
    text: card.text,
    short: shortText(card),
    cost: card.cost,
    points: card.points,
    group: PACK_NAMES[card.pack] || card.pack,
    tone: `sc-pack-${card.pack}`,
    art: ART[key] || ART[card.pack] || ART.badge,
  }, opts);
}

export function icon(name, label = null, cls = "sc-icon") {
  return svgIcon(ART[name], { cls, label });
}

// ---- The board: the lake with its badges, and three paths of 18 positions. ----
// One drawing in two shapes: "wide" runs the paths left to right under the lake (as on the
// table); "tall" (a phone) stands them side by side, climbing towards the lake.

const SEAT_FILL = ["#d64541", "#2f74c0", "#3a9a4c", "#f0c419"];
const PACK_FILL = {
  adventure: "#ad5b22", arts_crafts: "#8a4fb0", cooking: "#c23b30", friendship: "#bd4177",
  games: "#94690a", outdoors: "#2f7d3a", water_sports: "#2a72b8", base: "#6b6257",
};
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));

function glyph(name, x, y, size, colour) {
  return `<svg x="${x}" y="${y}" width="${size}" height="${size}" viewBox="0 0 24 24" fill="none" stroke="${colour}" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">${ART[name]}</svg>`;
}

function pawn(seat, x, y, mine) {
  return `<g class="sc-pawn seat-${seat}${mine ? " mine" : ""}" transform="translate(${x} ${y})">`
    + `<circle cx="6" cy="4" r="3.4"/><path d="M1.2 15c0-4.2 2.2-7 4.8-7s4.8 2.8 4.8 7z"/></g>`;
}

function medal(x, y, r, colour, value, rest, label) {
  const under = rest.length ? `<text class="sc-medal-rest" x="${x}" y="${y + r + 10}">then ${rest.join(", ")}</text>` : "";
  const face = value == null
    ? `<circle cx="${x}" cy="${y}" r="${r}" class="sc-medal-gone"/><text class="sc-medal-none" x="${x}" y="${y + 4}">none</text>`
    : `<circle cx="${x}" cy="${y}" r="${r}" fill="${colour}" class="sc-medal"/><text class="sc-medal-value" x="${x}" y="${y + 5}">${value}</text>`;
  return `<g class="sc-badge-stack"><title>${esc(label)}</title>${face}${under}</g>`;
}

const BONUS_NAMES = { draw: "draw a card", snack: "a snack bar token", move: "move any of your pawns 1 space" };

/**
 * board: {paths: [{pack, bonuses[0..18], badges}], pawns[seat][path], participation, all_star,
 * bridges, lakePoints {pos: points}, you, targets: Set of path indexes offered now}
 */
export function boardSvg(board, shape) {
  const tall = shape === "tall";
  const n = board.bonuses?.length || 19;
  const last = n - 1;
  const cell = (p, pos) => tall
    ? { x: p * 116 + 19, y: 112 + (last - pos) * 24, w: 28, h: 21 }
    : { x: 96 + pos * 40, y: 76 + p * 84 + 19, w: 34, h: 26 };
  const width = tall ? 348 : 96 + n * 40 + 66;
  const height = tall ? 112 + n * 24 + 4 : 76 + 3 * 84;
  const out = [];
  out.push(`<svg class="sc-board-svg ${shape}" viewBox="0 0 ${width} ${height}" role="img" aria-label="The lake and the three paths">`);

  // The lake, with the participation and all-star badges left.
  out.push(`<rect class="sc-lake" x="2" y="2" width="${width - 4}" height="${tall ? 52 : 62}" rx="18"/>`);
  out.push(`<path class="sc-lake-wave" d="M${tall ? 14 : 20} ${tall ? 40 : 48}c8-6 16-6 24 0s16 6 24 0"/>`);
  out.push(`<text class="sc-lake-name" x="${tall ? 16 : 22}" y="${tall ? 26 : 30}">Lake</text>`);
  const lakeY = tall ? 26 : 30;
  const part = board.participation || [];
  const star = board.all_star || [];
  out.push(`<text class="sc-lake-label" x="${tall ? 150 : 300}" y="${lakeY + 4}" text-anchor="end">Participation</text>`);
  out.push(medal(tall ? 168 : 320, lakeY, 14, "#3f76a3", part[0], part.slice(1), `Participation badges left: ${part.join(", ") || "none"}`));
  out.push(`<text class="sc-lake-label" x="${tall ? 290 : 520}" y="${lakeY + 4}" text-anchor="end">All-star</text>`);
  out.push(medal(tall ? 308 : 540, lakeY, 14, "#9a6b14", star[0], star.slice(1), `Camp all-star badges left: ${star.join(", ") || "none"}`));

  board.paths.forEach((path, p) => {
    const colour = PACK_FILL[path.pack] || PACK_FILL.base;
    const target = board.targets?.has(p);
    // The path's band, a control when a move on it is offered.
    const band = tall
      ? { x: p * 116 + 2, y: 60, w: 112, h: 52 + n * 24 }
      : { x: 4, y: 76 + p * 84, w: width - 8, h: 80 };
    out.push(`<g class="sc-path${target ? " target" : ""}" data-path="${p}">`);
    out.push(`<rect class="sc-path-band" x="${band.x}" y="${band.y}" width="${band.w}" height="${band.h}" rx="12" stroke="${colour}"/>`);
    // Name and the activity badges at the path's end.
    const badges = path.badges || [];
    if (tall) {
      out.push(glyph(path.pack, band.x + 6, 66, 18, colour));
      out.push(`<text class="sc-path-name" x="${band.x + 28}" y="80">${esc(PACK_NAMES[path.pack] || path.pack)}</text>`);
      out.push(medal(band.x + 18, 97, 11, colour, badges[0], [], `${PACK_NAMES[path.pack]} badges left: ${badges.join(", ") || "none"}`));
      if (badges.length > 1) out.push(`<text class="sc-medal-rest start" x="${band.x + 34}" y="101">then ${badges.slice(1).join(", ")}</text>`);
    } else {
      out.push(glyph(path.pack, 12, band.y + 14, 22, colour));
      out.push(`<text class="sc-path-name" x="12" y="${band.y + 54}">${esc(PACK_NAMES[path.pack] || path.pack)}</text>`);
      out.push(medal(width - 34, band.y + 36, 16, colour, badges[0], badges.slice(1), `${PACK_NAMES[path.pack]} badges left: ${badges.join(", ") || "none"}`));
    }
    for (let pos = 0; pos <= last; pos++) {
      const c = cell(p, pos);
      const bridge = board.bridges.includes(pos);
      const lake = board.lakePoints[pos];
      const cls = pos === 0 ? "sc-start" : bridge ? "sc-bridge" : "sc-space";
      out.push(`<g class="sc-cell" data-pos="${pos}"><title>${pos === 0 ? "Start, off the board" : `Position ${pos}${bridge ? ", a bridge" : ""}${path.bonuses[pos] ? `: ${BONUS_NAMES[path.bonuses[pos]]}` : ""}${lake ? `; ${lake} lake point${lake > 1 ? "s" : ""}` : ""}`}</title>`);
      out.push(`<rect class="${cls}" x="${c.x}" y="${c.y}" width="${c.w}" height="${c.h}" rx="${bridge ? 2 : 6}"/>`);
      if (bridge) {
        for (let k = 1; k < 4; k++) {
          out.push(tall
            ? `<path class="sc-plank" d="M${c.x} ${c.y + (k * c.h) / 4}h${c.w}"/>`
            : `<path class="sc-plank" d="M${c.x + (k * c.w) / 4} ${c.y}v${c.h}"/>`);
        }
      }
      if (lake) out.push(`<text class="sc-lake-points" x="${c.x + c.w / 2}" y="${c.y + c.h / 2 + 4}">${lake}</text>`);
      if (pos === 0) out.push(`<text class="sc-start-label" x="${c.x + c.w / 2}" y="${c.y + c.h / 2 + 3}">start</text>`);
      const bonus = path.bonuses[pos];
      if (bonus) {
        out.push(tall
          ? glyph(bonus, c.x - 18, c.y + 3, 15, "#5a4a32")
          : glyph(bonus, c.x + c.w / 2 - 8, c.y - 18, 16, "#5a4a32"));
      }
      out.push("</g>");
    }
    // Pawns: in a row beside the space (tall) or in a 2 × 2 block under it (wide).
    const here = {};
    board.pawns.forEach((positions, seat) => {
      const pos = positions[p];
      (here[pos] ||= []).push(seat);
    });
    for (const [pos, seats] of Object.entries(here)) {
      const c = cell(p, Number(pos));
      seats.forEach((seat, k) => {
        const x = tall ? c.x + c.w + 3 + k * 15 : c.x + 4 + (k % 2) * 14;
        const y = tall ? c.y + 3 : c.y + c.h + 2 + Math.floor(k / 2) * 16;
        out.push(pawn(seat, x, y, seat === board.you));
      });
    }
    out.push("</g>");
  });
  out.push("</svg>");
  return out.join("");
}

export const SEAT_FILLS = SEAT_FILL;
export const PACK_FILLS = PACK_FILL;
