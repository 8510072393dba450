"""Every table draws every way a game can end: played to the end, conceded before anyone moved
(during setup) or later, conceded at a bigger table where the bot plays on, a person replaced
by the bot after a suspension, and aborted. One page load each."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from app.services.records import verify
from tests.browser.end_states import COOKIE, ended_game

PHONE = 375
ENDINGS = ["finished", "conceded-at-start", "conceded", "conceded-3p", "suspended", "aborted"]
# Set to a folder (docs/screenshots) to keep a picture of each ending at 375 px.
SHOTS = os.environ.get("CAMPGROUND_SCREENSHOTS")
# The frame's head, the outcome and the table: the chat, replay and log below are left out.
CLIP = """() => {
  const game = document.querySelector('.game').getBoundingClientRect();
  const table = document.querySelector('.game-root:not(.replay-table)');
  return { x: game.x + scrollX - 8, y: game.y + scrollY - 8, width: game.width + 16,
           height: table.getBoundingClientRect().bottom - game.y + 16 };
}"""
CASES = [(kind, how) for kind in ("hike", "summer-camp", "camping-life", "pinetop") for how in ENDINGS
         if not (kind == "camping-life" and how == "conceded-3p")]  # Camping Life is for two


@pytest.mark.parametrize(("kind", "how"), CASES)
def test_every_table_draws_every_ending(new_page, server_url, kind, how):
    game_id, token = ended_game(server_url, kind, how)
    page = new_page("/", width=PHONE, height=800)
    page.context.add_cookies([{"name": COOKIE, "value": token, "url": server_url}])
    page.goto(f"/games/{game_id}")
    box = page.get_by_test_id("outcome")
    expect(box).to_be_visible()
    expect(page.get_by_test_id(kind)).to_be_visible()
    assert page.locator(".game-root .error").count() == 0
    record = page.request.get(f"/api/games/{game_id}/export").json()
    # The seed is a string everywhere a browser reads it: a 64-bit number would lose digits.
    assert isinstance(record["seed"], str)
    expect(page.get_by_test_id("seed")).to_have_text(record["seed"])
    assert verify(record).ok, verify(record).message
    if SHOTS:
        page.screenshot(path=Path(SHOTS) / f"{kind}-{how}-375.png", clip=page.evaluate(CLIP),
                        full_page=True, animations="disabled")
    headline = page.get_by_test_id("winner").inner_text()
    if how == "aborted":
        assert headline == "The game was aborted: nobody wins."
        return
    # The table tells the same outcome as the box.
    expect(page.get_by_test_id("table-outcome")).to_have_text(headline)
    if how.startswith("conceded"):
        expect(page.get_by_test_id("conceded-note")).to_contain_text("You conceded")
    if how in ("conceded-3p", "suspended"):
        expect(page.get_by_test_id("seat-strip").locator("li").first).to_contain_text("bot played this seat")
        expect(box.locator("li", has_text="Ana")).to_contain_text("bot")
    if how not in ("conceded-at-start", "conceded"):
        # Every figure says what it counts.
        figures = box.locator(".figure").all_inner_texts()
        assert len(figures) == (3 if how == "conceded-3p" else 2)
        for figure in figures:
            assert any(c.isalpha() for c in figure) and any(c.isdigit() for c in figure), figure
