"""Bots on the server: one asyncio task per game while a bot seat is to act."""

from __future__ import annotations

import asyncio
import logging
import random
from datetime import timedelta
from typing import TYPE_CHECKING

from sqlalchemy import String, cast, or_, select

from app.models import Game, Lobby, Seat, now
from app.services.errors import StaleVersion
from engine.core import full_view, random_bot

if TYPE_CHECKING:
    from app.context import Context

log = logging.getLogger(__name__)


class BotRunner:
    """Plays the bot seats of every game this process knows about.

    ``kick(game_id)`` after every committed move; a game has at most one task here, and a kick
    while it runs makes it look again before it stops, so no bot turn is ever missed. Bots
    move through ``Context.move``, exactly like people (version check, fan-out).
    """

    def __init__(self, ctx: Context):
        self.ctx = ctx
        self._tasks: dict[str, asyncio.Task] = {}
        self._again: set[str] = set()
        self._sweeper: asyncio.Task | None = None

    async def start(self) -> None:
        await self.resume_all()
        if self.ctx.settings.BOT_SWEEP:
            self._sweeper = asyncio.create_task(self.sweep(self.ctx.settings.BOT_SWEEP))

    def kick(self, game_id: str) -> None:
        if game_id in self._tasks:
            self._again.add(game_id)
        else:
            self._tasks[game_id] = asyncio.create_task(self._run(game_id), name=f"bots {game_id}")

    async def resume_all(self, idle_for: float | None = None) -> None:
        """Every active game with a bot seat (or a bot standing in) gets a look, whoever is connected: on startup all
        of them, on a sweep those idle for ``idle_for`` seconds."""
        query = (
            select(Game.id)
            .join(Lobby, Lobby.game_id == Game.id)
            .join(Seat, Seat.lobby_id == Lobby.id)
            .where(
                Game.status == "active",
                or_(Seat.bot_level.is_not(None), cast(Game.stand_ins, String) != "{}"),
            )
            .distinct()
        )
        if idle_for is not None:
            query = query.where(Game.updated_at < now() - timedelta(seconds=idle_for))
        async with self.ctx.db.session() as session:
            ids = await session.scalars(query)
            for game_id in ids.all():
                self.kick(game_id)

    async def sweep(self, every: float) -> None:
        """Picks up bots left waiting by an instance that stopped before they moved."""
        while True:
            await asyncio.sleep(every)
            try:
                await self.resume_all(idle_for=every)
            except Exception:
                log.exception("bot sweep failed; trying again in %s s", every)

    async def close(self) -> None:
        tasks = list(self._tasks.values()) + ([self._sweeper] if self._sweeper else [])
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _run(self, game_id: str) -> None:
        try:
            while True:
                self._again.discard(game_id)
                if not await self._step(game_id) and game_id not in self._again:
                    return
        except Exception:
            log.exception("bot failed in game %s; its bots stop until the next move", game_id)
        finally:
            self._tasks.pop(game_id, None)

    async def _step(self, game_id: str) -> bool:
        """Make one bot move if a bot is to act; False when none is."""
        async with self.ctx.db.session() as session:
            snap = await self.ctx.snapshot(session, game_id)
        seats = snap.bot_seats_to_act()
        if not seats:
            return False
        if self.ctx.settings.BOT_DELAY:
            await asyncio.sleep(self.ctx.settings.BOT_DELAY)
        seat = seats[0]
        level = snap.bot_level(seat)
        game = snap.game
        legal = game.legal_moves(snap.state, seat)
        # Seeded per (game, version, seat): a replayed bot decision is the same decision.
        rng = random.Random(f"{snap.seed}/{snap.version}/{seat}")
        try:
            move = game.bots[level](full_view(game, snap.state, seat), legal, rng)
        except Exception:
            # A broken bot must not stall the table: fall back to a uniform legal choice.
            log.exception("%s bot failed in game %s; playing a random legal move", level, game_id)
            move = random_bot({}, legal, rng)
        try:
            await self.ctx.move(
                game_id, seat, move, snap.version, stand_in=seat in snap.stand_ins, known=snap
            )
        except StaleVersion:
            # Someone moved first (a person, or these bots on another instance), or the person
            # took the seat back. Look again.
            pass
        return True
