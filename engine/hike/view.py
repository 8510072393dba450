"""What a seat sees of a Let's Take a Hike game.

Backpacks are face up on the table and scored cards are public, so every seat (and a
spectator) sees the same thing; only the draw pile's order and the RNG are hidden. The draw
and discard piles are given as counts (discards may be placed face down).

The view (merged by ``engine.core.full_view`` with ``you``, ``to_act``, ``legal_moves``
and ``outcome``)::

    {
      "spaces": ["top", "left_hand", "left_pocket", "middle", "right_pocket",
                 "right_hand", "bottom"],
      "phase": "setup" | "turn" | "pack" | "join" | "resolve" | "decide" | "over",
      "turn": seat,                      # whose turn it is (during a hike: who announced it)
      "draw_pile": int,                  # cards left, never their order
      "discard_pile": int,
      "pending": Card | null,            # the drawn item waiting to be packed
      "seats": [                         # one per seat
        {
          "seat": int,
          "backpack": {space: Card | null},   # every space present
          "backpack_miles": int,
          "unpacked": [Card, ...],            # setup: dealt items that do not all fit yet
          "scored": [Card, ...],
          "score": int,                       # miles scored
          "owes": null | {"rule": "any" | "highest" | "miles",
                          "count": int, "miles": int, "reason": str},
          "hiking": bool,                     # on the hike now
        }, ...
      ],
      "hike": null | {
        "lead": seat, "original_lead": seat,
        "joined": [seat, ...],           # everyone who set out, lead first, clockwise
        "hikers": [seat, ...],           # still on the hike
        "dropped_out": [seat, ...],
        "pile": [Card, ...],             # bottom first; the last was turned up last
        "pile_miles": int,               # miles of the item cards in the pile
        "asking": [seat, ...],           # still to answer join / continue, in order
      },
      "ended_during_hike": bool,         # the draw pile ran out: last hike
      "game_over": bool,
    }

    Card = {"id", "kind": "item" | "hazard", "name", "title", "miles", "spaces": [space]}
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from engine.core import keep
from engine.hike.backpack import Backpack
from engine.hike.cards import CARD_JSON, MILES, SPACES
from engine.hike.state import Debt, HikeState

Cards = TypeVar("Cards", Backpack, list[int])
Shown = TypeVar("Shown")


def _miles(cards: Iterable[int | None]) -> int:
    return sum([MILES[c] for c in cards if c is not None])


_SEATS: dict[
    int, tuple[Backpack, Sequence[int], list[int], Debt | None, int, bool, dict[str, Any]]
] = {}
"""Recent seat entries, by the identity of the backpack they show, with everything else they
show (all kept alive here, so the ids are not reused). Moves replace a backpack, scoring
pile, dealt hand or debt rather than change it, so from one move to the next most seats show
the very same objects; views are read, never changed, so later views share the entry (and a
patch passes over it). Sized for every game a busy server has in play at once: the oldest
entry goes first."""
_SEATS_KEPT = 4096
_PARTS: dict[int, tuple[Any, Any, int]] = {}
"""The same for a backpack's or scoring pile's view form and miles, which outlive most
entries: an entry also changes when the seat joins or leaves a hike or owes a discard."""
_PARTS_KEPT = 4096


def _seat(
    p: int, bp: Backpack, dealt: Sequence[int], scored: list[int], debt: Debt | None, hiking: bool
) -> dict[str, Any]:
    hit = _SEATS.get(id(bp))
    if (
        hit is not None
        and hit[0] is bp
        and hit[1] is dealt
        and hit[2] is scored
        and hit[3] is debt
        and hit[4] == p
        and hit[5] is hiking
    ):
        return hit[6]
    backpack, backpack_miles = _part(bp, _backpack)
    shown, score = _part(scored, _cards)
    entry = {
        "seat": p,
        "backpack": backpack,
        "backpack_miles": backpack_miles,
        "unpacked": [CARD_JSON[c] for c in dealt],
        "scored": shown,
        "score": score,
        # Debt.model_dump(mode="json"), built directly
        "owes": debt
        and {"rule": debt.rule, "count": debt.count, "miles": debt.miles, "reason": debt.reason},
        "hiking": hiking,
    }
    keep(_SEATS, id(bp), (bp, dealt, scored, debt, p, hiking, entry), _SEATS_KEPT)
    return entry


def _part(cards: Cards, build: Callable[[Cards], tuple[Shown, int]]) -> tuple[Shown, int]:
    hit = _PARTS.get(id(cards))
    if hit is None or hit[0] is not cards:
        hit = (cards, *build(cards))
        keep(_PARTS, id(cards), hit, _PARTS_KEPT)
    return hit[1], hit[2]


def _backpack(bp: Backpack) -> tuple[dict[str, dict[str, Any] | None], int]:
    shown = {sp: _SHOWN[bp[sp]] for sp in SPACES}
    return shown, _miles(bp.values())


_SHOWN: dict[int | None, dict[str, Any] | None] = {None: None, **dict(enumerate(CARD_JSON))}
"""A space's view form by what it holds: a card's, or None when empty."""


def _cards(cards: list[int]) -> tuple[list[dict[str, Any]], int]:
    return [CARD_JSON[c] for c in cards], _miles(cards)


_SPACES = list(SPACES)
"""Shared by every view, like the cards' forms: views are read, never changed."""


def view(s: HikeState, seat: int | None) -> dict[str, Any]:
    hike = s.hike
    hikers = hike.hikers if hike is not None else ()
    dealt: Sequence[Sequence[int]] = s.dealt or [()] * s.players
    seats = [
        _seat(p, bp, dealt[p], scored, debt, p in hikers)
        for p, bp, scored, debt in zip(range(s.players), s.backpacks, s.scoring, s.debts)
    ]
    hike_view = None
    if hike is not None:
        hike_view = {
            "lead": hike.lead,
            "original_lead": hike.original_lead,
            "joined": list(hike.joined),
            "hikers": list(hike.hikers),
            "dropped_out": [p for p in hike.joined if p not in hike.hikers],
            "pile": [CARD_JSON[c] for c in hike.pile],
            "pile_miles": _miles(hike.pile),
            "asking": list(hike.to_ask) if s.phase in ("join", "decide") else [],
        }
    return {
        "spaces": _SPACES,
        "phase": s.phase,
        "turn": s.turn,
        "draw_pile": len(s.draw_pile),
        "discard_pile": len(s.discard_pile),
        "pending": _SHOWN[s.pending],
        "seats": seats,
        "hike": hike_view,
        "ended_during_hike": s.ended_during_hike,
        "game_over": s.game_over,
    }
