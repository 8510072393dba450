// This device was signed out elsewhere (from another device, by a new password, by an admin, or
// a suspension): the server closes its sockets with 4401 and refuses its token with a 401. Every
// part of the page hears it once, says so in a person's words and offers the sign-in; the API's
// own text for developers is never shown.
import { h } from "./dom.js";

export const SIGNED_OUT = "You were signed out on this device. Sign in again.";
export const CLOSE_SIGNED_OUT = 4401;
const EVENT = "campground:signed-out";

export function signedOut() {
  window.dispatchEvent(new Event(EVENT));
}

// Runs `then` whenever the device is signed out; given a `part`, only while it is on the page.
export function whenSignedOut(then, part = null) {
  const heard = () => {
    if (part && !part.isConnected) window.removeEventListener(EVENT, heard);
    else then();
  };
  window.addEventListener(EVENT, heard);
}

export function signedOutBox() {
  return h("div", { class: "notice signed-out", role: "alert", "data-testid": "signed-out" },
    h("p", {}, SIGNED_OUT),
    h("a", { href: "/account", "data-nav": true, class: "button primary", "data-testid": "sign-in-again" }, "Sign in"));
}
