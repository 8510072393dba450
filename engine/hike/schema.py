"""The shape of a Let's Take a Hike view and outcome (``engine.shapes``): for the API's schema
and the tests, never built at run time (``engine.hike.view`` builds the dicts)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from engine.hike.cards import SPACES
from engine.hike.moves import Space
from engine.hike.state import Phase
from engine.shapes import Shape


class Card(Shape):
    id: int = Field(description="the copy, 0 to the deck's size")
    kind: Literal["item", "hazard"]
    name: str = Field(description="the card's key, the same for every copy")
    title: str
    miles: int
    spaces: list[Space] = Field(description="where an item fits in a backpack")


class Owes(Shape):
    """Cards the seat must discard before play goes on."""

    rule: Literal["any", "highest", "miles"] = Field(
        description="any: `count` cards of its choice; highest: one of its highest in miles; "
        "miles: cards until `miles` more are discarded"
    )
    count: int
    miles: int
    reason: str


class Seat(Shape):
    seat: int
    backpack: dict[Space, Card | None] = Field(
        description=f"every space ({', '.join(SPACES)}), null when empty"
    )
    backpack_miles: int
    unpacked: list[Card] = Field(description="setup: dealt items that do not all fit yet")
    scored: list[Card]
    score: int = Field(description="miles scored")
    owes: Owes | None
    hiking: bool = Field(description="on the hike now")


class Underway(Shape):
    """The hike under way."""

    lead: int
    original_lead: int
    joined: list[int] = Field(description="everyone who set out, lead first, clockwise")
    hikers: list[int] = Field(description="still on the hike")
    dropped_out: list[int]
    pile: list[Card] = Field(description="bottom first; the last was turned up last")
    pile_miles: int = Field(description="miles of the item cards in the pile")
    asking: list[int] = Field(description="still to answer join or continue, in order")


class View(Shape):
    spaces: list[Space]
    phase: Phase
    turn: int = Field(description="whose turn it is (during a hike: who announced it)")
    draw_pile: int = Field(description="cards left, never their order")
    discard_pile: int
    pending: Card | None = Field(description="the drawn item waiting to be packed")
    seats: list[Seat]
    hike: Underway | None
    ended_during_hike: bool = Field(description="the draw pile ran out: the last hike")
    game_over: bool


class TieBreak(Shape):
    tied: list[int]
    order: list[int]
    draws: list[tuple[int, int]] = Field(description="(seat, card id) in the order the tied drew")
    losers: list[int]
    winners: list[int]


class Details(Shape):
    cards: list[int] = Field(description="cards scored, per seat: the first tie-break")
    tie_break: TieBreak | None
