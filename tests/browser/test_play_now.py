"""Play now in the browser: three people who press it for Hike land at one table; one alone
sees the queue live (and axe finds nothing serious in it), leaves, and then gets bots after
the wait chosen."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.axe import serious_violations


def named(page: Page, name: str) -> None:
    page.locator("#player-name-input").fill(name)
    page.locator("#player-name-input").press("Enter")
    expect(page.get_by_test_id("player-name")).to_have_text(name)


def choose(page: Page, game: str, fewest: int, most: int) -> None:
    page.get_by_test_id("play-game").select_option(game)
    page.get_by_test_id("play-fewest").select_option(str(fewest))
    page.get_by_test_id("play-most").select_option(str(most))


def test_three_people_who_press_play_now_for_hike_land_at_one_table(new_page):
    pages = [new_page("/", width=420 if i == 0 else 1100) for i in range(3)]
    for page, name in zip(pages, ("Ana", "Ben", "Cy")):
        named(page, name)
        choose(page, "hike", 3, 3)
        page.get_by_test_id("play-bots").uncheck()
        page.get_by_test_id("play-now").click()
    for page in pages:
        page.wait_for_url("**/games/*")
    assert len({page.url for page in pages}) == 1
    for page in pages:
        expect(page.get_by_test_id("seat-strip")).to_contain_text("Ana")
        expect(page.get_by_test_id("seat-strip")).to_contain_text("Ben")
        expect(page.get_by_test_id("seat-strip")).to_contain_text("Cy")


def test_one_alone_sees_the_queue_leaves_and_gets_bots_after_the_wait(new_page):
    page = new_page("/")
    named(page, "Dee")
    page.get_by_test_id("seek-game").select_option("hike")
    expect(page.get_by_test_id("nobody-waiting")).to_have_text(
        "Nobody is waiting for Let's Take a Hike now: play now with bots, or open a table and "
        "share its link."
    )
    choose(page, "hike", 2, 2)
    page.get_by_test_id("play-bots").uncheck()
    page.get_by_test_id("play-now").click()
    status = page.get_by_test_id("queue-status")
    expect(status).to_contain_text("Looking for a table of Let's Take a Hike · 2 players")
    expect(page.get_by_test_id("queue-count")).to_have_text("Only you so far")
    expect(page.get_by_test_id("queue-gap")).to_contain_text("points from yours")
    expect(page.get_by_test_id("queue-waited")).not_to_have_text("0:00")
    assert serious_violations(page) == []
    page.get_by_test_id("leave-queue").click()
    expect(page.get_by_test_id("play-now")).to_be_visible()
    assert page.request.get("/api/queue").status == 404
    choose(page, "hike", 2, 2)
    page.get_by_test_id("play-bots").check()
    page.get_by_test_id("play-bot-wait").select_option("10")
    page.get_by_test_id("play-bot-level").select_option("random")
    page.get_by_test_id("play-now").click()
    expect(status).to_contain_text("Bots fill the empty seats after 0:10")
    # Nobody else comes: after the wait chosen, a table with a Beginner bot.
    page.wait_for_url("**/games/*", timeout=60_000)
    expect(page.get_by_test_id("seat-strip")).to_contain_text("Beginner bot")
    expect(page.get_by_test_id("seat-strip")).to_contain_text("Dee")
