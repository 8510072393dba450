"""Camp Pinetop's components as data: map cards, patches, supply cards, ranks, mastery cards
and the Nature expansion's conditions cards. Every other module reads them from here.

The rulebook fixes the totals (68 supply cards, 35 map cards in three tent colours, 12 patches
per player colour, 19 mastery cards, 5 ranks, 10 double supply cards, 12 conditions cards) and
a few facts (Penelope's Landing shows Trailblazer on its left edge; Skunk needs 2 patches of
one colour and keeps 7 cards; advanced patches needed: Woodchuck 1, Raccoon 2, Badger 3). The
rest is designed; docs/rules/camp-pinetop.md lists all of it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

GREEN, BLUE, GREY = "green", "blue", "grey"
COLOURS = (GREEN, BLUE, GREY)
SHAPES = {GREEN: "circle", BLUE: "square", GREY: "diamond"}

WOOD, WATER, FOOD, ROPE = "wood", "water", "food", "rope"
SUITS = (WOOD, WATER, FOOD, ROPE)
ANY = "any"  # a requirement any supply card meets (the rain's extra card)

EDGES = ("north", "east", "south", "west")  # a card's edges, in the order of ``Patch`` keys


@dataclass(frozen=True)
class Patch:
    key: str
    name: str
    colour: str
    basic: str
    advanced: str
    suit: str | None = None  # grey patches: the supply they stand in for
    once: bool = False  # a one-time power, used when the patch is gained or turned advanced

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "name": self.name,
            "colour": self.colour,
            "shape": SHAPES[self.colour],
            "basic": self.basic,
            "advanced": self.advanced,
            "suit": self.suit,
            "once": self.once,
        }


# fmt: off
PATCHES: dict[str, Patch] = {p.key: p for p in (
    # Green: one-time, used the moment the patch is gained (basic) or turned advanced; but
    # Trailblazer's power lasts "for the rest of the game" (see docs/rules).
    Patch("forager", "Forager", GREEN,
          "Draw 2 cards from the supply deck.",
          "Draw 3 cards from the supply deck.", once=True),
    Patch("campfire", "Campfire", GREEN,
          "Take 1 face-up supply card of your choice (a wild too).",
          "Take 2 face-up supply cards of your choice.", once=True),
    Patch("buddy_system", "Buddy System", GREEN,
          "Place a camper from your supply for free on a card next to one of your campers.",
          "Place a camper from your supply for free on any map card.", once=True),
    Patch("trailblazer", "Trailblazer", GREEN,
          "Once each turn for the rest of the game, move one of your campers one space for "
          "free (no cost, no gifts, no patch), before or after your action.",
          "Twice each turn."),
    # Blue: ongoing.
    Patch("pack_mule", "Pack Mule", BLUE,
          "Your hand limit is 1 higher.",
          "Your hand limit is 2 higher."),
    Patch("good_neighbor", "Good Neighbor", BLUE,
          "Joining other players' campers costs you at most 1 card in all.",
          "Joining other players' campers costs you nothing."),
    Patch("shelter_builder", "Shelter Builder", BLUE,
          "Place a camper with one tent card of the map card's colour and any other card.",
          "Place a camper with a single tent card of the map card's colour."),
    Patch("supply_runner", "Supply Runner", BLUE,
          "After the Draw Two action, draw 1 more card from the supply deck.",
          "After the Draw Two action, draw 2 more cards from the supply deck."),
    # Grey: ongoing, each for one supply.
    Patch("woodsman", "Woodsman", GREY,
          "Any supply card counts as wood when you pay for a patch.",
          "Pay one wood less for every patch.", WOOD),
    Patch("water_bearer", "Water Bearer", GREY,
          "Any supply card counts as water when you pay for a patch.",
          "Pay one water less for every patch.", WATER),
    Patch("camp_cook", "Camp Cook", GREY,
          "Any supply card counts as food when you pay for a patch.",
          "Pay one food less for every patch.", FOOD),
    Patch("knot_tyer", "Knot Tyer", GREY,
          "Any supply card counts as rope when you pay for a patch.",
          "Pay one rope less for every patch.", ROPE),
)}
# fmt: on
PATCHES_OF = {c: tuple(k for k, p in PATCHES.items() if p.colour == c) for c in COLOURS}
GREY_FOR_SUIT = {p.suit: k for k, p in PATCHES.items() if p.suit}


@dataclass(frozen=True)
class MapCard:
    id: int
    name: str
    colour: str
    edges: tuple[str, str, str, str]  # patch keys on the north, east, south and west edges
    cost: tuple[str, ...]  # supplies shown at the bottom

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "colour": self.colour,
            "shape": SHAPES[self.colour],
            "edges": dict(zip(EDGES, self.edges)),
            "cost": list(self.cost),
        }


# fmt: off
_LETTERS = {
    GREEN: {"T": "trailblazer", "F": "forager", "C": "campfire", "B": "buddy_system"},
    BLUE: {"P": "pack_mule", "N": "good_neighbor", "S": "shelter_builder", "R": "supply_runner"},
    GREY: {"W": "woodsman", "A": "water_bearer", "C": "camp_cook", "K": "knot_tyer"},
}
# fmt: on

# fmt: off
# name, colour, edges (north east south west, one letter per patch of the colour), cost
_MAP_TABLE: tuple[tuple[str, str, str, str], ...] = (
    ("Penelope's Landing", GREEN, "FCBT", "wood water"),
    ("Fern Hollow", GREEN, "TFCB", "wood food"),
    ("Mossy Meadow", GREEN, "BTFC", "wood rope"),
    ("Cricket Clearing", GREEN, "CBTF", "water food"),
    ("Acorn Flats", GREEN, "TBCF", "water rope"),
    ("Willow Bend", GREEN, "FTBC", "food rope"),
    ("Firefly Field", GREEN, "CFTB", "wood wood"),
    ("Clover Knoll", GREEN, "BCFT", "water water"),
    ("Sunny Glade", GREEN, "TCFB", "food food"),
    ("Pinecone Path", GREEN, "FBTC", "rope rope"),
    ("Blue Jug Lodge", GREEN, "CTBF", "wood water"),
    ("Lily Marsh", GREEN, "BFCT", "food rope"),
    ("Frog Pond", BLUE, "PNSR", "wood water food"),
    ("Whoopsie-Daisy Bridge", BLUE, "RPNS", "wood water rope"),
    ("Lakeside Dock", BLUE, "SRPN", "wood food rope"),
    ("Canoe Cove", BLUE, "NSRP", "water food rope"),
    ("Heron Point", BLUE, "PSNR", "water water wood"),
    ("Trout Stream", BLUE, "RNPS", "food food water"),
    ("Misty Falls", BLUE, "SPRN", "rope rope food"),
    ("Otter Creek", BLUE, "NRSP", "wood wood rope"),
    ("Cattail Bay", BLUE, "PRSN", "water food wood"),
    ("Kettle Spring", BLUE, "SNPR", "food rope water"),
    ("Rainbow Rapids", BLUE, "NPRS", "rope wood water"),
    ("Loon Lake", BLUE, "RSNP", "wood food rope"),
    ("Bearclaw Cavern", GREY, "WAKC", "wood wood food rope"),
    ("Eagle Rock", GREY, "CWAK", "water water wood food"),
    ("Granite Ridge", GREY, "KCWA", "food food water rope"),
    ("Lookout Peak", GREY, "AKCW", "rope rope wood water"),
    ("Echo Canyon", GREY, "WCKA", "wood water food rope"),
    ("Boulder Pass", GREY, "AWCK", "wood wood water water"),
    ("Slate Quarry", GREY, "CKWA", "food food rope rope"),
    ("Owl's Roost", GREY, "KACW", "wood food food water"),
    ("Flint Cliffs", GREY, "WKAC", "water rope rope wood"),
    ("Thunder Ledge", GREY, "CAWK", "wood water food food"),
    ("Old Mine Shaft", GREY, "KWCA", "rope wood water food"),
)
# fmt: on


def _edges(colour: str, letters: str) -> tuple[str, str, str, str]:
    north, east, south, west = (_LETTERS[colour][x] for x in letters)
    return north, east, south, west


# fmt: off
MAP_CARDS: tuple[MapCard, ...] = tuple(
    MapCard(i, name, colour, _edges(colour, edges), tuple(cost.split()))
    for i, (name, colour, edges, cost) in enumerate(_MAP_TABLE)
)
# fmt: on
MAP_IDS_OF = {c: tuple(m.id for m in MAP_CARDS if m.colour == c) for c in COLOURS}


Kind = tuple[tuple[str, ...], bool, str | None]
"""A supply card's suits, wild and tent: what makes cards interchangeable in hand."""


