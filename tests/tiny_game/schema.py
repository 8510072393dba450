"""The shape of a Last Stick view and outcome (``engine.shapes``): for the API's schema and
the tests, never built at run time."""

from __future__ import annotations

from pydantic import Field

from engine.shapes import Shape


class Card(Shape):
    id: int
    worth: int = Field(description="sticks it takes: 1, 2 or 3")


class Seat(Shape):
    seat: int
    cards: int = Field(description="cards in hand")
    taken: int = Field(description="sticks taken so far")


class View(Shape):
    sticks: int = Field(description="sticks left in the pile")
    turn: int
    hand: list[Card] | None = Field(description="your own cards; null for a spectator")
    seats: list[Seat]
    winner: int | None


class Details(Shape):
    taken: list[int] = Field(description="sticks taken, per seat")
