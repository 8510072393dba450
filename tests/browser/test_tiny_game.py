"""Last Stick (``tests/tiny_game``) through the generic page, on a server of its own that
registers it: chosen on the home page like any game, its options form drawn from its
schema, played to the end against the server's bot with nothing but what the page gives every
game (seats, turn, clock, log, the moves bar, the outcome, and for a game without a renderer
of its own the parts of its view, named), and its rules page."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PROJECT, serving

LIVE_MOVES = '[data-testid="move"]:not([disabled]):not([aria-disabled="true"])'


@pytest.fixture(scope="module")
def server_url(tmp_path_factory) -> Iterator[str]:
    """The site's own files, and Last Stick's rules page beside the real games'."""
    work = tmp_path_factory.mktemp("tiny")
    static = work / "static"
    shutil.copytree(PROJECT / "static", static, symlinks=True)
    shutil.copy(
        Path(__file__).parents[1] / "tiny_game" / "rules.html", static / "rules" / "last-stick.html"
    )
    with serving(
        work, "tests.tiny_game:create_app()", STATIC_DIR=str(static), BOT_WORKERS="0"
    ) as base:
        yield base


def test_last_stick_is_played_to_the_end_on_the_generic_page(new_page):
    page = new_page("/")
    page.locator("#player-name-input").fill("Ana")
    page.locator("#player-name-input").press("Enter")
    expect(page.get_by_test_id("player-name")).to_have_text("Ana")
    page.get_by_test_id("game-last-stick").click()
    page.get_by_label("Sticks").fill("9")
    page.get_by_test_id("create-lobby").click()
    page.wait_for_url("**/lobbies/*")
    page.get_by_test_id("bot-level").select_option("heuristic")
    page.get_by_test_id("add-bot").click()
    page.get_by_test_id("start").click()
    page.wait_for_url("**/games/*")
    game_id = page.url.rsplit("/", 1)[1]
    expect(page.get_by_test_id("log")).to_contain_text("9 sticks in the pile.")
    # No renderer of its own: the page names the parts of its view, the seat's own hand too.
    table = page.get_by_test_id("plain-table")
    expect(table).to_contain_text("Sticks")
    expect(table).to_contain_text('"worth":')
    for _ in range(40):
        view = page.request.get(f"/api/games/{game_id}/state").json()["view"]
        if view["outcome"] is not None:
            break
        moves = page.locator(LIVE_MOVES)
        if view["you"] in view["to_act"] and moves.count():
            moves.first.click()
        page.wait_for_timeout(200)
    assert view["outcome"] is not None
    expect(page.get_by_test_id("outcome")).to_be_visible()
    expect(page.get_by_test_id("log")).to_contain_text("Takes the last stick and wins.")
    # The replay steps through it the same way: its view's parts, as a spectator saw them.
    page.get_by_test_id("replay-open").click()
    page.get_by_test_id("replay-first").click()
    replay = page.get_by_test_id("replay-table")
    expect(replay.get_by_test_id("plain-table")).to_contain_text("Sticks")
    expect(replay.get_by_test_id("plain-table")).to_contain_text("Hand")


def test_its_rules_page(new_page):
    page = new_page("/rules/last-stick")
    expect(page.locator("h1")).to_have_text("Last Stick")
    expect(page.get_by_role("link", name="Play Last Stick")).to_be_visible()
