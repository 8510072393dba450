"""Lobbies: gather players and bots at a table, then start the game."""

from collections.abc import Callable

from fastapi import APIRouter, Request, status

from app.api.deps import (
    RATE_LIMITED,
    ContextDep,
    CurrentPlayer,
    FreePlayer,
    Invite,
    OptionalPlayer,
    SessionDep,
    rate_limit,
)
from app.context import Context
from app.models import Player
from app.schemas import (
    UNREADABLE_BODY,
    BotRequest,
    ChatLine,
    ErrorBody,
    GameStarted,
    JoinByCode,
    LobbyCreate,
    LobbyOut,
    Responses,
    StandInRequest,
    Unprocessable,
)
from app.services import chat, lobbies, lobby_rows
from app.services.errors import Problem
from app.services.lobby_rows import NO_SUCH_LOBBY, LobbySeats

router = APIRouter(prefix="/api/lobbies", tags=["lobbies"])

ERRORS: Responses = {
    401: {"model": ErrorBody, "description": "no player token"},
    403: {"model": ErrorBody, "description": "not allowed for the caller (or suspended)"},
    404: {"model": ErrorBody, "description": "no such lobby"},
    409: {"model": ErrorBody, "description": "not possible in the lobby's current state"},
    422: {"model": Unprocessable, "description": "invalid request"},
}
REPLACED: Responses = {
    410: {"model": ErrorBody, "description": "the host replaced this invite code"}
}
UNEXPECTED_HOST: Responses = {
    400: {"model": ErrorBody, "description": "an invite link cannot be built for this Host"}
}


def _base(ctx: Context, request: Request) -> str:
    return ctx.base_url(request)


def _out(ctx: Context, request: Request, ls: LobbySeats, viewer: Player | None) -> LobbyOut:
    return ls.out(viewer.id if viewer else None, _base(ctx, request))


async def _change(
    ctx: Context,
    request: Request,
    lobby_id: str | None,
    player: Player,
    action: Callable[[LobbySeats], bool | None],
    *,
    invite_code: str | None = None,
) -> LobbyOut:
    """One change to a lobby (``lobby_id``, or else the lobby of ``invite_code``), in one
    transaction; its watchers hear of it unless it was a no-op (``action`` returns False).
    The caller gets the lobby as this transaction left it."""
    ls, changed = await lobbies.change(
        ctx.db, action, ctx.settings.LOBBY_IDLE, lobby_id=lobby_id, invite_code=invite_code
    )
    if changed:
        await ctx.lobby_changed(ls.lobby.id)
    ls.seated_again(player)
    return ls.out(player.id, _base(ctx, request))


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    summary="Create a lobby",
    description="The caller becomes the host and takes seat 0. `seats` defaults to the game's "
    "fewest players, `private` to true (joined only by invite code). `speed` "
    "names the table's speed (`GET /api/queue/speeds`: real time, turn-based or untimed); "
    "without it `turn_seconds` (default 180; null: untimed) gives a per-move clock, as before "
    "speeds had names. A private table is watched by its seats and whoever holds its invite "
    "code, and its chat is its seats' only; `after_end` (private tables only, default "
    "`private`) says whether anyone may watch its record once it has ended (`public`). An "
    "open lobby that nobody changes for a day closes by itself.",
    responses=ERRORS | UNREADABLE_BODY | UNEXPECTED_HOST | RATE_LIMITED,
    dependencies=[rate_limit("lobbies")],
)
async def create_lobby(
    data: LobbyCreate, ctx: ContextDep, player: FreePlayer, request: Request
) -> LobbyOut:
    ls = await lobbies.create(
        ctx.db, player, data, ctx.settings.MAX_OPEN_LOBBIES, ctx.settings.LOBBY_IDLE
    )
    if not ls.lobby.private:
        ctx.seeks_changed()
    return ls.out(player.id, _base(ctx, request))


@router.get(
    "",
    summary="Open public lobbies",
    description="Public lobbies that have not started, newest first, at most "
    "LISTED_LOBBIES_PER_HOST (default 3) of any one host.",
    responses=UNEXPECTED_HOST,
)
async def list_lobbies(
    session: SessionDep, ctx: ContextDep, player: OptionalPlayer, request: Request
) -> list[LobbyOut]:
    viewer = player.id if player else None
    base = _base(ctx, request)
    listed = await lobbies.open_public(session, ctx.settings.LISTED_LOBBIES_PER_HOST)
    return [ls.out(viewer, base) for ls in listed]


