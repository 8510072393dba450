"""The search bots read only what their seat sees. A search from a state whose hidden parts
are dealt again (as the seat's view allows: the view is checked unchanged) and whose RNG is
reseeded must leave the same ``Trace`` as from the real state, from the same seed: every
determinization it stepped, every value it backed up and its random numbers after, not only
the same move. The move alone says little: a searcher that keeps the real hidden cards often
chooses as an honest one would. ``CHEATS`` are such searchers, planted by each game's tests
to show that this check catches them at every position."""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable

from engine.bots import decide
from engine.core import BaseState, Game, Rng, copy_model, full_view, step
from engine.search import SearchBot, Trace

# ``redeal(state, seat, rng)``: a copy of the state in which everything ``seat`` cannot see
# is dealt again with ``rng`` (within what its view shows) and the RNG is reseeded.
Redeal = Callable[[BaseState, int, random.Random], BaseState]
Table = tuple[int, int, dict | None]  # seed, players, options
BUDGET = 200  # engine steps a traced search gets (the game's ``budget_for`` applies)
TRIES = 20  # seeds tried for a re-deal that changes the hidden cards


def spread(
    game: Game, bot: SearchBot, tables: list[Table], count: int
) -> list[tuple[BaseState, int]]:
    """``count`` positions of each seeded game between heuristic bots, evenly spread from its
    first decision to its last among those where the seat to act has more than one move the
    search considers: (state, seat)."""
    out = []
    for seed, players, options in tables:
        s = game.setup(players, game.options(options), seed)
        rng = random.Random(seed)
        found = []
        while game.outcome(s) is None:
            seat = game.to_act(s)[0]
            legal = game.legal_moves(s, seat)
            if len(legal) > 1 and len(bot.searcher.moves(game, s, seat)) > 1:
                found.append((s, seat))
            s = step(
                game,
                s,
                seat,
                decide(game, game.bots["heuristic"], s, seat, legal, rng),
                take_back=False,
            )
        assert len(found) >= count, (seed, players)
        out += [found[i * (len(found) - 1) // (count - 1)] for i in range(count)]
    return out


def traced(
    game: Game, bot: SearchBot, state: BaseState, seat: int, budget: int = BUDGET
) -> tuple[object, Trace]:
    """The move the search makes from a fixed seed, and its trace."""
    trace = Trace()
    move = bot.decide(
        game, state, seat, game.legal_moves(state, seat), random.Random(1), budget, trace
    )
    return move, trace


def redealt(state: BaseState, seat: int, redeal: Redeal, at: int) -> BaseState:
    """A re-deal of ``state`` that changes the hidden cards, from the first of ``TRIES``
    seeds (from ``at``) that does: one that changed only the RNG would check less."""
    kept = state.model_dump(exclude={"rng"})
    for k in range(TRIES):
        other = redeal(state, seat, random.Random(at * TRIES + k))
        if other.model_dump(exclude={"rng"}) != kept:
            return other
    raise AssertionError(f"position {at}: no re-deal changed a hidden card")


def differing(
    game: Game,
    bot: SearchBot,
    positions: list[tuple[BaseState, int]],
    redeal: Redeal,
    budget: int = BUDGET,
) -> list[int]:
    """The positions (their indexes) where the search's move or trace changes when what the
    seat cannot see is dealt again and the RNG reseeded. Each re-deal is checked to keep the
    seat's view (its legal moves among it) and to change the hidden cards and the RNG."""
    out = []
    for at, (state, seat) in enumerate(positions):
        other = redealt(state, seat, redeal, at)
        assert other.rng.state != state.rng.state, at
        assert full_view(game, other, seat) == full_view(game, state, seat), at
        here = traced(game, bot, state, seat, budget)
        there = traced(game, bot, other, seat, budget)
        assert here[1].dealt, at  # it searched
        if here != there:
            out.append(at)
    return out


def planted(bot: SearchBot, cheat: type) -> SearchBot:
    """The same bot with ``cheat`` mixed into its searcher."""
    searcher = type(bot.searcher)
    return type(bot)(type(cheat.__name__, (cheat, searcher), {})(), bot.budget)


class KeepsTheCards:
    """Deals nothing again: every hidden card where it really is, only the RNG reseeded."""

    def determinize(self, state, seat, rng):
        return copy_model(state.model_copy(deep=True), {"rng": Rng.from_seed(rng.getrandbits(64))})


class KeepsTheRng:
    """Deals the hidden cards again, but keeps the real RNG: what chance will bring next."""

    def determinize(self, state, seat, rng):
        return copy_model(super().determinize(state, seat, rng), {"rng": copy_model(state.rng, {})})


class PeeksWhenValuing:
    """Deals honestly, but every value it backs up leans a hair on the real state (its hidden
    cards and RNG among it): too little to change a move, seen in the trace."""

    def determinize(self, state, seat, rng):
        self.peek = 1e-15 * zlib.crc32(state.model_dump_json().encode())
        return super().determinize(state, seat, rng)

    def evaluate(self, state, seat):
        return [v + self.peek for v in super().evaluate(state, seat)]

    def final(self, outcome):
        return [v + self.peek for v in super().final(outcome)]


CHEATS = [KeepsTheCards, KeepsTheRng, PeeksWhenValuing]
