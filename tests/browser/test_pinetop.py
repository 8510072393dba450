"""A whole game of Camp Pinetop, every module on, played through the browser against a bot."""

from __future__ import annotations

import random
import time

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from engine.pinetop.cards import RACCOON
from tests.browser.end_states import as_player, play_until

PHONE = 375
# Undo is tried on its own (test_undo.py): a random walk that may take back each step seldom ends.
LIVE_MOVES = '[data-testid="move"]:not(.undo-step):not([disabled]):not([aria-disabled="true"])'

# Where each control sits on the table, read off the page.
KIND_OF_CONTROL = """els => els.map(e =>
  e.classList.contains('pt-edge') ? 'gain'
  : e.classList.contains('pt-arrow') ? 'walk'
  : e.classList.contains('pt-card') ? 'place'
  : e.classList.contains('pt-deck') ? 'draw_deck'
  : e.closest('[data-testid="supply-area"]') ? 'take'
  : e.closest('[data-testid="my-hand"]') ? 'hand'
  : e.classList.contains('pt-spot') ? 'claim'
  : e.classList.contains('pt-patch') ? 'friendship'
  : e.closest('[data-testid="moves-bar"]') ? 'bar'
  : 'button')"""

# One synchronous read of the page, so that a redraw cannot fall between two of its parts.
SNAPSHOT = """() => {
  const table = document.querySelector('.game-root:not(.replay-table) [data-testid="pinetop"]');
  const count = (sel, root = table) => root.querySelectorAll(sel).length;
  const me = table.querySelector('[data-testid="player"].you');
  return {
    over: Boolean(document.querySelector('[data-testid="outcome"]')),
    hands: count('[data-testid="my-hand"]'),
    handCards: count('[data-testid="my-hand"] .pt-supply[data-card]'),
    myCount: me ? me.querySelector('[data-testid="hand-count"]').textContent : null,
    // Supply cards anywhere but the face-up row, your hand and the payment under way.
    strayCards: [...table.querySelectorAll('.pt-supply[data-card]')].filter((e) =>
      !e.closest('[data-testid="supply-area"], [data-testid="my-hand"], [data-testid="pending"]')).length,
    faceUp: count('[data-testid="supply-area"] .pt-supply[data-card]'),
    players: count('[data-testid="player"]'),
    bar: [...document.querySelectorAll('[data-testid="moves-bar"] button')].map((b) => b.title),
  };
}"""


