// A table's chat: the stored history, then live lines from the socket. Lines are text nodes,
// never HTML.
import { api } from "./api.js";
import { errorBox, fill, h } from "./dom.js";

const MAX_CHARS = 300;

export function chatPanel({ historyPath, send }) {
  const lines = [];
  const seen = new Set();
  const list = h("ol", { class: "chat-lines", "data-testid": "chat-lines", "aria-live": "polite" });
  const error = h("div");
  let sent = ""; // the line last sent: given back to the input if the server refuses it
  const input = h("input", {
    name: "chat", maxLength: MAX_CHARS, autocomplete: "off", placeholder: "Say something to the table",
    "aria-label": "Chat message", "data-testid": "chat-input",
  });
  const form = h("form", {
    class: "row chat-form",
    onsubmit: (event) => {
      event.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      error.replaceChildren();
      if (send(text)) [sent, input.value] = [text, ""];
      else fill(error, errorBox("Not connected right now; try again in a moment."));
    },
  }, input, h("button", { type: "submit", "data-testid": "chat-send" }, "Send"));
  const element = h("section", { class: "chat card", "data-testid": "chat" },
    h("h2", {}, "Chat"), list, form, error);

  const key = (line) => `${line.at}|${line.seat}|${line.text}`;
  const draw = () => {
    // A moderator's line (no seat) reads apart from the players'.
    const shown = lines.map((line) => h("li", {
      "data-testid": "chat-line", class: line.seat === null ? "chat-moderator" : "",
    }, h("strong", {}, line.name), " ", h("span", { class: "chat-text" }, line.text)));
    if (!shown.length) shown.push(h("li", { class: "muted" }, "No messages yet."));
    fill(list, shown);
    list.scrollTop = list.scrollHeight;
  };
  const add = (line) => {
    if (seen.has(key(line))) return;
    seen.add(key(line));
    // A moderator removed the line numbered `removes`.
    const removed = lines.findIndex((other) => line.removes != null && other.id === line.removes);
    if (removed >= 0) lines.splice(removed, 1);
    lines.push(line);
    lines.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
    draw();
  };

  draw();
  api("GET", historyPath).then((history) => history.forEach(add), () => {});
  return {
    element,
    add,
    refused: (message) => {
      fill(error, errorBox(message));
      if (!input.value) input.value = sent; // a refused line (too fast, too long) is not lost
    },
    setWritable: (writable) => { form.hidden = !writable; },
  };
}
