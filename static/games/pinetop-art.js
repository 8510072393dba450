// Camp Pinetop's pictures as inline SVG (no emoji fonts needed): tent shapes, campers, the five
// rank animals, supply suits, weather, wildlife and the observation tower.
import { h, svgChildren } from "../js/dom.js";

const NS = "http://www.w3.org/2000/svg";

// Tent colours and their shapes: green circle, blue square, grey diamond.
export const TENT_SHAPE = { green: "circle", blue: "square", grey: "diamond" };

const SHAPES = {
  circle: '<circle cx="12" cy="12" r="10"/>',
  square: '<rect x="2.5" y="2.5" width="19" height="19" rx="2"/>',
  diamond: '<path d="M12 1 23 12 12 23 1 12z"/>',
};
const TENT_GLYPH = '<path d="M12 6.5 6.5 16.5h11z" fill="#fff"/><path d="M12 11.5l-2 5h4z" fill="currentColor"/>';

// The rank animals' faces, drawn on a 32 × 32 grid.
const ANIMALS = {
  possum: '<path d="M6 8a4 4 0 1 1 6 3M26 8a4 4 0 1 0-6 3" fill="#e9b8c0" stroke="#8d8a86"/>'
    + '<path d="M5 15c0-5 5-8 11-8s11 3 11 8c0 4-5 9-11 12C10 24 5 19 5 15z" fill="#e8e4dc" stroke="#8d8a86"/>'
    + '<circle cx="11.5" cy="15" r="1.6" fill="#222"/><circle cx="20.5" cy="15" r="1.6" fill="#222"/><circle cx="16" cy="25" r="1.8" fill="#e58b9c"/>',
  skunk: '<path d="M7 9 9 4l4 4M25 9l-2-5-4 4" fill="#2a2a2a"/>'
    + '<path d="M5 16c0-6 5-9 11-9s11 3 11 9c0 6-5 10-11 10S5 22 5 16z" fill="#2a2a2a"/>'
    + '<path d="M14.5 7h3l-.6 14h-1.8z" fill="#fff"/><circle cx="11" cy="17" r="1.6" fill="#fff"/><circle cx="21" cy="17" r="1.6" fill="#fff"/><circle cx="16" cy="23" r="1.5" fill="#e58b9c"/>',
  woodchuck: '<circle cx="8.5" cy="9" r="2.6" fill="#6d4526"/><circle cx="23.5" cy="9" r="2.6" fill="#6d4526"/>'
    + '<path d="M5 17c0-6 5-10 11-10s11 4 11 10c0 5-5 9-11 9S5 22 5 17z" fill="#9a6a3f"/>'
    + '<ellipse cx="16" cy="21" rx="6" ry="4" fill="#d8b48a"/><circle cx="11.5" cy="15" r="1.6" fill="#222"/><circle cx="20.5" cy="15" r="1.6" fill="#222"/>'
    + '<circle cx="16" cy="19" r="1.4" fill="#222"/><path d="M14.6 22h2.8v3h-2.8z" fill="#fff" stroke="#999" stroke-width=".4"/>',
  raccoon: '<path d="M6 11 7 4l6 4M26 11l-1-7-6 4" fill="#6f6f73"/>'
    + '<path d="M4 16c0-6 6-9 12-9s12 3 12 9c0 5-6 10-12 11C10 26 4 21 4 16z" fill="#a3a3a8"/>'
    + '<path d="M5 15c3-2 7-2 11 0 4-2 8-2 11 0l-1 4c-3 1-7 1-10-1-3 2-7 2-10 1z" fill="#262626"/>'
    + '<circle cx="11" cy="16.5" r="1.4" fill="#fff"/><circle cx="21" cy="16.5" r="1.4" fill="#fff"/>'
    + '<path d="M12 22c2 2 6 2 8 0l-4 4z" fill="#eee"/><circle cx="16" cy="23" r="1.4" fill="#222"/>',
  badger: '<circle cx="7.5" cy="10" r="2.4" fill="#3a3a3a"/><circle cx="24.5" cy="10" r="2.4" fill="#3a3a3a"/>'
    + '<path d="M5 15c0-5 5-8 11-8s11 3 11 8c0 5-5 11-11 12C10 26 5 20 5 15z" fill="#f2f2f0" stroke="#777"/>'
    + '<path d="M8 9c2 5 4 10 6 15l-3-1C8 20 6 15 6 11zM24 9c-2 5-4 10-6 15l3-1c3-3 5-8 5-12z" fill="#2d2d2d"/>'
    + '<circle cx="11.5" cy="17" r="1.3" fill="#fff"/><circle cx="20.5" cy="17" r="1.3" fill="#fff"/><circle cx="16" cy="25" r="1.6" fill="#222"/>',
};

