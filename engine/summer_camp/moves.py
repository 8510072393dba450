"""Summer Camp moves: a discriminated union on ``type``.

A turn is free moves (play, buy, spend a snack bar token, end the turn); a card that asks for
a decision opens prompts answered one small choice at a time (a card, a path, a pile, a player,
or done).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter

from engine.summer_camp.cards import CARDS


def _known(key: str) -> str:
    if key not in CARDS:
        raise ValueError("no Summer Camp card has this id")
    return key


CardKey = Annotated[str, AfterValidator(_known)]
"""A card's id (``CARDS``): any other text is not a move at all."""


class _Move(BaseModel):
    # Strict: "3" is not the number 3; a move is sent exactly as its legal_moves entry.
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


class Play(_Move):
    """Play a card from your hand for its action or for 1 energy."""

    type: Literal["play"] = "play"
    card: CardKey
    use: Literal["action", "energy"]


class Buy(_Move):
    """Buy a face-up card of the display with this turn's energy."""

    type: Literal["buy"] = "buy"
    card: CardKey


class SpendSnack(_Move):
    """Return a snack bar token to the supply for 1 energy (2 under Bird feeder)."""

    type: Literal["spend_snack"] = "spend_snack"


class EndTurn(_Move):
    type: Literal["end_turn"] = "end_turn"


class ChooseCard(_Move):
    """Answer a prompt with a card: from your hand, your discard pile or the display."""

    type: Literal["choose_card"] = "choose_card"
    card: CardKey


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
    Play | Buy | SpendSnack | EndTurn | ChooseCard | ChoosePath | ChoosePile | ChoosePlayer | Done,
    Field(discriminator="type"),
]
move_adapter: TypeAdapter[Move] = TypeAdapter(Move)
