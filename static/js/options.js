// A small form generated from a game's options JSON schema (pydantic's): booleans, enums, integers.
import { h } from "./dom.js";

function resolve(schema, root) {
  if (schema.$ref) return resolve(root.$defs?.[schema.$ref.split("/").pop()] || {}, root);
  if (schema.allOf?.length === 1) return { ...resolve(schema.allOf[0], root), ...schema, allOf: undefined };
  return schema;
}

function words(name) {
  return name.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());
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
        spec.enum.map((v) => h("option", { value: JSON.stringify(v), selected: v === raw.default }, words(String(v)))));
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
        boxes.map((box, i) => h("label", { class: "check" }, box, words(String(items.enum[i])))), hint);
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
