"""Admin inspection (bearer ``ADMIN_TOKEN``): games, full state, move log, replay, abort,
away seats and overdue deadlines."""

from datetime import datetime
from typing import Literal

from fastapi import APIRouter, Query, Request
from sqlalchemy import select

from app.api.deps import AdminDep, ContextDep, SessionDep
from app.api.routes.moderation import ADMIN_NAME, actor
from app.db import storable
from app.models import Game, Lobby, Move, Seat, now
from app.schemas import ErrorBody, TableSeat, Unprocessable
from app.schemas_admin import (
    AdminAwaySeat,
    AdminClocks,
    AdminGame,
    AdminGameSummary,
    AdminMove,
    AdminOverdue,
    AdminOverdueSeat,
    AdminStateAt,
)
from app.services import admin, records
from app.services.admin import find_game
from app.services.clock import Clock
from app.services.game_loading import table_seats

router = APIRouter(
    prefix="/api/admin",
    tags=["admin"],
    dependencies=[AdminDep],
    responses={401: {"model": ErrorBody}, 404: {"model": ErrorBody}},
)


async def _players(session: SessionDep, game_id: str) -> list[TableSeat]:
    seats = await table_seats(session, game_id)
    return [TableSeat(seat=s.seat, name=s.name, bot=s.bot) for s in seats]


def _summary(row: Game, players: list[TableSeat]) -> dict:
    return {
        "id": row.id,
        "kind": row.kind,
        "status": row.status,
        "version": row.version,
        "players": players,
        "created_at": row.created_at,
        "updated_at": row.updated_at,
    }


@router.get(
    "/games",
    summary="Games, filtered",
    description="Newest first, at most `limit`: of one `kind`, in one `status`, where one "
    "`player` has a seat, started `since` a time; any of them, or none for every game.",
)
async def list_games(
    session: SessionDep,
    kind: str | None = Query(None, examples=["hike"]),
    status: Literal["active", "finished", "aborted"] | None = Query(None, examples=["active"]),
    player: str | None = Query(None, description="a player's id", max_length=64),
    since: datetime | None = Query(
        None, description="started at or after", examples=["2026-12-01T00:00:00Z"]
    ),
    limit: int = Query(100, ge=1, le=1000),
) -> list[AdminGameSummary]:
    if not all(storable(text) for text in (kind or "", player or "")):
        return []
    query = select(Game).order_by(Game.created_at.desc()).limit(limit)
    if kind:
        query = query.where(Game.kind == kind)
    if status:
        query = query.where(Game.status == status)
    if player:
        seated = (
            select(Lobby.game_id)
            .join(Seat, Seat.lobby_id == Lobby.id)
            .where(Seat.player_id == player, Lobby.game_id.is_not(None))
        )
        query = query.where(Game.id.in_(seated))
    if since:
        query = query.where(Game.created_at >= since)
    rows = await session.scalars(query)
    return [AdminGameSummary(**_summary(r, await _players(session, r.id))) for r in rows.all()]


@router.get(
    "/games/{game_id}",
    summary="One game, unredacted",
    description="The full state (every hand, the deck order, the RNG) and the seed.",
)
async def get_game(game_id: str, session: SessionDep) -> AdminGame:
    row = await find_game(session, game_id)
    return AdminGame(
        **_summary(row, await _players(session, game_id)),
        options=row.options,
        seed=row.seed,
        seed_commitment=row.seed_commitment,
        outcome=row.outcome,
        state=row.state,
    )


@router.get("/games/{game_id}/moves", summary="The move log", description="Every move, in order.")
async def get_moves(game_id: str, session: SessionDep) -> list[AdminMove]:
    await find_game(session, game_id)
    moves = await session.scalars(select(Move).where(Move.game_id == game_id).order_by(Move.seq))
    return [AdminMove(seq=m.seq, seat=m.seat, move=m.move, created_at=m.created_at) for m in moves]


@router.get(
    "/games/{game_id}/state",
    summary="The state after move k",
    description="Rebuilt from the seed and the first `at` moves of the log by the engine "
    "(`at=0`: the initial state); equal to the stored snapshot when `at` is the version.",
    responses={422: {"model": Unprocessable}},
)
async def state_at(game_id: str, session: SessionDep, at: int = Query(ge=0)) -> AdminStateAt:
    return AdminStateAt(game_id=game_id, at=at, state=await records.state_at(session, game_id, at))


@router.post(
    "/games/{game_id}/abort",
    summary="Abort a game",
    description="An active game stops for good; its seed is revealed. 409 if it already ended.",
    responses={409: {"model": ErrorBody}},
)
async def abort(
    game_id: str, ctx: ContextDep, request: Request, x_admin_name: str | None = ADMIN_NAME
) -> AdminGameSummary:
    row = await admin.abort(ctx, game_id, actor(request, x_admin_name))
    async with ctx.db.session() as session:
        return AdminGameSummary(**_summary(row, await _players(session, game_id)))


@router.get(
    "/clocks",
    summary="Away seats and overdue deadlines",
    description="`away`: seats of active games whose person's time ran out and that the bot "
    "plays until they come back, longest away first. `overdue`: active games whose next "
    "deadline (a bot's move, a person's time, an abandoned table's abort) has passed and not "
    "yet been acted on, with the seats whose time has run out; normally empty or a second old.",
)
async def clocks(session: SessionDep, limit: int = Query(100, ge=1, le=1000)) -> AdminClocks:
    at = now()
    away_rows = await session.scalars(
        select(Game)
        .where(Game.status == "active", Game.away_since.is_not(None))
        .order_by(Game.away_since)
        .limit(limit)
    )
    away = []
    for row in away_rows.all():
        names = {s.seat: s.name for s in await _players(session, row.id)}
        for seat, since in sorted(Clock.load(row.clock).away.items(), key=lambda i: i[1]):
            name = names.get(seat, "")
            away.append(
                AdminAwaySeat(game_id=row.id, kind=row.kind, seat=seat, name=name, since=since)
            )
    due_rows = await session.scalars(
        select(Game)
        .where(Game.status == "active", Game.due_at <= at)
        .order_by(Game.due_at)
        .limit(limit)
    )
    overdue = []
    for row in due_rows.all():
        names = {s.seat: s.name for s in await _players(session, row.id)}
        expired = [
            AdminOverdueSeat(seat=seat, name=names.get(seat, ""), deadline=deadline)
            for seat, deadline in sorted(Clock.load(row.clock).deadlines.items())
            if deadline <= at
        ]
        overdue.append(
            AdminOverdue(
                game_id=row.id, kind=row.kind, version=row.version, due_at=row.due_at, seats=expired
            )
        )
    return AdminClocks(away=away, overdue=overdue)
