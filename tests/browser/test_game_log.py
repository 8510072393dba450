"""The table's log: a page opens with the latest entries, and scrolling the log to its end (or
**Earlier entries**) shows the ones before them, page by page, up to the game's first."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.end_states import COOKIE, play, start, state


def test_scrolling_the_log_shows_the_earlier_entries(new_page, server_url):
    ana, game_id = start(server_url, "hike", bots=1)
    now = play(ana, game_id, "hike")  # to its end: nothing changes the log meanwhile
    length = now["view"]["log_length"]
    assert length > 100 and len(now["view"]["log"]) == 50
    page = new_page("/static/icons/camp.svg", width=1280, height=900)
    page.context.add_cookies([{"name": COOKIE, "value": ana.token, "url": server_url}])
    page.goto(f"/games/{game_id}")
    entries = page.get_by_test_id("log").locator("li")
    expect(entries).to_have_count(50)
    # Scrolled to its end, the list asks for the 50 before.
    page.get_by_test_id("log").evaluate("el => { el.scrollTop = el.scrollHeight; }")
    expect(entries).to_have_count(100)
    shown = 100
    while shown < length:
        page.get_by_test_id("log-earlier").click()
        shown = min(length, shown + 50)
        expect(entries).to_have_count(shown)
    expect(page.get_by_test_id("log-earlier")).to_have_count(0)
    assert state(ana, game_id)["view"]["log_length"] == length
    oldest = ana.get(f"/api/games/{game_id}/log", params={"before": 1, "limit": 1}).json()
    # The game's first entry, as the table words it (seats by name): its first sentence.
    names = [seat["name"] for seat in now["view"]["table"]["seats"]]
    first = re.sub(r"Player (\d+)", lambda m: names[int(m[1]) - 1], oldest["entries"][0]["text"])
    expect(entries.last).to_contain_text(first.split(".")[0])
