"""What the last move's animations cost the browser: Chromium's CPU per change of a table, with
motion on (what most players see) and with reduced motion (no animation), per game.

For each game and motion: a person's page at a table with bots (``BOT_DELAY`` 0.15 s, so
changes arrive one by one), the person's moves made through the API by the game's heuristic
bot; every Chromium process's CPU (from /proc, by process type) is read before and after, and
divided by the changes the page was sent (the game's versions). Unlike ``bench/redraw.py``,
which times the frame that draws a change, this counts every frame after it too: an animation
of a property the compositor cannot run alone (a shadow, a colour) is drawn again by the page
at every frame for as long as it lasts.

    .venv/bin/python bench/motion_cost.py [--games hike,pinetop] [--moves 20] [--width 375]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, _migrated, _server  # noqa: E402
from tests.browser.end_states import COOKIE, play, start  # noqa: E402

GAMES = ["hike", "summer-camp", "camping-life", "pinetop"]
TICK = os.sysconf("SC_CLK_TCK")


def chromium_cpu() -> Counter[str]:
    """CPU seconds so far of every live Chromium process, by its type (renderer, gpu-process,
    the browser itself...)."""
    kinds: Counter[str] = Counter()
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        if "chrom" not in command:
            continue
        fields = stat[stat.rfind(")") + 2 :].split()
        kind = next((a[7:] for a in command.split() if a.startswith("--type=")), "browser")
        kinds[kind] += (int(fields[11]) + int(fields[12])) / TICK
    return kinds


def measure(browser, base: str, kind: str, width: int, moves: int, motion: str) -> dict:
    ana, game_id = start(base, kind)
    context = browser.new_context(
        viewport={"width": width, "height": 900}, base_url=base, reduced_motion=motion
    )
    context.add_cookies([{"name": COOKIE, "value": ana.token, "url": base}])
    page = context.new_page()
    page.goto(f"/games/{game_id}")
    page.locator(f'[data-testid="{kind}"]').wait_for()
    page.wait_for_timeout(500)
    first = ana.get(f"/api/games/{game_id}/state").json()["version"]
    before = chromium_cpu()
    play(ana, game_id, kind, moves=moves)
    page.wait_for_timeout(1000)  # the last change drawn, its animations over
    after = chromium_cpu()
    changes = ana.get(f"/api/games/{game_id}/state").json()["version"] - first
    context.close()
    spent = {k: after[k] - before[k] for k in after if after[k] - before[k] > 0}
    return {"changes": changes, "cpu": spent}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--moves", type=int, default=20, help="the person's moves per table")
    parser.add_argument("--width", type=int, default=375)
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    work = Path(tempfile.mkdtemp())
    with _server(work, _migrated(work), BOT_DELAY="0.15") as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        print(f"Chromium CPU per change, ms, at {args.width} px ({args.moves} moves a table)")
        print(f"{'game':13} {'motion':14} {'changes':>7} {'all':>6} {'renderer':>8} {'gpu':>5}")
        for kind in args.games.split(","):
            for motion in ("no-preference", "reduce"):
                row = measure(browser, base, kind, args.width, args.moves, motion)
                n = max(1, row["changes"])
                cpu = row["cpu"]
                print(
                    f"{kind:13} {motion:14} {row['changes']:>7} "
                    f"{1000 * sum(cpu.values()) / n:>6.1f} "
                    f"{1000 * cpu.get('renderer', 0) / n:>8.1f} "
                    f"{1000 * cpu.get('gpu-process', 0) / n:>5.1f}",
                    flush=True,
                )
        browser.close()


if __name__ == "__main__":
    main()
