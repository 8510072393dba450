// The game frame: live view over /ws/games/{id} kept current with JSON Patch, seats, turn,
// log, outcome, and a per-game renderer from /static/games/{kind}.js.
import { applyPatch } from "/static/vendor/fast-json-patch/core.js";
import { api, wsUrl } from "./api.js";
import { countDown, timeLeft } from "./clock.js";
import { fill, h, ICONS, svgIcon } from "./dom.js";
import { alertToggles, turnAlerts } from "./alerts.js";
import { firstHeld, loadOlder, logEntry } from "./log.js";
import { lastMove, showFirstMove } from "./marks.js";
import { replayBox } from "./replay.js";
import { LiveSocket, STATUS_TEXT } from "./socket.js";
import { tableActions } from "./table-actions.js";
import { chatPanel } from "./chat.js";
import { ratingTag } from "./rating.js";
import { concededNote, outcomeHeadline, standInText } from "./outcome.js";
import { botLevel, gameKinds, tableOptionsLine } from "./options.js";

const ANIMATE_MS = 600; // as long as the longest mark animation in app.css
const renderers = {}; // kind -> promise of its module (null when it has none)

export function gamePage(root, gameId) {
  document.title = "Game · Campground";
  let view = null;
  let version = null;
  let pending = null; // ref of the move in flight
  let movedFrom = null; // the version our last move was made at: focus moves on once it is past
  let flash = "";
  let connection = "connecting";
  let refs = 0;
  let socket = null; // opened last: its first status report redraws the frame
  let rematchLobby = null; // announced over the socket
  let before = null; // the view before the latest change: the last move is what differs
  let fresh = false; // the latest change is not drawn yet
  // Marks drawn until then animate: a redraw right after a change (its ack) keeps them moving.
  let animateUntil = 0;
  let lookDue = false; // a change to show the first move for, once no move of ours is on its way
  const alertTurn = turnAlerts();
  let gameKind = null; // the game kind (GET /api/games), for the options' names

  const parts = {
    head: h("div", { class: "game-head" }),
    outcome: h("div"),
    table: h("div", { class: "game-root" }),
    moves: h("div"),
    actions: h("div"),
    alerts: alertToggles(),
    replay: h("div"),
    log: h("div"),
  };
  let chats = 0;
  const chat = chatPanel({
    historyPath: `/api/games/${gameId}/chat`,
    send: (text) => socket.send({ type: "chat", text, ref: `chat${++chats}` }),
  });
  chat.setWritable(false);
  // Shown once there is a table: a page for a game that does not exist has no chat or alerts.
  chat.element.hidden = true;
  parts.alerts.hidden = true;
  root.append(h("div", { class: "game" },
    parts.head, parts.outcome, parts.table, parts.moves, parts.actions, parts.alerts, chat.element, parts.replay,
    parts.log));
  parts.table.append(h("p", { class: "muted" }, "Joining the table…"));

  const send = (move) => {
    if (pending || !view) return;
    const ref = `m${++refs}`;
    movedFrom = version;
    if (!socket.send({ type: "move", move, expect_version: version, ref })) {
      flash = "Not connected right now; try again in a moment.";
    } else {
      pending = ref;
      flash = "";
    }
    redraw();
  };

  // One drawing a frame, however many messages arrive in it (a move's patch and its ack, a
  // bot's moves in a row); frames stop on a hidden page, so a timer stands in there, keeping
  // its title and turn alerts current.
  let drawDue = false;
  const redraw = () => {
    if (drawDue) return;
    drawDue = true;
    const run = () => {
      if (!drawDue) return;
      drawDue = false;
      draw();
    };
    requestAnimationFrame(run);
    setTimeout(run, 100);
  };

  const seatName = (seat) => view?.table?.seats?.[seat]?.name ?? `Seat ${seat + 1}`;

  // The log's page before the entries held, put before them; a scrolled list keeps its place.
  const older = async (scrollTop) => {
    try {
      if (!(await loadOlder(gameId, view))) return;
    } catch (err) {
      flash = err.message;
      return drawHead();
    }
    await draw();
    const list = parts.log.querySelector("[data-testid=log]");
    if (list && scrollTop != null) list.scrollTop = scrollTop;
  };

  const draw = async () => {
    if (!view) return drawHead();
    const kind = view.table?.kind || view.game;
    renderers[kind] ??= loadRenderer(kind);
    const renderer = await renderers[kind];
    gameKind ??= (await gameKinds()).find((g) => g.id === kind) || null;
    const focused = document.activeElement?.dataset?.moveKey;
    const yourTurn = !view.outcome && view.to_act.includes(view.you);
    document.title = `${yourTurn ? "● Your turn · " : ""}${view.table?.title || kind} · Campground`;
    setFavicon(yourTurn);
    alertTurn(yourTurn, document.title);
    parts.alerts.hidden = view.you == null || Boolean(view.outcome);
    chat.element.hidden = false;
    const ended = Boolean(view.outcome) || view.table?.status === "aborted";
    fill(parts.outcome, ended ? outcomeBox(view, seatName, gameId, renderer?.figure) : "");
    if (view.table?.status && view.table.status !== "active" && !parts.replay.firstChild) {
      parts.replay.append(replayBox(gameId, version, renderer, seatName, seatBadge));
    }

    // The renderer marks the legal moves it placed; the rest go in the "Your moves" bar.
    const handled = new Set();
    const control = (el, entry) => {
      handled.add(entry);
      el.dataset.testid = "move";
      el.dataset.moveKey = JSON.stringify(entry.move);
      el.classList.add("legal");
      if (pending) el.setAttribute("aria-disabled", "true");
      if (el instanceof HTMLButtonElement) el.disabled = Boolean(pending);
      else {
        el.tabIndex = 0;
        el.setAttribute("role", "button");
        // The move's label is the control's name; what the element shows stays part of it.
        if (el.textContent.trim()) {
          el.removeAttribute("aria-label");
          el.append(h("span", { class: "sr-only" }, ` ${entry.label}`));
        } else el.setAttribute("aria-label", entry.label);
        el.title ||= entry.label;
        el.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); send(entry.move); } });
      }
      el.addEventListener("click", (e) => { e.stopPropagation(); send(entry.move); });
      return el;
    };
    const marks = lastMove(before, view);
    const ctx = {
      you: view.you,
      changed: marks.changed,
      mark: marks.mark,
      lastMover: marks.mover,
      pending: Boolean(pending),
      send,
      seatName,
      moveButton: (entry, label = entry.label) => control(h("button", { type: "button", title: entry.label }, label), entry),
      moveControl: control,
      claim: (entry) => handled.add(entry),
      // How the game ended, in the outcome box's words (empty while it runs).
      outcomeText: outcomeHeadline(view, seatName),
      concededText: concededNote(view, seatName),
    };
    parts.table.replaceChildren();
    parts.table.classList.toggle("animate", performance.now() < animateUntil);
    if (renderer) {
      try {
        renderer.render(parts.table, view, ctx);
      } catch (err) {
        // Every move goes to the bar below; the error still surfaces as uncaught.
        handled.clear();
        fill(parts.table, h("p", { class: "error" }, `This table could not be drawn: ${err.message}`));
        setTimeout(() => { throw err; });
      }
    }
    // Taking back a step of your turn is the frame's, the same for every game: beside the turn.
    // Focus and scrolling go to the game's next move, never to it.
    const undoEntry = (view.legal_moves || []).find((entry) => entry.move.type === "undo");
    const undo = undoEntry ? control(h("button", { type: "button", class: "undo-step", title: undoEntry.label },
      "Undo"), undoEntry) : null;
    const rest = (view.legal_moves || []).filter((entry) => !handled.has(entry));
    fill(parts.moves, rest.length
      ? h("section", { class: "moves-bar", "data-testid": "moves-bar" },
        h("h2", {}, "Your moves"), h("div", { class: "buttons" }, rest.map((entry) => ctx.moveButton(entry))))
      : "");
    tableActions(parts.actions, view, gameId, rematchLobby);
    chat.setWritable(view.you !== null && view.you !== undefined);
    const logText = renderer?.logText ? (event) => renderer.logText(event, ctx) : (event) => event.text;
    const colourOf = (seat) => (renderer?.seatColour ? renderer.seatColour(view, seat) : null);
    fill(parts.log, logBox(view, seatName, logText, colourOf, older));
    drawHead(logText, colourOf, undo, undoEntry);
    keepFocus(focused);
    lookDue ||= fresh;
    if (lookDue && !pending) {
      lookDue = false;
      if (yourTurn) showFirstMove(root);
    }
    fresh = false;
  };

  // Every drawing replaces the table: a focused move control gets focus back in the new one;
  // after your own move (once it is in the view) focus goes to your next move, or to the turn
  // line when you have none.
  const keepFocus = (focused) => {
    const lost = !document.activeElement || document.activeElement === document.body;
    if (!lost) return;
    const again = focused && [...root.querySelectorAll("[data-move-key]")].find((el) => el.dataset.moveKey === focused);
    if (again) return again.focus();
    if (movedFrom === null || pending || version <= movedFrom) return;
    movedFrom = null;
    const next = root.querySelector('[data-testid="move"]:not(.undo-step):not([aria-disabled="true"]):not([disabled])');
    (next || parts.head.querySelector('[data-testid="turn"]'))?.focus();
  };

  const drawHead = (logText = (event) => event.text, colourOf = () => null, undo = null, undoEntry = null) => {
    const status = !view ? "" : view.outcome ? "Game over"
      : view.to_act.includes(view.you) ? (view.to_act.length > 1 ? "Your move (others decide too)" : "Your turn")
        : view.to_act.length ? `Waiting for ${view.to_act.map(seatName).join(", ")}` : "";
    const kind = view?.table?.kind || view?.game;
    // The last decision a person or bot made: the first line its move wrote, not the turn
    // header or the clean-up that followed it.
    const latest = view ? logEntry(view, view.last_decision) : null;
    fill(parts.head,
      h("div", { class: "title-row" },
        h("h1", {}, view?.table?.title || "Game"),
        // The rules open beside the table, never in its place.
        kind ? h("a", { href: `/rules/${kind}`, class: "rules-link", "data-testid": "rules-link", target: "_blank", rel: "noopener" }, "Rules") : null,
        h("span", { class: `pill ${connection}`, "data-testid": "connection" }, STATUS_TEXT[connection])),
      view?.table ? tableOptionsLine(gameKind, view.table.options, view.table.turn_seconds) : null,
      view && view.you == null ? h("p", { class: "notice watching", "data-testid": "watching" },
        "You are watching this table.") : null,
      view ? seatsStrip(view, seatName, colourOf, gameKind) : null,
      view?.table?.seats?.[view.you]?.away && !view.outcome ? h("p", { class: "turn", "data-testid": "away" },
        "The bot is playing for you while you are away. ",
        h("button", { type: "button", class: "primary", "data-testid": "back", onclick: back }, "Take my seat back")) : null,
      // The turn line is read out by screen readers whenever it changes.
      h("p", { class: view?.to_act.includes(view.you) && !view.outcome ? "turn yours" : "turn", "data-testid": "turn",
        "aria-live": "polite", tabindex: "-1" }, status, status && pending ? " · sending…" : ""),
      undo ? h("p", { class: "undo-row small", "data-testid": "undo-row" }, undo, " ",
        undoEntry.label.startsWith("Undo: ")
          ? h("span", { class: "muted" }, logText({ text: undoEntry.label.slice(6), seat: view.you })) : null) : null,
      latest ? h("p", { class: "last-move small", "data-testid": "last-move", "data-index": view.last_decision },
        h("span", { class: "muted" }, "Last: "), logText(latest)) : null,
      flash ? h("p", { class: "error", role: "alert", "data-testid": "flash" }, flash) : null,
    );
  };

  const back = async () => {
    try {
      await api("POST", `/api/games/${gameId}/back`); // the socket brings the change
    } catch (err) {
      flash = err.message;
      draw();
    }
  };
  const stopClock = countDown(parts.head);

  socket = new LiveSocket(wsUrl(`/ws/games/${gameId}`), {
    resync: { type: "sync" },
    onStatus: (status, reason) => {
      connection = status;
      if (status !== "online") pending = null;
      if (status === "gone") {
        flash = reason || "This game cannot be opened.";
        if (!view) fill(parts.table, h("a", { href: "/", "data-nav": true, class: "button primary" }, "Back to camp"));
      }
      redraw();
    },
    onMessage: (msg) => {
      if (msg.type === "state") {
        if (msg.version !== version) [before, fresh, animateUntil] = [view, true, performance.now() + ANIMATE_MS];
        view = msg.view;
        version = msg.version;
      } else if (msg.type === "patch") {
        if (msg.from !== version) return socket.send({ type: "sync" });
        try {
          const next = applyPatch(view, msg.ops, false, false).newDocument;
          [before, view, fresh, animateUntil] = [view, next, true, performance.now() + ANIMATE_MS];
          version = msg.version;
        } catch {
          return socket.send({ type: "sync" });
        }
        flash = "";
      } else if (msg.type === "chat") {
        return chat.add(msg);
      } else if (msg.type === "error" && String(msg.ref).startsWith("chat")) {
        return chat.refused(msg.message);
      } else if (msg.type === "rematch") {
        rematchLobby = msg.lobby_id;
      } else if (msg.type === "ack") {
        if (msg.ref === pending) pending = null;
      } else if (msg.type === "error") {
        if (!msg.ref || msg.ref === pending) pending = null;
        if (msg.code === "stale_version") {
          flash = "The table changed just before your move arrived: have a look and choose again.";
          socket.send({ type: "sync" });
        } else if (msg.code === "unavailable") {
          flash = "Reconnecting to the table… your move was not made; make it again in a moment.";
        } else {
          flash = msg.message || msg.code || "That did not work.";
        }
      }
      redraw();
    },
  });

  return () => {
    stopClock();
    socket.close();
  };
}