@dataclass(frozen=True)
class SupplyCard:
    """``suits``: the supplies shown (two on a double card); ``wild``: stands for any supply
    and any tent; ``tent``: the tent symbol (None on wilds); ``tower``: a tower on the back."""

    id: int
    suits: tuple[str, ...]
    wild: bool
    tent: str | None
    tower: bool

    @property
    def double(self) -> bool:
        return len(self.suits) + self.wild > 1

    @property
    def kind(self) -> Kind:
        """Cards of one kind are interchangeable in hand (the back no longer matters)."""
        return self.suits, self.wild, self.tent

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "suits": list(self.suits),
            "wild": self.wild,
            "tent": self.tent,
            "tower": self.tower,
            "double": self.double,
        }


def _supply_deck() -> tuple[SupplyCard, ...]:
    cards: list[SupplyCard] = []

    def add(suits: tuple[str, ...], wild: bool, tent: str | None, tower: bool) -> None:
        cards.append(SupplyCard(len(cards), suits, wild, tent, tower))

    # 68 base cards: 16 of each supply (6 green, 5 blue, 5 grey tents; one of each tent colour
    # with a tower on its back), then 4 wilds.
    for suit in SUITS:
        for tent, count in ((GREEN, 6), (BLUE, 5), (GREY, 5)):
            for n in range(count):
                add((suit,), False, tent, n == 0)
    for _ in range(4):
        add((), True, None, False)
    # The Observation Tower's 10 double cards: every pair of supplies once, then each supply
    # with a wild.
    pairs = [(a, b) for i, a in enumerate(SUITS) for b in SUITS[i + 1 :]]
    for n, pair in enumerate(pairs):
        add(pair, False, COLOURS[n % 3], n < 2)
    for suit in SUITS:
        add((suit,), True, None, False)
    return tuple(cards)


