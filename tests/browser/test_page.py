"""The game frame every game shares: rules pages, the turn in the tab title, the last move,
the spectator's banner, and the replay and record of an ended game."""

import random
import time

import pytest
from playwright.sync_api import expect

from engine.registry import GAMES
from tests.browser.end_states import as_player, play_to_the_end
from tests.browser.test_camping_life import click_a_move
from tests.browser.test_hike import enter_name


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_rules_pages_read_without_javascript(browser, server_url, kind):
    context = browser.new_context(java_script_enabled=False, base_url=server_url)
    try:
        page = context.new_page()
        page.goto(f"/rules/{kind}")
        expect(page.locator("h1")).to_be_visible()
        expect(page.get_by_role("heading", name="Setup")).to_be_visible()
        assert page.locator(".rule-card").count() >= 4
        page.goto("/no/such/page")
        expect(page.locator("h1")).to_have_text("Nothing here")
    finally:
        context.close()


@pytest.mark.slow
def test_the_frame_shows_the_turn_the_last_move_watchers_and_a_replay(new_page, server_url):
    page = new_page("/", width=390, height=800)
    page.locator("#player-name-input").fill("Ana")
    page.locator("#player-name-input").press("Enter")
    page.get_by_test_id("game-camping-life").click()
    page.get_by_test_id("create-lobby").click()
    page.wait_for_url("**/lobbies/*")
    # Two people, not a bot: a bot answers so fast that the first player's page may never
    # show the other's turn, and this test is about both.
    invite = page.get_by_test_id("invite-url").input_value()
    guest = new_page(invite, width=390, height=800)
    enter_name(guest, "Ben")
    expect(page.get_by_test_id("seat").nth(1)).to_contain_text("Ben")
    page.get_by_test_id("start").click()
    page.wait_for_url("**/games/*")
    guest.wait_for_url("**/games/*")
    expect(page.get_by_test_id("rules-link")).to_have_attribute("href", "/rules/camping-life")
    expect(page.get_by_test_id("turn")).to_have_attribute("aria-live", "polite")

    # A private table: watched through its invite link, which carries the code along.
    watcher = new_page(invite, width=390)
    watcher.get_by_test_id("watch").click()
    expect(watcher.get_by_test_id("watching")).to_have_text(
        "You are watching this private table; its chat is for its players."
    )
    expect(watcher.get_by_test_id("chat")).to_be_hidden()
    expect(page.get_by_test_id("watching")).to_have_count(0)

    # Both play at their tables until Ana's page has shown her turn and the other's; the rest
    # of the game is played through the API, and the pages follow it to the end.
    rng = random.Random(3)
    deadline = time.monotonic() + 120
    saw_your_turn = saw_waiting = False
    while not (saw_your_turn and saw_waiting):
        assert time.monotonic() < deadline, "Ana's page never showed both turns"
        title = page.title()
        if "Your turn" in page.get_by_test_id("turn").inner_text():
            saw_your_turn |= title.startswith("● Your turn · Camping Life")
        elif not page.get_by_test_id("outcome").is_visible():
            saw_waiting |= not title.startswith("●")
        if not (click_a_move(page, rng, {}) or click_a_move(guest, rng, {})):
            page.wait_for_timeout(50)
    game_id = page.url.split("/games/")[1]
    play_to_the_end([as_player(p, server_url) for p in (page, guest)], game_id, "camping-life")
    expect(page.get_by_test_id("outcome")).to_be_visible()
    expect(page.get_by_test_id("last-move")).to_contain_text("Last:")
    assert not page.title().startswith("●")

    export = page.get_by_test_id("export")
    expect(export).to_have_attribute("href", f"/api/games/{page.url.split('/games/')[1]}/export")
    replay = page.get_by_test_id("replay")
    expect(replay.get_by_test_id("replay-table")).to_be_hidden()
    replay.get_by_test_id("replay-open").click()
    expect(replay.get_by_test_id("replay-at")).to_contain_text("After move")
    replay.get_by_test_id("replay-first").click()
    expect(replay.get_by_test_id("replay-at")).to_contain_text("Setup")
    expect(replay.get_by_test_id("replay-table").get_by_test_id("camping-life")).to_be_visible()
    replay.get_by_test_id("replay-next").click()
    expect(replay.get_by_test_id("replay-at")).to_have_text(
        f"After move 1 of {replay.get_by_test_id('replay-slider').get_attribute('max')}"
    )
    expect(replay.get_by_test_id("replay-table")).to_contain_text("puts a coin")
