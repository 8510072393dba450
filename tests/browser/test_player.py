"""The player box: signing out forgets the player on this device; a name typed, or still being
saved, is the one a new lobby is made with."""

from __future__ import annotations

from playwright.sync_api import expect


def test_sign_out_forgets_the_player_on_this_device(new_page):
    page = new_page("/")
    page.locator("#player-name-input").fill("Ana")
    page.locator("#player-name-input").press("Enter")
    expect(page.get_by_test_id("player-name")).to_have_text("Ana")
    page.get_by_test_id("sign-out").click()
    expect(page.locator("#player-name-input")).to_be_visible()
    expect(page.get_by_test_id("player-name")).to_have_count(0)
    assert page.request.get("/api/players/me").status == 401
    page.reload()
    expect(page.locator("#player-name-input")).to_be_visible()


def test_create_lobby_uses_a_name_typed_but_not_yet_saved(new_page):
    page = new_page("/")
    page.locator("#player-name-input").fill("Ana")
    page.get_by_test_id("game-hike").click()
    page.get_by_test_id("create-lobby").click()
    page.wait_for_url("**/lobbies/*")
    expect(page.get_by_test_id("seat").first).to_contain_text("Ana")


def test_create_lobby_waits_for_the_name_being_saved(new_page):
    page = new_page("/")
    held = []
    page.route("**/api/players", lambda route: held.append(route))
    page.locator("#player-name-input").fill("Ben")
    page.locator("#player-name-input").press("Enter")
    page.get_by_test_id("create-lobby").click()
    expect(page.get_by_test_id("create-lobby")).to_be_disabled()
    assert len(held) == 1, "the name was sent once"
    held[0].continue_()
    page.wait_for_url("**/lobbies/*")
    expect(page.get_by_test_id("seat").first).to_contain_text("Ben")


def test_create_lobby_without_a_name_asks_for_one(new_page):
    page = new_page("/")
    expect(page.locator("#player-name-input")).to_be_visible()
    page.get_by_test_id("create-lobby").click()
    expect(page.get_by_text("Enter your name first.")).to_be_visible()
    expect(page.locator("#player-name-input")).to_be_focused()
    expect(page.get_by_test_id("create-lobby")).to_be_enabled()
    assert page.url.endswith("/")
