"""Hazards and what players owe: the discards a hazard or a hike card asks for, and those the
engine makes itself because nobody could choose differently."""

from __future__ import annotations

from engine.core import IllegalMove, copy_model
from engine.hike import backpack as bpk
from engine.hike.cards import (
    BEAR,
    BEAR_SPRAY,
    BLISTER,
    CARDS,
    GRANOLA_BAR,
    RACCOON,
    SKUNK,
    SOCKS,
    Card,
)
from engine.hike.deck import PLAYERS, card_with_miles, one_per_item, total_miles
from engine.hike.state import Debt, HikeState
from engine.words import plural

# Debts are replaced, never changed (see ``discard_from``), so the ones a hazard or a hike
# card sets are made once too.
RACCOON_DEBT = Debt(rule="any", count=1, reason="Raccoon")


SKUNK_DEBTS = {n: Debt(rule="any", count=n, reason="Skunk") for n in (1, 2)}


BLISTER_DEBT = Debt(rule="highest", count=1, reason="Blister")


MILES_DEBTS = tuple(
    Debt(rule="miles", miles=c.miles, reason=c.title) if c.is_item else None for c in CARDS
)


def debt_choices(s: HikeState, seat: int) -> list[int]:
    """The cards (one per item) that ``seat`` may discard towards what it owes."""
    debt = s.debts[seat]
    cards = bpk.contents(s.backpacks[seat])
    if debt is None or not cards:
        return []
    if debt.rule == "highest":
        top = max(CARDS[c].miles for c in cards)
        cards = [c for c in cards if CARDS[c].miles == top]
    return one_per_item(cards)


def has_item(bp: dict[str, int | None], name: str) -> bool:
    for c in bp.values():
        if c is not None and CARDS[c].name == name:
            return True
    return False


def hazard(s: HikeState, c: Card, seats: list[int]) -> None:
    """Apply a hazard to ``seats`` (the drawer, or every hiker). The Bear off a hike goes
    into every backpack."""
    if c.name == BEAR:
        victims = seats if s.hike is not None else list(range(s.players))
        fed = False
        for seat in victims:
            bp = s.backpacks[seat]
            bars = [x for x in bpk.contents(bp) if CARDS[x].name == GRANOLA_BAR]
            if not bars:
                continue
            if has_item(bp, BEAR_SPRAY):
                s.say(f"{PLAYERS[seat]}'s Bear Spray keeps the bear away.", seat)
                continue
            for x in bars:
                bp = bpk.without(bp, x)
                s.discard_pile.append(x)
            s.backpacks[seat] = bp
            fed = True
            s.say(f"The bear eats {PLAYERS[seat]}'s {plural(len(bars), 'granola bar')}.", seat)
        if not fed:
            s.say("The bear finds no granola bars to eat.")
        return
    for seat in seats:
        bp = s.backpacks[seat]
        held = bpk.contents(bp)
        if not held:
            s.say(f"{PLAYERS[seat]}'s backpack is empty: the {c.title} finds nothing.", seat)
            continue
        if c.name == RACCOON:
            s.debts[seat] = RACCOON_DEBT
        elif c.name == SKUNK:
            s.debts[seat] = SKUNK_DEBTS[min(2, len(held))]
        elif c.name == BLISTER:
            if has_item(bp, SOCKS):
                s.say(f"{PLAYERS[seat]}'s Socks prevent the blister.", seat)
            else:
                s.debts[seat] = BLISTER_DEBT


def pay_debt(s: HikeState, seat: int, card_id: int) -> None:
    debt = s.debts[seat]
    assert debt is not None  # only a seat that owes cards is asked to discard
    bp = s.backpacks[seat]
    if bpk.space_of(bp, card_id) is None:
        raise IllegalMove("That card is not in your backpack.")
    c = CARDS[card_id]
    if debt.rule == "highest" and c.miles != max(CARDS[x].miles for x in bpk.contents(bp)):
        raise IllegalMove("The Blister takes a card with the most miles in your backpack.")
    discard_from(s, seat, c)


def discard_from(s: HikeState, seat: int, c: Card) -> None:
    """Discard ``c`` from ``seat``'s backpack towards what the seat owes."""
    s.backpacks[seat] = bpk.without(s.backpacks[seat], c.id)
    s.discard_pile.append(c.id)
    debt = s.debts[seat]
    assert debt is not None  # what is discarded here pays a debt
    to = "for" if debt.rule == "miles" else "to"
    s.say(f"{PLAYERS[seat]} discards the {card_with_miles(c)} {to} the {debt.reason}.", seat)
    if debt.rule == "miles":
        left = debt.miles - c.miles
        s.debts[seat] = copy_model(debt, {"miles": left}) if left > 0 else None
    elif debt.rule == "any" and debt.count > 1:
        s.debts[seat] = copy_model(debt, {"count": debt.count - 1})
    else:
        s.debts[seat] = None


def settle(s: HikeState) -> None:
    """Make every discard nobody could choose differently."""
    for seat, debt in enumerate(s.debts):
        while debt is not None:
            held = bpk.contents(s.backpacks[seat])
            if not held:
                s.debts[seat] = None
                break
            everything = (debt.rule == "any" and debt.count >= len(held)) or (
                debt.rule == "miles" and total_miles(held) <= debt.miles
            )
            if everything:
                for x in held:
                    discard_from(s, seat, CARDS[x])
                s.debts[seat] = None
                break
            choices = debt_choices(s, seat)
            if len(choices) != 1:
                break
            discard_from(s, seat, CARDS[choices[0]])
            debt = s.debts[seat]
