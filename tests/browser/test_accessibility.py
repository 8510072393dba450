"""axe-core on every page of every game: no serious or critical violation. And the keyboard:
after a move, focus goes on to the next control."""

import pytest
from playwright.sync_api import expect

from engine.registry import GAMES
from tests.browser.axe import serious_violations


def named(new_page, name="Ana"):
    # Contrast is checked on the settled page: with motion on, a card still fading in on a busy
    # machine is measured at part of its opacity.
    page = new_page("/", width=390, height=900, reduced_motion="reduce")
    assert serious_violations(page) == []
    page.locator("#player-name-input").fill(name)
    page.locator("#player-name-input").press("Enter")
    expect(page.get_by_test_id("player-name")).to_have_text(name)
    return page


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_home_lobby_table_and_rules_pages_pass_axe(new_page, kind):
    page = named(new_page)
    assert serious_violations(page) == []
    page.get_by_test_id(f"game-{kind}").click()
    page.get_by_test_id("create-lobby").click()
    page.wait_for_url("**/lobbies/*")
    expect(page.get_by_test_id("seat").first).to_be_visible()
    assert serious_violations(page) == []
    for _ in range(GAMES[kind].min_players - 1):
        page.get_by_test_id("add-bot").first.click()
    page.get_by_test_id("start").click()
    page.wait_for_url("**/games/*")
    expect(page.get_by_test_id("turn")).to_be_visible()
    page.wait_for_timeout(300)
    assert serious_violations(page) == []
    page.goto(f"/rules/{kind}")
    assert serious_violations(page) == []


def test_after_a_move_focus_goes_to_the_next_control(new_page):
    page = named(new_page)
    page.get_by_test_id("game-camping-life").click()
    page.get_by_test_id("create-lobby").click()
    page.wait_for_url("**/lobbies/*")
    page.get_by_test_id("add-bot").click()
    page.get_by_test_id("start").click()
    page.wait_for_url("**/games/*")
    moves = page.locator('[data-testid="move"]:not([aria-disabled="true"])')
    expect(moves.first).to_be_visible()
    moves.first.focus()
    page.keyboard.press("Enter")
    # The coin played is gone; focus is on a control again (the next move, or the turn line).
    page.wait_for_function(
        "() => document.activeElement && document.activeElement !== document.body"
        " && (document.activeElement.dataset.testid === 'move'"
        " || document.activeElement.dataset.testid === 'turn')")
