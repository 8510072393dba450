"""What an admin changes, whoever asks: the REST API (``/api/admin/...``) and the command line
(``campground admin ...``) call these, so each change is made, written to the audit log in
its own transaction, and told to the tables it concerns the same way from either."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Protocol

from sqlalchemy.ext.asyncio import AsyncSession

from app.config import Settings
from app.db import Database, storable
from app.models import Game, Player
from app.services import accounts, aborting, games, lobbies, moderation, ratings, standing_in
from app.services.clock import Timing
from app.services.errors import Problem
from app.services.moderation import Actor, record
from app.sign_outs import SignOuts
from engine.registry import GAMES


class Tables(Protocol):
    """What an admin's change needs of the app: the database, the clock's settings, and the
    ways a change is told to every socket on every instance (``app.context.Context``)."""

    db: Database
    timing: Timing
    settings: Settings
    sign_outs: SignOuts

    async def game_changed(
        self, game_id: str, version: int, due_at: datetime | None = None
    ) -> None: ...

    async def game_event(self, game_id: str, event: dict[str, Any]) -> None: ...

    async def lobby_event(self, lobby_id: str, event: dict[str, Any]) -> None: ...

    async def lobby_changed(self, lobby_id: str) -> None: ...


async def find_game(session: AsyncSession, game_id: str) -> Game:
    row = await session.get(Game, game_id) if storable(game_id) else None
    if row is None:
        raise Problem(404, "No such game.")
    return row


async def abort(tables: Tables, game_id: str, actor: Actor) -> Game:
    """An active game stops for good (409 if it has ended already); its sockets reload."""
    async with tables.db.session() as session:
        await find_game(session, game_id)
    if not await aborting.abort_game(tables.db, game_id):
        async with tables.db.session() as session:
            row = await find_game(session, game_id)
        raise Problem(409, f"The game is already {row.status}.")
    async with tables.db.writing() as session:
        row = await find_game(session, game_id)
        record(session, actor, "game.abort", game_id, version=row.version)
    await tables.game_changed(game_id, row.version)
    return row


async def _tell_tables(tables: Tables, player_id: str, text: str) -> None:
    game_ids, lobby_ids = await moderation.tables_of(tables.db, player_id)
    for game_id in game_ids:
        await tables.game_event(game_id, moderation.notice(text))
    for lobby_id in lobby_ids:
        await tables.lobby_event(lobby_id, moderation.notice(text))


async def mute(
    tables: Tables, player_id: str, minutes: int, reason: str | None, actor: Actor
) -> tuple[str, datetime]:
    """The player may not chat for ``minutes``; every table where they sit is told. Their
    name and the mute's end."""
    name, until = await moderation.mute(tables.db, player_id, minutes, reason, actor)
    spelled = f"{minutes} minute{'s' if minutes != 1 else ''}"
    await _tell_tables(tables, player_id, f"A moderator muted {name} in chat for {spelled}.")
    return name, until


async def unmute(tables: Tables, player_id: str, actor: Actor) -> str:
    """The player may chat again; their tables are told if they were muted. Their name."""
    name, was_muted = await moderation.unmute(tables.db, player_id, actor)
    if was_muted:
        await _tell_tables(tables, player_id, f"{name} may chat again.")
    return name


async def sign_out(tables: Tables, player_id: str, actor: Actor) -> int:
    """Every signed-in device of the player stops working, its sockets closed on every
    instance; how many there were."""
    await accounts.known(tables.db, player_id)
    ended = await accounts.sign_out(tables.db, player_id, admin=actor)
    await tables.sign_outs.ended(player_id, ended)
    return len(ended)


async def suspend(tables: Tables, player_id: str, actor: Actor) -> tuple[Player, int]:
    """The player is suspended: every device signed out and its sockets closed, the open
    lobbies they host closed, and the bot takes each of their seats at games under way.
    The player, and how many seats the bot took."""
    player = await accounts.suspend(tables.db, player_id, True, actor)
    await tables.sign_outs.ended(player_id)
    for lobby_id in await lobbies.close_hosted(tables.db, player, tables.settings.LOBBY_IDLE):
        await tables.lobby_changed(lobby_id)
    stood_in = 0
    for game_id, seat, count in await accounts.active_seats(tables.db, player_id):
        try:
            changed = await standing_in.concede(
                tables.db, game_id, seat, count, timing=tables.timing, why=games.SUSPENDED
            )
        except Problem:
            continue  # ended meanwhile, or the bot plays the seat already
        stood_in += 1
        await tables.game_changed(game_id, *changed)
    return player, stood_in


async def unsuspend(tables: Tables, player_id: str, actor: Actor) -> Player:
    return await accounts.suspend(tables.db, player_id, False, actor)


async def recompute(tables: Tables, kind: str, actor: Actor) -> tuple[int, int]:
    """Every rating of game ``kind`` computed again: how many games, how many raters."""
    if kind not in GAMES:
        raise Problem(404, "There is no such game kind.")
    async with tables.db.writing() as session:
        rated = await ratings.recompute(session, kind)
        raters = await ratings.count(session, kind)
        record(session, actor, "ratings.recompute", kind, games=rated)
    return rated, raters
