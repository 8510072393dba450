"""A heuristic bot for Let's Take a Hike. It decides only from its seat's view and the moves
offered: backpacks and scores are public, the draw pile is a count."""

from __future__ import annotations

import random

from engine.hike.moves import Continue, Discard, Draw, DropOut, Join, Pack, StayBehind, TakeHike

# Items that protect against a hazard are worth keeping beyond their miles.
GUARDS = {"socks": 1.5, "bear_spray": 1.0}


def _me(view: dict) -> dict:
    return view["seats"][view["you"]]


def _held(seat: dict) -> list[dict]:
    return [c for c in seat["backpack"].values() if c is not None]


def _keep_value(card: dict, held: list[dict]) -> float:
    """How much a card is worth keeping: miles, guards, and being the only one of its item
    (a second copy does not help to match a hike card)."""
    same = sum(c["name"] == card["name"] for c in held)
    value = card["miles"] + GUARDS.get(card["name"], 0.0)
    return value + (1.5 if same == 1 else 0.0)


def _strength(held: list[dict]) -> float:
    return sum(c["miles"] for c in held) + 1.5 * len({c["name"] for c in held})


def heuristic_bot(view: dict, legal: list, rng: random.Random):
    me = _me(view)
    held = _held(me)
    kinds = {type(m) for m in legal}
    if Draw in kinds:
        near_end = view["draw_pile"] <= 6 * len(view["seats"])
        if TakeHike in kinds and (len(held) >= 6 or (near_end and held) or _strength(held) >= 22):
            return TakeHike()
        return Draw()
    if Join in kinds:
        near_end = view["draw_pile"] <= 6 * len(view["seats"])
        return Join() if _strength(held) >= 14 or (near_end and held) else StayBehind()
    if Pack in kinds:
        return next(m for m in legal if isinstance(m, Pack))
    if Discard in kinds:
        by_id = {c["id"]: c for c in held}
        pending = view.get("pending")
        if pending is not None:
            by_id[pending["id"]] = pending
        owes = me["owes"]

        def cost(m: Discard) -> float:
            card = by_id[m.card]
            value = _keep_value(card, held)
            if owes and owes["rule"] == "miles":
                # Paying with one card that covers the debt spares the others.
                value -= 0.5 * min(card["miles"], owes["miles"])
            return value

        return min((m for m in legal if isinstance(m, Discard)), key=cost)
    hike = view["hike"]
    drops = [m for m in legal if isinstance(m, DropOut)]
    if Continue in kinds:
        hikers = len(hike["hikers"])
        pile_items = [c for c in hike["pile"] if c["kind"] == "item"]
        at_stake = sum(c["miles"] for c in pile_items) if hikers == 1 else 0
        if _strength(held) >= 12 + at_stake and len(held) >= 3:
            return Continue()
    return max(drops, key=lambda m: _score_value(view, m))


def _score_value(view: dict, m: DropOut) -> int:
    if m.score is None:
        return 0
    for c in view["hike"]["pile"]:
        if c["id"] == m.score:
            return c["miles"]
    return 0
