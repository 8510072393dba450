"""Last Stick kept to the standards of the real games, by the same checks: every view fits
its models, no view shows what its seat may not see (the other hand, the unused card), a
wrong move is refused and changes nothing, and the bot that reads its view plays better than
chance."""

from __future__ import annotations

import json
import random
import re

import pytest

from engine.core import full_view, play
from engine.playout import play_out
from tests.engine import test_bad_moves as bad_moves
from tests.engine.test_shapes import check, views
from tests.tiny_game import GAME, registered

CARD_ID = re.compile(r'"id": (\d+)')


def hidden_from(state, seat: int | None) -> set[int]:
    """The cards ``seat`` may not see: the unused one, and every hand but its own."""
    hands = [hand for p, hand in enumerate(state.hands) if p != seat]
    return {state.unused, *(card for hand in hands for card in hand)}


def leaks(view: dict, state, seat: int | None) -> set[int]:
    return hidden_from(state, seat) & {int(i) for i in CARD_ID.findall(json.dumps(view))}


def test_every_view_of_random_games_fits_the_models():
    for seed in range(30):
        for view in views(GAME, seed):
            check(GAME, view)


def test_no_view_shows_the_other_hand_or_the_unused_card():
    for seed in range(60):
        state = GAME.setup(2, GAME.options({"sticks": 7 + seed % 8}), seed)
        rng = random.Random(seed)
        while True:
            for seat in (0, 1, None):
                view = full_view(GAME, state, seat)
                assert not leaks(view, state, seat), (seed, seat)
                if seat is not None:
                    assert [c["id"] for c in view["hand"]] == state.hands[seat]
            if GAME.outcome(state) is not None:
                break
            seat = GAME.to_act(state)[0]
            state = play(GAME, state, seat, rng.choice(GAME.legal_moves(state, seat)))


def test_the_leak_check_catches_a_view_that_shows_the_other_hand():
    state = GAME.setup(2, GAME.options({}), 4)
    shown = full_view(GAME, state, 0) | {"other": [{"id": c} for c in state.hands[1]]}
    assert leaks(shown, state, 0) == set(state.hands[1])
    spectator = full_view(GAME, state, 0)
    assert leaks(spectator, state, None) == set(state.hands[0])


def test_a_wrong_move_is_refused_and_changes_nothing():
    with registered():
        bad_moves.test_a_mutated_legal_move_is_illegal_and_changes_nothing(GAME.id)


@pytest.mark.parametrize("seat", [0, 1])
def test_the_bot_that_reads_its_view_beats_chance(seat):
    bots = ["random", "random"]
    bots[seat] = "heuristic"
    wins = sum(play_out(GAME, 2, seed, bots).state.winner == seat for seed in range(200))
    assert wins > 120