async function loadRenderer(kind) {
  if (!document.querySelector(`link[data-game-css="${kind}"]`)) {
    document.head.append(h("link", { rel: "stylesheet", href: `/static/games/${kind}.css`, "data-game-css": kind }));
  }
  try {
    return await import(`/static/games/${kind}.js`);
  } catch {
    return null; // no table drawing for this game: the moves bar still offers every move
  }
}

// A seat's badge: its number on the seat's colour where the game gives seats colours (the
// number and the colour's name are the cues that do not rely on colour).
export function seatBadge(seat, colour, title) {
  return h("span", { class: `badge${colour ? ` seat-colour-${colour.toLowerCase()}` : ""}`,
    title: colour ? `${title} (${colour})` : title, "data-testid": "seat-badge" }, seat + 1);
}

function seatsStrip(view, seatName, colourOf, kind) {
  const seats = view.table?.seats || Array.from({ length: view.players }, (_, seat) => ({ seat }));
  return h("ol", { class: "seat-strip", "data-testid": "seat-strip" }, seats.map((s) => {
    const acting = !view.outcome && view.to_act.includes(s.seat);
    const winner = view.outcome?.winners.includes(s.seat);
    return h("li", { class: ["chip", acting && "acting", s.seat === view.you && "you", winner && "winner"].filter(Boolean).join(" ") },
      acting ? h("span", { class: "dot", role: "img", "aria-label": "to act" }) : null,
      seatBadge(s.seat, colourOf(s.seat), seatName(s.seat)),
      seatName(s.seat),
      colourOf(s.seat) ? h("span", { class: "seat-colour-name" }, colourOf(s.seat)) : null,
      s.bot ? h("span", { class: "tag bot", title: botLevel(kind, s.bot).about, "data-testid": "seat-level" },
        svgIcon(ICONS.bot), `Bot · ${botLevel(kind, s.bot).name}`) : null,
      ratingTag(s.rating),
      s.seat === view.you ? h("span", { class: "tag you" }, "you") : null,
      s.conceded ? h("span", { class: "tag" }, "conceded") : null,
      standInText(view, s.seat) ? h("span", { class: "tag", "data-testid": "stand-in" }, standInText(view, s.seat)) : null,
      s.away && !view.outcome ? h("span", { class: "tag away", title: "away: the bot plays this seat", "data-testid": "seat-away" }, "away") : null,
      acting && s.deadline ? h("span", { class: "countdown", "data-deadline": s.deadline, "data-testid": "countdown", title: "time left for this move" },
        timeLeft(s.deadline)) : null,
      winner ? h("span", { class: "chip-icon trophy" }, svgIcon(ICONS.trophy, { label: "winner" })) : null);
  }));
}

