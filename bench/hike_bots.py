"""Let's Take a Hike: the heuristic bot against the random bot.

Plays seeded 2-player games, the heuristic bot alternating between seats, and prints the
heuristic bot's win rate (a shared win counts as half), games per second and steps per second.

    .venv/bin/python bench/hike_bots.py [--games 500] [--seed 1]
"""

from __future__ import annotations

import argparse
import time

from engine.hike import GAME
from engine.playout import play_out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game")
    args = parser.parse_args()

    wins = 0.0
    steps = 0
    margin = 0
    started = time.perf_counter()
    for i in range(args.games):
        seat = i % 2
        bots = ["heuristic", "random"] if seat == 0 else ["random", "heuristic"]
        result = play_out(GAME, 2, args.seed + i, bots)
        outcome = GAME.outcome(result.state)
        if seat in outcome.winners:
            wins += 1 / len(outcome.winners)
        margin += outcome.scores[seat] - outcome.scores[1 - seat]
        steps += result.steps
    elapsed = time.perf_counter() - started

    print(f"Let's Take a Hike, {args.games} games, 2 players: heuristic vs random")
    print(f"heuristic win rate  {100 * wins / args.games:.1f}%")
    print(f"mean miles margin   {margin / args.games:+.1f}")
    print(f"games/s             {args.games / elapsed:.1f}")
    print(f"steps/s             {steps / elapsed:,.0f}")
    print(f"average length      {steps / args.games:.1f} moves")


if __name__ == "__main__":
    main()
