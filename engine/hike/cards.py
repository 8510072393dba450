"""The 102 Pack It cards: 90 item cards and 12 hazard cards, as one table.

The rulebook fixes only some numbers (102 cards, 90 items, 12 hazards, Sleeping Bag 4 miles,
Water Bottle 2, Granola Bar 1, and where the Tent, Compass, Pans, Sleeping Bag, Granola Bar and
Walking Stick fit). The rest is designed to agree with every rulebook example; see
docs/rules/lets-take-a-hike.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

TOP = "top"
LEFT_HAND = "left_hand"
LEFT_POCKET = "left_pocket"
MIDDLE = "middle"
RIGHT_POCKET = "right_pocket"
RIGHT_HAND = "right_hand"
BOTTOM = "bottom"

SPACES: tuple[str, ...] = (TOP, LEFT_HAND, LEFT_POCKET, MIDDLE, RIGHT_POCKET, RIGHT_HAND, BOTTOM)
SPACE_TITLES = {
    TOP: "top",
    LEFT_HAND: "left hand",
    LEFT_POCKET: "left pocket",
    MIDDLE: "middle",
    RIGHT_POCKET: "right pocket",
    RIGHT_HAND: "right hand",
    BOTTOM: "bottom",
}
POCKETS = (LEFT_POCKET, RIGHT_POCKET)
HANDS = (LEFT_HAND, RIGHT_HAND)

ITEM = "item"
HAZARD = "hazard"

RACCOON = "raccoon"
SKUNK = "skunk"
BLISTER = "blister"
BEAR = "bear"

GRANOLA_BAR = "granola_bar"
SOCKS = "socks"
BEAR_SPRAY = "bear_spray"

# name, title, count, miles, spaces
ITEM_TABLE: tuple[tuple[str, str, int, int, tuple[str, ...]], ...] = (
    ("tent", "Tent", 5, 4, (TOP,)),
    ("sleeping_bag", "Sleeping Bag", 5, 4, (BOTTOM,)),
    ("pans", "Pans", 6, 3, (TOP, MIDDLE)),
    ("camera", "Camera", 7, 3, (MIDDLE, *POCKETS)),
    ("map", "Map", 7, 3, (TOP, MIDDLE)),
    ("compass", "Compass", 8, 2, (TOP, *POCKETS)),
    ("flashlight", "Flashlight", 8, 2, (*HANDS, *POCKETS)),
    ("water_bottle", "Water Bottle", 9, 2, (*HANDS, *POCKETS)),
    ("walking_stick", "Walking Stick", 7, 2, HANDS),
    (BEAR_SPRAY, "Bear Spray", 7, 2, (*HANDS, *POCKETS)),
    (SOCKS, "Socks", 7, 1, (*POCKETS, MIDDLE, BOTTOM)),
    (GRANOLA_BAR, "Granola Bar", 14, 1, SPACES),
)

# name, title, count
HAZARD_TABLE: tuple[tuple[str, str, int], ...] = (
    (RACCOON, "Raccoon", 4),
    (SKUNK, "Skunk", 3),
    (BLISTER, "Blister", 3),
    (BEAR, "Bear", 2),
)

# What each hazard does, as a player reads it on the card.
HAZARD_TEXT: dict[str, str] = {
    RACCOON: "Discard a card of your choice from your backpack.",
    SKUNK: "Discard two cards of your choice from your backpack (one if you have only one).",
    BLISTER: "Discard your card with the most miles, unless you have Socks.",
    BEAR: "Eats every Granola Bar in every backpack (on a hike: every hiker's), "
    "except in backpacks holding Bear Spray.",
}


@dataclass(frozen=True)
class Card:
    id: int
    kind: str
    name: str
    title: str
    miles: int
    spaces: tuple[str, ...]

    @cached_property
    def is_item(self) -> bool:
        return self.kind == ITEM

    def fits(self, space: str) -> bool:
        return space in self.spaces

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "name": self.name,
            "title": self.title,
            "miles": self.miles,
            "spaces": list(self.spaces),
        }


def _build() -> tuple[Card, ...]:
    cards: list[Card] = []
    for name, title, count, miles, spaces in ITEM_TABLE:
        for _ in range(count):
            cards.append(Card(len(cards), ITEM, name, title, miles, spaces))
    for name, title, count in HAZARD_TABLE:
        for _ in range(count):
            cards.append(Card(len(cards), HAZARD, name, title, 0, ()))
    return tuple(cards)


CARDS: tuple[Card, ...] = _build()
DECK_SIZE = len(CARDS)
SPACE_BITS = {s: 1 << i for i, s in enumerate(SPACES)}
ALLOWED_MASK: tuple[int, ...] = tuple(sum(SPACE_BITS[s] for s in c.spaces) for c in CARDS)
MILES: tuple[int, ...] = tuple(c.miles for c in CARDS)
CARD_JSON: tuple[dict[str, Any], ...] = tuple(c.to_json() for c in CARDS)
"""Each card's view form, built once and shared by every view: views are never changed."""
