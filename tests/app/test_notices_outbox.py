"""The outbox's guarantees: each notice sent once with several workers (row locks, SKIP
LOCKED), a move never waits for a notice, reminders once each, failures retried then given up."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta

import pytest

from app.db import Database
from app.models import Game, Notice, Player, PushSubscription, Reminder, now
from app.notices import reminders
from app.notices.presence import Presence
from app.notices.worker import Notices
from sqlalchemy import func, select, text
from tests.app.conftest import settings_for
from tests.app.notice_parts import MailServer, PushService, free_port, wait_until
from tests.app.notice_play import play_turn, turn_based_table, waiting


@pytest.fixture(scope="module")
def push(database_url):
    service = PushService()
    yield service
    service.close()


def test_two_workers_send_each_notice_once(database_url, push):
    device = push.device()
    count = 250

    async def run() -> None:
        db = Database(database_url)
        async with db.writing() as session:
            session.add(Player(id="outbox-once", name="Ana", token_hash="outbox-once"))
            await session.flush()
            body = device.subscription(["chat"])
            session.add(
                PushSubscription(
                    id="outbox-once",
                    player_id="outbox-once",
                    endpoint=device.endpoint,
                    kinds=["chat"],
                    p256dh=body["keys"]["p256dh"],
                    auth=body["keys"]["auth"],
                )
            )
            at = now()
            session.add_all(
                Notice(
                    player_id="outbox-once",
                    kind="chat",
                    detail=f"line {i}",
                    created_at=at,
                    next_try_at=at,
                    tries=0,
                    done=[],
                )
                for i in range(count)
            )
        settings = settings_for(database_url, PUSH_SERVICES="127.0.0.1", NOTICE_RETRY=0.1)
        workers = [
            Notices(Database(database_url), settings, Presence(set, None, "", 1)) for _ in range(2)
        ]
        for worker in workers:
            await worker.start()

        async def left() -> int:
            async with db.session() as session:
                return await session.scalar(select(func.count()).select_from(Notice))

        async def drain(worker: Notices) -> None:
            # Until the outbox is empty: a push that failed is tried again.
            while await left():
                if not await worker.send_due():
                    await asyncio.sleep(0.05)

        try:
            await asyncio.gather(*(drain(w) for w in workers))
        finally:
            for worker in workers:
                await worker.close()
                await worker.db.dispose()
            await db.dispose()

    asyncio.run(run())
    bodies = [n["body"] for n in push.to(device)]
    assert sorted(bodies) == sorted(f"line {i}" for i in range(count))


def test_a_move_never_waits_for_a_push_service_that_does_not_answer(serve, database_url, push, sql):
    with serve(database_url, PUSH_SERVICES="127.0.0.1", NOTICE_POLL=0.05) as live:
        ana, ben = live.guest("Ana"), live.guest("Ben")
        game_id = turn_based_table(live, ana, ben)
        ana, ben = waiting(live, [ana, ben], game_id)
        phone = push.device()
        assert ben.put("/api/notices/push", json=phone.subscription(["turn"])).status_code == 200
        push.gate.clear()
        try:
            play_turn(live, ana, game_id)
            wait_until(lambda: push.waiting, "a push held by the push service")
            # The push service still holds the first push: moves go on all the same.
            for _ in range(3):
                play_turn(live, ben, game_id)
                play_turn(live, ana, game_id)
            assert push.waiting and not push.to(phone)
        finally:
            push.gate.set()
        told = wait_until(
            lambda: len(push.to(phone)) == 4 and push.to(phone),
            "every turn told once the push service answers",
        )
        assert {n["title"] for n in told} == {"Your turn at Let's Take a Hike"}
        wait_until(
            lambda: not sql("select id from notices where player_id = :p", p=ben.id),
            "the outbox emptied",
        )
        assert len(push.to(phone)) == 4


# A day a move; and the named speed of a day a move with two to spare: its bank of three days
# is the player's time, so a quarter of it is 18 hours.
@pytest.mark.parametrize("speed, quarter", [(None, "6 hours"), ("1d", "18 hours")])
def test_reminders_come_once_each(serve, database_url, sql, speed, quarter):
    with serve(database_url, NOTICE_POLL=0) as live:
        ana, ben = live.guest("Ana"), live.guest("Ben")
        game_id = turn_based_table(live, ana, ben, speed=speed)
        first, _ = waiting(live, [ana, ben], game_id)
        sql_ok = (
            "insert into mail_addresses (player_id, address, digest, confirmed_at) "
            "values (:p, 'x@camp.example', false, :at)"
        )

        async def run() -> list[tuple[str, str]]:
            db = Database(database_url)
            try:
                async with db.writing() as session:
                    await session.execute(text(sql_ok), {"p": first.id, "at": now()})
                    clock = (await session.get(Game, game_id)).clock
                deadline = next(iter(clock["deadlines"].values()))
                end = reminders.utc(datetime.fromisoformat(deadline))
                written = []
                for hours in (19, 5, 5, 0.5, 0.5):
                    await reminders.scan(db, end - timedelta(hours=hours))
                    async with db.session() as session:
                        written.append(
                            await session.scalar(
                                select(func.count())
                                .select_from(Reminder)
                                .where(Reminder.game_id == game_id)
                            )
                        )
                assert written == [0, 1, 1, 2, 2]
                async with db.session() as session:
                    return (
                        await session.execute(
                            select(Notice.kind, Notice.detail)
                            .where(Notice.game_id == game_id)
                            .order_by(Notice.id)
                        )
                    ).all()
            finally:
                await db.dispose()

        assert asyncio.run(run()) == [("reminder", quarter), ("reminder", "1 hour")]


def test_the_time_left_is_said_in_hours_then_days():
    start = now()
    day = start + timedelta(days=1)
    assert reminders.due(start, day, start + timedelta(hours=17)) == {}
    assert reminders.due(start, day, start + timedelta(hours=18)) == {"quarter": "6 hours"}
    assert reminders.due(start, day, start + timedelta(hours=23)) == {
        "quarter": "6 hours",
        "hour": "1 hour",
    }
    assert reminders.due(start, day, day) == {}
    week = start + timedelta(days=7)
    assert reminders.due(start, week, week - timedelta(days=1)) == {"quarter": "42 hours"}


def test_a_mail_server_down_is_tried_again_until_it_is_back_then_mailed_once(serve, database_url):
    port = free_port()
    with serve(
        database_url,
        SMTP_URL=f"smtp://127.0.0.1:{port}",
        PUBLIC_URL="https://c.example",
        NOTICE_POLL=0.05,
        NOTICE_RETRY=0.1,
    ) as live:
        gus = live.guest("Gus")
        assert gus.put("/api/notices/mail", json={"address": "gus@camp.example"}).status_code == 202
        wait_until(
            lambda: (
                'campground_notice_failures_total{channel="mail"}'
                in live.client().get("/metrics").text
            ),
            "a failed try",
        )
        smtp = MailServer(port)
        try:
            wait_until(lambda: smtp.to("gus@camp.example"), "the mail once the server is back")
            assert len(smtp.to("gus@camp.example")) == 1
        finally:
            smtp.close()


def test_a_notice_failing_for_a_day_is_given_up_and_counted(serve, database_url, sql):
    with serve(
        database_url,
        SMTP_URL=f"smtp://127.0.0.1:{free_port()}",
        PUBLIC_URL="https://c.example",
        NOTICE_POLL=0.05,
        NOTICE_RETRY=0.1,
        NOTICE_GIVE_UP=0.5,
    ) as live:
        hal = live.guest("Hal")
        assert hal.put("/api/notices/mail", json={"address": "hal@camp.example"}).status_code == 202
        wait_until(
            lambda: not sql("select id from notices where player_id = :p", p=hal.id),
            "the notice dropped",
        )
        metrics = live.client().get("/metrics").text
        given_up = [
            line
            for line in metrics.splitlines()
            if line.startswith("campground_notices_given_up_total ")
        ]
        assert given_up and float(given_up[0].split()[1]) >= 1
