// /account: keep my tables (a guest adds a handle and password), sign in, and, once signed
// in: my profile, "Use on another device", my devices, a new password, sign out.
// /device: another device becomes the same player with a one-time code (typed, or in the link
// after #, which no server log sees).
import { api } from "./api.js";
import { errorBox, fill, h } from "./dom.js";
import { navigate } from "./main.js";
import { forgetPlayer, getPlayer } from "./player.js";
import { SIGNED_OUT, whenSignedOut } from "./signed-out.js";

const HOW = { claimed: "where you added the sign-in", "sign-in": "signed in with the password", "device code": "with a device code" };

// "12 Mar 2026, 14:05": a device is told apart by the day and the hour it was seen.
const when = (at) => new Date(at).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

export function accountPage(root) {
  document.title = "Your sign-in · Campground";
  const body = h("div", {}, h("p", { class: "muted" }, "Looking you up…"));
  root.append(body);
  getPlayer().then((me) => {
    if (me?.handle) fill(body, signedIn(me));
    else fill(body, me ? claimCard(me) : null, signInCard(me));
  }, (err) => fill(body, errorBox(err.message)));
  // Signed out elsewhere while the page was open: it says so, and signs in here.
  whenSignedOut(() => fill(body,
    h("p", { class: "notice", role: "alert", "data-testid": "signed-out" }, SIGNED_OUT), signInCard(null)), body);
}

function field(label, attrs) {
  const input = h("input", { required: true, ...attrs });
  return [input, h("div", { class: "field" }, h("label", { for: attrs.id }, label), input)];
}

// A form that sends `call()` on submit, then forgets the cached player and goes to `then`;
// what goes wrong shows in `error`.
function signInForm(error, call, then, ...children) {
  return h("form", {
    class: "stack",
    onsubmit: async (event) => {
      event.preventDefault();
      error.replaceChildren();
      try {
        await call();
        forgetPlayer();
        navigate(then, { replace: true });
      } catch (err) {
        fill(error, errorBox(err.message));
      }
    },
  }, ...children);
}

// Where a new sign-in goes back to: the lobby or table that offered it (`?next=/lobbies/…`).
function nextPage() {
  const next = new URLSearchParams(location.search).get("next");
  return next && /^\/(lobbies|games)\/[\w-]+$/.test(next) ? next : null;
}

function claimCard(me) {
  const [handle, handleField] = field("Handle", {
    id: "claim-handle", name: "username", autocomplete: "username", minLength: 3, maxLength: 24,
    pattern: "[A-Za-z0-9_\\-]{3,24}", "data-testid": "claim-handle",
  });
  const [password, passwordField] = field("Password", {
    id: "claim-password", name: "new-password", type: "password", autocomplete: "new-password",
    minLength: 8, maxLength: 128, "data-testid": "claim-password",
  });
  const error = h("div");
  const claim = () => api("POST", "/api/accounts", { handle: handle.value.trim(), password: password.value });
  const form = signInForm(error, claim, nextPage() || "/account",
  h("p", {}, `Playing as ${me.name}, on this device only. Add a handle and a password to keep your tables, `,
    "seats and games on every device, to get a rating in each game and a profile."),
  handleField, h("small", { class: "muted" }, "3 to 24 letters, digits, _ or -. Shown on your profile."),
  passwordField, h("small", { class: "muted" }, "At least 8 characters."),
  error,
  h("button", { type: "submit", class: "primary", "data-testid": "claim" }, "Keep my tables"));
  return h("section", { class: "card" }, h("h1", {}, "Keep your tables everywhere"), form);
}

function signInCard(me) {
  const [handle, handleField] = field("Handle", {
    id: "sign-in-handle", name: "username", autocomplete: "username", maxLength: 64, "data-testid": "sign-in-handle",
  });
  const [password, passwordField] = field("Password", {
    id: "sign-in-password", name: "password", type: "password", autocomplete: "current-password",
    maxLength: 128, "data-testid": "sign-in-password",
  });
  const error = h("div");
  const signIn = () => api("POST", "/api/sessions", { handle: handle.value.trim(), password: password.value });
  const form = signInForm(error, signIn, "/",
  me ? h("p", { class: "notice" }, `Signing in switches this device to that player. ${me.name}'s seats stay with ${me.name}.`) : null,
  handleField, passwordField, error,
  h("button", { type: "submit", class: me ? "" : "primary", "data-testid": "sign-in" }, "Sign in"),
  h("p", { class: "small muted" }, "Signed in on another device? Open ", h("a", { href: "/device", "data-nav": true }, "Use a device code"),
    " here and type the code it shows."));
  // Below the guest's own card, or the page itself for nobody.
  return h("section", { class: "card" }, me ? h("h2", {}, "Already have a sign-in?") : h("h1", {}, "Sign in"), form);
}

