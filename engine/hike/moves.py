"""The moves of Let's Take a Hike: each one atomic decision."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from engine.hike.cards import DECK_SIZE, SPACES

Space = Literal[SPACES]  # type: ignore[valid-type]


class _Move(BaseModel):
    # Strict: "3" is not the number 3; a move is sent exactly as its legal_moves entry.
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


class Draw(_Move):
    """Draw a card for your backpack."""

    type: Literal["draw"] = "draw"


class TakeHike(_Move):
    """Announce a hike and become its lead hiker."""

    type: Literal["hike"] = "hike"


class Pack(_Move):
    """Pack the drawn item in this space (the rest of the backpack is rearranged to fit)."""

    type: Literal["pack"] = "pack"
    space: Space


class Discard(_Move):
    """Discard this card: to make room, or to pay for a hazard or a hike card."""

    type: Literal["discard"] = "discard"
    card: int


class Join(_Move):
    type: Literal["join"] = "join"


class StayBehind(_Move):
    """Do not join the hike."""

    type: Literal["stay"] = "stay"


class Continue(_Move):
    type: Literal["continue"] = "continue"


class DropOut(_Move):
    """Drop out of the hike, scoring ``score`` from the hiking pile (None: nothing to take,
    or the last hiker, who takes everything)."""

    type: Literal["drop_out"] = "drop_out"
    score: int | None = None


Move = Annotated[
    Draw | TakeHike | Pack | Discard | Join | StayBehind | Continue | DropOut,
    Field(discriminator="type"),
]
move_adapter: TypeAdapter[Move] = TypeAdapter(Move)


# Moves are immutable, so the ones without a card are made once.
DRAW, TAKE_HIKE, JOIN, STAY, CONTINUE, DROP_OUT = (
    Draw(),
    TakeHike(),
    Join(),
    StayBehind(),
    Continue(),
    DropOut(),
)
PACK = {sp: Pack(space=sp) for sp in SPACES}
DISCARD = tuple(Discard(card=c) for c in range(DECK_SIZE))
SCORE = tuple(DropOut(score=c) for c in range(DECK_SIZE))
