"""Speeds in the page: chosen when a lobby is made and said in words in the lobby, the invite
page and the table header; each table's time left in "Your tables", and "Next table" to the
next table where it is your turn."""

from __future__ import annotations

import re
import time

import httpx
from playwright.sync_api import expect

from tests.browser.end_states import COOKIE, person

WORDS = "Turn-based · 1 day a move, 2 to spare"


def as_player(page, server_url, client):
    page.context.add_cookies([{"name": COOKIE, "value": client.token, "url": server_url}])


def test_a_lobby_chooses_a_speed_said_in_words_in_lobby_invite_and_table(new_page, server_url):
    page = new_page("/")
    page.locator("#player-name-input").fill("Ana")
    page.locator("#player-name-input").press("Enter")
    speed = page.get_by_test_id("speed")
    expect(speed.locator("optgroup")).to_have_count(2)
    assert speed.locator("optgroup").evaluate_all("gs => gs.map(g => g.label)") == [
        "Real time",
        "Turn-based",
    ]
    # Play now offers the same speeds, real time first.
    play = page.get_by_test_id("play-speed")
    assert play.locator("optgroup").evaluate_all("gs => gs.map(g => g.label)") == [
        "Real time",
        "Turn-based",
    ]
    expect(play).to_have_value("3m")
    expect(play.locator("option:checked")).to_have_text("3 min + 15 s a move")
    speed.select_option("1d")
    expect(page.get_by_test_id("speed-about")).to_have_text(WORDS)
    page.get_by_test_id("game-hike").click()
    page.get_by_test_id("speed").select_option("1d")
    page.get_by_test_id("create-lobby").click()
    page.wait_for_url("**/lobbies/*")
    expect(page.get_by_test_id("speed")).to_have_text(WORDS)
    lobby_id = page.url.rstrip("/").split("/")[-1]
    lobby = page.request.get(f"/api/lobbies/{lobby_id}").json()
    guest = new_page(f"/join/{lobby['invite_code']}")
    expect(guest.get_by_test_id("table-options")).to_have_text(WORDS)
    page.request.post(f"/api/lobbies/{lobby_id}/bots", data={"seat": 1, "level": "random"})
    game_id = page.request.post(f"/api/lobbies/{lobby_id}/start").json()["game_id"]
    page.goto(f"/games/{game_id}")
    expect(page.get_by_test_id("table-options")).to_have_text(WORDS)
    # Whoever waits shows the time in their bank: three days to start with.
    expect(page.get_by_test_id("countdown").or_(page.get_by_test_id("bank")).first).to_have_text(
        re.compile(r"^(2 d 23 h|3 d 0 h)$")
    )


def table_at_my_turn(server_url: str, me: httpx.Client, speed: str) -> str:
    """A table of ``speed``, me against a bot, once it is my turn (bots move at once here)."""
    r = me.post("/api/lobbies", json={"game": "hike", "seats": 2, "speed": speed})
    lobby = r.json()
    me.post(f"/api/lobbies/{lobby['id']}/bots", json={"seat": 1, "level": "random"})
    game_id = me.post(f"/api/lobbies/{lobby['id']}/start").json()["game_id"]
    for _ in range(300):
        if 0 in me.get(f"/api/games/{game_id}/state").json()["view"]["to_act"]:
            return game_id
        time.sleep(0.05)
    raise AssertionError("the bot did not hand the turn over")


def test_your_tables_show_time_left_and_next_table_goes_round_them(new_page, server_url):
    ana = person(server_url, "Ana")
    first = table_at_my_turn(server_url, ana, "1d")
    second = table_at_my_turn(server_url, ana, "7d")
    page = new_page("/static/icons/camp.svg")
    as_player(page, server_url, ana)
    page.goto("/")
    rows = page.get_by_test_id("your-turn").get_by_test_id("my-game")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text(WORDS)
    expect(rows.nth(0).get_by_test_id("time-left")).to_have_text(
        re.compile(r"^(2 d 23 h|3 d 0 h)$")
    )
    expect(rows.nth(1)).to_contain_text("Turn-based · 7 days a move, 7 to spare")
    expect(rows.nth(1).get_by_test_id("time-left")).to_have_text(
        re.compile(r"^(13 d 23 h|14 d 0 h)$")
    )
    page.goto(f"/games/{first}")
    link = page.get_by_test_id("next-table")
    expect(link).to_have_text("Next table (1)")
    link.click()
    page.wait_for_url(f"**/games/{second}")
    expect(page.get_by_test_id("turn")).to_have_text("Your turn")
    page.get_by_test_id("next-table").click()
    page.wait_for_url(f"**/games/{first}")
    # Alone with one table waiting, there is no next one.
    ana.post(f"/api/games/{second}/concede")
    page.reload()
    expect(page.get_by_test_id("turn")).to_have_text("Your turn")
    expect(page.get_by_test_id("next-table")).to_have_count(0)
