"""``campground admin ...``: an admin's changes from the command line, through the same
services as the REST API (``app.services.admin``), each written to the audit log with the
actor ``cli`` (or the name given with ``--as``) and the address ``cli@<host>``.

The change is told to the tables as the API tells them: through Redis (``REDIS_URL``) every
instance's sockets hear of it. Without Redis a running server's sockets see it at their
next reload (a move, a sync or a reconnect).
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import sys
from collections.abc import Awaitable, Callable

from app.config import Settings
from app.context import Context
from app.db import UNAVAILABLE, unavailable
from app.migrate import check_schema
from app.models import Player
from app.schemas_admin import MuteRequest
from app.services import accounts, admin
from app.services.errors import Problem
from app.services.moderation import Actor


def run(args: argparse.Namespace) -> int:
    """0 when the change is made, 1 when it is refused (no such player, a game already
    ended), 2 when the database is away or its schema is not up to date."""
    return asyncio.run(_run(args))


async def _run(args: argparse.Namespace) -> int:
    ctx = Context(Settings())
    actor = Actor(args.actor.strip()[:64] or "cli", f"cli@{socket.gethostname()}"[:64], None)
    try:
        await check_schema(ctx.db.engine)
        said = await TASKS[args.task](ctx, args, actor)
    except Problem as exc:
        print(exc.detail, file=sys.stderr)
        return 1
    except RuntimeError as exc:  # the schema is behind: its remedy
        print(exc, file=sys.stderr)
        return 2
    except Exception as exc:
        if not unavailable(exc):
            raise
        print(UNAVAILABLE, file=sys.stderr)
        return 2
    finally:
        await ctx.close()
    print(said)
    return 0


async def _player(ctx: Context, given: str) -> Player:
    """The player with id ``given``, else the one with that handle."""
    try:
        return await accounts.known(ctx.db, given)
    except Problem:
        try:
            return (await accounts.look_up(ctx.db, given))[0]
        except Problem:
            raise Problem(404, f"No player has the id or handle {given!r}.") from None


def _who(player: Player) -> str:
    return f"{player.name} ({player.id})"


async def _abort(ctx: Context, args: argparse.Namespace, actor: Actor) -> str:
    row = await admin.abort(ctx, args.game_id, actor)
    return f"Aborted game {row.id} ({row.kind}) at version {row.version}."


async def _mute(ctx: Context, args: argparse.Namespace, actor: Actor) -> str:
    try:
        MuteRequest(minutes=args.minutes, reason=args.reason)
    except ValueError as exc:
        raise Problem(422, f"--minutes or --reason: {exc}") from None
    player = await _player(ctx, args.player)
    _, until = await admin.mute(ctx, player.id, args.minutes, args.reason, actor)
    return f"Muted {_who(player)} in chat until {until:%Y-%m-%d %H:%M} UTC."


async def _unmute(ctx: Context, args: argparse.Namespace, actor: Actor) -> str:
    player = await _player(ctx, args.player)
    await admin.unmute(ctx, player.id, actor)
    return f"{_who(player)} may chat again."


async def _suspend(ctx: Context, args: argparse.Namespace, actor: Actor) -> str:
    player = await _player(ctx, args.player)
    _, stood_in = await admin.suspend(ctx, player.id, actor)
    seats = f"{stood_in} seat{'s' if stood_in != 1 else ''}"
    return f"Suspended {_who(player)}; the bot took {seats} at games under way."


async def _unsuspend(ctx: Context, args: argparse.Namespace, actor: Actor) -> str:
    player = await _player(ctx, args.player)
    await admin.unsuspend(ctx, player.id, actor)
    return f"Lifted the suspension of {_who(player)}."


async def _sign_out(ctx: Context, args: argparse.Namespace, actor: Actor) -> str:
    player = await _player(ctx, args.player)
    signed_out = await admin.sign_out(ctx, player.id, actor)
    return f"Signed out {signed_out} device{'s' if signed_out != 1 else ''} of {_who(player)}."


async def _recompute(ctx: Context, args: argparse.Namespace, actor: Actor) -> str:
    rated, raters = await admin.recompute(ctx, args.game, actor)
    return f"Computed the ratings of {args.game} again: {rated} rated games, {raters} raters."


TASKS: dict[str, Callable[[Context, argparse.Namespace, Actor], Awaitable[str]]] = {
    "abort": _abort,
    "mute": _mute,
    "unmute": _unmute,
    "suspend": _suspend,
    "unsuspend": _unsuspend,
    "sign-out": _sign_out,
    "recompute-ratings": _recompute,
}
