"""Steps per CPU second of bot-only playouts (``engine.playout.play_out``, what ``campground
simulate`` runs), per game and bot level, with a digest of the final states.

    .venv/bin/python bench/playout_speed.py [--games N] [--code DIR] [GAME:LEVEL ...]

Each case plays N seeded games (seeds 1..N, the fewest players, every seat the same level) and
times them with ``time.process_time``, so the figure is CPU, whatever else the machine runs.
``--code DIR`` runs another checkout's engine (``git worktree add DIR COMMIT``): two versions
that print the same digest played the same games, move for move. Default cases: every game
with the random and the heuristic bot.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("cases", nargs="*", help="GAME:LEVEL, e.g. pinetop:random")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--code", default=str(Path(__file__).resolve().parent.parent))
    args = parser.parse_args()
    sys.path.insert(0, args.code)
    from engine.playout import play_out
    from engine.registry import GAMES

    cases = args.cases or [f"{g}:{level}" for g in ("summer-camp", "pinetop", "hike",
                                                    "camping-life")
                           for level in ("random", "heuristic")]
    for case in cases:
        game_id, level = case.split(":")
        game = GAMES[game_id]
        digest = hashlib.sha256()
        steps = 0
        start = time.process_time()
        for seed in range(1, args.games + 1):
            result = play_out(game, game.min_players, seed, [level] * game.min_players)
            steps += result.steps
            digest.update(game.dump_json(result.state).encode())
        cpu = time.process_time() - start
        print(f"{game_id:13} {level:10} {steps:8,} steps {cpu:6.2f} s CPU "
              f"{steps / cpu:9,.0f} steps/s  digest {digest.hexdigest()[:12]}", flush=True)


if __name__ == "__main__":
    main()
