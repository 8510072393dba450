"""The search bot shared by every game: information-set Monte Carlo tree search.

The bot plays from its seat's view of the game. It is given the state, but reads of it only
what its seat may see: each iteration starts from a *determinization*, a full state the seat
cannot tell from the real one, in which the game's ``Searcher`` has dealt everything hidden
(other hands, deck order, hidden bids, the seeded RNG) afresh from the bot's own random
numbers. One tree is shared by every determinization (single-observer ISMCTS, Cowling,
Powley and Whitehouse 2012): a node's children are the moves tried from it, each counted as
available whenever it was legal in the determinization at hand, and chosen by UCB among
the available ones for the seat to act there. Below the tree a short rollout, then the
game's ``evaluate`` scores the position for every seat (or the outcome, once it is over).

At a table of three or more, a searcher may model the other seats instead
(``model_opponents``): their moves are then not in the tree, each is the move the game's
heuristic bot makes from that seat's view of the determinization. With the tree kept to the
searching seat's own decisions, the budget goes on them rather than on every seat's.

The search is pure: its randomness comes from the ``random.Random`` it is given and its
budget counts engine steps, so a seed and a budget give the same move on any machine. Asked
for one (``trace``), it records what it did in a ``Trace``: the tests compare the traces of
states a seat cannot tell apart.
"""

from __future__ import annotations

import hashlib
import math
import random
from dataclasses import dataclass, field
from typing import Any, Generic

from engine.bots import decide
from engine.core import BaseState, Game, M, Outcome, S, StateBot

DEFAULT_BUDGET = 3000
"""Engine steps per decision: the tree walk and rollouts of every iteration counted."""


class Searcher(Generic[S, M]):
    """What a game gives the search; one per game, in ``engine/<game>/search.py``."""

    rollout_steps = 12
    """Steps played below the tree before ``evaluate``."""
    exploration = 0.7
    """UCB's exploration constant, values being shares of a win in [0, 1]."""
    model_opponents = False
    """At three or more players, play the other seats by ``opponent_move`` instead of
    searching their moves in the tree."""

    def determinize(self, state: S, seat: int, rng: random.Random) -> S:
        """A full state ``seat`` cannot tell from ``state``: everything hidden from it dealt
        again with ``rng``. It must depend only on what the seat may see and on ``rng``
        (tested per game: the search's ``Trace`` must not change when the hidden parts are
        dealt again and the state's RNG reseeded). Never changes ``state``."""
        raise NotImplementedError

    def evaluate(self, state: S, seat: int) -> list[float]:
        """Each seat's expected share of the win, in [0, 1], in a game not over; ``seat``
        is the searching seat."""
        raise NotImplementedError

    def final(self, outcome: Outcome) -> list[float]:
        """Each seat's share of the win, with a little for the score, so that the search
        still prefers a wider margin among won (or lost) lines."""
        scores = outcome.scores
        low, spread = min(scores), (max(scores) - min(scores)) or 1
        share = 1 / len(outcome.winners) if outcome.winners else 0.0
        return [
            0.9 * (share if s in outcome.winners else 0.0) + 0.1 * (scores[s] - low) / spread
            for s in range(len(scores))
        ]

    def moves(self, game: Game[S, M], state: S, actor: int) -> list[M]:
        """The moves the search considers for ``actor``; a game may prune the hopeless."""
        return game.legal_moves(state, actor)

    def rollout_move(
        self, game: Game[S, M], state: S, actor: int, legal: list[M], rng: random.Random
    ) -> M:
        """The move ``actor`` plays below the tree: uniform unless the game knows better."""
        return legal[rng.randrange(len(legal))]

    def opponent_move(
        self, game: Game[S, M], state: S, actor: int, legal: list[M], rng: random.Random
    ) -> Any:
        """The move a modelled seat plays in the tree: the heuristic bot's, from what ``actor``
        sees of the determinization."""
        return decide(game, game.bots["heuristic"], state, actor, legal, rng)

    def budget_for(self, budget: int, players: int) -> int:
        """The engine steps a decision gets at a table of ``players``."""
        return budget


@dataclass
class Trace:
    """What one search did: a digest of every determinization it stepped, every value it
    backed up, and the state of its random numbers after. A search that reads only what its
    seat sees leaves the same trace on every state the seat cannot tell from the real one,
    from the same seed; kept only when a test asks (``decide(..., trace=Trace())``)."""

    dealt: list[str] = field(default_factory=list)
    values: list[tuple[float, ...]] = field(default_factory=list)
    rng_after: str = ""

    def deal(self, state: BaseState) -> None:
        self.dealt.append(_digest(state.model_dump_json()))

    def back_up(self, values: list[float]) -> None:
        self.values.append(tuple(values))

    def end(self, rng: random.Random) -> None:
        self.rng_after = _digest(repr(rng.getstate()))


