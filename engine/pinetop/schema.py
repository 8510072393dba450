"""The shape of a Camp Pinetop view and outcome (``engine.shapes``): for the API's schema and
the tests, never built at run time (``engine.pinetop.view`` builds the dicts). Ids and keys
refer to ``GET /api/games/pinetop/catalog``."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from engine.pinetop.state import Options, Phase
from engine.shapes import Shape

Requirement = Literal[
    "wood", "water", "food", "rope", "any", "tent:green", "tent:blue", "tent:grey"
]


class Card(Shape):
    """A supply card (``catalog["supply"][id]``)."""

    id: int
    suits: list[str]
    wild: bool
    tent: Literal["green", "blue", "grey"] | None
    tower: bool
    double: bool


class Grid(Shape):
    cols: int
    rows: int


class Position(Shape):
    pos: int
    row: int
    col: int
    card: int = Field(description="a map card id: catalog map_cards")
    campers: list[int] = Field(description="one entry per camper, in order of arrival")


class Supply(Shape):
    deck: int = Field(description="cards left, never their order")
    discard: int
    discard_top: Card | None
    face_up: list[Card | None] = Field(
        description="left of the deck: 0 outer, 1 inner; right of it: 2 inner, 3 outer"
    )


class Spot(Shape):
    patch: str
    seat: int | None


class Mastery(Shape):
    key: str = Field(description="catalog masteries by key")
    spots: list[Spot]


class Patch(Shape):
    patch: str
    advanced: bool


class Seat(Shape):
    seat: int
    name: Literal["Red", "Blue", "Yellow", "Green", "Purple"]
    rank: int = Field(description="0 Possum to 4 Badger")
    rank_name: str
    hand_limit: int
    hand_count: int
    hand: list[Card] | None = Field(description="yours only")
    campers_left: int = Field(description="still in the player's supply")
    patches: list[Patch] = Field(description="in catalog order")
    advanced: int = Field(description="advanced patches")
    masteries: list[str] = Field(description="mastery cards this player has a disc on")
    friendship: Literal["none", "held", "used"] | None = Field(description="null: module off")


class Borrowed(Shape):
    owner: int
    patch: str
    advanced: bool


class TurnState(Shape):
    """The active player's turn so far."""

    drawn: int = Field(description="cards drawn by the draw action")
    moved: bool = Field(description="Draw & Move with the move first: its card to draw")
    draw_side: Literal["left", "right"] | None
    refreshed: bool
    acted: bool = Field(description="the action is over")
    steps: int = Field(description="Trailblazer's free moves made this turn")
    borrowed: Borrowed | None


class Pending(Shape):
    """A camper on its way, its gifts and payment to make."""

    kind: Literal["setup", "move", "gain", "place", "power"]
    start: int | None
    to: int
    patch: str | None
    owed: list[int]
    gifts: int
    cost: list[Requirement]
    paid: list[Card] = Field(description="put down so far, face up")


class Power(Shape):
    patch: str
    advanced: bool
    left: int = Field(description="free moves, face-up cards or placements still to make")


class Line(Shape):
    axis: Literal["row", "col"]
    index: int


class AnimalStep(Shape):
    direction: str
    steps: int


class Conditions(Shape):
    """A conditions card (``catalog["conditions"][id]``)."""

    id: int
    weather: Literal["sunny", "rain", "wind"]
    weather_steps: int
    animals: dict[str, AnimalStep]


class Nature(Shape):
    weather: Literal["sunny", "rain", "wind"]
    weather_pos: int = Field(description="clockwise round the map from above the top-left card")
    weather_line: Line
    animals: dict[str, int] = Field(
        description="position by animal: bear, eagle and one of elk, trout, beaver, otter"
    )
    forecast: Conditions
    conditions_left: int
    shifts: int


class View(Shape):
    phase: Phase
    turn: int = Field(description="0 during setup")
    active: int
    first: int = Field(description="the first player, drawn at setup")
    options: Options
    grid: Grid
    map: list[Position] = Field(description="one per position, row by row from the top left")
    supply: Supply
    masteries: list[Mastery]
    seats: list[Seat]
    turn_state: TurnState
    pending: Pending | None
    power: Power | None
    waiting: list[Power] = Field(description="green powers due next")
    nature: Nature | None
    tower: int | None = Field(description="the Observation Tower's position")
    winner: int | None


class Details(Shape):
    ranks: list[str] = Field(description="each seat's rank name")
    patches: list[int]
    advanced: list[int]
    turns: int
