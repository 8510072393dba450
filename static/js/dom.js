// A tiny element builder: h("button", {class: "x", onclick}, "text", child).
import morphdom from "../vendor/morphdom/morphdom.js";

// A field's starting value, ticked box and chosen option are attributes, not properties: a
// part patched in place (patch below) reads what to show from the attributes of its new drawing.
const AS_ATTRIBUTE = new Set(["value", "checked", "selected"]);

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = value;
    else if (key in el && !key.includes("-") && !(AS_ATTRIBUTE.has(key) && tag !== "textarea")) el[key] = value;
    else el.setAttribute(key, value === true ? "" : value);
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : String(child));
  }
}

export function clear(el) {
  el.replaceChildren();
  return el;
}

// Replace el's children, skipping null/false like h() does (replaceChildren would print "null").
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

// Patch ``live`` into what ``children`` draw, rather than replacing it: the part is drawn
// afresh, detached, and morphdom makes the live part equal to it, so an element the change did
// not touch stays the same node (its focus, scroll and running animation stay), and the page
// lays out only what changed. Elements with a ``data-key`` (a log entry, a seat, a list's row)
// are matched by it wherever they move, the rest by place and tag. A morph keeps the old node
// and not the new one's listeners, so a patched part has none on its elements: its page
// listens on the part itself and reads what to do from the element's data.
export function patch(live, ...children) {
  const next = live.cloneNode(false);
  append(next, children);
  return patchFrom(live, next);
}

// The same, from a detached copy of ``live`` already drawn (a game's table drawn into it).
export function patchFrom(live, next) {
  morphdom(live, next, { childrenOnly: true, getNodeKey, onBeforeElUpdated: changed });
  return live;
}

// A part drawn from the same inputs as the live one (`same` below) is a stand-in that the
// patch leaves alone: it has the live part's key and tag and nothing else.
export function sameParts() {
  let kept = new Map(); // key -> {sig, tag, live, claims}
  let drawn = new Map();
  return {
    // The part `key` built by `build()`, unless `inputs` (what it is drawn from) are those it
    // was last drawn from and it is still on the page: then a stand-in, and `onKept(claims)`
    // with what its build reported through `claim` while it was built.
    same(key, inputs, build, { claims = () => [], onKept = () => {} } = {}) {
      const sig = JSON.stringify(inputs);
      const was = kept.get(key);
      if (was && was.sig === sig && was.live?.isConnected) {
        drawn.set(key, was);
        onKept(was.claims);
        return h(was.tag, { "data-key": key, "data-same": true });
      }
      const from = claims().length;
      const el = build();
      el.dataset.key = key;
      drawn.set(key, { sig, el, tag: el.tagName.toLowerCase(), claims: claims().slice(from) });
      return el;
    },
    // After the patch: where each part drawn anew now lives.
    settle(root) {
      for (const [key, part] of drawn) {
        if (!part.el) continue;
        part.live = part.el.isConnected ? part.el : root.querySelector(`[data-key="${CSS.escape(key)}"]`);
        part.el = null;
      }
      [kept, drawn] = [drawn, new Map()];
    },
  };
}

const getNodeKey = (node) => (node.nodeType === 1 ? node.getAttribute("data-key") || node.id || undefined : undefined);

// An equal subtree is left alone without walking it; a field someone is typing in keeps what
// they typed; a style is copied through the CSSOM (the page's CSP refuses a style attribute
// set by setAttribute, which is how morphdom copies attributes).
function changed(from, to) {
  if (to.hasAttribute("data-same") || from.isEqualNode(to)) return false;
  if (from === document.activeElement && (from.tagName === "INPUT" || from.tagName === "TEXTAREA")) to.value = from.value;
  if (to.hasAttribute("style") && from.getAttribute("style") !== to.getAttribute("style")) from.style.cssText = to.style.cssText;
  return true;
}

export function errorBox(message) {
  return h("p", { class: "error", role: "alert" }, message);
}

// Trusted markup from our own code, never from a player, as nodes. Each distinct string is
// parsed once: a table redrawn at every move clones its icons and boards instead of parsing them.
const parsed = new Map();
const PARSED_KEPT = 500;
export function markup(html) {
  let template = parsed.get(html);
  if (!template) {
    template = document.createElement("template");
    template.innerHTML = html;
    if (parsed.size >= PARSED_KEPT) parsed.delete(parsed.keys().next().value);
    parsed.set(html, template);
  }
  return template.content.cloneNode(true);
}

// The children of an <svg> element written as markup (``body``), for an SVG element built here.
export function svgChildren(body) {
  return [...markup(`<svg>${body}</svg>`).firstChild.childNodes];
}

// An inline SVG picture (24 × 24 line art in currentColor), so no page depends on emoji fonts.
export function svgIcon(body, { cls = "icon", label = null } = {}) {
  const span = h("span", { class: cls, "aria-hidden": label ? null : "true", role: label ? "img" : null, "aria-label": label });
  span.append(markup(`<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round">${body}</svg>`));
  return span;
}

export const ICONS = {
  bot: '<rect x="4" y="8" width="16" height="12" rx="3"/><path d="M12 4v4M9 13v1M15 13v1M9.5 17h5"/><circle cx="12" cy="3.5" r="1"/>',
  trophy: '<path d="M7 4h10v5a5 5 0 0 1-10 0z"/><path d="M7 6H4a3 3 0 0 0 3 4M17 6h3a3 3 0 0 1-3 4M12 14v4M8 21h8M9 18h6"/>',
};
