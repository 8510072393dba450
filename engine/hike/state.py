"""The whole game state of Let's Take a Hike, serialisable as JSON."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from engine.core import BaseState

Phase = Literal["setup", "turn", "pack", "join", "resolve", "decide", "over"]


class Debt(BaseModel):
    """Cards a seat still has to discard.

    ``any``: ``count`` cards of the player's choice (Raccoon, Skunk);
    ``highest``: one card among the highest in miles (Blister);
    ``miles``: cards one at a time until ``miles`` more have been discarded (a hike card
    the hiker could not match).
    """

    rule: Literal["any", "highest", "miles"]
    count: int = 0
    miles: int = 0
    reason: str


class Hike(BaseModel):
    lead: int
    original_lead: int
    joined: list[int]
    """Everyone who set out, lead first then clockwise."""
    hikers: list[int]
    """Those still on the hike, in the same order."""
    pile: list[int] = []
    """The hiking pile, bottom first; the last card is the one just turned up."""
    to_ask: list[int] = []
    """Seats still to be asked, in order: whether to join, or whether to continue."""


class TieBreak(BaseModel):
    tied: list[int]
    order: list[int] = []
    """The order the tied players draw in, drawn at random."""
    draws: list[tuple[int, int]] = []
    """(seat, card id) in the order the tied players drew."""
    losers: list[int] = []
    winners: list[int]


class HikeState(BaseState):
    draw_pile: list[int]
    discard_pile: list[int] = []
    backpacks: list[dict[str, int | None]]
    dealt: list[list[int]] = []
    """Items dealt at setup that a seat has not packed yet: they do not all fit, and the
    player chooses what to leave out."""
    scoring: list[list[int]]
    turn: int = 0
    """The player whose turn it is (during a hike: the one who announced it)."""
    phase: Phase = "turn"
    pending: int | None = None
    """An item drawn on a turn, waiting to be packed (or a card discarded to fit it)."""
    hike: Hike | None = None
    debts: list[Debt | None]
    ended_during_hike: bool = False
    """The draw pile ran out during the hike: the game ends when the hike is over."""
    game_over: bool = False
    tie_break: TieBreak | None = None
