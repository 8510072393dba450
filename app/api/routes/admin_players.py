"""Admin of players and ratings (bearer ``ADMIN_TOKEN``): look a player up by handle, sign
out their devices, suspend them, and compute a game's ratings again from its records."""

from fastapi import APIRouter, Query, Request

from app.api.deps import AdminDep, ContextDep
from app.api.routes.moderation import ADMIN_NAME, actor
from app.models import Player
from app.schemas import ErrorBody
from app.schemas_accounts import AdminPlayer, AdminRecomputed, AdminSuspended, DevicesSignedOut
from app.services import accounts, admin

router = APIRouter(
    prefix="/api/admin",
    tags=["admin"],
    dependencies=[AdminDep],
    responses={401: {"model": ErrorBody}, 404: {"model": ErrorBody}},
)


def _out(player: Player, devices: int) -> dict:
    return {
        "id": player.id,
        "name": player.name,
        "handle": player.handle,
        "created_at": player.created_at,
        "suspended_at": player.suspended_at,
        "devices": devices,
    }


@router.get(
    "/players",
    summary="Look a player up by handle",
    description="The signed-in player with this handle (any case): id, name, when they "
    "started, whether they are suspended, and how many devices are signed in.",
)
async def look_up(handle: str = Query(max_length=64), *, ctx: ContextDep) -> AdminPlayer:
    player, devices = await accounts.look_up(ctx.db, handle)
    return AdminPlayer(**_out(player, devices))


@router.delete(
    "/players/{player_id}/sessions",
    summary="Sign out all their devices",
    description="Every signed-in device of the player stops working at once: their sockets are "
    "closed (code 4401) on every server and their device codes end. They sign in again with "
    "their password.",
)
async def sign_out_everywhere(
    player_id: str, ctx: ContextDep, request: Request, x_admin_name: str | None = ADMIN_NAME
) -> DevicesSignedOut:
    signed_out = await admin.sign_out(ctx, player_id, actor(request, x_admin_name))
    return DevicesSignedOut(signed_out=signed_out)


@router.post(
    "/players/{player_id}/suspension",
    summary="Suspend a player",
    description="Every device of the player is signed out and every socket of theirs (a "
    "guest's too) is closed at once, on every server, with code 4401. They can no longer "
    "create, join, host (seat a bot, choose the stand-in, free a seat, make an invite code, "
    "start) or rematch tables, chat, or change their name (403); the open lobbies they host "
    "close. At every game under way, and at every game that starts later with them seated, "
    "the stand-in bot plays their seat to the end and their own moves are refused; a rated "
    "game ranks that seat last. They can still sign in and watch.",
)
async def suspend(
    player_id: str, ctx: ContextDep, request: Request, x_admin_name: str | None = ADMIN_NAME
) -> AdminSuspended:
    player, stood_in = await admin.suspend(ctx, player_id, actor(request, x_admin_name))
    devices = len(await accounts.devices(ctx.db, player_id))
    return AdminSuspended(**_out(player, devices), seats_stood_in=stood_in)


@router.delete(
    "/players/{player_id}/suspension",
    summary="Lift a suspension",
    description="The player may take seats again; seats the bot took over stay the bot's.",
)
async def unsuspend(
    player_id: str, ctx: ContextDep, request: Request, x_admin_name: str | None = ADMIN_NAME
) -> AdminPlayer:
    player = await admin.unsuspend(ctx, player_id, actor(request, x_admin_name))
    return AdminPlayer(**_out(player, len(await accounts.devices(ctx.db, player_id))))


@router.post(
    "/ratings/{kind}/recompute",
    summary="Compute a game's ratings again",
    description="Every rating of the game kind is computed again from the stored records of "
    "its rated games (seats and outcomes), oldest first, as if each had just ended: after a "
    "change of the rating parameters, or to repair ratings by hand.",
)
async def recompute(
    kind: str, ctx: ContextDep, request: Request, x_admin_name: str | None = ADMIN_NAME
) -> AdminRecomputed:
    rated, raters = await admin.recompute(ctx, kind, actor(request, x_admin_name))
    return AdminRecomputed(game=kind, games=rated, raters=raters)
