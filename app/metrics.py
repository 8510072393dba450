"""What an operator watches: every metric of the server, defined here and, for the sockets'
messages, in ``app.socket_metrics``.

The code counts at its hook points with one call each (``metrics.MOVES_REFUSED.labels(...)
.inc()``, ``with metrics.outcome(metrics.BOT_MOVES, kind):``); HTTP requests and socket
messages are counted as they pass the outermost middleware (``app.logs.RequestContext``).
Figures that live in the database (games being played) are sampled in the background
(``app.figures``), so that ``GET /metrics`` (``app.api.routes.scrape``) never waits on the
database. With several worker processes (``campground serve --workers N``) each process
writes its figures to ``PROMETHEUS_MULTIPROC_DIR`` and a scrape adds them up; that variable
must be set before these modules are first imported.

Labels take few values: a route's template, never its path; a status class (``2xx``); a
message's type from a fixed list, anything else ``other``.
"""

from __future__ import annotations

import os
import time
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from prometheus_client import (
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    multiprocess,
)
from sqlalchemy import event
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.pool import AsyncAdaptedQueuePool

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
    "campground_moves_committed_total",
    "Moves committed, by game and who played them "
    "(person, bot, or clock: a bot standing in for a person whose time ran out)",
    ["game", "played_by"],
)
MOVES_REFUSED = Counter(
    "campground_moves_refused_total",
    "Moves refused, by game and reason (illegal: the engine "
    "said no or the game was aborted; stale: another move came first; missing: no such game)",
    ["game", "reason"],
)
MOVE_LATENCY = Histogram(
    "campground_move_latency_seconds",
    "From a person's move reaching the server (its request "
    "or socket message) to its commit (stage=commit), and to its new state written to a "
    "socket at the table on this instance (stage=fanout, once per socket); a bot's move from "
    "when it is due",
    ["stage"],
    buckets=LATENCY,
)
SOCKETS = Gauge(
    "campground_sockets",
    "Open sockets, by kind: a seated player's on a game (player), a "
    "spectator's on a game (spectator), one on a lobby (lobby), a home page's (home)",
    ["kind"],
    multiprocess_mode="livesum",
)
BOT_THINK = Histogram(
    "campground_bot_think_seconds",
    "Time a bot took to choose its move, by game",
    ["game"],
    buckets=LATENCY,
)
BOT_MOVES = Counter(
    "campground_bot_moves_total",
    "Bot moves due, by game and outcome: committed; fallback (no "
    "bot worker answered, a random legal move committed); stale (another move came first, "
    "nothing committed); refused (the engine refused the bot's move); failed (an error, tried "
    "again when its lease runs out)",
    ["game", "outcome"],
)
DB_CONNECTIONS = Gauge(
    "campground_db_connections_in_use",
    "Pooled database connections checked out now",
    multiprocess_mode="livesum",
)
DB_WAITS = Histogram(
    "campground_db_pool_wait_seconds",
    "Time waited for a pooled connection, by those that "
    "found every connection in use (its count is the number of waits)",
    buckets=LATENCY,
)
DB_TIMEOUTS = Counter(
    "campground_db_pool_timeouts_total",
    "Waits for a connection that ran past DB_POOL_TIMEOUT (answered 503)",
)
# Seconds: a pause a person feels is tens of milliseconds.
PAUSES = (0.001, 0.0025, 0.005, 0.01, 0.02, 0.03, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 1, 2.5)
EVENT_LOOP_LAG = Histogram(
    "campground_event_loop_lag_seconds",
    "How late the event loop ran a timer set every 0.05 s: "
    "how long every socket and request waited, beyond its own work, for whatever held the loop",
    buckets=PAUSES,
)
EVENT_LOOP_LAG_MAX = Gauge(
    "campground_event_loop_lag_max_seconds",
    "The longest event-loop lag of the last 10 s; with several workers, the longest of theirs",
    multiprocess_mode="livemax",
)
GC_PAUSES = Histogram(
    "campground_gc_pause_seconds",
    "Collections of the cyclic garbage collector, by the oldest "
    "generation taken in (0 young, 1 middle, 2 all but what is frozen): each stops the process",
    ["generation"],
    buckets=PAUSES,
)
GC_PAUSE_MAX = Gauge(
    "campground_gc_pause_max_seconds",
    "The longest collection of the last 10 s; with several workers, the longest of theirs",
    multiprocess_mode="livemax",
)
GC_FROZEN = Gauge(
    "campground_gc_frozen_objects",
    "Objects frozen out of the collector's walks (they outlived "
    "a collection of the middle generation), counted once a minute; steady under a steady "
    "load, growing on a leak",
    multiprocess_mode="livesum",
)
REDIS_UP = Gauge(
    "campground_redis_up",
    "1 while Redis carries every change between instances (REDIS_URL "
    "set and answering), else 0; with several workers, the lowest",
    multiprocess_mode="livemin",
)
LIMITS_SHARED = Gauge(
    "campground_limits_shared",
    "1 while rate limits and open-socket caps are counted in Redis "
    "for every instance together, 0 while this instance counts alone (no REDIS_URL, or Redis "
    "not answering); with several workers, the lowest",
    multiprocess_mode="livemin",
)
REDIS_PUBLISH_FAILURES = Counter(
    "campground_redis_publish_failures_total",
    "Publishes to Redis that failed (retried in the background for change notices)",
)
LIMITED = Counter(
    "campground_limit_refusals_total",
    "Requests, messages and sockets refused by a rate limit or cap, by limit",
    ["limit"],
)
DEADLINES = Counter(
    "campground_deadlines_total",
    "Deadlines acted on: a bot's move (bot), a person's time run "
    "out (clock), an abandoned game aborted (abort), a deadline that needed nothing after all "
    "(released), an idle lobby closed (lobby_closed)",
    ["action"],
)
QUEUE_TABLES = Counter(
    "campground_queue_tables_total",
    'Tables formed from the "Play now" queue, by game and '
    "whether bots fill seats at them (bots: yes or no)",
    ["game", "bots"],
)
HTTP_REQUESTS = Histogram(
    "campground_http_request_duration_seconds",
    "HTTP requests, from arrival to the end of "
    "the answer, by route template (none: no route was reached), method and status class "
    "(2xx, 3xx, 4xx, 5xx); its count is the number of requests",
    ["route", "method", "status"],
    buckets=LATENCY,
)
NOTICES_SENT = Counter(
    "campground_notices_sent_total",
    "Notices sent off the site, by channel (push, mail)",
    ["channel"],
)
NOTICE_FAILURES = Counter(
    "campground_notice_failures_total",
    "Tries to send a notice that failed and will be tried "
    "again (the push service or the mail server did not take it), by channel",
    ["channel"],
)
NOTICES_GIVEN_UP = Counter(
    "campground_notices_given_up_total",
    "Notices dropped unsent after a day of retries",
)
NOTICES_UNSENT = Counter(
    "campground_notices_unsent_total",
    "Notices not sent because the person was looking at the table",
)
NOTICE_DELAY = Histogram(
    "campground_notice_delay_seconds",
    "From the change that caused a notice to its sending",
    buckets=(0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 3600),
)
HTTP_EXCEPTIONS = Counter(
    "campground_http_exceptions_total",
    "HTTP requests that raised an exception nothing "
    "handled (answered 500), by route template and exception type",
    ["route", "exception"],
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
    reason = (
        "stale"
        if isinstance(exc, StaleVersion)
        else "illegal"
        if isinstance(exc, IllegalMove)
        else "missing"
    )
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


# The outcome of the innermost ``outcome`` block, as it stands.
_OUTCOME: ContextVar[list[str] | None] = ContextVar("outcome", default=None)


@contextmanager
def outcome(
    counter: Counter,
    *labels: str,
    done: str = "committed",
    errors: Mapping[type[Exception], str] = {},
) -> Iterator[None]:
    """Count one thing that ends one way or another, by ``labels`` and its outcome: ``done``
    when the block ends, the name ``errors`` gives the exception it raises, else ``failed``
    (the exception goes on). Code inside may name another outcome (``note_outcome``)."""
    noted = [done]
    token = _OUTCOME.set(noted)
    try:
        yield
    except Exception as exc:
        name = next((n for kind, n in errors.items() if isinstance(exc, kind)), "failed")
        counter.labels(*labels, name).inc()
        raise
    else:
        counter.labels(*labels, noted[0]).inc()
    finally:
        _OUTCOME.reset(token)


def note_outcome(name: str) -> None:
    """How the thing counted by the enclosing ``outcome`` block ends, unless it raises."""
    noted = _OUTCOME.get()
    if noted is not None:
        noted[0] = name


BOT_OUTCOMES: Mapping[type[Exception], str] = {StaleVersion: "stale", IllegalMove: "refused"}


@contextmanager
def bot_move(game: str) -> Iterator[None]:
    """A bot's move that is due, from its thinking to its commit."""
    with outcome(BOT_MOVES, game, errors=BOT_OUTCOMES):
        yield


@contextmanager
def bot_thinking(game: str) -> Iterator[None]:
    with BOT_THINK.labels(game).time():
        yield


METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


def route_of(scope: Mapping[str, Any]) -> str:
    """The template of the route that served ``scope`` (``/api/games/{game_id}``): FastAPI's
    routes put themselves in the scope; a mount (``/static``) sets its root path."""
    route = scope.get("route")
    if route is not None:
        return route.path
    if "endpoint" in scope:
        return scope.get("root_path", "") + "/{path}"
    return "none"


# The children of the per-request metrics, by label values: ``labels()`` takes a lock and
# checks its arguments each time; a dictionary look-up does not.
_HTTP: dict[tuple[str, str, str], Any] = {}


def request_done(
    scope: Mapping[str, Any], status: int | None, seconds: float, exc: BaseException | None
) -> None:
    """One HTTP request answered (``status``; None if nothing was sent), or one that raised."""
    route = route_of(scope)
    method = scope["method"] if scope["method"] in METHODS else "other"
    if exc is not None:
        HTTP_EXCEPTIONS.labels(route, type(exc).__name__).inc()
        status = status or 500
    key = (route, method, f"{status // 100}xx" if status else "none")
    timed = _HTTP.get(key)
    if timed is None:
        timed = _HTTP[key] = HTTP_REQUESTS.labels(*key)
    timed.observe(seconds)


def table_formed(game: str, bots: int) -> None:
    QUEUE_TABLES.labels(game, "yes" if bots else "no").inc()


class MeasuredPool(AsyncAdaptedQueuePool):
    """The usual pool, timing each checkout that finds every connection in use."""

    def __init__(self, creator: Any, pool_size: int = 5, max_overflow: int = 10, **kw: Any):
        super().__init__(creator, pool_size=pool_size, max_overflow=max_overflow, **kw)
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


def process_ended() -> None:
    """A worker stops: its live gauges (sockets, connections, Redis) no longer count."""
    if os.environ.get(MULTIPROCESS):
        multiprocess.mark_process_dead(os.getpid())
