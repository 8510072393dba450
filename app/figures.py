"""Figures that live in the database, for ``GET /metrics``: sampled in the background every
``METRICS_SAMPLE_EVERY`` seconds, so that a scrape never waits on the database, and while the
database is away still answers, with the last sample and its age.

Each instance (each worker) samples for itself: one grouped count every few seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import math
import time
from collections.abc import Iterator

from prometheus_client import CollectorRegistry
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector
from sqlalchemy import func, select

from app.db import Database, note_unavailable, unavailable
from app.models import Game

log = logging.getLogger(__name__)

# Seconds one sample may take; a database slower than that counts as away.
SAMPLE_TIMEOUT = 5.0


class DatabaseFigures(Collector):
    def __init__(self, db: Database, every: float):
        self.db = db
        self.every = every
        self.registry = CollectorRegistry(auto_describe=False)
        self.registry.register(self)
        self._active: list[tuple[str, int]] = []
        self._sampled_at: float | None = None
        self._up = False
        self._task: asyncio.Task | None = None

    async def start(self) -> None:
        # A context of its own: not that of whatever started the app.
        self._task = asyncio.create_task(
            self._run(), name="database figures", context=contextvars.Context()
        )

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        while True:
            await self.sample()
            await asyncio.sleep(self.every)

    async def sample(self) -> None:
        try:
            active = await asyncio.wait_for(self._read(), SAMPLE_TIMEOUT)
        except Exception as exc:
            self._up = False
            if unavailable(exc) or isinstance(exc, TimeoutError):
                note_unavailable(exc, "sampling the figures for /metrics")
            else:
                log.exception("sampling the figures for /metrics failed")
            return
        self._active, self._sampled_at, self._up = active, time.monotonic(), True

    async def _read(self) -> list[tuple[str, int]]:
        async with self.db.session() as session:
            rows = await session.execute(
                select(Game.kind, func.count()).where(Game.status == "active").group_by(Game.kind)
            )
            return sorted((kind, count) for kind, count in rows.all())

    def collect(self) -> Iterator[GaugeMetricFamily]:
        active = GaugeMetricFamily(
            "campground_games_active",
            "Games being played, by game (every instance's), as of the last sample of the database",
            labels=["game"],
        )
        for kind, count in self._active:
            active.add_metric([kind], count)
        yield active
        age = math.inf if self._sampled_at is None else time.monotonic() - self._sampled_at
        yield GaugeMetricFamily(
            "campground_db_sample_age_seconds",
            "Seconds since the figures read from the "
            "database were last sampled (+Inf before the first sample)",
            value=age,
        )
        yield GaugeMetricFamily(
            "campground_db_up",
            "1 when the last sample of the database succeeded, else 0",
            value=1 if self._up else 0,
        )
