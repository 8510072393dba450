"""A Last Stick game as stored: everything, hidden or not (views choose what a seat sees)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from engine.core import BaseState

# Each card's worth in sticks, by its id: five each of 1, 2 and 3.
WORTH = [1, 2, 3] * 5
HAND = 7


class Options(BaseModel):
    model_config = ConfigDict(extra="forbid")

    sticks: int = Field(
        default=12,
        ge=7,
        le=2 * HAND,
        title="Sticks",
        description="How many sticks the pile starts with.",
    )


class LastStickState(BaseState):
    sticks: int
    hands: list[list[int]]  # card ids, per seat: hidden from the other seat
    unused: int  # the card dealt to nobody, face down
    turn: int
    taken: list[int]  # sticks taken, per seat
    winner: int | None = None
