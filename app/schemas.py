"""Request and response bodies of the public API."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, Field, field_validator

from app.names import clean_name


def _utc(v: datetime) -> datetime:
    return v if v.tzinfo else v.replace(tzinfo=UTC)


# Times are stored in UTC; SQLite gives them back without the offset.
Timestamp = Annotated[datetime, AfterValidator(_utc)]


class ErrorBody(BaseModel):
    detail: str = Field(description="what went wrong, for a person")


class Readiness(BaseModel):
    database: Literal["ok", "unavailable"]
    redis: Literal["ok", "unavailable", "off"] = Field(description="off: no REDIS_URL")


# FastAPI's answer to a body it cannot read as text at all, e.g. bytes that are not UTF-8.
UNREADABLE_BODY = {400: {"model": ErrorBody, "description": "the body cannot be read as text"}}


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
    id: str = Field(description="the level as the API names it: random, heuristic, search")
    name: str = Field(description="the level as players read it: Beginner, Casual, Expert")
    about: str = Field(description="one sentence on how a bot of this level plays")


class GameKind(BaseModel):
    id: str
    title: str
    min_players: int
    max_players: int
    options_schema: dict[str, Any] = Field(description="JSON schema of the table's options")
    bot_levels: list[str] = Field(description="the ids of `levels`, weakest first")
    levels: list[BotLevel] = Field(description="the bot levels the game offers, weakest first")


# Seconds a person has for each move unless the host chooses: long enough to think, short
# enough that a table does not wait long on someone who left.
TURN_SECONDS = 180


class LobbyCreate(BaseModel):
    game: str = Field(description="game id, e.g. hike")
    options: dict[str, Any] = Field(default_factory=dict)
    turn_seconds: int | None = Field(
        default=TURN_SECONDS,
        ge=10,
        le=7 * 24 * 3600,
        description="seconds a person has for each move (10 s to 7 days); null: untimed",
    )
    seats: int | None = Field(default=None, description="default: the game's fewest players")
    private: bool = Field(default=True, description="private lobbies are joined by invite code")
    rated: bool | None = Field(
        default=None,
        description="the game counts for ratings (if every seat is a signed-in player or a bot) "
        "and shows on profiles; default: true for a signed-in host, false for a guest, who "
        "cannot host a rated table",
    )
    stand_in_level: str | None = Field(
        default=None,
        description="the bot level (`GameKind.levels`) that plays for a person who is away or "
        "conceded; default: heuristic",
    )


class SeatOut(BaseModel):
    seat: int
    player: PlayerOut | None
    bot: str | None
    reserved_for: str | None = Field(
        default=None, description="a rematch keeps this free seat for this player id until"
    )
    reserved_until: Timestamp | None = Field(default=None, description="when the seat opens")
    rating: RatingShown | None = Field(
        default=None, description="the seat's rating in this game (signed-in players and bots)"
    )


class LobbyOut(BaseModel):
    id: str
    game: str
    title: str
    options: dict[str, Any]
    turn_seconds: int | None = Field(
        description="seconds a person has for each move; null: untimed"
    )
    private: bool
    rated: bool = Field(description="rated once every seat is a signed-in player or a bot")
    stand_in_level: str = Field(
        description="the bot level that plays for a person who is away or conceded"
    )
    status: str = Field(
        description="open, started or closed (by its host, or when nobody changed it for a day)"
    )
    host_id: str
    seats: list[SeatOut]
    game_id: str | None
    invite_code: str | None = Field(description="shown to the lobby's members only")
    invite_url: str | None
    you: int | None = Field(description="the caller's seat")


class JoinByCode(BaseModel):
    invite_code: str


class BotRequest(BaseModel):
    seat: int
    level: str = Field(description="a bot level the game offers (`GameKind.levels`)")


class StandInRequest(BaseModel):
    level: str = Field(description="the bot level that plays for away or conceded players")


class GameStarted(BaseModel):
    game_id: str


class GameState(BaseModel):
    game_id: str
    version: int = Field(description="number of moves played")
    view: dict[str, Any] = Field(description="the caller's view, with the table")


class LogPage(BaseModel):
    game_id: str
    log_length: int = Field(description="how many entries the game's log has now")
    before: int = Field(description="the entries are the ones numbered below this")
    entries: list[dict[str, Any]] = Field(
        description="`{\"text\",\"seat\"}` each, oldest first; the first is number "
        "`before - len(entries)`"
    )


class MoveRequest(BaseModel):
    move: dict[str, Any] = Field(description="one entry's `move` from the view's legal_moves")
    expect_version: int = Field(description="the version the move was chosen at")


class MoveResult(BaseModel):
    version: int
    view: dict[str, Any]


class TableSeat(BaseModel):
    seat: int
    name: str
    bot: str | None


class AdminGameSummary(BaseModel):
    id: str
    kind: str
    status: str
    version: int
    players: list[TableSeat]
    created_at: Timestamp
    updated_at: Timestamp


class AdminGame(AdminGameSummary):
    options: dict[str, Any]
    seed: int
    seed_commitment: str
    outcome: dict[str, Any] | None
    state: dict[str, Any] = Field(description="the full, unredacted state")


class AdminMove(BaseModel):
    seq: int
    seat: int
    move: dict[str, Any]
    created_at: Timestamp


class AdminStateAt(BaseModel):
    game_id: str
    at: int
    state: dict[str, Any] = Field(description="the state after move `at`, replayed from the seed")


class MyGame(BaseModel):
    game_id: str
    kind: str
    title: str
    status: str = Field(description="active, finished or aborted")
    your_turn: bool = Field(description="the caller is among the seats to act now")
    you: int = Field(description="the caller's seat")
    seats: list[TableSeat]
    winners: list[int] | None = Field(description="the winning seats, once finished")
    updated_at: Timestamp


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


class AdminAwaySeat(BaseModel):
    game_id: str
    kind: str
    seat: int
    name: str
    since: Timestamp = Field(description="when the seat's time ran out")


class AdminOverdueSeat(BaseModel):
    seat: int
    name: str
    deadline: Timestamp


class AdminOverdue(BaseModel):
    game_id: str
    kind: str
    version: int
    due_at: Timestamp = Field(description="when the server was due to act on the game")
    seats: list[AdminOverdueSeat] = Field(description="seats whose time has run out")


class AdminClocks(BaseModel):
    away: list[AdminAwaySeat]
    overdue: list[AdminOverdue]


class AdminChatRemoved(BaseModel):
    id: int
    game_id: str | None
    lobby_id: str | None
    player_id: str
    name: str
    text: str = Field(description="what the line said")
    at: Timestamp

    model_config = {"json_schema_extra": {"examples": [{
        "id": 42, "game_id": "6f1c0d6c2a2d4f0e9a3b8e2f1c0d6c2a", "lobby_id": None,
        "player_id": "0b8e2f1c0d6c2a2d4f0e9a3b8e2f1c0d", "name": "Ana", "text": "...",
        "at": "2026-12-02T10:15:00Z",
    }]}}


class MuteRequest(BaseModel):
    minutes: int = Field(ge=1, le=525_600, description="how long: 1 minute to a year")
    reason: str | None = Field(default=None, max_length=200, description="kept in the audit log")

    model_config = {"json_schema_extra": {"examples": [{"minutes": 60, "reason": "insults"}]}}


class AdminMute(BaseModel):
    player_id: str
    name: str
    muted_until: Timestamp | None = Field(description="null: may chat")
    reason: str | None = None

    model_config = {"json_schema_extra": {"examples": [{
        "player_id": "0b8e2f1c0d6c2a2d4f0e9a3b8e2f1c0d", "name": "Ana",
        "muted_until": "2026-12-02T11:15:00Z", "reason": "insults",
    }]}}


class AdminAuditEntry(BaseModel):
    id: int
    at: Timestamp
    actor: str = Field(description="the name the admin gave in X-Admin-Name, else `admin`")
    address: str = Field(description="where the admin's request came from")
    request_id: str | None
    action: str = Field(description="game.abort, chat.delete, player.mute or player.unmute")
    target: str = Field(description="the game, chat line or player acted on")
    details: dict[str, Any]

    model_config = {"json_schema_extra": {"examples": [{
        "id": 7, "at": "2026-12-02T10:16:00Z", "actor": "sam", "address": "10.0.0.5",
        "request_id": "3f9a0c1e2b4d4c6e8f0a1b2c3d4e5f60", "action": "chat.delete",
        "target": "42", "details": {"game_id": "6f1c0d6c2a2d4f0e9a3b8e2f1c0d6c2a",
                                    "player_id": "0b8e2f1c0d6c2a2d4f0e9a3b8e2f1c0d",
                                    "text": "..."},
    }]}}
