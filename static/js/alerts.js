// Telling a player their turn has come: a short tone and a browser notification, each off
// until the player turns it on in the game frame; the choice is kept in this browser.
import { h } from "./dom.js";

const KEYS = { sound: "campground.turnSound", notify: "campground.turnNotify" };
const isOn = (what) => localStorage.getItem(KEYS[what]) === "on";
const setOn = (what, on) => localStorage.setItem(KEYS[what], on ? "on" : "off");
let audio = null;

function tone() {
  audio ??= new AudioContext();
  audio.resume();
  const osc = audio.createOscillator();
  const gain = audio.createGain();
  osc.frequency.value = 660;
  gain.gain.setValueAtTime(0.15, audio.currentTime);
  gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
  osc.connect(gain).connect(audio.destination);
  osc.start();
  osc.stop(audio.currentTime + 0.35);
}

// Called on every drawing; acts only when the turn has just become yours.
export function turnAlerts() {
  let wasYours = null;
  return (yours, title) => {
    const arrived = wasYours === false && yours;
    wasYours = yours;
    if (!arrived) return;
    if (isOn("sound")) tone();
    if (isOn("notify") && document.hidden && window.Notification?.permission === "granted") {
      new Notification(title, { body: "Your turn", icon: "/static/icons/turn.svg", tag: "campground-turn" });
    }
  };
}

// The two switches. Notification permission is asked for only when the player turns them on.
export function alertToggles() {
  const note = h("span", { class: "muted small", "aria-live": "polite", "data-testid": "alert-note" });
  const toggle = (what, label) => {
    const box = h("input", { type: "checkbox", "data-testid": `toggle-${what}` });
    // The ticked state as an attribute too: a frame patched in place reads it from there.
    const tick = (on) => { box.checked = on; box.toggleAttribute("checked", on); };
    tick(isOn(what));
    box.addEventListener("change", async () => {
      tick(box.checked);
      setOn(what, box.checked);
      note.textContent = "";
      if (!box.checked) return;
      if (what === "sound") return tone();
      if (!window.Notification) {
        note.textContent = "This browser cannot show notifications.";
      } else if (Notification.permission !== "granted" && await Notification.requestPermission() !== "granted") {
        note.textContent = "Notifications are blocked for this site.";
      }
      if (note.textContent) {
        tick(false);
        setOn(what, false);
      }
    });
    return h("label", { class: "alert-toggle" }, box, ` ${label}`);
  };
  return h("div", { class: "alert-toggles small", "data-testid": "alert-toggles" },
    toggle("sound", "Sound on my turn"), toggle("notify", "Notify me in another tab"), note);
}