SUPPLY: tuple[SupplyCard, ...] = _supply_deck()
BASE_SUPPLY = tuple(c.id for c in SUPPLY[:68])
DOUBLE_SUPPLY = tuple(c.id for c in SUPPLY[68:])


@dataclass(frozen=True)
class Rank:
    name: str
    hand_limit: int
    columns: tuple[dict[str, int], ...]  # meet any one column
    advanced: int  # advanced patches needed as well

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "hand_limit": self.hand_limit,
            "columns": [dict(c) for c in self.columns],
            "advanced": self.advanced,
        }


# fmt: off
RANKS: tuple[Rank, ...] = (
    Rank("Possum", 8, (), 0),
    Rank("Skunk", 7, ({GREEN: 2}, {BLUE: 2}, {GREY: 2}), 0),
    Rank("Woodchuck", 6, ({GREEN: 2, BLUE: 1}, {BLUE: 2, GREY: 1}, {GREY: 2, GREEN: 1}), 1),
    Rank("Raccoon", 5, ({GREEN: 3, BLUE: 2}, {BLUE: 3, GREY: 2}, {GREY: 3, GREEN: 2}), 2),
    Rank("Badger", 5, ({GREEN: 3, BLUE: 2, GREY: 2}, {BLUE: 3, GREY: 2, GREEN: 2},
                       {GREY: 3, GREEN: 2, BLUE: 2}), 3),
)
# fmt: on
POSSUM, SKUNK, WOODCHUCK, RACCOON, BADGER = range(5)


