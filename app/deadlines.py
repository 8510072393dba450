"""Time-based work, driven by deadlines stored in the database: a bot's move, a person's clock
running out, a table everyone has left, a lobby nobody touches.

Each game row carries ``due_at``, when it next needs the server by itself; each open lobby
``closes_at``. Any instance may act on a deadline that has come, but first claims it with one
conditional UPDATE that moves ``due_at`` a lease ahead only if it is still due: exactly one
instance wins, the others see no row changed and leave it. The winner does one thing (a bot
move, which sets the next ``due_at`` in its own transaction; an abort), and if it dies
meanwhile the lease runs out and another instance claims the deadline again. The version
check on every move stays the last guard: two claims can never both commit a move.

The instance that made a change sets a timer for the new ``due_at``, so bots move on time;
every instance also polls for deadlines that have come (``DEADLINE_POLL``), which is how a
stopped instance's games and deadlines set before a restart are picked up.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from datetime import datetime, timedelta
from typing import Any, Protocol

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app import logs, metrics
from app.bots import BotWorkers
from app.db import Database, note_unavailable, rowcount, unavailable
from app.models import Game, Lobby, now
from app.services.clock import PlayedBy, Timing
from app.services.commit import GameAborted
from app.services.errors import StaleVersion
from app.services.aborting import abort_game
from app.services.games import Snapshot

log = logging.getLogger(__name__)

# How long a claimed deadline is held before another instance may claim it again: far more
# than one bot move takes, and short enough that a crash costs only a few seconds.
LEASE = timedelta(seconds=5)
# Deadlines acted on per poll; the rest wait for the next one.
BATCH = 100


class Table(Protocol):
    """What acting on a deadline needs of the app: the clock's settings, the game as known,
    and the ways a change is made and told to every socket."""

    timing: Timing

    async def snapshot(self, session: AsyncSession, game_id: str) -> Snapshot: ...

    async def move(
        self,
        game_id: str,
        seat: int,
        move: Any,
        expect_version: int,
        played_by: PlayedBy = "person",
        *,
        known: Snapshot | None = None,
    ) -> Any: ...

    async def game_changed(
        self, game_id: str, version: int, due_at: datetime | None = None
    ) -> None: ...

    async def lobby_changed(self, lobby_id: str) -> None: ...

    async def rematch_closed(self, lobby_id: str) -> None: ...


class Deadlines:
    def __init__(self, db: Database, table: Table, poll: float, bots: BotWorkers):
        self.db = db
        self.table = table
        self.every = poll
        self.bots = bots
        # Per game: the timer set, and when it fires; and the game's deadline now (later than
        # the timer's when moves have put it off since).
        self._timers: dict[str, tuple[asyncio.TimerHandle, datetime]] = {}
        self._due: dict[str, datetime] = {}
        self._running: dict[str, asyncio.Task] = {}
        self._again: set[str] = set()
        self._poller: asyncio.Task | None = None

    async def start(self) -> None:
        if self.every:
            self._poller = asyncio.create_task(self._poll(self.every))

    async def close(self) -> None:
        for timer, _ in self._timers.values():
            timer.cancel()
        tasks = list(self._running.values()) + ([self._poller] if self._poller else [])
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.bots.close()

    def schedule(self, game_id: str, due_at: datetime | None) -> None:
        """This instance just changed the game: be there when its next deadline comes.

        A timer set for an earlier time is kept, and looks again when it fires: a timed game's
        deadline moves later with every move, and cancelling and setting a timer each time
        took four times as long as this."""
        if due_at is None:
            self._due.pop(game_id, None)
            set_before = self._timers.pop(game_id, None)
            if set_before is not None:
                set_before[0].cancel()
            return
        self._due[game_id] = due_at
        set_before = self._timers.get(game_id)
        if set_before is not None:
            if set_before[1] <= due_at:
                return
            set_before[0].cancel()
        self._set_timer(game_id, due_at)

    def _set_timer(self, game_id: str, due_at: datetime) -> None:
        delay = max(0.0, (due_at - now()).total_seconds())
        timer = asyncio.get_running_loop().call_later(delay, self._fire, game_id)
        self._timers[game_id] = (timer, due_at)

    def _fire(self, game_id: str) -> None:
        _, fires_at = self._timers.pop(game_id)
        due_at = self._due[game_id]
        if due_at > fires_at:
            self._set_timer(game_id, due_at)
            return
        del self._due[game_id]
        self._wake(game_id)

    def _wake(self, game_id: str) -> None:
        if game_id in self._running:
            self._again.add(game_id)
        else:
            # A context of its own: not that of the request whose move set the timer.
            self._running[game_id] = asyncio.create_task(
                self._run(game_id), name=f"due {game_id}", context=contextvars.Context()
            )

    async def _poll(self, every: float) -> None:
        while True:
            await asyncio.sleep(every)
            try:
                await self.poll()
            except Exception as exc:
                if unavailable(exc):
                    note_unavailable(exc, "looking for due deadlines")
                else:
                    log.exception("looking for due deadlines failed; trying again in %s s", every)

    async def poll(self) -> None:
        at = now()
        async with self.db.session() as session:
            games = await session.scalars(
                select(Game.id)
                .where(Game.status == "active", Game.due_at <= at)
                .order_by(Game.due_at)
                .limit(BATCH)
            )
            game_ids = games.all()
            lobbies = await session.scalars(
                select(Lobby.id).where(Lobby.status == "open", Lobby.closes_at <= at).limit(BATCH)
            )
            lobby_ids = lobbies.all()
        for game_id in game_ids:
            self._wake(game_id)
        for lobby_id in lobby_ids:
            await self._close_lobby(lobby_id)

    async def _run(self, game_id: str) -> None:
        logs.bind(game_id=game_id)
        try:
            while True:
                self._again.discard(game_id)
                await self._claim_and_act(game_id)
                if game_id not in self._again:
                    return
        except Exception as exc:
            if unavailable(exc):
                note_unavailable(exc, f"acting on the deadline of game {game_id}")
            else:
                log.exception(
                    "deadline of game %s failed; retried when its lease runs out", game_id
                )
        finally:
            self._running.pop(game_id, None)

    async def _claim_and_act(self, game_id: str) -> None:
        table = self.table
        at = now()
        lease = at + LEASE
        async with self.db.writing() as session:
            claimed = await session.scalar(
                update(Game)
                .where(Game.id == game_id, Game.status == "active", Game.due_at <= at)
                .values(due_at=lease)
                .returning(Game.version)
            )
        if claimed is None:
            return  # not due (any more), or another instance holds it
        async with self.db.session() as session:
            snap = await table.snapshot(session, game_id)
        if snap.version != claimed:
            return  # a move came in meanwhile and set the next deadline itself
        due = snap.due(now(), table.timing)
        metrics.deadline_acted(due)
        if due is None:
            await self._release(snap, lease)
        elif due.action == "abort":
            if await abort_game(self.db, game_id, snap.version):
                log.info("game %s aborted: every person at the table has been away", game_id)
                await table.game_changed(game_id, snap.version)
        else:
            assert due.seat is not None
            try:
                with metrics.bot_move(snap.kind):
                    with metrics.bot_thinking(snap.kind):
                        move = await self.bots.move(snap, due.seat)
                    await table.move(
                        game_id, due.seat, move, snap.version, due.played_by, known=snap
                    )
            except StaleVersion:
                pass  # someone moved first; that move set the next deadline
            except GameAborted:
                # An admin aborted the game while its bot was thinking: nothing is left to do.
                log.info(
                    "game %s was aborted before its %s move for seat %s",
                    game_id,
                    due.played_by,
                    due.seat,
                )

    async def _release(self, snap: Snapshot, lease: datetime) -> None:
        """Nothing to do after all (a seat came back, say): put back the real deadline, unless
        the game changed since the claim (then that change set it)."""
        due_at = snap.next_due(now(), self.table.timing)
        async with self.db.writing() as session:
            result = await session.execute(
                update(Game)
                .where(Game.id == snap.id, Game.version == snap.version, Game.due_at == lease)
                .values(due_at=due_at)
                .execution_options(synchronize_session=False)
            )
        if rowcount(result) == 1:
            self.schedule(snap.id, due_at)

    async def _close_lobby(self, lobby_id: str) -> None:
        """An open lobby nobody touched for ``LOBBY_IDLE`` closes; the UPDATE is the claim."""
        async with self.db.writing() as session:
            result = await session.execute(
                update(Lobby)
                .where(Lobby.id == lobby_id, Lobby.status == "open", Lobby.closes_at <= now())
                .values(status="closed", closes_at=None)
                .execution_options(synchronize_session=False)
            )
        if rowcount(result) == 1:
            metrics.DEADLINES.labels("lobby_closed").inc()
            await self.table.lobby_changed(lobby_id)
            await self.table.rematch_closed(lobby_id)
