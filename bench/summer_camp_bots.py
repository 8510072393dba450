"""Summer Camp: the heuristic bot against the random bot, playout speed, and patch sizes.

    .venv/bin/python bench/summer_camp_bots.py [games]

Seats alternate: the heuristic bot is Red in even seeds and Blue in odd ones; every game uses
the default packs. Then one seeded 4-player game between heuristic bots is replayed, and for
every move and every seat the JSON Patch the server would send (``app.patch.make_patch``) is
measured beside that seat's full view.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time

from app.patch import make_patch
from engine.core import full_view, play
from engine.playout import play_out
from engine.summer_camp import GAME


def bots(games: int) -> None:
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
    took = time.perf_counter() - start
    print(f"heuristic vs random, {games} games: won {wins} ({wins / games:.1%}), "
          f"shared {ties}, mean score margin {sum(margins) / games:+.1f}")
    print(f"  {games / took:.1f} games/s, {steps / took:.0f} steps/s "
          f"({steps / games:.1f} steps a game)")


def size(doc) -> int:
    return len(json.dumps(doc, separators=(",", ":")))


def patches(seed: int = 1) -> None:
    state = GAME.setup(4, GAME.options(None), seed)
    rng = random.Random(seed)
    seats = [*range(4), None]
    views = {s: full_view(GAME, state, s) for s in seats}
    patch_sizes, view_sizes = [], []
    while GAME.outcome(state) is None:
        seat = GAME.to_act(state)[0]
        legal = GAME.legal_moves(state, seat)
        state = play(GAME, state, seat, GAME.bots["heuristic"](views[seat], legal, rng))
        for s in seats:
            view = full_view(GAME, state, s)
            patch_sizes.append(size(make_patch(views[s], view)))
            view_sizes.append(size(view))
            views[s] = view
    print(f"4-player heuristic game (seed {seed}), {len(patch_sizes) // 5} moves, 4 seats and "
          f"a spectator: median patch {statistics.median(patch_sizes):,.0f} B, "
          f"p95 {sorted(patch_sizes)[len(patch_sizes) * 95 // 100]:,} B; "
          f"median full view {statistics.median(view_sizes):,.0f} B, "
          f"last {view_sizes[-1]:,} B")


if __name__ == "__main__":
    bots(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
    patches()