// Supply suits: a small line picture each; an unknown suit gets its initial.
const SUITS = {
  wood: '<path d="M16 7H6.5a3.5 5 0 0 0 0 10H16"/><ellipse cx="16" cy="12" rx="3.5" ry="5"/><ellipse cx="16" cy="12" rx="1.2" ry="1.8"/>',
  water: '<path d="M12 3c4 5 6 8 6 11a6 6 0 0 1-12 0c0-3 2-6 6-11z"/>',
  food: '<path d="M5 11h14a7 7 0 0 1-14 0z"/><path d="M12 4c-1 2 1 3 0 5M8 5c-1 2 1 3 0 5M16 5c-1 2 1 3 0 5"/>',
  rope: '<ellipse cx="12" cy="12" rx="8" ry="5"/><ellipse cx="12" cy="12" rx="4.5" ry="2.5"/><path d="M18 15l3 5"/>',
  map: '<path d="M3 6l6-2 6 2 6-2v14l-6 2-6-2-6 2z"/><path d="M9 4v14M15 6v14"/>',
  compass: '<circle cx="12" cy="12" r="9"/><path d="M15.5 8.5 13 13l-4.5 2.5L11 11z"/>',
  flashlight: '<path d="M9 3h6v5l-1.5 2v10h-3V10L9 8z"/><path d="M6 2 4 0M18 2l2-2M12 2V0" transform="translate(0 1)"/>',
  lantern: '<path d="M9 5h6M10 2h4v3M8 5h8l-1 12H9z"/><path d="M7 20h10M12 9v4"/>',
  axe: '<path d="M6 20 16 6"/><path d="M13 4c3-1 6 1 7 4l-5 1-3-3z"/>',
  knife: '<path d="M4 20 16 8l2 2L6 22z"/><path d="M16 8l4-5 1 1-3 6"/>',
  fish: '<path d="M3 12c3-4 8-5 12-3l5-3v12l-5-3c-4 2-9 1-12-3z"/><circle cx="8" cy="11" r=".8" fill="currentColor"/>',
  berries: '<circle cx="8" cy="15" r="3.5"/><circle cx="15" cy="16" r="3.5"/><circle cx="12" cy="10" r="3.5"/><path d="M12 6.5c0-2 1-3 3-4"/>',
  wild: '<path d="M12 2l2.6 6.4L21 9l-5 4.4L17.6 20 12 16.6 6.4 20 8 13.4 3 9l6.4-.6z"/>',
};
const SUIT_COLOURS = ["#b7651f", "#2f6f9f", "#7a8a2a", "#8c4a8c", "#b8412c", "#2f6b3a"];

const WEATHER = {
  sunny: '<circle cx="12" cy="12" r="4.5" fill="#f2b632" stroke="#d08b10"/><path d="M12 2v3M12 19v3M2 12h3M19 12h3M5 5l2 2M17 17l2 2M5 19l2-2M17 7l2-2" stroke="#d08b10"/>',
  rain: '<path d="M6 14a4 4 0 0 1 1-8 5 5 0 0 1 9.5 1A3.5 3.5 0 0 1 17 14z" fill="#c9d3dc" stroke="#6a7f92"/><path d="M8 17l-1 3M12 17l-1 3M16 17l-1 3" stroke="#3f7ca8"/>',
  storm: '<path d="M6 13a4 4 0 0 1 1-8 5 5 0 0 1 9.5 1A3.5 3.5 0 0 1 17 13z" fill="#9aa6b2" stroke="#4f5b66"/><path d="M12 13l-2 5h3l-2 5" stroke="#e0a000" stroke-width="2"/>',
  snow: '<path d="M12 3v18M4 7.5l16 9M4 16.5l16-9" stroke="#5b8fb9"/><circle cx="12" cy="12" r="2" fill="#5b8fb9"/>',
  fog: '<path d="M3 8h14M6 12h15M3 16h13M8 20h10" stroke="#7d8590"/>',
  wind: '<path d="M3 9h11a3 3 0 1 0-3-3M3 14h15a3 3 0 1 1-3 3M3 19h7" stroke="#6a7f92"/>',
};

