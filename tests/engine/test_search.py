"""The search core on a game small enough to know the answer: Nim with one pile, take one to
three, whoever takes the last stone wins. With two players the winning move leaves a multiple
of four; with three, the other seats may be modelled by a bot that always takes all it can.
The one thing Nim hides is the state's RNG: a search that reads it keeps its move there, and
only its trace shows it."""

from __future__ import annotations

import random
from typing import ClassVar, Literal

import pytest
from pydantic import BaseModel, ConfigDict, TypeAdapter

from engine.bots import decide
from engine.core import BaseState, Game, Outcome, Rng, StateBot, copy_model
from engine.search import Searcher, SearchBot, Trace
from tests.engine.honest_search import KeepsTheRng, PeeksWhenValuing


class Take(BaseModel):
    model_config = ConfigDict(frozen=True)
    type: Literal["take"] = "take"
    stones: int


class NimState(BaseState):
    pile: int
    active: int = 0


class Nim(Game[NimState, Take]):
    id = "nim"
    title = "Nim"
    min_players, max_players = 2, 3
    Options = BaseModel
    State = NimState
    move_adapter = TypeAdapter(Take)
    bots: ClassVar[dict] = {}

    def setup(self, players, options, seed):
        return NimState(players=players, rng=Rng.from_seed(seed), pile=seed)

    def to_act(self, state):
        return [] if state.pile == 0 else [state.active]

    def legal_moves(self, state, seat):
        return [Take(stones=n) for n in (1, 2, 3) if n <= state.pile]

    def apply(self, state, seat, move):
        return copy_model(
            state, {"pile": state.pile - move.stones, "active": (seat + 1) % state.players}
        )

    def view(self, state, seat):
        return {"pile": state.pile}

    def outcome(self, state):
        if state.pile:
            return None
        winner = (state.active - 1) % state.players
        return Outcome(scores=[int(s == winner) for s in range(state.players)], winners=[winner])


class NimSearcher(Searcher):
    rollout_steps = 40

    def __init__(self):
        self.determinized = 0

    def determinize(self, state, seat, rng):
        self.determinized += 1
        return copy_model(state, {})

    def evaluate(self, state, seat):
        return [1 / state.players] * state.players


class RedealingNim(NimSearcher):
    """The one thing Nim hides is the state's RNG: each determinization reseeds it from the
    search's random numbers."""

    def determinize(self, state, seat, rng):
        self.determinized += 1
        return copy_model(state, {"rng": Rng.from_seed(rng.getrandbits(64))})


class GreedyOpponents(NimSearcher):
    """The other seats modelled as taking as many stones as they may; the budget doubled."""

    model_opponents = True

    def __init__(self):
        super().__init__()
        self.searched: set[int] = set()
        self.modelled: set[int] = set()

    def moves(self, game, state, actor):
        self.searched.add(actor)
        return super().moves(game, state, actor)

    def opponent_move(self, game, state, actor, legal, rng):
        self.modelled.add(actor)
        return max(legal, key=lambda m: m.stones)

    def budget_for(self, budget, players):
        return 2 * budget


GAME = Nim()


def test_search_finds_the_winning_move_and_a_search_bot_is_asked_through_decide():
    bot = SearchBot(NimSearcher(), budget=4000)
    assert isinstance(bot, StateBot)
    for pile in (5, 6, 7, 9, 10, 11):
        state = GAME.setup(2, None, pile)
        move = decide(GAME, bot, state, 0, GAME.legal_moves(state, 0), random.Random(1))
        assert (pile - move.stones) % 4 == 0, pile


def test_same_seed_and_budget_give_the_same_move_and_the_budget_bounds_the_work():
    searcher = NimSearcher()
    bot = SearchBot(searcher, budget=300)
    state = GAME.setup(2, None, 8)  # lost: every move is as bad, so only the seed decides
    legal = GAME.legal_moves(state, 0)
    moves = {bot.decide(GAME, state, 0, legal, random.Random(7)) for _ in range(3)}
    assert len(moves) == 1
    small = searcher.determinized
    bot.decide(GAME, state, 0, legal, random.Random(7), budget=3000)
    assert searcher.determinized - small > 5 * small / 3  # ten times the budget, more iterations


