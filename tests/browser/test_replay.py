"""The replay of an ended game: dragging its slider asks the server for the step it rests on,
not for every step it passes (replays are rate-limited); the step asked for last is the one
shown, however its answers arrive; Hike's replay fills its width."""

from __future__ import annotations

import functools
import time

from playwright.sync_api import expect

from tests.browser.end_states import COOKIE, ended_game


def test_dragging_the_slider_asks_for_the_step_it_rests_on(new_page, server_url):
    game_id, token = ended_game(server_url, "hike", "conceded-3p")
    page = new_page("/")
    page.context.add_cookies([{"name": COOKIE, "value": token, "url": server_url}])
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/replay?" in r.url else None)
    page.goto(f"/games/{game_id}")
    replay = page.get_by_test_id("replay")
    replay.get_by_test_id("replay-open").click()
    expect(replay.get_by_test_id("replay-at")).to_contain_text("After move")
    before = len(asked)
    # A drag across 20 steps: an input event per step, faster than a person reads them.
    replay.get_by_test_id("replay-slider").evaluate(
        """(slider) => { for (let k = 1; k <= 20; k++) {
             slider.value = k; slider.dispatchEvent(new Event("input", { bubbles: true })); } }"""
    )
    expect(replay.get_by_test_id("replay-at")).to_contain_text("After move 20 of")
    deadline = time.monotonic() + 10
    while not (asked and asked[-1].endswith("at=20")):
        assert time.monotonic() < deadline, "the step the slider rests on was never asked for"
        page.wait_for_timeout(50)
    assert len(asked) - before == 1
    expect(replay.get_by_test_id("replay-table")).to_be_visible()

    # Drawn as a spectator sees the table, with no backpack of one's own: at 1280 px the
    # hikers' backpacks fill the width, the left column too.
    page.set_viewport_size({"width": 1280, "height": 900})
    table = replay.get_by_test_id("replay-table")
    expect(table.get_by_test_id("other-backpack")).to_have_count(3)
    # Step 20 drawn, not the last step, drawn while step 20's answer was on its way. Both
    # boxes read in one go, until they fit: the replay may be drawn again between two reads.
    expect(table.locator(".hike-others")).to_be_visible()
    deadline = time.monotonic() + 10
    while True:
        hike, others = page.evaluate(BOXES)
        if (
            hike
            and others
            and others["x"] - hike["x"] < 1
            and others["width"] > 0.95 * hike["width"]
        ):
            break
        assert time.monotonic() < deadline, (hike, others)
        page.wait_for_timeout(50)


BOXES = """() => {
  const table = document.querySelector('[data-testid="replay"] [data-testid="replay-table"]');
  const box = (el) => {
    if (!el) return null;
    const r = el.getBoundingClientRect();
    return { x: r.x, width: r.width };
  };
  return [box(table?.querySelector('[data-testid="hike"]')), box(table?.querySelector(".hike-others"))];
}"""


def test_a_late_answer_for_an_earlier_step_does_not_replace_the_last_one_asked_for(
    new_page, server_url
):
    game_id, token = ended_game(server_url, "hike", "conceded")
    page = new_page("/")
    page.context.add_cookies([{"name": COOKIE, "value": token, "url": server_url}])

    @functools.cache
    def pile(k: int) -> int:
        return page.request.get(f"/api/games/{game_id}/replay?at={k}").json()["view"]["draw_pile"]

    # Two steps in a row whose tables differ: the draw pile shrinks with a draw.
    k = next(k for k in range(1, 60) if pile(k) != pile(k - 1))
    # Step k - 1's answer is held back in the page, so it arrives after step k's.
    page.add_init_script(
        f"""{{
          const fetched = window.fetch;
          window.fetch = async (...args) => {{
            const answer = await fetched(...args);
            if (String(args[0]).endsWith("/replay?at={k - 1}")) {{
              await new Promise((done) => setTimeout(done, 800));
            }}
            return answer;
          }};
        }}"""
    )
    page.goto(f"/games/{game_id}")
    replay = page.get_by_test_id("replay")
    replay.get_by_test_id("replay-open").click()
    expect(replay.get_by_test_id("replay-at")).to_contain_text("After move")
    with page.expect_request(f"**/replay?at={k - 1}"):
        replay.get_by_test_id("replay-slider").fill(str(k - 1))
    replay.get_by_test_id("replay-next").click()
    page.wait_for_timeout(1500)
    expect(replay.get_by_test_id("replay-at")).to_contain_text(f"After move {k} of")
    shown = replay.get_by_test_id("replay-table").get_by_test_id("draw-pile").locator("strong")
    expect(shown).to_have_text(str(pile(k)))
