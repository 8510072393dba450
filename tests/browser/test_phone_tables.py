"""Every table on a 375 px phone: each enabled control is at least 24 × 24 CSS px (WCAG 2.2's
target size), no name is cut short and no word breaks across lines. Measured on your own
turns through a game, with the page following it live."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import expect

from tests.browser.end_states import COOKIE, play, start, state

PHONE = 375
# One synchronous read of the page: every enabled control's box, every cut text, every word
# split over two lines. Links inside a sentence are exempt from the target size (WCAG 2.2).
MEASURE = """() => {
  const shown = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0
    && getComputedStyle(el).visibility !== "hidden"; };
  const name = (el) => (el.getAttribute("aria-label") || el.title || el.textContent).trim().slice(0, 60);
  const controls = [...document.querySelectorAll(
    'main button, main a[href], main input, main select, main summary, main [role="button"]')]
    .filter((el) => !el.disabled && el.getAttribute("aria-disabled") !== "true" && shown(el))
    .filter((el) => !(el.tagName === "A" && el.closest("p, li") && el.closest("p, li").textContent.trim() !== el.textContent.trim()));
  const small = controls.map((el) => [el, el.getBoundingClientRect()])
    .filter(([, r]) => r.width < 23.5 || r.height < 23.5)
    .map(([el, r]) => `${el.className || el.tagName} "${name(el)}" ${Math.round(r.width)}x${Math.round(r.height)}`);
  const cut = [...document.querySelectorAll("main .game-root *")].filter((el) => shown(el)
      && el.children.length === 0 && el.textContent.trim()
      && getComputedStyle(el).textOverflow === "ellipsis" && el.scrollWidth > el.clientWidth + 1)
    .map((el) => `${el.className} "${el.textContent.trim()}"`);
  const broken = [];
  const walker = document.createTreeWalker(document.querySelector("main .game-root"), NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (!node.parentElement || !shown(node.parentElement) || node.parentElement.closest("svg, .sr-only")) continue;
    const re = /[^\\s\\-–—/·]{2,}/g;
    let m;
    while ((m = re.exec(node.data))) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (lines.size > 1) broken.push(`${node.parentElement.className} "${m[0]}"`);
    }
  }
  return { controls: controls.length, small, cut, broken,
    wide: document.documentElement.scrollWidth };
}"""


def check(page, problems: dict[str, set]) -> int:
    found = page.evaluate(MEASURE)
    for key in ("small", "cut", "broken"):
        problems[key].update(found[key])
    if found["wide"] > PHONE:
        problems["wide"].add(found["wide"])
    return found["controls"]


OPTIONS = {"pinetop": {"friendship": True, "nature": True, "tower": True}}


@pytest.mark.parametrize("kind", ["hike", "summer-camp", "camping-life", "pinetop"])
def test_every_control_is_big_enough_on_a_phone(reading_page, server_url, kind):
    ana, game_id = start(server_url, kind, options=OPTIONS.get(kind))
    page = reading_page(width=PHONE, height=800)
    page.context.add_cookies([{"name": COOKIE, "value": ana.token, "url": server_url}])
    page.goto(f"/games/{game_id}")
    expect(page.get_by_test_id(kind)).to_be_visible()
    measured = 0
    problems: dict[str, set] = {"small": set(), "cut": set(), "broken": set(), "wide": set()}
    for _ in range(12):
        now = play(ana, game_id, kind, moves=0)
        while (
            now["view"]["you"] not in now["view"]["to_act"]
            and now["view"]["table"]["status"] == "active"
        ):
            now = state(ana, game_id)
        if now["view"]["table"]["status"] != "active":
            break
        # The page has drawn this version's moves.
        expect(page.get_by_test_id("turn")).to_have_text("Your turn")
        expect(page.locator('[data-testid="move"]:not([disabled])').first).to_be_visible()
        page.wait_for_function(
            f"() => document.querySelectorAll('[data-testid=move]').length >= {len(now['view']['legal_moves']) and 1}"
        )
        # Boxes at rest: a control that just arrived is drawn scaled down for 0.6 s.
        page.evaluate("() => Promise.all(document.getAnimations().map((a) => a.finished))")
        measured += check(page, problems)
        if os.environ.get("PHONE_SHOTS"):
            page.screenshot(
                path=f"{os.environ['PHONE_SHOTS']}/{kind}-{measured}.png", full_page=True
            )
        play(ana, game_id, kind, moves=3)
    # Under 24 × 24 px, cut short, a word over two lines, wider than the phone.
    assert not any(problems.values()), problems
    assert measured > 20
