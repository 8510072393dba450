"""The game page keeps up with the server when a patch is lost or the connection drops, and
never plays a move against a view it has not drawn."""

from __future__ import annotations

import json
import time

from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser.end_states import COOKIE, play_until, start, state
from tests.browser.game_socket import GAME_SOCKET, record_sent

LIVE_MOVES = '[data-testid="move"]:not([disabled]):not([aria-disabled="true"])'


def start_against_a_bot(page: Page) -> str:
    page.locator("#player-name-input").fill("Ana")
    page.locator("#player-name-input").press("Enter")
    expect(page.get_by_test_id("player-name")).to_have_text("Ana")
    page.get_by_test_id("game-hike").click()
    page.get_by_test_id("create-lobby").click()
    page.wait_for_url("**/lobbies/*")
    page.get_by_test_id("bot-level").select_option("heuristic")
    page.get_by_test_id("add-bot").click()
    page.get_by_test_id("start").click()
    page.wait_for_url("**/games/*")
    expect(page.get_by_test_id("my-backpack")).to_be_visible()
    return page.url.rsplit("/", 1)[1]


def play_a_move(page: Page) -> None:
    """Click a legal move once the page offers one, preferring to draw."""
    moves = page.locator(LIVE_MOVES)
    expect(moves.first).to_be_visible()
    draw = moves.filter(has_text="Draw a card")
    (draw if draw.count() else moves).first.click()


def try_a_move(page: Page) -> None:
    """Click a legal move if the page still offers one. The page may change under the click
    (the bot's move arrives, or the page resyncs), so a miss is left for the caller to look
    again."""
    try:
        page.locator(LIVE_MOVES).first.click(timeout=2000)
    except PlaywrightTimeout:
        pass


def differences(page: Page, game_id: str) -> dict:
    """What the page shows that the server does not hold (empty when they agree)."""
    state = page.request.get(f"/api/games/{game_id}/state").json()
    view = state["view"]
    shown = {
        "log": page.get_by_test_id("log").locator("li").count(),
        "draw pile": page.get_by_test_id("draw-pile").locator("strong").inner_text(),
    }
    held = {"log": len(view["log"]), "draw pile": str(view["draw_pile"])}
    return {
        name: {"shown": shown[name], "held": held[name], "version": state["version"]}
        for name in shown
        if shown[name] != held[name]
    }


def settle(page: Page, game_id: str, within: float = 15) -> None:
    """Wait until the page shows exactly what the server holds (bots move in the background)."""
    deadline = time.monotonic() + within
    while differing := differences(page, game_id):
        assert time.monotonic() < deadline, f"the page never caught up with the server: {differing}"
        page.wait_for_timeout(100)


def test_a_lost_patch_is_noticed_and_the_page_resyncs(new_page):
    page = new_page("/")
    from_page: list[dict] = []
    dropped: list[dict] = []

    def route(ws):
        server = ws.connect_to_server()

        def to_page(message):
            # Lose the first patch after the page's own move, so that something follows it
            # (the bot's answer, or the page's next move) and shows the gap. A bot's opening
            # move lost on its own would leave the page waiting with nothing to notice.
            moved = any(m["type"] == "move" for m in from_page)
            if moved and not dropped and json.loads(message)["type"] == "patch":
                dropped.append(json.loads(message))  # lost on its way
                return
            ws.send(message)

        def to_server(message):
            from_page.append(json.loads(message))
            server.send(message)

        server.on_message(to_page)
        ws.on_message(to_server)

    page.route_web_socket(GAME_SOCKET, route)
    game_id = start_against_a_bot(page)
    play_a_move(page)
    deadline = time.monotonic() + 30
    # The page notices the gap (the next patch does not follow on) or has its stale move
    # refused; either way it asks for the whole state.
    while not any(m["type"] == "sync" for m in from_page):
        assert time.monotonic() < deadline, "the page never asked to resync"
        if page.locator(LIVE_MOVES).count():
            try_a_move(page)
        page.wait_for_timeout(100)
    assert dropped and dropped[0]["type"] == "patch"
    settle(page, game_id)
    play_a_move(page)
    settle(page, game_id)


