"""Camping Life: the heuristic bot against the random bot, and playout speed.

    .venv/bin/python bench/camping_life_bots.py [games]

Seats alternate: the heuristic bot is Red in even seeds and Blue in odd ones.
"""

from __future__ import annotations

import sys
import time

from engine.camping_life import GAME
from engine.playout import play_out


def main(games: int = 500) -> None:
    wins = ties = steps = 0
    margins = []
    start = time.perf_counter()
    for seed in range(games):
        seats = ["heuristic", "random"] if seed % 2 == 0 else ["random", "heuristic"]
        me = seats.index("heuristic")
        result = play_out(GAME, 2, seed, seats)
        outcome = GAME.outcome(result.state)
        steps += result.steps
        wins += outcome.winners == [me]
        ties += len(outcome.winners) == 2
        margins.append(outcome.scores[me] - outcome.scores[1 - me])
    mixed = time.perf_counter() - start

    start = time.perf_counter()
    random_steps = sum(play_out(GAME, 2, seed, ["random", "random"]).steps
                       for seed in range(games))
    pure = time.perf_counter() - start

    print(f"heuristic vs random, {games} games: won {wins} ({wins / games:.1%}), "
          f"shared {ties}, mean score margin {sum(margins) / games:+.1f}")
    print(f"  {games / mixed:.1f} games/s, {steps / mixed:.0f} steps/s "
          f"({steps / games:.1f} steps a game)")
    print(f"random vs random: {games / pure:.1f} games/s, {random_steps / pure:.0f} steps/s "
          f"({random_steps / games:.1f} steps a game)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 500)
