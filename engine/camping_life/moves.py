"""Camping Life moves: a discriminated union on ``type``.

A bidding turn is two prompts: a coin on a card of the row, then a coin on the table.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter


class _Move(BaseModel):
    # Strict: "3" is not the number 3; a move is sent exactly as its legal_moves entry.
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


class BidCard(_Move):
    """Put a coin face down on a card of the current row."""

    type: Literal["bid_card"] = "bid_card"
    card: int
    coin: int


class BidTable(_Move):
    """Put a coin face down on the table."""

    type: Literal["bid_table"] = "bid_table"
    coin: int


class Pick(_Move):
    """Take one of the next-round cards (the player with the higher table total)."""

    type: Literal["pick"] = "pick"
    card: int


class Place(_Move):
    """Place a won card in your play area (row 0 to 2, column 0 to 3)."""

    type: Literal["place"] = "place"
    card: int
    row: int
    col: int


Move = Annotated[BidCard | BidTable | Pick | Place, Field(discriminator="type")]
move_adapter: TypeAdapter[Move] = TypeAdapter(Move)
