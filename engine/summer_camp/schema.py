"""The shape of a Summer Camp view and outcome (``engine.shapes``): for the API's schema and
the tests, never built at run time (``engine.summer_camp.view`` builds the dicts). Cards are
named by their catalog id (``GET /api/games/summer-camp/catalog``)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from engine.shapes import Shape
from engine.summer_camp.state import PackId, PromptKind

Bonus = Literal["draw", "snack", "move"]


class Path(Shape):
    pack: PackId
    boards: list[str] = Field(description="the three path boards, left to right, e.g. T4")
    bonuses: list[Bonus | None] = Field(
        description="by position 0 to 18; 0 is the start off the board, 6, 12 and 18 the bridges"
    )
    draw_pile: int = Field(description="cards left in the activity pile")
    display: list[str | None] = Field(
        description="two cards; null: bought this turn, or the pile ran out"
    )
    badges: list[int] = Field(description="activity badge points left, the next one first")


class Supply(Shape):
    card: str
    left: int


class Played(Shape):
    card: str
    use: Literal["action", "energy"]


class Prompt(Shape):
    """The question being asked now."""

    kind: PromptKind
    seats: list[int] = Field(description="everyone who must answer; several for Dodgeball")
    card: str | None = Field(description="the card asking; null for a bonus icon")
    text: str
    left: int = Field(description="repeats or cards still to choose")
    done: int


class Badge(Shape):
    kind: str = Field(description="participation, all_star or a pack id")
    points: int


class Seat(Shape):
    seat: int
    name: Literal["Red", "Blue", "Green", "Yellow"]
    pawns: list[int] = Field(description="position 0 to 18 on each path")
    hand: int = Field(description="cards in hand")
    draw_pile: int
    discard_pile: int
    discard_top: str | None
    discard: list[str] | None = Field(description="the whole pile, bottom first: yours only")
    snack_tokens: int
    badges: list[Badge]
    card_points: int = Field(description="experience points of every card the player owns")
    lake_points: int = Field(description="what the pawns would score now from the lake board")


class View(Shape):
    packs: list[PackId] = Field(description="the pack of each path, path 0 first")
    start_player: int
    active: int = Field(description="whose turn it is")
    turn: int = Field(description="the round: every player's first turn is turn 1")
    ending: bool = Field(description="someone has all three activity badges: the last round")
    energy: int = Field(description="the active player's energy left this turn")
    bird_feeder: bool = Field(description="snack bar tokens are worth 2 energy this turn")
    paths: list[Path]
    supply: list[Supply] = Field(description="s'mores, scavenger hunt, free time")
    participation: list[int] = Field(description="badge points left, the next first")
    all_star: list[int] = Field(description="badge points left, the next first")
    snack_supply: int
    hand: list[str] | None = Field(description="yours, in the order drawn; null: a spectator")
    played: list[Played] = Field(description="this turn, in order")
    prompt: Prompt | None = Field(description="null when the active player moves freely")
    seats: list[Seat]


class Breakdown(Shape):
    seat: int
    badges: list[Badge]
    badge_points: int
    card_points: int
    lake_points: int
    snack_tokens: int
    total: int


class Details(Shape):
    breakdown: list[Breakdown] = Field(description="one per seat")
