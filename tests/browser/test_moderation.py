"""A moderator at work, as the table sees it: a removed chat line goes from every page, and a
mute is announced and keeps the player's lines out."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.conftest import ADMIN_TOKEN
from tests.browser.test_table_life import api, set_name, two_player_game

ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}", "X-Admin-Name": "sam"}


def test_a_removed_line_leaves_every_page_and_a_mute_is_announced(new_page, tmp_path):
    ana, ben = new_page("/"), new_page("/", width=375, height=800)
    set_name(ana, "Ana")
    set_name(ben, "Ben")
    game_id = two_player_game(ana, ben)
    ana.goto(f"/games/{game_id}")
    ben.goto(f"/games/{game_id}")
    ana.get_by_test_id("chat-input").fill("something rude")
    ana.get_by_test_id("chat-send").click()
    ana.get_by_test_id("chat-input").fill("good luck")
    ana.get_by_test_id("chat-send").click()
    for page in (ana, ben):
        expect(page.get_by_test_id("chat-line")).to_have_count(2)
    rude = next(
        line
        for line in api(ana, "GET", f"/api/games/{game_id}/chat")
        if line["text"] == "something rude"
    )
    removed = ana.request.delete(f"/api/admin/chat/{rude['id']}", headers=ADMIN)
    assert removed.ok, removed.text()
    for page in (ana, ben):
        lines = page.get_by_test_id("chat-line")
        expect(lines).to_have_text(
            ["Ana good luck", "Moderator A moderator removed a line by Ana."]
        )
        expect(page.locator(".chat-moderator")).to_have_count(1)

    me = api(ben, "GET", "/api/players/me")
    muted = ben.request.post(
        f"/api/admin/players/{me['id']}/mute",
        headers=ADMIN,
        data={"minutes": 30, "reason": "testing"},
    )
    assert muted.ok, muted.text()
    expect(ana.get_by_test_id("chat-lines")).to_contain_text(
        "A moderator muted Ben in chat for 30 minutes."
    )
    ben.get_by_test_id("chat-input").fill("am I heard?")
    ben.get_by_test_id("chat-send").click()
    expect(ben.get_by_test_id("chat")).to_contain_text("A moderator muted you in chat until")
    ben.screenshot(path=tmp_path / "muted-375.png", full_page=True)
    ana.reload()
    expect(ana.get_by_test_id("chat-line")).to_have_text(["Ana good luck"])