@dataclass(frozen=True)
class Mastery:
    key: str
    name: str
    text: str
    patches: tuple[str, str, str, str]  # the four spots, first come first served

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "name": self.name,
            "text": self.text,
            "patches": list(self.patches),
        }


# fmt: off
MASTERIES: dict[str, Mastery] = {m.key: m for m in (
    Mastery("basics", "Master of the Basics", "Have 3 green achievement patches.",
            ("trailblazer", "forager", "campfire", "buddy_system")),
    Mastery("bushwhacker", "Bushwhacker", "Have 3 campers on edge map cards.",
            ("trailblazer", "pack_mule", "woodsman", "supply_runner")),
    Mastery("camping_cooperation", "Camping Cooperation",
            "Have 2 campers sharing a map card with a single other player's camper.",
            ("good_neighbor", "buddy_system", "camp_cook", "forager")),
    Mastery("cookie_seller", "Cookie Seller",
            "Have 2 campers sharing 2 different map cards with other players' campers.",
            ("supply_runner", "camp_cook", "good_neighbor", "campfire")),
    Mastery("frontier", "Frontier Mastery", "Have campers on all 4 corner map cards.",
            ("trailblazer", "shelter_builder", "knot_tyer", "pack_mule")),
    Mastery("ghost_story", "Ghost Story Night",
            "Have at least 4 campers on a single map card.",
            ("campfire", "good_neighbor", "water_bearer", "buddy_system")),
    Mastery("guiding", "Guiding", "Have campers on 3 different blue square map cards.",
            ("pack_mule", "supply_runner", "shelter_builder", "good_neighbor")),
    Mastery("intermediate", "Intermediate Mastery", "Have 4 blue square achievement patches.",
            ("pack_mule", "good_neighbor", "shelter_builder", "supply_runner")),
    Mastery("lone_wolf", "Lone Wolf", "Reach Woodchuck rank with just one camper.",
            ("trailblazer", "knot_tyer", "supply_runner", "forager")),
    Mastery("mentoring", "Mentoring", "Have campers on 3 different grey diamond map cards.",
            ("shelter_builder", "woodsman", "buddy_system", "water_bearer")),
    Mastery("parade", "Parade", "Have 3 campers in the same column on different map cards.",
            ("pack_mule", "campfire", "knot_tyer", "trailblazer")),
    Mastery("pathfinding", "Pathfinding", "Have campers on 3 different green circle map cards.",
            ("trailblazer", "forager", "water_bearer", "good_neighbor")),
    Mastery("regroup", "Regroup", "Have 3 campers on a single map card.",
            ("buddy_system", "shelter_builder", "camp_cook", "campfire")),
    Mastery("smore_festival", "S'more Festival",
            "Have 2 campers on a map card with at least 2 other campers on it.",
            ("campfire", "camp_cook", "good_neighbor", "forager")),
    Mastery("skill_diversity", "Skill Diversity",
            "Have 1 of each type of achievement patch (green, blue and grey).",
            ("forager", "supply_runner", "woodsman", "shelter_builder")),
    Mastery("specialist", "Specialist", "Have 3 skill patches, all advanced (no basic).",
            ("pack_mule", "water_bearer", "campfire", "knot_tyer")),
    Mastery("strength_in_numbers", "Strength in Numbers",
            "Have 3 campers on the map before reaching Skunk rank.",
            ("buddy_system", "shelter_builder", "woodsman", "supply_runner")),
    Mastery("survivalist", "Survivalist", "Reach Raccoon rank with just one camper.",
            ("forager", "pack_mule", "camp_cook", "trailblazer")),
    Mastery("technical", "Technical Mastery", "Have 3 grey diamond achievement patches.",
            ("woodsman", "water_bearer", "camp_cook", "knot_tyer")),
)}
# fmt: on
MASTERIES_IN_PLAY = 4

