"""Guest players."""

from fastapi import APIRouter, Query, Request, Response, status

from app import guard
from app.context import Context
from app.api.deps import (
    RATE_LIMITED,
    ContextDep,
    CurrentPlayer,
    FreePlayer,
    OptionalPlayer,
    SessionDep,
    rate_limit,
)
from app.schemas import (
    UNREADABLE_BODY,
    ErrorBody,
    MyGame,
    MyGames,
    PlayerCreate,
    PlayerCreated,
    PlayerOut,
    Rename,
    SignedOut,
    Unprocessable,
    YourTurn,
    YourTurns,
)
from app.services.speeds import shown as speed_fields
from app.services import my_games, players
from engine.registry import get_game

router = APIRouter(prefix="/api/players", tags=["players"])

YEAR = 365 * 24 * 3600


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    summary="Become a guest player",
    description="Issues a random token (only its hash is stored), returned once in the body and "
    "also set as the HttpOnly `campground_token` cookie for the browser.",
    responses={**UNREADABLE_BODY, **RATE_LIMITED, 422: {"model": Unprocessable}},
    dependencies=[rate_limit("players", by_player=False)],
)
async def create_player(
    data: PlayerCreate, ctx: ContextDep, request: Request, response: Response
) -> PlayerCreated:
    player, token = await players.create(ctx.db, data.name)
    give_cookie(ctx, request, response, token)
    return PlayerCreated(id=player.id, name=player.name, token=token)


def give_cookie(ctx: Context, request: Request, response: Response, token: str) -> None:
    """The browser keeps ``token`` as the HttpOnly cookie; Secure whenever the site is served
    over HTTPS, directly or behind the proxy."""
    secure = guard.served_over_https(ctx.settings, request)
    response.set_cookie(
        players.COOKIE, token, max_age=YEAR, path="/", httponly=True, samesite="lax", secure=secure
    )


def take_cookie(ctx: Context, request: Request, response: Response) -> None:
    secure = guard.served_over_https(ctx.settings, request)
    response.delete_cookie(players.COOKIE, path="/", httponly=True, samesite="lax", secure=secure)


@router.post(
    "/sign-out",
    summary="Forget the player on this device",
    description="Clears the `campground_token` cookie, so this browser forgets the player. The "
    "token itself stays valid: a script that kept it can still use it. A signed-in device "
    "signs out for good with `DELETE /api/sessions/current`.",
)
async def sign_out(ctx: ContextDep, request: Request, response: Response) -> SignedOut:
    take_cookie(ctx, request, response)
    return SignedOut(signed_out=True)


@router.get(
    "/current",
    summary="Who am I, if anyone",
    description="The player the bearer token or cookie belongs to, or null when there is none "
    "(no token, or one that no longer works). Never 401: a page asks this on a first visit, "
    "where a refusal would be logged as an error.",
)
async def current(player: OptionalPlayer) -> PlayerOut | None:
    return (
        None if player is None else PlayerOut(id=player.id, name=player.name, handle=player.handle)
    )


@router.get(
    "/me",
    summary="Who am I",
    description="The player the bearer token or cookie belongs to.",
    responses={401: {"model": ErrorBody}},
)
async def me(player: CurrentPlayer) -> PlayerOut:
    return PlayerOut(id=player.id, name=player.name, handle=player.handle)


@router.patch(
    "/me",
    summary="Change my name",
    description="Renames the caller: same id, same token, same seats. Every lobby and table "
    "the caller sits at shows the new name, live over their sockets. 403 while suspended.",
    responses={
        **UNREADABLE_BODY,
        **RATE_LIMITED,
        401: {"model": ErrorBody},
        403: {"model": ErrorBody, "description": "the caller is suspended"},
        422: {"model": Unprocessable},
    },
    dependencies=[rate_limit("joins")],
)
async def rename(data: Rename, ctx: ContextDep, player: FreePlayer) -> PlayerOut:
    async with ctx.db.writing() as session:
        games, lobbies = await players.rename(session, player.id, data.name)
    for game_id, version in games.items():
        await ctx.game_changed(game_id, version)
    for lobby_id in lobbies:
        await ctx.lobby_changed(lobby_id)
    return PlayerOut(id=player.id, name=data.name, handle=player.handle)


@router.get(
    "/me/games",
    summary="My games",
    description="The caller's games: active ones first (those where it is the caller's turn "
    "first, then the latest moved), then the finished and aborted ones, latest first; and, on "
    "the first page, the open lobbies the caller sits in. `limit` games per page; the next "
    "page starts after the game whose id is given as `before` (the previous page's "
    "`next_before`).",
    responses={401: {"model": ErrorBody}, 422: {"model": Unprocessable}},
)
async def my_games_page(
    session: SessionDep,
    ctx: ContextDep,
    player: CurrentPlayer,
    request: Request,
    limit: int = Query(20, ge=1, le=100),
    before: str | None = Query(None, max_length=32, description="a game id: start after it"),
) -> MyGames:
    page, more = await my_games.games_page(session, player.id, limit, before)
    seats = await my_games.seats_of(session, [m.row.id for m in page])
    lobbies = [] if before else await my_games.open_lobbies(session, player.id)
    base = ctx.base_url(request)
    return MyGames(
        games=[
            MyGame(
                game_id=m.row.id,
                kind=m.row.kind,
                title=get_game(m.row.kind).title,
                status=m.row.status,
                your_turn=m.your_turn,
                you=m.you,
                seats=seats[m.row.id],
                winners=(m.row.outcome or {}).get("winners")
                if m.row.status == "finished"
                else None,
                updated_at=m.row.updated_at,
                deadline=m.deadline if m.your_turn else None,
                time_left=m.left,
                **speed_fields(m.row.speed, m.row.turn_seconds),
            )
            for m in page
        ],
        lobbies=[ls.out(player.id, base) for ls in lobbies],
        next_before=page[-1].row.id if more and page else None,
    )


@router.get(
    "/me/turns",
    summary="Tables waiting for me",
    description="The caller's tables where it is their turn, the one whose time runs out "
    'soonest first: the page\'s app badge counts them, and "Next table" opens the first '
    "after the one the player is at.",
    responses={401: {"model": ErrorBody}},
)
async def my_turns(session: SessionDep, player: CurrentPlayer) -> YourTurns:
    waiting = [m for m in await my_games.active_games(session, player.id) if m.your_turn]
    return YourTurns(
        count=len(waiting),
        games=[
            YourTurn(
                game_id=m.row.id,
                title=get_game(m.row.kind).title,
                pace=speed_fields(m.row.speed, m.row.turn_seconds)["pace"],
                deadline=m.deadline,
            )
            for m in waiting
        ],
    )
