"""Play now: wait in a game's queue until a table of people near one's rating is formed (or
bots fill it, after the wait one chose)."""

from fastapi import APIRouter, status

from app.api.deps import RATE_LIMITED, ContextDep, CurrentPlayer, FreePlayer, rate_limit
from app.schemas import UNREADABLE_BODY, ErrorBody, Responses, Unprocessable
from app.schemas_queue import QueueJoin, QueueLeft, QueuePlace, SpeedOut, Waiting
from app.services import queue, speeds
from app.services.errors import Problem

router = APIRouter(prefix="/api/queue", tags=["play now"])

NO_TOKEN: Responses = {401: {"model": ErrorBody, "description": "no player token"}}
NOT_WAITING: Responses = {404: {"model": ErrorBody, "description": "the caller is not waiting"}}


@router.get(
    "/speeds",
    summary="The speeds",
    description="What a table is played at, "
    "fastest first: real time (a bank per person, time added per move), turn-based "
    "(days a move, with days to spare) and untimed. A lobby's, a table's and a seek's "
    "`speed` is one of these ids, or null for a per-move clock (`turn_seconds`).",
)
async def list_speeds() -> list[SpeedOut]:
    return [
        SpeedOut(
            id=s.id,
            pace=s.pace,
            name=s.name,
            words=s.words,
            start_seconds=s.bank.start if s.bank else None,
            add_seconds=s.bank.add if s.bank else None,
            most_seconds=s.bank.most if s.bank else None,
        )
        for s in speeds.SPEEDS.values()
    ]


@router.get(
    "/waiting",
    summary="People waiting",
    description="How many people wait for each game now (the home socket says it as it changes).",
)
async def waiting(ctx: ContextDep) -> Waiting:
    return Waiting(games=await queue.waiting(ctx.db))


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    summary="Play now",
    description="Wait for a table of `game`: with people whose choices agree (the speed, "
    "rated or not, a table size each accepts), nearest the caller's rating first, the gap "
    "accepted widening the longer each waits; with bots of `bot_level` in the seats nobody "
    "takes once the caller has waited `bots_after` seconds. When the table is formed its game "
    "starts at once and the caller's home socket says `seated` (and `GET /api/queue` gives "
    "its `game_id`). The place is kept while a home socket of the caller is open "
    "(`/ws/home`), or for QUEUE_LEASE seconds (6) after each `GET /api/queue`. One queue at a "
    "time (409); an impossible choice is 422: a size the game does not have, a rated guest, "
    "an unknown speed or bot level.",
    responses={
        **NO_TOKEN,
        403: {"model": ErrorBody, "description": "the caller is suspended"},
        409: {"model": ErrorBody, "description": "the caller already waits in a queue"},
        422: {"model": Unprocessable, "description": "a choice that cannot be"},
    }
    | UNREADABLE_BODY
    | RATE_LIMITED,
    dependencies=[rate_limit("queues")],
)
async def join(data: QueueJoin, ctx: ContextDep, player: FreePlayer) -> QueuePlace:
    entry, waiting = await queue.join(ctx.db, player, data, ctx.settings.QUEUE_LEASE)
    ctx.queue_changed()
    return queue.shown(entry, {entry.game: waiting})


@router.get(
    "",
    summary="My place",
    description="The caller's place in the queue, kept another QUEUE_LEASE seconds (a "
    "heartbeat for a client without the home socket); once a table is formed, its `game_id`.",
    responses=NO_TOKEN | NOT_WAITING,
)
async def my_place(ctx: ContextDep, player: CurrentPlayer) -> QueuePlace:
    entry = await queue.place(ctx.db, player.id, ctx.settings.QUEUE_LEASE)
    if entry is None:
        raise Problem(404, queue.NOT_WAITING)
    return queue.shown(entry, await queue.waiting(ctx.db))


@router.delete(
    "",
    summary="Leave the queue",
    description="The caller waits no more, and is seated at no table from it. A table formed "
    "for the caller before the leave is 409: open it (`GET /api/queue` gives its `game_id`).",
    responses=NO_TOKEN
    | NOT_WAITING
    | {
        409: {"model": ErrorBody, "description": "a table was formed for the caller first"},
    },
)
async def leave(ctx: ContextDep, player: CurrentPlayer) -> QueueLeft:
    await queue.leave(ctx.db, player.id)
    return QueueLeft(left=True)
