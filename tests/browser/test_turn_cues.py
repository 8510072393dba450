"""What the frame adds to every table so a player sees what changed and knows it is their
turn: the last move marked (and animated, unless motion is reduced), the first move scrolled
into view, and the sound and notification switches."""

import random
import time

from playwright.sync_api import expect

from tests.browser.test_camping_life import LIVE_MOVES, click_a_move

TABLE = ".game-root:not(.replay-table)"
BOT_MARK = f'{TABLE} .just-changed[data-moved-by="2"]'


def camping_life_against_a_bot(new_page, **options):
    page = new_page("/", **options)
    page.locator("#player-name-input").fill("Ana")
    page.locator("#player-name-input").press("Enter")
    expect(page.get_by_test_id("player-name")).to_have_text("Ana")
    page.get_by_test_id("game-camping-life").click()
    page.get_by_test_id("create-lobby").click()
    page.wait_for_url("**/lobbies/*")
    page.get_by_test_id("add-bot").click()
    page.get_by_test_id("start").click()
    page.wait_for_url("**/games/*")
    expect(page.get_by_test_id("turn")).to_be_visible()
    return page


def play_until(page, done, seconds=60):
    """Clicks random moves until ``done()``; the bot answers at once."""
    rng = random.Random(5)
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "the awaited table did not come"
        if not click_a_move(page, rng, {}):
            page.wait_for_timeout(50)


# Animations started on marked elements, recorded as they start: the class that runs them
# lasts one drawing, so looking afterwards would race the next one.
RECORD_ANIMATIONS = """() => {
  window.markAnimations = [];
  document.addEventListener("animationstart", (e) => {
    const mark = e.target.closest(".just-changed");
    if (mark) window.markAnimations.push(mark.dataset.movedBy);
  });
}"""


def test_the_bots_move_is_marked_with_its_seat_and_animates(new_page):
    page = camping_life_against_a_bot(
        new_page, width=390, height=800, reduced_motion="no-preference"
    )
    page.evaluate(RECORD_ANIMATIONS)
    # The bot may have moved first, before the recording began: play on to a move of its own,
    # whose marks on the table carry its seat and were animated. Read in one go: the table
    # may be redrawn between finding a mark and reading it.
    bot_move_shown = f"""() => window.markAnimations.includes('2')
        && [...document.querySelectorAll('{BOT_MARK}')]
             .some((el) => getComputedStyle(el, '::after').content === '"2"')"""
    play_until(page, lambda: page.evaluate(bot_move_shown))


def test_no_animation_runs_under_reduced_motion(new_page):
    page = camping_life_against_a_bot(new_page, width=390, height=800, reduced_motion="reduce")
    play_until(page, lambda: page.locator(BOT_MARK).count() > 0)
    # Read in one go: the table may be redrawn between finding a mark and reading it.
    names = page.evaluate(
        f"() => [...document.querySelectorAll('{BOT_MARK}')].map((el) => getComputedStyle(el).animationName)"
    )
    assert names and set(names) == {"none"}
    assert page.evaluate("document.getAnimations().length") == 0


ON_SCREEN = f"""() => [...document.querySelectorAll('{LIVE_MOVES}')].some((el) => {{
  const r = el.getBoundingClientRect();
  return r.height > 0 && r.bottom > 0 && r.top < innerHeight;
}})"""


def test_a_placement_below_the_fold_is_scrolled_into_view_on_a_phone(new_page):
    page = camping_life_against_a_bot(new_page, width=375, height=667)
    places = page.locator(f'{TABLE} [data-testid="my-area"] {LIVE_MOVES}')

    def placing():
        return places.count() > 0

    # Bid from the top of the page until a card must be placed in the play area below.
    rng = random.Random(5)
    deadline = time.monotonic() + 60
    while not placing():
        assert time.monotonic() < deadline, "no placement came"
        page.evaluate("window.scrollTo(0, 0)")
        if not click_a_move(page, rng, {}):
            page.wait_for_timeout(50)
        page.wait_for_timeout(100)
    page.wait_for_function(ON_SCREEN)


ALERT_STUBS = """
window.__asked = 0;
window.__tones = 0;
window.Notification = class {
  static permission = "default";
  static async requestPermission() { window.__asked += 1; Notification.permission = "granted"; return "granted"; }
};
window.AudioContext = class {
  currentTime = 0;
  destination = {};
  resume() {}
  createOscillator() {
    window.__tones += 1;
    return { frequency: {}, connect: (next) => next, start() {}, stop() {} };
  }
  createGain() {
    return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: (next) => next };
  }
};
"""


def test_sound_and_notifications_are_opt_in_and_remembered(new_page):
    page = camping_life_against_a_bot(new_page, width=390, height=800)
    page.context.add_init_script(ALERT_STUBS)
    page.reload()
    sound, notify = page.get_by_test_id("toggle-sound"), page.get_by_test_id("toggle-notify")
    expect(sound).not_to_be_checked()
    expect(notify).not_to_be_checked()
    assert page.evaluate("window.__asked") == 0, "permission asked before the player opted in"

    sound.check()
    notify.check()
    assert page.evaluate("window.__asked") == 1
    tones = page.evaluate("window.__tones")  # turning the sound on plays it once
    # Once the turn has passed to the bot and come back: a tone.
    play_until(page, lambda: page.evaluate("window.__tones") > tones)

    page.reload()
    expect(page.get_by_test_id("toggle-sound")).to_be_checked()
    expect(page.get_by_test_id("toggle-notify")).to_be_checked()
    assert page.evaluate("window.__asked") == 0, "permission asked again without the player"