function signedIn(me) {
  const devices = h("div", { "data-testid": "devices" });
  const code = h("div", { "data-testid": "device-code-box" });
  const flash = h("div");
  const showDevices = async () => {
    try {
      const list = await api("GET", "/api/sessions");
      fill(devices, h("ul", { class: "devices" }, list.map((d) => h("li", { "data-testid": "device" },
        h("div", {}, h("strong", {}, d.device), d.current ? h("span", { class: "tag you" }, "this device") : null,
          h("div", { class: "muted small", "data-testid": "device-when" },
            `Signed in ${when(d.created_at)}, ${HOW[d.how] || d.how} · last used ${d.current ? "now" : when(d.last_used_at)}`)),
        d.current ? null : h("button", {
          type: "button", class: "quiet", "data-testid": "sign-out-device",
          onclick: async () => { await act(() => api("DELETE", `/api/sessions/${d.id}`)); showDevices(); },
        }, "Sign out")))),
      list.length > 1 ? h("button", {
        type: "button", class: "quiet", "data-testid": "sign-out-others",
        onclick: async () => { await act(() => api("DELETE", "/api/sessions")); showDevices(); },
      }, "Sign out every other device") : null);
    } catch (err) {
      fill(devices, errorBox(err.message));
    }
  };
  const act = async (call) => {
    flash.replaceChildren();
    try {
      return await call();
    } catch (err) {
      fill(flash, errorBox(err.message));
      return null;
    }
  };
  const newCode = async () => {
    const made = await act(() => api("POST", "/api/sessions/device-codes"));
    if (!made) return;
    const until = new Date(made.expires_at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    fill(code,
      h("p", {}, "On the other device, scan this code, or open ", h("strong", {}, `${location.host}/device`), " and type:"),
      h("p", { class: "device-code", "data-testid": "device-code" }, made.code),
      h("img", { class: "qr", src: made.qr_svg, alt: `QR code of a link that signs in as ${me.handle}`, width: 180, height: 180, "data-testid": "device-qr" }),
      h("p", { class: "muted small" }, `Works once, until ${until}. Anyone who has it can play as you: show it only to your own devices.`));
  };
  showDevices();
  return [
    h("section", { class: "card" },
      h("h1", {}, me.handle),
      h("p", {}, `Playing as ${me.name} on every device where you sign in. `,
        h("a", { href: `/players/${encodeURIComponent(me.handle)}`, "data-testid": "profile-link" }, "Your profile and ratings")),
      flash),
    h("section", { class: "card" },
      h("h2", {}, "Use on another device"),
      h("p", { class: "muted" }, "No password to type on a phone: a one-time code makes it you."),
      code,
      h("button", { type: "button", class: "primary", "data-testid": "make-device-code", onclick: newCode }, "Show a code")),
    h("section", { class: "card" }, h("h2", {}, "Your devices"), devices),
    passwordCard(showDevices),
    h("section", { class: "card" },
      h("button", {
        type: "button", "data-testid": "sign-out-here",
        onclick: async () => {
          if (await act(() => api("DELETE", "/api/sessions/current"))) {
            forgetPlayer();
            navigate("/account", { replace: true });
          }
        },
      }, "Sign out on this device")),
  ];
}

function passwordCard(afterChange) {
  const [current, currentField] = field("Current password", {
    id: "password-now", type: "password", autocomplete: "current-password", maxLength: 128,
  });
  const [next, nextField] = field("New password", {
    id: "password-new", type: "password", autocomplete: "new-password", minLength: 8, maxLength: 128,
  });
  const status = h("div", { "aria-live": "polite" });
  const form = h("form", {
    class: "stack",
    onsubmit: async (event) => {
      event.preventDefault();
      status.replaceChildren();
      try {
        const done = await api("PUT", "/api/accounts/password", { password: current.value, new_password: next.value });
        form.reset();
        fill(status, h("p", { class: "notice" }, `Password changed. ${done.signed_out === 1 ? "1 other device" : `${done.signed_out} other devices`} signed out.`));
        afterChange();
      } catch (err) {
        fill(status, errorBox(err.message));
      }
    },
  }, currentField, nextField, status, h("button", { type: "submit" }, "Change the password"));
  return h("section", { class: "card" }, h("h2", {}, "Password"),
    h("p", { class: "muted small" }, "A new password signs out every other device."), form);
}

export function devicePage(root) {
  document.title = "Use a device code · Campground";
  // The code stays out of the address bar and the history once read.
  const fromLink = decodeURIComponent(location.hash.slice(1));
  if (fromLink) history.replaceState(null, "", "/device");
  const [input, codeField] = field("Code from your signed-in device", {
    id: "device-code-input", autocomplete: "one-time-code", maxLength: 32, value: fromLink, "data-testid": "device-code-input",
  });
  const status = h("div", { "data-testid": "device-status" });
  const redeem = async () => {
    fill(status, h("p", { class: "muted" }, "Checking the code…"));
    try {
      const player = await api("POST", "/api/sessions/device", { code: input.value });
      forgetPlayer();
      fill(status, h("p", { class: "notice" }, `This device is ${player.handle} now.`));
      navigate("/", { replace: true });
    } catch (err) {
      fill(status, errorBox(err.message));
    }
  };
  root.append(h("section", { class: "card" },
    h("h1", {}, "Use a device code"),
    h("p", {}, "On a device where you are signed in, open your sign-in page and press “Show a code”."),
    h("form", { class: "stack", onsubmit: (event) => { event.preventDefault(); redeem(); } },
      codeField, status, h("button", { type: "submit", class: "primary", "data-testid": "redeem" }, "Become me on this device"))));
  if (fromLink) redeem();
}
