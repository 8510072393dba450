"""A heuristic bot for Let's Take a Hike. It decides only from its seat's view and the moves
offered: backpacks, scoring piles and the hiking pile are public, the draw pile is a count.

It weighs the next hike card against its backpack: the cards it has not seen (the deck
minus every face-up card) give the chance that the card empties its backpack (losing a
whole hike), the miles it would have to throw away, and the miles it would add to the pile.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from pydantic import BaseModel

from engine.hike.cards import BEAR, BEAR_SPRAY, BLISTER, CARDS, GRANOLA_BAR, RACCOON, SKUNK, SOCKS
from engine.hike.moves import (
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

DECK = Counter(c.name for c in CARDS)
MILES = {c.name: c.miles for c in CARDS}
ITEMS = {c.name for c in CARDS if c.is_item}
# Items that protect against a hazard are worth keeping beyond their miles.
GUARDS = {SOCKS: 1.5, BEAR_SPRAY: 1.0}
# What a mile in the backpack is worth early in the game (it pays for later hikes), and the
# part of a bigger hiking pile a hiker expects when others are still on the hike; both
# measured against the random bot.
BACKPACK_MILE = 1.0
SHARE = 0.3

Shown = dict[str, Any]
"""A card or a seat as the view shows it."""


def _held(seat: Shown) -> list[Shown]:
    return [c for c in seat["backpack"].values() if c is not None]


def _unseen(view: dict[str, Any]) -> Counter[str]:
    """How many of each card the bot has not seen face up (in the draw or discard pile)."""
    seen: Counter[str] = Counter()
    for seat in view["seats"]:
        seen.update(c["name"] for c in _held(seat))
        seen.update(c["name"] for c in seat["scored"])
    if view["hike"]:
        seen.update(c["name"] for c in view["hike"]["pile"])
    if view["pending"]:
        seen[view["pending"]["name"]] += 1
    return Counter({k: n - seen[k] for k, n in DECK.items() if n > seen[k]})


class Risk:
    """What the next card turned up on a hike means to a backpack, on average."""

    def __init__(self, held: list[Shown], unseen: Counter[str]):
        names = Counter(c["name"] for c in held)
        miles = sorted(c["miles"] for c in held)
        total = sum(miles)
        socks, spray = SOCKS in names, BEAR_SPRAY in names
        cards = len(held)
        n = sum(unseen.values()) or 1
        bust = loss = gain = 0.0
        for name, count in unseen.items():
            if name in ITEMS:
                gain += count * MILES[name]
                if name in names:
                    continue
                if total <= MILES[name]:
                    bust += count
                else:
                    loss += count * MILES[name]
            elif name == RACCOON:
                bust += count * (cards == 1)
                loss += count * (miles[0] if miles else 0)
            elif name == SKUNK:
                bust += count * (cards <= 2)
                loss += count * sum(miles[:2])
            elif name == BLISTER and not socks:
                bust += count * (cards == 1)
                loss += count * (miles[-1] if miles else 0)
            elif name == BEAR and not spray:
                bars = names[GRANOLA_BAR]
                bust += count * (bars == cards and cards > 0)
                loss += count * bars
        self.bust = bust / n if cards else 1.0
        self.loss = loss / n
        self.gain = gain / n


def _keep_value(card: Shown, held: list[Shown]) -> float:
    """How much a card is worth keeping: miles, guards, and being the only one of its item
    (a second copy does not help to match a hike card)."""
    same = sum(c["name"] == card["name"] for c in held)
    value: float = card["miles"] + GUARDS.get(card["name"], 0.0)
    return value + (1.5 if same == 1 else 0.0)


def _late(view: dict[str, Any]) -> float:
    """0 early in the game, 1 when the draw pile is nearly gone: backpacks then lose their
    worth, since they never score."""
    if view["ended_during_hike"]:
        return 1.0
    left: int = view["draw_pile"]
    horizon = 8 * len(view["seats"])
    return max(0.0, min(1.0, 1 - left / horizon))


def heuristic_bot(view: dict[str, Any], legal: list[Move], rng: random.Random) -> Move:
    me = view["seats"][view["you"]]
    held = _held(me)
    kinds: set[type[BaseModel]] = {type(m) for m in legal}
    if Draw in kinds:
        return _turn(view, held, kinds)
    if Join in kinds:
        risk = Risk(held, _unseen(view))
        late = _late(view)
        join = risk.bust < 0.12 + 0.5 * late and len(held) >= 5 - 2 * late
        return Join() if join else StayBehind()
    if Pack in kinds:
        return next(m for m in legal if isinstance(m, Pack))
    if Discard in kinds:
        return _discard(view, me, held, legal)
    return _continue_or_drop(view, held, legal, kinds)


def _turn(view: dict[str, Any], held: list[Shown], kinds: set[type[BaseModel]]) -> Move:
    if TakeHike not in kinds:
        return Draw()
    risk = Risk(held, _unseen(view))
    late = _late(view)
    if late >= 1 or len(held) >= 6:
        return TakeHike()
    if risk.bust < 0.1 and len(held) >= 5 - 2 * late:
        return TakeHike()
    return Draw()


def _discard(view: dict[str, Any], me: Shown, held: list[Shown], legal: list[Move]) -> Move:
    by_id = {c["id"]: c for c in [*held, *me["unpacked"]]}
    if me["unpacked"]:
        held = me["unpacked"]
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


def _continue_or_drop(
    view: dict[str, Any], held: list[Shown], legal: list[Move], kinds: set[type[BaseModel]]
) -> Move:
    hike = view["hike"]
    drops = [m for m in legal if isinstance(m, DropOut)]
    best_drop = max(drops, key=lambda m: _score_value(view, m))
    if Continue not in kinds:
        return best_drop
    items = [c["miles"] for c in hike["pile"] if c["kind"] == "item"]
    alone = len(hike["hikers"]) == 1
    at_stake = sum(items) if alone else max(items, default=0)
    risk = Risk(held, _unseen(view))
    worth = BACKPACK_MILE * (1 - _late(view))
    gain = (1 - risk.bust) * risk.gain * (1 if alone else SHARE)
    total = sum(c["miles"] for c in held)
    if gain - risk.bust * (at_stake + worth * total) - worth * risk.loss > 0:
        return Continue()
    return best_drop


def _score_value(view: dict[str, Any], m: DropOut) -> int:
    if m.score is None:
        return 0
    for c in view["hike"]["pile"]:
        if c["id"] == m.score:
            miles: int = c["miles"]
            return miles
    return 0
