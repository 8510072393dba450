"""Admin inspection (bearer ``ADMIN_TOKEN``): games, full state, move log, replay, abort."""

from fastapi import APIRouter, Query
from sqlalchemy import select, update

from app.api.deps import AdminDep, ContextDep, SessionDep
from app.db import storable
from app.models import Game, Lobby, Move, now
from app.schemas import (
    AdminGame,
    AdminGameSummary,
    AdminMove,
    AdminStateAt,
    ErrorBody,
    TableSeat,
    Unprocessable,
)
from app.services.errors import Problem
from app.services.games import replay, table_seats

router = APIRouter(
    prefix="/api/admin",
    tags=["admin"],
    dependencies=[AdminDep],
    responses={401: {"model": ErrorBody}, 404: {"model": ErrorBody}},
)


async def _players(session: SessionDep, game_id: str) -> list[TableSeat]:
    lobby_id = await session.scalar(select(Lobby.id).where(Lobby.game_id == game_id))
    seats = await table_seats(session, lobby_id) if lobby_id else []
    return [TableSeat(seat=s.seat, name=s.name, bot=s.bot) for s in seats]


async def _game(session: SessionDep, game_id: str) -> Game:
    row = await session.get(Game, game_id) if storable(game_id) else None
    if row is None:
        raise Problem(404, "No such game.")
    return row


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


@router.get("/games", summary="Every game", description="Newest first, at most `limit`.")
async def list_games(
    session: SessionDep, limit: int = Query(100, ge=1, le=1000)
) -> list[AdminGameSummary]:
    rows = await session.scalars(select(Game).order_by(Game.created_at.desc()).limit(limit))
    return [AdminGameSummary(**_summary(r, await _players(session, r.id))) for r in rows.all()]


@router.get(
    "/games/{game_id}",
    summary="One game, unredacted",
    description="The full state (every hand, the deck order, the RNG) and the seed.",
)
async def get_game(game_id: str, session: SessionDep) -> AdminGame:
    row = await _game(session, game_id)
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
    await _game(session, game_id)
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
    return AdminStateAt(game_id=game_id, at=at, state=await replay(session, game_id, at))


@router.post(
    "/games/{game_id}/abort",
    summary="Abort a game",
    description="An active game stops for good; its seed is revealed. 409 if it already ended.",
    responses={409: {"model": ErrorBody}},
)
async def abort(game_id: str, ctx: ContextDep) -> AdminGameSummary:
    async with ctx.db.writing() as session:
        row = await _game(session, game_id)
        result = await session.execute(
            update(Game)
            .where(Game.id == game_id, Game.status == "active")
            .values(status="aborted", updated_at=now(), finished_at=now())
            .execution_options(synchronize_session=False)
        )
        if result.rowcount != 1:
            raise Problem(409, f"The game is already {row.status}.")
    async with ctx.db.session() as session:
        row = await _game(session, game_id)
        summary = AdminGameSummary(**_summary(row, await _players(session, game_id)))
    await ctx.game_changed(game_id, row.version)
    return summary