const WILDLIFE = {
  bear: '<circle cx="6.5" cy="7" r="3" fill="#5a3a22"/><circle cx="17.5" cy="7" r="3" fill="#5a3a22"/><circle cx="12" cy="13.5" r="8" fill="#7a5230"/><ellipse cx="12" cy="16.5" rx="4" ry="3" fill="#c9a27a"/><circle cx="12" cy="15.5" r="1.3" fill="#222"/><circle cx="9" cy="11.5" r="1" fill="#222"/><circle cx="15" cy="11.5" r="1" fill="#222"/>',
  eagle: '<path d="M1 9c4 0 7 1 9 4l2-2 2 2c2-3 5-4 9-4-3 2-5 5-9 6l-2 5-2-5C6 14 4 11 1 9z" fill="#4a3a2a"/><circle cx="12" cy="9" r="2.6" fill="#fff" stroke="#4a3a2a" stroke-width=".6"/><path d="M12 9.5l2 1-2 .8z" fill="#e0a000"/>',
  elk: '<path d="M8 10C6 8 5 5 6 2M6 6 3 5M7 8 4 9M16 10c2-2 3-5 2-8M18 6l3-1M17 8l3 1" stroke="#6d4526" stroke-width="1.6" fill="none"/><path d="M8 10h8l-1 8-3 3-3-3z" fill="#9a6a3f"/><circle cx="12" cy="19" r="1.1" fill="#222"/>',
  trout: '<path d="M2 12c3-5 10-6 15-2l5-4v12l-5-4c-5 4-12 3-15-2z" fill="#7c9a6b"/><circle cx="6" cy="11" r="1" fill="#222"/><circle cx="10" cy="13" r=".8" fill="#c0392b"/><circle cx="13" cy="11" r=".8" fill="#c0392b"/>',
  beaver: '<ellipse cx="10" cy="12" rx="7" ry="5.5" fill="#7a5230"/><ellipse cx="19.5" cy="15" rx="3.5" ry="5" fill="#4a3a2a" transform="rotate(-30 19.5 15)"/><circle cx="6" cy="10.5" r="1" fill="#222"/><path d="M3.5 14h2v2h-2z" fill="#fff"/>',
  otter: '<path d="M3 15c2-5 6-7 11-6 4 1 6 4 8 8-3-1-5-2-7-1-4 2-9 2-12-1z" fill="#6d4c35"/><circle cx="6" cy="12.5" r="1" fill="#222"/><path d="M2 13.5l2 .5" stroke="#ddd" stroke-width=".5"/>',
};

const TOWER = '<path d="M8 10h8l3 12M8 10 5 22M16 10l-4 6-4-6M6.5 16h11" stroke="#6d4526" stroke-width="1.4" fill="none"/>'
  + '<path d="M6 10h12L12 3z" fill="#b7651f"/><path d="M8 10h8v-3H8z" fill="#d8b48a"/>';

export const PLAYER_COLOURS = {
  red: "#c0392b", yellow: "#d4a017", blue: "#2e6da4", green: "#3d8b47", purple: "#7d4e9e",
  orange: "#d9772b", black: "#333", white: "#f4f4f4",
};

// Each distinct picture is built once and cloned after: a table of a hundred icons is drawn
// at every change.
const built = new Map();
const BUILT_KEPT = 500;
function svg(body, options = {}) {
  const key = `${body}\n${JSON.stringify(options)}`;
  let el = built.get(key);
  if (!el) {
    el = build(body, options);
    if (built.size >= BUILT_KEPT) built.delete(built.keys().next().value);
    built.set(key, el);
  }
  return el.cloneNode(true);
}

