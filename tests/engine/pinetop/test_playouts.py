"""Seeded random games at 2-5 players, two with each combination of modules: every game
finishes, every card and camper is accounted for at every step, no view shows another hand or
the deck's order, and ``apply`` never changes the state it is given."""

import itertools
import json
import random

import pytest

from engine.core import full_view
from engine.pinetop import GAME

MODULES = ("friendship", "nature", "tower")
COMBINATIONS = list(itertools.product((False, True), repeat=len(MODULES)))
GAMES_PER_COMBINATION = 2
VIEW_EVERY = 8  # views of every seat are checked at every eighth step
FROZEN_EVERY = 40  # the state given to apply is compared before and after at every 40th step


def all_cards(s) -> list[int]:
    cards = [*s.deck, *s.discard, *(c for c in s.face_up if c is not None)]
    cards += [c for hand in s.hands for c in hand]
    if s.pending is not None:
        cards += s.pending.paid
    return cards


def check_views(s) -> None:
    deck = json.dumps(s.deck)[1:-1]
    for seat in (None, *range(s.players)):
        v = GAME.view(s, seat)
        for x in v["seats"]:
            assert (x["hand"] is None) == (x["seat"] != seat)
            assert x["hand_count"] == len(s.hands[x["seat"]])
        text = json.dumps(v)
        assert v["supply"]["deck"] == len(s.deck) and str(s.rng.state) not in text
        if len(s.deck) >= 3:
            ids = json.dumps([c for c in _ids(v)])
            assert deck not in ids


def _ids(v):
    """Every supply card id a view shows, in order."""

    def walk(x):
        if isinstance(x, dict):
            if "suits" in x and "id" in x:
                yield x["id"]
            for y in x.values():
                yield from walk(y)
        elif isinstance(x, list):
            for y in x:
                yield from walk(y)

    return list(walk(v))


# Each player count's games in two halves, which the test processes share out.
@pytest.mark.slow
@pytest.mark.parametrize("half", [0, 1])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_finish_with_everything_accounted_for(players, half):
    lengths = []
    games = len(COMBINATIONS) * GAMES_PER_COMBINATION // 2
    first = players * 1000 + half * games
    for seed in range(first, first + games):
        rng = random.Random(seed)
        options = dict(zip(MODULES, COMBINATIONS[seed % len(COMBINATIONS)]))
        expected = 78 if options["tower"] else 68
        s = GAME.setup(players, GAME.options(options), seed)
        step = 0
        while GAME.outcome(s) is None:
            seat = GAME.to_act(s)[0]
            legal = GAME.legal_moves(s, seat)
            assert legal, (seed, s.phase)
            move = legal[rng.randrange(len(legal))]
            before = s.model_dump() if step % FROZEN_EVERY == 0 else None
            after = GAME.apply(s, seat, move)
            if before is not None:
                assert s.model_dump() == before
            s = after
            cards = all_cards(s)
            assert len(cards) == expected and len(set(cards)) == expected
            assert sum(map(len, s.campers)) + sum(s.campers_left) == 4 * players
            if step % VIEW_EVERY == 0:
                check_views(s)
            step += 1
        assert s.rank[s.winner] == 4 and GAME.outcome(s).winners == [s.winner]
        lengths.append(step)
    assert max(lengths) < 2000


def test_the_acting_seat_sees_labels_for_every_legal_move():
    s = GAME.setup(3, GAME.options({"friendship": True, "nature": True, "tower": True}), 9)
    rng = random.Random(9)
    while GAME.outcome(s) is None:
        seat = GAME.to_act(s)[0]
        v = full_view(GAME, s, seat)
        assert len({m["label"] for m in v["legal_moves"]}) == len(v["legal_moves"])
        s = GAME.apply(s, seat, rng.choice(GAME.legal_moves(s, seat)))


def test_states_round_trip_through_json_and_replay_the_same():
    options = GAME.options({"friendship": True, "nature": True, "tower": True})
    s = GAME.setup(4, options, 11)
    rng = random.Random(11)
    moves = []
    while GAME.outcome(s) is None:
        seat = GAME.to_act(s)[0]
        move = rng.choice(GAME.legal_moves(s, seat))
        moves.append((seat, move))
        s = GAME.apply(GAME.load(json.loads(json.dumps(GAME.dump(s)))), seat, move)
    again = GAME.setup(4, options, 11)
    for seat, move in moves:
        again = GAME.apply(again, seat, move)
    assert GAME.dump(again) == GAME.dump(s)


def test_a_move_is_checked_against_the_list_worked_out_for_that_very_state(monkeypatch):
    """A person's move is checked against the moves their view offered, worked out once, and
    only for the state object and seat they were worked out for."""
    from engine.pinetop import rules

    worked_out = []
    monkeypatch.setattr(
        rules,
        "_LEGAL",
        {
            phase: (lambda s, seat, f=f: worked_out.append(seat) or f(s, seat))
            for phase, f in rules._LEGAL.items()
        },
    )
    s = GAME.setup(3, GAME.options(None), 5)
    rng = random.Random(5)
    for _ in range(40):
        seat = GAME.to_act(s)[0]
        legal = GAME.legal_moves(s, seat)
        assert all(GAME.apply(s, seat, m) for m in legal)
        assert len(worked_out) == 1
        # Another object in the same position, or another seat, is worked out afresh.
        other = (seat + 1) % 3
        assert not rules.is_legal(s, other, legal[0])
        fresh = s.clone()
        assert all(rules.is_legal(fresh, seat, m) for m in legal)
        worked_out.clear()
        s = GAME.apply(s, seat, legal[rng.randrange(len(legal))])
        worked_out.clear()
