"""The database's sessions: what each kind holds open on PostgreSQL while it is in use."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import event, text

from app.db import Database
from app.services.errors import Problem
from tests.app.conftest import query

pytestmark = pytest.mark.postgres


def backend_states(url: str, kind: str) -> tuple[str, str]:
    """The state of the session's backend after its first statement and after its second,
    as PostgreSQL reports it while the session is still open."""

    async def run():
        db = Database(url)
        try:
            async with getattr(db, kind)() as session:
                backend = await session.scalar(text("SELECT pg_backend_pid()"))
                sql = "SELECT state FROM pg_stat_activity WHERE pid = :pid"
                first = (await query(url, sql, pid=backend))[0][0]
                await session.scalar(text("SELECT count(*) FROM games"))
                second = (await query(url, sql, pid=backend))[0][0]
                return first, second
        finally:
            await db.dispose()

    return asyncio.run(run())


def test_a_session_that_reads_holds_no_transaction_open(postgres_url):
    # Without a transaction there is no BEGIN before the first statement and no ROLLBACK
    # when the session ends: one round trip per statement.
    assert backend_states(postgres_url, "session") == ("idle", "idle")


def test_a_session_that_writes_is_one_transaction(postgres_url):
    assert backend_states(postgres_url, "writing") == ("idle in transaction",) * 2


def test_a_refusal_on_the_driver_connection_keeps_it_and_other_failures_drop_it(postgres_url):
    """A request refused while it holds asyncpg's own connection (a full lobby, say) rolls
    back and hands the connection back to the pool; anything else drops it."""

    async def run():
        db = Database(postgres_url, {"pool_size": 1, "max_overflow": 0})
        dropped = []
        event.listen(db.engine.sync_engine, "invalidate", lambda *_: dropped.append(1))
        try:
            with pytest.raises(Problem):
                async with db.driver((Problem,)) as conn, conn.transaction():
                    backend = await conn.fetchval("SELECT pg_backend_pid()")
                    raise Problem(409, "The lobby is full.")
            async with db.driver() as conn:
                again = await conn.fetchval("SELECT pg_backend_pid()")
                in_transaction = conn.is_in_transaction()
            kept = list(dropped)
            with pytest.raises(RuntimeError):
                async with db.driver((Problem,)) as conn:
                    raise RuntimeError("not a refusal")
            return backend, again, in_transaction, kept, dropped
        finally:
            await db.dispose()

    backend, again, in_transaction, kept, dropped = asyncio.run(run())
    assert again == backend and not in_transaction and kept == []
    assert dropped == [1]
