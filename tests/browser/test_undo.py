"""Undo within a turn on the table: the acting player's page offers it beside the turn once a
step can be taken back, and the other player's page follows the undo live."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from app.services.records import verify
from tests.browser.end_states import COOKIE, person, start, state

UNDO = {"type": "undo"}


def page_for(new_page, server_url, client, game_id, width):
    page = new_page("/static/icons/camp.svg", width=width, height=900)
    page.context.add_cookies([{"name": COOKIE, "value": client.token, "url": server_url}])
    page.goto(f"/games/{game_id}")
    return page


@pytest.mark.parametrize(
    ("kind", "width"), [("summer-camp", 375), ("pinetop", 1280), ("camping-life", 375)]
)
def test_the_player_takes_a_step_back_and_the_other_page_follows(new_page, server_url, kind, width):
    ben = person(server_url, "Ben")
    ana, game_id = start(server_url, kind, bots=0, others=(ben,))
    seats = {0: ana, 1: ben}
    rng = random.Random(2)
    # Random steps through the API until the seat to act may take one back.
    for _ in range(400):
        now = state(ana, game_id)
        seat = now["view"]["to_act"][0]
        mine = state(seats[seat], game_id)
        if any(e["move"] == UNDO for e in mine["view"]["legal_moves"]):
            break
        legal = [e["move"] for e in mine["view"]["legal_moves"]]
        r = seats[seat].post(
            f"/api/games/{game_id}/moves",
            json={"move": rng.choice(legal), "expect_version": mine["version"]},
        )
        assert r.status_code == 200, r.text
    else:
        pytest.fail("no step could be taken back")
    before = mine["view"]
    mover = page_for(new_page, server_url, seats[seat], game_id, width)
    other = page_for(new_page, server_url, seats[1 - seat], game_id, width)
    for page in (mover, other):
        expect(page.get_by_test_id("log").locator("li")).to_have_count(len(before["log"]))
    expect(other.get_by_test_id("undo-row")).to_have_count(0)  # only the player to act has it
    mover.locator(".undo-step").click()
    for page in (mover, other):
        expect(page.get_by_test_id("log").locator("li").first).to_contain_text("Undone")
        expect(page.get_by_test_id("last-move")).to_contain_text("Undone")
    after = state(seats[seat], game_id)["view"]
    # The log only grows: the step's lines stay, and one more says it was undone.
    assert after["to_act"] == [seat] and after["log_length"] == before["log_length"] + 1
    # The record keeps the step and its undoing, and still verifies.
    assert seats[seat].post(f"/api/games/{game_id}/concede").status_code == 200
    record = ana.get(f"/api/games/{game_id}/export").json()
    assert record["moves"][-1]["move"] == UNDO
    assert verify(record).ok, verify(record).message
