"""What one seat may see of a Camp Pinetop game.

Everything on the table is public: the map, every camper, the face-up supply cards, the
discard pile, mastery cards and their discs, every player's rank, patches, campers left and
hand size, the module pieces. Hidden: the other players' hands and the supply deck's order
(only its size is shown). Gifts are given face down: the log says who gave a card to whom,
never which.

``view(state, seat)`` returns (``seat`` is ``None`` for a spectator; merged by
``engine.core.full_view`` with ``you``, ``to_act``, ``legal_moves``, ``outcome``)::

    {
      "phase": "setup" | "action" | "draw" | "gift" | "pay" | "power" | "mastery"
               | "after" | "discard" | "over",
      "turn": int (0 during setup), "active": seat,
      "first": seat,                 # the first player (drawn at setup)
      "options": {"friendship": bool, "nature": bool, "animal": str, "tower": bool},
      "grid": {"cols": int, "rows": int},
      "map": [{                      # one per position, row by row from the top left
          "pos": int, "row": int, "col": int,
          "card": int,               # a map card id: catalog["map_cards"][id]
          "campers": [seat],         # one entry per camper, in order of arrival
      }],
      "supply": {
          "deck": int,               # cards left, never their order
          "discard": int, "discard_top": card | None,
          "face_up": [card | None] * 4,   # left of the deck: 0 outer, 1 inner;
                                          # right of it: 2 inner, 3 outer
      },
      "masteries": [{"key": str,     # catalog["masteries"] by key
                     "spots": [{"patch": str, "seat": seat | None}] * 4}],
      "seats": [{
          "seat": int, "name": "Red" | "Blue" | "Yellow" | "Green" | "Purple",
          "rank": int (0 Possum .. 4 Badger), "rank_name": str, "hand_limit": int,
          "hand_count": int, "hand": [card] | None (yours only),
          "campers_left": int,       # still in the player's supply
          "patches": [{"patch": str, "advanced": bool}],   # in catalog order
          "advanced": int,           # advanced patches
          "masteries": [str],        # mastery cards this player has a disc on
          "friendship": "none" | "held" | "used" | None (None: module off),
      }],
      "turn_state": {                # the active player's turn so far
          "drawn": int,              # cards drawn by the draw action
          "moved": bool,             # Draw & Move with the move first: its card to draw
          "draw_side": "left" | "right" | None,
          "refreshed": bool, "acted": bool (the action is over),
          "steps": int,              # Trailblazer's free moves made this turn
          "borrowed": {"owner": seat, "patch": str, "advanced": bool} | None,
      },
      "pending": None | {            # a camper on its way, its gifts and payment to make
          "kind": "setup" | "move" | "gain" | "place" | "power",
          "start": int | None, "to": int, "patch": str | None,
          "owed": [seat], "gifts": int,
          "cost": [requirement],     # "wood" | "water" | "food" | "rope" | "any"
                                     # | "tent:green" | "tent:blue" | "tent:grey"
          "paid": [card],            # put down so far (face up)
      },
      "power": None | {"patch": str, "advanced": bool, "left": int},
      "waiting": [{"patch": str, "advanced": bool, "left": int}],  # green powers due next
      "nature": None | {
          "weather": "sunny" | "rain" | "wind",
          "weather_pos": int,        # clockwise round the map from above the top-left card
          "weather_line": {"axis": "row" | "col", "index": int},
          "animals": {animal: pos},  # bear, eagle and one of elk, trout, beaver, otter
          "forecast": conditions card (catalog["conditions"][id]),
          "conditions_left": int, "shifts": int,
      },
      "tower": int | None,           # the Observation Tower's position
      "winner": seat | None,
    }

``card`` is ``{"id", "suits": [supply], "wild": bool, "tent": colour | None, "tower": bool,
"double": bool}`` (``catalog["supply"][id]``). Dicts shared between views: treat a view as
read-only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.pinetop.board import ring_line
from engine.pinetop.cards import CONDITIONS, MASTERIES, PATCHES, RANKS, SUPPLY
from engine.pinetop.costs import hand_limit
from engine.pinetop.state import SEAT_NAMES, PinetopState

CARD_JSON = [c.to_json() for c in SUPPLY]  # shared by every view: never mutate a view
CONDITIONS_JSON = [c.to_json() for c in CONDITIONS]
PATCH_ORDER = {k: i for i, k in enumerate(PATCHES)}


def _card(i: int | None) -> dict[str, Any] | None:
    return None if i is None else CARD_JSON[i]


def view(s: PinetopState, seat: int | None) -> dict[str, Any]:
    p = s.pending
    return {
        "phase": s.phase,
        "turn": s.turn,
        "active": s.active,
        "first": s.first,
        "options": s.options.model_dump(),
        "grid": {"cols": s.cols, "rows": s.rows},
        "map": [
            {
                "pos": pos,
                "row": pos // s.cols,
                "col": pos % s.cols,
                "card": card,
                "campers": list(s.campers[pos]),
            }
            for pos, card in enumerate(s.grid)
        ],
        "supply": {
            "deck": len(s.deck),
            "discard": len(s.discard),
            "discard_top": _card(s.discard[-1]) if s.discard else None,
            "face_up": [_card(c) for c in s.face_up],
        },
        "masteries": [
            {
                "key": key,
                "spots": [
                    {"patch": patch, "seat": taker}
                    for patch, taker in zip(MASTERIES[key].patches, s.claims[i])
                ],
            }
            for i, key in enumerate(s.masteries)
        ],
        "seats": [_seat(s, x, seat) for x in range(s.players)],
        "turn_state": {
            "drawn": s.drawn,
            "moved": s.moved,
            "draw_side": s.draw_side,
            "refreshed": s.refreshed,
            "acted": s.acted,
            "steps": s.steps,
            "borrowed": s.borrowed.model_dump() if s.borrowed else None,
        },
        "pending": None
        if p is None
        else {
            "kind": p.kind,
            "start": p.start,
            "to": p.to,
            "patch": p.patch,
            "owed": list(p.owed),
            "gifts": p.gifts,
            "cost": list(p.cost),
            "paid": [_card(c) for c in p.paid],
        },
        "power": s.power.model_dump() if s.power else None,
        "waiting": [w.model_dump() for w in s.waiting],
        "nature": _nature(s),
        "tower": s.tower,
        "winner": s.winner,
    }


def _seat(s: PinetopState, x: int, viewer: int | None) -> dict[str, Any]:
    held = s.patches[x]
    return {
        "seat": x,
        "name": SEAT_NAMES[x],
        "rank": s.rank[x],
        "rank_name": RANKS[s.rank[x]].name,
        "hand_limit": hand_limit(s, x),
        "hand_count": len(s.hands[x]),
        "hand": [CARD_JSON[c] for c in s.hands[x]] if x == viewer else None,
        "campers_left": s.campers_left[x],
        "patches": [
            {"patch": k, "advanced": held[k]} for k in sorted(held, key=PATCH_ORDER.__getitem__)
        ],
        "advanced": sum(held.values()),
        "masteries": [key for i, key in enumerate(s.masteries) if x in s.claims[i]],
        "friendship": s.friendship[x] if s.options.friendship else None,
    }


def _nature(s: PinetopState) -> dict[str, Any] | None:
    n = s.nature
    if n is None:
        return None
    axis, index = ring_line(s.cols, s.rows, n.weather_pos)
    return {
        "weather": n.weather,
        "weather_pos": n.weather_pos,
        "weather_line": {"axis": axis, "index": index},
        "animals": dict(n.animals),
        "forecast": CONDITIONS_JSON[n.forecast],
        "conditions_left": len(n.deck),
        "shifts": n.shifts,
    }


CONDITION_IDS = [("conditions", c.id) for c in CONDITIONS]
"""A conditions card as a hidden thing (``hidden``): supply cards are numbered alike."""


def hidden(s: PinetopState, seat: int | None) -> list[Sequence[int | tuple[str, int]]]:
    """The places ``seat`` cannot see into (``None``: a spectator), each a list of the things
    there (``engine.undo``): the supply deck and the other players' hands, by supply card, and
    the conditions deck (Nature). The discard pile is public: every card in it was put down
    face up."""
    places: list[Sequence[int | tuple[str, int]]] = [
        s.deck,
        *(hand for p, hand in enumerate(s.hands) if p != seat),
    ]
    if s.nature is not None:
        places.append([CONDITION_IDS[c] for c in s.nature.deck])
    return places
