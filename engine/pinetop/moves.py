"""Camp Pinetop moves: a discriminated union on ``type``.

A turn is a sequence of small prompts: the action's first step (a draw, a move onto a map
card, a placement), then the gifts to the campers already there, the payment one card at a
time, a green patch's choices, mastery claims and, at the end, discards down to the hand
limit. Map positions count row by row from the top-left card (0) of the grid.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter


class _Move(BaseModel):
    # Strict: "3" is not the number 3; a move is sent exactly as its legal_moves entry.
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


class DrawDeck(_Move):
    """Draw the top card of the supply deck."""

    type: Literal["draw_deck"] = "draw_deck"


class Take(_Move):
    """Take a face-up supply card: slots 0 (outer) and 1 (inner) lie left of the deck, 2
    (inner) and 3 (outer) right of it."""

    type: Literal["take"] = "take"
    slot: int = Field(ge=0, le=3)


class Refresh(_Move):
    """Draw Two: first discard three matching face-up cards and turn up new ones (again
    while the three new ones all match, if you like). With four matching, ``keep`` is the
    slot that stays."""

    type: Literal["refresh"] = "refresh"
    keep: int | None = Field(default=None, ge=0, le=3)


class Stop(_Move):
    """Draw no more this turn."""

    type: Literal["stop"] = "stop"


class MoveCamper(_Move):
    """Move one of your campers from ``start`` to the next card ``to`` (up, down, left or
    right of it; with ``tower``, after a free step toward the Observation Tower). With
    ``patch`` you pay the card's cost and gain the patch on the edge you cross."""

    type: Literal["move"] = "move"
    start: int = Field(ge=0, le=15)
    to: int = Field(ge=0, le=15)
    patch: bool = False
    tower: bool = False


class Place(_Move):
    """Place a camper from your supply on the map card at ``to``."""

    type: Literal["place"] = "place"
    to: int = Field(ge=0, le=15)


class Give(_Move):
    """Give a supply card from your hand to a player whose camper is on the card you joined."""

    type: Literal["give"] = "give"
    card: int = Field(ge=0, le=77)
    to: int = Field(ge=0, le=4)


class Pay(_Move):
    """Pay one supply card toward the cost."""

    type: Literal["pay"] = "pay"
    card: int = Field(ge=0, le=77)


class Step(_Move):
    """Trailblazer: move a camper one space for free, before or after your action."""

    type: Literal["step"] = "step"
    start: int = Field(ge=0, le=15)
    to: int = Field(ge=0, le=15)


class Skip(_Move):
    """Let the rest of a green patch's power go."""

    type: Literal["skip"] = "skip"


class Claim(_Move):
    """Put a mastery disc on a free spot of a mastery card you completed and gain its patch."""

    type: Literal["claim"] = "claim"
    mastery: str = Field(max_length=32)
    spot: int = Field(ge=0, le=3)


class Befriend(_Move):
    """Spend your Friendship token to use another player's patch power once."""

    type: Literal["friendship"] = "friendship"
    owner: int = Field(ge=0, le=4)
    patch: str = Field(max_length=32)


class Discard(_Move):
    """Discard a supply card down to your hand limit."""

    type: Literal["discard"] = "discard"
    card: int = Field(ge=0, le=77)


class Done(_Move):
    """End your turn here (before discarding down to your hand limit)."""

    type: Literal["done"] = "done"


class Pass(_Move):
    """Nothing else can be done: end the turn."""

    type: Literal["pass"] = "pass"


Move = Annotated[
    DrawDeck
    | Take
    | Refresh
    | Stop
    | MoveCamper
    | Place
    | Give
    | Pay
    | Step
    | Skip
    | Claim
    | Befriend
    | Discard
    | Done
    | Pass,
    Field(discriminator="type"),
]
move_adapter: TypeAdapter[Move] = TypeAdapter(Move)
