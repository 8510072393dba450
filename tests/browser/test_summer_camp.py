"""A whole game of Summer Camp played through the browser, on a phone, against the heuristic bot."""

from __future__ import annotations

import json
import random
import re
import time
from collections import Counter

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser.end_states import as_player, play_until

PHONE = 375
# Undo is tried on its own (test_undo.py): a random walk that may take back each step seldom ends.
LIVE_MOVES = (
    '[data-testid="move"]:not(.undo-step):not([disabled]):not([aria-disabled="true"]):visible'
)
PACKS = ["games", "friendship", "adventure"]


def no_overflow(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE, f"the table is {width}px wide at a {PHONE}px viewport"


# One synchronous read of the page, so a redraw cannot fall between two of its parts.
SNAPSHOT = """() => {
  const table = document.querySelector('.game-root:not(.replay-table) [data-testid="summer-camp"]');
  const faces = [...table.querySelectorAll('.card-face')];
  const count = (el) => Number((el.querySelector('.cf-count')?.textContent || '×1').slice(1));
  const hand = {};
  for (const el of table.querySelectorAll('[data-testid="hand-card"]')) hand[el.dataset.card] = count(el);
  return {
    over: Boolean(document.querySelector('[data-testid="outcome"]')),
    testids: faces.map((e) => e.dataset.testid),
    hand,
    handCount: table.querySelector('[data-testid="my-seat"] [data-testid="hand-count"]').textContent,
    theirFaces: table.querySelectorAll('[data-testid="their-seat"] .card-face').length,
    prompt: table.querySelector('[data-testid="sc-prompt"]')?.textContent,
    choiceFaces: table.querySelectorAll('.sc-choice .card-face').length,
  };
}"""
PUBLIC_FACES = {"hand-card", "display-card", "played-card", "asking-card", "card"}


def check_table(page: Page) -> None:
    """Only your own hand is on the page: every card shown is in your hand, the display, the
    cards played this turn, the card asking, or the cards a prompt offers you (from the display
    or your own discard pile)."""
    snap = page.evaluate(SNAPSHOT)
    if snap["over"]:
        return
    assert set(snap["testids"]) <= PUBLIC_FACES, snap["testids"]
    assert snap["theirFaces"] == 0
    assert f"Hand {sum(snap['hand'].values())}" == snap["handCount"], (
        snap["hand"],
        snap["handCount"],
    )
    if snap["choiceFaces"]:
        assert "discard pile" in snap["prompt"] or "display" in snap["prompt"], snap["prompt"]


def view_of(page: Page, game_id: str) -> dict:
    response = page.request.get(f"/api/games/{game_id}/state")
    assert response.ok
    return response.json()["view"]


def hand_matches_view(page: Page, game_id: str) -> None:
    """The page's hand is exactly the hand in this seat's view (once the page has caught up)."""
    deadline = time.monotonic() + 5
    while True:
        view = view_of(page, game_id)
        shown = page.evaluate(SNAPSHOT)["hand"]
        if shown == dict(Counter(view["hand"])) or view["outcome"]:
            return
        assert time.monotonic() < deadline, (shown, view["hand"])
        page.wait_for_timeout(100)


# Which control is which: its place on the table and its text.
KINDS = """els => els.map(e => {
  const text = e.textContent;
  if (e.closest('[data-testid="my-hand"]')) return text === 'Play' ? 'play' : text === '+1 energy' ? 'energy' : 'discard';
  if (e.closest('[data-testid="display"]')) return text === 'Buy' ? 'buy' : 'take';
  if (e.closest('[data-testid="board"]')) return 'path';
  if (text === 'End turn') return 'end_turn';
  if (e.closest('.sc-turn-buttons')) return 'snack';
  return 'prompt';
})"""
ANSWERS = ("discard", "take", "path", "prompt")


def click_a_move(page: Page, rng: random.Random, clicked: Counter, spend: bool) -> bool:
    """Play like a keen beginner: answer what is asked, play cards for their actions, buy the
    dearest card that can be bought, then end the turn. On a spending turn the cards left and
    the snack bar tokens become energy first."""
    moves = page.locator(LIVE_MOVES)
    kinds = moves.evaluate_all(KINDS)
    if not kinds:
        return False
    order = (
        (ANSWERS, ("play",), ("energy",), ("snack",), ("buy",), ("end_turn",))
        if spend
        else (ANSWERS, ("play",), ("buy",), ("end_turn",))
    )
    for wanted in order:
        options = [i for i, kind in enumerate(kinds) if kind in wanted]
        if options:
            break
    else:
        options = list(range(len(kinds)))
    if kinds[options[0]] == "buy":
        costs = moves.evaluate_all(
            "els => els.map(e => Number((e.title.match(/\\((\\d+) energy\\)/) || [0, 0])[1]))"
        )
        if len(costs) != len(kinds):
            return False  # the table was redrawn between the two reads; look again
        pick = max(options, key=lambda i: costs[i])
    else:
        pick = rng.choice(options)
    try:
        moves.nth(pick).click(timeout=2000)
    except PlaywrightTimeout:
        return False  # the table was redrawn under the click; look again
    clicked[kinds[pick]] += 1
    return True


@pytest.mark.slow
def test_whole_game_against_the_bot(new_page, server_url):
    page = new_page("/", width=PHONE, height=800)
    refused: list[str] = []  # what the page's Content-Security-Policy blocked (inline styles...)
    page.on(
        "console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None
    )
    page.locator("#player-name-input").fill("Ana")
    page.locator("#player-name-input").press("Enter")
    expect(page.get_by_test_id("player-name")).to_have_text("Ana")
    page.get_by_test_id("game-summer-camp").click()
    expect(page.get_by_test_id("game-summer-camp")).to_have_attribute("aria-checked", "true")
    for box in page.locator('input[name="packs"]').all():
        box.set_checked(box.get_attribute("value").strip('"') in PACKS)
    no_overflow(page)
    page.get_by_test_id("create-lobby").click()
    page.wait_for_url("**/lobbies/*")
    expect(page.get_by_test_id("seat")).to_have_count(2)
    page.get_by_test_id("bot-level").select_option("heuristic")
    page.get_by_test_id("add-bot").click()
    expect(page.get_by_test_id("seat").nth(1)).to_contain_text("Casual")
    page.get_by_test_id("start").click()
    page.wait_for_url("**/games/*")
    game_id = page.url.rstrip("/").split("/")[-1]

    # The live table (a finished game's replay draws the same table again further down).
    table = page.locator('.game-root:not(.replay-table) [data-testid="summer-camp"]')
    expect(table).to_be_visible()
    # The lake and three paths of the chosen packs, both players' three pawns, every bridge.
    board = table.locator(".sc-board-svg.tall")
    expect(board).to_be_visible()
    expect(board.locator(".sc-path")).to_have_count(3)
    expect(board.locator(".sc-pawn")).to_have_count(6)
    expect(board.locator(".sc-bridge")).to_have_count(9)
    assert sorted(board.locator(".sc-path-name").all_text_contents()) == [
        "Adventure",
        "Friendship",
        "Games",
    ]
    # The display: two cards per activity and the three camp supplies, each with cost and points.
    display = table.get_by_test_id("display")
    expect(display.get_by_test_id("display-card")).to_have_count(9)
    expect(display.get_by_test_id("card-cost")).to_have_count(9)
    expect(display.get_by_test_id("card-points")).to_have_count(9)
    view = view_of(page, game_id)
    assert sorted(view["hand"]) and len(view["hand"]) in (3, 4)
    hand_matches_view(page, game_id)
    no_overflow(page)

    # Two of Ana's turns are clicked (a spending one and a buying one: every kind of control),
    # the middle of the game is played through the API with the heuristic bot's choices while
    # the page follows, and from the last round (someone has every badge) the clicks again.
    rng = random.Random(11)
    clicked: Counter = Counter()
    steps = 0
    deadline = time.monotonic() + 600
    middle_played = False
    while not page.get_by_test_id("outcome").is_visible():
        assert time.monotonic() < deadline, f"the game did not finish ({dict(clicked)})"
        if (
            not middle_played
            and clicked["end_turn"] >= 2
            and all(clicked[kind] for kind in ("play", "energy", "buy"))
        ):
            play_until(
                as_player(page, server_url), game_id, "summer-camp", lambda view: view["ending"]
            )
            middle_played = True
            hand_matches_view(page, game_id)
            continue
        check_table(page)
        # Every legal move sits on the table: nothing is left for the frame's bar.
        expect(page.get_by_test_id("moves-bar")).to_have_count(0)
        if steps % 40 == 0:
            hand_matches_view(page, game_id)
            no_overflow(page)
        ends = clicked["end_turn"]
        if click_a_move(page, rng, clicked, spend=ends % 2 == 0):
            steps += 1
        else:
            page.wait_for_timeout(50)

    for kind in ("play", "energy", "buy", "end_turn"):
        assert clicked[kind] > 0, clicked
    expect(page.locator(LIVE_MOVES)).to_have_count(0)
    assert refused == [], refused

    # The final scoring: each player's badges, card points and lake points add up to the
    # score the outcome gives, seat by seat.
    outcome = view_of(page, game_id)["outcome"]
    breakdown = table.get_by_test_id("breakdown")
    expect(breakdown).to_be_visible()
    totals = [int(t) for t in breakdown.get_by_test_id("total").all_inner_texts()]
    assert totals == outcome["scores"]
    expect(breakdown.get_by_test_id("score-row")).to_have_count(2)
    parts = [
        [int(cell) for cell in breakdown.get_by_test_id(column).all_inner_texts()]
        for column in ("badge-points", "card-points", "lake-points")
    ]
    assert [sum(seat) for seat in zip(*parts)] == totals
    headline = breakdown.get_by_test_id("sc-winner").inner_text()
    assert ("You" in headline) == (0 in outcome["winners"]), headline
    shown = sorted(
        int(s) for s in page.get_by_test_id("outcome").get_by_test_id("score").all_inner_texts()
    )
    assert shown == sorted(totals)
    no_overflow(page)

    # On a wide screen the paths run left to right under the lake, beside nothing else.
    page.set_viewport_size({"width": 1280, "height": 900})
    wide = table.locator(".sc-board-svg.wide")
    expect(wide).to_be_visible()
    expect(table.locator(".sc-board-svg.tall")).to_be_hidden()
    assert wide.bounding_box()["width"] > 800


def test_an_opponents_card_asks_two_seats_at_once(new_page):
    """Red plays Dodgeball in a 3-player game: Blue and Green must each discard a card during
    Red's turn. Blue's page, fed the engine's own view over a routed socket, asks Blue, offers a
    Discard on each card of Blue's hand, says Green decides too, and sends the chosen card."""
    from engine.core import full_view
    from engine.summer_camp import GAME
    from tests.engine.summer_camp.conftest import act, arrange, run

    state = arrange(
        players=3,
        packs=("games", "cooking", "outdoors"),
        hands={
            0: ["dodgeball", "lights_out"],
            1: ["lights_out", "smores", "tetherball"],
            2: ["lights_out", "kitchen_chores"],
        },
        draws={0: ["lights_out", "lights_out"]},
    )
    state = run(state, (0, act("dodgeball")))
    view = full_view(GAME, state, 1) | {
        "table": {
            "game_id": "g1",
            "kind": "summer-camp",
            "title": "Summer Camp",
            "status": "active",
            "seats": [
                {"seat": s, "name": name, "bot": None, "conceded": False}
                for s, name in enumerate(["Ana", "Bruno", "Carla"])
            ],
            "rematch_lobby_id": None,
            "seed_commitment": "0" * 64,
            "seed": None,
        }
    }
    assert view["to_act"] == [1, 2] and view["prompt"]["kind"] == "dodgeball"

    sent: list[dict] = []

    def route(ws):
        def from_page(message):
            data = json.loads(message)
            sent.append(data)
            if data["type"] == "move":
                ws.send(json.dumps({"type": "ack", "ref": data["ref"], "version": 2}))

        ws.on_message(from_page)
        ws.send(json.dumps({"type": "state", "version": 1, "view": view}))

    page = new_page("/", width=PHONE, height=800)
    page.route_web_socket(re.compile(r"/ws/games/"), route)
    # Bruno's other tables (the page asks at its turn): none. Unanswered, the server would
    # refuse this page, which has no token, and the page would say it was signed out.
    page.route("**/api/players/me/turns", lambda r: r.fulfill(json={"count": 0, "games": []}))
    page.goto("/games/g1")
    ask = page.get_by_test_id("sc-ask")
    # The card is named once: "Ana played Dodgeball: each opponent discards…".
    expect(ask).to_contain_text("Ana played Dodgeball: each opponent discards a card")
    assert ask.inner_text().count("Dodgeball") == 1, ask.inner_text()
    expect(page.get_by_test_id("turn")).to_contain_text("others decide too")
    expect(page.get_by_test_id("asking-card")).to_have_attribute("data-card", "dodgeball")
    hand = page.get_by_test_id("my-hand")
    discards = hand.locator(LIVE_MOVES)
    expect(discards).to_have_count(3)
    assert discards.all_inner_texts() == ["Discard"] * 3
    expect(page.get_by_test_id("moves-bar")).to_have_count(0)
    # Nothing else is offered: it is Ana's turn, Bruno only answers her card.
    expect(page.locator(LIVE_MOVES)).to_have_count(3)
    no_overflow(page)
    hand.locator('.sc-slot[data-card="smores"]').get_by_test_id("move").click()
    deadline = time.monotonic() + 5
    while not any(m["type"] == "move" for m in sent):
        assert time.monotonic() < deadline, sent
        page.wait_for_timeout(50)
    [move] = [m["move"] for m in sent if m["type"] == "move"]
    assert move == {"type": "choose_card", "card": "smores"}
