"""Undo within a turn (``engine.undo``): which steps can be taken back, that taking one back
returns the view before it, and that a game with undos replays from its move log."""

from __future__ import annotations

import json
import random

import pytest

from engine import undo
from engine.bots import bot_view
from engine.core import IllegalMove, UndoPoint, full_view, play
from engine.registry import GAMES
from tests.engine.camping_life.conftest import before_the_last_table_coin

UNDO = {"type": "undo"}
TAKING_BACK = ["summer-camp", "pinetop", "camping-life"]


def offered(game, state, seat) -> bool:
    return any(e["move"] == UNDO for e in full_view(game, state, seat, person=True)["legal_moves"])


def without_log(view: dict) -> dict:
    return {k: v for k, v in view.items() if k != "last_decision"}


def step(game, state, rng):
    seat = game.to_act(state)[0]
    legal = game.legal_moves(state, seat)
    bot = game.bots["random"]
    return seat, bot(bot_view(game, bot, state, seat, legal), legal, rng)


@pytest.mark.parametrize("kind", TAKING_BACK)
def test_a_step_taken_back_returns_every_seat_to_the_view_before_it(kind):
    """Bounded property: 150 steps of a seeded game; every step that keeps the turn with the
    same seat and reveals nothing is offered back, and taking it back gives every seat the
    view it had before the step, and one log line more says it was undone."""
    game = GAMES[kind]
    state = game.setup(2, game.options({}), 11)
    rng = random.Random(11)
    moves, undone, kept = [], 0, 0
    for _ in range(150):
        if game.outcome(state) is not None:
            break
        seat, move = step(game, state, rng)
        before = state
        state = play(game, state, seat, move)
        moves.append((seat, move))
        if not offered(game, state, seat):
            continue
        kept += 1
        # Nothing hidden became known, and nobody else decides meanwhile.
        assert game.to_act(state) == [seat] and state.rng.state == before.rng.state
        assert not undo.revealed(game, before, state)
        if rng.random() < 0.5:
            continue
        back = play(game, state, seat, UNDO)
        moves.append((seat, UNDO))
        undone += 1
        for who in (0, 1, None):
            was = full_view(game, before, who, person=who is not None)
            now = full_view(game, back, who, person=who is not None)
            assert without_log(now) == without_log(was)
            # The log only grows: one entry more says the step was undone.
            assert [e.text[:6] for e in back.log] in (["Undone"], ["A step"])
            assert now["last_decision"] == back.logged == state.logged + len(state.log)
        state = back
    assert kept > 3 and undone > 1, (kept, undone)
    # The log of moves, undos included, replays to the same game.
    again = game.setup(2, game.options({}), 11)
    for seat, move in moves:
        again = play(game, again, seat, move)
    assert game.dump_json(again) == game.dump_json(state)


@pytest.mark.parametrize("kind", TAKING_BACK)
def test_nobody_else_can_take_back_a_step_nor_anything_once_the_turn_moved_on(kind):
    game = GAMES[kind]
    state = game.setup(2, game.options({}), 5)
    rng = random.Random(5)
    with pytest.raises(IllegalMove):
        play(game, state, game.to_act(state)[0], UNDO)  # nothing to take back yet
    for _ in range(300):
        seat, move = step(game, state, rng)
        state = play(game, state, seat, move)
        if offered(game, state, seat):
            break
    other = 1 - seat
    assert not offered(game, state, other)
    with pytest.raises(IllegalMove):
        play(game, state, other, UNDO)
    with pytest.raises(IllegalMove):
        play(game, state, seat, {"type": "undo", "steps": 3})
    # Playing on until the other seat decides clears every undo point.
    while game.to_act(state) == [seat]:
        s, move = step(game, state, rng)
        state = play(game, state, s, move)
    assert state.undo == [] and not offered(game, state, seat)


def _summer_camp_spent(seed: int = 3):
    """A Summer Camp turn with every card of the hand played for energy."""
    game = GAMES["summer-camp"]
    state = game.setup(2, game.options({}), seed)
    seat = game.to_act(state)[0]
    while plays := [
        m for m in game.legal_moves(state, seat) if m.type == "play" and m.use == "energy"
    ]:
        state = play(game, state, seat, plays[0])
        # The others see the card come out of the hand: it cannot go back in.
        assert state.undo == [] and not offered(game, state, seat)
    return game, state, seat


