"""What setting up one game costs the server: two new players, a lobby, a join, the start,
and both seats opening the game socket and receiving their state, one game after another.

As fast as games are played, setting them up is part of the load: a Camping Life game is
about 100 moves long, so its set-up weighs as much as a fifth of its moves. Prints the
server's CPU milliseconds per game set up (the best of ``--rounds`` rounds) and the wall
time per game.

    .venv/bin/python bench/setup_cost.py --postgres --game camping-life
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

import aiohttp
import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load import (  # noqa: E402
    DEFAULT_POSTGRES,
    Slot,
    Stats,
    database,
    interpreter,
    process_cpu,
    servers,
    upgrade,
)


async def set_up(base: str, game: str, games: int, pid: int) -> tuple[float, float]:
    """Server CPU seconds and wall seconds per game set up."""
    http = [httpx.AsyncClient(base_url=base, timeout=60)]
    ws_base = base.replace("http", "ws", 1)
    async with aiohttp.ClientSession() as sockets:
        slot = Slot(0, Stats(), [ws_base], game, True, sockets)
        cpu, started = process_cpu([pid]), time.perf_counter()
        for _ in range(games):
            game_id, seats = await slot.new_game(http)
            for seat in seats:
                await seat.open(sockets, f"{ws_base}/ws/games/{game_id}")
            for seat in seats:
                while not seat.view:
                    await asyncio.sleep(0.001)
            for seat in seats:
                await seat.close()
        spent = (process_cpu([pid]) - cpu) / games, (time.perf_counter() - started) / games
    await http[0].aclose()
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="hike")
    parser.add_argument("--games", type=int, default=200, help="games set up per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--postgres", nargs="?", const=DEFAULT_POSTGRES, default=None, metavar="URL"
    )
    parser.add_argument(
        "--python",
        default=sys.executable,
        metavar="PATH",
        help="interpreter that runs the server (default: this one)",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, database(args.postgres, tmp) as url:
        upgrade(url)
        with servers(url, 1, 1, None, args.python) as up:
            process, base = up[0]
            asyncio.run(set_up(base, args.game, 20, process.pid))  # warm-up
            runs = []
            for i in range(args.rounds):
                runs.append(asyncio.run(set_up(base, args.game, args.games, process.pid)))
                cpu, wall = runs[-1]
                print(
                    f"round {i + 1}: {cpu * 1000:.1f} ms of server CPU per game set up, "
                    f"{wall * 1000:.1f} ms wall",
                    file=sys.stderr,
                )
    cpu, wall = min(runs)
    where = "PostgreSQL" if args.postgres else "SQLite"
    print(f"server on {interpreter(args.python)}")
    print(
        f"{args.game} on {where}: {cpu * 1000:.1f} ms of server CPU per game set up "
        f"(best of {args.rounds} rounds of {args.games}), {wall * 1000:.1f} ms wall"
    )


if __name__ == "__main__":
    main()
