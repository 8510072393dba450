"""What an operator watches: every metric of the server, defined here and nowhere else, and
``GET /metrics`` in Prometheus' text format.

The code counts at its hook points with one call each (``metrics.MOVES_REFUSED.labels(...)
.inc()``, ``with metrics.bot_turn(kind):``). Figures that live in the database (games being
played) are read when scraped. With several worker processes (``campground serve
--workers N``) each process writes its figures to ``PROMETHEUS_MULTIPROC_DIR`` and a scrape
adds them up; that variable must be set before this module is first imported.
"""

from __future__ import annotations

import hmac
import ipaddress
import os
import time
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    generate_latest,
    multiprocess,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector
from sqlalchemy import event, func, select
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.pool import AsyncAdaptedQueuePool

from app.models import Game
from app.services.errors import StaleVersion
from engine.core import IllegalMove

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncEngine

MULTIPROCESS = "PROMETHEUS_MULTIPROC_DIR"
# A `_created` sample beside every counter says when the process started, which
# `process_start_time_seconds` says once.
disable_created_metrics()
# Seconds: a move's round trip is milliseconds, a bad one a second or more.
LATENCY = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10)

MOVES_COMMITTED = Counter(
    "campground_moves_committed_total", "Moves committed, by game and who played them "
    "(person, bot, or clock: a bot standing in for a person whose time ran out)",
    ["game", "played_by"],
)
MOVES_REFUSED = Counter(
    "campground_moves_refused_total", "Moves refused, by game and reason (illegal: the engine "
    "said no or the game was aborted; stale: another move came first; missing: no such game)",
    ["game", "reason"],
)
MOVE_LATENCY = Histogram(
    "campground_move_latency_seconds", "From a person's move reaching the server (its request "
    "or socket message) to its commit (stage=commit), and to its new state written to a "
    "socket at the table on this instance (stage=fanout, once per socket); a bot's move from "
    "when it is due", ["stage"], buckets=LATENCY,
)
SOCKETS = Gauge(
    "campground_sockets", "Open sockets, by kind: a seated player's on a game (player), a "
    "spectator's on a game (spectator), one on a lobby (lobby)",
    ["kind"], multiprocess_mode="livesum",
)
BOT_THINK = Histogram(
    "campground_bot_think_seconds", "Time a bot took to choose its move, by game", ["game"],
    buckets=LATENCY,
)
BOT_TURNS = Counter("campground_bot_turns_total", "Moves bots chose, by game", ["game"])
DB_CONNECTIONS = Gauge(
    "campground_db_connections_in_use", "Pooled database connections checked out now",
    multiprocess_mode="livesum",
)
DB_WAITS = Histogram(
    "campground_db_pool_wait_seconds", "Time waited for a pooled connection, by those that "
    "found every connection in use (its count is the number of waits)", buckets=LATENCY,
)
DB_TIMEOUTS = Counter(
    "campground_db_pool_timeouts_total", "Waits for a connection that ran past DB_POOL_TIMEOUT "
    "(answered 503)",
)
REDIS_UP = Gauge(
    "campground_redis_up", "1 while Redis carries every change between instances (REDIS_URL "
    "set and answering), else 0; with several workers, the lowest", multiprocess_mode="livemin",
)
REDIS_PUBLISH_FAILURES = Counter(
    "campground_redis_publish_failures_total", "Publishes to Redis that failed (retried in the "
    "background for change notices)",
)
LIMITED = Counter(
    "campground_limit_refusals_total", "Requests, messages and sockets refused by a rate limit "
    "or cap, by limit", ["limit"],
)
DEADLINES = Counter(
    "campground_deadlines_total", "Deadlines acted on: a bot's move (bot), a person's time run "
    "out (clock), an abandoned game aborted (abort), a deadline that needed nothing after all "
    "(released), an idle lobby closed (lobby_closed)", ["action"],
)

# When the move being handled reached the server (``time.perf_counter()``): set by the request
# middleware and the socket reader.
RECEIVED: ContextVar[float | None] = ContextVar("received", default=None)
# Moves committed here whose fan-out is still being timed: game id -> (version, receipt).
_FANOUT: OrderedDict[str, tuple[int, float]] = OrderedDict()
FANOUT_KEPT = 10_000


def received_now() -> None:
    RECEIVED.set(time.perf_counter())


def move_committed(game: str, played_by: str, game_id: str, version: int, received: float) -> None:
    MOVES_COMMITTED.labels(game, played_by).inc()
    MOVE_LATENCY.labels("commit").observe(time.perf_counter() - received)
    _FANOUT[game_id] = (version, received)
    _FANOUT.move_to_end(game_id)
    if len(_FANOUT) > FANOUT_KEPT:
        _FANOUT.popitem(last=False)


def move_refused(game: str, exc: Exception) -> None:
    reason = "stale" if isinstance(exc, StaleVersion) else "illegal" if isinstance(
        exc, IllegalMove) else "missing"
    MOVES_REFUSED.labels(game, reason).inc()


