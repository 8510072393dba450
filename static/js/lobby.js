// Lobby: invite link, seats, host controls, live over /ws/lobbies/{id}; moves everyone to the game.
import { api, wsUrl } from "./api.js";
import { perMove } from "./clock.js";
import { botLevel, gameKinds, levelPicker, tableOptionsLine } from "./options.js";
import { errorBox, fill, h } from "./dom.js";
import { navigate } from "./main.js";
import { getPlayer, playerBox } from "./player.js";
import { LiveSocket, STATUS_TEXT } from "./socket.js";
import { chatPanel } from "./chat.js";
import { profileLink, ratingTag } from "./rating.js";

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

  const update = (next) => {
    if (left || (lobby && JSON.stringify(lobby) === JSON.stringify(next))) return;
    const wasSeated = lobby?.seats.some((s) => s.player && s.player.id === me?.id);
    lobby = next;
    if (wasSeated && next.status === "open" && !next.seats.some((s) => s.player && s.player.id === me?.id)) {
      fill(error, errorBox("The host took you out of this lobby."));
    }
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
    fill(body,
      h("section", { class: "card" },
        h("div", { class: "title-row" },
          h("h1", {}, lobby.title),
          h("span", { class: `pill ${connection}`, "data-testid": "connection" }, STATUS_TEXT[connection])),
        h("p", { class: "muted" }, lobby.private ? "Private table" : "Public table", " · ",
          h("span", { "data-testid": "rated" }, lobby.rated ? "rated" : "unrated"), " · ",
          h("span", { "data-testid": "turn-seconds" }, perMove(lobby.turn_seconds)), " · ",
          closed ? "closed" : lobby.game_id ? "already started" : full ? "every seat is taken" : "waiting for players"),
        tableOptionsLine(gameKind, lobby.options),
        host && lobby.status === "open" ? standInPicker()
          : h("p", { class: "muted small", "data-testid": "stand-in-level" },
            `Away or conceded players are played by the ${botLevel(gameKind, lobby.stand_in_level).name} bot.`),
        closed ? h("p", { class: "notice", "data-testid": "closed" }, "This lobby is closed (by its host, or unused for a day). ",
          h("a", { href: "/", "data-nav": true }, "Back to camp")) : null,
        (seated || host) && !closed
          ? inviteBox(lobby, host && lobby.status === "open" ? () => act("POST", `/api/lobbies/${lobby.id}/invite_code`) : null)
          : null,
        h("ol", { class: "seats", "data-testid": "seats" }, lobby.seats.map((seat) => seatRow(seat, host, seated))),
        closed ? null : h("div", { class: "actions" },
          host
            ? h("button", {
              class: "primary", "data-testid": "start", disabled: !full,
              onclick: async (event) => {
                event.target.disabled = true;
                const started = await act("POST", `/api/lobbies/${lobby.id}/start`);
                // The lobby socket may have taken us to the game already.
                if (started && !left) navigate(`/games/${started.game_id}`, { replace: true });
                else if (!started) event.target.disabled = false;
              },
            }, full ? "Start the game" : "Fill every seat to start")
            : seated && lobby.status === "open" ? h("p", { class: "muted" }, "Waiting for the host to start…") : null,
          seated && !host && lobby.status === "open"
            ? h("button", {
              class: "quiet", onclick: async () => {
                if (await act("POST", `/api/lobbies/${lobby.id}/leave`) !== null) navigate("/");
              },
            }, "Leave")
            : null,
          lobby.game_id && !seated
            ? h("a", { href: `/games/${lobby.game_id}`, "data-nav": true }, "Watch the game")
            : null,
          host && !lobby.game_id
            ? h("button", {
              class: "quiet", "data-testid": "close-lobby", onclick: async () => {
                if (!confirm("Close this lobby? Nobody will be able to join or start it.")) return;
                await act("POST", `/api/lobbies/${lobby.id}/close`);
              },
            }, "Close the lobby")
            : null)),
    );
  };

  // The host may change the stand-in bot until the start; everyone sees the change live.
  const standInPicker = () => {
    const picker = levelPicker(gameKind, {
      chosen: lobby.stand_in_level, label: "Stand-in bot", testid: "stand-in-level",
      onchange: (level) => act("PUT", `/api/lobbies/${lobby.id}/stand_in`, { level }),
    });
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
        controls = h("button", {
          class: "quiet", "data-testid": "remove-player",
          onclick: () => act("DELETE", `/api/lobbies/${lobby.id}/seats/${seat.seat}`),
        }, "Remove");
      }
    } else if (seat.bot) {
      const level = botLevel(gameKind, seat.bot);
      who = [h("strong", {}, "Bot"), h("span", { class: "tag bot", title: level.about, "data-testid": "seat-level" }, level.name),
        ratingTag(seat.rating)];
      if (host && lobby.status === "open") {
        controls = h("button", {
          class: "quiet", "data-testid": "remove-bot",
          onclick: () => act("DELETE", `/api/lobbies/${lobby.id}/seats/${seat.seat}`),
        }, "Remove");
      }
    } else {
      const kept = seat.reserved_for && seat.reserved_for !== me?.id;
      who = h("span", { class: "muted", "data-testid": kept ? "kept-seat" : null },
        kept ? "Kept for a player of the last game" : "Empty seat");
      if (host && lobby.status === "open") {
        const level = levelPicker(gameKind, {
          chosen: chosenLevel[seat.seat], label: `Bot level for seat ${seat.seat + 1}`, testid: "bot-level",
          onchange: (value) => { chosenLevel[seat.seat] = value; },
        });
        controls = h("span", { class: "bot-pick" }, h("span", { class: "row" }, level.select, h("button", {
          "data-testid": "add-bot",
          onclick: () => act("POST", `/api/lobbies/${lobby.id}/bots`, { seat: seat.seat, level: level.select.value }),
        }, "Add bot")), level.about);
      } else if (!seated && lobby.status === "open" && me && !kept) {
        controls = h("button", {
          class: "primary", onclick: () => act("POST", `/api/lobbies/${lobby.id}/join`),
        }, "Sit here");
      }
    }
    return h("li", { class: you ? "seat you" : "seat", "data-testid": "seat" },
      h("span", { class: "seat-no" }, seat.seat + 1), h("span", { class: "who" }, who), controls);
  };

  const connect = () => {
    socket = new LiveSocket(wsUrl(`/ws/lobbies/${lobbyId}`), {
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
        fill(body, playerBox(null, () => location.reload(), { prompt: "Enter your name to open this lobby" }));
        return;
      }
      const [first, games] = await Promise.all([
        api("GET", `/api/lobbies/${lobbyId}`),
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

  return () => {
    left = true;
    socket?.close();
  };
}

// renew: the host's way to a new code, after which the old link says it was replaced.
function inviteBox(lobby, renew) {
  const url = new URL(lobby.invite_url || `/join/${lobby.invite_code}`, location.origin).href;
  const field = h("input", { readOnly: true, value: url, "data-testid": "invite-url", "aria-label": "Invite link" });
  const note = h("span", { class: "muted", "aria-live": "polite", "data-testid": "copy-note" });
  const copy = h("button", {
    type: "button", "data-testid": "copy-invite",
    onclick: async () => {
      try {
        await navigator.clipboard.writeText(url);
        note.textContent = "Copied!";
      } catch {
        // No clipboard access (plain http, old browser): select it so the player can copy by hand.
        field.focus();
        field.select();
        note.textContent = "Selected: copy it with Ctrl+C / ⌘C";
      }
    },
  }, "Copy");
  const fresh = renew && h("button", {
    type: "button", class: "quiet", "data-testid": "new-invite",
    title: "The old link stops working; people you removed may join again with the new one.",
    onclick: () => {
      if (confirm("Make a new invite link? The old one stops working.")) renew();
    },
  }, "New link");
  return h("div", { class: "invite" },
    h("label", {}, "Invite friends with this link"),
    h("div", { class: "row" }, field, copy, fresh || null), note);
}
