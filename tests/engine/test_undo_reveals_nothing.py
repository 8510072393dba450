"""A step that can be taken back revealed nothing to anyone (``engine.undo``), checked as a
property of every game with undo, at every player count: seeded random steps, taking back
often when it is offered, and more often right after an undo. For every step that leaves an undo
point, each seat and a spectator in turn has everything it could not see before the step
dealt again (``tests.engine.redeal``) and the RNG reseeded; the same step must then show it
the same view and write the same log lines. And each game's ``hidden`` names exactly what the
re-deal may move, so that no game declares less than its views hide.

The module also plants the defects the property is there to catch: a Camping Life that
watches only the coins on the cards (as its undo did) and a Summer Camp that forgets the hands.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import chain

import pytest

from engine import undo
from engine.camping_life import CampingLifeGame
from engine.camping_life.view import COIN_IDS
from engine.core import full_view, play
from engine.registry import GAMES
from engine.summer_camp import SummerCampGame
from engine.summer_camp.view import hidden as summer_camp_hidden
from tests.engine.camping_life.conftest import before_the_last_table_coin
from tests.engine.redeal import REDEALS

UNDO = {"type": "undo"}
TAKE_BACK = 0.3  # how often an undo offered is taken
TAKE_MORE = 0.8  # and once one was, how often the step before is taken back too
TRIES = 20  # re-deals tried for one with a move like the step's

# (game, players, options, steps): every player count, the modules on at some.
CASES = [
    ("summer-camp", 2, {}, 3000),
    ("summer-camp", 3, {"packs": ["games", "friendship", "adventure"]}, 3000),
    ("summer-camp", 4, {"packs": ["arts_crafts", "outdoors", "water_sports"]}, 3000),
    ("pinetop", 2, {}, 1500),
    ("pinetop", 3, {"friendship": True, "nature": True}, 1500),
    ("pinetop", 4, {"nature": True, "tower": True}, 1500),
    ("pinetop", 5, {"friendship": True, "tower": True}, 1500),
    ("camping-life", 2, {}, 8000),
]


def walk(game, players: int, options: dict, steps: int, seed: int):
    """``steps`` seeded random steps, games started again as they end, an undo taken with
    probability ``TAKE_BACK`` whenever one is offered (``TAKE_MORE`` right after another):
    each as (before, seat, move, after)."""
    rng = random.Random(seed)
    state = game.setup(players, game.options(options), seed)
    undid = False
    for _ in range(steps):
        if game.outcome(state) is not None:
            seed += 1000
            state = game.setup(players, game.options(options), seed)
        seat = game.to_act(state)[0]
        offered = bool(state.undo) and state.undo[-1].seat == seat
        undid = offered and rng.random() < (TAKE_MORE if undid else TAKE_BACK)
        move = UNDO if undid else rng.choice(game.legal_moves(state, seat))
        after = play(game, state, seat, move)
        yield state, seat, move, after
        state = after


def observers(state) -> tuple:
    return (*range(state.players), None)


def shown(game, state, observer) -> dict:
    return full_view(game, state, observer, person=observer is not None)


def undeclared(game, state, observer, rng) -> str | None:
    """What the re-deal for ``observer`` may move and ``hidden`` does not name, or the
    reverse; ``None`` when they are the same things. The re-deal must keep what ``observer``
    sees: it moves only what the view hides."""
    other, dealt, _ = REDEALS[game.id](state, observer, game.to_act(state)[0], rng)
    assert shown(game, other, observer) == shown(game, state, observer)
    named = Counter(chain.from_iterable(game.hidden(state, observer)))
    dealt = Counter(dealt)
    if named == dealt:
        return None
    return (
        f"hidden to {observer} and not named: {sorted(map(str, (dealt - named).elements()))}; "
        f"named and not hidden: {sorted(map(str, (named - dealt).elements()))}"
    )


def shows_something(game, before, seat, move, after, rng, tally: Counter) -> str | None:
    """How the step ``move`` of ``seat`` from ``before`` (to ``after``) would have looked to
    some observer had what it could not see been dealt otherwise; ``None`` if it looks the
    same to all. To the others, the step itself shows that ``seat`` could make it (a camper
    placed where its hand pays for the tent): their re-deals are drawn among those that let
    ``seat`` make it, and the step is compared on the first of ``TRIES`` that does."""
    lines = [e.text for e in after.log]
    for observer in observers(before):
        for _ in range(TRIES):
            other, _, remap = REDEALS[game.id](before, observer, seat, rng)
            assert shown(game, other, observer) == shown(game, before, observer), (
                f"the re-deal changed what {observer} sees"
            )
            mapped = remap(move)
            if mapped is not None and mapped in game.legal_moves(other, seat):
                break
            if observer == seat:
                return f"{move!r} of {seat} is not legal once what {seat} cannot see is dealt again"
        else:
            tally["unmatched"] += 1
            continue
        tally["compared"] += 1
        then = play(game, other, seat, mapped)
        if shown(game, then, observer) != shown(game, after, observer):
            return f"{observer} sees another table after {move!r} of {seat}: {lines}"
        if [e.text for e in then.log] != lines:
            return f"{observer} reads {[e.text for e in then.log]}, not {lines}"
    return None


def first_counterexample(
    game, players: int, options: dict, steps: int, seed: int, tally: Counter | None = None
) -> str | None:
    """The first step of a walk left undoable though it showed someone something."""
    tally = Counter() if tally is None else tally
    rng = random.Random(seed)
    undid = False  # the step before was an undo
    for before, seat, move, after in walk(game, players, options, steps, seed):
        tally["steps"] += 1
        if move == UNDO:
            tally["undone"] += 1
            tally["twice in a row"] += undid
        undid = move == UNDO
        if undid or not after.undo:
            continue
        tally["kept"] += 1
        problem = shows_something(game, before, seat, move, after, rng, tally)
        if problem is not None:
            return problem
    return None


@pytest.mark.parametrize(
    ("kind", "players", "options", "steps"), CASES, ids=[f"{k}-{n}" for k, n, _, _ in CASES]
)
def test_a_step_that_can_be_taken_back_shows_nobody_anything(kind, players, options, steps):
    game = GAMES[kind]
    tally = Counter()
    problem = first_counterexample(game, players, options, steps, players, tally)
    assert problem is None, problem
    # Undo was offered and taken often, several steps in a row too; and nearly every step
    # was compared for every observer.
    assert tally["kept"] > steps // 10 and tally["undone"] > steps // 40, tally
    assert tally["twice in a row"] > 3, tally
    assert tally["unmatched"] * 100 < tally["compared"], tally


@pytest.mark.parametrize(
    ("kind", "players", "options"), [c[:3] for c in CASES], ids=[f"{k}-{n}" for k, n, _, _ in CASES]
)
def test_hidden_names_what_each_view_hides(kind, players, options):
    game = GAMES[kind]
    rng = random.Random(players)
    for k, (before, _, _, _) in enumerate(walk(game, players, options, 600, 50 + players)):
        if k % 3 == 0:
            for observer in observers(before):
                problem = undeclared(game, before, observer, rng)
                assert problem is None, problem
            assert spectator_misses(game, before) is None


def spectator_misses(game, state) -> str | None:
    """A place some seat cannot see into that the spectator's places leave out: ``revealed``
    asks the spectator first and stops there when none of its places changed."""
    theirs = Counter(map(repr, game.hidden(state, None)))
    for seat in range(state.players):
        missing = Counter(map(repr, game.hidden(state, seat))) - theirs
        if missing:
            return f"seat {seat} cannot see into {sorted(missing)}, which a spectator can"
    return None


def _coins_on_cards_only(state, seat):
    """Camping Life's undo as it was, as a ``hidden``: the piles and the secret missions, but
    of the other player's coins only those on the cards."""
    places = [state.draw, state.mission_pile]
    for p in range(state.players):
        if p != seat:
            places.append([] if state.phase == "over" else [state.secret_missions[p]])
            places.append([COIN_IDS[p][b.coin] for b in state.card_bids if b.seat == p])
    return places


