"""What every part of Let's Take a Hike's rules uses: the draw pile, the miles of cards, and
the words the log names seats and cards with."""

from __future__ import annotations

from engine.core import copy_model
from engine.hike.cards import CARDS, Card
from engine.hike.state import HikeState

HAND_SIZE = 5

PLAYERS = tuple(f"Player {seat + 1}" for seat in range(5))
"""Each seat's name in the log (five seats at most), made once: nearly every line names one."""


def total_miles(cards: list[int]) -> int:
    return sum(CARDS[c].miles for c in cards)


def the_card(c: Card) -> str:
    return f"the {c.title}"


def card_with_miles(c: Card) -> str:
    return f"{c.title} ({c.miles} mi)"


def clockwise(start: int, seats: list[int], players: int) -> list[int]:
    """``seats`` ordered clockwise beginning at ``start`` (which need not be among them)."""
    if len(seats) < 2:
        return list(seats)
    return sorted(seats, key=lambda s: (s - start) % players)


def one_per_item(cards: list[int]) -> list[int]:
    """The first card of each item name: same-named cards are interchangeable."""
    seen: set[str] = set()
    out = []
    for c in cards:
        name = CARDS[c].name
        if name not in seen:
            seen.add(name)
            out.append(c)
    return out


def shuffle(s: HikeState, items: list[int]) -> None:
    """Shuffle with the state's RNG, copied first: the state before shares it."""
    s.rng = copy_model(s.rng, {})
    s.rng.shuffle(items)


def draw_card(s: HikeState) -> int:
    """The top card of the draw pile; during a hike an empty pile is remade from the discards."""
    if not s.draw_pile:
        s.draw_pile, s.discard_pile = s.discard_pile, []
        shuffle(s, s.draw_pile)
        s.say("The discard pile is shuffled into a new draw pile to finish the hike.")
    card = s.draw_pile.pop()
    if not s.draw_pile and s.hike is not None and not s.ended_during_hike:
        s.ended_during_hike = True
        s.say("That was the last card of the draw pile: the game ends after this hike.")
    return card
