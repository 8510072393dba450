"""What one seat may see of a Camping Life game.

``view(state, seat)`` returns (``seat`` is ``None`` for a spectator)::

    {
      "round": int, "turn": int (bidding turn 1-3), "phase": "bid_card" | "bid_table" |
          "pick" | "place" | "over",
      "starter": seat, "picker": seat | None (higher table total this round),
      "open_missions": [mission], "mission_pile": int (face-down missions left),
      "secret_mission": mission | None (your own; None for a spectator),
      "secret_missions": [mission per seat] | None (only once the game is over),
      "draw_pile": int, "discard_pile": int, "discard_top": card | None (last discarded),
      "row": [{"card": card, "bids": [{"seat": s, "coin": int | None}]}],
      "next_round": [card],
      "placing": {"seat": s, "card": card} | None (the card to place now),
      "waiting": [{"seat": s, "card": card}] (won cards placed after it),
      "last_round": {  (the latest turn-over; None before the first)
          "round": int, "table_totals": [int per seat],
          "picker": seat | None (higher table total; None on a tie or with nothing to pick),
          "picked": card | None (the next-round card the picker took and placed first),
          "cards": [{  (the row, left to right)
              "card": card, "bids": [{"seat": s, "coins": [int]}] (only seats that bid),
              "winner": seat | None (None: no coin or a tie, and the card is discarded),
              "placed": bool | None (None: won, still to place; False: discarded, for want
                  of a winner or because the winner's play area is full),
          }],
      } | None,
      "seats": [{
          "seat": s, "name": "Red" | "Blue",
          "area": [[card | None] * 4] * 3 (rows top to bottom),
          "cards_in_area": int, "terrain_score": int (missions not included),
          "coins": [int] | None (coins in hand: yours only), "coins_left": int,
          "table_coins": [int] (turned over this round), "table_total": int,
          "table_coin_down": bool (a face-down table coin this turn),
          "table_coin": int | None (its value: yours only),
      }],
    }

``card`` is ``{"id", "kind", "name", "umbrella", "road"}``; ``mission`` is
``{"id", "kind": "mission", "key", "text", "points"}``. A coin on a card shows its value only
to its owner (``coin`` is ``None`` for the other seat and spectators) until the turn-over.
``last_round`` is written at the turn-over, so everything in it is public by then; until this
round's coins are turned over it is the previous round's.
Card and mission dicts are shared between views: treat a view as read-only.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from engine.camping_life.cards import CARDS
from engine.camping_life.scoring import COLS, ROWS, id_terrain_points
from engine.camping_life.state import COINS, SEAT_NAMES, CampingLifeState, CardResult, RoundSummary
from engine.core import keep


CARD_JSON = [c.to_json() for c in CARDS]  # shared by every view: never mutate a view


def _card(i: int | None) -> dict[str, Any] | None:
    return None if i is None else CARD_JSON[i]


UNBID = [{"card": card, "bids": []} for card in CARD_JSON]
"""The row entry of each card while no coin lies on it, shared like the cards."""


@lru_cache(maxsize=4096)
def _area(area: tuple[int | None, ...]) -> tuple[list[list[dict[str, Any] | None]], int, int]:
    """An area's grid of cards, its card count and terrain score: the same area is seen by
    many views in a row, which share these."""
    return (
        [
            [None if c is None else CARD_JSON[c] for c in area[r * COLS : (r + 1) * COLS]]
            for r in range(ROWS)
        ],
        sum(1 for c in area if c is not None),
        id_terrain_points(area),
    )


def view(s: CampingLifeState, seat: int | None) -> dict[str, Any]:
    # The fields read from the state's __dict__: pydantic models define __getattr__, which
    # puts every attribute read on a slow path, and a view reads the state's fields often.
    f = s.__dict__
    card = CARD_JSON.__getitem__
    bids: dict[int, list[dict[str, Any]]] = {}
    for b in f["card_bids"]:
        d = b.__dict__
        by, on, coin = d["seat"], d["card"], d["coin"]
        forms = _BIDS.get((by, on, coin))
        if forms is None:
            forms = _BIDS[by, on, coin] = ({"seat": by, "coin": coin}, {"seat": by, "coin": None})
        bid = forms[0] if by == seat else forms[1]
        if on in bids:
            bids[on].append(bid)
        else:
            bids[on] = [bid]
    placements = f["placements"]
    discard = f["discard"]
    return {
        "round": f["round"],
        "turn": f["turn"],
        "phase": f["phase"],
        "starter": f["starter"],
        "picker": f["picker"],
        "open_missions": list(map(card, f["open_missions"])),
        "mission_pile": len(f["mission_pile"]),
        "secret_mission": card(f["secret_missions"][seat]) if seat is not None else None,
        "secret_missions": (
            list(map(card, f["secret_missions"])) if f["phase"] == "over" else None
        ),
        "draw_pile": len(f["draw"]),
        "discard_pile": len(discard),
        "discard_top": card(discard[-1]) if discard else None,
        "row": [{"card": card(c), "bids": bids[c]} if c in bids else UNBID[c] for c in f["row"]],
        "next_round": list(map(card, f["next_round"])),
        "placing": (
            {"seat": placements[0].seat, "card": card(placements[0].card)} if placements else None
        ),
        "waiting": (
            [{"seat": p.seat, "card": card(p.card)} for p in placements[1:]]
            if len(placements) > 1
            else []
        ),
        "last_round": _last_round_shared(f["last_round"]),
        "seats": [_seat(f, p, seat) for p in range(f["players"])],
    }


_BIDS: dict[tuple[int, int, int], tuple[dict[str, Any], dict[str, Any]]] = {}
"""The view forms of a bid (seat, card, coin), to its owner and to the others: a bid is shown
by every view until the turn-over, and the very same form lets a patch pass over it. A bid is
a seat, a card and a coin, so there are a few hundred of them, each form made once."""


_LAST_ROUNDS: dict[int, tuple[RoundSummary, dict[str, Any] | None]] = {}
"""The view forms of recent round summaries, by id (each kept alive here, so the id is not
reused). A summary is replaced, never changed, and the same one is shown for a whole round:
every view of a game shares its form until the next turn-over, which is what lets a patch
pass over it. Sized for every game a busy server has in play at once."""
_LAST_ROUNDS_KEPT = 2048


def _last_round_shared(r: RoundSummary | None) -> dict[str, Any] | None:
    if r is None:
        return None
    hit = _LAST_ROUNDS.get(id(r))
    if hit is not None and hit[0] is r:
        return hit[1]
    shown = _last_round(r)
    keep(_LAST_ROUNDS, id(r), (r, shown), _LAST_ROUNDS_KEPT)
    return shown


def _last_round(r: RoundSummary | None) -> dict[str, Any] | None:
    if r is None:
        return None
    return {
        "round": r.round,
        "table_totals": list(r.table_totals),
        "picker": r.picker,
        "picked": _card(r.picked),
        "cards": [_card_result(c) for c in r.cards],
    }


_CARD_RESULTS: dict[int, tuple[CardResult, dict[str, Any]]] = {}
"""The view form of recent card results, by id (each kept alive here, so the id is not
reused): placing a won card replaces its result in the summary and keeps the others. Sized
for every game a busy server has in play at once."""
_CARD_RESULTS_KEPT = 4096


def _card_result(c: CardResult) -> dict[str, Any]:
    hit = _CARD_RESULTS.get(id(c))
    if hit is not None and hit[0] is c:
        return hit[1]
    shown = {
        "card": _card(c.card),
        "bids": [{"seat": p, "coins": list(coins)} for p, coins in enumerate(c.coins) if coins],
        "winner": c.winner,
        "placed": c.placed,
    }
    keep(_CARD_RESULTS, id(c), (c, shown), _CARD_RESULTS_KEPT)
    return shown


_SEATS: dict[
    tuple[int, bool],
    tuple[list[int], list[int | None], list[int], int | None, int, dict[str, Any]],
] = {}
"""Recent seat entries, by the identity of the coins in hand they show and whether the viewer
is the seat's own, with everything else they show (all kept alive here, so the ids are not
reused). A move replaces the lists it changes and shares the others with the state before,
so from one move to the next most seats show the very same objects, and views share the
entry (views are read, never changed): a patch passes over it. Sized for every game a busy
server has in play at once."""
_SEATS_KEPT = 4096


def _seat(f: dict[str, Any], p: int, viewer: int | None) -> dict[str, Any]:
    """Seat ``p`` as ``viewer`` sees it, from the fields of the state."""
    area = f["areas"][p]
    coins = f["coins"][p]
    table = f["table_coins"][p]
    hidden = f["hidden_table"][p]
    mine = p == viewer
    hit = _SEATS.get((id(coins), mine))
    if (
        hit is not None
        and hit[0] is coins
        and hit[1] is area
        and hit[2] is table
        and hit[3] == hidden
        and hit[4] == p
    ):
        return hit[5]
    grid, placed, terrain = _area(tuple(area))
    entry = {
        "seat": p,
        "name": SEAT_NAMES[p],
        "area": grid,
        "cards_in_area": placed,
        "terrain_score": terrain,
        "coins": sorted(coins) if mine else None,
        "coins_left": len(coins),
        "table_coins": table.copy(),
        "table_total": sum(table),
        "table_coin_down": hidden is not None,
        "table_coin": hidden if mine else None,
    }
    keep(_SEATS, (id(coins), mine), (coins, area, table, hidden, p, entry), _SEATS_KEPT)
    return entry


COIN_IDS = [[(p, value) for value in range(max(COINS) + 1)] for p in range(len(SEAT_NAMES))]
"""A coin as a hidden thing (``hidden``): its owner and its value, the same for two coins
alike."""


def hidden(s: CampingLifeState, seat: int | None) -> list[list[int | tuple[int, int]]]:
    """The places ``seat`` cannot see into (``None``: a spectator), each a list of the things
    there (``engine.undo``): the draw pile and the mission pile, by card, and for each other
    player their secret mission until the end and, as one place, the coins they hold or have
    put face down on the cards of the row and on the table, lowest first: a coin put face
    down leaves that place as it was, which the rule passes over at once."""
    f = s.__dict__
    places: list[list[int | tuple[int, int]]] = [f["draw"], f["mission_pile"]]
    for p in range(f["players"]):
        if p == seat:
            continue
        coins = f["coins"][p] + [b.coin for b in f["card_bids"] if b.seat == p]
        down = f["hidden_table"][p]
        if down is not None:
            coins.append(down)
        coins.sort()
        places.append([] if f["phase"] == "over" else [f["secret_missions"][p]])
        places.append(list(map(COIN_IDS[p].__getitem__, coins)))
    return places
