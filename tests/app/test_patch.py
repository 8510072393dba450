"""The view differ: its patches, applied by an independent RFC 6902 implementation, turn the
old view into the new one exactly."""

import json
import random

import jsonpatch
from hypothesis import given, settings
from hypothesis import strategies as st

from app.patch import make_patch
from engine.core import full_view, play
from engine.registry import GAMES

# Keys with "~" and "/" exercise pointer escaping; 1, 1.0 and true must stay apart.
KEYS = st.text("ab~/", max_size=2)
SCALARS = st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from([0.5, 1.0]) | KEYS
DOCS = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(KEYS, inner, max_size=4),
    max_leaves=25,
)


def exact(doc):
    return json.dumps(doc, sort_keys=True)


def check(old, new):
    ops = make_patch(old, new)
    assert exact(jsonpatch.apply_patch(old, ops)) == exact(new)
    return ops


@settings(max_examples=150, database=None)
@given(DOCS, DOCS)
def test_patch_turns_any_document_into_any_other(old, new):
    check(old, new)


@settings(max_examples=100, database=None)
@given(st.lists(SCALARS, max_size=8), st.lists(SCALARS, max_size=8))
def test_patch_between_lists(old, new):
    check(old, new)


def test_equal_documents_need_no_ops():
    doc = {"a": [1, {"b": None}], "c": "x"}
    assert make_patch(doc, json.loads(json.dumps(doc))) == []
    assert make_patch([1], [True]) == [{"op": "replace", "path": "/0", "value": True}]


def test_small_changes_give_small_patches():
    old = {"log": [{"text": str(i)} for i in range(100)], "hand": ["a", "b", "c", "d"]}
    new = {"log": old["log"] + [{"text": "new"}], "hand": ["a", "c", "d"]}
    assert check(old, new) == [
        {"op": "add", "path": "/log/100", "value": {"text": "new"}},
        {"op": "remove", "path": "/hand/1"},
    ]


def test_a_list_that_keeps_neither_end_is_replaced_whole():
    old = {"legal_moves": [{"move": {"type": "bid", "coin": c}} for c in range(4)], "hand": [1, 2]}
    new = {"legal_moves": [{"move": {"type": "pass"}}], "hand": [1, 2, 3]}
    assert check(old, new) == [
        {"op": "replace", "path": "/legal_moves", "value": [{"move": {"type": "pass"}}]},
        {"op": "add", "path": "/hand/2", "value": 3},
    ]
    assert check({"a": []}, {"a": [1, 2]}) == [{"op": "replace", "path": "/a", "value": [1, 2]}]
    assert check({"a": [1, 2]}, {"a": []}) == [{"op": "replace", "path": "/a", "value": []}]


def wire(view):
    """The view as a client holds it: decoded JSON, where no two places share an object."""
    return json.loads(json.dumps(view))


def test_patches_between_real_views_of_every_game():
    for game in GAMES.values():
        state = game.setup(game.min_players, game.options({}), 7)
        rng = random.Random(7)
        views = {seat: full_view(game, state, seat) for seat in (None, *range(game.min_players))}
        for _ in range(60):
            if game.outcome(state) is not None:
                break
            seat = game.to_act(state)[0]
            state = play(game, state, seat, rng.choice(game.legal_moves(state, seat)))
            for who, before in views.items():
                after = full_view(game, state, who)
                ops = make_patch(before, after)
                assert exact(jsonpatch.apply_patch(wire(before), wire(ops))) == exact(after)
                views[who] = after
