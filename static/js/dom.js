// A tiny element builder: h("button", {class: "x", onclick}, "text", child).
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = value;
    else if (key in el && !key.includes("-")) el[key] = value;
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
