"""The Camp Pinetop game state: everything, hidden parts included (views filter it)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.core import BaseState, copy_model, unchecked

SEAT_NAMES = ["Red", "Blue", "Yellow", "Green", "Purple"]

Phase = Literal[
    "setup", "action", "draw", "gift", "pay", "power", "mastery", "after", "discard", "over"
]


class Options(BaseModel):
    """The modules, each switched on or off for the table."""

    model_config = ConfigDict(extra="forbid")

    friendship: bool = Field(
        default=False,
        title="Friendship tokens",
        description="Earned by joining another player's camper; spent to use their patch once.",
    )
    nature: bool = Field(
        default=False,
        title="Nature expansion",
        description="Weather and animals move round the map and change costs and moves.",
    )
    animal: Literal["random", "elk", "trout", "beaver", "otter"] = Field(
        default="random",
        title="Nature: the third animal",
        description="Joins the Bear and the Eagle (Nature expansion): chosen, or at random.",
        json_schema_extra={
            "enum_labels": {
                "random": "At random",
                "elk": "Elk",
                "trout": "Trout",
                "beaver": "Beaver",
                "otter": "Otter",
            }
        },
    )
    tower: bool = Field(
        default=False,
        title="Observation Tower",
        description="A free step toward the tower, and ten double supply cards.",
    )


class Pending(BaseModel):
    """A camper on its way: moved or placed already, its gifts and payment still to make.

    ``kind``: ``setup`` (the first camper), ``move`` (no patch), ``gain`` (a patch) or
    ``place`` (a new camper for a tent pair). ``owed``: the seats still due a gift; ``gifts``:
    how many gifts are still to give (fewer than ``owed`` with Good Neighbor), ``given``: how
    many were given. ``cost``: the requirements to pay, ``paid``: the cards put down for them
    so far."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["setup", "move", "gain", "place", "power"]
    start: int | None = None
    to: int
    patch: str | None = None
    owed: tuple[int, ...] = ()
    gifts: int = 0
    given: int = 0
    cost: tuple[str, ...] = ()
    paid: tuple[int, ...] = ()


class Power(BaseModel):
    """A green patch's one-time power waiting for its owner's choices."""

    model_config = ConfigDict(frozen=True)

    patch: str
    advanced: bool
    left: int  # free moves, face-up cards or placements still to make


class Borrowed(BaseModel):
    """A patch power used this turn with a Friendship token."""

    model_config = ConfigDict(frozen=True)

    owner: int
    patch: str
    advanced: bool


class Nature(BaseModel):
    """The Nature expansion's pieces. ``weather_pos`` counts clockwise round the map from the
    space above the top-left card; animals stand on map positions."""

    model_config = ConfigDict(frozen=True)

    weather: str
    weather_pos: int = 0
    animals: dict[str, int]
    forecast: int  # the conditions card on top, face up
    deck: tuple[int, ...]  # the conditions cards still to come (top is the end)
    discard: tuple[int, ...] = ()
    shifts: int = 0


class PinetopState(BaseState):
    options: Options = Options()
    cols: int = 3
    rows: int = 4
    grid: list[int] = []  # map card id per position, row by row
    campers: list[list[int]] = []  # per position: the seats of its campers, in arrival order
    tower: int | None = None  # the Observation Tower's position

    deck: list[int] = []  # the supply deck; its top is the end
    discard: list[int] = []
    face_up: list[int | None] = []  # left outer, left inner, right inner, right outer
    hands: list[list[int]] = []
    campers_left: list[int] = []  # campers still in each player's supply
    patches: list[dict[str, bool]] = []  # per seat: patch key -> advanced
    rank: list[int] = []
    masteries: list[str] = []  # the four mastery cards in play
    claims: list[list[int | None]] = []  # per mastery card: the seat on each of its four spots
    friendship: list[str] = []  # per seat: "none", "held" or "used"
    borrowed: Borrowed | None = None
    nature: Nature | None = None

    phase: Phase = "setup"
    first: int = 0  # the first player, drawn at setup
    active: int = 0
    turn: int = 0  # 0 during setup, then counts every player's turn
    drawn: int = 0  # supply cards drawn by this turn's draw action
    draw_side: Literal["left", "right"] | None = None
    took_wild: bool = False  # a face-up wild: the only card this turn
    moved: bool = False  # Draw & Move with the move first: its one card still to draw
    refreshed: bool = False
    refresh_slots: list[int] = []  # the face-up slots the last refresh turned up
    matched: list[int] = []  # the face-up cards three or more of which matched as the turn began
    acted: bool = False  # this turn's action is over
    ended: bool = False  # and nothing more is done before the discards
    steps: int = 0  # Trailblazer's free moves made this turn
    gifted: list[int] = []  # the players given a card for joining them this turn
    nature_shifted: bool = False  # nature shifts at most once a turn
    pending: Pending | None = None
    power: Power | None = None
    waiting: list[Power] = []  # green powers due after the one in hand (see turn.gain)
    winner: int | None = None

    def clone(self) -> PinetopState:
        """A copy that shares nothing mutable with ``self`` (cheaper than a deep copy), built
        field by field without validation: every step makes one."""
        fields = self.__dict__.copy()
        for name in _LISTS:
            fields[name] = fields[name].copy()
        fields["campers"] = list(map(list.copy, fields["campers"]))
        fields["hands"] = list(map(list.copy, fields["hands"]))
        fields["claims"] = list(map(list.copy, fields["claims"]))
        fields["patches"] = list(map(dict.copy, fields["patches"]))
        fields["rng"] = copy_model(self.rng, {})
        return unchecked(PinetopState, fields, self.__pydantic_fields_set__ | _COPIED)


_LISTS = (
    "log",
    "grid",
    "deck",
    "discard",
    "face_up",
    "campers_left",
    "rank",
    "masteries",
    "friendship",
    "waiting",
    "refresh_slots",
    "gifted",
    "matched",
)
_COPIED = frozenset((*_LISTS, "campers", "hands", "claims", "patches", "rng"))
