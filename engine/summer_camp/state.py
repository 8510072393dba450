"""The Summer Camp game state: everything, hidden parts included (views filter it).

Cards are physical copies (ints, see ``cards.COPIES``); piles list them bottom first, so the
top of a draw pile is its last entry.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from engine.core import BaseState, copy_model, unchecked
from engine.summer_camp.cards import PACKS

SEAT_NAMES = ["Red", "Blue", "Green", "Yellow"]

PackId = Literal[
    "adventure", "arts_crafts", "cooking", "friendship", "games", "outdoors", "water_sports"
]
DEFAULT_PACKS: list[PackId] = ["cooking", "outdoors", "water_sports"]


class Options(BaseModel):
    """The three activity packs in play, one per path (first pack: first path)."""

    model_config = ConfigDict(extra="forbid")

    packs: list[PackId] = Field(
        default=DEFAULT_PACKS,
        title="Activity packs",
        description="Choose 3 of the 7; each gives one path its activity.",
        # The packs' names as the game writes them, for forms and summaries ("Arts & Crafts").
        json_schema_extra={"enum_labels": dict(PACKS)},
    )

    @field_validator("packs")
    @classmethod
    def three_different(cls, packs: list[str]) -> list[str]:
        if len(packs) != 3 or len(set(packs)) != 3:
            raise ValueError("choose exactly 3 different activity packs among " + ", ".join(PACKS))
        return packs


PromptKind = Literal[
    "path",
    "bonus_move",
    "scavenger_hunt",
    "tie_dye",
    "gods_eye",
    "macaroni_sculpture",
    "take_display",
    "cave_exploration",
    "plant_identification",
    "bird_watching",
    "give",
    "dodgeball",
]


class Prompt(BaseModel):
    """A decision the game waits for; ``seats`` all answer it, in any order.

    ``card`` is the key of the card whose action asks (empty for a bonus icon). ``left`` is how
    many more times the action may be done (cards still to discard for Bird watching and
    Scavenger hunt), ``done`` how many times it has been; a path choice moves ``spaces`` on one
    of ``paths``.
    """

    model_config = ConfigDict(frozen=True)

    kind: PromptKind
    seats: list[int]
    card: str = ""
    left: int = 0
    done: int = 0
    spaces: int = 1
    paths: list[int] = []


class Played(BaseModel):
    model_config = ConfigDict(frozen=True)

    card: int
    use: Literal["action", "energy"]


_PLAYED_FIELDS = frozenset(("card", "use"))


def played(card: int, use: str) -> Played:
    """``Played(card=card, use=use)`` without validation: most steps play a card."""
    return unchecked(Played, {"card": card, "use": use}, set(_PLAYED_FIELDS))


class Badge(BaseModel):
    """A merit badge on a player board: ``kind`` is participation, all_star or a pack id."""

    model_config = ConfigDict(frozen=True)

    kind: str
    points: int


class Path(BaseModel):
    """A path as laid at setup: it never changes."""

    model_config = ConfigDict(frozen=True)

    pack: str
    boards: list[str]  # the three path boards, left to right
    bonuses: list[str | None]  # the bonus icon at positions 0-18


class SummerCampState(BaseState):
    packs: list[str]
    start_player: int = 0
    active: int = 0
    turn: int = 1  # the active player's turn number (each player's first turn is 1)
    ending: bool = False  # someone has all three activity badges: the round is finished
    over: bool = False

    paths: list[Path] = []
    piles: list[list[int]] = []  # the activity draw piles, by path
    display: list[list[int | None]] = []  # by path; None: taken this turn, refilled at its end
    activity_badges: list[list[int]] = []  # by path, the next one taken first
    supply: dict[str, list[int]] = {}  # the base piles: s'mores, scavenger hunt, free time
    participation: list[int] = []
    all_star: list[int] = []
    snack_supply: int = 0

    hands: list[list[int]] = []
    draws: list[list[int]] = []
    discards: list[list[int]] = []
    snacks: list[int] = []
    pawns: list[list[int]] = []  # [seat][path] position, 0 (off the board) to 18
    badges: list[list[Badge]] = []

    energy: int = 0
    bird_feeder: bool = False
    played: list[Played] = []
    prompts: list[Prompt] = []  # the first one is being asked now

    def say(self, text: str, seat: int | None = None) -> None:
        super().say(text.replace("!.", "!"), seat)  # "Red plays Lights out!", not "out!."

    def clone(self) -> SummerCampState:
        """A copy that shares nothing mutable with ``self`` (cheaper than a deep copy), built
        field by field without validation: every step makes one."""
        fields = self.__dict__.copy()
        for name in _LISTS:
            fields[name] = fields[name].copy()
        for name in _LISTS_OF_LISTS:
            fields[name] = list(map(list.copy, fields[name]))
        fields["supply"] = {k: v.copy() for k, v in fields["supply"].items()}
        fields["rng"] = copy_model(self.rng, {})
        return unchecked(SummerCampState, fields, self.__pydantic_fields_set__ | _COPIED)

    def successor(self) -> SummerCampState:
        """``clone`` for a step, sharing the table (see ``own_table``) and the RNG (a shuffle
        copies it first, see ``effects.draw``): most steps change neither, and copying them
        was more than half the copy."""
        fields = self.__dict__.copy()
        for name in _SEATS_LISTS:
            fields[name] = fields[name].copy()
        for name in _SEATS_LISTS_OF_LISTS:
            fields[name] = list(map(list.copy, fields[name]))
        return unchecked(SummerCampState, fields, self.__pydantic_fields_set__ | _COPIED)

    def own_table(self) -> None:
        """Copies of the table's piles, display and badge stacks, which a ``successor``
        shares with the state before it: a step that changes them calls this first."""
        d = self.__dict__
        for name in _TABLE_LISTS:
            d[name] = d[name].copy()
        for name in _TABLE_LISTS_OF_LISTS:
            d[name] = list(map(list.copy, d[name]))
        d["supply"] = {k: v.copy() for k, v in d["supply"].items()}


_TABLE_LISTS = ("participation", "all_star")
_TABLE_LISTS_OF_LISTS = ("piles", "display", "activity_badges")
_SEATS_LISTS = ("log", "snacks", "played", "prompts")
_SEATS_LISTS_OF_LISTS = ("hands", "draws", "discards", "pawns", "badges")
_LISTS = (*_TABLE_LISTS, *_SEATS_LISTS)
_LISTS_OF_LISTS = (*_TABLE_LISTS_OF_LISTS, *_SEATS_LISTS_OF_LISTS)
_COPIED = frozenset((*_LISTS, *_LISTS_OF_LISTS, "supply", "rng"))
