"""The one move of Last Stick."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter


class Play(BaseModel):
    """Play this card from your hand: take its worth in sticks."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    type: Literal["play"] = "play"
    card: int


# A union of one: a game with more moves lists them all, told apart by ``type``.
Move = Annotated[Play, Field(discriminator="type")]
move_adapter: TypeAdapter = TypeAdapter(Move)
