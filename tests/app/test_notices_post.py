"""The post: a pass's pushes go out from a process of the server's own (or from its loop),
a process that dies costs a retry and not a notice, and many notices due at once are sent
by passes side by side, each once."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from py_vapid import Vapid

from app.config import Settings
from app.db import Database
from app.notices import outbox
from app.notices.base64url import b64
from app.notices.keys import Keys
from app.notices.post import Post, Push
from app.notices.worker import BATCH
from tests.app.conftest import running, settings_for
from tests.app.notice_parts import PushService, wait_until
from tests.app.notice_play import subscribe


@pytest.fixture(scope="module")
def push():
    service = PushService(keep_alive=True)
    yield service
    service.close()


def keys() -> Keys:
    vapid = Vapid()
    vapid.generate_keys()
    public = vapid.public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return Keys(vapid, b64(public), os.urandom(32))


def parcel(device, text: str) -> Push:
    sub = device.subscription(["turn"])
    return Push(sub["endpoint"], sub["keys"]["p256dh"], sub["keys"]["auth"], {"title": text})


def post(sending: str) -> Post:
    return Post(Settings(DATABASE_URL="sqlite+aiosqlite://", NOTICE_SENDING=sending), keys())


def post_children() -> set[int]:
    return {p.pid for p in multiprocessing.active_children() if p.pid is not None}


@pytest.mark.parametrize("sending", ["process", "inline"])
async def test_a_pass_is_sent_and_each_outcome_comes_back_in_order(push, sending):
    sent, gone, failing = push.device(), push.device(), push.device()
    push.answer[gone.endpoint.removeprefix(push.origin)] = 410
    push.answer[failing.endpoint.removeprefix(push.origin)] = 500
    before = post_children()
    office = post(sending)
    try:
        outcomes = await office.deliver(
            [parcel(sent, "one"), parcel(gone, "two"), parcel(failing, "three")]
        )
        started = post_children() - before
    finally:
        await office.close()
    assert outcomes == ["sent", "gone", "failed"]
    assert push.to(sent) == [{"title": "one"}]  # decrypted with the device's own keys
    assert not push.refused
    # Where it was sent from: a process of its own, or none.
    assert len(started) == (1 if sending == "process" else 0)


async def test_a_post_process_that_dies_costs_its_pass_a_retry_and_the_next_pass_goes(push):
    phone = push.device()
    office = post("process")
    before = post_children()
    try:
        assert await office.deliver([parcel(phone, "before")]) == ["sent"]
        (child,) = post_children() - before
        os.kill(child, signal.SIGKILL)
        await asyncio.to_thread(wait_until, lambda: child not in post_children(), "it died")
        # The pass it was to send is failed, so the worker tries its notices again.
        assert await office.deliver([parcel(phone, "lost")]) == ["failed"]
        assert await office.deliver([parcel(phone, "after")]) == ["sent"]
        assert child not in post_children() - before  # a new process sent it
    finally:
        await office.close()
    assert [p["title"] for p in push.to(phone)] == ["before", "after"]


def test_the_post_process_loads_no_database_and_no_game():
    """What a spawned post imports is ``app.notices.post`` and what it needs: about half the
    server's modules and memory, not its database layer or its games."""
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, app.notices.post; print(*sorted(sys.modules))"],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[2],
    ).stdout.split()
    assert "app.notices.post" in loaded
    heavy = {"sqlalchemy", "asyncpg", "fastapi", "app.db", "app.models", "engine.registry"}
    assert heavy.isdisjoint(loaded), sorted(heavy.intersection(loaded))


def test_notices_due_by_the_hundred_are_each_sent_once(database_url, push, sql):
    """More than a batch due at once: the worker's passes run side by side and claim
    separate rows; every device gets its one notice."""
    settings = settings_for(
        database_url,
        PUSH_SERVICES="127.0.0.1",
        NOTICE_POLL=0.05,
        RATE_NOTICES="off",
        RATE_NOTICES_PER_ADDRESS="off",
    )
    people = 3 * BATCH + 7
    with running(settings) as live:
        phones = {}
        for i in range(people):
            client = live.guest(f"P{i}")
            phones[client.id] = push.device()
            subscribe(client, phones[client.id], kinds=("invite",))

        async def tell_everyone() -> None:
            db = Database(database_url)
            try:
                async with db.writing() as session:
                    await outbox.add(session, None, [(p, "invite") for p in phones])
            finally:
                await db.dispose()

        asyncio.run(tell_everyone())
        wait_until(lambda: not sql("select id from notices"), "the outbox emptied", tries=3000)
    received = Counter(
        path
        for path, _ in push.received
        if path in {p.endpoint.removeprefix(push.origin) for p in phones.values()}
    )
    assert len(received) == people
    assert set(received.values()) == {1}
