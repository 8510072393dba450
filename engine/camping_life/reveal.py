"""Camping Life's turn-over: the coins on the cards of the row are turned over, each card
goes to the higher total (a tie, or no bid, discards it), and the round's summary records
who bid what, who won each card and, as the won cards are placed, where each went."""

from __future__ import annotations

from functools import lru_cache

from engine.camping_life.cards import CARDS
from engine.camping_life.state import (
    SEAT_NAMES,
    CampingLifeState,
    CardResult,
    Placement,
    RoundSummary,
)
from engine.core import copy_model, unchecked


@lru_cache(maxsize=None)
def placement(seat: int, card: int) -> Placement:
    """Placements are frozen values: each is built once, like the moves and bids (``rules``)."""
    return Placement(seat=seat, card=card)


def reveal(s: CampingLifeState) -> None:
    """Turn over the coins on the cards; each card goes to the higher total, ties are discarded."""
    f = s.__dict__
    seats = range(f["players"])
    row = f["row"]
    on_card: dict[int, list[list[int]]] = {card: [[] for _ in seats] for card in row}
    for b in f["card_bids"]:
        bid = b.__dict__
        if bid["card"] in on_card:
            on_card[bid["card"]][bid["seat"]].append(bid["coin"])
    results = []
    discard = f["discard"].copy()
    placements = f["placements"].copy()
    for card in row:
        coins = on_card[card]
        totals = [sum(c) if c else None for c in coins]
        name = CARDS[card].name
        shown = ", ".join(
            f"{SEAT_NAMES[p]} {'+'.join(map(str, coins[p]))}" for p in seats if coins[p]
        )
        bidders = [p for p in seats if totals[p] is not None]
        winner = None
        if not bidders:
            s.say(f"Nobody bid on the {name}: it is discarded.")
        else:
            best = max(t for t in totals if t is not None)
            top = [p for p in bidders if totals[p] == best]
            if len(top) > 1:
                s.say(f"{name}: {shown}. A tie: it is discarded.")
            else:
                winner = top[0]
                s.say(f"{name}: {shown}. {SEAT_NAMES[winner]} wins it.")
        results.append(
            unchecked(
                CardResult,
                {
                    "card": card,
                    "coins": coins,
                    "winner": winner,
                    "placed": False if winner is None else None,
                },
                set(_CARD_RESULT_FIELDS),
            )
        )
        if winner is None:
            discard.append(card)
        else:
            placements.append(placement(winner, card))
    # Each player places all the cards they won, in the order they choose.
    first: dict[int, int] = {}
    for p in placements:
        first.setdefault(p.seat, len(first))
    placements.sort(key=lambda p: first[p.seat])
    summary = unchecked(
        RoundSummary,
        {
            "round": f["round"],
            "table_totals": [sum(t) for t in f["table_coins"]],
            "picker": f["picker"],
            "picked": f["picked"],
            "cards": results,
        },
        set(_SUMMARY_FIELDS),
    )
    s.update(
        revealed=True,
        discard=discard,
        placements=placements,
        last_round=summary,
        row=[],
        card_bids=[],
        phase="place",
    )


_CARD_RESULT_FIELDS = frozenset(CardResult.model_fields)
_SUMMARY_FIELDS = frozenset(RoundSummary.model_fields)


def settle(s: CampingLifeState, card: int, placed: bool) -> None:
    """Record where a won card of the turn-over went; the picked card, placed before it, is not
    one of its cards."""
    # A game saved before summaries were kept has none for the turn-over under way.
    f = s.__dict__
    summary = f["last_round"]
    if not f["revealed"] or summary is None:
        return
    cards = [copy_model(c, {"placed": placed}) if c.card == card else c for c in summary.cards]
    s.last_round = copy_model(summary, {"cards": cards})
