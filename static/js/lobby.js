// Lobby: invite link, seats, host controls, live over /ws/lobbies/{id}; moves everyone to the game.
import { api, withInvite, wsUrl } from "./api.js";
import { botLevel, gameKinds, levelPicker, tableOptionsLine } from "./options.js";
import { errorBox, fill, h, patch } from "./dom.js";
import { navigate } from "./main.js";
import { getPlayer, playerBox } from "./player.js";
import { LiveSocket, STATUS_TEXT } from "./socket.js";
import { chatPanel } from "./chat.js";
import { lobbyRatedNote, profileLink, ratingTag } from "./rating.js";
import { signedOutBox, whenSignedOut } from "./signed-out.js";

export function lobbyPage(root, lobbyId) {
  document.title = "Lobby · Campground";
  let lobby = null;
  let me = null;
  let gameKind = null; // the game kind, for the options' and bot levels' names
  const chosenLevel = {}; // seat -> bot level picked in its select, kept across redraws
  let socket = null;
  let connection = "connecting";
  let left = false; // the page was left: late answers must not navigate again
  const error = h("div", { class: "flash" });
  const body = h("div", {}, h("p", { class: "muted" }, "Opening the lobby…"));
  const chat = chatPanel({
    historyPath: `/api/lobbies/${lobbyId}/chat`,
    send: (text) => socket?.send({ type: "chat", text }) ?? false,
  });
  chat.setWritable(false);
  root.append(error, body, chat.element);

  const act = async (method, path, payload) => {
    error.replaceChildren();
    try {
      const result = await api(method, path, payload);
      if (result && result.seats) update(result);
      return result;
    } catch (err) {
      fill(error, errorBox(err.message));
      return null;
    }
  };

  // The lobby is patched at every change, so its controls carry no handlers of their own:
  // these read what was pressed (and for which seat) from the element.
  const seatOf = (el) => Number(el.closest("[data-seat]")?.dataset.seat);
  const actions = {
    start: async (button) => {
      button.disabled = true;
      const started = await act("POST", `/api/lobbies/${lobby.id}/start`);
      // The lobby socket may have taken us to the game already.
      if (started && !left) navigate(`/games/${started.game_id}`, { replace: true });
      else if (!started) button.disabled = false;
    },
    leave: async () => {
      if (await act("POST", `/api/lobbies/${lobby.id}/leave`) !== null) navigate("/");
    },
    close: async () => {
      if (!confirm("Close this lobby? Nobody will be able to join or start it.")) return;
      await act("POST", `/api/lobbies/${lobby.id}/close`);
    },
    remove: (button) => act("DELETE", `/api/lobbies/${lobby.id}/seats/${seatOf(button)}`),
    "add-bot": (button) => act("POST", `/api/lobbies/${lobby.id}/bots`, {
      seat: seatOf(button), level: button.closest("[data-seat]").querySelector("select").value,
    }),
    sit: () => act("POST", `/api/lobbies/${lobby.id}/join`),
    "new-link": () => {
      if (confirm("Make a new invite link? The old one stops working.")) act("POST", `/api/lobbies/${lobby.id}/invite_code`);
    },
    copy: async () => {
      const field = body.querySelector('[data-testid="invite-url"]');
      const note = body.querySelector('[data-testid="copy-note"]');
      try {
        await navigator.clipboard.writeText(field.value);
        note.textContent = "Copied!";
      } catch {
        // No clipboard access (plain http, old browser): select it so the player can copy by hand.
        field.focus();
        field.select();
        note.textContent = "Selected: copy it with Ctrl+C / ⌘C";
      }
    },
  };
  body.addEventListener("click", (e) => {
    const button = e.target.closest("[data-action]");
    if (button && !button.disabled) actions[button.dataset.action]?.(button);
  });
  body.addEventListener("change", (e) => {
    const testid = e.target.dataset?.testid;
    if (testid === "stand-in-level") act("PUT", `/api/lobbies/${lobby.id}/stand_in`, { level: e.target.value });
    else if (testid === "bot-level") {
      chosenLevel[seatOf(e.target)] = e.target.value;
      draw();
    }
  });

  const update = (next) => {
    if (left || (lobby && JSON.stringify(lobby) === JSON.stringify(next))) return;
    lobby = next;
    if (lobby.game_id && lobby.seats.some((s) => s.player && s.player.id === me?.id)) {
      navigate(`/games/${lobby.game_id}`, { replace: true });
      return;
    }
    draw();
  };

  const draw = () => {
    document.title = `${lobby.title} lobby · Campground`;
    const host = me && lobby.host_id === me.id;
    const seated = lobby.seats.some((s) => s.player && s.player.id === me?.id);
    const full = lobby.seats.every((s) => s.player || s.bot);
    const closed = lobby.status === "closed";
    chat.setWritable(seated && lobby.status === "open");
    patch(body,
      h("section", { class: "card" },
        h("div", { class: "title-row" },
          h("h1", {}, lobby.title),
          h("span", { class: `pill ${connection}`, "data-testid": "connection" }, STATUS_TEXT[connection])),
        h("p", { class: "muted" }, lobby.private ? "Private table" : "Public table", " · ",
          lobby.private ? h("span", { "data-testid": "after-end" }, lobby.after_end === "public"
            ? "anyone may watch it once it ends" : "only its players and invited watchers see it") : null,
          lobby.private ? " · " : null,
          h("span", { "data-testid": "rated" }, lobby.rated ? "rated" : lobby.seats.some((s) => s.unrated_because) ? "not rated" : "unrated"), " · ",
          h("span", { "data-testid": "speed" }, lobby.speed_name), " · ",
          closed ? "closed" : lobby.game_id ? "already started" : full ? "every seat is taken" : "waiting for players"),
        lobbyRatedNote(lobby, me),
        tableOptionsLine(gameKind, lobby.options),
        host && lobby.status === "open" ? standInPicker()
          : h("p", { class: "muted small", "data-testid": "stand-in-level" },
            `Away or conceded players are played by the ${botLevel(gameKind, lobby.stand_in_level).name} bot.`),
        closed ? h("p", { class: "notice", "data-testid": "closed" }, "This lobby is closed (by its host, or unused for a day). ",
          h("a", { href: "/", "data-nav": true }, "Back to camp")) : null,
        // Whom the host removed cannot sit down again until a new link: told so, and where to go.
        lobby.removed && !closed && !lobby.game_id ? h("p", { class: "notice", "data-testid": "removed" },
          "The host removed you from this table, so you cannot sit down here again. Ask the host for a new invite link, or ",
          h("a", { href: "/", "data-nav": true }, "go back to camp"), " and start a table of your own.") : null,
        (seated || host) && !closed
          ? inviteBox(lobby, host && lobby.status === "open")
          : null,
        h("ol", { class: "seats", "data-testid": "seats" }, lobby.seats.map((seat) => seatRow(seat, host, seated))),
        closed ? null : h("div", { class: "actions" },
          host
            ? h("button", { class: "primary", "data-testid": "start", "data-action": "start", disabled: !full },
              full ? "Start the game" : "Fill every seat to start")
            : seated && lobby.status === "open" ? h("p", { class: "muted" }, "Waiting for the host to start…") : null,
          seated && !host && lobby.status === "open"
            ? h("button", { class: "quiet", "data-action": "leave" }, "Leave")
            : null,
          lobby.game_id && !seated
            ? h("a", { href: `/games/${lobby.game_id}`, "data-nav": true }, "Watch the game")
            : null,
          host && !lobby.game_id
            ? h("button", { class: "quiet", "data-testid": "close-lobby", "data-action": "close" }, "Close the lobby")
            : null)),
    );
  };

  // The host may change the stand-in bot until the start; everyone sees the change live.
  const standInPicker = () => {
    const picker = levelPicker(gameKind, { chosen: lobby.stand_in_level, label: "Stand-in bot", testid: "stand-in-level" });
    return h("div", { class: "field small" },
      h("span", { class: "muted" }, "Stand-in bot, for away or conceded players: "), picker.select, picker.about);
  };

  const seatRow = (seat, host, seated) => {
    const you = seat.player && seat.player.id === me?.id;
    let who;
    let controls = null;
    if (seat.player) {
      who = [h("strong", {}, profileLink(seat.player.name, seat.player.handle)), ratingTag(seat.rating),
        seat.player.id === lobby.host_id ? h("span", { class: "tag" }, "host") : null,
        you ? h("span", { class: "tag you" }, "you") : null];
      if (host && !you && lobby.status === "open") {
        controls = h("button", { class: "quiet", "data-testid": "remove-player", "data-action": "remove" }, "Remove");
      }
    } else if (seat.bot) {
      const level = botLevel(gameKind, seat.bot);
      who = [h("strong", {}, "Bot"), h("span", { class: "tag bot", title: level.about, "data-testid": "seat-level" }, level.name),
        ratingTag(seat.rating)];
      if (host && lobby.status === "open") {
        controls = h("button", { class: "quiet", "data-testid": "remove-bot", "data-action": "remove" }, "Remove");
      }
    } else {
      const kept = seat.reserved_for && seat.reserved_for !== me?.id;
      who = h("span", { class: "muted", "data-testid": kept ? "kept-seat" : null },
        kept ? "Kept for a player of the last game" : "Empty seat");
      if (host && lobby.status === "open") {
        const level = levelPicker(gameKind, {
          chosen: chosenLevel[seat.seat], label: `Bot level for seat ${seat.seat + 1}`, testid: "bot-level",
        });
        controls = h("span", { class: "bot-pick" }, h("span", { class: "row" }, level.select,
          h("button", { "data-testid": "add-bot", "data-action": "add-bot" }, "Add bot")), level.about);
      } else if (!seated && lobby.status === "open" && me && !kept && !lobby.removed) {
        controls = h("button", { class: "primary", "data-testid": "sit-here", "data-action": "sit" }, "Sit here");
      }
    }
    return h("li", { class: you ? "seat you" : "seat", "data-testid": "seat", "data-seat": seat.seat, "data-key": `seat-${seat.seat}` },
      h("span", { class: "seat-no" }, seat.seat + 1), h("span", { class: "who" }, who), controls);
  };

  const connect = () => {
    socket = new LiveSocket(wsUrl(withInvite(`/ws/lobbies/${lobbyId}`)), {
      onMessage: (msg) => {
        if (msg.type === "lobby") update(msg.lobby);
        else if (msg.type === "chat") chat.add(msg);
        else if (msg.type === "error") chat.refused(msg.message);
      },
      onStatus: (status, reason) => {
        connection = status;
        if (status === "gone") fill(error, errorBox(reason || "This lobby is gone."));
        const pill = body.querySelector('[data-testid="connection"]');
        if (pill) { pill.textContent = STATUS_TEXT[status]; pill.className = `pill ${status}`; }
      },
    });
  };

  (async () => {
    try {
      me = await getPlayer();
      if (!me) {
        fill(body, h("h1", {}, "Lobby"), playerBox(null, () => location.reload(), { prompt: "Enter your name to open this lobby" }));
        return;
      }
      const [first, games] = await Promise.all([
        api("GET", withInvite(`/api/lobbies/${lobbyId}`)),
        gameKinds(),
      ]);
      const kind = games.find((g) => g.id === first.game);
      gameKind = kind;
      update(first);
      if (!first.game_id) connect();
    } catch (err) {
      fill(body, errorBox(err.message), h("p", {}, h("a", { href: "/", "data-nav": true }, "Back to camp")));
    }
  })();

  // Signed out elsewhere: the lobby (its invite link, its chat) is no longer this device's.
  whenSignedOut(() => {
    left = true;
    socket?.close();
    error.replaceChildren();
    chat.element.hidden = true;
    document.title = "Signed out · Campground";
    fill(body, signedOutBox());
  }, body);

  return () => {
    left = true;
    socket?.close();
  };
}

// renew: whether the host may make a new code, after which the old link says it was replaced.
function inviteBox(lobby, renew) {
  const url = new URL(lobby.invite_url || `/join/${lobby.invite_code}`, location.origin).href;
  return h("div", { class: "invite" },
    h("label", {}, "Invite friends with this link"),
    h("div", { class: "row" },
      h("input", { readOnly: true, value: url, "data-testid": "invite-url", "aria-label": "Invite link" }),
      h("button", { type: "button", "data-testid": "copy-invite", "data-action": "copy" }, "Copy"),
      renew ? h("button", {
        type: "button", class: "quiet", "data-testid": "new-invite", "data-action": "new-link",
        title: "The old link stops working; people you removed may join again with the new one.",
      }, "New link") : null),
    h("span", { class: "muted", "aria-live": "polite", "data-testid": "copy-note" }));
}