def _buy(game, state, seat):
    return next(m for m in game.legal_moves(state, seat) if m.type == "buy")


def _summer_camp_bought(seed: int = 3):
    """A Summer Camp turn: every card of the hand played for energy, then a card bought."""
    game, state, seat = _summer_camp_spent(seed)
    return game, play(game, state, seat, _buy(game, state, seat)), seat


def test_summer_camp_takes_back_a_buy_but_not_a_card_played_from_the_hand_nor_ending_the_turn():
    game, state, seat = _summer_camp_bought()
    assert offered(game, state, seat)
    label = next(
        e["label"]
        for e in full_view(game, state, seat, person=True)["legal_moves"]
        if e["move"] == UNDO
    )
    assert label.startswith("Undo: ") and "buys" in label
    ended = play(
        game, state, seat, next(m for m in game.legal_moves(state, seat) if m.type == "end_turn")
    )
    assert ended.undo == [] and not offered(game, ended, seat)


def test_pinetop_does_not_take_back_a_card_drawn():
    game = GAMES["pinetop"]
    state = game.setup(2, game.options({}), 3)
    rng = random.Random(3)
    while state.phase != "action":
        seat, move = step(game, state, rng)
        state = play(game, state, seat, move)
    seat = game.to_act(state)[0]
    drawn = play(
        game, state, seat, next(m for m in game.legal_moves(state, seat) if m.type == "draw_deck")
    )
    assert drawn.undo == [] and not offered(game, drawn, seat)


def test_only_a_persons_view_offers_an_undo():
    game, state, seat = _summer_camp_bought()
    legal = game.legal_moves(state, seat)
    assert offered(game, state, seat)
    assert all(
        e["move"] != UNDO
        for e in bot_view(game, game.bots["heuristic"], state, seat, legal)["legal_moves"]
    )
    assert all(e["move"] != UNDO for e in full_view(game, state, seat)["legal_moves"])


@pytest.mark.parametrize("kind", TAKING_BACK)
def test_advance_is_apply_without_undo_points(kind):
    """Bots' playouts step with ``advance``: the same game, nothing kept to take back."""
    game = GAMES[kind]
    applied = advanced = game.setup(2, game.options({}), 5)
    rng = random.Random(5)
    points = 0
    for _ in range(60):
        seat, move = step(game, applied, rng)
        applied, advanced = game.apply(applied, seat, move), game.advance(advanced, seat, move)
        points += bool(applied.undo)
        assert advanced.undo == []
        assert advanced.model_dump(exclude={"undo"}) == applied.model_dump(exclude={"undo"})
    assert points


def _turn_of_steps(game, seed: int, steps: int, kept: int = undo.KEPT):
    """A seeded game played on until ``steps`` steps in a row can be taken back, and the
    states before each of them (their JSON, without what a take-back keeps as it is)."""
    rng = random.Random(seed)
    state = game.setup(2, game.options({}), seed)
    before = []
    while len(before) < steps or len(state.undo) < min(steps, kept):
        seat, move = step(game, state, rng)
        if move == {"type": "undo"}:
            continue
        if not state.undo:
            before = []
        before.append(_live(state))
        state = play(game, state, seat, move)
        assert game.outcome(state) is None, "no turn long enough in this seed"
    return state, before[-steps:]


def _live(state) -> dict:
    """The state without what taking back keeps counting: the log, and the steps taken back."""
    return state.model_dump(mode="json", exclude={"undo", "logged", "last_decision", "taken_back"})


