"""A whole game of Camping Life played through the browser against the heuristic bot."""

from __future__ import annotations

import random
import time

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from engine.camping_life.cards import MISSIONS
from tests.browser.end_states import COOKIE, as_player, play_until, start

PHONE = 375
# Undo is tried on its own (test_undo.py): a random walk that may take back each step seldom ends.
LIVE_MOVES = '[data-testid="move"]:not(.undo-step):not([disabled]):not([aria-disabled="true"])'
MISSION_TEXTS = [text for _, _, text in MISSIONS]
CATEGORIES = ["roads", "pools", "forests", "tents", "campfires"]


def no_overflow(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE, f"the table is {width}px wide at a {PHONE}px viewport"


def mission_texts(locator) -> set[str]:
    return set(locator.locator(".mission-text").all_inner_texts())


# One synchronous read of the page, so a redraw cannot fall between two of its parts.
SNAPSHOT = """() => {
  const table = document.querySelector('.game-root:not(.replay-table) [data-testid="camping-life"]');
  const texts = (sel) => [...table.querySelectorAll(sel)].map((e) => e.textContent);
  return {
    over: Boolean(document.querySelector('[data-testid="outcome"]')),
    page: document.body.innerText,
    theirSecretDown: table.querySelector('[data-testid="their-secret"]').classList.contains("down"),
    shown: texts('[data-testid="open-mission"] .mission-text, [data-testid="my-secret"] .mission-text'),
    theirCoinsOnCards: [...table.querySelectorAll(".stack .coin.seat-1")].map((e) => e.classList.contains("down")),
    faceDown: [...table.querySelectorAll(".coin.down")].map((e) => e.textContent + (e.title || "") + JSON.stringify(e.dataset)),
    cells: [...table.querySelectorAll('[data-testid="my-area"] [data-testid="move"]')].map((e) => e.className),
    prompt: table.querySelector('[data-testid="cl-prompt"]').textContent,
  };
}"""
FACE_DOWN = ('{"testid":"hidden-coin"}', '{"testid":"held-coin"}')


def check_table(page: Page) -> None:
    """Before the end: the opponent's secret mission and the values of their coins stay unseen,
    and the cells offered for placing are highlighted empty spaces."""
    snap = page.evaluate(SNAPSHOT)
    if snap["over"]:
        return
    assert snap["theirSecretDown"]
    assert len(snap["shown"]) == 3
    on_page = {m for m in MISSION_TEXTS if m in snap["page"]}
    assert on_page == set(snap["shown"]), "a mission not yet revealed is on the page"
    # The opponent (seat 1) has only face-down coins on the cards, and a face-down coin carries
    # no value: no text, no title, no data.
    assert all(snap["theirCoinsOnCards"]), "an opponent's coin on a card is face up"
    assert all(face in FACE_DOWN for face in snap["faceDown"]), snap["faceDown"]
    if snap["cells"]:
        assert "Place the" in snap["prompt"] or "Choose the card to place next" in snap["prompt"]
        assert all({"cell", "empty", "target"} <= set(c.split()) for c in snap["cells"]), snap[
            "cells"
        ]


def click_a_move(page: Page, rng: random.Random, clicked: dict[str, int]) -> bool:
    moves = page.locator(LIVE_MOVES)
    kinds = moves.evaluate_all(
        "els => els.map(e => e.closest('.cell') ? 'place' : e.closest('.bid-coins') ? 'bid_card'"
        " : e.closest('.coin-group') ? 'bid_table' : e.closest('.next-cards') ? 'pick' : 'other')"
    )
    if not kinds:
        return False
    pick = rng.randrange(len(kinds))
    try:
        moves.nth(pick).click(timeout=2000)
    except PlaywrightTimeout:
        return False  # the table was redrawn under the click; look again
    clicked[kinds[pick]] = clicked.get(kinds[pick], 0) + 1
    return True


def near_the_end(view: dict) -> bool:
    """A play area three cards from full, or the draw pile nearly out: the last rounds."""
    filled = max(
        sum(card is not None for row in seat["area"] for card in row) for seat in view["seats"]
    )
    return filled >= 9 or view["draw_pile"] <= 4


@pytest.mark.slow
def test_whole_game_against_the_bot(new_page, server_url):
    page = new_page("/", width=PHONE, height=800)
    page.locator("#player-name-input").fill("Ana")
    page.locator("#player-name-input").press("Enter")
    expect(page.get_by_test_id("player-name")).to_have_text("Ana")
    page.get_by_test_id("game-camping-life").click()
    expect(page.get_by_test_id("game-camping-life")).to_have_attribute("aria-checked", "true")
    page.get_by_test_id("create-lobby").click()
    page.wait_for_url("**/lobbies/*")
    expect(page.get_by_test_id("seat")).to_have_count(2)
    page.get_by_test_id("bot-level").select_option("heuristic")
    page.get_by_test_id("add-bot").click()
    expect(page.get_by_test_id("seat").nth(1)).to_contain_text("Casual")
    page.get_by_test_id("start").click()
    page.wait_for_url("**/games/*")

    # The live table (an ended game also gets a replay table below it).
    table = page.locator('.game-root:not(.replay-table) [data-testid="camping-life"]')
    expect(table).to_be_visible()
    expect(table.get_by_test_id("row-card")).to_have_count(4)
    expect(table.get_by_test_id("my-area").locator(".cell")).to_have_count(12)
    expect(table.get_by_test_id("their-area").locator(".cell")).to_have_count(12)
    expect(table.get_by_test_id("open-mission")).to_have_count(2)
    no_overflow(page)

    rng = random.Random(7)
    clicked: dict[str, int] = {}
    reveals = 0
    deadline = time.monotonic() + 400
    # Ana clicks until she has bid, bid at the table, placed and seen a turn-over; the middle
    # of the game is played through the API with the heuristic bot's choices while the page
    # follows; the last rounds are clicked again.
    middle_played = False
    game_id = page.url.rstrip("/").split("/")[-1]
    while not page.get_by_test_id("outcome").is_visible():
        assert time.monotonic() < deadline, "the game did not finish"
        if (
            not middle_played
            and reveals
            and all(clicked.get(kind, 0) for kind in ("bid_card", "bid_table", "place"))
        ):
            play_until(as_player(page, server_url), game_id, "camping-life", near_the_end)
            middle_played = True
            continue
        check_table(page)
        # Every legal move sits on the table: nothing is left for the frame's bar.
        expect(page.get_by_test_id("moves-bar")).to_have_count(0)
        reveals += table.get_by_test_id("reveal").count()
        if sum(clicked.values()) % 20 == 19:
            no_overflow(page)
        # Several won cards to place: the player may choose which goes first.
        choices = table.get_by_test_id("choose-card")
        if choices.count() > 1 and rng.random() < 0.5:
            last = choices.nth(choices.count() - 1)
            try:
                # A bot's move may redraw the table between counting the cards and the click.
                last.click(timeout=3000)
                expect(last).to_have_attribute("aria-pressed", "true")
                clicked["choose"] = clicked.get("choose", 0) + 1
            except (PlaywrightTimeout, AssertionError):
                continue
        if not click_a_move(page, rng, clicked):
            page.wait_for_timeout(50)

    for kind in ("bid_card", "bid_table", "place"):
        assert clicked.get(kind, 0) > 0, clicked
    assert reveals > 0, "the turn-over of coins on cards was never shown"
    # The last turn-over stays on show: the table totals and one line per card of the row.
    last = table.get_by_test_id("reveal")
    expect(last).to_contain_text("Table totals:")
    expect(last.locator("li").first).to_be_visible()
    expect(page.locator(LIVE_MOVES)).to_have_count(0)

    # The final scoring: every category and every mission for both players, and the winner.
    breakdown = table.get_by_test_id("breakdown")
    expect(breakdown).to_be_visible()
    categories = breakdown.get_by_test_id("category")
    expect(categories).to_have_count(len(CATEGORIES))
    assert [c.get_attribute("data-category") for c in categories.all()] == CATEGORIES
    expect(breakdown.get_by_test_id("mission-score")).to_have_count(4)
    for row in breakdown.locator("tbody tr, tfoot tr").all():
        expect(row.locator("td")).to_have_count(2)
    # The opponent's secret mission is revealed now (check_table saw it nowhere before).
    theirs = table.get_by_test_id("their-secret")
    expect(theirs).not_to_have_class("mission down")
    [secret] = mission_texts(theirs)
    assert secret in MISSION_TEXTS
    expect(breakdown).to_contain_text(secret)

    totals = [int(t) for t in breakdown.locator("tfoot td").all_inner_texts()]
    outcome = page.get_by_test_id("outcome")
    expect(outcome.get_by_test_id("winner")).to_contain_text("win")
    scores = sorted(int(s) for s in outcome.get_by_test_id("score").all_inner_texts())
    assert scores == sorted(totals)
    # "You win!", or "You and Casual bot share the win!" when the scores are level.
    you_win = outcome.get_by_test_id("winner").inner_text().startswith("You")
    assert ("Ana" in table.get_by_test_id("cl-winner").inner_text()) == you_win
    no_overflow(page)

    # On a desktop the two play areas stand side by side.
    page.set_viewport_size({"width": 1100, "height": 900})
    mine = table.get_by_test_id("my-seat").bounding_box()
    theirs_box = table.get_by_test_id("their-seat").bounding_box()
    assert theirs_box["x"] >= mine["x"] + mine["width"]


def test_the_card_to_place_shows_its_whole_name_on_a_phone(new_page, server_url):
    """The prompt's small card names the card Ana places (and each card she may place next).
    Each name a card can have, with an umbrella in its corner and without, is put on it in
    turn and measured at 375 px: none is cut by the card's edge."""
    ana, game_id = start(server_url, "camping-life")
    assert (
        play_until(ana, game_id, "camping-life", lambda view: view["phase"] == "place") is not None
    )
    page = new_page("/", width=PHONE)
    page.context.add_cookies([{"name": COOKIE, "value": ana.token, "url": server_url}])
    page.goto(f"/games/{game_id}")
    cards = page.locator(".cl-ask-row .tile, .choose-card .tile")
    expect(cards.first).to_be_visible()
    # Measured once the table's stylesheet has come (the table is drawn before it may).
    page.wait_for_function(
        "() => [...document.styleSheets].some((s) => s.href?.endsWith('/camping-life.css'))"
    )
    names = ["Road", "Pool", "Forest + road", "Tent", "Campfire", "House"]
    cut = cards.evaluate_all(
        """(cards, names) => cards.flatMap((card) => [false, true].flatMap((umbrella) => {
        card.querySelector(".umbrella-mark")?.remove();
        if (umbrella) {
          const mark = document.createElement("span");
          mark.className = "umbrella-mark";
          mark.innerHTML = '<span class="cl-icon"><svg viewBox="0 0 24 24"><path d="M3 12a9 9 0 0 1 18 0z"/></svg></span>';
          card.append(mark);
        }
        return names.filter((name) => {
          card.querySelector(".tile-name").textContent = name;
          const box = card.getBoundingClientRect(), text = card.querySelector(".tile-name").getBoundingClientRect();
          return card.scrollWidth > card.clientWidth || text.left < box.left || text.right > box.right;
        }).map((name) => `${name}${umbrella ? " with an umbrella" : ""}`);
      }))""",
        names,
    )
    assert cut == []
    no_overflow(page)
