"""Hikes: the lead hiker's call, who joins, the hiking pile, and dropping out to score."""

from __future__ import annotations

from engine.core import IllegalMove, unchecked
from engine.hike import backpack as bpk
from engine.hike.cards import CARDS
from engine.hike.deck import PLAYERS, card_with_miles, clockwise, draw_card, the_card, total_miles
from engine.hike.ending import end_turn, finish
from engine.hike.hazards import MILES_DEBTS, has_item, hazard, settle
from engine.hike.state import Hike, HikeState
from engine.words import plural

HIKE_FIELDS = frozenset(Hike.model_fields)


def announce_hike(s: HikeState, seat: int) -> None:
    if bpk.is_empty(s.backpacks[seat]):
        raise IllegalMove("You need at least one card in your backpack to take a hike.")
    others = [p for p in range(s.players) if p != seat and not bpk.is_empty(s.backpacks[p])]
    s.hike = unchecked(
        Hike,
        {
            "lead": seat,
            "original_lead": seat,
            "joined": [seat],
            "hikers": [seat],
            "pile": [],
            "to_ask": clockwise(seat, others, s.players),
        },
        set(HIKE_FIELDS),
    )
    s.say(f"{PLAYERS[seat]} takes a hike and is the lead hiker.", seat)
    if s.hike.to_ask:
        s.phase = "join"
    else:
        hike_draw(s)


def hike_draw(s: HikeState) -> None:
    hike = s.hike
    assert hike is not None  # a hike draws only while it goes on
    c = CARDS[draw_card(s)]
    hike.pile.append(c.id)
    if c.is_item:
        s.say(f"{PLAYERS[hike.lead]} turns up the {card_with_miles(c)}.", hike.lead)
        for seat in hike.hikers:
            if not has_item(s.backpacks[seat], c.name):
                s.debts[seat] = MILES_DEBTS[c.id]
    else:
        s.say(f"{PLAYERS[hike.lead]} turns up {the_card(c)}!", hike.lead)
        hazard(s, c, list(hike.hikers))
    settle(s)
    if any(s.debts):
        s.phase = "resolve"
    else:
        after_resolving(s)


def after_resolving(s: HikeState) -> None:
    hike = s.hike
    if hike is None:
        end_turn(s)
        return
    for seat in list(hike.hikers):
        if bpk.is_empty(s.backpacks[seat]):
            s.say(f"{PLAYERS[seat]}'s backpack is empty: out of the hike without scoring.", seat)
            leave(s, seat)
    if not hike.hikers:
        end_hike(s)
        return
    hike.to_ask = clockwise(hike.lead, hike.hikers, s.players)
    s.phase = "decide"


def leave(s: HikeState, seat: int) -> None:
    hike = s.hike
    assert hike is not None  # only a hiker leaves
    hike.hikers.remove(seat)
    if seat == hike.lead and hike.hikers:
        hike.lead = clockwise(seat, hike.hikers, s.players)[0]
        s.say(f"{PLAYERS[hike.lead]} is now the lead hiker.", hike.lead)


def drop_out(s: HikeState, seat: int, score: int | None) -> None:
    hike = s.hike
    assert hike is not None  # only a hiker drops out
    items = [c for c in hike.pile if CARDS[c].is_item]
    if len(hike.hikers) == 1:
        if score is not None:
            raise IllegalMove("As the last hiker you score every item card left: choose none.")
        s.scoring[seat] = [*s.scoring[seat], *items]
        hike.pile = [c for c in hike.pile if not CARDS[c].is_item]
        if items:
            s.say(
                f"{PLAYERS[seat]} drops out last and scores {plural(len(items), 'card')}, "
                f"{total_miles(items)} mi.",
                seat,
            )
        else:
            s.say(f"{PLAYERS[seat]} drops out last with nothing to score.", seat)
    elif score is None:
        if items:
            s.say(f"{PLAYERS[seat]} drops out without taking a card.", seat)
        else:
            s.say(f"{PLAYERS[seat]} drops out with nothing to score.", seat)
    else:
        if score not in items:
            raise IllegalMove("That card is not an item card in the hiking pile.")
        hike.pile.remove(score)
        s.scoring[seat] = [*s.scoring[seat], score]
        s.say(f"{PLAYERS[seat]} drops out and scores the {card_with_miles(CARDS[score])}.", seat)
    leave(s, seat)


def end_hike(s: HikeState) -> None:
    hike = s.hike
    assert hike is not None  # only a hike under way ends
    s.discard_pile.extend(hike.pile)
    s.hike = None
    if s.ended_during_hike or not s.draw_pile:
        finish(s)
        return
    s.turn = (hike.original_lead + 1) % s.players
    s.phase = "turn"
    s.say(f"The hike is over. {PLAYERS[s.turn]}'s turn.", s.turn)
