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
