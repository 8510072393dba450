"""The database engine and sessions."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, nullcontext
from typing import Any

import asyncpg
import orjson
from sqlalchemy import JSON, ColumnDefault, CursorResult, Result, Table, event
from sqlalchemy.exc import DBAPIError, DisconnectionError, EmulatedDBAPIException
from sqlalchemy.dialects.postgresql import asyncpg as postgresql_asyncpg
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.orm import DeclarativeBase
from sqlalchemy.ext.asyncio import (
    AsyncConnection,
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.util import greenlet_spawn


def storable(text: str) -> bool:
    """Whether ``text`` can be stored or looked up: it must encode as UTF-8 (JSON's \\ud800
    escapes give lone surrogates, which do not), and PostgreSQL's text cannot hold NUL. No
    stored id or code fails this, and querying with such text fails."""
    return "\x00" not in text and not any("\ud800" <= c <= "\udfff" for c in text)


# Seconds a client is told to wait while the database is away: a restart takes a few.
RETRY_AFTER = 2
UNAVAILABLE = "The database is unavailable for a moment; try again shortly."
# PostgreSQL's answers that say it cannot serve now rather than that the request was wrong:
# connection failures (08), too many connections (53), an administrator's shutdown, a
# restart or a terminated backend (57), and "not currently accepting connections" (55000).
_AWAY = (
    asyncpg.PostgresConnectionError,
    asyncpg.InsufficientResourcesError,
    asyncpg.OperatorInterventionError,
    ConnectionError,
    TimeoutError,
    socket.gaierror,
    DisconnectionError,
    # A connection whose earlier operation was cut off by its backend's end, handed out again
    # before asyncpg noticed: "another operation is in progress".
    asyncpg.exceptions._base.InternalClientError,
)


# What the database's failures arrive as: SQLAlchemy's wrapper, its driver adapter's own (a
# connection refused while opening), asyncpg's on its own connections, the network's. The
# app answers these 503 when ``unavailable`` says so.
FAILURES: tuple[type[Exception], ...] = (
    DBAPIError,
    EmulatedDBAPIException,
    DisconnectionError,
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
    asyncpg.exceptions._base.InternalClientError,
    OSError,
)


def unavailable(exc: BaseException) -> bool:
    """Whether ``exc`` says the database is away (down, restarting, its connection cut),
    rather than anything about the request: answered 503 with Retry-After, not 500."""
    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        # A bare OSError: asyncpg could reach none of the server's addresses.
        if isinstance(cause, _AWAY) or type(cause) is OSError:
            return True
        if isinstance(cause, asyncpg.InterfaceError):
            return "closed" in str(cause)
        if isinstance(cause, asyncpg.ObjectNotInPrerequisiteStateError):
            return "accepting connections" in str(cause)
        if isinstance(cause, DBAPIError) and cause.connection_invalidated:
            return True
        orig = getattr(cause, "orig", None)
        if isinstance(orig, BaseException):
            cause = orig
        elif cause.__cause__ is not None or cause.__suppress_context__:
            cause = cause.__cause__
        else:
            cause = cause.__context__
    return False


log = logging.getLogger(__name__)
_last_noted = 0.0


def note_unavailable(exc: BaseException, doing: str) -> None:
    """One line, no traceback, at most once a second: an outage is not a bug per request."""
    global _last_noted
    now = time.monotonic()
    if now - _last_noted >= 1:
        _last_noted = now
        log.warning("database unavailable while %s: %s: %s", doing, type(exc).__name__, exc)


class RawJSON(str):
    """JSON text already encoded (a game state, by pydantic): stored as it is."""


def to_json(value: Any) -> str:
    if isinstance(value, RawJSON):
        return value
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:
        # What orjson refuses (an integer beyond 64 bits, a lone surrogate): escaped ASCII.
        return json.dumps(value)


_ASYNCPG = postgresql_asyncpg.dialect()


def for_asyncpg(statement: Any) -> SQLCompiler:
    """``statement`` compiled once for asyncpg to run itself (``Database.driver``): its SQL
    text (``.string``, ``$n`` placeholders) and the order of its parameters (``.positiontup``)."""
    return statement.compile(dialect=_ASYNCPG)


class Prepared:
    """A statement compiled once for asyncpg (``Database.driver``), whose parameters are
    given by name: ``args`` puts them in the order of its ``$n``, JSON values as text (the
    connection's JSON codec takes text)."""

    def __init__(self, statement: Any):
        compiled = for_asyncpg(statement)
        self.sql: str = compiled.string
        self._order: tuple[str, ...] = tuple(compiled.positiontup or ())
        self._json = {name for name, bind in compiled.binds.items() if isinstance(bind.type, JSON)}
        self._fixed = {
            name: bind.value for name, bind in compiled.binds.items() if bind.value is not None
        }

    def args(self, params: dict[str, Any]) -> list[Any]:
        args = []
        for name in self._order:
            value = params[name] if name in params else self._fixed[name]
            if name in self._json and value is not None:
                value = to_json(value)
            args.append(value)
        return args


def table_of(model: type[DeclarativeBase]) -> Table:
    """The table of a mapped class (its ``__table__``, which SQLAlchemy types as any FROM)."""
    table = model.__table__
    assert isinstance(table, Table)
    return table


def rowcount(result: Result[Any]) -> int:
    """How many rows an UPDATE or DELETE without RETURNING matched: the session gives a
    ``CursorResult`` for those, though it is typed to give any ``Result``."""
    assert isinstance(result, CursorResult)
    return result.rowcount


def row_values(table: Table, row: Any) -> dict[str, Any]:
    """The column values of ``row`` (a mapped object about to be inserted), with the
    columns' own defaults where it has none, which are also set on ``row``: what the ORM
    would insert."""
    values = {}
    for column in table.columns:
        value = getattr(row, column.key, None)
        default = column.default
        if value is None and isinstance(default, ColumnDefault):
            value = default.arg(None) if default.is_callable else default.arg
            setattr(row, column.key, value)
        values[column.key] = value
    return values


async def driver_connection(session: AsyncSession) -> asyncpg.Connection:
    """asyncpg's own connection under ``session``'s (PostgreSQL), to run statements on."""
    raw = await (await session.connection()).get_raw_connection()
    assert raw.driver_connection is not None  # an open connection has its driver's
    return raw.driver_connection


def make_engine(url: str, pool: dict[str, Any] | None = None) -> AsyncEngine:
    """``pool``: ``pool_size``, ``max_overflow``, ``pool_timeout``, ``pool_pre_ping``
    (SQLAlchemy's defaults if unset)."""
    pool = pool or {}
    if url.startswith("sqlite"):
        if ":memory:" in url or url.rstrip("/").endswith(":"):
            pool = {}
        engine = create_async_engine(
            url, connect_args={"timeout": 30}, json_serializer=to_json, **pool
        )

        @event.listens_for(engine.sync_engine, "connect")
        def _sqlite_pragmas(dbapi_conn, _record):
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA foreign_keys=ON")
            # WAL lets readers (views, WebSocket fan-out) go on while a move commits.
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.close()

        return engine
    engine = create_async_engine(url, json_serializer=to_json, **pool)

    @event.listens_for(engine.sync_engine, "handle_error")
    def _away(context: Any) -> None:
        # SQLAlchemy drops a connection (and retires the pool's older ones) on what asyncpg
        # reports as closed; a backend terminated mid-statement can leave it neither closed
        # nor usable, and it would be handed out again.
        if unavailable(context.original_exception):
            context.is_disconnect = True

    return engine


class Database:
    """One engine per app. SQLite has a single writer, so writes queue up in-process there
    instead of failing with "database is locked"; PostgreSQL writers run concurrently and
    the version check decides."""

    def __init__(self, url: str, pool: dict[str, Any] | None = None):
        self.url = url
        self.engine = make_engine(url, pool)
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        self._write_lock = asyncio.Lock() if url.startswith("sqlite") else None
        self.postgres = url.startswith("postgresql")
        self._autocommit = self.engine.execution_options(isolation_level="AUTOCOMMIT")
        # PostgreSQL reads run each statement on its own: a session that only reads sends no
        # BEGIN before its statements and no ROLLBACK after them. Under READ COMMITTED each
        # statement saw its own snapshot already, so no read sees anything different.
        self._reads = (
            async_sessionmaker(self._autocommit, expire_on_commit=False)
            if self.postgres
            else self.sessions
        )

    @asynccontextmanager
    async def session(self) -> AsyncIterator[AsyncSession]:
        """A session for reading only (writes go through ``writing``)."""
        async with self._reads() as session:
            yield session

    @asynccontextmanager
    async def writing(self) -> AsyncIterator[AsyncSession]:
        """A session for one write transaction, committed on success."""
        async with self._write_lock or nullcontext():
            async with self.sessions() as session:
                async with session.begin():
                    yield session

    @asynccontextmanager
    async def autocommit(self) -> AsyncIterator[AsyncConnection]:
        """A connection where each statement is its own transaction (no BEGIN, no COMMIT)."""
        async with self._autocommit.connect() as conn:
            yield conn

    @asynccontextmanager
    async def driver(
        self, refusals: tuple[type[Exception], ...] = ()
    ) -> AsyncIterator[asyncpg.Connection]:
        """PostgreSQL: asyncpg's own connection from the pool, each statement its own
        transaction. SQLAlchemy's connection around it (execution options, events, isolation
        set and reset) cost a move more than its statement did. A connection that fails other
        than by PostgreSQL's answer or one of the caller's ``refusals`` (a request that cannot
        be served, raised while the connection is held) is dropped from the pool, as
        SQLAlchemy would. One whose database went away (a restart, its backend terminated)
        retires every connection opened before it, as SQLAlchemy does on a disconnect: they
        are most likely dead too."""
        record = await greenlet_spawn(self.engine.sync_engine.raw_connection)
        try:
            yield record.driver_connection
        except Exception as exc:
            away = unavailable(exc)
            if isinstance(exc, (asyncpg.PostgresError, *refusals)) and not away:
                raise
            if away:
                await greenlet_spawn(self.engine.sync_engine.pool._invalidate, record, exc)
            else:
                await greenlet_spawn(record.invalidate, exc)
            raise
        finally:
            await greenlet_spawn(record.close)

    async def dispose(self) -> None:
        await self.engine.dispose()
