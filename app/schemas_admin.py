"""Request and response bodies of the admin's API: games, clocks, chat moderation, audit."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, Field

from app.schemas import TableSeat, Timestamp
from app.services.moderation import ACTIONS, Action
from app.shapes import GameKindId, GameStatus, ref


class AdminGameSummary(BaseModel):
    id: str
    kind: GameKindId
    status: GameStatus
    version: int
    players: list[TableSeat]
    created_at: Timestamp
    updated_at: Timestamp


class AdminGame(AdminGameSummary):
    options: Annotated[dict[str, Any], ref("Options")]
    seed: int
    seed_commitment: str
    outcome: Annotated[dict[str, Any], ref("Outcome")] | None
    state: dict[str, Any] = Field(description="the full, unredacted state")


class AdminMove(BaseModel):
    seq: int
    seat: int
    move: Annotated[dict[str, Any], ref("Move")]
    created_at: Timestamp


class AdminStateAt(BaseModel):
    game_id: str
    at: int
    state: dict[str, Any] = Field(description="the state after move `at`, replayed from the seed")


class AdminAwaySeat(BaseModel):
    game_id: str
    kind: GameKindId
    seat: int
    name: str
    since: Timestamp = Field(description="when the seat's time ran out")


class AdminOverdueSeat(BaseModel):
    seat: int
    name: str
    deadline: Timestamp


class AdminOverdue(BaseModel):
    game_id: str
    kind: GameKindId
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

    model_config = {
        "json_schema_extra": {
            "examples": [
                {
                    "id": 42,
                    "game_id": "6f1c0d6c2a2d4f0e9a3b8e2f1c0d6c2a",
                    "lobby_id": None,
                    "player_id": "0b8e2f1c0d6c2a2d4f0e9a3b8e2f1c0d",
                    "name": "Ana",
                    "text": "...",
                    "at": "2026-12-02T10:15:00Z",
                }
            ]
        }
    }


class MuteRequest(BaseModel):
    minutes: int = Field(ge=1, le=525_600, description="how long: 1 minute to a year")
    reason: str | None = Field(default=None, max_length=200, description="kept in the audit log")

    model_config = {"json_schema_extra": {"examples": [{"minutes": 60, "reason": "insults"}]}}


class AdminMute(BaseModel):
    player_id: str
    name: str
    muted_until: Timestamp | None = Field(description="null: may chat")
    reason: str | None = None

    model_config = {
        "json_schema_extra": {
            "examples": [
                {
                    "player_id": "0b8e2f1c0d6c2a2d4f0e9a3b8e2f1c0d",
                    "name": "Ana",
                    "muted_until": "2026-12-02T11:15:00Z",
                    "reason": "insults",
                }
            ]
        }
    }


class AdminAuditEntry(BaseModel):
    id: int
    at: Timestamp
    actor: str = Field(description="the name the admin gave in X-Admin-Name, else `admin`")
    address: str = Field(description="where the admin's request came from")
    request_id: str | None
    action: Action = Field(
        description="what was done: "
        + "; ".join(f"{action}: {what}" for action, what in ACTIONS.items())
    )
    target: str = Field(description="the game, chat line or player acted on")
    details: dict[str, Any]

    model_config = {
        "json_schema_extra": {
            "examples": [
                {
                    "id": 7,
                    "at": "2026-12-02T10:16:00Z",
                    "actor": "sam",
                    "address": "10.0.0.5",
                    "request_id": "3f9a0c1e2b4d4c6e8f0a1b2c3d4e5f60",
                    "action": "chat.delete",
                    "target": "42",
                    "details": {
                        "game_id": "6f1c0d6c2a2d4f0e9a3b8e2f1c0d6c2a",
                        "player_id": "0b8e2f1c0d6c2a2d4f0e9a3b8e2f1c0d",
                        "text": "...",
                    },
                }
            ]
        }
    }
