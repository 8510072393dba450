// /notices: be told off the site. Per device, by Web Push: your turn, the game's end, a
// rematch, an invitation, chat at a turn-based table; stopped with one click. Per player, by
// mail: "your turn" at turn-based tables (or one digest a day), once the address is confirmed.
import { api } from "./api.js";
import { errorBox, fill, h } from "./dom.js";
import { registerWorker } from "./worker.js";

const LABELS = {
  turn: "It is my turn (and reminders before my time runs out)",
  ended: "A game of mine has ended",
  rematch: "Someone asks for a rematch",
  invite: "A table I joined has started",
  chat: "Chat at a turn-based table",
};

export function noticesPage(root) {
  document.title = "Notices · Campground";
  const device = h("section", { class: "card", "data-testid": "push-card" }, h("p", { class: "muted" }, "Loading…"));
  const byMail = h("section", { class: "card", "data-testid": "mail-card" });
  root.append(h("h1", {}, "Notices"),
    h("p", { class: "muted" }, "Be told when it is your move, even with the page closed. Nothing is sent about a table you have open."),
    device, byMail);
  api("GET", "/api/notices").then((settings) => {
    showDevice(device, settings);
    showMail(byMail, settings.mail);
  }, (err) => fill(device, errorBox(err.status === 401 ? "Choose a name on the home page first: notices are a player's." : err.message)));
}

function b64ToBytes(text) {
  const raw = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

function bytesToB64(buffer) {
  return btoa(String.fromCharCode(...new Uint8Array(buffer))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

async function registration() {
  await registerWorker();
  return navigator.serviceWorker.ready;
}

async function showDevice(card, settings) {
  const heading = h("h2", {}, "On this device");
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    fill(card, heading, h("p", { class: "muted" }, "This browser cannot show notices. On a phone, add Campground to the home screen first."));
    return;
  }
  const error = h("div");
  const reg = await registration();
  let sub = await reg.pushManager.getSubscription();
  let kinds = [];
  if (sub) {
    try {
      kinds = (await api("GET", `/api/notices/push?endpoint=${encodeURIComponent(sub.endpoint)}`)).kinds;
    } catch { sub = null; }
  }
  const boxes = settings.kinds.map((kind) => {
    const box = h("input", { type: "checkbox", id: `push-${kind}`, checked: sub ? kinds.includes(kind) : kind !== "chat", "data-testid": `push-${kind}` });
    return [kind, box, h("div", { class: "field check" }, box, h("label", { for: `push-${kind}` }, LABELS[kind] || kind))];
  });
  const chosen = () => boxes.filter(([, box]) => box.checked).map(([kind]) => kind);
  const save = async () => {
    error.replaceChildren();
    try {
      if (Notification.permission !== "granted" && await Notification.requestPermission() !== "granted") {
        throw new Error("The browser was told not to show notices from this site; allow them in its site settings.");
      }
      sub = sub || await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: b64ToBytes(settings.push_key) });
      const keys = { p256dh: bytesToB64(sub.getKey("p256dh")), auth: bytesToB64(sub.getKey("auth")) };
      await api("PUT", "/api/notices/push", { endpoint: sub.endpoint, keys, kinds: chosen() });
      showDevice(card, settings);
    } catch (err) {
      fill(error, errorBox(err.message));
    }
  };
  const stop = async () => {
    error.replaceChildren();
    try {
      await api("DELETE", `/api/notices/push?endpoint=${encodeURIComponent(sub.endpoint)}`);
      await sub.unsubscribe();
      showDevice(card, settings);
    } catch (err) {
      fill(error, errorBox(err.message));
    }
  };
  fill(card, heading,
    h("p", {}, sub ? "This device is told of:" : "Tell this device when:"),
    h("div", { class: "notice-choices" }, boxes.map(([, , row]) => row)), error,
    h("p", { class: "actions" },
      h("button", { class: "primary", onclick: save, "data-testid": "push-save" }, sub ? "Save" : "Tell this device"),
      sub && " ",
      sub && h("button", { onclick: stop, "data-testid": "push-stop" }, "Stop notices on this device")));
}

function showMail(card, state) {
  const heading = h("h2", {}, "By mail");
  if (!state.enabled) {
    fill(card, heading, h("p", { class: "muted" }, "This server sends no mail."));
    return;
  }
  const error = h("div");
  const address = h("input", { type: "email", id: "mail-address", required: true, maxLength: 254, autocomplete: "email", "data-testid": "mail-address" });
  const digest = h("input", { type: "checkbox", id: "mail-digest", checked: state.digest, "data-testid": "mail-digest" });
  const status = !state.has_address ? "No address yet."
    : state.confirmed ? "Your address is confirmed: mails come when it is your turn at a turn-based table."
      : "We sent a link to your address: open it to confirm.";
  const submit = async (event) => {
    event.preventDefault();
    error.replaceChildren();
    try {
      showMail(card, await api("PUT", "/api/notices/mail", { address: address.value.trim(), digest: digest.checked }));
    } catch (err) {
      fill(error, errorBox(err.message));
    }
  };
  const forget = async () => {
    try {
      await api("DELETE", "/api/notices/mail");
      showMail(card, { ...state, has_address: false, confirmed: false, digest: false });
    } catch (err) {
      fill(error, errorBox(err.message));
    }
  };
  fill(card, heading,
    h("p", { "data-testid": "mail-status" }, status),
    h("p", { class: "muted" }, "At most one mail per table every few hours; your address is never shown to anyone, you included."),
    h("form", { class: "stack", onsubmit: submit },
      h("div", { class: "field" }, h("label", { for: "mail-address" }, state.has_address ? "Change the address" : "Address"), address),
      h("div", { class: "notice-choices" }, h("div", { class: "field check" }, digest, h("label", { for: "mail-digest" }, "One mail a day listing my turns, instead"))),
      error,
      h("p", { class: "actions" }, h("button", { type: "submit", class: "primary", "data-testid": "mail-save" }, "Mail me"),
        state.has_address && " ",
        state.has_address && h("button", { type: "button", onclick: forget, "data-testid": "mail-stop" }, "Stop the mails"))));
}
