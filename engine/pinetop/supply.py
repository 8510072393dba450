"""The supply area: drawing from the deck, the face-up cards and their refresh.

A card with a tower on its back drawn from the deck during a turn shifts nature (Nature
expansion), at most once a turn.
"""

from __future__ import annotations

from typing import Literal

from engine.pinetop import nature
from engine.pinetop.cards import SUPPLY
from engine.pinetop.state import PinetopState

LEFT, RIGHT = (0, 1), (2, 3)


def side_of(slot: int) -> Literal["left", "right"]:
    return "left" if slot in LEFT else "right"


def draw_top(s: PinetopState) -> int | None:
    """The top card of the deck (reshuffling the discard pile when the deck is empty)."""
    if not s.deck:
        if not s.discard:
            return None
        s.deck, s.discard = s.discard, []
        s.rng.shuffle(s.deck)
        s.say("The discard pile is shuffled into a new supply deck.")
    card = s.deck.pop()
    if SUPPLY[card].tower and s.nature is not None and s.turn and not s.nature_shifted:
        s.nature_shifted = True
        nature.shift(s)
    return card


def draw_to_hand(s: PinetopState, seat: int, count: int) -> int:
    """Draw up to ``count`` cards from the deck into ``seat``'s hand; how many came."""
    got = 0
    for _ in range(count):
        card = draw_top(s)
        if card is None:
            break
        s.hands[seat].append(card)
        got += 1
    return got


def take_face_up(s: PinetopState, seat: int, slot: int) -> int:
    card = s.face_up[slot]
    assert card is not None  # only a face-up card can be taken
    s.hands[seat].append(card)
    s.face_up[slot] = draw_top(s)
    return card


def symbol(card: int) -> tuple[tuple[str, ...], bool]:
    c = SUPPLY[card]
    return c.suits, c.wild


def matching(s: PinetopState) -> list[int]:
    """The face-up cards showing one supply symbol, if at least three do."""
    by: dict[tuple[tuple[str, ...], bool], list[int]] = {}
    for card in s.face_up:
        if card is not None:
            by.setdefault(symbol(card), []).append(card)
    return next((cards for cards in by.values() if len(cards) >= 3), [])


def note_matching(s: PinetopState) -> None:
    """At the start of a turn: the face-up cards a refresh may discard this turn."""
    s.matched = matching(s)


def refreshable(s: PinetopState) -> list[int]:
    """The slots of the cards that matched "at the start of a player's turn", while at least
    three of them are still face up (a card taken before the action leaves two)."""
    slots = [slot for slot, card in enumerate(s.face_up) if card is not None and card in s.matched]
    return slots if len(slots) >= 3 else []


def all_match(cards: list[int | None]) -> bool:
    return None not in cards and len({symbol(c) for c in cards if c is not None}) == 1


def refresh(s: PinetopState, slots: list[int]) -> None:
    """Discard the face-up cards in ``slots`` and turn up new ones there."""
    for slot in slots:
        card = s.face_up[slot]
        assert card is not None  # only matching face-up cards are refreshed
        s.discard.append(card)
        s.face_up[slot] = None
    for slot in slots:
        s.face_up[slot] = draw_top(s)
    s.refresh_slots = list(slots)
