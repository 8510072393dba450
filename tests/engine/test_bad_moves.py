"""Whatever a player sends as a move, every game answers ``IllegalMove`` and keeps its state:
legal moves of real positions with one field replaced by a wrong type, an unknown card, space,
seat or patch, a huge or negative number or a long string, or with a field missing or added."""

from __future__ import annotations

import functools

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine.core import BaseState, IllegalMove, move_json, play
from engine.playout import play_out
from engine.registry import GAMES

WRONG = st.one_of(
    st.none(),
    st.booleans(),
    st.floats(allow_nan=True),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([-1, 5, 16, 99, 260, 2**63, -(2**63) - 1]),
    st.text(max_size=12),
    st.sampled_from(["0", "1", "nope", "smores", "x" * 5000, "\x00", "\ud800"]),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


@functools.cache
def positions(kind: str) -> list[BaseState]:
    """Every few steps of two random games, at the smallest and the largest table."""
    game = GAMES[kind]
    states: list[BaseState] = []
    for players in (game.min_players, game.max_players):
        play_out(game, players, 3, ["random"] * players, on_step=states.append)
    return states[::5]


@st.composite
def mutated(draw, kind: str) -> tuple[BaseState, int, dict, list[dict]]:
    game = GAMES[kind]
    state = draw(st.sampled_from(positions(kind)))
    assume(game.outcome(state) is None)
    seat = draw(st.sampled_from(game.to_act(state)))
    legal = [move_json(m) for m in game.legal_moves(state, seat)]
    move = dict(draw(st.sampled_from(legal)))
    field = draw(st.sampled_from([*move, "extra"]))
    if draw(st.booleans()) and field in move:
        del move[field]
    else:
        move[field] = draw(WRONG)
    return state, seat, move, legal


def same_as_legal(game, move: dict, legal: list[dict]) -> bool:
    """Whether ``move`` is a legal move after all (a field left out that has a default)."""
    try:
        return move_json(game.parse_move(move)) in legal
    except IllegalMove:
        return False


@pytest.mark.parametrize("kind", list(GAMES))
def test_a_mutated_legal_move_is_illegal_and_changes_nothing(kind):
    game = GAMES[kind]

    @given(mutated(kind))
    @settings(
        max_examples=150,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    def check(case):
        state, seat, move, legal = case
        assume(not same_as_legal(game, move, legal))
        before = game.dump_json(state)
        with pytest.raises(IllegalMove) as refused:
            play(game, state, seat, move)
        assert 0 < len(refused.value.reason) < 300
        assert game.dump_json(state) == before

    check()


def test_an_unknown_summer_camp_card_is_illegal():
    game = GAMES["summer-camp"]
    state = game.setup(2, game.options(None), 1)
    seat = game.to_act(state)[0]
    for move in (
        {"type": "play", "card": "no-such-card", "use": "energy"},
        {"type": "buy", "card": "no-such-card"},
        {"type": "choose_card", "card": "no-such-card"},
    ):
        with pytest.raises(IllegalMove, match="no Summer Camp card"):
            play(game, state, seat, move)


def test_a_number_sent_as_text_is_not_a_move():
    game = GAMES["camping-life"]
    state = game.setup(2, game.options(None), 1)
    seat = game.to_act(state)[0]
    legal = move_json(game.legal_moves(state, seat)[0])
    assert isinstance(legal["coin"], int)
    with pytest.raises(IllegalMove, match="coin"):
        play(game, state, seat, legal | {"coin": str(legal["coin"])})
