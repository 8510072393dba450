"""A table open on one instance holds back the notices another instance sends.

Its own module: the database is shared by a module's tests, and another module's server
polling the same outbox (and knowing nothing of instance A) would send the notice itself."""

from __future__ import annotations

import pytest

from tests.app.notice_parts import PushService, wait_until
from tests.app.notice_play import acting, ben_seat, play_turn, subscribe, table, turn_based_table
from tests.app.sockets import Socket


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
        game_id, ana, ben = table(b)
        other = turn_based_table(b, ana, ben)
        phone = push.device()
        subscribe(ben, phone)
        socket = Socket(a, game_id, token=ben.token)
        try:
            play_turn(b, ana, game_id)
            wait_until(
                lambda: not sql("select id from notices where game_id = :g", g=game_id),
                "the open table's notice handled",
            )
            if ben_seat(b, ben, other) in acting(b, ben, other):
                play_turn(b, ben, other)
            play_turn(b, ana, other)
            wait_until(lambda: push.to(phone), "the other table's push")
        finally:
            socket.ws.close()
        assert [n["url"] for n in push.to(phone)] == [f"/games/{other}"]