function build(body, { viewBox = "0 0 24 24", cls = "pt-svg", label = null, attrs = {} } = {}) {
  const el = document.createElementNS(NS, "svg");
  el.setAttribute("viewBox", viewBox);
  el.setAttribute("class", cls);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (label) {
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", label);
  } else el.setAttribute("aria-hidden", "true");
  el.append(...svgChildren(body));
  return el;
}

// A tent symbol: the colour's shape filled in that colour with a small white tent inside.
export function tentIcon(colour, { label = true, cls = "" } = {}) {
  const shape = SHAPES[TENT_SHAPE[colour]] || SHAPES.circle;
  return svg(`<g fill="currentColor">${shape}</g>${TENT_GLYPH}`,
    { cls: `pt-svg pt-tent tent-${colour} ${cls}`.trim(), label: label ? `${colour} tent (${TENT_SHAPE[colour]})` : null });
}

// A patch's badge: the colour's shape; an advanced patch gets the white arrow.
export function patchShape(colour, advanced = false) {
  const shape = SHAPES[TENT_SHAPE[colour]] || SHAPES.circle;
  const arrow = advanced ? '<path d="M12 6v11M7.5 10.5 12 6l4.5 4.5" stroke="#fff" stroke-width="2.6" fill="none" stroke-linecap="round" stroke-linejoin="round"/>' : "";
  return svg(`<g fill="currentColor" stroke="#fff" stroke-width="1.2">${shape}</g>${arrow}`,
    { cls: `pt-svg pt-shape tent-${colour}` });
}

// A camper (a small meeple) in a player's colour.
export function camperIcon(colour, label = null) {
  const fill = PLAYER_COLOURS[colour] || colour;
  return svg('<circle cx="12" cy="6" r="4.2"/><path d="M12 10.5c-4 0-7 2-8 5l2.5 1 1.5-2-1 8h10l-1-8 1.5 2 2.5-1c-1-3-4-5-8-5z"/>',
    { cls: `pt-svg pt-camper camper-${colour}`, label, attrs: { fill, stroke: "rgb(0 0 0 / 45%)", "stroke-width": "1" } });
}

export function animalIcon(rank) {
  const body = ANIMALS[rank.toLowerCase()];
  return body ? svg(body, { viewBox: "0 0 32 32", cls: "pt-svg pt-animal" }) : h("span", { class: "pt-animal-initial" }, rank[0]);
}

export function suitIcon(suit, known = []) {
  const key = suit.toLowerCase();
  if (SUITS[key]) {
    return svg(SUITS[key], { cls: `pt-svg pt-suit suit-${key}`, attrs: { fill: "none", stroke: "currentColor", "stroke-width": "1.8", "stroke-linecap": "round", "stroke-linejoin": "round" } });
  }
  const i = Math.max(0, known.indexOf(suit));
  return svg(`<circle cx="12" cy="12" r="10" fill="${SUIT_COLOURS[i % SUIT_COLOURS.length]}"/><text x="12" y="16.5" text-anchor="middle" font-size="13" font-weight="700" fill="#fff">${escapeXml(suit[0].toUpperCase())}</text>`,
    { cls: `pt-svg pt-suit suit-${key}` });
}

export function weatherIcon(weather) {
  const body = WEATHER[weather.toLowerCase()] || WEATHER.sunny;
  return svg(`<g fill="none" stroke-width="1.6" stroke-linecap="round">${body}</g>`, { cls: "pt-svg pt-weather", label: weather });
}

export function wildlifeIcon(animal) {
  const body = WILDLIFE[animal.toLowerCase()];
  if (!body) return h("span", { class: "pt-animal-initial" }, animal[0].toUpperCase());
  return svg(body, { cls: "pt-svg pt-wildlife", label: animal });
}

export function towerIcon() {
  return svg(TOWER, { cls: "pt-svg pt-tower", label: "observation tower" });
}

// A friendship token: two hands meeting in a ring.
export function friendshipIcon(label = "friendship token") {
  return svg('<circle cx="12" cy="12" r="10" fill="#f6d27a" stroke="#b7851f"/><path d="M5 13l4-3 3 2 3-2 4 3-4 3-3-2-3 2z" fill="#b7651f"/>',
    { cls: "pt-svg pt-friend", label });
}

function escapeXml(text) {
  return text.replace(/[<>&"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;" })[c]);
}
