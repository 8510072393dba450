"""The words of each legal move, as a view shows them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from engine.core import keep, move_json
from engine.hike.cards import CARDS, SPACE_TITLES, SPACES
from engine.hike.deck import card_with_miles, total_miles
from engine.hike.moves import (
    CONTINUE,
    DRAW,
    JOIN,
    SCORE,
    STAY,
    TAKE_HIKE,
    Continue,
    Discard,
    Draw,
    DropOut,
    Join,
    Move,
    Pack,
    StayBehind,
    TakeHike,
)
from engine.hike.state import HikeState
from engine.words import plural

# Labels built once: a view labels every legal move, and most labels depend on the move alone.
_LABELS: dict[type[BaseModel], str] = {
    Draw: "Draw a card",
    TakeHike: "Take a hike",
    Join: "Join the hike",
    StayBehind: "Stay at camp",
    Continue: "Continue the hike",
}


_PACK_LABELS = tuple(
    {sp: f"Pack the {c.title} in the {SPACE_TITLES[sp]}" for sp in SPACES} for c in CARDS
)


_LEAVE_OUT_LABELS = tuple(f"Leave out the {card_with_miles(c)}" for c in CARDS)


_DISCARD_NEW_LABELS = tuple(f"Discard the new {c.title}" for c in CARDS)


_MAKE_ROOM_LABELS = tuple(f"Discard the {card_with_miles(c)} to make room" for c in CARDS)


_DISCARD_LABELS = tuple(f"Discard the {card_with_miles(c)}" for c in CARDS)


_SCORE_LABELS = tuple(f"Drop out and score the {card_with_miles(c)}" for c in CARDS)


def describe(s: HikeState, seat: int, move: Move) -> str:
    label = _LABELS.get(type(move))
    if label is not None:
        return label
    if isinstance(move, Pack):
        assert s.pending is not None  # the item drawn, to pack
        return _PACK_LABELS[s.pending][move.space]
    if isinstance(move, Discard):
        if s.phase == "setup":
            return _LEAVE_OUT_LABELS[move.card]
        if s.phase == "pack":
            if move.card == s.pending:
                return _DISCARD_NEW_LABELS[move.card]
            return _MAKE_ROOM_LABELS[move.card]
        return _DISCARD_LABELS[move.card]
    if isinstance(move, DropOut):
        if move.score is not None:
            return _SCORE_LABELS[move.score]
        hike = s.hike
        if hike is None or not (items := [c for c in hike.pile if CARDS[c].is_item]):
            return "Drop out (nothing to score)"
        if len(hike.hikers) > 1:
            return "Drop out without taking a card"
        return f"Drop out and score all {plural(len(items), 'card')} ({total_miles(items)} mi)"
    return str(move)


def labelled(s: HikeState, seat: int, legal: list[Move]) -> list[dict[str, Any]]:
    """``Game.labelled``: each move's JSON and label, made once per move and label and shared
    between views (views are read, never changed)."""
    shown = []
    for move in legal:
        entry = _FIXED_ENTRIES.get(id(move))
        if entry is None:
            label = describe(s, seat, move)
            hit = _ENTRIES.get((id(move), label))
            if hit is not None and hit[0] is move:
                entry = hit[1]
            else:
                entry = {"move": move_json(move), "label": label}
                keep(_ENTRIES, (id(move), label), (move, entry), _ENTRIES_KEPT)
        shown.append(entry)
    return shown


_FIXED_ENTRIES = {
    **{
        id(move): {"move": move_json(move), "label": _LABELS[type(move)]}
        for move in (DRAW, TAKE_HIKE, JOIN, STAY, CONTINUE)
    },
    **{
        id(move): {"move": move_json(move), "label": _SCORE_LABELS[c]}
        for c, move in enumerate(SCORE)
    },
}
"""The entries of the moves made once above whose label is the move's alone, by id (the
moves live as long as the module, so their ids are not reused)."""


_ENTRIES: dict[tuple[int, str], tuple[Move, dict[str, Any]]] = {}
"""The others' (packing, discards, dropping out with nothing chosen), by the move's id and
label, the move kept alive here so that its id is not reused; the oldest dropped first."""


_ENTRIES_KEPT = 4096
