// The game frame: live view over /ws/games/{id} kept current with JSON Patch, seats, turn,
// log, outcome, and a per-game renderer from /static/games/{kind}.js.
import { applyPatch } from "../vendor/fast-json-patch/core.js";
import { api, withInvite, wsUrl } from "./api.js";
import { nextTableLink } from "./badge.js";
import { seatBadge, seatsStrip } from "./seats.js";
import { countDown } from "./clock.js";
import { fill, h, ICONS, patch, patchFrom, sameParts, svgIcon } from "./dom.js";
import { alertToggles, turnAlerts } from "./alerts.js";
import { firstHeld, loadOlder, logEntry } from "./log.js";
import { lastMove, showFirstMove } from "./marks.js";
import { replayBox } from "./replay.js";
import { LiveSocket, STATUS_TEXT } from "./socket.js";
import { signedOutBox, whenSignedOut } from "./signed-out.js";
import { tableActions } from "./table-actions.js";
import { chatPanel } from "./chat.js";
import { ratingChange, unratedNote } from "./rating.js";
import { concededNote, outcomeHeadline, standInText } from "./outcome.js";
import { gameKinds, tableOptionsLine } from "./options.js";
import { plainTable } from "./plain-table.js";
import { tableEvents } from "./table-events.js";

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
  let drawnAt = null; // the version the controls on screen were drawn from
  let shownRenderer = null; // the renderer that drew the table on screen
  let actionsShown = null; // what the actions below the table were drawn for
  const tableParts = sameParts(); // the table's parts, each drawn again only when its inputs change
  const logLines = sameParts();

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
  // Controls carry their move in their data (drawn by the latest drawing, of version drawnAt);
  // one listener for the whole frame sends it, and a renderer's own taps (show a card's
  // details) reach its `actions` and draw the table again.
  tableEvents(root, {
    play: (move) => send(move, drawnAt),
    act: (name, el) => shownRenderer?.actions?.[name]?.(el),
    redraw: () => redraw(),
  });
  parts.head.addEventListener("click", (e) => { if (e.target.closest('[data-testid="back"]')) back(); });
  parts.log.addEventListener("click", (e) => { if (e.target.closest('[data-testid="log-earlier"]')) older(null); });
  // Scrolled to its end (the oldest entries), the log asks for the page before them.
  parts.log.addEventListener("scroll", (e) => {
    const el = e.target;
    if (el.dataset?.testid !== "log" || !view || firstHeld(view) <= 0) return;
    if (el.scrollTop + el.clientHeight >= el.scrollHeight - 8) older(el.scrollTop);
  }, true);

  // A move carries the version of the view its control was drawn from: a click on a control
  // still on screen while a newer view waits for its drawing is refused as stale, never
  // played against a table the player has not seen.
  const send = (move, drawnAt) => {
    if (pending || !view) return;
    const ref = `m${++refs}`;
    movedFrom = drawnAt;
    if (!socket.send({ type: "move", move, expect_version: drawnAt, ref })) {
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

  // "Next table" and the app's badge: asked when this table's turn comes to the player or
  // leaves them, and now and then.
  const next = nextTableLink(gameId);
  let turnsAsked = null;
  const turnsTimer = setInterval(() => { if (turnsAsked !== null) next.ask(); }, 30000);

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
    if (!view) return drawHead(); // signed out meanwhile
    const focused = document.activeElement?.dataset?.moveKey;
    drawnAt = version;
    shownRenderer = renderer;
    const play = (move) => send(move, drawnAt);
    const yourTurn = !view.outcome && view.to_act.includes(view.you);
    document.title = `${yourTurn ? "● Your turn · " : ""}${view.table?.title || kind} · Campground`;
    // The tab's icon is loaded again when it changes: after this frame, not in its way.
    setTimeout(() => setFavicon(yourTurn));
    alertTurn(yourTurn, document.title);
    if (view.you != null && yourTurn !== turnsAsked) {
      turnsAsked = yourTurn;
      next.ask();
    }
    parts.alerts.hidden = view.you == null || Boolean(view.outcome);
    // A private table's chat is its players' only: its invited watchers do not see it.
    chat.element.hidden = view.you == null && Boolean(view.table?.private);
    const ended = Boolean(view.outcome) || view.table?.status === "aborted";
    patch(parts.outcome, ended ? outcomeBox(view, seatName, gameId, renderer?.figure) : null);
    if (view.table?.status && view.table.status !== "active" && !parts.replay.firstChild) {
      parts.replay.append(replayBox(gameId, version, renderer, seatName, seatBadge));
    }

    // The renderer marks the legal moves it placed; the rest go in the "Your moves" bar.
    const handled = new Set();
    const claimed = []; // the moves placed, in order, as their keys: a part kept unchanged claims its own again
    let byKey = null;
    const reclaim = (keys) => {
      byKey ??= new Map((view.legal_moves || []).map((entry) => [JSON.stringify(entry.move), entry]));
      for (const key of keys) {
        const entry = byKey.get(key);
        if (entry) handled.add(entry);
        claimed.push(key);
      }
    };
    const control = (el, entry) => {
      handled.add(entry);
      claimed.push(JSON.stringify(entry.move));
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
      }
      return el;
    };
    const marks = lastMove(before, view);
    const ctx = {
      you: view.you,
      changed: marks.changed,
      mark: marks.mark,
      lastMover: marks.mover,
      pending: Boolean(pending),
      send: play,
      seatName,
      moveButton: (entry, label = entry.label) => control(h("button", { type: "button", title: entry.label }, label), entry),
      moveControl: control,
      claim: (entry) => { handled.add(entry); claimed.push(JSON.stringify(entry.move)); },
      // A part of the table drawn only when `inputs` (everything its drawing reads, marks and
      // moves included) differ from those of the part on the page: otherwise it is kept as is.
      same: (key, inputs, build) => tableParts.same(key, [inputs, Boolean(pending)], build,
        { claims: () => claimed, onKept: reclaim }),
      // How the game ended, in the outcome box's words (empty while it runs).
      outcomeText: outcomeHeadline(view, seatName),
      concededText: concededNote(view, seatName),
    };
    // Drawn detached, then patched in: only what the change touched is laid out again.
    const table = parts.table.cloneNode(false);
    if (renderer) {
      try {
        renderer.render(table, view, ctx);
      } catch (err) {
        // Every move goes to the bar below; the error still surfaces as uncaught.
        handled.clear();
        fill(table, h("p", { class: "error" }, `This table could not be drawn: ${err.message}`));
        setTimeout(() => { throw err; });
      }
    } else table.append(plainTable(view));
    const animate = performance.now() < animateUntil;
    // A part marked before and again by this change keeps its node: its animation starts over.
    const marked = animate && fresh ? new Set(parts.table.querySelectorAll(".just-changed")) : null;
    patchFrom(parts.table, table);
    tableParts.settle(parts.table);
    parts.table.classList.toggle("animate", animate);
    if (marked?.size) {
      for (const el of parts.table.querySelectorAll(".just-changed")) {
        if (marked.has(el)) for (const a of el.getAnimations({ subtree: true })) { a.cancel(); a.play(); }
      }
    }
    // Taking back a step of your turn is the frame's, the same for every game: beside the turn.
    // Focus and scrolling go to the game's next move, never to it.
    const undoEntry = (view.legal_moves || []).find((entry) => entry.move.type === "undo");
    const undo = undoEntry ? control(h("button", { type: "button", class: "undo-step", title: undoEntry.label },
      "Undo"), undoEntry) : null;
    const rest = (view.legal_moves || []).filter((entry) => !handled.has(entry));
    patch(parts.moves, rest.length
      ? h("section", { class: "moves-bar", "data-testid": "moves-bar" },
        h("h2", {}, "Your moves"), h("div", { class: "buttons" }, rest.map((entry) => ctx.moveButton(entry))))
      : null);
    // Concede and the rematch are drawn again only when what they show changes: a patch leaves
    // a focused or half-pressed button alone.
    const actionsShow = JSON.stringify([view.you, view.players, Boolean(view.outcome), view.table?.status,
      view.table?.seats?.[view.you]?.conceded, view.table?.rematch_lobby_id, view.table?.rematch_status,
      view.table?.rematch_game_id, rematchLobby]);
    if (actionsShow !== actionsShown) tableActions(parts.actions, view, gameId, rematchLobby);
    actionsShown = actionsShow;
    chat.setWritable(view.you !== null && view.you !== undefined);
    const logText = renderer?.logText ? (event) => renderer.logText(event, ctx) : (event) => event.text;
    const colourOf = (seat) => (renderer?.seatColour ? renderer.seatColour(view, seat) : null);
    patch(parts.log, logBox(view, seatName, logText, colourOf, logLines));
    logLines.settle(parts.log);
    drawHead(logText, colourOf, undo, undoEntry);
    keepFocus(focused);
    lookDue ||= fresh;
    if (lookDue && !pending) {
      lookDue = false;
      // Once this frame is painted, when the layout it needed is done: asking for it now
      // would lay out the page a second time.
      if (yourTurn) setTimeout(() => showFirstMove(root));
    }
    fresh = false;
  };

  // A focused control that a drawing replaced (its move changed) gets focus back if the move is
  // still offered;
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
    patch(parts.head,
      h("div", { class: "title-row" },
        h("h1", {}, view?.table?.title || "Game"),
        // The rules open beside the table, never in its place.
        kind ? h("a", { href: `/rules/${kind}`, class: "rules-link", "data-testid": "rules-link", target: "_blank", rel: "noopener" }, "Rules") : null,
        next.element,
        h("span", { class: `pill ${connection}`, "data-testid": "connection" }, STATUS_TEXT[connection])),
      view?.table ? tableOptionsLine(gameKind, view.table.options, view.table.speed_name) : null,
      view && view.you == null ? h("p", { class: "notice watching", "data-testid": "watching" },
        view.table?.private ? "You are watching this private table; its chat is for its players."
          : "You are watching this table.") : null,
      view ? seatsStrip(view, seatName, colourOf, gameKind) : null,
      view?.table?.seats?.[view.you]?.away && !view.outcome ? h("p", { class: "turn", "data-testid": "away" },
        "The bot is playing for you while you are away. ",
        h("button", { type: "button", class: "primary", "data-testid": "back" }, "Take my seat back")) : null,
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

  socket = new LiveSocket(wsUrl(withInvite(`/ws/games/${gameId}`)), {
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

  // Signed out elsewhere: nothing of the seat stays on the screen (its hand, its secrets).
  whenSignedOut(() => {
    socket.close();
    [view, pending, flash, connection] = [null, null, "", "signed-out"];
    document.title = "Signed out · Campground";
    for (const part of [parts.outcome, parts.moves, parts.actions, parts.replay, parts.log]) part.replaceChildren();
    actionsShown = null;
    parts.alerts.hidden = true;
    chat.element.hidden = true;
    fill(parts.table, signedOutBox());
    drawHead();
  }, parts.table);

  return () => {
    stopClock();
    clearInterval(turnsTimer);
    socket.close();
  };
}

// A game's renderer and its stylesheet, asked for only once the renderer has come: a game
// without one (its table drawn by nobody: the moves bar still offers every move) has no
// stylesheet either. The table is drawn once the stylesheet is in, never unstyled.
async function loadRenderer(kind) {
  let renderer;
  try {
    renderer = await import(`../games/${kind}.js`);
  } catch {
    return null;
  }
  if (!document.querySelector(`link[data-game-css="${kind}"]`)) {
    const link = h("link", { rel: "stylesheet", href: new URL(`../games/${kind}.css`, import.meta.url).href, "data-game-css": kind });
    const loaded = new Promise((resolve) => { link.onload = link.onerror = resolve; });
    document.head.append(link);
    await loaded;
  }
  return renderer;
}

// The tab's icon gains a dot while it is your turn, so a player in another tab sees it.
function setFavicon(yourTurn) {
  const link = document.querySelector("link[rel=icon]");
  const href = new URL(`../icons/${yourTurn ? "turn" : "camp"}.svg`, import.meta.url).pathname;
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
          ratingChange(view.table?.seats?.[seat]?.rating_change),
          figureOf(seat))))) : null,
    note ? h("p", { class: "muted", "data-testid": "conceded-note" }, note) : null,
    unratedNote(view.table),
    view.table?.seed ? h("p", { class: "muted small" }, "Seed revealed: ", h("code", { "data-testid": "seed" }, view.table.seed),
      " (its SHA-256 was published at the start: ", h("code", {}, view.table.seed_commitment), ")") : null,
    h("p", { class: "small" },
      h("a", { href: withInvite(`/api/games/${gameId}/export`), download: `campground-${gameId}.json`, "data-testid": "export" },
        "Download the game record"),
      " · anyone can check it was fair with ", h("code", {}, "campground verify FILE"),
      ": it replays every move from the seed and compares the outcome."),
    h("p", {}, h("a", { href: "/", "data-nav": true, class: "button primary" }, "Back to camp")));
}

function logBox(view, seatName, logText, colourOf, lines) {
  const log = view.log || [];
  const first = firstHeld(view);
  // Keyed by number: a new entry is put on top, the others stay as they are, not drawn again.
  // A line names seats by their players' names (a rename redraws them all).
  const names = (view.table?.seats || []).map((s) => [seatName(s.seat), colourOf(s.seat)]);
  const items = log.map((event, i) => lines.same(`log-${first + i}`, [event.text, event.seat, names],
    () => h("li", {},
      event.seat == null ? null : seatBadge(event.seat, colourOf(event.seat), seatName(event.seat)),
      logText(event)))).reverse();
  const earlier = first > 0;
  const list = items.length ? h("ol", { "data-testid": "log", reversed: true, tabindex: "0", "aria-label": "What happened, newest first" },
    items) : null;
  return h("section", { class: "log card" },
    h("h2", {}, "What happened"),
    list || h("p", { class: "muted" }, "Nothing yet."),
    earlier ? h("button", { type: "button", class: "small", "data-testid": "log-earlier" }, "Earlier entries") : null);
}
