"""Request and response bodies of "Play now" and the open seeks."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from app.schemas import RatingShown, Timestamp
from app.services import speeds

# Seconds a person may choose to wait before bots fill seats.
LONGEST_BOT_WAIT = 600


class QueueJoin(BaseModel):
    game: str = Field(max_length=32, description="game id, e.g. hike")
    fewest: int | None = Field(
        default=None,
        description="the fewest players accepted at the table; default: the game's fewest",
    )
    most: int | None = Field(
        default=None,
        description="the most players accepted; default: `fewest` when it is "
        "given (one number), else the game's most",
    )
    speed: str = Field(
        default=speeds.DEFAULT,
        max_length=16,
        description="a speed's id (`GET /api/queue/speeds`); people sit together only when "
        "they chose the same",
    )
    rated: bool | None = Field(
        default=None,
        description="the table counts for ratings; default: true for a signed-in player, false "
        "for a guest, who cannot play rated",
    )
    bots_after: int | None = Field(
        default=None,
        ge=0,
        le=LONGEST_BOT_WAIT,
        description="seconds after which bots may fill the seats nobody else takes (0: at "
        "once); null: never",
    )
    bot_level: str | None = Field(
        default=None,
        max_length=16,
        description="the level of those bots (`GameKind.levels`); default: heuristic",
    )

    model_config = {
        "json_schema_extra": {
            "examples": [
                {
                    "game": "hike",
                    "fewest": 3,
                    "most": 5,
                    "speed": "3m",
                    "bots_after": 30,
                    "bot_level": "heuristic",
                },
            ]
        }
    }


class QueuePlace(BaseModel):
    game: str
    title: str
    fewest: int
    most: int
    speed: str
    rated: bool
    bots_after: int | None
    bot_level: str | None
    joined_at: Timestamp
    waited: float = Field(description="seconds waited so far")
    rating: int = Field(
        description="the rating matched by, in points: the conservative rating "
        "(a provisional one as it would be once no longer provisional)"
    )
    gap: int | None = Field(
        description="the rating gap accepted now, in points, widening with the wait; null: "
        "any rating"
    )
    waiting: int = Field(description="how many people wait for this game now, this one too")
    game_id: str | None = Field(description="the table formed for the caller: open it")


class QueueLeft(BaseModel):
    left: bool = Field(
        description="always true: the caller waits no more and is seated at no "
        "table from this queue"
    )


class SpeedOut(BaseModel):
    id: str
    pace: Literal["real time", "turn-based", "untimed"]
    name: str = Field(description='as players read it: "3 min + 15 s a move"')
    words: str = Field(
        description='with its pace, as tables show it: "Real time · 3 min + 15 s a move"'
    )
    start_seconds: int | None = Field(description="the bank each person starts with; null: untimed")
    add_seconds: int | None = Field(
        description="added to a person's bank after each of their "
        "moves (a step they may take back adds nothing)"
    )
    most_seconds: int | None = Field(description="the most a bank holds")


class Waiting(BaseModel):
    games: dict[str, int] = Field(
        description="people waiting now, by game id (only games someone waits for)"
    )


class SeekHost(BaseModel):
    id: str
    name: str
    handle: str | None
    rating: RatingShown | None = Field(
        description="in the seek's game; null for none (a guest, a newcomer)"
    )


class Seek(BaseModel):
    lobby_id: str
    game: str
    title: str
    seats: int
    taken: int = Field(description="seats taken by people or bots")
    speed: str | None = Field(description="the table's speed; null: a per-move clock")
    speed_name: str = Field(description='in words: "Real time · 3 min + 15 s a move"')
    turn_seconds: int | None = Field(description="a per-move clock's seconds; null otherwise")
    rated: bool = Field(description="the host made the table rated")
    host: SeekHost
    created_at: Timestamp