def _without_hands(self, state, seat):
    """A Summer Camp ``hidden`` that forgets the other campers' hands."""
    return [
        place
        for place in summer_camp_hidden(state, seat)
        if not any(place is hand for hand in state.hands)
    ]


def test_a_camping_life_undo_watching_only_the_coins_on_cards_is_caught(monkeypatch):
    game = GAMES["camping-life"]
    monkeypatch.setattr(CampingLifeGame, "hidden", staticmethod(_coins_on_cards_only))
    rng = random.Random(1)
    state, coin = before_the_last_table_coin()
    after = play(game, state, 1, coin)
    assert after.undo  # the table coin that turned both over could be taken back again
    problem = shows_something(game, state, 1, coin, after, rng, Counter())
    assert problem is not None and "Table coins turned over" in str(problem), problem
    # A walk finds such a step, and the re-deal shows what the declaration leaves out.
    found = first_counterexample(game, 2, {}, 4000, 2)
    assert found is not None and "Table coins turned over" in found, found
    assert undeclared(game, state, 1, rng) == (
        "hidden to 1 and not named: ['(0, 2)']; named and not hidden: []"
    )


def test_a_summer_camp_that_forgets_the_hands_is_caught(monkeypatch):
    game = GAMES["summer-camp"]
    monkeypatch.setattr(SummerCampGame, "hidden", _without_hands)
    problem = first_counterexample(game, 2, {}, 400, 2)
    assert problem is not None and "plays" in problem, problem
    state = game.setup(2, game.options({}), 2)
    assert undeclared(game, state, 1 - game.to_act(state)[0], random.Random(2)) is not None


def _spectator_sees_everything(self, state, seat):
    """A Summer Camp whose spectator sees into every place, piles and hands alike."""
    return summer_camp_hidden(state, seat) if seat is not None else []


def test_a_spectator_who_sees_what_a_seat_cannot_is_caught(monkeypatch):
    game = GAMES["summer-camp"]
    state = game.setup(2, game.options({}), 2)
    assert spectator_misses(game, state) is None
    monkeypatch.setattr(SummerCampGame, "hidden", _spectator_sees_everything)
    assert "which a spectator can" in (spectator_misses(game, state) or "")
    # ``revealed`` would then ask nobody but the spectator, and a camper could take back a
    # card drawn from their pile: a walk finds such a step.
    assert first_counterexample(game, 2, {}, 400, 2) is not None


def test_a_coin_turned_over_is_revealed_though_a_coin_alike_stays_face_down():
    """Red's face-down table coin is a 2 and so is one on a card: once the table coins are
    turned over, Red's hidden coins still include a 2, but one 2 fewer."""
    game = GAMES["camping-life"]
    state, coin = before_the_last_table_coin()
    after = play(game, state, 1, coin)
    was, now = (set(chain.from_iterable(game.hidden(s, 1))) for s in (state, after))
    assert (0, 2) in now and was <= now  # as sets, nothing went
    assert undo.revealed(game, state, after)
    assert not undo.revealed(game, state, state)
