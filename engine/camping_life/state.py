"""The Camping Life game state: everything, hidden parts included (views filter it)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from engine.core import BaseState, copy_model, unchecked

COINS = [0, 1, 2, 2, 3, 4]
SEAT_NAMES = ["Red", "Blue"]

Phase = Literal["bid_card", "bid_table", "pick", "place", "over"]


class Options(BaseModel):
    """Camping Life has no table options."""

    model_config = ConfigDict(extra="forbid")


class Bid(BaseModel):
    """A coin lying face down on a card of the current row."""

    model_config = ConfigDict(frozen=True)

    seat: int
    card: int
    coin: int


class Placement(BaseModel):
    """A won card waiting to be placed in ``seat``'s play area."""

    model_config = ConfigDict(frozen=True)

    seat: int
    card: int


class CardResult(BaseModel):
    """How one card of the row went at the turn-over."""

    model_config = ConfigDict(frozen=True)

    card: int
    coins: list[list[int]]  # per seat, in the order they were put down
    winner: int | None  # None: no coin or a tie, and the card is discarded
    placed: bool | None  # None while the won card waits to be placed; False: discarded


class RoundSummary(BaseModel):
    """The latest turn-over: the table totals, the picked card and every card of the row.

    Written when the coins on the cards are turned over, so all of it is public.
    """

    model_config = ConfigDict(frozen=True)

    round: int
    table_totals: list[int]
    picker: int | None
    picked: int | None
    cards: list[CardResult]


class CampingLifeState(BaseState):
    round: int = 1
    turn: int = 1  # bidding turn of the round, 1 to 3
    starter: int = 0
    phase: Phase = "bid_card"
    bidder: int = 0
    picker: int | None = None  # who won the table and picks a next-round card
    picked: int | None = None  # the next-round card picked this round
    revealed: bool = False  # the coins on the cards of this round are turned over

    mission_pile: list[int] = []
    open_missions: list[int] = []
    secret_missions: list[int] = []
    draw: list[int] = []
    row: list[int] = []
    next_round: list[int] = []
    discard: list[int] = []
    areas: list[list[int | None]] = []

    coins: list[list[int]] = []  # coins still in hand, per seat
    card_bids: list[Bid] = []
    table_coins: list[list[int]] = []  # turned over, per seat
    hidden_table: list[int | None] = []  # placed this turn, still face down
    placements: list[Placement] = []
    last_round: RoundSummary | None = None  # replaced, never changed: clones share it

    def clone(self) -> CampingLifeState:
        """A copy that shares nothing mutable with ``self`` (cheaper than a deep copy)."""
        fields = self.__dict__.copy()
        for name in _LISTS:
            fields[name] = fields[name].copy()
        for name in _LISTS_OF_LISTS:
            fields[name] = list(map(list.copy, fields[name]))
        fields["rng"] = copy_model(self.rng, {})
        return unchecked(CampingLifeState, fields, self.__pydantic_fields_set__ | _COPIED)

    def successor(self) -> CampingLifeState:
        """A copy for a move to change. A move replaces each list it changes instead of
        changing it in place (see rules), so the copy shares them all but the log, which
        every move extends."""
        fields = self.__dict__.copy()
        fields["log"] = fields["log"].copy()
        return unchecked(CampingLifeState, fields, self.__pydantic_fields_set__ | _COPIED)

    def update(self, **fields: Any) -> None:
        """Set several fields at once: pydantic's ``__setattr__`` costs about as much for one
        field as this does for all of them."""
        self.__dict__.update(fields)
        self.__pydantic_fields_set__.update(fields)


_LISTS = (
    "mission_pile",
    "open_missions",
    "secret_missions",
    "draw",
    "row",
    "next_round",
    "discard",
    "card_bids",
    "hidden_table",
    "placements",
    "log",
)
_LISTS_OF_LISTS = ("areas", "coins", "table_coins")
_COPIED = frozenset((*_LISTS, *_LISTS_OF_LISTS, "rng"))
