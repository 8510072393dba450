"""Camp Pinetop: the heuristic bot against the random bot, and playout speed.

    .venv/bin/python bench/pinetop_bots.py [games]

Two players, base game; seats alternate: the heuristic bot is Red in even seeds and Blue in
odd ones. Then the same with every module on, and four players (one heuristic bot against
three random ones).
"""

from __future__ import annotations

import sys
import time

from engine.pinetop import GAME
from engine.playout import play_out

MODULES = {"friendship": True, "nature": True, "tower": True}


def duel(games: int, options: dict, players: int = 2) -> None:
    wins = steps = 0
    start = time.perf_counter()
    for seed in range(games):
        me = seed % players
        seats = ["random"] * players
        seats[me] = "heuristic"
        result = play_out(GAME, players, seed, seats, options)
        steps += result.steps
        wins += GAME.outcome(result.state).winners == [me]
    took = time.perf_counter() - start
    label = "all modules" if options else "base game"
    print(f"heuristic vs {players - 1} random, {label}, {games} games: won {wins} "
          f"({wins / games:.1%}; a random seat would win {1 / players:.0%})")
    print(f"  {games / took:.1f} games/s, {steps / took:.0f} steps/s "
          f"({steps / games:.1f} steps a game)")


def main(games: int = 200) -> None:
    duel(games, {})
    duel(games, MODULES)
    duel(games, {}, players=4)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
