"""What a player pays and gives: the level of a patch held or borrowed, the hand limit, the
cost of a patch and of a placement, the gifts due for joining other players' campers, and a
camper's gifts and cost worked out again when a power is borrowed on the way."""

from __future__ import annotations

from engine.pinetop import nature
from engine.pinetop.cards import (
    ANY,
    BEAVER,
    ELK,
    GREY,
    MAP_CARDS,
    OTTER,
    PATCHES,
    PATCHES_OF,
    RANKS,
)
from engine.pinetop.payment import TENT
from engine.pinetop.state import Pending, PinetopState

GREY_PATCHES = PATCHES_OF[GREY]
GREY_SUIT = {p.key: p.suit for p in PATCHES.values() if p.suit is not None}
"""The supply each grey patch stands for."""
# The other seats in turn order after each seat, per player count.
TURN_ORDER = {n: [[(seat + i) % n for i in range(1, n)] for seat in range(n)] for n in range(2, 6)}


def level(s: PinetopState, seat: int, patch: str) -> int:
    """0: not held, 1: basic, 2: advanced; a power borrowed this turn counts too."""
    held = s.patches[seat].get(patch)
    own = 0 if held is None else 1 + held
    b = s.borrowed
    if b is not None and seat == s.active and b.patch == patch:
        own = max(own, 1 + b.advanced)
    return own


def hand_limit(s: PinetopState, seat: int) -> int:
    return RANKS[s.rank[seat]].hand_limit + level(s, seat, "pack_mule")


def greys(s: PinetopState, seat: int) -> frozenset[str]:
    """The supplies any card stands for when ``seat`` pays (its grey patches)."""
    return frozenset(GREY_SUIT[k] for k in GREY_PATCHES if level(s, seat, k))


def patch_cost(s: PinetopState, seat: int, pos: int) -> tuple[str, ...]:
    """What ``seat`` pays for a patch at ``pos``: each advanced grey patch takes one of its
    supply off, the Elk the last supply left, rain adds one card of any supply."""
    cost = MAP_CARDS[s.grid[pos]].cost
    held = s.patches[seat]
    if s.borrowed is not None or any(held.get(k) for k in GREY_PATCHES):
        left = list(cost)
        for k in GREY_PATCHES:
            suit = GREY_SUIT[k]
            if suit in left and level(s, seat, k) == 2:
                left.remove(suit)
        cost = tuple(left)
    if s.nature is None:
        return cost
    if cost and nature.animal_at(s, pos, ELK):
        cost = cost[:-1]
    if nature.rainy(s, pos):
        cost = (*cost, ANY)
    return tuple(cost)


def tent_cost(s: PinetopState, seat: int, pos: int) -> tuple[str, ...]:
    """The tent cards that place a camper at ``pos``: a matching pair (wilds count), less with
    Shelter Builder or the Beaver."""
    tent = TENT + MAP_CARDS[s.grid[pos]].colour
    shelter = level(s, seat, "shelter_builder")
    if shelter == 2 or nature.animal_at(s, pos, BEAVER):
        return (tent,)
    return (tent, ANY) if shelter else (tent, tent)


def gifts_due(s: PinetopState, seat: int, pos: int) -> tuple[tuple[int, ...], int]:
    """Who may receive a gift for joining ``pos``, and how many gifts are due: "no more than
    one card per player ... in a single turn", so not those given one this turn already."""
    here = s.campers[pos]
    if not here:
        return (), 0
    gifted = s.gifted
    owed = tuple(p for p in TURN_ORDER[s.players][seat] if p in here and p not in gifted)
    if not owed or nature.animal_at(s, pos, OTTER):  # the Otter: at the first placements too
        return (), 0
    if s.phase == "setup":
        return owed, len(owed)
    neighbour = level(s, seat, "good_neighbor")
    if neighbour == 2:
        return (), 0
    return owed, min(1, len(owed)) if neighbour else len(owed)


def repriced(s: PinetopState, seat: int) -> Pending:
    """The camper on its way with a power borrowed during its gifts or payment (Good
    Neighbor, Shelter Builder, an advanced grey patch): the gifts still due and the cost
    worked out again; the cards put down count toward the new cost."""
    p = s.pending
    assert p is not None  # a power borrowed on a camper's way
    if p.kind == "gain":
        cost = patch_cost(s, seat, p.to)
    elif p.kind == "place":
        cost = tent_cost(s, seat, p.to)
    else:
        cost = p.cost
    gifts = p.gifts
    neighbour = level(s, seat, "good_neighbor")
    if neighbour == 2 or (neighbour and p.given):  # "at most 1 card in all", or none
        gifts = 0
    elif neighbour:
        gifts = min(gifts, 1)
    return p.model_copy(update={"cost": cost, "gifts": gifts, "owed": p.owed if gifts else ()})