// The tab's icon gains a dot while it is your turn, so a player in another tab sees it.
function setFavicon(yourTurn) {
  const link = document.querySelector("link[rel=icon]");
  const href = yourTurn ? "/static/icons/turn.svg" : "/static/icons/camp.svg";
  if (link && link.getAttribute("href") !== href) link.setAttribute("href", href);
}

// A figure with what it counts: "23 points", "41 miles", "Badger (rank 5 of 5)".
const pointsFigure = (view, seat) => ({ value: view.outcome.scores[seat], unit: "points" });

function outcomeBox(view, seatName, gameId, figure = pointsFigure) {
  const outcome = view.outcome;
  const winners = outcome?.winners || [];
  const conceded = outcome?.conceded || [];
  const scored = outcome && outcome.scores.length > 0;
  const seats = (view.table?.seats || []).map((s) => s.seat);
  const order = seats.sort((a, b) => Number(conceded.includes(a)) - Number(conceded.includes(b))
    || Number(winners.includes(b)) - Number(winners.includes(a))
    || (scored ? outcome.scores[b] - outcome.scores[a] : 0));
  const figureOf = (seat) => {
    if (!scored) return h("span", { class: "figure" }, winners.includes(seat) ? "wins" : "conceded");
    const { value, unit } = figure(view, seat);
    return h("span", { class: "figure" }, h("strong", { "data-testid": "score" }, value), ` ${unit}`);
  };
  const note = concededNote(view, seatName);
  return h("section", { class: "outcome card", "data-testid": "outcome" },
    h("h2", { "data-testid": "winner" }, outcome ? h("span", { class: "chip-icon trophy" }, svgIcon(ICONS.trophy)) : null,
      outcomeHeadline(view, seatName)),
    outcome ? h("ol", { class: "scores" }, order.map((seat) =>
      h("li", { class: winners.includes(seat) ? "winner" : "" },
        h("span", {}, seatName(seat), seat === view.you ? " (you)" : ""),
        h("span", { class: "seat-notes" },
          conceded.includes(seat) && scored ? h("span", { class: "tag" }, "conceded") : null,
          standInText(view, seat) ? h("span", { class: "tag" }, standInText(view, seat)) : null,
          figureOf(seat))))) : null,
    note ? h("p", { class: "muted", "data-testid": "conceded-note" }, note) : null,
    view.table?.seed ? h("p", { class: "muted small" }, "Seed revealed: ", h("code", { "data-testid": "seed" }, view.table.seed),
      " (its SHA-256 was published at the start: ", h("code", {}, view.table.seed_commitment), ")") : null,
    h("p", { class: "small" },
      h("a", { href: `/api/games/${gameId}/export`, download: `campground-${gameId}.json`, "data-testid": "export" },
        "Download the game record"),
      " · anyone can check it was fair with ", h("code", {}, "campground verify FILE"),
      ": it replays every move from the seed and compares the outcome."),
    h("p", {}, h("a", { href: "/", "data-nav": true, class: "button primary" }, "Back to camp")));
}

function logBox(view, seatName, logText, colourOf, older) {
  const log = view.log || [];
  const items = log.map((event) => h("li", {},
    event.seat == null ? null : seatBadge(event.seat, colourOf(event.seat), seatName(event.seat)),
    logText(event))).reverse();
  const earlier = firstHeld(view) > 0;
  // Scrolled to its end (the oldest entries), the list asks for the page before them.
  const list = items.length ? h("ol", { "data-testid": "log", reversed: true, tabindex: "0", "aria-label": "What happened, newest first",
    onscroll: (e) => { const el = e.currentTarget; if (earlier && el.scrollTop + el.clientHeight >= el.scrollHeight - 8) older(el.scrollTop); } }, items) : null;
  return h("section", { class: "log card" },
    h("h2", {}, "What happened"),
    list || h("p", { class: "muted" }, "Nothing yet."),
    earlier ? h("button", { type: "button", class: "small", "data-testid": "log-earlier", onclick: () => older(null) }, "Earlier entries") : null);
}
