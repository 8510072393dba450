"""Request and response bodies of the public API."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, Field, field_validator

from app.names import clean_name
from app.shapes import GameKindId, GameStatus, Level, ref
from engine.shapes import LogEntry


def _utc(v: datetime) -> datetime:
    return v if v.tzinfo else v.replace(tzinfo=UTC)


# Times are stored in UTC; SQLite gives them back without the offset.
Timestamp = Annotated[datetime, AfterValidator(_utc)]


class ErrorBody(BaseModel):
    detail: str = Field(description="what went wrong, for a person")


class Readiness(BaseModel):
    database: Literal["ok", "unavailable"]
    redis: Literal["ok", "unavailable", "off"] = Field(
        description="as of the last health check (every second); unavailable: this instance "
        "still serves its own sockets, and sockets on other instances catch up once Redis is "
        "back; off: no REDIS_URL"
    )


class Liveness(BaseModel):
    status: Literal["ok"] = Field(description="the process answers")


# A route's documented answers besides its own (``responses=`` of FastAPI), by status code.
Responses = dict[int | str, dict[str, Any]]

# FastAPI's answer to a body it cannot read as text at all, e.g. bytes that are not UTF-8.
UNREADABLE_BODY: Responses = {
    400: {"model": ErrorBody, "description": "the body cannot be read as text"}
}


class Unprocessable(BaseModel):
    detail: str | list[dict[str, Any]] = Field(
        description="what went wrong, for a person; FastAPI's list of validation errors when "
        "the request does not parse"
    )


class PlayerCreate(BaseModel):
    name: str = Field(
        description="display name, 1 to 32 characters once spaces are trimmed and collapsed; "
        "no control, invisible (zero-width) or text-direction characters"
    )

    @field_validator("name")
    @classmethod
    def _clean(cls, v: str) -> str:
        return clean_name(v)


class PlayerOut(BaseModel):
    id: str
    name: str
    handle: str | None = Field(
        default=None, description="the player's sign-in handle (their profile); null for a guest"
    )


class RatingShown(BaseModel):
    points: int = Field(description="the rating in points: 60 per OpenSkill mu (1500 to start)")
    provisional: bool = Field(description="still uncertain: too few rated games")
    games: int = Field(description="rated games played")


class SignedOut(BaseModel):
    signed_out: bool = Field(description="always true: the cookie is cleared")


class PlayerCreated(PlayerOut):
    token: str = Field(description="bearer token; shown once, also set as the cookie")


class BotLevel(BaseModel):
    id: Level = Field(description="the level as the API names it: random, heuristic, search")
    name: str = Field(description="the level as players read it: Beginner, Casual, Expert")
    about: str = Field(description="one sentence on how a bot of this level plays")


class GameKind(BaseModel):
    id: GameKindId
    title: str
    min_players: int
    max_players: int
    options_schema: dict[str, Any] = Field(description="JSON schema of the table's options")
    bot_levels: list[Level] = Field(description="the ids of `levels`, weakest first")
    levels: list[BotLevel] = Field(description="the bot levels the game offers, weakest first")


# Seconds a person has for each move unless the host chooses: long enough to think, short
# enough that a table does not wait long on someone who left.
TURN_SECONDS = 180


class LobbyCreate(BaseModel):
    game: GameKindId = Field(description="game id, e.g. hike")
    options: Annotated[dict[str, Any], ref("Options")] = Field(
        default_factory=dict, description="the game kind's options; its defaults where left out"
    )
    speed: str | None = Field(
        default=None,
        max_length=16,
        description="a speed's id (`GET /api/queue/speeds`): real time (a bank per person plus "
        "time added per move), turn-based (days a move, with days to spare) or `untimed`; "
        "without it, `turn_seconds` gives a per-move clock",
    )
    turn_seconds: int | None = Field(
        default=TURN_SECONDS,
        ge=10,
        le=7 * 24 * 3600,
        description="without `speed` only: seconds a person has for each move (10 s to 7 "
        "days), the same again for every move; null: untimed",
    )
    seats: int | None = Field(default=None, description="default: the game's fewest players")
    private: bool = Field(
        default=True,
        description="private lobbies are joined by invite code; a private table is watched by "
        "its seats and by whoever holds its invite code, and its chat is its seats' only",
    )
    after_end: Literal["private", "public"] | None = Field(
        default=None,
        description="a private table only: who may watch its record (state, log, replay, "
        "export) once it has ended: `private` (the default) its seats and invited spectators "
        "as while it was played, `public` anyone; its chat stays its seats'",
    )
    rated: bool | None = Field(
        default=None,
        description="the game counts for ratings (if every seat is a signed-in player or a bot) "
        "and shows on profiles; default: true for a signed-in host, false for a guest, who "
        "cannot host a rated table",
    )
    stand_in_level: Level | None = Field(
        default=None,
        description="the bot level (`GameKind.levels`) that plays for a person who is away or "
        "conceded; default: heuristic",
    )


class SeatOut(BaseModel):
    seat: int
    player: PlayerOut | None
    bot: Level | None
    reserved_for: str | None = Field(
        default=None, description="a rematch keeps this free seat for this player id until"
    )
    reserved_until: Timestamp | None = Field(default=None, description="when the seat opens")
    rating: RatingShown | None = Field(
        default=None, description="the seat's rating in this game (signed-in players and bots)"
    )
    unrated_because: str | None = Field(
        default=None,
        description="why this seat keeps a table the host made rated from being rated: "
        '"Gus has no sign-in" (a guest, who can add one at /account)',
    )


class TableSpeed(BaseModel):
    """A lobby's or a table's speed (``app.services.speeds``)."""

    speed: str | None = Field(
        description="the speed's id (`GET /api/queue/speeds`); null: a per-move clock "
        "(`turn_seconds`), as tables made before speeds had names keep"
    )
    pace: Literal["real time", "turn-based", "untimed"] = Field(
        description="a per-move clock of an hour or more is turn-based"
    )
    speed_name: str = Field(
        description='in words: "Real time · 3 min + 15 s a move", "Turn-based · 1 day a move, '
        '2 to spare", "Untimed", "3 min per move"'
    )
    turn_seconds: int | None = Field(
        description="a per-move clock's seconds for each move; null for a named speed"
    )


class LobbyOut(TableSpeed):
    id: str
    game: GameKindId
    title: str
    options: Annotated[dict[str, Any], ref("Options")]
    private: bool
    after_end: Literal["private", "public"] | None = Field(
        default=None,
        description="a private table's: who may watch it once it has ended (`private`: its "
        "seats and invited spectators; `public`: anyone); null for a public table",
    )
    rated: bool = Field(
        description="the game will be rated if started as seated now: the host made the table "
        "rated and every person at it has a sign-in (a seat's `unrated_because` says who "
        "has not)"
    )
    stand_in_level: Level = Field(
        description="the bot level that plays for a person who is away or conceded"
    )
    status: Literal["open", "started", "closed"] = Field(
        description="open, started or closed (by its host, or when nobody changed it for a day)"
    )
    host_id: str
    seats: list[SeatOut]
    game_id: str | None
    invite_code: str | None = Field(description="shown to the lobby's members only")
    invite_url: str | None
    you: int | None = Field(description="the caller's seat")
    removed: bool = Field(
        default=False,
        description="the host removed the caller: they cannot sit down again until the host "
        "makes a new invite link",
    )


class JoinByCode(BaseModel):
    invite_code: str


class BotRequest(BaseModel):
    seat: int
    level: Level = Field(description="a bot level the game offers (`GameKind.levels`)")


class StandInRequest(BaseModel):
    level: Level = Field(description="the bot level that plays for away or conceded players")


class GameStarted(BaseModel):
    game_id: str


class GameState(BaseModel):
    game_id: str
    version: int = Field(description="number of moves played")
    view: Annotated[dict[str, Any], ref("GameView")] = Field(
        description="the caller's view, with the table"
    )


class LogPage(BaseModel):
    game_id: str
    log_length: int = Field(description="how many entries the game's log has now")
    before: int = Field(description="the entries are the ones numbered below this")
    entries: list[LogEntry] = Field(
        description='`{"text","seat"}` each, oldest first; the first is number '
        "`before - len(entries)`"
    )


class MoveRequest(BaseModel):
    move: Annotated[dict[str, Any], ref("Move")] = Field(
        description="one entry's `move` from the view's legal_moves"
    )
    expect_version: int = Field(description="the version the move was chosen at")


class MoveResult(BaseModel):
    version: int
    view: Annotated[dict[str, Any], ref("GameView")] = Field(description="the caller's view")


class TableSeat(BaseModel):
    seat: int
    name: str
    bot: Level | None


class MyGame(TableSpeed):
    game_id: str
    kind: GameKindId
    title: str
    status: GameStatus = Field(description="active, finished or aborted")
    your_turn: bool = Field(description="the caller is among the seats to act now")
    you: int = Field(description="the caller's seat")
    seats: list[TableSeat]
    winners: list[int] | None = Field(description="the winning seats, once finished")
    updated_at: Timestamp
    deadline: Timestamp | None = Field(
        default=None,
        description="when the caller's time runs out, while they are to act at a timed table",
    )
    time_left: int | None = Field(
        default=None,
        description="seconds the caller has left, as of this answer: to the "
        "deadline while they are to act, else in their bank; null for an ended or untimed "
        "table, or while the stand-in bot plays their seat",
    )


class YourTurn(BaseModel):
    game_id: str
    title: str
    pace: Literal["real time", "turn-based", "untimed"]
    deadline: Timestamp | None = Field(description="when the caller's time runs out")


class YourTurns(BaseModel):
    count: int = Field(description="how many tables wait for the caller: the app's badge")
    games: list[YourTurn] = Field(
        description="those tables, the one whose time runs out soonest first (untimed ones last)"
    )


class MyGames(BaseModel):
    games: list[MyGame] = Field(
        description="active games first (those where it is the caller's turn first), then "
        "finished and aborted ones, latest first"
    )
    lobbies: list[LobbyOut] = Field(
        description="the open lobbies the caller sits in or hosts; on the first page only"
    )
    next_before: str | None = Field(
        description="pass as `before` for the next page; null on the last page"
    )


class Rename(PlayerCreate):
    """The new display name."""


class ChatLine(BaseModel):
    type: str = Field(default="chat", description="always chat, as on the sockets")
    id: int = Field(description="the line's number, for a moderator to remove it by")
    seat: int = Field(description="the writer's seat")
    name: str = Field(description="the writer's name when they wrote")
    text: str = Field(description="1 to 300 characters; plain text, never HTML")
    at: Timestamp
