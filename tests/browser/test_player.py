"""The player box: signing out forgets the player on this device."""

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
