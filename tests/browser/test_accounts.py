"""Sign-ins in a real browser: a guest keeps their tables, a second browser signs in and sees
them, a device code makes a third browser the same player once, and the profile shows the
rating; a guest at a rated table is told it will not be rated and offered a sign-in that makes
it rated; a device signed out from another, on another server, leaves its table at once.
Screenshots of the new pages at 375 and 1280 px go to the test's own folder."""

from __future__ import annotations

import itertools
import re

from playwright.sync_api import expect

from app.services import rating_rules
from tests.browser.axe import serious_violations
from tests.browser.end_states import COOKIE, as_player, every_seat_moved, person, signed_in

PASSWORD = "correct horse battery"
_handles = itertools.count()
WIDTHS = (375, 1280)


def shoot(page, folder, name: str) -> None:
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(200)
        page.screenshot(path=folder / f"{name}-{width}.png", full_page=True, animations="disabled")
    page.set_viewport_size({"width": WIDTHS[1], "height": 900})


def test_claim_sign_in_elsewhere_device_code_and_profile(new_page, server_url, tmp_path):
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
    # the bot, on the profile (a public table: a private one is listed to its players only).
    # The table shows the ratings.
    laptop.goto("/")
    laptop.get_by_test_id("game-hike").click()
    expect(laptop.get_by_test_id("rated")).to_be_checked()
    laptop.get_by_test_id("visibility").select_option("public")
    laptop.get_by_test_id("create-lobby").click()
    laptop.wait_for_url("**/lobbies/*")
    expect(laptop.get_by_test_id("rated")).to_have_text("rated")
    laptop.get_by_test_id("add-bot").first.click()
    laptop.get_by_test_id("start").click()
    laptop.wait_for_url("**/games/*")
    game_id = laptop.url.rsplit("/", 1)[1]
    phone.goto(f"/games/{game_id}")
    expect(phone.get_by_test_id("seat-strip")).to_be_visible()
    # A few moves first: a game given up before every seat has made them is not rated.
    every_seat_moved([as_player(phone, server_url)], game_id, "hike", rating_rules.MIN_MOVES)
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
    assert serious_violations(profile) == []

    # Signing out on the phone leaves the laptop signed in.
    phone.goto("/account")
    phone.get_by_test_id("sign-out-here").click()
    expect(phone.get_by_test_id("sign-in-handle")).to_be_visible()
    assert phone.request.get("/api/players/me").status == 401
    assert laptop.request.get("/api/players/me").json()["handle"] == handle


def test_a_guest_at_a_rated_table_is_told_and_offered_a_sign_in(new_page, server_url, tmp_path):
    handle = f"Ana{next(_handles)}"
    ana = signed_in(server_url, "Ana", handle)
    lobby = ana.post("/api/lobbies", json={"game": "camping-life", "seats": 2}).json()
    host = new_page("/")
    host.context.add_cookies([{"name": COOKIE, "value": ana.token, "url": server_url}])
    host.goto(f"/lobbies/{lobby['id']}")
    expect(host.get_by_test_id("rated")).to_have_text("rated")
    gus = person(server_url, "Gus")
    assert gus.post("/api/lobbies/join", json={"invite_code": lobby["invite_code"]}).is_success
    # Before the start, the host reads who keeps the table from being rated.
    expect(host.get_by_test_id("rated")).to_have_text("not rated")
    expect(host.get_by_test_id("unrated-because")).to_contain_text("Not rated: Gus has no sign-in.")
    shoot(host, tmp_path, "lobby-not-rated-host")
    assert serious_violations(host) == []
    # Gus, on his own page, is offered a sign-in; it brings him back to his seat, rated.
    guest = new_page("/", width=375)
    guest.context.add_cookies([{"name": COOKIE, "value": gus.token, "url": server_url}])
    guest.goto(f"/lobbies/{lobby['id']}")
    expect(guest.get_by_test_id("unrated-because")).to_contain_text(
        "Not rated: you have no sign-in."
    )
    shoot(guest, tmp_path, "lobby-not-rated-guest")
    assert serious_violations(guest) == []
    guest.get_by_test_id("add-sign-in").click()
    guest.wait_for_url("**/account?next=*")
    guest.get_by_test_id("claim-handle").fill(f"Gus{next(_handles)}")
    guest.get_by_test_id("claim-password").fill(PASSWORD)
    guest.get_by_test_id("claim").click()
    guest.wait_for_url(f"**/lobbies/{lobby['id']}")
    for page in (guest, host):
        expect(page.get_by_test_id("rated")).to_have_text("rated")
        expect(page.get_by_test_id("unrated-because")).to_have_count(0)
    expect(guest.get_by_test_id("seat").nth(1)).to_contain_text("Gus")


