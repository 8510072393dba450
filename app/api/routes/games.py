"""Game kinds, a game's state for the caller, and moves."""

from typing import Any

from fastapi import APIRouter, Query, Request, Response, status

from app.api.deps import (
    NOT_WATCHABLE,
    RATE_LIMITED,
    SEATED,
    ContextDep,
    CurrentPlayer,
    FreePlayer,
    Invite,
    OptionalPlayer,
    SessionDep,
    rate_limit,
)
from app.schemas import (
    UNREADABLE_BODY,
    ChatLine,
    ErrorBody,
    GameKind,
    GameState,
    LobbyOut,
    LogPage,
    MoveRequest,
    MoveResult,
    Unprocessable,
)
from app.services import (
    chat,
    game_log,
    lobbies,
    lobby_rows,
    records,
    standing_in,
    watching,
)
from app.services.errors import Problem
from engine import levels
from engine.core import IllegalMove
from engine.registry import GAMES

router = APIRouter(prefix="/api/games", tags=["games"])


@router.get(
    "",
    summary="The game kinds",
    description="Every game this server plays: id, title, player counts, the JSON schema of "
    "its options and its bot levels.",
)
async def game_kinds() -> list[GameKind]:
    return [
        GameKind(
            id=g.id,
            title=g.title,
            min_players=g.min_players,
            max_players=g.max_players,
            options_schema=g.Options.model_json_schema(),
            bot_levels=[lv["id"] for lv in levels.offered(g)],
            levels=levels.offered(g),
        )
        for g in GAMES.values()
    ]


@router.get(
    "/{kind}/catalog",
    summary="A game kind's components",
    description="The game's components (cards, boards, powers...) as JSON-ready data, the same "
    "for every table, so that views can refer to them by id. `{}` for a game without one.",
    responses={404: {"model": ErrorBody, "description": "unknown game kind"}},
)
async def game_catalog(kind: str) -> dict[str, Any]:
    game = GAMES.get(kind)
    if game is None:
        raise Problem(status.HTTP_404_NOT_FOUND, "There is no such game kind.")
    return game.catalog()


@router.get(
    "/{game_id}/state",
    summary="A game as the caller sees it",
    description="The caller's view (a spectator's without a seat) and the version it is at. "
    "A private table is shown to its seats and to the spectators its players invited (with "
    "`invite`, the invite code); once it has ended, to anyone if its host chose so "
    "(`after_end`).",
    responses=NOT_WATCHABLE,
)
async def game_state(
    game_id: str,
    session: SessionDep,
    ctx: ContextDep,
    player: OptionalPlayer,
    invite: Invite = None,
) -> GameState:
    snap = await ctx.snapshot(session, game_id)
    player_id = player.id if player else None
    if not snap.may_watch(player_id, invite):
        raise Problem(404, watching.NO_SUCH_GAME)
    seat = snap.seat_of(player_id)
    return GameState(game_id=game_id, version=snap.version, view=snap.view(seat))


@router.get(
    "/{game_id}/log",
    summary="Older entries of a game's log",
    description="Up to `limit` entries (at most 200) numbered below `before` (default: all "
    "of them), oldest first: a view carries only the latest 50, and a page asks for the ones "
    "before the oldest it holds. Entries are public: the same for every seat and spectator "
    "of the table (a private table's: see the state).",
    responses=NOT_WATCHABLE | {422: {"model": Unprocessable}} | RATE_LIMITED,
    dependencies=[rate_limit("replays")],
    response_model=LogPage,
)
async def game_log_page(
    game_id: str,
    ctx: ContextDep,
    player: OptionalPlayer,
    invite: Invite = None,
    before: int | None = Query(None, ge=0, description="entries numbered below this"),
    limit: int = Query(game_log.SHOWN, ge=1, le=game_log.PAGE_MAX),
) -> Response:
    async with ctx.db.session() as session:
        watched = await watching.watchable(session, game_id, player.id if player else None, invite)
        length = watched.log_length
        before = length if before is None else min(before, length)
        found = await game_log.page_rows(session, game_id, before, limit)
    # Read as entries and encoded off the event loop, as replays are.
    page = await ctx.off_loop(game_log.encoded_page, game_id, length, before, found)
    return Response(page, media_type="application/json")