def no_overflow(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE, f"the table is {width}px wide at a {PHONE}px viewport"


def check_table(page: Page) -> None:
    """Only your own hand is on the page, and it matches your public hand count; nothing but
    a second tower detour over one edge is left to the frame's bar."""
    snap = page.evaluate(SNAPSHOT)
    if snap["over"]:
        return
    assert snap["hands"] == 1
    assert snap["myCount"].startswith(f"{snap['handCards']} card"), snap
    assert snap["strayCards"] == 0, "a supply card outside the supply, your hand and your payment"
    assert snap["faceUp"] <= 4
    assert snap["players"] == 2
    assert all("tower step" in title for title in snap["bar"]), snap["bar"]


def click_a_move(page: Page, rng: random.Random, clicked: dict[str, int]) -> bool:
    moves = page.locator(LIVE_MOVES)
    kinds = moves.evaluate_all(KIND_OF_CONTROL)
    if not kinds:
        return False
    # Prefer the map and the mastery cards, so that the game moves on.
    weights = [
        {"gain": 6, "claim": 10, "place": 3, "walk": 2, "button": 0.5}.get(k, 1) for k in kinds
    ]
    pick = rng.choices(range(len(kinds)), weights)[0]
    try:
        moves.nth(pick).click(timeout=2000)
    except PlaywrightTimeout:
        return False  # the table was redrawn under the click; look again
    clicked[kinds[pick]] = clicked.get(kinds[pick], 0) + 1
    return True


def every_kind_clicked(clicked: dict[str, int]) -> bool:
    """The clicks are random, so each of these counts kinds of control that do the same job."""
    return (
        clicked.get("place", 0) > 0
        and clicked.get("hand", 0) > 0
        and clicked.get("draw_deck", 0) + clicked.get("take", 0) > 0
        and clicked.get("gain", 0) + clicked.get("walk", 0) > 0
    )


@pytest.mark.slow
def test_whole_game_against_the_bot(new_page, server_url):
    page = new_page("/", width=PHONE, height=800)
    page.locator("#player-name-input").fill("Ana")
    page.locator("#player-name-input").press("Enter")
    expect(page.get_by_test_id("player-name")).to_have_text("Ana")
    page.get_by_test_id("game-pinetop").click()
    expect(page.get_by_test_id("game-pinetop")).to_have_attribute("aria-checked", "true")
    for module in ("friendship", "nature", "tower"):
        page.locator(f"#option-{module}").check()
    page.get_by_test_id("seats").select_option("2")
    page.get_by_test_id("create-lobby").click()
    page.wait_for_url("**/lobbies/*")
    expect(page.get_by_test_id("seat")).to_have_count(2)
    # The strongest bot there is, so that the game ends soon.
    page.get_by_test_id("bot-level").select_option("heuristic")
    page.get_by_test_id("add-bot").click()
    expect(page.get_by_test_id("seat").nth(1)).to_contain_text("Casual")
    page.get_by_test_id("start").click()
    page.wait_for_url("**/games/*")

    # The live table (an ended game also gets a replay table below it).
    table = page.locator('.game-root:not(.replay-table) [data-testid="pinetop"]')
    expect(table).to_be_visible()
    # 2 players: a 3 × 4 map, four mastery cards, two face-up cards each side of the deck.
    expect(table.locator(".pt-card")).to_have_count(12)
    expect(table.get_by_test_id("mastery")).to_have_count(4)
    expect(table.locator(".pt-spot")).to_have_count(16)
    expect(table.locator('[data-testid="supply-area"] .pt-supply[data-card]')).to_have_count(4)
    expect(table.get_by_test_id("rank-track").locator("li.pt-rank")).to_have_count(5)
    # The modules' pieces: the weather beside the map, Bear, Eagle and one more animal, the tower.
    expect(table.get_by_test_id("weather")).to_have_count(1)
    expect(table.get_by_test_id("animal")).to_have_count(3)
    expect(table.get_by_test_id("tower")).to_have_count(1)
    no_overflow(page)

    # Ana clicks until she has used every kind of control; the middle of the game is played
    # through the API with the heuristic bot's choices while the page follows; from the rank
    # before Badger (someone is a Raccoon) she clicks again to the end.
    rng = random.Random(11)
    clicked: dict[str, int] = {}
    deadline = time.monotonic() + 480
    middle_played = False
    game_id = page.url.rstrip("/").split("/")[-1]
    while not page.get_by_test_id("outcome").is_visible():
        assert time.monotonic() < deadline, f"the game did not finish; clicked {clicked}"
        if not middle_played and every_kind_clicked(clicked):
            play_until(
                as_player(page, server_url),
                game_id,
                "pinetop",
                lambda view: max(seat["rank"] for seat in view["seats"]) >= RACCOON,
            )
            middle_played = True
        check_table(page)
        if sum(clicked.values()) % 25 == 24:
            no_overflow(page)
        if not click_a_move(page, rng, clicked):
            page.wait_for_timeout(30)

    assert every_kind_clicked(clicked), clicked
    expect(page.locator(LIVE_MOVES)).to_have_count(0)

    # The winner shown on the table is the outcome's, and they stand on Badger.
    outcome = page.get_by_test_id("outcome")
    headline = outcome.get_by_test_id("winner").inner_text()
    you_win = "You win" in headline
    # The table tells the same outcome, and who reached Badger.
    expect(table.get_by_test_id("table-outcome")).to_have_text(headline)
    expect(table.get_by_test_id("reached")).to_have_text(
        "You reach Badger." if you_win else "Casual bot reaches Badger."
    )
    winner_seat = 0 if you_win else 1
    winner = table.locator(f'[data-testid="player"][data-seat="{winner_seat}"]')
    expect(winner.get_by_test_id("rank")).to_have_text("Badger")
    loser = table.locator(f'[data-testid="player"][data-seat="{1 - winner_seat}"]')
    expect(loser.get_by_test_id("rank")).not_to_have_text("Badger")
    no_overflow(page)

    # A tap on a map card opens its details: its four patches with their powers.
    first = table.locator(".pt-card").first
    first.click(position={"x": 30, "y": 40})
    details = table.get_by_test_id("card-details")
    expect(details).to_contain_text(first.get_attribute("data-name"))
    expect(details.locator("li")).to_have_count(4)
    no_overflow(page)

    # On a desktop the map and the mastery cards stand side by side.
    page.set_viewport_size({"width": 1280, "height": 900})
    board = table.locator(".pt-map").bounding_box()
    masteries = table.locator(".pt-masteries").bounding_box()
    assert masteries["x"] >= board["x"] + board["width"]