@router.post(
    "/join",
    summary="Join a lobby by invite code",
    description="Takes the lowest free seat; joining again while seated changes nothing. A "
    "player the host removed is refused (403) until the host makes a new invite code; a "
    "replaced code answers 410.",
    responses=ERRORS | REPLACED | UNREADABLE_BODY | UNEXPECTED_HOST | RATE_LIMITED,
    dependencies=[rate_limit("joins")],
)
async def join_by_code(
    data: JoinByCode, ctx: ContextDep, player: FreePlayer, request: Request
) -> LobbyOut:
    return await _change(
        ctx,
        request,
        None,
        player,
        lambda ls: lobbies.join(ls, player, by_code=True),
        invite_code=data.invite_code,
    )


@router.get(
    "/invite/{invite_code}",
    summary="The lobby behind an invite code",
    description="What an invite link leads to, before anyone joins or even has a name: the "
    "game, the seats and whether the table has started. Creates nothing; a replaced code "
    "answers 410. Rate-limited like joins, but counted apart: opening an invite link and then "
    "joining spends one join.",
    responses={404: ERRORS[404]} | REPLACED | UNEXPECTED_HOST | RATE_LIMITED,
    dependencies=[rate_limit("lookups")],
)
async def lobby_by_invite(
    invite_code: str, ctx: ContextDep, player: OptionalPlayer, request: Request
) -> LobbyOut:
    async with ctx.db.session() as session:
        ls = await lobby_rows.load_by_invite_code(session, invite_code)
    return _out(ctx, request, ls, player)


@router.get(
    "/{lobby_id}",
    summary="One lobby",
    description="The invite code and link are shown to the lobby's members only. A private "
    "lobby is shown to its members (seated, hosting, or kept a seat by a rematch) and to "
    "whoever sends its invite code (`invite`); to anyone else it is 404, as an unknown one.",
    responses={
        404: {
            "model": ErrorBody,
            "description": "no such lobby, or a private one the "
            "caller is neither a member of nor invited to",
        },
        **UNEXPECTED_HOST,
    },
)
async def get_lobby(
    lobby_id: str,
    ctx: ContextDep,
    player: OptionalPlayer,
    request: Request,
    invite: Invite = None,
) -> LobbyOut:
    async with ctx.db.session() as session:
        ls = await lobby_rows.load(session, lobby_id)
    if not ls.may_watch(player.id if player else None, invite):
        raise Problem(404, NO_SUCH_LOBBY)
    return _out(ctx, request, ls, player)


@router.post(
    "/{lobby_id}/join",
    summary="Join a public lobby",
    description="Takes the lowest free seat (the seat a rematch keeps for the caller first). "
    "Private lobbies are joined by invite code only (403), except by a player a rematch keeps "
    "a seat for; a full lobby is 409; joining again while seated changes nothing.",
    responses=ERRORS | UNEXPECTED_HOST | RATE_LIMITED,
    dependencies=[rate_limit("joins")],
)
async def join(lobby_id: str, ctx: ContextDep, player: FreePlayer, request: Request) -> LobbyOut:
    return await _change(
        ctx, request, lobby_id, player, lambda ls: lobbies.join(ls, player, by_code=False)
    )


@router.post(
    "/{lobby_id}/leave",
    summary="Leave a lobby",
    description="A player other than the host gives up their seat before the game starts.",
    responses=ERRORS | UNEXPECTED_HOST,
)
async def leave(
    lobby_id: str, ctx: ContextDep, player: CurrentPlayer, request: Request
) -> LobbyOut:
    return await _change(ctx, request, lobby_id, player, lambda ls: lobbies.leave(ls, player))


@router.post(
    "/{lobby_id}/bots",
    summary="Seat a bot",
    description="Host only: puts a bot of the given level (`GameKind.levels`: `random`, "
    "`heuristic`, `search` where the game has it) in a free seat.",
    responses=ERRORS | UNREADABLE_BODY | UNEXPECTED_HOST,
)
async def add_bot(
    lobby_id: str, data: BotRequest, ctx: ContextDep, player: FreePlayer, request: Request
) -> LobbyOut:
    return await _change(
        ctx,
        request,
        lobby_id,
        player,
        lambda ls: lobbies.add_bot(ls, player, data.seat, data.level),
    )


