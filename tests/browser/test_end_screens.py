"""Every table draws every way a game can end: played to the end, conceded before anyone moved
(during setup) or later, conceded at a bigger table where the bot plays on, a person replaced
by the bot after a suspension, and aborted. One page load each, all in one browser context. A rated ending shows what it
did to each rating, or why it did not count."""

from __future__ import annotations

import os
import re
import uuid
from pathlib import Path

import pytest
from playwright.sync_api import expect

from app.services import rating_rules
from app.services.records import verify
from tests.browser.axe import serious_violations
from tests.browser.end_states import (
    COOKIE,
    concede,
    ended_game,
    every_seat_moved,
    signed_in,
    state,
)

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
CASES = [
    (kind, how)
    for kind in ("hike", "summer-camp", "camping-life", "pinetop")
    for how in ENDINGS
    if not (kind == "camping-life" and how == "conceded-3p")
]  # Camping Life is for two


@pytest.mark.parametrize(("kind", "how"), CASES)
def test_every_table_draws_every_ending(reading_page, server_url, kind, how):
    game_id, token = ended_game(server_url, kind, how)
    page = reading_page(width=PHONE, height=800)
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
        page.screenshot(
            path=Path(SHOTS) / f"{kind}-{how}-375.png",
            clip=page.evaluate(CLIP),
            full_page=True,
            animations="disabled",
        )
    # Nothing widens the phone's page: a conceded seat's tags wrap in the seat strip.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE
    if how in ("conceded-at-start", "conceded"):
        # The concession is the log's last line, in the table's words.
        expect(page.get_by_test_id("log").locator("li").first).to_have_text(
            re.compile(r"^1Ana( \(\w+\))? concedes the game\.$")
        )
    headline = page.get_by_test_id("winner").inner_text()
    if how == "aborted":
        assert headline == "The game was aborted: nobody wins."
        return
    # The table tells the same outcome as the box.
    expect(page.get_by_test_id("table-outcome")).to_have_text(headline)
    if how.startswith("conceded"):
        expect(page.get_by_test_id("conceded-note")).to_contain_text("You conceded")
    if how in ("conceded-3p", "suspended"):
        expect(page.get_by_test_id("seat-strip").locator("li").first).to_contain_text(
            "bot played this seat"
        )
        expect(box.locator("li", has_text="Ana")).to_contain_text("bot")
    if how not in ("conceded-at-start", "conceded"):
        # Every figure says what it counts.
        figures = box.locator(".figure").all_inner_texts()
        assert len(figures) == (3 if how == "conceded-3p" else 2)
        for figure in figures:
            assert any(c.isalpha() for c in figure) and any(c.isdigit() for c in figure), figure


def test_a_rated_ending_shows_each_rating_change_and_the_table_keeps_the_new_rating(
    new_page, server_url
):
    kind = "camping-life"
    handle = f"ana{uuid.uuid4().hex[:8]}"
    ana, ben = signed_in(server_url, "Ana", handle), signed_in(server_url, "Ben", f"b{handle}")
    r = ana.post("/api/lobbies", json={"game": kind, "seats": 2, "turn_seconds": None})
    assert r.status_code == 201 and r.json()["rated"], r.text
    assert ben.post("/api/lobbies/join", json={"invite_code": r.json()["invite_code"]}).is_success
    game_id = ana.post(f"/api/lobbies/{r.json()['id']}/start").json()["game_id"]
    page = new_page("/", width=PHONE, height=800)
    page.context.add_cookies([{"name": COOKIE, "value": ana.token, "url": server_url}])
    page.goto(f"/games/{game_id}")
    strip = page.get_by_test_id("seat-strip")
    expect(strip).to_be_visible()
    expect(strip.get_by_test_id("rating")).to_have_count(0)  # newcomers: no rating yet
    every_seat_moved([ana, ben], game_id, kind, rating_rules.MIN_MOVES)
    concede(ben, game_id)
    seats = state(ana, game_id)["view"]["table"]["seats"]
    shown = [f"{s['rating']['points']}{'?' if s['rating']['provisional'] else ''}" for s in seats]
    assert int(shown[0].rstrip("?")) > 1500 > int(shown[1].rstrip("?"))
    # The page that watched the game end, and the same page reloaded.
    for reloaded in (False, True):
        if reloaded:
            page.reload()
        box = page.get_by_test_id("outcome")
        expect(box).to_be_visible()
        expect(box.locator("li", has_text="Ana").get_by_test_id("rating-change")).to_have_text(
            f"1500? → {shown[0]}"
        )
        expect(box.locator("li", has_text="Ben").get_by_test_id("rating-change")).to_have_text(
            f"1500? → {shown[1]}"
        )
        expect(strip.get_by_test_id("rating")).to_have_text(shown)
        expect(page.get_by_test_id("unrated-because")).to_have_count(0)
    assert serious_violations(page) == []
    if SHOTS:
        for width in (PHONE, 1280):
            page.set_viewport_size({"width": width, "height": 800})
            box.screenshot(path=Path(SHOTS) / f"outcome-rated-{width}.png", animations="disabled")
    # The next lobby and the profile show the same figure.
    lobby = ana.post("/api/lobbies", json={"game": kind, "seats": 2}).json()
    page.goto(f"/lobbies/{lobby['id']}")
    expect(page.get_by_test_id("seat").first.get_by_test_id("rating")).to_have_text(shown[0])
    page.goto(f"/players/{handle}")
    expect(page.locator("table.ratings")).to_contain_text(shown[0])
    expect(page.locator(".profile-game").first).to_contain_text(f"1500 → {shown[0].rstrip('?')}")


def test_no_rating_change_when_a_table_ends_too_early_and_the_outcome_says_why(
    reading_page, server_url
):
    handle = f"ana{uuid.uuid4().hex[:8]}"
    ana, ben = signed_in(server_url, "Ana", handle), signed_in(server_url, "Ben", f"b{handle}")
    r = ana.post("/api/lobbies", json={"game": "hike", "seats": 2, "turn_seconds": None})
    assert ben.post("/api/lobbies/join", json={"invite_code": r.json()["invite_code"]}).is_success
    game_id = ana.post(f"/api/lobbies/{r.json()['id']}/start").json()["game_id"]
    concede(ben, game_id)
    page = reading_page(width=PHONE, height=800)
    page.context.add_cookies([{"name": COOKIE, "value": ana.token, "url": server_url}])
    page.goto(f"/games/{game_id}")
    expect(page.get_by_test_id("unrated-because")).to_have_text(
        f"Not rated: Ben conceded before every seat had made {rating_rules.MIN_MOVES} moves."
    )
    expect(page.get_by_test_id("rating-change")).to_have_count(0)
    if SHOTS:
        page.get_by_test_id("outcome").screenshot(
            path=Path(SHOTS) / "outcome-unrated-375.png", animations="disabled"
        )
