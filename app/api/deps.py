"""Dependencies, as ``Annotated`` aliases so route signatures read like sentences."""

from __future__ import annotations

import hmac
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import Depends, HTTPException, Query, Request, status
from fastapi.security import APIKeyCookie, HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.ext.asyncio import AsyncSession

from app import logs
from app.context import Context
from app.guard import client_address
from app.models import Player
from app.schemas import ErrorBody, Responses
from app.services import players
from app.services.errors import Suspended

bearer = HTTPBearer(
    auto_error=False,
    scheme_name="bearer",
    description="a player's token, or ADMIN_TOKEN for /api/admin",
)
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]
# The pages' way: the cookie that creating a player or signing in sets.
cookie = APIKeyCookie(
    name=players.COOKIE,
    auto_error=False,
    scheme_name="cookie",
    description="a player's token as the pages send it; calls that change something also "
    "need the request to come from this site's own pages",
)
Cookie = Annotated[str | None, Depends(cookie)]


# Dependencies are coroutines: FastAPI runs a plain function in its thread pool, a hand-off
# to a thread and back on every request.
async def get_context(request: Request) -> Context:
    return request.app.state.ctx


ContextDep = Annotated[Context, Depends(get_context)]


async def get_session(ctx: ContextDep) -> AsyncIterator[AsyncSession]:
    async with ctx.db.session() as session:
        yield session


# For routes that only read. Closed as soon as the route returns (``scope="function"``), not
# after the response is sent: no connection waits on the client. A route that writes opens its
# own sessions instead, one at a time.
SessionDep = Annotated[AsyncSession, Depends(get_session, scope="function")]


async def get_token(credentials: Credentials, cookie: Cookie) -> str | None:
    """The caller's token: the bearer token, else the cookie."""
    return credentials.credentials if credentials else cookie


Token = Annotated[str | None, Depends(get_token)]


async def get_optional_player(ctx: ContextDep, token: Token) -> Player | None:
    # A connection of its own, handed back before the route runs: the route may need the
    # pool's connection for its own work.
    player = await players.by_token(ctx.db, token)
    logs.bind(player_id=player.id if player else None)
    return player


OptionalPlayer = Annotated[Player | None, Depends(get_optional_player)]


async def get_current_player(player: OptionalPlayer) -> Player:
    if player is None:
        raise HTTPException(
            status.HTTP_401_UNAUTHORIZED,
            "Create a player first (POST /api/players) and send its token.",
            headers={"WWW-Authenticate": "Bearer"},
        )
    return player


CurrentPlayer = Annotated[Player, Depends(get_current_player)]


async def get_free_player(player: CurrentPlayer) -> Player:
    if player.suspended_at is not None:
        raise Suspended()
    return player


# A player who may take seats, host, or change their name: not suspended.
FreePlayer = Annotated[Player, Depends(get_free_player)]


async def require_admin(ctx: ContextDep, credentials: Credentials) -> None:
    expected = ctx.settings.ADMIN_TOKEN
    if not expected:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "The admin API is off (no ADMIN_TOKEN).")
    given = credentials.credentials if credentials else ""
    if not hmac.compare_digest(given.encode(), expected.encode()):
        raise HTTPException(
            status.HTTP_401_UNAUTHORIZED,
            "Wrong admin token.",
            headers={"WWW-Authenticate": "Bearer"},
        )


AdminDep = Depends(require_admin)


def rate_limit(kind: str, *, by_player: bool = True) -> Any:
    """A route dependency counting the call under ``ctx.limits.<kind>``, by address (before
    any database work) and then, for routes that look the player up anyway, by player: 429
    with Retry-After beyond the rate."""

    async def by_address(request: Request, ctx: ContextDep) -> None:
        await getattr(ctx.limits, kind).spend(f"address:{client_address(request)}")

    # Keyword-only, so the address is counted first: FastAPI resolves in this order.
    async def and_by_player(
        *, _address: None = Depends(by_address), ctx: ContextDep, player: OptionalPlayer
    ) -> None:
        if player is not None:
            await getattr(ctx.limits, kind).spend(f"player:{player.id}")

    return Depends(and_by_player if by_player else by_address)


# A private table's invite code, sent by a spectator its players invited (app.services.watching).
Invite = Annotated[
    str | None,
    Query(
        max_length=64,
        description="a private table's invite code: its invited spectators watch with it",
        examples=["x87464kcaw"],
    ),
]
# A call on a table the caller may not be able to see: 404 as for an unknown game.
NOT_WATCHABLE: Responses = {
    404: {
        "model": ErrorBody,
        "description": "no such game, or a private table "
        "the caller may not watch (neither seated nor invited)",
    }
}


RATE_LIMITED: Responses = {
    429: {"model": ErrorBody, "description": "too many calls: see Retry-After"}
}
# A seated player's call on a game: no token, no seat there, no such game.
SEATED: Responses = {
    401: {"model": ErrorBody, "description": "no player token"},
    403: {"model": ErrorBody, "description": "the caller has no seat at this game"},
    404: {"model": ErrorBody},
}