def test_a_device_signed_out_from_another_on_another_server_leaves_its_table(
    new_page, two_instances, tmp_path
):
    """Ana's laptop on server A, her phone on server B, the two sharing a database and Redis:
    the laptop signs the phone out, and the phone's open table says so at once, with the way
    to sign in again, and shows nothing of Ana's seat any more."""
    a, b = two_instances
    handle = f"Ana{next(_handles)}"
    laptop = new_page("/", base_url=a)
    laptop.locator("#player-name-input").fill("Ana")
    laptop.locator("#player-name-input").press("Enter")
    expect(laptop.get_by_test_id("player-name")).to_have_text("Ana")
    assert laptop.request.post("/api/accounts", data={"handle": handle, "password": PASSWORD}).ok
    lobby = laptop.request.post("/api/lobbies", data={"game": "camping-life", "seats": 2}).json()
    assert laptop.request.post(
        f"/api/lobbies/{lobby['id']}/bots", data={"seat": 1, "level": "random"}
    ).ok
    game_id = laptop.request.post(f"/api/lobbies/{lobby['id']}/start").json()["game_id"]

    phone = new_page("/account", base_url=b, width=375)
    phone.get_by_test_id("sign-in-handle").fill(handle)
    phone.get_by_test_id("sign-in-password").fill(PASSWORD)
    phone.get_by_test_id("sign-in").click()
    expect(phone.get_by_test_id("player-name")).to_have_text("Ana")
    # Pages of the same device, left open: its home page and its sign-in page.
    home = new_page("/", base_url=b, storage_state=phone.context.storage_state())
    expect(home.get_by_test_id("player-name")).to_have_text("Ana")
    account = new_page("/account", base_url=b, storage_state=phone.context.storage_state())
    expect(account.get_by_role("heading", name=handle)).to_be_visible()
    phone.goto(f"/games/{game_id}")
    expect(phone.get_by_test_id("my-secret")).to_be_visible()
    expect(phone.get_by_test_id("my-coins")).to_be_visible()

    laptop.goto("/account")
    expect(laptop.get_by_test_id("device")).to_have_count(2)
    laptop.get_by_test_id("sign-out-device").click()
    expect(laptop.get_by_test_id("device")).to_have_count(1)

    expect(phone.get_by_test_id("signed-out")).to_have_text(
        re.compile(r"^You were signed out on this device\. Sign in again\.")
    )
    expect(phone.get_by_test_id("connection")).to_have_text("Signed out")
    for seen_by_ana_only in ("my-secret", "my-coins", "my-area"):
        expect(phone.get_by_test_id(seen_by_ana_only)).to_have_count(0)
    expect(phone.get_by_test_id("chat")).to_be_hidden()
    shoot(phone, tmp_path, "game-signed-out")
    # The home page left open hears it at its next call, and says it in the same words.
    home.get_by_test_id("create-lobby").click()
    expect(home.get_by_test_id("signed-out")).to_be_visible()
    expect(home.get_by_test_id("player-name")).to_have_count(0)
    expect(home.get_by_role("alert").first).to_contain_text("You were signed out on this device.")
    assert "POST /api/players" not in home.locator("body").inner_text()
    shoot(home, tmp_path, "home-signed-out")
    account.get_by_test_id("make-device-code").click()
    expect(account.get_by_test_id("signed-out")).to_have_text(
        "You were signed out on this device. Sign in again."
    )
    expect(account.get_by_test_id("sign-in-handle")).to_be_visible()
    expect(account.get_by_role("heading", name=handle)).to_have_count(0)
    shoot(account, tmp_path, "account-signed-out")
    phone.get_by_test_id("sign-in-again").click()
    expect(phone.get_by_test_id("sign-in-handle")).to_be_visible()


FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0"
ANDROID = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/126.0.0.0 Mobile Safari/537.36"
)


def test_the_devices_list_tells_devices_apart(new_page, tmp_path):
    handle = f"Ana{next(_handles)}"
    laptop = new_page("/", user_agent=FIREFOX)
    laptop.locator("#player-name-input").fill("Ana")
    laptop.locator("#player-name-input").press("Enter")
    expect(laptop.get_by_test_id("player-name")).to_have_text("Ana")
    laptop.goto("/account")
    laptop.get_by_test_id("claim-handle").fill(handle)
    laptop.get_by_test_id("claim-password").fill(PASSWORD)
    laptop.get_by_test_id("claim").click()
    expect(laptop.get_by_test_id("device")).to_have_count(1)
    phone = new_page("/account", width=375, user_agent=ANDROID)
    phone.get_by_test_id("sign-in-handle").fill(handle)
    phone.get_by_test_id("sign-in-password").fill(PASSWORD)
    phone.get_by_test_id("sign-in").click()
    phone.wait_for_url(lambda url: url.endswith("/"))
    laptop.reload()
    devices = laptop.get_by_test_id("device")
    expect(devices).to_have_count(2)
    mine = devices.filter(has_text="this device")
    expect(mine).to_have_count(1)
    expect(mine).to_contain_text("Firefox 125 on Windows 10")
    expect(mine.get_by_test_id("device-when")).to_contain_text("last used now")
    other = devices.filter(has_text="Chrome Mobile 126 on Android 14")
    expect(other.get_by_test_id("device-when")).to_contain_text(
        re.compile(r"Signed in .+, signed in with the password · last used .+\d")
    )
    assert serious_violations(laptop) == []
    shoot(laptop, tmp_path, "account-devices")
