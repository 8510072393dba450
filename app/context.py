"""What one app instance holds: settings, database, bus, bots and live sockets."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy.ext.asyncio import AsyncSession
from starlette.requests import HTTPConnection

from app import metrics
from app.bots import BotWorkers
from app.bus import Bus, MemoryBus, RedisBus, game_channel, home_channel, lobby_channel
from app.config import Settings
from app.db import Database
from app.figures import DatabaseFigures
from app.deadlines import Deadlines
from app.guard import base_url
from app.home import SEEKS, HomeHub, HomeSources
from app.limits import Limits
from app.matchmaker import Matchmaker
from app.migrate import check_schema
from app.notices.presence import Presence
from app.notices.worker import Notices
from app.services.clock import PlayedBy, Timing
from app.services import lobbies, lobby_rows, players
from app.services.errors import Problem
from app.services.replays import Replays
from app.services.trusted_devices import TrustedDevices
from app.services.commit import Committed, commit_move
from app.services.game_loading import SeatsCache, load_snapshot
from app.services.games import Snapshot
from app.services.queue_tables import Formed
from app.sockets import encode
from app.hubs import RELOAD, Sources, event_notice
from app.watchers import Watchers
from app.sign_outs import SignOuts
from engine.core import IllegalMove

T = TypeVar("T")

# Seats of started games kept per process; they never change, so the cache is only bounded.
SEATS_CACHE_SIZE = 10_000


class Context:
    def __init__(self, settings: Settings):
        self.settings = settings
        self.instance_id = uuid.uuid4().hex
        pool = {
            "pool_size": settings.DB_POOL_SIZE,
            "max_overflow": settings.DB_POOL_OVERFLOW,
            "pool_timeout": settings.DB_POOL_TIMEOUT,
            "pool_pre_ping": settings.DB_PRE_PING,
            "poolclass": metrics.MeasuredPool,
        }
        self.db = Database(settings.DATABASE_URL, pool)
        metrics.watch_pool(self.db.engine)
        self.bus: Bus = (
            RedisBus(settings.REDIS_URL, settings.REDIS_PREFIX, timeout=settings.REDIS_TIMEOUT)
            if settings.REDIS_URL
            else MemoryBus()
        )
        self.timing = Timing(settings.BOT_DELAY, settings.ABANDON_AFTER)
        self.deadlines = Deadlines(
            self.db,
            self,
            settings.DEADLINE_POLL,
            BotWorkers(settings.BOT_WORKERS, settings.BOT_TIMEOUT, budget=settings.BOT_BUDGET),
        )
        self.watchers = Watchers(
            Sources(
                bus=self.bus,
                instance_id=self.instance_id,
                load_game=self._load_game,
                load_lobby=self._load_lobby,
                send_timeout=settings.WS_SEND_TIMEOUT,
                max_per_instance=settings.WS_MAX_PER_INSTANCE,
                max_per_game=settings.WS_MAX_PER_GAME,
            )
        )
        self.home = HomeHub(
            HomeSources(
                bus=self.bus,
                instance_id=self.instance_id,
                db=self.db,
                lease=settings.QUEUE_LEASE,
                per_host=settings.LISTED_LOBBIES_PER_HOST,
                hold=self.watchers.hold,
                release=self.watchers.release,
            )
        )
        self.matchmaker = Matchmaker(self.db, self, settings.QUEUE_EVERY)
        self.sign_outs = SignOuts(
            self.bus,
            self.instance_id,
            lambda: [*self.watchers.every_socket(), *self.home.connections],
            lambda digests: players.still_valid(self.db, digests),
        )
        self.limits = Limits(settings)
        self.trusted = TrustedDevices(self.db)
        # Replays and log pages are built here, one at a time, never on the event loop.
        self.pages = ThreadPoolExecutor(1, thread_name_prefix="pages")
        self.replays = Replays(self.pages)
        self.figures = DatabaseFigures(self.db, settings.METRICS_SAMPLE_EVERY)
        self._seats: SeatsCache = {}
        self.notices = Notices(
            self.db,
            settings,
            Presence(
                self.watchers.looking,
                settings.REDIS_URL,
                settings.REDIS_PREFIX,
                settings.REDIS_TIMEOUT,
            ),
        )

    async def start(self) -> None:
        await check_schema(self.db.engine)
        self.bus.start()
        self.sign_outs.start()
        await self.deadlines.start()
        await self.matchmaker.start()
        await self.figures.start()
        await self.notices.start()

    async def close(self) -> None:
        await self.notices.close()
        await self.figures.close()
        await self.matchmaker.close()
        await self.deadlines.close()
        await self.sign_outs.close()
        await self.home.close()
        await self.watchers.close()
        await self.bus.close()
        await self.limits.close()
        self.pages.shutdown(wait=False, cancel_futures=True)
        await self.db.dispose()

    async def _load_game(self, game_id: str) -> Snapshot:
        async with self.db.session() as session:
            return await self.snapshot(session, game_id)

    async def _load_lobby(self, lobby_id: str) -> lobby_rows.LobbySeats:
        async with self.db.session() as session:
            return await lobby_rows.load(session, lobby_id)

    async def snapshot(self, session: AsyncSession, game_id: str) -> Snapshot:
        if len(self._seats) > SEATS_CACHE_SIZE:
            self._seats.clear()
        return await load_snapshot(session, game_id, self._seats)

    async def move(
        self,
        game_id: str,
        seat: int,
        move: Any,
        expect_version: int,
        played_by: PlayedBy = "person",
        *,
        known: Snapshot | None = None,
    ) -> Committed:
        """Commit one move (a person's or a bot's), tell every instance, and be there when
        the game's next deadline comes (a bot to move, a clock to run out).

        This instance's sockets get the new state at once; other instances hear of it through
        the bus, which publishes in the background and never holds the move up."""
        if len(self._seats) > SEATS_CACHE_SIZE:
            self._seats.clear()
        # A person's move is timed from its request or message; a bot's from now, when due.
        received = (played_by == "person" and metrics.RECEIVED.get()) or time.perf_counter()
        known = known or self.watchers.snapshot(game_id)
        try:
            committed = await commit_move(
                self.db,
                game_id,
                seat,
                move,
                expect_version,
                timing=self.timing,
                played_by=played_by,
                seats_cache=self._seats,
                known=known,
            )
        except (IllegalMove, Problem) as exc:
            metrics.move_refused(known.kind if known else "unknown", exc)
            raise
        metrics.move_committed(committed.kind, played_by, game_id, committed.version, received)
        self.watchers.committed(game_id, committed)
        self.bus.publish_soon(game_channel(game_id), str(committed.version))
        self.deadlines.schedule(game_id, committed.due_at)
        if committed.told:
            self.notices.kick()
        return committed

    async def game_changed(
        self, game_id: str, version: int, due_at: datetime | None = None
    ) -> None:
        """A change other than a move (start, abort, a concession, a seat back): every
        instance's sockets reload; this instance will be there at the next deadline, ``due_at``."""
        self.watchers.game_changed(game_id)
        self.bus.publish_soon(game_channel(game_id), f"{version}{RELOAD}")
        self.deadlines.schedule(game_id, due_at)

    async def game_event(self, game_id: str, event: dict[str, Any]) -> None:
        """Pass ``event`` (a chat line, a rematch) to every socket on the game, everywhere.
        Unlike change notices, events cannot stand in for each other: each is published."""
        text = encode(event)
        self.watchers.game_event(game_id, text)
        await self.bus.publish(game_channel(game_id), event_notice(self.instance_id, text))

    async def lobby_event(self, lobby_id: str, event: dict[str, Any]) -> None:
        """Pass ``event`` (a chat line) to every socket on the lobby, everywhere."""
        text = encode(event)
        self.watchers.lobby_event(lobby_id, text)
        await self.bus.publish(lobby_channel(lobby_id), event_notice(self.instance_id, text))

    async def lobby_changed(self, lobby_id: str) -> None:
        self.watchers.lobby_changed(lobby_id)
        self.bus.publish_soon(lobby_channel(lobby_id), self.instance_id)
        self.seeks_changed()

    def seeks_changed(self) -> None:
        """A lobby changed that may be an open seek: every home page's list is read again."""
        self.home.seeks_changed()
        self.bus.publish_soon(home_channel(), SEEKS)

    def queue_changed(self) -> None:
        """Someone joined the queue here: form tables now, not at the next tick."""
        self.matchmaker.kick()

    async def seated(self, formed: list[Formed]) -> None:
        """Tables formed from the queue: their people's pages, on every instance, open them.
        One event for the whole pass: a slow Redis holds the next pass once, not per table."""
        for f in formed:
            self.home.seated(f.game_id, list(f.players))
        tables = [{"game_id": f.game_id, "players": list(f.players)} for f in formed]
        text = encode({"type": "seated", "tables": tables})
        await self.bus.publish(home_channel(), event_notice(self.instance_id, text))

    async def rematch_closed(self, lobby_id: str) -> None:
        """A lobby closed: when it is a rematch, the table of the game it follows no longer
        offers it as waiting."""
        old = await lobbies.rematch_of(self.db, lobby_id)
        if old is not None:
            await self.game_changed(*old)

    async def off_loop(self, build: Callable[..., T], *args: Any) -> T:
        """``build(*args)`` on the pages' thread: pages that cost more than a move's work
        (replays, log pages) wait there, and the event loop serves everyone else."""
        return await asyncio.get_running_loop().run_in_executor(self.pages, build, *args)

    def base_url(self, conn: HTTPConnection) -> str:
        """Where invite links point: PUBLIC_URL, else the server's own address (see guard)."""
        return base_url(self.settings, conn)
