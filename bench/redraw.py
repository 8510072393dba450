"""The table's redraw in a real browser: this client against an older one, side by side.

Starts two servers (SQLite each): this checkout's, and one from ``--old DIR`` (a checkout of
an older commit, e.g. ``git worktree add /tmp/redraw-old <commit>``), then in headless
Chromium, for each client in turn:

* **redraw**, per game and width (375 and 1280 px): a person's page at a table with bots
  (``BOT_DELAY`` 0.15 s, so changes arrive one by one), the person's moves made through the
  API by the game's heuristic bot, to the end of the game (or ``--moves``). For every change
  the page is sent: *CPU*, the page's main-thread CPU time for it (from a trace: the task that
  took the message in and the frame's task that drew and painted it; the figure that holds on
  a loaded machine), *wall*, from the start of the frame that drew it to the end of that
  frame's paint (a message posted from the drawing runs once the frame is painted), and
  *latency*, from the message's arrival to the same point. Median and p95.
* **click**, two people at a Hike table, each in a browser context of their own: a click on
  a move control of the page whose turn it is, to the other page painted with it, over
  ``--clicks`` clicks (p50 and p90).
* **first load**, per game: a fresh context opening a table, from navigation to its turn
  line drawn (cold), then the same page opened again in that context (warm: cached).

    .venv/bin/python bench/redraw.py --old /tmp/redraw-old
    .venv/bin/python bench/redraw.py --old /tmp/redraw-old --games hike --moves 60 --clicks 50
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

import httpx
from playwright.sync_api import TimeoutError as PlaywrightTimeout

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.registry import get_game  # noqa: E402
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, _migrated, _server  # noqa: E402
from tests.browser.end_states import COOKIE, person  # noqa: E402

GAMES = ["hike", "summer-camp", "camping-life", "pinetop"]
WIDTHS = [375, 1280]

# Counts each change the page is sent and times its drawing: a frame's start (the first
# animation-frame callback of that frame), a DOM change while a change waits, then a message
# posted from there, which runs once that frame is painted.
PROBE = """(() => {
  const Native = window.WebSocket;
  const R = window.redrawProbe = { pending: null, frameStart: null, frameTs: null, samples: [] };
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (e) => {
        const type = JSON.parse(e.data).type;
        if ((type === "patch" || type === "state") && R.pending === null) {
          R.pending = performance.now();
          performance.mark("redraw-received");
        }
      });
    }
  };
  const frame = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (cb) => frame((ts) => {
    if (R.frameTs !== ts) { R.frameTs = ts; R.frameStart = performance.now(); }
    cb(ts);
  });
  const channel = new MessageChannel();
  let posted = false;
  channel.port1.onmessage = () => {
    posted = false;
    if (R.pending === null) return;
    const end = performance.now();
    const start = R.frameStart !== null && R.frameStart >= R.pending ? R.frameStart : R.pending;
    R.samples.push({ work: end - start, latency: end - R.pending, at: performance.timeOrigin + end,
      since: performance.timeOrigin + R.pending });
    R.pending = null;
  };
  new MutationObserver(() => {
    if (R.pending !== null && !posted) {
      posted = true;
      performance.mark("redraw-drawn");
      channel.port2.postMessage(0);
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
})()"""

TURN_DRAWN = """() => {
  const turn = document.querySelector('[data-testid="turn"]');
  return turn && turn.textContent.trim() && document.querySelector('.game-root > *:not(p.muted)')
    ? performance.now() : false;
}"""


def migrated(work: Path, code: Path) -> str:
    """A database for the checkout ``code``, migrated by that checkout's own migrations: an
    older one refuses a schema newer than its own."""
    if code == ROOT:
        return _migrated(work)
    url = f"sqlite+aiosqlite:///{work / 'campground.db'}"
    subprocess.run(
        [sys.executable, "-c", f"from app.migrate import upgrade; upgrade({url!r})"],
        cwd=code,
        check=True,
    )
    return url


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def new_table(
    base: str, kind: str, people: int = 1, bots: int = 1
) -> tuple[list[httpx.Client], str]:
    """People at seats 0.., then heuristic bots; no clock (no countdown ticking on the page)."""
    clients = [person(base, f"P{i + 1}") for i in range(people)]
    host = clients[0]
    r = host.post("/api/lobbies", json={"game": kind, "seats": people + bots, "turn_seconds": None})
    r.raise_for_status()
    lobby = r.json()
    for other in clients[1:]:
        other.post(
            "/api/lobbies/join", json={"invite_code": lobby["invite_code"]}
        ).raise_for_status()
    level = "heuristic" if "heuristic" in get_game(kind).bots else "random"
    for seat in range(people, people + bots):
        host.post(
            f"/api/lobbies/{lobby['id']}/bots", json={"seat": seat, "level": level}
        ).raise_for_status()
    r = host.post(f"/api/lobbies/{lobby['id']}/start")
    r.raise_for_status()
    return clients, r.json()["game_id"]


def play_seat(client: httpx.Client, game_id: str, kind: str, moves: int | None) -> int:
    """The person's moves by the heuristic bot through the API, to the end (or ``moves``)."""
    game = get_game(kind)
    bot = game.bots.get("heuristic") or game.bots["random"]
    rng = random.Random(1)
    made = 0
    while moves is None or made < moves:
        now = client.get(f"/api/games/{game_id}/state").json()
        view = now["view"]
        if view["table"]["status"] != "active":
            break
        if view["you"] not in view["to_act"]:
            time.sleep(0.02)
            continue
        view["legal_moves"] = [e for e in view["legal_moves"] if e["move"]["type"] != "undo"]
        chosen = bot(view, [game.parse_move(e["move"]) for e in view["legal_moves"]], rng)
        chosen = chosen if isinstance(chosen, dict) else chosen.model_dump(mode="json")
        r = client.post(
            f"/api/games/{game_id}/moves", json={"move": chosen, "expect_version": now["version"]}
        )
        made += r.status_code == 200
    time.sleep(0.5)  # the last changes drawn
    return made


def open_page(browser, base: str, client: httpx.Client, width: int):
    context = browser.new_context(viewport={"width": width, "height": 800}, base_url=base)
    context.add_cookies([{"name": COOKIE, "value": client.token, "url": base}])
    context.add_init_script(PROBE)
    return context, context.new_page()


def cpu_per_change(trace: bytes) -> list[float]:
    """The page's main-thread CPU for each change, in ms, from a trace with the probe's marks:
    the task that took the message in, plus the frame's task that drew and painted it."""
    events = json.loads(trace)
    events = events["traceEvents"] if isinstance(events, dict) else events
    tasks: dict[tuple, list[dict]] = {}
    for e in events:
        if (
            e.get("name") in ("RunTask", "ThreadControllerImpl::RunTask")
            and e.get("ph") == "X"
            and "tdur" in e
        ):
            tasks.setdefault((e["pid"], e["tid"]), []).append(e)
    marks = sorted(
        {
            (e["ts"], e["name"], e["pid"], e["tid"])
            for e in events
            if e.get("name") in ("redraw-received", "redraw-drawn")
        }
    )

    def task_at(ts: float, pid: int, tid: int) -> dict | None:
        around = [t for t in tasks.get((pid, tid), []) if t["ts"] <= ts <= t["ts"] + t["dur"]]
        return max(around, key=lambda t: t["dur"]) if around else None

    found = []
    received = None
    for ts, name, pid, tid in marks:
        if name == "redraw-received":
            received = task_at(ts, pid, tid)
        elif received is not None:
            drawn = task_at(ts, pid, tid)
            if drawn is not None:
                found.append(
                    (received["tdur"] + (drawn["tdur"] if drawn is not received else 0)) / 1000
                )
            received = None
    return found


def redraw(
    browser, base: str, kind: str, width: int, moves: int | None
) -> tuple[list[dict], list[float]]:
    (ana,), game_id = new_table(base, kind, bots=2 if kind != "camping-life" else 1)
    context, page = open_page(browser, base, ana, width)
    page.goto(f"/games/{game_id}")
    page.wait_for_function(TURN_DRAWN)
    page.evaluate("() => { window.redrawProbe.samples = []; }")
    browser.start_tracing(page=page, categories=["toplevel", "blink.user_timing"])
    play_seat(ana, game_id, kind, moves)
    cpu = cpu_per_change(browser.stop_tracing())
    samples = page.evaluate("() => window.redrawProbe.samples")
    context.close()
    return samples, cpu


def clicks(browser, base: str, count: int, rng: random.Random) -> list[float]:
    """Click → the other page painted, in ms, over ``count`` clicks at two-person Hike tables."""
    found: list[float] = []
    while len(found) < count:
        people, game_id = new_table(base, "hike", people=2, bots=0)
        pages = []
        for client in people:
            context, page = open_page(browser, base, client, 1280)
            page.goto(f"/games/{game_id}")
            page.wait_for_function(TURN_DRAWN)
            pages.append((context, page))
        misses = 0
        while len(found) < count and misses < 20:
            mine = [
                p
                for _, p in pages
                if p.evaluate(
                    "() => { const t = document.querySelector('[data-testid=\"turn\"]');"
                    " return !!t && t.classList.contains('yours') && !t.textContent.includes('sending')"
                    " && !document.querySelector('[data-testid=\"outcome\"]'); }"
                )
            ]
            if any(p.query_selector('[data-testid="outcome"]') for _, p in pages):
                break
            if len(mine) != 1:  # nobody's turn drawn yet, or both decide at once
                misses += 1
                time.sleep(0.05)
                continue
            clicker = mine[0]
            other = next(p for _, p in pages if p is not clicker)
            seen = other.evaluate("() => window.redrawProbe.samples.length")
            at = clicker.evaluate(
                """(pick) => {
              const controls = [...document.querySelectorAll('[data-testid="move"]:not(.undo-step):not([disabled])')];
              if (!controls.length) return null;
              const el = controls[Math.floor(pick * controls.length)];
              const at = performance.timeOrigin + performance.now();
              el.click();
              return at;
            }""",
                rng.random(),
            )
            if at is None:
                misses += 1
                continue
            try:
                other.wait_for_function(
                    "(n) => window.redrawProbe.samples.length > n", arg=seen, timeout=3000
                )
            except PlaywrightTimeout:  # this change showed the other seat nothing new
                misses += 1
                continue
            sample = other.evaluate("(n) => window.redrawProbe.samples[n]", seen)
            found.append(sample["at"] - at)
            misses = 0
            clicker.wait_for_function(
                "() => !document.querySelector('[data-testid=\"turn\"]')?.textContent.includes('sending')"
            )
        for context, _ in pages:
            context.close()
    return found


def first_load(browser, base: str, kind: str) -> tuple[float, float]:
    (ana,), game_id = new_table(base, kind)
    context = browser.new_context(viewport={"width": 1280, "height": 800}, base_url=base)
    context.add_cookies([{"name": COOKIE, "value": ana.token, "url": base}])
    page = context.new_page()
    page.goto(f"/games/{game_id}", wait_until="commit")
    cold = page.wait_for_function(TURN_DRAWN, polling="raf").json_value()
    page.goto("/", wait_until="load")
    page.goto(f"/games/{game_id}", wait_until="commit")
    warm = page.wait_for_function(TURN_DRAWN, polling="raf").json_value()
    context.close()
    return cold, warm


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--old", type=Path, required=True, help="a checkout of the older client and server"
    )
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument(
        "--moves", type=int, default=None, help="the person's moves per game (default: to the end)"
    )
    parser.add_argument("--clicks", type=int, default=200)
    parser.add_argument("--loads", type=int, default=3, help="first loads per game and client")
    args = parser.parse_args()
    games = args.games.split(",")

    from playwright.sync_api import sync_playwright

    with ExitStack() as stack:
        bases = {}
        for name, code in (("old", args.old.resolve()), ("new", ROOT)):
            work = Path(stack.enter_context(tempfile.TemporaryDirectory()))
            bases[name] = stack.enter_context(
                _server(work, migrated(work, code), name, cwd=code, BOT_DELAY="0.15")
            )
        pw = stack.enter_context(sync_playwright())
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        results: dict = {"redraw": {}, "click": {}, "load": {}}

        print("redraw: a change drawn and painted, ms (work: the frame; latency: from its arrival)")
        for kind in games:
            for width in WIDTHS:
                row = {}
                for name in ("old", "new"):
                    samples, cpu = redraw(browser, bases[name], kind, width, args.moves)
                    work = [s["work"] for s in samples]
                    lat = [s["latency"] for s in samples]
                    row[name] = {
                        "n": len(samples),
                        "cpu_p50": statistics.median(cpu),
                        "cpu_p95": quantile(cpu, 0.95),
                        "work_p50": statistics.median(work),
                        "work_p95": quantile(work, 0.95),
                        "latency_p50": statistics.median(lat),
                        "latency_p95": quantile(lat, 0.95),
                    }
                results["redraw"][f"{kind}@{width}"] = row
                o, n = row["old"], row["new"]
                print(
                    f"  {kind:13} {width:5} px  CPU p50 {o['cpu_p50']:5.1f} → {n['cpu_p50']:4.1f} "
                    f"({o['cpu_p50'] / n['cpu_p50']:.1f}×), p95 {o['cpu_p95']:5.1f} → {n['cpu_p95']:4.1f}; "
                    f"wall p50 {o['work_p50']:6.1f} → {n['work_p50']:5.1f} ({o['work_p50'] / n['work_p50']:.1f}×), "
                    f"p95 {o['work_p95']:6.1f} → {n['work_p95']:5.1f}; "
                    f"latency p50 {o['latency_p50']:6.1f} → {n['latency_p50']:5.1f}, p95 {o['latency_p95']:6.1f} → "
                    f"{n['latency_p95']:5.1f}  ({o['n']}/{n['n']} changes)",
                    flush=True,
                )

        print(f"click → the other page painted, ms, {args.clicks} clicks")
        rng = random.Random(7)
        for name in ("old", "new") if args.clicks else ():
            found = clicks(browser, bases[name], args.clicks, rng)
            results["click"][name] = {
                "p50": statistics.median(found),
                "p90": quantile(found, 0.9),
                "n": len(found),
            }
            print(
                f"  {name}: p50 {statistics.median(found):.1f}, p90 {quantile(found, 0.9):.1f}",
                flush=True,
            )

        print(
            "first load: navigation → the turn line drawn, ms (cold cache / warm), median of "
            f"{args.loads}"
        )
        for kind in games if args.loads else ():
            line = []
            for name in ("old", "new"):
                loads = [first_load(browser, bases[name], kind) for _ in range(args.loads)]
                cold = statistics.median(c for c, _ in loads)
                warm = statistics.median(w for _, w in loads)
                results["load"][f"{kind}/{name}"] = {"cold": cold, "warm": warm}
                line.append(f"{name} {cold:6.0f} / {warm:5.0f}")
            print(f"  {kind:13} " + "  ".join(line), flush=True)
        browser.close()
        print(json.dumps(results))


if __name__ == "__main__":
    main()
