"""The log hides what the views hide: a move made on a table whose hidden cards are permuted
(the move itself mapped through the permutation) must log the same lines, unless what the
move shows makes the two tables look different afterwards."""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.core import Game

# ``permute(state, viewer, actor, rng)``: a copy of the state in which the cards ``viewer``
# may not see are shuffled among the places hidden from them, and a function that maps a
# move of ``actor`` to the same move on that copy.
Permute = Callable[..., tuple[object, Callable[[object], object]]]


def assert_log_hides(
    game: Game,
    permute: Permute,
    seeds: range,
    players: int,
    options: dict | None = None,
    every: int = 1,
) -> int:
    """Plays ``seeds`` random games; returns how many moves were compared."""
    compared = 0
    for seed in seeds:
        rng = random.Random(seed)
        s = game.setup(players, game.options(options), seed)
        step = 0
        while game.outcome(s) is None:
            seat = game.to_act(s)[0]
            move = rng.choice(game.legal_moves(s, seat))
            t = game.apply(s, seat, move)
            if step % every == 0:
                for viewer in (None, *range(players)):
                    if viewer == seat:
                        continue
                    s2, remap = permute(s, viewer, seat, rng)
                    assert game.view(s2, viewer) == game.view(s, viewer), (seed, step)
                    move2 = remap(move)
                    if move2 not in game.legal_moves(s2, seat):
                        continue
                    t2 = game.apply(s2, seat, move2)
                    if game.view(t2, viewer) != game.view(t, viewer):
                        continue  # the move showed a card the permutation changed
                    lines = [e.text for e in t.log[len(s.log) :]]
                    assert [e.text for e in t2.log[len(s2.log) :]] == lines, (
                        seed,
                        step,
                        viewer,
                        move,
                    )
                    compared += 1
            s = t
            step += 1
    return compared


def shuffled_among(rng: random.Random, zones: list[list[int]]) -> dict[int, int]:
    """Shuffles the cards of ``zones`` among them in place, keeping each zone's size; the
    permutation, old card to new card at the same place."""
    pool = [c for z in zones for c in z]
    new = list(pool)
    rng.shuffle(new)
    at = iter(new)
    for z in zones:
        z[:] = [next(at) for _ in z]
    return dict(zip(pool, new))
