"""Bot-only games: used by ``campground simulate``, the tests and the benchmarks."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.bots import decide
from engine.core import BaseState, Game, M, S, step


@dataclass
class Playout:
    state: BaseState
    steps: int


def play_out(
    game: Game[S, M],
    players: int,
    seed: int,
    bots: list[str],
    options: dict[str, Any] | None = None,
    max_steps: int = 100_000,
    on_step: Callable[[BaseState], None] | None = None,
    budget: int | None = None,
    ask: Callable[..., Any] = decide,
) -> Playout:
    """Play one game to its end with one bot level per seat; every bot sees only its view
    (the random bot only the legal moves). ``ask``: how each bot is asked, with
    ``engine.bots.decide``'s arguments (a benchmark wraps it to time each decision)."""
    state = game.setup(players, game.options(options), seed)
    rng = random.Random(seed)
    steps = 0
    while game.outcome(state) is None:
        if steps >= max_steps:
            raise RuntimeError(f"{game.id} seed {seed} did not finish in {max_steps} steps")
        seat = game.to_act(state)[0]
        legal = game.legal_moves(state, seat)
        move = ask(game, game.bots[bots[seat]], state, seat, legal, rng, budget)
        if isinstance(move, dict):
            move = game.parse_move(move)
        # ``play`` without its checks, which the loop has made: not over, the seat acts; and
        # without undo points, since no bot takes a step back.
        state = step(game, state, seat, move, take_back=False)
        steps += 1
        if on_step is not None:
            on_step(state)
    return Playout(state=state, steps=steps)