@pytest.mark.parametrize("kept", [undo.KEPT, 2])
def test_a_turn_of_several_steps_is_taken_back_step_by_step_to_its_start(kept, monkeypatch):
    """A point after the turn's first keeps only its move; taking back plays the moves
    before it again from the state kept, and gives exactly the state before the step, also
    once the oldest points were dropped (``kept`` 2) and the next one took the state."""
    monkeypatch.setattr(undo, "KEPT", kept)
    game = GAMES["summer-camp"]
    state, before = _turn_of_steps(game, 3, 3, kept)
    assert len(state.undo) == min(kept, 3)
    assert sum(p.state is not None for p in state.undo) == 1
    assert state.undo[0].state is not None
    seat = state.undo[-1].seat
    for expected in reversed(before[-kept:]):
        state = play(game, state, seat, UNDO)
        assert _live(state) == expected
    assert not offered(game, state, seat)


def test_points_stored_with_a_state_each_still_take_back():
    game = GAMES["summer-camp"]
    state, before = _turn_of_steps(game, 3, 2)
    old = [
        UndoPoint(seat=p.seat, state=json.dumps(b), step=p.step)
        for p, b in zip(state.undo, before, strict=True)
    ]
    state = state.model_copy(update={"undo": old})
    seat = old[-1].seat
    legal = [m for m in game.legal_moves(state, seat)]
    going_on = play(game, state, seat, legal[0])
    if going_on.undo:  # a step after stored points keeps a state of its own
        assert going_on.undo[-1].state is not None
    for expected in reversed(before):
        state = play(game, state, seat, UNDO)
        assert _live(state) == expected


def test_camping_life_does_not_take_back_a_table_coin_that_turned_the_coins_over():
    """On the third bidding turn the second bidder's table coin turns both table coins over;
    winning the pick, they are still the only one to act, yet taking the coin back would let
    them bid again knowing the other's."""
    game = GAMES["camping-life"]
    state, coin = before_the_last_table_coin()
    assert offered(game, state, 1)  # a coin on a card: nothing turned over yet
    state = play(game, state, 1, coin)
    assert [e.text for e in state.log][:2] == [
        "Blue puts a coin on the table.",
        "Table coins turned over: Red 2, Blue 4.",
    ]
    assert state.phase == "pick" and game.to_act(state) == [1]
    assert state.undo == [] and not offered(game, state, 1)


def test_a_turn_takes_back_at_most_so_many_steps_until_it_moves_on():
    """Stepping and taking back in a loop writes log lines without end: a turn takes back
    ``UNDOS_PER_TURN`` steps, then plays on; a step that cannot be taken back counts anew."""
    game, state, seat = _summer_camp_spent()
    for taken in range(undo.UNDOS_PER_TURN):
        state = play(game, state, seat, _buy(game, state, seat))
        assert offered(game, state, seat)
        state = play(game, state, seat, UNDO)
        assert state.taken_back == taken + 1
    state = play(game, state, seat, _buy(game, state, seat))
    assert not offered(game, state, seat)
    with pytest.raises(IllegalMove, match=f"taken back {undo.UNDOS_PER_TURN} steps"):
        play(game, state, seat, UNDO)
    # The turn ends; the other seat's turn starts counting from nothing.
    ended = play(
        game, state, seat, next(m for m in game.legal_moves(state, seat) if m.type == "end_turn")
    )
    assert ended.taken_back == 0
    rng = random.Random(3)
    while not offered(game, ended, game.to_act(ended)[0]):
        ended = play(game, ended, *step(game, ended, rng))
    other = game.to_act(ended)[0]
    assert play(game, ended, other, UNDO).taken_back == 1


@pytest.mark.parametrize("kind", TAKING_BACK)
def test_keeps_turn_names_a_step_that_can_be_taken_back_and_an_undo(kind):
    game = GAMES[kind]
    state = game.setup(2, game.options({}), 5)
    rng = random.Random(5)
    seen = {True: 0, False: 0}
    for _ in range(200):
        if game.outcome(state) is not None:
            break
        seat, move = step(game, state, rng)
        after = play(game, state, seat, move)
        kept = undo.keeps_turn(game.parse_move(move), after, seat)
        assert kept == offered(game, after, seat)
        seen[kept] += 1
        if kept and rng.random() < 0.3:
            back = play(game, after, seat, UNDO)
            assert undo.keeps_turn(undo.UNDO, back, seat)
        state = after
    assert seen[True] and seen[False]