@router.put(
    "/{lobby_id}/stand_in",
    summary="Choose the stand-in bot",
    description="Host only, before the start: the bot level (`GameKind.levels`) that will "
    "play for a person who is away or conceded; the game and a rematch keep it.",
    responses=ERRORS | UNREADABLE_BODY | UNEXPECTED_HOST,
)
async def choose_stand_in(
    lobby_id: str,
    data: StandInRequest,
    ctx: ContextDep,
    player: FreePlayer,
    request: Request,
) -> LobbyOut:
    return await _change(
        ctx,
        request,
        lobby_id,
        player,
        lambda ls: lobbies.choose_stand_in(ls, player, data.level),
    )


@router.delete(
    "/{lobby_id}/seats/{seat}",
    summary="Free a seat",
    description="Host only, before the start: takes the bot or the person (not the host) out "
    "of a seat. Everyone watching the lobby sees it at once.",
    responses=ERRORS | UNEXPECTED_HOST,
)
async def free_seat(
    lobby_id: str, seat: int, ctx: ContextDep, player: FreePlayer, request: Request
) -> LobbyOut:
    return await _change(
        ctx, request, lobby_id, player, lambda ls: lobbies.free_seat(ls, player, seat)
    )


@router.post(
    "/{lobby_id}/invite_code",
    summary="Make a new invite code",
    description="Host only, before the start: the lobby gets a new invite code and link; the "
    "old link answers that it was replaced, and the players the host removed may join again "
    "(with the new code).",
    responses=ERRORS | UNEXPECTED_HOST,
)
async def new_invite_code(
    lobby_id: str, ctx: ContextDep, player: FreePlayer, request: Request
) -> LobbyOut:
    ls = await lobbies.new_invite_code(ctx.db, lobby_id, player, ctx.settings.LOBBY_IDLE)
    await ctx.lobby_changed(lobby_id)
    ls.seated_again(player)
    return ls.out(player.id, _base(ctx, request))


@router.post(
    "/{lobby_id}/close",
    summary="Close the lobby",
    description="Host only, before the start: the lobby's status becomes `closed`; nobody can "
    "join it or start it any more. Everyone watching the lobby sees it at once.",
    responses=ERRORS,
)
async def close(
    lobby_id: str, ctx: ContextDep, player: CurrentPlayer, request: Request
) -> LobbyOut:
    closed = await _change(ctx, request, lobby_id, player, lambda ls: lobbies.close(ls, player))
    await ctx.rematch_closed(lobby_id)
    return closed


@router.post(
    "/{lobby_id}/start",
    status_code=status.HTTP_201_CREATED,
    summary="Start the game",
    description="Host only, once every seat holds a player or a bot. The seed's SHA-256 is "
    "published in the game's table; the seed itself is revealed when the game ends. A game "
    "that cannot be set up is refused (409) and the lobby stays open.",
    responses=ERRORS,
)
async def start(lobby_id: str, ctx: ContextDep, player: FreePlayer) -> GameStarted:
    game, rematch_of = await lobbies.start(ctx.db, lobby_id, player, ctx.timing)
    await ctx.lobby_changed(lobby_id)
    await ctx.game_changed(game.id, 0, game.due_at)
    if rematch_of is not None:
        # The old table no longer offers the rematch as waiting.
        await ctx.game_changed(*rematch_of)
    return GameStarted(game_id=game.id)


@router.get(
    "/{lobby_id}/chat",
    summary="The lobby's chat",
    description="The latest 100 lines, oldest first: a public lobby's for anyone, a private "
    "one's for its seated players only (someone who holds its invite code gets 403, anyone "
    "else 404). Seated players write over the lobby socket "
    '(`{"type":"chat","text"}`) until the game starts.',
    responses={
        403: {"model": ErrorBody, "description": "a private lobby's chat is for its players"},
        404: {
            "model": ErrorBody,
            "description": "no such lobby, or a private one the caller "
            "is neither a member of nor invited to",
        },
    },
)
async def lobby_chat(
    lobby_id: str, session: SessionDep, player: OptionalPlayer, invite: Invite = None
) -> list[ChatLine]:
    ls = await lobby_rows.load(session, lobby_id)
    player_id = player.id if player else None
    if not ls.may_watch(player_id, invite):
        raise Problem(404, NO_SUCH_LOBBY)
    if not ls.may_read_chat(player_id):
        raise Problem(403, "Only the players in the lobby can read its chat.")
    return [ChatLine(**line) for line in await chat.history(session, lobby_id=lobby_id)]
