"""A table open on one instance holds back the notices another instance sends.

Its own module: the database is shared by a module's tests, and another module's server
polling the same outbox (and knowing nothing of instance A) would send the notice itself."""

from __future__ import annotations

import pytest

from tests.app.notice_parts import PushService
from tests.app.notice_play import told_only_of_the_table_not_open


@pytest.fixture(scope="module")
def push():
    service = PushService()
    yield service
    service.close()


@pytest.mark.redis
def test_a_table_open_on_another_instance_is_not_told(
    database_url, redis_url, redis_prefix, serve, push, sql
):
    """Ben looks at the table on instance A; B alone sends notices, and must know."""
    shared = {"REDIS_URL": redis_url, "REDIS_PREFIX": redis_prefix, "PUSH_SERVICES": "127.0.0.1"}
    with (
        serve(database_url, **shared, NOTICE_POLL=0) as a,
        serve(database_url, **shared, NOTICE_POLL=0.05) as b,
    ):
        told_only_of_the_table_not_open(a, b, push, sql)
