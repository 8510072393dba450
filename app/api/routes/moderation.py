"""Moderation (bearer ``ADMIN_TOKEN``): remove a chat line, mute a player's chat, and read the
audit log of every change an admin makes."""

from datetime import datetime

from fastapi import APIRouter, Header, Path, Query, Request

from app import logs
from app.api.deps import AdminDep, ContextDep, SessionDep
from app.db import storable
from app.guard import client_address
from app.schemas import UNREADABLE_BODY, ErrorBody
from app.schemas_admin import AdminAuditEntry, AdminChatRemoved, AdminMute, MuteRequest
from app.services import admin, moderation
from app.services.moderation import Actor

router = APIRouter(
    prefix="/api/admin",
    tags=["admin"],
    dependencies=[AdminDep],
    responses={401: {"model": ErrorBody}, 404: {"model": ErrorBody}},
)

# Ids are 32-bit integers in the database.
MAX_ID = 2**31 - 1
ADMIN_NAME = Header(
    None,
    max_length=64,
    description="who is acting, for the audit log (default `admin`)",
    examples=["sam"],
)


def actor(request: Request, name: str | None) -> Actor:
    current = logs.REQUEST.get() or {}
    return Actor(
        (name or "").strip() or "admin", client_address(request), current.get("request_id")
    )


@router.delete(
    "/chat/{message_id}",
    summary="Remove a chat line",
    description="Deletes one line of a game's or a lobby's chat (its `id` is in the chat "
    "history and on the sockets). Everyone at the table is sent a moderator's line saying so, "
    "with `removes: <id>`, and the line is gone from the history. The audit log keeps its text.",
)
async def remove_chat_line(
    ctx: ContextDep,
    request: Request,
    message_id: int = Path(ge=1, le=MAX_ID, examples=[42]),
    x_admin_name: str | None = ADMIN_NAME,
) -> AdminChatRemoved:
    removed = await moderation.remove_line(ctx.db, message_id, actor(request, x_admin_name))
    notice = moderation.notice(
        f"A moderator removed a line by {removed['name']}.", removes=message_id
    )
    if removed["game_id"]:
        await ctx.game_event(removed["game_id"], notice)
    elif removed["lobby_id"]:
        await ctx.lobby_event(removed["lobby_id"], notice)
    return AdminChatRemoved(**removed)


@router.post(
    "/players/{player_id}/mute",
    summary="Mute a player's chat",
    description="The player cannot write in any chat for `minutes` (the socket answers their "
    "lines with an error saying until when); a mute given again replaces the last. "
    "Every active game and open lobby where they sit is sent a moderator's line saying so.",
    responses=UNREADABLE_BODY,
)
async def mute_player(
    player_id: str,
    body: MuteRequest,
    ctx: ContextDep,
    request: Request,
    x_admin_name: str | None = ADMIN_NAME,
) -> AdminMute:
    name, until = await admin.mute(
        ctx, player_id, body.minutes, body.reason, actor(request, x_admin_name)
    )
    return AdminMute(player_id=player_id, name=name, muted_until=until, reason=body.reason)


@router.delete(
    "/players/{player_id}/mute",
    summary="Lift a player's mute",
    description="The player may chat again; their tables are told when a mute was lifted.",
)
async def unmute_player(
    player_id: str,
    ctx: ContextDep,
    request: Request,
    x_admin_name: str | None = ADMIN_NAME,
) -> AdminMute:
    name = await admin.unmute(ctx, player_id, actor(request, x_admin_name))
    return AdminMute(player_id=player_id, name=name, muted_until=None)


@router.get(
    "/audit",
    summary="The audit log",
    description="Every change an admin made, newest first: who (`actor`, from the "
    "`X-Admin-Name` header, and `address`), what (`action` on `target`, with `details`) and "
    "when (`at`). The actions: "
    + "; ".join(f"`{name}` ({what})" for name, what in moderation.ACTIONS.items())
    + ". Filter by `action` and `since`; page with `before` (the last `id` seen).",
)
async def audit_log(
    session: SessionDep,
    action: str | None = Query(
        None, examples=["chat.delete"], description="one of the actions above"
    ),
    since: datetime | None = Query(None, examples=["2026-12-01T00:00:00Z"]),
    before: int | None = Query(
        None, ge=1, le=MAX_ID, description="only entries older than this id"
    ),
    limit: int = Query(100, ge=1, le=1000),
) -> list[AdminAuditEntry]:
    if action and not storable(action):
        return []
    rows = await moderation.audit(session, action=action, since=since, before=before, limit=limit)
    return [
        AdminAuditEntry(
            id=r.id,
            at=r.at,
            actor=r.actor,
            address=r.address,
            request_id=r.request_id,
            action=r.action,
            target=r.target,
            details=r.details,
        )
        for r in rows
    ]
