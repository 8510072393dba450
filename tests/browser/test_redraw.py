"""A change patches the table in place: what it did not touch stays the same node, focus and
scroll stay where they were, and a control sends the move its element carries."""

from __future__ import annotations

import json
import time

from playwright.sync_api import expect

from tests.browser.end_states import COOKIE, play, play_until, start, state
from tests.browser.game_socket import record_sent


def open_table(new_page, server_url, client, game_id, **size):
    page = new_page("/", **size)
    page.context.add_cookies([{"name": COOKIE, "value": client.token, "url": server_url}])
    return page


def test_a_change_keeps_the_untouched_nodes_the_focus_and_the_scroll(new_page, server_url):
    ana, game_id = start(server_url, "hike")
    play(ana, game_id, "hike", moves=10)  # a log long enough to scroll
    page = open_table(new_page, server_url, ana, game_id, width=1100, height=500)
    page.goto(f"/games/{game_id}")
    expect(page.get_by_test_id("log")).to_be_visible()
    newest = page.evaluate("""() => {
      const list = document.querySelector('[data-testid="log"]');
      list.focus();
      list.scrollTop = 40;
      window.scrollTo(0, 200);
      // Marked as JavaScript properties: a node drawn anew would not carry them.
      for (const el of [list, list.firstElementChild, document.querySelector('.game-head h1'),
                        document.querySelector('[data-testid="my-backpack"] .pack-body')]) el.marked = true;
      return list.firstElementChild.dataset.key;
    }""")
    assert page.evaluate(
        "() => [document.querySelector('[data-testid=\"log\"]').scrollTop, window.scrollY]"
    ) == [40, 200]

    # Moves until the log grows: some (a draw still to be packed) add no entry.
    length = state(ana, game_id)["view"]["log_length"]
    assert play_until(ana, game_id, "hike", lambda view: view["log_length"] > length)
    page.wait_for_function(
        "(key) => document.querySelector('[data-testid=\"log\"] li').dataset.key !== key",
        arg=newest,
    )
    kept = page.evaluate(
        """(key) => {
      const list = document.querySelector('[data-testid="log"]');
      return {
        list: list.marked === true,
        entry: document.querySelector(`[data-key="${key}"]`).marked === true,
        title: document.querySelector('.game-head h1').marked === true,
        backpack: document.querySelector('[data-testid="my-backpack"] .pack-body').marked === true,
        focused: document.activeElement === list,
        scrolled: list.scrollTop >= 40,
        page: window.scrollY,
      };
    }""",
        newest,
    )
    assert kept == {
        "list": True,
        "entry": True,
        "title": True,
        "backpack": True,
        "focused": True,
        "scrolled": True,
        "page": 200,
    }


def test_a_control_sends_the_move_its_element_carries(new_page, server_url):
    """One listener for the table reads the move from the element clicked: an element given
    another control's move sends that one."""
    ana, game_id = start(server_url, "hike")
    now = play_until(
        ana,
        game_id,
        "hike",
        lambda view: len([e for e in view["legal_moves"] if e["move"]["type"] != "undo"]) >= 2,
    )
    assert now is not None
    page = open_table(new_page, server_url, ana, game_id)
    sent = record_sent(page)
    page.goto(f"/games/{game_id}")
    controls = page.locator('[data-testid="move"]:not(.undo-step)')
    expect(controls.nth(1)).to_be_visible()
    keys = controls.evaluate_all("(els) => els.map((el) => el.dataset.moveKey)")
    assert keys[0] != keys[1]
    controls.nth(0).evaluate("(el, key) => { el.dataset.moveKey = key; }", keys[1])
    controls.nth(0).click()
    deadline = time.monotonic() + 15
    while not [m for m in sent if m["type"] == "move"]:
        assert time.monotonic() < deadline, "no move was sent"
        page.wait_for_timeout(50)
    move = next(m for m in sent if m["type"] == "move")
    assert move["move"] == json.loads(keys[1])
    assert move["expect_version"] == now["version"]