def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


class _Node:
    __slots__ = ("children", "visits", "available", "value")

    def __init__(self, players: int):
        self.children: dict[tuple[int, Any], _Node] = {}
        self.visits = 0
        self.available = 0
        self.value = [0.0] * players


class SearchBot(StateBot[S, M]):
    """The ``search`` level of a game: ISMCTS with the game's ``Searcher``."""

    def __init__(self, searcher: Searcher[S, M], budget: int = DEFAULT_BUDGET):
        self.searcher = searcher
        self.budget = budget

    def decide(
        self,
        game: Game[S, M],
        state: S,
        seat: int,
        legal: list[M],
        rng: random.Random,
        budget: int | None = None,
        trace: Trace | None = None,
    ) -> Any:
        if len(legal) == 1:
            return legal[0]
        searcher = self.searcher
        budget = searcher.budget_for(self.budget if budget is None else budget, state.players)
        modelled = searcher.model_opponents and state.players > 2
        root = _Node(state.players)
        steps = 0
        while steps < budget:
            steps += 1 + self._iterate(game, searcher, root, state, seat, rng, modelled, trace)
        if trace is not None:
            trace.end(rng)
        # The answer is a move legal now: the most visited of those (every root move was
        # available in every determinization, the seat's own moves being what it sees).
        best = max(legal, key=lambda m: _visits(root, seat, m))
        return best

    def _iterate(
        self,
        game: Game[S, M],
        searcher: Searcher[S, M],
        root: _Node,
        state: S,
        seat: int,
        rng: random.Random,
        modelled: bool,
        trace: Trace | None,
    ) -> int:
        """One determinization, walked down the tree, expanded, rolled out and backed up;
        the engine steps it took. ``modelled``: the other seats play ``opponent_move`` and
        the node stays where it was."""
        current = _fresh(searcher.determinize(state, seat, rng))
        if trace is not None:
            trace.deal(current)
        node, path, steps = root, [root], 0
        outcome = game.outcome(current)
        while outcome is None:
            actor = game.to_act(current)[0]
            if modelled and actor != seat:
                legal = game.legal_moves(current, actor)
                move = searcher.opponent_move(game, current, actor, legal, rng)
                current = _advance(game, current, actor, move)
                steps += 1
                outcome = game.outcome(current)
                continue
            legal = searcher.moves(game, current, actor)
            children = node.children
            untried = []
            chosen = None
            best = -1.0
            for move in legal:
                child = children.get((actor, move))
                if child is None:
                    untried.append(move)
                    continue
                child.available += 1
                if untried:
                    continue
                score = child.value[actor] / child.visits + searcher.exploration * math.sqrt(
                    math.log(max(child.available, 1)) / child.visits
                )
                if score > best:
                    best, chosen = score, (move, child)
            if untried:
                move = untried[rng.randrange(len(untried))]
                child = children[(actor, move)] = _Node(current.players)
                child.available = 1
                current = _advance(game, current, actor, move)
                steps += 1
                path.append(child)
                outcome = game.outcome(current)
                break
            assert chosen is not None  # every move had a child, each scoring above -1
            move, node = chosen
            current = _advance(game, current, actor, move)
            steps += 1
            path.append(node)
            outcome = game.outcome(current)
        for _ in range(searcher.rollout_steps):
            if outcome is not None:
                break
            actor = game.to_act(current)[0]
            legal = game.legal_moves(current, actor)
            current = _advance(
                game, current, actor, searcher.rollout_move(game, current, actor, legal, rng)
            )
            steps += 1
            outcome = game.outcome(current)
        values = (
            searcher.final(outcome) if outcome is not None else searcher.evaluate(current, seat)
        )
        if trace is not None:
            trace.back_up(values)
        for visited in path:
            visited.visits += 1
            total = visited.value
            for s, v in enumerate(values):
                total[s] += v
        return steps


def _visits(root: _Node, seat: int, move: Any) -> int:
    child = root.children.get((seat, move))
    return child.visits if child is not None else -1


def _fresh(state: S) -> S:
    """A determinization as the search steps it: no log kept, nothing to take back."""
    fields = state.__dict__
    fields["log"] = []
    fields["undo"] = []
    return state


def _advance(game: Game[S, M], state: S, seat: int, move: M) -> S:
    after = game.advance(state, seat, move)
    # The search keeps no log: each step would otherwise copy every line before it.
    after.__dict__["log"] = []
    return after
