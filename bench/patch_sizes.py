"""Patch size against view size over whole games, for every game: random bots, two seats
(or the fewest a game allows), each seat's view after every move and the patch from its
previous view, measured as the socket messages that carry them.

    .venv/bin/python bench/patch_sizes.py [--games 20]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.patch import make_patch  # noqa: E402
from engine.core import full_view, play  # noqa: E402
from engine.registry import GAMES  # noqa: E402


def measure(game, seed: int) -> tuple[list[int], list[int]]:
    players = max(2, game.min_players)
    state = game.setup(players, game.options({}), seed)
    rng = random.Random(seed)
    last = {s: full_view(game, state, s) for s in range(players)}
    patches, views = [], []
    while game.outcome(state) is None:
        seat = game.to_act(state)[0]
        state = play(game, state, seat, rng.choice(game.legal_moves(state, seat)))
        for s in range(players):
            view = full_view(game, state, s)
            ops = make_patch(last[s], view)
            last[s] = view
            patches.append(len(json.dumps({"type": "patch", "from": 0, "version": 0, "ops": ops})))
            views.append(len(json.dumps({"type": "state", "version": 0, "view": view})))
    return patches, views


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    print(f"{'game':<14} {'median patch':>12} {'median view':>12} {'ratio':>6}")
    for game in GAMES.values():
        patches, views = [], []
        for seed in range(args.games):
            p, v = measure(game, seed)
            patches += p
            views += v
        patch, view = statistics.median(patches), statistics.median(views)
        print(f"{game.id:<14} {patch:>12,.0f} {view:>12,.0f} {patch / view:>6.0%}")


if __name__ == "__main__":
    main()
