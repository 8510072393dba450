"""Sign-ins in a real browser: a guest keeps their tables, a second browser signs in and sees
them, a device code makes a third browser the same player once, and the profile shows the
rating. Screenshots of the new pages at 375 and 1280 px go to the test's own folder."""

from __future__ import annotations

import itertools
import re

from playwright.sync_api import expect

PASSWORD = "correct horse battery"
_handles = itertools.count()
WIDTHS = (375, 1280)


def shoot(page, folder, name: str) -> None:
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(200)
        page.screenshot(path=folder / f"{name}-{width}.png", full_page=True, animations="disabled")
    page.set_viewport_size({"width": WIDTHS[1], "height": 900})


def test_claim_sign_in_elsewhere_device_code_and_profile(new_page, tmp_path):
    handle = f"Ana{next(_handles)}"
    laptop = new_page("/")
    laptop.locator("#player-name-input").fill("Ana")
    laptop.locator("#player-name-input").press("Enter")
    expect(laptop.get_by_test_id("player-name")).to_have_text("Ana")
    # A table against a bot, started before the claim.
    laptop.get_by_test_id("game-camping-life").click()
    laptop.get_by_test_id("create-lobby").click()
    laptop.wait_for_url("**/lobbies/*")
    laptop.get_by_test_id("add-bot").first.click()
    laptop.get_by_test_id("start").click()
    laptop.wait_for_url("**/games/*")
    game_id = laptop.url.rsplit("/", 1)[1]
    laptop.goto("/")
    shoot(laptop, tmp_path, "home-guest")
    laptop.get_by_test_id("keep-tables").click()
    laptop.wait_for_url("**/account")
    shoot(laptop, tmp_path, "account-guest")
    laptop.get_by_test_id("claim-handle").fill(handle)
    laptop.get_by_test_id("claim-password").fill(PASSWORD)
    laptop.get_by_test_id("claim").click()
    expect(laptop.get_by_role("heading", name=handle)).to_be_visible()
    expect(laptop.get_by_test_id("device")).to_have_count(1)

    # A second browser signs in and has the same tables.
    phone = new_page("/account", width=375)
    phone.get_by_test_id("sign-in-handle").fill(handle.upper())
    phone.get_by_test_id("sign-in-password").fill("not the password")
    phone.get_by_test_id("sign-in").click()
    expect(phone.get_by_role("alert")).to_have_text("Wrong handle or password.")
    phone.get_by_test_id("sign-in-password").fill(PASSWORD)
    phone.get_by_test_id("sign-in").click()
    phone.wait_for_url(lambda url: url.endswith("/"))
    expect(phone.get_by_test_id("player-name")).to_have_text("Ana")
    expect(phone.get_by_test_id("account-link")).to_have_text(handle)
    expect(phone.locator(f'[data-testid="my-game"][data-game-id="{game_id}"]')).to_be_visible()

    # "Use on another device": a code and its QR code, good once.
    laptop.reload()
    laptop.get_by_test_id("make-device-code").click()
    code = laptop.get_by_test_id("device-code").inner_text()
    expect(laptop.get_by_test_id("device-qr")).to_be_visible()
    assert laptop.get_by_test_id("device-qr").evaluate("img => img.naturalWidth") > 0
    expect(laptop.get_by_test_id("device")).to_have_count(2)
    shoot(laptop, tmp_path, "account-signed-in")
    tablet = new_page(f"/device#{code}")
    tablet.wait_for_url(lambda url: url.endswith("/"))
    expect(tablet.get_by_test_id("player-name")).to_have_text("Ana")
    expect(tablet.locator(f'[data-testid="my-game"][data-game-id="{game_id}"]')).to_be_visible()
    again = new_page(f"/device#{code}")
    expect(again.get_by_test_id("device-status")).to_contain_text("used or expired")
    assert "#" not in again.url
    shoot(again, tmp_path, "device-code-used")

    # Signed in, the laptop's next table is rated; the phone gives it up: a rated loss against
    # the bot, on the profile. The table shows the ratings.
    laptop.goto("/")
    laptop.get_by_test_id("game-hike").click()
    expect(laptop.get_by_test_id("rated")).to_be_checked()
    laptop.get_by_test_id("create-lobby").click()
    laptop.wait_for_url("**/lobbies/*")
    expect(laptop.get_by_test_id("rated")).to_have_text("rated")
    laptop.get_by_test_id("add-bot").first.click()
    laptop.get_by_test_id("start").click()
    laptop.wait_for_url("**/games/*")
    game_id = laptop.url.rsplit("/", 1)[1]
    phone.goto(f"/games/{game_id}")
    expect(phone.get_by_test_id("seat-strip")).to_be_visible()
    result = phone.request.post(f"/api/games/{game_id}/concede")
    assert result.ok, result.text()
    laptop.goto(f"/games/{game_id}")
    expect(laptop.get_by_test_id("outcome")).to_be_visible()
    # The next table shows both ratings: provisional, after one game.
    laptop.goto("/")
    laptop.get_by_test_id("game-hike").click()
    laptop.get_by_test_id("create-lobby").click()
    laptop.wait_for_url("**/lobbies/*")
    laptop.get_by_test_id("add-bot").first.click()
    expect(laptop.get_by_test_id("rating")).to_have_count(2)
    expect(laptop.get_by_test_id("rating").first).to_have_text(re.compile(r"^\d+\?$"))
    shoot(laptop, tmp_path, "lobby-rated")
    laptop.get_by_test_id("start").click()
    laptop.wait_for_url("**/games/*")
    expect(laptop.get_by_test_id("seat-strip").get_by_test_id("rating")).to_have_count(2)
    profile = new_page(f"/players/{handle.lower()}")
    expect(profile.get_by_role("heading", name=handle)).to_be_visible()
    expect(profile.locator("table.ratings")).to_contain_text("Let's Take a Hike")
    expect(profile.locator(".profile-game a").first).to_have_attribute("href", f"/games/{game_id}")
    shoot(profile, tmp_path, "profile")
    profile.locator("table.ratings a", has_text="Hike").click()
    expect(profile.get_by_role("heading", name="Let's Take a Hike leaderboard")).to_be_visible()
    expect(profile.locator("table.ratings")).to_contain_text("Beginner bot")
    shoot(profile, tmp_path, "leaderboard")

    # Signing out on the phone leaves the laptop signed in.
    phone.goto("/account")
    phone.get_by_test_id("sign-out-here").click()
    expect(phone.get_by_test_id("sign-in-handle")).to_be_visible()
    assert phone.request.get("/api/players/me").status == 401
    assert laptop.request.get("/api/players/me").json()["handle"] == handle