def test_a_dropped_connection_reconnects_and_play_goes_on(new_page):
    page = new_page("/")
    sockets = []

    def route(ws):
        sockets.append(ws)
        ws.connect_to_server()

    page.route_web_socket(GAME_SOCKET, route)
    game_id = start_against_a_bot(page)
    expect(page.get_by_test_id("connection")).to_have_text("Live")
    play_a_move(page)
    settle(page, game_id)

    assert len(sockets) == 1, "starting the game opened more than one game socket"
    sockets[0].close()
    deadline = time.monotonic() + 30
    while len(sockets) == 1:
        assert time.monotonic() < deadline, "the page never reconnected"
        page.wait_for_timeout(100)
    expect(page.get_by_test_id("connection")).to_have_text("Live")
    settle(page, game_id)
    play_a_move(page)
    settle(page, game_id)


def test_a_refused_reconnect_is_tried_again_after_the_servers_wait(new_page):
    """4429 (too many from this address) and 1013 (try again later) are not final: the page
    says it is reconnecting and comes back after the wait the server named."""
    page = new_page("/")
    sockets = []

    def route(ws):
        sockets.append(ws)
        if len(sockets) == 2:
            ws.close(
                code=4429,
                reason=json.dumps(
                    {"retry_after": 1, "message": "Too many connections: try again in 1 s."}
                ),
            )
        elif len(sockets) == 3:
            ws.close(
                code=1013,
                reason=json.dumps(
                    {"retry_after": 1, "message": "The database is unavailable for a moment."}
                ),
            )
        else:
            ws.connect_to_server()

    page.route_web_socket(GAME_SOCKET, route)
    game_id = start_against_a_bot(page)
    expect(page.get_by_test_id("connection")).to_have_text("Live")
    sockets[0].close()
    expect(page.get_by_test_id("connection")).to_have_text("Reconnecting to the table…")
    deadline = time.monotonic() + 30
    while len(sockets) < 4:
        assert time.monotonic() < deadline, "the page gave up after a refusal"
        page.wait_for_timeout(100)
    expect(page.get_by_test_id("connection")).to_have_text("Live")
    play_a_move(page)
    settle(page, game_id)


def test_the_page_reads_the_wait_of_a_refusal_as_a_number(new_page):
    """The wait is the close reason's ``retry_after``, never read out of its sentence."""
    page = new_page("/")
    waits = page.evaluate("""async () => {
        const { namedWait } = await import("/static/js/socket.js");
        return [namedWait('{"retry_after":3,"message":"Too many connections."}'),
                namedWait("Too many connections: try again in 3 s."),
                namedWait(""), namedWait('{"message":"Full."}')];
    }""")
    assert waits == [3000, 0, 0, 0]


def test_while_the_database_is_away_the_page_says_it_is_reconnecting(new_page):
    page = new_page("/")
    answered: list[dict] = []

    def route(ws):
        server = ws.connect_to_server()

        def to_server(message):
            sent = json.loads(message)
            if sent["type"] == "move" and not answered:
                # What the server answers while its database is away: nothing was done.
                answered.append(sent)
                ws.send(
                    json.dumps(
                        {
                            "type": "error",
                            "code": "unavailable",
                            "ref": sent.get("ref"),
                            "message": "The database is unavailable for a moment; try again shortly.",
                            "retry_after": 1,
                        }
                    )
                )
                return
            server.send(message)

        server.on_message(ws.send)
        ws.on_message(to_server)

    page.route_web_socket(GAME_SOCKET, route)
    game_id = start_against_a_bot(page)
    play_a_move(page)
    expect(page.get_by_test_id("connection")).to_have_text("Reconnecting to the table…")
    expect(page.get_by_test_id("flash")).to_contain_text("Reconnecting to the table…")
    # After retry_after the page asks for the state again and is live with it.
    expect(page.get_by_test_id("connection")).to_have_text("Live", timeout=15000)
    play_a_move(page)
    settle(page, game_id)


