"""The shape of a Camping Life view and outcome (``engine.shapes``): for the API's schema and
the tests, never built at run time (``engine.camping_life.view`` builds the dicts)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from engine.camping_life.state import Phase
from engine.shapes import Shape


class Card(Shape):
    """A terrain card."""

    id: int
    kind: Literal["road", "pool", "forest", "tent", "campfire", "house"]
    name: str
    umbrella: bool
    road: bool


class Mission(Shape):
    id: int
    kind: Literal["mission"]
    key: str
    text: str
    points: int


class Bid(Shape):
    seat: int
    coin: int | None = Field(description="its value: to its owner only, until the turn-over")


class RowCard(Shape):
    card: Card
    bids: list[Bid]


class Placement(Shape):
    seat: int
    card: Card


class Coins(Shape):
    seat: int
    coins: list[int]


class CardResult(Shape):
    card: Card
    bids: list[Coins] = Field(description="only the seats that bid")
    winner: int | None = Field(description="null: no coin or a tie, and the card is discarded")
    placed: bool | None = Field(
        description="null: won, still to place; false: discarded, for want of a winner or "
        "because the winner's play area is full"
    )


class RoundSummary(Shape):
    """The latest turn-over: everything in it is public by then."""

    round: int
    table_totals: list[int]
    picker: int | None = Field(
        description="higher table total; null on a tie or with nothing to pick"
    )
    picked: Card | None = Field(description="the next-round card the picker took")
    cards: list[CardResult] = Field(description="the row, left to right")


class Seat(Shape):
    seat: int
    name: Literal["Red", "Blue"]
    area: list[list[Card | None]] = Field(description="rows top to bottom, 4 spaces each")
    cards_in_area: int
    terrain_score: int = Field(description="missions not included")
    coins: list[int] | None = Field(description="coins in hand: the viewer's own only")
    coins_left: int
    table_coins: list[int] = Field(description="turned over this round")
    table_total: int
    table_coin_down: bool = Field(description="a face-down table coin this turn")
    table_coin: int | None = Field(description="its value: the viewer's own only")


class View(Shape):
    round: int
    turn: int = Field(description="bidding turn 1 to 3")
    phase: Phase
    starter: int
    picker: int | None = Field(description="higher table total this round")
    open_missions: list[Mission]
    mission_pile: int = Field(description="face-down missions left")
    secret_mission: Mission | None = Field(description="the viewer's own; null for a spectator")
    secret_missions: list[Mission] | None = Field(description="every seat's, once it is over")
    draw_pile: int
    discard_pile: int
    discard_top: Card | None = Field(description="the last discarded")
    row: list[RowCard]
    next_round: list[Card]
    placing: Placement | None = Field(description="the card to place now")
    waiting: list[Placement] = Field(description="won cards placed after it")
    last_round: RoundSummary | None = Field(description="null before the first turn-over")
    seats: list[Seat]


class Breakdown(Shape):
    roads: int
    pools: int
    forests: int
    tents: int
    campfires: int
    missions: dict[str, int] = Field(description="points by mission key")
    total: int


class Details(Shape):
    breakdown: dict[str, Breakdown] = Field(description="by seat")
    cards_in_area: list[int]
    secret_missions: list[Mission]