@router.get(
    "/{game_id}/export",
    summary="The record of an ended game",
    description="A finished or aborted game as one document: kind, options, player count, the "
    "seed and its published SHA-256 commitment, the move log, seats that conceded and the "
    "outcome. `campground verify FILE` rebuilds the game from it and checks that it was fair. "
    "409 while the game is being played. A private table's record is for its seats and "
    "invited spectators, or anyone if its host chose so (`after_end`).",
    responses=NOT_WATCHABLE | {409: {"model": ErrorBody, "description": "active"}},
)
async def export_game(
    game_id: str, session: SessionDep, player: OptionalPlayer, invite: Invite = None
) -> dict[str, Any]:
    await watching.watchable(session, game_id, player.id if player else None, invite)
    return await records.export(session, game_id)


@router.get(
    "/{game_id}/replay",
    summary="An ended game after move k",
    description="What a spectator saw after move `at` (0: the setup) of a finished or aborted "
    "game: never a seat's hidden cards, except what the end revealed. 409 while the game is "
    "being played; 422 when `at` is outside 0 to the number of moves. Rate-limited "
    "(`RATE_REPLAYS` per player, `RATE_REPLAYS_PER_ADDRESS`). A private table's replay is "
    "for its seats and invited spectators, or anyone if its host chose so (`after_end`).",
    responses=NOT_WATCHABLE
    | {
        409: {"model": ErrorBody, "description": "the game is still being played"},
        422: {"model": Unprocessable, "description": "`at` out of range or not a number"},
    }
    | RATE_LIMITED,
    dependencies=[rate_limit("replays")],
    response_model=GameState,
)
async def replay_game(
    game_id: str, ctx: ContextDep, player: OptionalPlayer, invite: Invite = None, at: int = 0
) -> Response:
    async with ctx.db.session() as session:
        await watching.watchable(session, game_id, player.id if player else None, invite)
    page = await ctx.replays.page(ctx.db, game_id, at)
    return Response(page, media_type="application/json")


@router.post(
    "/{game_id}/moves",
    summary="Make a move",
    description="Send one entry's `move` from your view's `legal_moves` and the version you "
    "chose it at. 409 when the game has moved on since; 422 with the engine's reason when the "
    "move is malformed or illegal (nothing changes).",
    responses={
        **UNREADABLE_BODY,
        **SEATED,
        409: {"model": ErrorBody, "description": "stale expect_version"},
        422: {"model": Unprocessable, "description": "illegal or malformed move"},
    }
    | RATE_LIMITED,
    dependencies=[rate_limit("moves")],
)
async def make_move(
    game_id: str, data: MoveRequest, ctx: ContextDep, player: CurrentPlayer
) -> MoveResult:
    async with ctx.db.session() as session:
        snap = await ctx.snapshot(session, game_id)
    seat = snap.seat_of(player.id)
    if seat is None:
        raise Problem(status.HTTP_403_FORBIDDEN, "You have no seat at this game.")
    try:
        done = await ctx.move(game_id, seat, data.move, data.expect_version, known=snap)
    except IllegalMove as exc:
        raise Problem(422, exc.reason) from None
    return MoveResult(version=done.version, view=snap.moved(done).view(seat))


