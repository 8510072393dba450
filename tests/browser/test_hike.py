"""A whole game of Let's Take a Hike played through the browser: two players and a bot."""

from __future__ import annotations

import random
import re
import time

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser.end_states import COOKIE, as_player, play_all_until, play_until, start

PHONE = 375
LIVE_MOVES = '[data-testid="move"]:not([disabled]):not([aria-disabled="true"])'


def no_overflow(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE, f"{page.url} is {width}px wide at a {PHONE}px viewport"


def enter_name(page: Page, name: str) -> None:
    page.locator("#player-name-input").fill(name)
    page.locator("#player-name-input").press("Enter")


def set_name(page: Page, name: str) -> None:
    enter_name(page, name)
    expect(page.get_by_test_id("player-name")).to_have_text(name)


def click_a_move(page: Page, rng: random.Random) -> bool:
    """Click one of the page's legal-move controls, if it has any; early on prefer drawing."""
    moves = page.locator(LIVE_MOVES)
    labels = moves.evaluate_all("els => els.map(e => e.title || e.textContent)")
    if not labels:
        return False
    # The Hike table places every legal move itself: none is left over for the frame's bar.
    assert page.get_by_test_id("moves-bar").count() == 0
    draws = [i for i, label in enumerate(labels) if label.startswith("Draw a card")]
    pick = draws[0] if draws and rng.random() < 0.6 else rng.randrange(len(labels))
    try:
        moves.nth(pick).click(timeout=2000)
    except PlaywrightTimeout:
        return False  # the table was redrawn under the click; look again
    return True


@pytest.mark.slow
def test_three_seat_game_played_in_two_browsers(new_page, server_url):
    host = new_page("/")
    expect(host.get_by_test_id("game-hike")).to_be_visible()
    set_name(host, "Ana")
    host.get_by_test_id("game-hike").click()
    expect(host.get_by_test_id("game-hike")).to_have_attribute("aria-checked", "true")
    host.get_by_test_id("seats").select_option("3")
    expect(host.get_by_test_id("visibility")).to_have_value("private")
    host.get_by_test_id("create-lobby").click()
    host.wait_for_url("**/lobbies/*")
    invite = host.get_by_test_id("invite-url").input_value()
    assert "/join/" in invite
    host.get_by_test_id("copy-invite").click()
    expect(host.get_by_test_id("copy-note")).to_have_text(re.compile("Copied|Selected"))
    expect(host.get_by_test_id("seat")).to_have_count(3)
    expect(host.get_by_test_id("start")).to_be_disabled()

    # The guest, on a phone: the home page first, then the invite link.
    guest = new_page("/", width=PHONE, height=760)
    expect(guest.locator("#player-name-input")).to_be_visible()
    no_overflow(guest)
    guest.goto(invite)
    # Whose table and which game, before the name is asked.
    expect(guest.get_by_test_id("invite-table")).to_have_text("Ana's table · Let's Take a Hike")
    enter_name(guest, "Bruno")  # the join page moves on to the lobby at once
    guest.wait_for_url("**/lobbies/*")
    expect(guest.get_by_test_id("seat").nth(1)).to_contain_text("Bruno")
    no_overflow(guest)

    # The host sees Bruno arrive live, seats a bot and starts.
    expect(host.get_by_test_id("seat").nth(1)).to_contain_text("Bruno")
    host.get_by_test_id("bot-level").select_option("heuristic")
    host.get_by_test_id("add-bot").click()
    expect(host.get_by_test_id("seat").nth(2)).to_contain_text("Casual")
    expect(guest.get_by_test_id("seat").nth(2)).to_contain_text("Casual")
    host.get_by_test_id("start").click()

    for page in (host, guest):
        page.wait_for_url("**/games/*")
        expect(page.get_by_test_id("seat-strip")).to_contain_text("Ana")
        expect(page.get_by_test_id("seat-strip")).to_contain_text("Bruno")
        expect(page.get_by_test_id("my-backpack")).to_be_visible()
    assert host.url == guest.url
    no_overflow(guest)

    # The link of a started table offers to watch it: the private table's invite code goes
    # along, and its chat stays the players'.
    late = new_page(invite, width=PHONE, height=760)
    late.get_by_test_id("watch").click()
    late.wait_for_url(re.compile(re.escape(host.url) + r"\?invite="))
    expect(late.get_by_test_id("watching")).to_be_visible()
    expect(late.get_by_test_id("seat-strip")).to_contain_text("Bruno")
    expect(late.get_by_test_id("chat")).to_be_hidden()
    late.close()

    # Both click their first moves; the middle of the game is played through the API with the
    # heuristic bot's choices while both pages follow; the last turns (a few cards left to
    # draw) are clicked again.
    rng = random.Random(2024)
    clicks = {"Ana": 0, "Bruno": 0}
    deadline = time.monotonic() + 400
    middle_played = False
    game_id = host.url.rstrip("/").split("/")[-1]
    while not (
        host.get_by_test_id("outcome").is_visible() and guest.get_by_test_id("outcome").is_visible()
    ):
        assert time.monotonic() < deadline, "the game did not finish"
        if not middle_played and min(clicks.values()) >= 8:
            play_all_until(
                [as_player(page, server_url) for page in (host, guest)],
                game_id,
                "hike",
                lambda view: view["draw_pile"] <= 10,
            )
            middle_played = True
        moved = False
        for name, page in (("Ana", host), ("Bruno", guest)):
            if click_a_move(page, rng):
                clicks[name] += 1
                moved = True
        if clicks["Bruno"] % 15 == 1:
            no_overflow(guest)
        if not moved:
            host.wait_for_timeout(50)

    assert clicks["Ana"] > 5 and clicks["Bruno"] > 5, clicks
    scores = []
    for page in (host, guest):
        outcome = page.get_by_test_id("outcome")
        expect(outcome.get_by_test_id("winner")).to_contain_text("win")
        expect(outcome.get_by_test_id("score")).to_have_count(3)
        scores.append(outcome.get_by_test_id("score").all_inner_texts())
        expect(page.locator(LIVE_MOVES)).to_have_count(0)
        expect(page.get_by_test_id("log")).to_contain_text("game is over")
    assert scores[0] == scores[1]
    # The winners listed are the seats with the most miles, and the headline names them.
    rows = host.get_by_test_id("outcome").locator(".scores li")
    best = max(int(s) for s in scores[0])
    winners = host.locator('[data-testid="outcome"] .scores li.winner')
    assert winners.count() >= 1
    headline = host.get_by_test_id("winner").inner_text()
    for i in range(winners.count()):
        row = winners.nth(i)
        assert int(row.get_by_test_id("score").inner_text()) == best
        name = row.locator("span").first.inner_text().removesuffix(" (you)")
        assert name in headline or (name == "Ana" and "You" in headline), (name, headline)
    assert rows.count() == 3
    no_overflow(guest)


def test_a_bad_invite_link_is_explained_and_creates_nobody(new_page):
    page = new_page("/join/not-a-real-code", width=PHONE, height=760)
    about = page.get_by_test_id("invite-about")
    expect(about.get_by_role("alert")).to_contain_text("does not match any table")
    expect(about.get_by_role("link", name="Back to camp")).to_be_visible()
    # The link was checked before any name was asked: no guest was created.
    expect(page.locator("#player-name-input")).to_have_count(0)
    assert page.context.cookies() == []
    no_overflow(page)


def test_an_unknown_game_says_so_and_stops_reconnecting(new_page):
    page = new_page("/games/no-such-game", width=PHONE, height=760)
    expect(page.get_by_test_id("connection")).to_have_text("Closed")
    expect(page.get_by_test_id("flash")).not_to_be_empty()
    expect(page.get_by_role("link", name="Back to camp")).to_be_visible()


def test_what_a_seat_owes_is_the_last_note_of_its_line(new_page, server_url):
    """A hazard on Ana's own turn: her notes read "lead hiker", "turn", and last, the longest,
    what she still has to discard."""

    def owes_on_her_turn(view: dict) -> bool:
        return bool(view["seats"][view["you"]]["owes"]) and view["turn"] == view["you"]

    for _ in range(10):  # a game may end without it: another is started
        ana, game_id = start(server_url, "hike")
        if play_until(ana, game_id, "hike", owes_on_her_turn) is not None:
            break
    else:
        raise AssertionError("Ana never owed anything on her own turn")
    page = new_page("/", width=PHONE)
    page.context.add_cookies([{"name": COOKIE, "value": ana.token, "url": server_url}])
    page.goto(f"/games/{game_id}")
    notes = page.locator(".hike-mine .notes > .tag")
    expect(notes.filter(has_text="turn")).to_have_count(1)
    expect(notes.last).to_have_class(re.compile(r"\bowes\b"))
    no_overflow(page)
