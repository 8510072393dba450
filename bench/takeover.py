"""How soon a bot's turn is played after the instance that owned it dies.

Two app processes on one database (SQLite in a temporary file, or ``--postgres URL``, a
database that must exist and be migrated) and the local Redis; a game against a random bot on
the first instance; the person's move hands the turn to the bot, then the first instance is
killed with SIGKILL. Prints, per trial, the seconds until the bot's move shows on the survivor
(the deadline is ``BOT_DELAY`` after the move; the survivor polls every ``DEADLINE_POLL``).

    .venv/bin/python bench/takeover.py [--trials 5] [--postgres URL]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.migrate import upgrade  # noqa: E402
from tests.app.processes import spawned  # noqa: E402


def trial(work: Path, url: str, settings: dict) -> float:
    with (
        spawned(work / "a.log", url, **settings) as a,
        spawned(work / "b.log", url, **settings) as b,
    ):
        ana = a.guest("Ana")
        game_id = a.start_game(ana, bots=("random",))
        state = a.state(ana, game_id)
        while 0 in state["view"]["to_act"]:
            move = state["view"]["legal_moves"][-1]["move"]
            body = {"move": move, "expect_version": state["version"]}
            state = ana.post(f"/api/games/{game_id}/moves", json=body).json()
        a.kill()
        killed = time.monotonic()
        survivor = b.client()
        survivor.headers["Authorization"] = f"Bearer {ana.token}"
        b.wait_for(survivor, game_id, lambda s: s["version"] > state["version"], tries=5000)
        return time.monotonic() - killed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=5)
    parser.add_argument("--postgres", metavar="URL")
    parser.add_argument("--bot-delay", type=float, default=0.6)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp())
    url = args.postgres or f"sqlite+aiosqlite:///{work / 'takeover.db'}"
    if not args.postgres:
        upgrade(url)
    settings = {
        "REDIS_URL": "redis://127.0.0.1:6379/0",
        "REDIS_PREFIX": f"takeover-{uuid.uuid4().hex[:8]}:",
        "BOT_DELAY": args.bot_delay,
    }
    times = [trial(work, url, settings) for _ in range(args.trials)]
    for i, seconds in enumerate(times):
        print(f"trial {i}: the bot moved {seconds:.2f} s after kill -9")
    print(
        f"median {statistics.median(times):.2f} s, worst {max(times):.2f} s "
        f"(BOT_DELAY {args.bot_delay}, DEADLINE_POLL 1)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
