"""RedisBus against a real Redis: two buses stand for two app instances."""

import asyncio
import logging

import pytest
import redis.asyncio as redis

from app.bus import RESYNC, RedisBus

pytestmark = pytest.mark.redis


@pytest.fixture
async def buses(redis_url, redis_prefix):
    made = []

    def make(url=redis_url):
        made.append(RedisBus(url, redis_prefix))
        return made[-1]

    yield make
    for bus in made:
        await bus.close()


@pytest.fixture
async def server(redis_url):
    async with redis.from_url(redis_url, decode_responses=True) as client:
        yield client


async def receive(sub) -> str:
    # A bound on waiting, so that a lost message fails the test instead of hanging it.
    return await asyncio.wait_for(sub.get(), 10)


async def listeners(server, redis_prefix, channel: str) -> int:
    return dict(await server.pubsub_numsub(redis_prefix + channel))[redis_prefix + channel]


async def kill(server, name: str) -> int:
    """Close the named connections from the server's side, as a Redis restart would."""
    clients = [c for c in await server.client_list() if c["name"] == name]
    for client in clients:
        await server.client_kill_filter(_id=client["id"])
    return len(clients)


async def test_messages_reach_every_subscriber_on_every_instance(buses):
    a, b = buses(), buses()
    async with (
        a.subscribe("game:1") as on_a,
        b.subscribe("game:1") as on_b,
        b.subscribe("game:1") as on_b_too,
        b.subscribe("game:2") as other,
    ):
        await a.publish("game:1", "5")
        await b.publish("game:2", "x")
        await b.publish("game:1", "6")
        for sub in (on_a, on_b, on_b_too):
            assert [await receive(sub), await receive(sub)] == ["5", "6"]
        assert await receive(other) == "x"
        assert other.drain() == []


async def test_one_redis_subscription_per_channel_while_wanted(buses, server, redis_prefix):
    bus = buses()
    async with bus.subscribe("lobby:1"), bus.subscribe("lobby:1"):
        assert await listeners(server, redis_prefix, "lobby:1") == 1
        async with bus.subscribe("lobby:2"):
            assert await listeners(server, redis_prefix, "lobby:2") == 1
        # The unsubscription goes out on the way out; Redis applies it just after.
        while await listeners(server, redis_prefix, "lobby:2"):
            await asyncio.sleep(0.01)
        assert await listeners(server, redis_prefix, "lobby:1") == 1
    async with bus.subscribe("lobby:1") as sub:
        await buses().publish("lobby:1", "changed")
        assert await receive(sub) == "changed"


async def test_a_dropped_connection_resyncs_subscribers(buses, server, redis_prefix):
    a, b = buses(), buses()
    async with b.subscribe("game:1") as sub, b.subscribe("lobby:1") as lobby:
        await a.publish("game:1", "1")
        assert await receive(sub) == "1"
        assert await kill(server, f"{redis_prefix}bus") == 1
        # Told once the channels are subscribed again: whatever was missed is behind them.
        assert await receive(sub) == RESYNC
        assert await receive(lobby) == RESYNC
        await a.publish("game:1", "2")
        assert await receive(sub) == "2"
        assert sub.drain() == [] and lobby.drain() == []


async def test_a_publish_that_cannot_reach_redis_is_logged_not_raised(buses, caplog):
    # Nothing listens on port 1: the connection is refused at once.
    bus = buses("redis://127.0.0.1:1/0")
    with caplog.at_level(logging.ERROR, logger="app.bus"):
        await bus.publish("game:1", "3")
    assert "could not publish '3' on game:1" in caplog.text


async def test_notices_still_waiting_are_published_on_closing(buses, redis_url, redis_prefix):
    """The last change of a stopping instance, or of a task run from the command line, still
    reaches the sockets of the others."""
    listening = buses()
    async with listening.subscribe("game:7") as sub:
        leaving = RedisBus(redis_url, redis_prefix)
        leaving.publish_soon("game:7", "3!")
        await leaving.close()
        assert await receive(sub) == "3!"


async def test_closing_stops_the_health_check_even_as_a_ping_answers(buses, monkeypatch):
    """The health check is cancelled in the very turn of the loop its ping answers in: it must
    stop all the same (Python 3.11's ``wait_for`` returned the ping's answer and swallowed the
    cancellation, so the check ran on and the instance never finished shutting down)."""
    bus = buses()
    monkeypatch.setattr(bus, "CHECK_EVERY", 0)
    loop = asyncio.get_running_loop()
    asked, answer = asyncio.Event(), loop.create_future()
    answers = [answer]

    async def ping() -> bool:
        # The first ping answers when told; any later one never does.
        asked.set()
        return await (answers.pop() if answers else loop.create_future())

    monkeypatch.setattr(bus._publisher, "ping", ping)
    bus.publish_soon("game:1", "1")  # starts the publisher and the health check
    await asyncio.wait_for(asked.wait(), 10)
    answer.set_result(True)
    closing = asyncio.ensure_future(bus.close())
    # A bound on waiting, so that a check that runs on fails the test instead of hanging it.
    await asyncio.wait([closing], timeout=10)
    assert closing.done() and bus._checker.done(), "the health check ran on"