def sent(game_id: str, version: int) -> None:
    """A socket on ``game_id`` was just written its state at ``version``."""
    timed = _FANOUT.get(game_id)
    if timed is not None and timed[0] == version:
        MOVE_LATENCY.labels("fanout").observe(time.perf_counter() - timed[1])


def deadline_acted(due: Any) -> None:
    """``due``: what a claimed deadline found to do (``app.services.clock.Due``), or None."""
    if due is None:
        action = "released"
    else:
        action = "abort" if due.action == "abort" else due.played_by
    DEADLINES.labels(action).inc()


@contextmanager
def bot_turn(game: str) -> Iterator[None]:
    BOT_TURNS.labels(game).inc()
    with BOT_THINK.labels(game).time():
        yield


class MeasuredPool(AsyncAdaptedQueuePool):
    """The usual pool, timing each checkout that finds every connection in use."""

    def __init__(self, *args: Any, pool_size: int = 5, max_overflow: int = 10, **kw: Any):
        super().__init__(*args, pool_size=pool_size, max_overflow=max_overflow, **kw)
        self._most = pool_size + max_overflow if max_overflow >= 0 else None

    def _do_get(self) -> Any:
        if self._most is None or self.checkedout() < self._most:
            return super()._do_get()
        started = time.perf_counter()
        try:
            return super()._do_get()
        except PoolTimeout:
            DB_TIMEOUTS.inc()
            raise
        finally:
            DB_WAITS.observe(time.perf_counter() - started)


def watch_pool(engine: AsyncEngine) -> None:
    """Count the engine's connections in use, on the gauge named when the engine is watched."""
    pool, in_use = engine.sync_engine.pool, DB_CONNECTIONS
    event.listen(pool, "checkout", lambda *_: in_use.inc())
    event.listen(pool, "checkin", lambda *_: in_use.dec())


def parse_allowed(setting: str) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    return [ipaddress.ip_network(entry.strip(), strict=False)
            for entry in setting.split(",") if entry.strip()]


def _allowed(request: Request) -> bool:
    ctx = request.app.state.ctx
    admin = ctx.settings.ADMIN_TOKEN
    authorization = request.headers.get("authorization", "")
    if admin and authorization[:7].lower() == "bearer ":
        if hmac.compare_digest(authorization[7:].strip().encode(), admin.encode()):
            return True
    try:
        address = ipaddress.ip_address(request.client.host if request.client else "")
    except ValueError:
        return False
    return any(address in network for network in parse_allowed(ctx.settings.METRICS_ALLOW))


async def _database_figures(ctx: Any) -> CollectorRegistry:
    """What every instance shares, read from the database at each scrape."""
    async with ctx.db.session() as session:
        rows = (await session.execute(
            select(Game.kind, func.count()).where(Game.status == "active").group_by(Game.kind)
        )).all()
    active = GaugeMetricFamily(
        "campground_games_active", "Games being played, by game (every instance's)",
        labels=["game"],
    )
    for kind, count in sorted(rows):
        active.add_metric([kind], count)

    class Figures(Collector):
        def collect(self) -> Iterator[GaugeMetricFamily]:
            yield active

    registry = CollectorRegistry(auto_describe=False)
    registry.register(Figures())
    return registry


router = APIRouter(tags=["operations"])


@router.get(
    "/metrics",
    summary="Prometheus metrics",
    description="Every metric of this instance (of all its workers, with several) in "
    "Prometheus' text format: moves committed and refused, move latency, sockets, games "
    "being played, bots, database pool, Redis, limits, deadlines. Only for addresses in "
    "`METRICS_ALLOW` (loopback by default) or with the bearer `ADMIN_TOKEN`; 403 otherwise.",
    response_class=Response,
    responses={
        200: {"content": {CONTENT_TYPE_LATEST: {
            "schema": {"type": "string"},
            "example": 'campground_moves_committed_total{game="hike",played_by="person"} 12.0\n',
        }}, "description": "the metrics"},
        403: {"description": "not an allowed address, and no admin token"},
        503: {"description": "busy: no database connection came free within DB_POOL_TIMEOUT"},
    },
)
async def scrape(request: Request) -> Response:
    if not _allowed(request):
        detail = ("Metrics are for the operator: an allowed address (METRICS_ALLOW) or the "
                  "admin token.")
        return JSONResponse({"detail": detail}, status_code=403)
    ctx = request.app.state.ctx
    REDIS_UP.set(1 if ctx.settings.REDIS_URL and ctx.bus.healthy else 0)
    if os.environ.get(MULTIPROCESS):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
    else:
        registry = REGISTRY
    body = generate_latest(registry) + generate_latest(await _database_figures(ctx))
    return Response(body, media_type=CONTENT_TYPE_LATEST)


def process_ended() -> None:
    """A worker stops: its live gauges (sockets, connections, Redis) no longer count."""
    if os.environ.get(MULTIPROCESS):
        multiprocess.mark_process_dead(os.getpid())
