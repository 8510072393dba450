// Who is playing: ask for a name once, then show "Playing as Ana · change · I am someone else ·
// sign out". "change" renames the same player (seats and all); "someone else" starts a new guest.
// A guest is offered to keep their tables with a sign-in; a signed-in player sees their handle.
// A device signed out elsewhere says so instead, with the way to sign in again.
import { api, currentPlayer } from "./api.js";
import { errorBox, fill, h } from "./dom.js";
import { signedOutBox, whenSignedOut } from "./signed-out.js";

let cached; // the current player, null for none, undefined before the first look-up
let registering = null; // a new name's request while it is out

export async function getPlayer() {
  if (cached === undefined) cached = await currentPlayer();
  return cached;
}

// The player changed behind this page's back (a sign-in, a claim): look again next time.
export function forgetPlayer() {
  cached = undefined;
}
whenSignedOut(forgetPlayer);

function register(name) {
  registering = api("POST", "/api/players", { name })
    .then((player) => { cached = player; return player; })
    .finally(() => { registering = null; });
  return registering;
}

// The player once a name typed into the name form, or already sent, is saved; null if there is
// none. A button pressed straight after typing a name should not ask for the name again.
export async function settledPlayer() {
  if (!cached && !registering) document.querySelector("form.name-form")?.requestSubmit();
  if (registering) await registering.catch(() => null);
  return cached ?? null;
}

async function rename(name) {
  cached = await api("PATCH", "/api/players/me", { name });
  return cached;
}

// A box that shows the player or a name form; onReady(player) runs whenever a name is set.
export function playerBox(player, onReady, { prompt = "What should we call you?", submit = "Save" } = {}) {
  const box = h("section", { class: "player", "data-testid": "player" });
  const show = (p) => fill(box, p ? playingAs(p) : nameForm(p));

  const playingAs = (p) =>
    h("p", { class: "playing-as" },
      "Playing as ", h("strong", { "data-testid": "player-name" }, p.name),
      p.handle ? [" (", h("a", { href: "/account", "data-nav": true, "data-testid": "account-link" }, p.handle), ")"] : null,
      " · ",
      h("button", { class: "link", type: "button", "data-testid": "change-name", onclick: () => fill(box, nameForm(p)) }, "change"),
      " · ",
      p.handle ? null : [h("a", { href: "/account", "data-nav": true, "data-testid": "keep-tables" }, "keep my tables on every device"), " · "],
      h("button", { class: "link", type: "button", "data-testid": "someone-else", onclick: () => fill(box, nameForm(null, p)) },
        "I am someone else"),
      " · ",
      h("button", { class: "link", type: "button", "data-testid": "sign-out", onclick: () => signOut(p) }, "sign out"));

  // The server clears the HttpOnly cookie (and ends a signed-in device's token); the page
  // starts again as nobody.
  const signOut = async (p) => {
    try {
      await api(p.handle ? "DELETE" : "POST", p.handle ? "/api/sessions/current" : "/api/players/sign-out");
      cached = null;
      location.reload();
    } catch (err) {
      box.append(errorBox(err.message));
    }
  };

  // ``p``: the player to rename; ``leaving``: the player a new guest replaces in this browser.
  const nameForm = (p, leaving = null) => {
    const input = h("input", {
      name: "name", required: true, maxLength: 32, autocomplete: "nickname",
      placeholder: "Your name", value: p ? p.name : "", "aria-label": "Your name",
    });
    const error = h("div");
    const form = h("form", {
      class: "name-form",
      onsubmit: async (event) => {
        event.preventDefault();
        const name = input.value.trim();
        if (!name) return;
        if (p && name === p.name) return show(p);
        error.replaceChildren();
        try {
          const created = p ? await rename(name) : await register(name);
          show(created);
          onReady(created);
        } catch (err) {
          fill(error, errorBox(err.message));
        }
      },
    },
    leaving ? h("p", { class: "notice", "data-testid": "someone-else-warning" },
      `A new guest starts with no tables. ${leaving.name}'s seats stay with ${leaving.name}, `,
      "and this browser will no longer be able to play them.") : null,
    h("label", { for: "player-name-input" }, leaving ? "Your name" : prompt),
    h("div", { class: "row" }, input, h("button", { type: "submit", class: "primary" }, leaving ? "Start as a new guest" : submit),
      leaving ? h("button", { type: "button", class: "quiet", onclick: () => show(leaving) }, "Cancel") : null),
    p ? null : h("p", { class: "small muted" }, "Played here before? ",
      h("a", { href: "/account", "data-nav": true, "data-testid": "sign-in-link" }, "Sign in"), " to get your tables back."),
    error);
    input.id = "player-name-input";
    queueMicrotask(() => input.focus());
    return form;
  };

  show(player);
  whenSignedOut(() => fill(box, signedOutBox()), box);
  return box;
}
