"""Screenshots of every game's table, mid-game and at the end, and of the home page, at 375 px
and 1280 px.

Starts ``uvicorn app.main:app`` on a fresh SQLite database with instant bots, plays each game
in Chromium against bots by clicking random legal-move controls, and saves the table (the
frame's head, the outcome, the table and the moves bar) as PNG under ``docs/screenshots/``:
``{game}-{mid|end}-{375|1280}.png``; the home page with nobody waiting and then waiting in
"Play now" beside an open table, ``home-{idle|waiting}-{375|1280}.png``.

    .venv/bin/python bench/screenshots.py [--games hike camping-life] [--mid 14] [--home]
"""

from __future__ import annotations

import argparse
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.migrate import upgrade  # noqa: E402
from engine.registry import GAMES  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
WIDTHS = (375, 1280)
LIVE = '.game-root:not(.replay-table) [data-testid="move"]:not([disabled]):not([aria-disabled="true"]), [data-testid="moves-bar"] [data-testid="move"]:not([disabled])'
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def serve(work: Path) -> tuple[subprocess.Popen, str]:
    url = f"sqlite+aiosqlite:///{work / 'campground.db'}"
    upgrade(url)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "BOT_DELAY": "0",
        "PUBLIC_URL": f"http://127.0.0.1:{port}",
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "app.main:app", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            urllib.request.urlopen(f"{base}/api/games", timeout=1).close()
            return proc, base
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


def shoot(page, name: str) -> None:
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(300)
        path = OUT / f"{name}-{width}.png"
        # The head, outcome, table and moves bar: the chat, replay and log below are left out.
        box = page.evaluate("""() => {
          const game = document.querySelector('.game').getBoundingClientRect();
          const table = document.querySelector('.game-root:not(.replay-table)');
          const bottom = (table.nextElementSibling || table).getBoundingClientRect().bottom;
          // 12 px of margin on each side keep the last move's badges in the picture.
          return { x: game.x + scrollX - 12, y: game.y + scrollY - 12, width: game.width + 24, height: bottom - game.y + 24 };
        }""")
        page.screenshot(path=path, clip=box, full_page=True, animations="disabled")
        print(f"{path.relative_to(ROOT)}  {path.stat().st_size // 1024} KB")
    page.set_viewport_size({"width": WIDTHS[0], "height": 900})


def shoot_page(page, name: str) -> None:
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(300)
        path = OUT / f"{name}-{width}.png"
        page.screenshot(path=path, full_page=True, animations="disabled")
        print(f"{path.relative_to(ROOT)}  {path.stat().st_size // 1024} KB")


def home(browser, base: str) -> None:
    """The home page with nobody waiting, then Ana waiting for Summer Camp beside Ben's open
    Hike table."""
    pages = []
    for name in ("Ana", "Ben"):
        context = browser.new_context(
            viewport={"width": WIDTHS[0], "height": 900}, base_url=base, reduced_motion="reduce"
        )
        page = context.new_page()
        page.goto("/")
        page.locator("#player-name-input").fill(name)
        page.locator("#player-name-input").press("Enter")
        page.get_by_test_id("player-name").wait_for()
        pages.append(page)
    ana, ben = pages
    ana.get_by_test_id("play-game").select_option("summer-camp")
    ana.get_by_test_id("seek-game").select_option("summer-camp")
    ana.get_by_test_id("nobody-waiting").wait_for()
    shoot_page(ana, "home-idle")
    ben.request.post("/api/lobbies", data={"game": "hike", "seats": 3, "private": False})
    ana.get_by_test_id("seek-game").select_option("")
    ana.get_by_test_id("seek").wait_for()
    ana.get_by_test_id("play-bots").uncheck()
    ana.get_by_test_id("play-now").click()
    ana.get_by_test_id("queue-status").wait_for()
    ana.wait_for_timeout(2500)
    shoot_page(ana, "home-waiting")
    for page in pages:
        page.context.close()


def play(browser, base: str, kind: str, mid: int) -> None:
    context = browser.new_context(
        viewport={"width": WIDTHS[0], "height": 900}, base_url=base, reduced_motion="reduce"
    )
    page = context.new_page()
    page.goto("/")
    page.locator("#player-name-input").fill("Ana")
    page.locator("#player-name-input").press("Enter")
    page.get_by_test_id(f"game-{kind}").click()
    page.get_by_test_id("create-lobby").click()
    page.wait_for_url("**/lobbies/*")
    for _ in range(GAMES[kind].min_players - 1):
        page.get_by_test_id("add-bot").first.click()
    page.get_by_test_id("start").click()
    page.wait_for_url("**/games/*")
    page.get_by_test_id("turn").wait_for()
    rng = random.Random(7)
    moves = 0
    deadline = time.monotonic() + 600
    while not page.get_by_test_id("outcome").is_visible():
        if time.monotonic() > deadline:
            raise SystemExit(f"{kind}: the game did not end")
        controls = page.locator(LIVE)
        count = controls.count()
        if not count:
            page.wait_for_timeout(50)
            continue
        try:
            controls.nth(rng.randrange(count)).click(timeout=2000)
        except Exception:  # the table was redrawn under the click
            continue
        moves += 1
        if moves == mid:
            page.wait_for_timeout(500)
            shoot(page, f"{kind}-mid")
    page.wait_for_timeout(300)
    shoot(page, f"{kind}-end")
    context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=sorted(GAMES))
    parser.add_argument(
        "--mid", type=int, default=14, help="your moves before the mid-game picture"
    )
    parser.add_argument("--home", action="store_true", help="the home page only")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        proc, base = serve(Path(tmp))
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(
                    executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS
                )
                if args.home:
                    home(browser, base)
                for kind in [] if args.home else args.games:
                    play(browser, base, kind, args.mid)
                browser.close()
        finally:
            proc.terminate()
            proc.wait()


if __name__ == "__main__":
    main()
