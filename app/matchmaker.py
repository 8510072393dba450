"""Forming tables from the "Play now" queue, in the background of every instance.

Every ``QUEUE_EVERY`` seconds, and at once after a person joins on this instance, a pass forms
whatever tables the queue allows (``app.services.queue_tables``: one instance at a time per
game, each table written in the transaction that seats its entries). Each table formed starts
at once: its first deadline is set like any game's, and every page of its people, on any
instance, is told to open it (``Table.seated``). Passes on one instance never overlap; a pass
that fails (the database away) is simply the next one's to do.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from datetime import datetime
from typing import Protocol

from app import metrics
from app.db import Database, note_unavailable, unavailable
from app.services import queue, queue_tables
from app.services.clock import Timing
from app.services.queue_tables import Formed

log = logging.getLogger(__name__)

# Entries nobody keeps are deleted every so many passes.
SWEEP_EVERY = 30


class Table(Protocol):
    """What a pass needs of the app: the clock's settings, and the ways a new game and its
    seated people are told to every instance."""

    timing: Timing

    async def game_changed(
        self, game_id: str, version: int, due_at: datetime | None = None
    ) -> None: ...

    async def seated(self, formed: list[Formed]) -> None: ...


class Matchmaker:
    def __init__(self, db: Database, table: Table, every: float):
        self.db = db
        self.table = table
        self.every = every
        self._kick = asyncio.Event()
        self._task: asyncio.Task | None = None
        self._passes = 0

    async def start(self) -> None:
        if self.every:
            # A context of its own: not that of the request that happens to kick it.
            self._task = asyncio.create_task(
                self._run(), name="matchmaker", context=contextvars.Context()
            )

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    def kick(self) -> None:
        """Someone joined: form tables now rather than at the next tick."""
        self._kick.set()

    async def _run(self) -> None:
        while True:
            try:
                await asyncio.wait_for(self._kick.wait(), self.every)
            except TimeoutError:
                pass
            self._kick.clear()
            try:
                await self.form()
            except Exception as exc:
                if unavailable(exc):
                    note_unavailable(exc, "forming tables from the queue")
                else:
                    log.exception("forming tables from the queue failed; trying again")

    async def form(self) -> list[Formed]:
        """One pass: the tables formed, started and told of."""
        self._passes += 1
        if self._passes % SWEEP_EVERY == 0:
            await queue.sweep(self.db)
        formed = await queue_tables.form(self.db, self.table.timing)
        for table in formed:
            metrics.table_formed(table.kind, table.bots)
            await self.table.game_changed(table.game_id, 0, table.due_at)
        if formed:
            await self.table.seated(formed)
        return formed
