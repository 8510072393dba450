"""Guest players."""

from fastapi import APIRouter, Request, Response, status

from app.api.deps import ContextDep, CurrentPlayer
from app.schemas import (
    UNREADABLE_BODY,
    ErrorBody,
    PlayerCreate,
    PlayerCreated,
    PlayerOut,
    Unprocessable,
)
from app.services import players

router = APIRouter(prefix="/api/players", tags=["players"])

YEAR = 365 * 24 * 3600


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    summary="Become a guest player",
    description="Issues a random token (only its hash is stored), returned once in the body and "
    "also set as the HttpOnly `campground_token` cookie for the browser.",
    responses={**UNREADABLE_BODY, 422: {"model": Unprocessable}},
)
async def create_player(
    data: PlayerCreate, ctx: ContextDep, request: Request, response: Response
) -> PlayerCreated:
    async with ctx.db.writing() as session:
        player, token = players.create(session, data.name)
    # Secure whenever the site is served over HTTPS, directly or behind the proxy.
    secure = ctx.base_url(str(request.base_url)).startswith("https:")
    response.set_cookie(
        players.COOKIE, token, max_age=YEAR, path="/", httponly=True, samesite="lax", secure=secure
    )
    return PlayerCreated(id=player.id, name=player.name, token=token)


@router.get(
    "/me",
    summary="Who am I",
    description="The player the bearer token or cookie belongs to.",
    responses={401: {"model": ErrorBody}},
)
async def me(player: CurrentPlayer) -> PlayerOut:
    return PlayerOut(id=player.id, name=player.name)
