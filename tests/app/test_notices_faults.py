"""100 turn-based tables play while the mail server is down and the push service does not
answer, then fails: every move goes through at once, and once both are back every notice
reaches its device and its address exactly once.

How fast the moves go meanwhile is measured by ``bench/notices.py``, not asserted here."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.app.conftest import sqlite_copy
from tests.app.notice_parts import MailServer, PushService, free_port, wait_until
from tests.app.notice_play import play_turn, table, wants_mail

TABLES = 100


@pytest.fixture(scope="module")
def database_url(sqlite_template, tmp_path_factory) -> str:
    """SQLite only: the faults are the push service's and the mail server's."""
    return sqlite_copy(sqlite_template, tmp_path_factory, "notices_faults")


@pytest.fixture
def push():
    service = PushService()
    yield service
    service.close()


@pytest.mark.slow
def test_moves_go_on_through_a_silent_then_failing_push_service_and_a_mail_server_down(
    serve, database_url, push, sql
):
    port = free_port()
    with (
        serve(
            database_url,
            PUSH_SERVICES="127.0.0.1",
            SMTP_URL=f"smtp://127.0.0.1:{port}",
            PUBLIC_URL="https://c.example",
            PUSH_TIMEOUT=15,
            NOTICE_POLL=0.05,
            NOTICE_RETRY=0.2,
        ) as live,
        ThreadPoolExecutor(8) as pool,
    ):

        def seat(_: int):
            """A table, and its waiting player subscribed on a phone and by mail."""
            game_id, first, other = table(live)
            phone = push.device()
            r = other.put("/api/notices/push", json=phone.subscription(["turn"]))
            assert r.status_code == 200, r.text
            wants_mail(database_url, other.id)
            return game_id, first, phone, f"{other.id}@camp.example"

        tables = list(pool.map(seat, range(TABLES)))
        push.gate.clear()
        # Each first player's turn: the other's notice is written with the move, and sent later.
        list(pool.map(lambda t: play_turn(live, t[1], t[0]), tables))
        wait_until(lambda: push.waiting, "a push held by the push service")
        # What is held (or asked again after a timeout) is answered with a failure.
        push.answer.update({p.endpoint.removeprefix(push.origin): 500 for _, _, p, _ in tables})
        push.gate.set()
        wait_until(
            lambda: (
                'campground_notice_failures_total{channel="push"}'
                in live.client().get("/metrics").text
            ),
            "a push that failed",
        )
        push.answer.clear()
        smtp = MailServer(port)
        try:
            wait_until(lambda: not sql("select id from notices"), "every notice sent", tries=6000)
            assert [len(push.to(phone)) for _, _, phone, _ in tables] == [1] * TABLES
            assert [len(smtp.to(address)) for *_, address in tables] == [1] * TABLES
        finally:
            smtp.close()
