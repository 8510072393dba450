"""The host picks a bot's level by name, reads how it plays, and the table shows it; the
host also picks the bot that stands in for away players, and may change it in the lobby. On
a phone."""

from __future__ import annotations

import os
from pathlib import Path

from playwright.sync_api import expect

from engine.levels import level
from engine.registry import GAMES

PHONE = 375
GAME = "hike"
# The strongest level the game offers: Expert (search) once the game has it.
STRONGEST = level("search" if "search" in GAMES[GAME].bots else "heuristic")
# Set to a folder to keep the phone's picture of the lobby and of the table.
SHOTS = os.environ.get("BOT_LEVEL_SHOTS")


def test_the_host_seats_the_strongest_bot_and_the_table_says_so(new_page):
    page = new_page("/", width=PHONE, height=800)
    page.locator("#player-name-input").fill("Ana")
    page.locator("#player-name-input").press("Enter")
    expect(page.get_by_test_id("player-name")).to_have_text("Ana")
    page.get_by_test_id(f"game-{GAME}").click()
    stand_in = page.get_by_test_id("stand-in-level")
    expect(stand_in.locator("option:checked")).to_have_text("Casual")
    stand_in.select_option(label="Beginner")
    expect(page.get_by_test_id("stand-in-level-about")).to_contain_text("at random")
    page.get_by_test_id("create-lobby").click()
    page.wait_for_url("**/lobbies/*")
    # The host may still change it in the lobby: it is kept.
    stand_in = page.get_by_test_id("stand-in-level")
    expect(stand_in.locator("option:checked")).to_have_text("Beginner")
    with page.expect_response("**/stand_in"):
        stand_in.select_option(label="Casual")
    page.reload()
    expect(page.get_by_test_id("stand-in-level").locator("option:checked")).to_have_text("Casual")

    picker = page.get_by_test_id("bot-level")
    names = ["Beginner", "Casual", "Expert"] if STRONGEST.id == "search" else ["Beginner", "Casual"]
    expect(picker.locator("option")).to_have_text(names)
    picker.select_option(label=STRONGEST.name)
    expect(page.get_by_test_id("bot-level-about")).to_have_text(STRONGEST.about)
    if SHOTS:
        page.screenshot(path=Path(SHOTS) / "lobby-pick-375.png", full_page=True)
    page.get_by_test_id("add-bot").click()
    seat = page.get_by_test_id("seat").nth(1)
    expect(seat.get_by_test_id("seat-level")).to_have_text(STRONGEST.name)
    if SHOTS:
        page.screenshot(path=Path(SHOTS) / "lobby-expert-375.png", full_page=True)
    page.get_by_test_id("start").click()
    page.wait_for_url("**/games/*")

    strip = page.get_by_test_id("seat-strip")
    expect(strip.get_by_test_id("seat-level")).to_have_text(f"Bot · {STRONGEST.name}")
    expect(strip.get_by_test_id("seat-level")).to_have_attribute("title", STRONGEST.about)
    expect(strip).to_contain_text(f"{STRONGEST.name} bot")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE, f"the table is {width} px wide on a {PHONE} px phone"
    if SHOTS:
        page.screenshot(path=Path(SHOTS) / "table-expert-375.png")
