"""The database's sessions: what each kind holds open on PostgreSQL while it is in use."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import text

from app.db import Database
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
