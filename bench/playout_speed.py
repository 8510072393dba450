"""Steps per CPU second of random games, every game, on the bots' path and the people's, beside
a fixed pure-Python yardstick so the figures carry from machine to machine.

    .venv/bin/python bench/playout_speed.py [--steps N] [--code DIR] [--level L] [GAME ...]

Each case plays seeded games (seeds 1, 2, ... until ``--steps`` steps are played; every
seat's move drawn by a seeded ``random.Random`` from the legal moves, or chosen by
``--level``'s bot) at the fewest and the most players, Camp Pinetop also with every module,
and times them with ``time.process_time``: CPU, whatever else the machine runs. Each case's
games are played once untimed first, so that both paths meet the engine's caches warm (the
path timed first used to meet them cold: Camp Pinetop's payments with every module). Two
paths:

- bots: ``engine.core.step(..., take_back=False)``, i.e. ``Game.advance``, what playouts and
  searches run;
- people: ``engine.core.play``, i.e. ``Game.apply``, the checks of a person's move and the
  undo points kept.

The yardstick is the same pure-Python loop every time (``yardstick``), timed before and after
the cases; ``per 1k loops`` is steps per CPU second divided by the yardstick's thousands of
loops per CPU second, a figure that moves with the code, not with the machine's speed.
``--code DIR`` runs another checkout's engine (``git archive COMMIT engine | tar -x -C DIR``):
equal digests mean both played the same games, state for state.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import statistics
import sys
import time
from pathlib import Path

ALL_MODULES = {"friendship": True, "nature": True, "tower": True}
YARDSTICK_LOOPS = 300_000


def yardstick(loops: int = YARDSTICK_LOOPS) -> float:
    """CPU seconds for a fixed loop of what engines do most: calls, attribute and dict reads,
    small lists. Never change it: its figure is the unit of ``per loop``."""

    class Box:
        __slots__ = ("n",)

        def __init__(self) -> None:
            self.n = 0

    def bump(box: Box, table: dict, i: int) -> int:
        box.n += table[i & 15]
        return box.n

    table = {i: i * 3 for i in range(16)}
    box = Box()
    start = time.process_time()
    for i in range(loops):
        row = [i, i + 1, i + 2]
        bump(box, table, row[i % 3])
        if box.n > 1 << 20:
            box.n = 0
    return time.process_time() - start


def loops_per_second() -> float:
    """The median of five runs of ``yardstick``: the machine's speed at this moment."""
    return YARDSTICK_LOOPS / statistics.median(yardstick() for _ in range(5))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "games_to_run", nargs="*", metavar="GAME", help="game ids (default: every game)"
    )
    parser.add_argument(
        "--steps", type=int, default=4000, help="each case plays whole games until this many steps"
    )
    parser.add_argument(
        "--level", default="random", help="random: uniform among the legal moves; else a bot level"
    )
    parser.add_argument("--code", default=str(Path(__file__).resolve().parent.parent))
    args = parser.parse_args()
    sys.path.insert(0, args.code)
    from engine.bots import decide
    from engine.core import play, step
    from engine.registry import GAMES

    def run(game, players: int, options: dict, path: str) -> tuple[int, float, str]:
        digest = hashlib.sha256()
        steps = 0
        bot = game.bots.get(args.level)
        start = time.process_time()
        seed = 0
        while steps < args.steps:
            seed += 1
            state = game.setup(players, game.options(options), seed)
            rng = random.Random(seed)
            while game.outcome(state) is None:
                seat = game.to_act(state)[0]
                legal = game.legal_moves(state, seat)
                if args.level == "random":
                    move = legal[rng.randrange(len(legal))]
                else:
                    move = decide(game, bot, state, seat, legal, rng)
                    if isinstance(move, dict):
                        move = game.parse_move(move)
                if path == "bots":
                    state = step(game, state, seat, move, take_back=False)
                else:
                    state = play(game, state, seat, move)
                steps += 1
            digest.update(game.dump_json(state).encode())
        return steps, time.process_time() - start, digest.hexdigest()[:12]

    before = loops_per_second()
    print(f"yardstick: {before:,.0f} loops per CPU second ({args.code})", flush=True)
    print(
        f"{'game':13} {'players':>7} {'modules':7} {'path':6} {'steps':>8} {'CPU s':>6} "
        f"{'steps/s':>8} {'per 1k loops':>12}  digest"
    )
    for game_id in args.games_to_run or ["hike", "summer-camp", "camping-life", "pinetop"]:
        game = GAMES[game_id]
        variants = [({}, "-")] + ([(ALL_MODULES, "all")] if game_id == "pinetop" else [])
        for players in sorted({game.min_players, game.max_players}):
            for options, modules in variants:
                # The same games once untimed first: the engine's caches (Camp Pinetop's
                # payments) are then as warm for the first path timed as for the second.
                run(game, players, options, "bots")
                rates = {}
                for path in ("bots", "people"):
                    steps, cpu, digest = run(game, players, options, path)
                    rates[path] = steps / cpu
                    print(
                        f"{game_id:13} {players:7} {modules:7} {path:6} {steps:8,} "
                        f"{cpu:6.2f} {steps / cpu:8,.0f} {steps / cpu / before * 1000:12.2f}  "
                        f"{digest}",
                        flush=True,
                    )
                print(
                    f"{'':37} people / bots: {rates['bots'] / rates['people']:.2f}× slower",
                    flush=True,
                )
    after = loops_per_second()
    print(
        f"yardstick: {after:,.0f} loops per CPU second after the cases "
        f"({after / before - 1:+.0%} against before)"
    )


if __name__ == "__main__":
    main()