@router.post(
    "/{game_id}/concede",
    summary="Concede",
    description="Give up your seat; the log gains a line saying so. In a two-player game the "
    "other player wins at once (the outcome lists you under `conceded` and says `ended_by: "
    "concession`); with more players the stand-in bot (the lobby's `stand_in_level`) plays "
    "your seat to the end and you are "
    "ranked last. 409 when the game has ended or you conceded already.",
    responses={
        **SEATED,
        409: {"model": ErrorBody, "description": "the game has ended, or you conceded already"},
    }
    | RATE_LIMITED,
    dependencies=[rate_limit("moves")],
)
async def concede(game_id: str, ctx: ContextDep, player: CurrentPlayer) -> GameState:
    async with ctx.db.session() as session:
        snap = await ctx.snapshot(session, game_id)
    seat = snap.seat_of(player.id)
    if seat is None:
        raise Problem(status.HTTP_403_FORBIDDEN, "You have no seat at this game.")
    changed = await standing_in.concede(ctx.db, game_id, seat, len(snap.seats), timing=ctx.timing)
    await ctx.game_changed(game_id, *changed)
    async with ctx.db.session() as session:
        after = await ctx.snapshot(session, game_id)
    return GameState(game_id=game_id, version=after.version, view=after.view(seat))


@router.post(
    "/{game_id}/rematch",
    summary="Play again",
    description="On a finished game: a new lobby with the same game, options and seat count. "
    "The first player to ask becomes its host in their old seat, bots sit in their old seats, "
    "and every other player's seat is kept for them for ten minutes; they are told over the "
    'game socket (`{"type":"rematch","lobby_id"}`) and the view\'s '
    "`table.rematch_lobby_id`. Asking again (anyone of the old table) gives the same lobby and "
    "seats the caller in their kept seat.",
    responses={
        401: {"model": ErrorBody, "description": "no player token"},
        403: {
            "model": ErrorBody,
            "description": "the caller did not play this game, or is suspended",
        },
        404: {"model": ErrorBody},
        409: {"model": ErrorBody, "description": "the game has not finished, or the lobby is full"},
        **RATE_LIMITED,
    },
    dependencies=[rate_limit("joins")],
)
async def rematch(game_id: str, ctx: ContextDep, player: FreePlayer, request: Request) -> LobbyOut:
    async with ctx.db.writing() as session:
        idle = ctx.settings.LOBBY_IDLE
        lobby_id, version = await lobbies.rematch(session, game_id, player, idle)
    if version is not None:
        await ctx.game_event(game_id, {"type": "rematch", "lobby_id": lobby_id})
        await ctx.game_changed(game_id, version)
    await ctx.lobby_changed(lobby_id)
    async with ctx.db.session() as session:
        ls = await lobby_rows.load(session, lobby_id)
    return ls.out(player.id, ctx.base_url(request))


@router.get(
    "/{game_id}/chat",
    summary="The table's chat",
    description="The latest 100 lines, oldest first: a public table's for anyone, a private "
    "table's for its seated players only (an invited spectator gets 403). Seated players "
    'write over the game socket (`{"type":"chat","text"}`).',
    responses=NOT_WATCHABLE
    | {
        403: {
            "model": ErrorBody,
            "description": "a private table's invited spectator: its chat is for its players",
        },
    },
)
async def game_chat(
    game_id: str, session: SessionDep, player: OptionalPlayer, invite: Invite = None
) -> list[ChatLine]:
    await watching.chat_readable(session, game_id, player.id if player else None, invite)
    return [ChatLine(**line) for line in await chat.history(session, game_id=game_id)]


@router.post(
    "/{game_id}/back",
    summary="Take your seat back",
    description="The caller's seat was marked away (their time ran out) and the bot has been "
    "playing it: from now on the caller plays it again, and their time starts if they are to "
    "act. Any move of theirs does the same. Harmless when the seat is not away.",
    responses={
        **SEATED,
    },
)
async def back(game_id: str, ctx: ContextDep, player: CurrentPlayer) -> MoveResult:
    async with ctx.db.session() as session:
        snap = await ctx.snapshot(session, game_id)
    seat = snap.seat_of(player.id)
    if seat is None:
        raise Problem(status.HTTP_403_FORBIDDEN, "You have no seat at this game.")
    returned = await standing_in.come_back(ctx.db, game_id, seat, timing=ctx.timing)
    if returned is not None:
        await ctx.game_changed(game_id, *returned)
    async with ctx.db.session() as session:
        snap = await ctx.snapshot(session, game_id)
    return MoveResult(version=snap.version, view=snap.view(seat))