def test_a_control_drawn_from_an_older_view_sends_that_version_and_is_refused(new_page, server_url):
    """A move carries the version of the view its control was drawn from. Ana's Camp Pinetop
    page offers the face-up supply cards; her first draw is made elsewhere (the API), and while
    the new view waits for its drawing (the page's frames and timers are held), a click on a
    card of the table on screen is sent with the version drawn and refused, although the same
    move is legal at the new one: it is never played against a table she has not seen. The
    page resyncs and says so; a click on the new table plays."""
    ana, game_id = start(server_url, "pinetop")
    # Played on to the start of a turn of Ana's, where she may draw from the supply.
    now = play_until(
        ana,
        game_id,
        "pinetop",
        lambda view: (
            view["phase"] == "action"
            and {"draw_deck", "take"} <= {e["move"]["type"] for e in view["legal_moves"]}
        ),
    )
    assert now is not None
    page = new_page("/")
    page.context.add_cookies([{"name": COOKIE, "value": ana.token, "url": server_url}])
    sent = record_sent(page)
    # What reaches the page, counted before the page's own listener reads it.
    page.add_init_script("""(() => {
      const Native = window.WebSocket;
      window.received = [];
      window.WebSocket = class extends Native {
        constructor(...args) {
          super(...args);
          this.addEventListener("message", (e) => window.received.push(JSON.parse(e.data)));
        }
      };
    })()""")
    page.goto(f"/games/{game_id}")
    takes = page.locator('[data-move-key^=\'{"type":"take"\']')
    expect(takes.first).to_be_visible()
    page.evaluate("""() => {
      window.held = [];
      window.frames = [window.requestAnimationFrame, window.setTimeout];
      window.requestAnimationFrame = (cb) => window.held.push(cb);
      window.setTimeout = (cb) => window.held.push(cb);
    }""")
    r = ana.post(
        f"/api/games/{game_id}/moves",
        json={"move": {"type": "draw_deck"}, "expect_version": now["version"]},
    )
    assert r.status_code == 200, r.text
    after = state(ana, game_id)
    # Generous: on loaded cores the change may take seconds to reach the page. What the page
    # received and its socket's status say why, if it never does.
    try:
        page.wait_for_function(
            "(v) => window.received.some((m) => m.version === v)",
            arg=after["version"],
            timeout=60_000,
        )
    except PlaywrightTimeout:
        seen = page.evaluate(
            "() => window.received.map((m) => `${m.type} ${m.version ?? ''} ${m.code ?? ''}`)"
        )
        status = page.get_by_test_id("connection").all_inner_texts()
        raise AssertionError(
            f"version {after['version']} never reached the page: {seen}, status {status}"
        ) from None
    # Taking the card is still a legal move at the new version (a wild card may not be the
    # second one drawn: the test takes another).
    legal = [json.dumps(e["move"], separators=(",", ":")) for e in after["view"]["legal_moves"]]
    take = next(
        key
        for key in takes.evaluate_all("(els) => els.map((el) => el.dataset.moveKey)")
        if key in legal
    )
    page.locator(f"[data-move-key='{take}']").evaluate("(el) => el.click()")
    # Waited for from here: the page's own timers and frames are held.
    deadline = time.monotonic() + 15
    while not page.evaluate("() => window.received.some((m) => m.type === 'error')"):
        assert time.monotonic() < deadline, "the move was never answered"
        time.sleep(0.05)
    page.evaluate("""() => {
      [window.requestAnimationFrame, window.setTimeout] = window.frames;
      for (const cb of window.held.splice(0)) cb(performance.now());
    }""")
    expect(page.get_by_test_id("flash")).to_contain_text(
        "The table changed just before your move arrived"
    )
    moves = [m for m in sent if m["type"] == "move"]
    assert [(m["move"], m["expect_version"]) for m in moves] == [(json.loads(take), now["version"])]
    assert any(m["type"] == "sync" for m in sent[sent.index(moves[0]) :])
    assert state(ana, game_id)["version"] == after["version"]

    page.locator(f"[data-move-key='{take}']").click()
    expect(page.get_by_test_id("flash")).to_have_count(0)
    assert [m["expect_version"] for m in sent if m["type"] == "move"][-1] == after["version"]
    deadline = time.monotonic() + 15
    while state(ana, game_id)["version"] == after["version"]:
        assert time.monotonic() < deadline, "the move on the table as drawn was not played"
        page.wait_for_timeout(50)
