"""The 70 Camping Life cards: 13 missions and 57 terrain cards, as one table.

The rulebook lists the 13 missions but not how the 57 terrain cards split; the split below is
this project's choice (see docs/rules/camping-life.md, "Where the rulebook is silent").
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, Literal

Kind = Literal["road", "pool", "forest", "tent", "campfire", "house", "mission"]


@dataclass(frozen=True)
class Card:
    id: int
    kind: Kind
    umbrella: bool = False
    road: bool = False  # a forest with a road running through it: it links roads
    key: str = ""  # missions: which scoring function
    text: str = ""
    points: int = 0

    @cached_property
    def name(self) -> str:
        if self.kind == "mission":
            return f"mission “{self.text}”"
        name = NAMES[self.kind]
        if self.road:
            name += " with a road"
        if self.umbrella:
            name += " with an umbrella"
        return name

    def to_json(self) -> dict[str, Any]:
        if self.kind == "mission":
            return {
                "id": self.id,
                "kind": "mission",
                "key": self.key,
                "text": self.text,
                "points": self.points,
            }
        return {
            "id": self.id,
            "kind": self.kind,
            "name": self.name,
            "umbrella": self.umbrella,
            "road": self.road,
        }


NAMES = {
    "road": "Road",
    "pool": "Swimming pool",
    "forest": "Forest",
    "tent": "Tent",
    "campfire": "Campfire",
    "house": "House",
}

# key, points, text: the rulebook's 13 missions in its order.
MISSIONS: list[tuple[str, int, str]] = [
    ("most_pools", 2, "Most swimming pools in your play area"),
    ("most_roads", 2, "Most roads in your play area (connected or not)"),
    ("most_tents", 2, "Most tents in your play area"),
    ("most_forests", 2, "Most forests in your play area"),
    ("three_forests_together", 2, "At least 3 forests next to each other"),
    ("two_houses_together", 3, "At least 2 houses next to each other"),
    ("most_campfires", 3, "Most campfires in your play area"),
    ("most_forests_in_a_row", 2, "Most forests on a horizontal row"),
    ("most_tents_in_a_row", 2, "Most tents on a horizontal row"),
    ("most_umbrellas", 3, "Most umbrellas in your play area"),
    ("most_umbrellas_in_a_row", 3, "Most umbrellas on a horizontal row"),
    ("most_houses_on_corners", 3, "Most houses on the 4 corners of your play area"),
    ("most_pools_on_corners", 3, "Most swimming pools on the 4 corners of your play area"),
]

# How each kind of terrain scores, as the reference card says.
TERRAIN_TEXT: dict[str, str] = {
    "road": "1 point per road card in a connected road touching a house.",
    "pool": "1 point each; two pools side by side make a set worth 3.",
    "forest": "1 point per house next to it. Some forests carry a road that links roads.",
    "tent": "1 point each.",
    "campfire": "1 point per forest next to it.",
    "house": "Scores through the roads and forests next to it.",
}

# kind, plain cards, cards with an umbrella, forests with a road: 57 terrain cards.
TERRAIN: list[tuple[Kind, int, int, int]] = [
    ("road", 12, 0, 0),
    ("pool", 5, 5, 0),
    ("forest", 8, 0, 3),
    ("tent", 6, 4, 0),
    ("campfire", 7, 0, 0),
    ("house", 7, 0, 0),
]


def _build() -> list[Card]:
    cards = [
        Card(id=i, kind="mission", key=k, points=p, text=t) for i, (k, p, t) in enumerate(MISSIONS)
    ]
    for kind, plain, umbrella, road in TERRAIN:
        for n in range(plain + umbrella + road):
            cards.append(
                Card(
                    id=len(cards),
                    kind=kind,
                    umbrella=plain <= n < plain + umbrella,
                    road=n >= plain + umbrella,
                )
            )
    return cards


CARDS: list[Card] = _build()
MISSION_IDS: list[int] = [c.id for c in CARDS if c.kind == "mission"]
TERRAIN_IDS: list[int] = [c.id for c in CARDS if c.kind != "mission"]
MISSION_BY_KEY: dict[str, Card] = {c.key: c for c in CARDS if c.kind == "mission"}