# The Nature expansion.
SUNNY, RAIN, WIND = "sunny", "rain", "wind"
WEATHERS = (SUNNY, RAIN, WIND)
# fmt: off
WEATHER_EFFECTS = {
    SUNNY: "Gain a patch on a map card in the sun's row or column: draw 1 card from the deck.",
    RAIN: "A patch on a map card in the rain's row or column costs 1 more card (any supply).",
    WIND: "No camper may be placed on a map card in the wind's row or column.",
}
# fmt: on
BEAR, EAGLE, ELK, TROUT, BEAVER, OTTER = "bear", "eagle", "elk", "trout", "beaver", "otter"
ANIMALS = (BEAR, EAGLE, ELK, TROUT, BEAVER, OTTER)
FIXED_ANIMALS = (BEAR, EAGLE)
CHOSEN_ANIMALS = (ELK, TROUT, BEAVER, OTTER)  # one of them joins Bear and Eagle
# fmt: off
ANIMAL_EFFECTS = {
    BEAR: "No camper may move onto or be placed on the Bear's map card.",
    EAGLE: "Move a camper onto the Eagle's map card: draw 1 card from the deck.",
    ELK: "A patch on the Elk's map card costs 1 card less (its last supply).",
    TROUT: "End your turn with a camper on the Trout's map card: draw 1 card from the deck.",
    BEAVER: "Place a camper on the Beaver's map card with a single tent card of its colour.",
    OTTER: "Joining campers on the Otter's map card costs no gifts.",
}
# fmt: on
DIRECTIONS = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
DIRECTION_NAMES = {"U": "up", "D": "down", "L": "left", "R": "right"}


@dataclass(frozen=True)
class Conditions:
    """A conditions card: its forecast (the weather that comes next, each animal's direction)
    and the numbers used when it is the card turned up (weather steps, animal steps)."""

    id: int
    weather: str
    weather_steps: int
    animals: dict[str, tuple[str, int]]  # animal: (direction letter, steps)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "weather": self.weather,
            "weather_steps": self.weather_steps,
            "animals": {
                a: {"direction": DIRECTION_NAMES[d], "steps": n}
                for a, (d, n) in self.animals.items()
            },
        }


# fmt: off
# weather, weather steps, then direction and steps of bear eagle elk trout beaver otter
_CONDITIONS_TABLE = (
    (SUNNY, 1, "U1 L2 R1 D1 L1 U2"),
    (RAIN, 2, "R1 D1 U2 L1 R1 D1"),
    (WIND, 3, "D2 R1 L1 U1 D1 R2"),
    (SUNNY, 2, "L1 U1 D1 R2 U2 L1"),
    (RAIN, 1, "R2 L1 U1 D1 L1 D2"),
    (WIND, 2, "U1 D2 R2 L1 D1 U1"),
    (SUNNY, 3, "D1 R1 L2 U1 R1 D1"),
    (RAIN, 3, "L1 U2 D1 R1 U1 R1"),
    (WIND, 1, "R1 L1 U1 D2 L2 U1"),
    (SUNNY, 1, "D1 U1 R1 L1 D1 L2"),
    (RAIN, 2, "U2 R1 L1 U1 R2 D1"),
    (WIND, 1, "L2 D1 U1 R1 U1 R1"),
)
# fmt: on
# fmt: off
CONDITIONS: tuple[Conditions, ...] = tuple(
    Conditions(i, weather, steps,
               {a: (x[0], int(x[1:])) for a, x in zip(ANIMALS, moves.split())})
    for i, (weather, steps, moves) in enumerate(_CONDITIONS_TABLE)
)
# fmt: on


def catalog() -> dict[str, Any]:
    """Every component as JSON-ready data, the same for every table."""
    return {
        "colours": {c: SHAPES[c] for c in COLOURS},
        "suits": list(SUITS),
        "edges": list(EDGES),
        "map_cards": [m.to_json() for m in MAP_CARDS],
        "patches": [p.to_json() for p in PATCHES.values()],
        "ranks": [r.to_json() for r in RANKS],
        "masteries": [m.to_json() for m in MASTERIES.values()],
        "supply": [c.to_json() for c in SUPPLY],
        "weather": dict(WEATHER_EFFECTS),
        "animals": dict(ANIMAL_EFFECTS),
        "conditions": [c.to_json() for c in CONDITIONS],
    }