def test_a_single_legal_move_is_played_without_searching():
    searcher = NimSearcher()
    state = GAME.setup(2, None, 1)
    assert SearchBot(searcher).decide(
        GAME, state, 0, GAME.legal_moves(state, 0), random.Random(0)
    ) == Take(stones=1)
    assert searcher.determinized == 0


def test_the_given_state_is_left_as_it_was():
    state = GAME.setup(2, None, 9)
    before = state.model_dump_json()
    SearchBot(NimSearcher(), budget=500).decide(
        GAME, state, 0, GAME.legal_moves(state, 0), random.Random(3)
    )
    assert state.model_dump_json() == before


@pytest.mark.parametrize(("pile", "stones"), [(8, 1), (12, 3)])
def test_modelled_seats_play_the_models_move_and_are_not_searched(pile, stones):
    # Against two seats that take all they can, the one winning move from 8 takes 1 (7 is
    # left, then 4 and 1) and from 12 takes 3.
    searcher = GreedyOpponents()
    state = GAME.setup(3, None, pile)
    move = SearchBot(searcher, budget=3000).decide(
        GAME, state, 0, GAME.legal_moves(state, 0), random.Random(1)
    )
    assert move == Take(stones=stones)
    assert searcher.searched == {0}
    assert searcher.modelled == {1, 2}


def test_at_two_players_no_seat_is_modelled():
    searcher = GreedyOpponents()
    state = GAME.setup(2, None, 9)
    SearchBot(searcher, budget=500).decide(
        GAME, state, 0, GAME.legal_moves(state, 0), random.Random(1)
    )
    assert searcher.searched == {0, 1}
    assert searcher.modelled == set()


def test_the_budget_is_the_one_the_searcher_gives_for_the_table():
    state = GAME.setup(2, None, 8)
    legal = GAME.legal_moves(state, 0)
    plain, doubled = NimSearcher(), GreedyOpponents()
    SearchBot(plain, budget=1000).decide(GAME, state, 0, legal, random.Random(7))
    SearchBot(doubled, budget=1000).decide(GAME, state, 0, legal, random.Random(7))
    assert doubled.determinized > 1.5 * plain.determinized


def traced(searcher, state, seed=3):
    trace = Trace()
    move = SearchBot(searcher, budget=300).decide(
        GAME, state, 0, GAME.legal_moves(state, 0), random.Random(seed), trace=trace
    )
    return move, trace


def test_a_trace_holds_every_determinization_every_value_backed_up_and_the_rng_after():
    state = GAME.setup(2, None, 9)
    searcher = RedealingNim()
    move, trace = traced(searcher, state)
    assert len(trace.dealt) == len(trace.values) == searcher.determinized > 10
    assert len(set(trace.dealt)) == len(trace.dealt)  # each with its own RNG
    assert all(len(v) == 2 for v in trace.values)
    assert traced(RedealingNim(), state) == (move, trace)
    assert traced(RedealingNim(), state, seed=4)[1] != trace
    # Untraced, the search makes the same move with the same random numbers.
    rng = random.Random(3)
    assert (
        SearchBot(RedealingNim(), budget=300).decide(
            GAME, state, 0, GAME.legal_moves(state, 0), rng
        )
        == move
    )
    after = Trace()
    after.end(rng)
    assert after.rng_after == trace.rng_after


def test_a_searcher_that_reads_the_hidden_rng_is_seen_in_its_trace_not_in_its_move():
    state = GAME.setup(2, None, 9)
    other = copy_model(state, {"rng": Rng.from_seed(12345)})
    assert GAME.view(other, 0) == GAME.view(state, 0)
    assert traced(RedealingNim(), other) == traced(RedealingNim(), state)
    for cheat in (KeepsTheRng, PeeksWhenValuing):
        planted = type(cheat.__name__, (cheat, RedealingNim), {})
        here, there = traced(planted(), state), traced(planted(), other)
        assert here[0] == there[0] == Take(stones=1)
        assert here[1] != there[1]
