"""Each game with undo dealt again from what one observer cannot see, written from what its
view shows (not from the game's ``hidden``, which the tests hold against it).

``redeal(state, observer, actor, rng)`` returns a copy of ``state`` in which everything
``observer`` (a seat, or ``None`` for a spectator) cannot see is dealt again among the places
hidden from them, with a new seed for the RNG; the things it was free to deal, named as the
game's ``hidden`` names them; and a function that maps a move of ``actor`` to the same choice
on the copy (its card or coin being the one now where that one lay), or ``None`` when the
copy leaves no move that makes it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engine.camping_life.state import Bid, CampingLifeState
from engine.core import Rng
from engine.pinetop.state import PinetopState
from engine.summer_camp.cards import COPIES
from engine.summer_camp.state import SummerCampState
from engine.summer_camp.turn import find
from tests.engine.hidden_log import shuffled_among

Remap = Callable[[Any], Any]
Redeal = Callable[..., tuple[Any, list, Remap]]

# Summer Camp prompts answered with a card from the hand.
HAND_PROMPTS = {"scavenger_hunt", "tie_dye", "macaroni_sculpture", "bird_watching", "dodgeball"}


def _reseeded(t: Any, rng: random.Random) -> None:
    t.rng = Rng(state=rng.getrandbits(64))


def summer_camp(
    s: SummerCampState, observer: int | None, actor: int, rng: random.Random
) -> tuple[SummerCampState, list, Remap]:
    """Each activity pile's order; each draw pile's, the observer's own too; and for the
    others, their hand, draw pile and discard pile under its top card, dealt among them (what
    a camper owns is public: the view counts its points)."""
    t = s.clone()
    _reseeded(t, rng)
    dealt = []
    for pile in t.piles:
        shuffled_among(rng, [pile])
        dealt += pile
    for p in range(t.players):
        if p == observer:
            shuffled_among(rng, [t.draws[p]])
            dealt += t.draws[p]
            continue
        under = t.discards[p][:-1]
        shuffled_among(rng, [t.hands[p], t.draws[p], under])
        t.discards[p][:-1] = under
        dealt += t.hands[p] + t.draws[p] + under

    def remap(move):
        if observer == actor or move.type not in ("play", "choose_card"):
            return move
        kind = s.prompts[0].kind if s.prompts else None
        if move.type == "play" or kind in HAND_PROMPTS:
            at = find(s.hands[actor], move.card)
            return move.model_copy(update={"card": COPIES[t.hands[actor][at]]})
        if kind != "plant_identification":
            return move  # a card of the display: in sight of all
        top = COPIES[s.discards[actor][-1]]
        if move.card == top:
            return move  # taken from the top, in the open
        # Any card unlike the top one from under it: the others see only that one was.
        under = [COPIES[c] for c in t.discards[actor][:-1] if COPIES[c] != top]
        return move.model_copy(update={"card": under[0]}) if under else None

    return t, dealt, remap


def pinetop(
    s: PinetopState, observer: int | None, actor: int, rng: random.Random
) -> tuple[PinetopState, list, Remap]:
    """The supply deck and the other players' hands dealt among them, and the conditions
    deck's order (Nature); the discard pile and the face-up cards are public."""
    t = s.clone()
    _reseeded(t, rng)
    zones = [t.deck, *(t.hands[p] for p in range(t.players) if p != observer)]
    shuffled_among(rng, zones)
    dealt: list = [c for z in zones for c in z]
    if t.nature is not None:
        conditions = list(t.nature.deck)
        rng.shuffle(conditions)
        t.nature = t.nature.model_copy(update={"deck": tuple(conditions)})
        dealt += [("conditions", c) for c in conditions]

    def remap(move):
        if observer == actor or move.type not in ("give", "pay", "discard"):
            return move
        at = s.hands[actor].index(move.card)
        return move.model_copy(update={"card": t.hands[actor][at]})

    return t, dealt, remap


def camping_life(
    s: CampingLifeState, observer: int | None, actor: int, rng: random.Random
) -> tuple[CampingLifeState, list, Remap]:
    """The draw pile's order; the face-down missions (the pile and the others' secret ones)
    dealt among them; and each other player's coins in hand, on the cards of the row and face
    down on the table dealt among those places (which coins they still have among them is
    known, not where each lies)."""
    t = s.clone()
    _reseeded(t, rng)
    rng.shuffle(t.draw)
    dealt: list = list(t.draw)
    others = [p for p in range(t.players) if p != observer]
    secret = [] if t.phase == "over" else others
    missions = [t.secret_missions[p] for p in secret] + t.mission_pile
    rng.shuffle(missions)
    dealt += missions
    for p, m in zip(secret, missions, strict=False):
        t.secret_missions[p] = m
    t.mission_pile = missions[len(secret) :]
    for p in others:
        on_cards = [i for i, b in enumerate(t.card_bids) if b.seat == p]
        down = t.hidden_table[p] is not None
        coins = (
            t.coins[p]
            + [t.card_bids[i].coin for i in on_cards]
            + ([t.hidden_table[p]] if down else [])
        )
        rng.shuffle(coins)
        dealt += [(p, c) for c in coins]
        t.coins[p], rest = coins[: len(t.coins[p])], coins[len(t.coins[p]) :]
        for i, coin in zip(on_cards, rest, strict=False):
            b = t.card_bids[i]
            t.card_bids[i] = Bid(seat=b.seat, card=b.card, coin=coin)
        if down:
            t.hidden_table[p] = rest[-1]

    def remap(move):
        if observer == actor or move.type not in ("bid_card", "bid_table"):
            return move
        at = s.coins[actor].index(move.coin)
        return move.model_copy(update={"coin": t.coins[actor][at]})

    return t, dealt, remap


REDEALS: dict[str, Redeal] = {
    "summer-camp": summer_camp,
    "pinetop": pinetop,
    "camping-life": camping_life,
}
