// A small form generated from a game's options JSON schema (pydantic's): booleans, enums, integers.
import { api } from "./api.js";
import { h } from "./dom.js";

let kinds = null;
// The game kinds (`GET /api/games`), asked once per page.
export function gameKinds() {
  kinds ??= api("GET", "/api/games").catch(() => { kinds = null; return []; });
  return kinds;
}

// A bot level of a game kind as players read it: {id, name, about} ("search" is "Expert").
export function botLevel(kind, id) {
  return kind?.levels?.find((l) => l.id === id) || { id, name: id.charAt(0).toUpperCase() + id.slice(1), about: "" };
}

// Where the host picks a bot level: the levels by name, and the chosen one's sentence below.
export function levelPicker(kind, { chosen, label, testid, onchange }) {
  const levels = kind?.levels?.length ? kind.levels : [botLevel(kind, "random"), botLevel(kind, "heuristic")];
  const about = h("span", { class: "muted small level-about", "data-testid": `${testid}-about` });
  const select = h("select", {
    "aria-label": label, "data-testid": testid,
    onchange: () => { about.textContent = botLevel(kind, select.value).about; onchange?.(select.value); },
  }, levels.map((l) => h("option", { value: l.id, selected: l.id === chosen }, l.name)));
  about.textContent = botLevel(kind, select.value).about;
  return { select, about };
}

// A table's options and speed on one line, for the invite page and the table:
// "Friendship tokens · Observation Tower · Real time · 3 min + 15 s a move".
export function tableOptionsLine(kind, options, speedName) {
  const schema = kind?.options_schema;
  const chosen = optionsSummary(schema, options) || (Object.keys(schema?.properties || {}).length ? "the basic game" : "");
  return h("p", { class: "muted small table-options", "data-testid": "table-options" },
    [chosen, speedName || ""].filter(Boolean).join(" · "));
}

function resolve(schema, root) {
  if (schema.$ref) return resolve(root.$defs?.[schema.$ref.split("/").pop()] || {}, root);
  if (schema.allOf?.length === 1) return { ...resolve(schema.allOf[0], root), ...schema, allOf: undefined };
  return schema;
}

function words(name) {
  return name.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());
}

// A value's name: the schema's own (`enum_labels`, "Arts & Crafts") or its words.
const labelOf = (raw, value) => raw.enum_labels?.[value] ?? words(String(value));

// The options chosen for a table, in words: "Activity packs: Cooking, Outdoors, Water Sports";
// "Friendship tokens · Observation Tower" (a boolean is named when it is on); "" when the game
// has none or all are off.
export function optionsSummary(schema, options) {
  const parts = [];
  for (const [name, raw] of Object.entries(schema?.properties || {})) {
    const spec = resolve(raw, schema);
    const value = options?.[name] ?? raw.default;
    const label = raw.title || words(name);
    if (spec.type === "boolean") {
      if (value === true) parts.push(label);
    } else if (Array.isArray(value)) {
      parts.push(`${label}: ${value.map((v) => labelOf(raw, v)).join(", ")}`);
    } else if (spec.enum && value === raw.default) {
      continue; // a choice left as it comes ("random") says nothing about the table
    } else if (value !== undefined && value !== null) {
      parts.push(`${label}: ${spec.enum ? labelOf(raw, value) : value}`);
    }
  }
  return parts.join(" · ");
}


// Returns {element, read()} or null when the game has no options.
export function optionsForm(schema) {
  const props = Object.entries(schema?.properties || {});
  if (!props.length) return null;
  const readers = [];
  const fields = props.map(([name, raw]) => {
    const spec = resolve(raw, schema);
    const label = raw.title || words(name); // a $ref'd enum's own title names the type, not the field
    const id = `option-${name}`;
    const hint = raw.description ? h("small", {}, raw.description) : null;
    if (spec.type === "boolean") {
      const input = h("input", { type: "checkbox", id, name, checked: raw.default === true });
      readers.push(() => [name, input.checked]);
      return h("div", { class: "field check" }, input, h("label", { for: id }, label), hint);
    }
    if (spec.enum) {
      const select = h("select", { id, name },
        spec.enum.map((v) => h("option", { value: JSON.stringify(v), selected: v === raw.default }, labelOf(raw, v))));
      readers.push(() => [name, JSON.parse(select.value)]);
      return h("div", { class: "field" }, h("label", { for: id }, label), select, hint);
    }
    if (spec.type === "integer" || spec.type === "number") {
      const input = h("input", {
        type: "number", id, name, min: spec.minimum, max: spec.maximum,
        step: spec.type === "integer" ? 1 : "any", value: raw.default ?? spec.minimum ?? 0,
      });
      readers.push(() => [name, Number(input.value)]);
      return h("div", { class: "field" }, h("label", { for: id }, label), input, hint);
    }
    const items = spec.type === "array" && spec.items ? resolve(spec.items, schema) : null;
    if (items?.enum) {
      const chosen = new Set(raw.default || []);
      const boxes = items.enum.map((v) => h("input", { type: "checkbox", name, value: JSON.stringify(v), checked: chosen.has(v) }));
      readers.push(() => [name, boxes.filter((b) => b.checked).map((b) => JSON.parse(b.value))]);
      return h("div", { class: "field" }, h("span", { class: "label" }, label),
        boxes.map((box, i) => h("label", { class: "check" }, box, labelOf(raw, items.enum[i]))), hint);
    }
    // Other kinds keep their default: the form only offers what it can edit simply.
    return null;
  }).filter(Boolean);
  if (!fields.length) return null;
  return {
    element: h("fieldset", { class: "options" }, h("legend", {}, "Options"), fields),
    read: () => Object.fromEntries(readers.map((read) => read())),
  };
}
