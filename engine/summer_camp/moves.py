"""Summer Camp moves: a discriminated union on ``type``.

A turn is free moves (play, buy, spend a snack bar token, end the turn); a card that asks for
a decision opens prompts answered one small choice at a time (a card, a path, a pile, a player,
or done).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter


class _Move(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Play(_Move):
    """Play a card from your hand for its action or for 1 energy."""

    type: Literal["play"] = "play"
    card: str
    use: Literal["action", "energy"]


class Buy(_Move):
    """Buy a face-up card of the display with this turn's energy."""

    type: Literal["buy"] = "buy"
    card: str


class SpendSnack(_Move):
    """Return a snack bar token to the supply for 1 energy (2 under Bird feeder)."""

    type: Literal["spend_snack"] = "spend_snack"


class EndTurn(_Move):
    type: Literal["end_turn"] = "end_turn"


class ChooseCard(_Move):
    """Answer a prompt with a card: from your hand, your discard pile or the display."""

    type: Literal["choose_card"] = "choose_card"
    card: str


class ChoosePath(_Move):
    """Answer a prompt with a path (0-2): move a pawn on it."""

    type: Literal["choose_path"] = "choose_path"
    path: int


class ChoosePile(_Move):
    """Answer Cave exploration with an activity draw pile (0-2, by path)."""

    type: Literal["choose_pile"] = "choose_pile"
    path: int


class ChoosePlayer(_Move):
    """Answer Secret admirer or Friendship bracelet with the opponent who gets the card."""

    type: Literal["choose_player"] = "choose_player"
    seat: int


class Done(_Move):
    """Stop repeating an action (or stop discarding for Scavenger hunt)."""

    type: Literal["done"] = "done"


Move = Annotated[
    Play | Buy | SpendSnack | EndTurn | ChooseCard | ChoosePath | ChoosePile | ChoosePlayer
    | Done,
    Field(discriminator="type"),
]
move_adapter: TypeAdapter[Move] = TypeAdapter(Move)
