"""The words of Camping Life's moves, as a view shows them, each entry made once and shared."""

from __future__ import annotations

from typing import Any

from engine.camping_life.area import where
from engine.camping_life.cards import CARDS
from engine.camping_life.moves import BidCard, Move, Pick
from engine.camping_life.rules import BID_CARD, BID_TABLE, PICK, PLACE
from engine.camping_life.state import CampingLifeState
from engine.core import keep, move_json

_AMONG: dict[int, str | None] = {
    **{id(m): "row" for m in BID_CARD.values()},
    **{id(m): None for m in BID_TABLE.values()},
    **{id(m): "next_round" for m in PICK.values()},
    **{id(m): None for m in PLACE.values()},
}
"""Where the card of each move built above lies, by the move's id: the label of a bid or a
pick tells the card's place in the row or the next-round cards; other labels tell none."""

_SHOWN: dict[int, dict[str, Any]] = {}
"""The view entries of the moves built above whose label tells no place, by the move's id:
each is made once, as the moves are."""

_SHOWN_AT: dict[tuple[str, int, int], dict[int, dict[str, Any]]] = {}
"""The view entries of the bids and picks built above, by where their card lies (the list,
the card, its place there) and then by the move's id."""


def labelled(s: CampingLifeState, seat: int, legal: list[Move]) -> list[dict[str, Any]]:
    """``Game.labelled``: each move's JSON and label, shared between views."""
    # The entries of every move the seat may make now, by id, so that the list is looked up
    # in one pass; a move not seen before in its place is made one by one, then kept.
    f = s.__dict__
    phase = f["phase"]
    key: tuple[str | int, ...] | None = None
    if phase == "bid_card" or phase == "pick":
        among = "row" if phase == "bid_card" else "next_round"
        # The same cards lie there for the whole round.
        cards: list[int] = f[among]
        key = (among, *cards)
        shown = _SHOWN_AMONG.get(key)
        if shown is None:
            shown = {}
            for at, card in enumerate(cards):
                entries = _SHOWN_AT.get((among, card, at))
                if entries is not None:
                    shown.update(entries)
            keep(_SHOWN_AMONG, key, shown, _SHOWN_AMONG_KEPT)
    else:
        shown = _SHOWN
    try:
        return list(map(shown.__getitem__, map(id, legal)))
    except KeyError:
        # Gathered again next time, with the entries made now.
        if key is not None:
            _SHOWN_AMONG.pop(key, None)
        return [_entry(s, seat, m) for m in legal]


_SHOWN_AMONG: dict[tuple[str | int, ...], dict[int, dict[str, Any]]] = {}
"""``_SHOWN_AT`` gathered for recent rows and next-round cards, by the cards in order. Sized
for every game a busy server has in play at once."""
_SHOWN_AMONG_KEPT = 2048


def _entry(s: CampingLifeState, seat: int, m: Move) -> dict[str, Any]:
    among = _AMONG.get(id(m), "")
    if among == "":
        return {"move": move_json(m), "label": describe(s, seat, m)}
    if among is None:
        entries = _SHOWN
    else:
        assert isinstance(m, BidCard | Pick)  # the moves whose card lies among others
        key = (among, m.card, getattr(s, among).index(m.card))
        entries = _SHOWN_AT.setdefault(key, {})
    entry = entries.get(id(m))
    if entry is None:
        entry = entries[id(m)] = {"move": move_json(m), "label": describe(s, seat, m)}
    return entry


def describe(s: CampingLifeState, seat: int, move: Move) -> str:
    # The tag, cheaper than isinstance on models, and a label is made per legal move.
    if move.type == "bid_card":
        # Two equal cards may lie in the row: the position tells them apart.
        place = s.row.index(move.card) + 1
        return f"Coin {move.coin} on the {CARDS[move.card].name} (card {place} of the row)"
    if move.type == "bid_table":
        return f"Coin {move.coin} on the table"
    if move.type == "pick":
        place = s.next_round.index(move.card) + 1
        return f"Pick the {CARDS[move.card].name} (next-round card {place})"
    return f"{CARDS[move.card].name} {where(move.row, move.col)}"
