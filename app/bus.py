"""Fan-out: "game G is now at version v", "lobby L changed", to every subscriber.

The interface is deliberately tiny (publish a short text on a channel; subscribe to a channel
and iterate over what arrives): `MemoryBus` serves one process, `RedisBus` several instances
sharing a Redis.

Waits on Redis are bounded with ``asyncio.timeout``, never ``asyncio.wait_for``: on Python 3.11
``wait_for`` returns what it awaited when a cancellation arrives in the turn that it finishes,
and the cancelled task (the health check, at shutdown) would carry on and hold the shutdown up.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
from collections import defaultdict
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Protocol

import redis.asyncio as redis
from redis.asyncio.client import PubSub
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import RedisError

from app import metrics

log = logging.getLogger(__name__)

# Put on every subscription when messages may have been lost: reload, do not wait for the next.
RESYNC = "bus:resync"


# Seconds between cancellations of a task that is to stop and carries on.
CANCEL_AGAIN = 0.1


async def stop_tasks(tasks: list[asyncio.Task]) -> None:
    """Cancel ``tasks`` and wait until each has ended, cancelling again any that carries on:
    redis-py bounds its sends with ``asyncio.wait_for``, which on Python 3.11 loses a
    cancellation that arrives in the turn its send finishes."""
    pending = set(tasks)
    while pending:
        for task in pending:
            task.cancel()
        _, pending = await asyncio.wait(pending, timeout=CANCEL_AGAIN)
    for task in tasks:
        if not task.cancelled() and task.exception() is not None:
            log.error("%s ended with an error", task.get_name(), exc_info=task.exception())


def game_channel(game_id: str) -> str:
    return f"game:{game_id}"


def lobby_channel(lobby_id: str) -> str:
    return f"lobby:{lobby_id}"


def home_channel() -> str:
    """The home pages': the open seeks changed, a table was formed from the queue."""
    return "home"


class Subscription:
    """What one subscriber receives, in order."""

    def __init__(self) -> None:
        self._queue: asyncio.Queue[str] = asyncio.Queue()

    def put(self, message: str) -> None:
        self._queue.put_nowait(message)

    async def get(self) -> str:
        return await self._queue.get()

    def drain(self) -> list[str]:
        """Everything already waiting, without blocking: lets a slow reader skip ahead."""
        items = []
        while not self._queue.empty():
            items.append(self._queue.get_nowait())
        return items

    def __aiter__(self) -> AsyncIterator[str]:
        return self

    async def __anext__(self) -> str:
        return await self.get()


class Bus(Protocol):
    # False while the bus cannot be trusted to carry every change (Redis unreachable), as of
    # its last health check or publish.
    healthy: bool

    def start(self) -> None: ...

    async def publish(self, channel: str, message: str) -> None: ...

    def publish_soon(self, channel: str, message: str) -> None: ...

    def subscribe(self, channel: str) -> AbstractAsyncContextManager[Subscription]: ...

    async def close(self) -> None: ...


class MemoryBus:
    """One process: subscribers are queues in this event loop."""

    healthy = True

    def __init__(self) -> None:
        self._subscribers: dict[str, set[Subscription]] = defaultdict(set)

    def start(self) -> None:
        """Nothing to watch."""

    async def publish(self, channel: str, message: str) -> None:
        self.publish_soon(channel, message)

    def publish_soon(self, channel: str, message: str) -> None:
        for sub in list(self._subscribers.get(channel, ())):
            sub.put(message)

    @asynccontextmanager
    async def subscribe(self, channel: str) -> AsyncIterator[Subscription]:
        sub = Subscription()
        self._subscribers[channel].add(sub)
        try:
            yield sub
        finally:
            subs = self._subscribers.get(channel)
            if subs is not None:
                subs.discard(sub)
                if not subs:
                    del self._subscribers[channel]

    async def close(self) -> None:
        """Nothing to release: subscriptions end with their ``async with``."""


class _Channel:
    """A channel some local subscriber wants."""

    def __init__(self) -> None:
        self.subscriptions: set[Subscription] = set()
        # Set once Redis confirms the subscription, or once it is lost with the connection.
        self.ready = asyncio.Event()
        # Messages may have been missed: RESYNC when the subscription is confirmed again.
        self.stale = False

    def lost(self) -> None:
        self.stale = True
        self.ready.set()


class RedisBus:
    """Several instances: messages travel through Redis pub/sub.

    One pub/sub connection per process carries every channel that at least one local
    subscriber wants, and what arrives is handed to the local subscriptions. Redis keeps
    nothing for a connection that is down, so after a drop the bus reconnects with backoff,
    subscribes again and puts ``RESYNC`` on every subscription. Channel names carry
    ``prefix``: pub/sub is server-wide, whatever the URL's database number. The listening
    connection is named ``{prefix}bus`` in ``CLIENT LIST``.
    """

    RECONNECT_MIN = 0.1
    RECONNECT_MAX = 5.0
    # Seconds between health checks (a PING) while all is well.
    CHECK_EVERY = 1.0
    # Channels whose latest notice waits to be published; beyond this the oldest is dropped.
    MAX_PENDING = 10_000

    def __init__(self, url: str, prefix: str = "campground:", timeout: float = 1.0) -> None:
        self._prefix = prefix
        self._timeout = timeout
        # One quick retry covers a pooled connection that went stale when Redis restarted.
        self._publisher = redis.from_url(
            url,
            retry=Retry(NoBackoff(), 1),
            socket_connect_timeout=timeout,
            socket_timeout=timeout,
        )
        # No silent reconnects on the listener: a new connection may have missed messages,
        # so the reader reconnects itself and says so.
        self._listener = redis.from_url(
            url,
            retry=Retry(NoBackoff(), 0, supported_errors=()),
            socket_connect_timeout=5,
            decode_responses=True,
            client_name=f"{prefix}bus",
        )
        self._channels: dict[str, _Channel] = {}
        # SUBSCRIBE commands sent on the current connection and not yet confirmed, by channel:
        # an old confirmation must not pass for a newer subscription's.
        self._unconfirmed: dict[str, int] = defaultdict(int)
        self._pubsub: PubSub | None = None
        # SUBSCRIBE and UNSUBSCRIBE reach Redis in the order they were decided.
        self._sending = asyncio.Lock()
        self._down = False
        self._reader: asyncio.Task | None = None
        self.healthy = True
        # Notices not yet published, the latest per channel, in order of arrival.
        self._pending: dict[str, str] = {}
        self._flushing = asyncio.Event()
        self._flusher: asyncio.Task | None = None
        self._checker: asyncio.Task | None = None

    async def publish(self, channel: str, message: str) -> None:
        try:
            async with asyncio.timeout(self._timeout):
                await self._publisher.publish(self._prefix + channel, message)
        except (RedisError, OSError, TimeoutError):
            # The change is committed already; failing the request would only make the client
            # retry it. Sockets elsewhere catch up with the next change.
            metrics.REDIS_PUBLISH_FAILURES.inc()
            log.exception("could not publish %r on %s", message, channel)

    def publish_soon(self, channel: str, message: str) -> None:
        """Publish in the background: a request never waits on Redis. While Redis is away the
        latest notice per channel is kept and published once it is back, so every instance
        converges."""
        self._pending.pop(channel, None)
        self._pending[channel] = message
        if len(self._pending) > self.MAX_PENDING:
            dropped = next(iter(self._pending))
            del self._pending[dropped]
            log.warning("too many notices waiting for Redis; dropped the one on %s", dropped)
        self._start_tasks()
        self._flushing.set()

    def start(self) -> None:
        """Health checks from now on (the app starts), not only from the first publish: an
        instance nobody plays on still says whether Redis answers."""
        self._start_tasks()

    def _start_tasks(self) -> None:
        if self._flusher is None:
            # Contexts of their own: the request that happened to start them is not theirs.
            self._flusher = asyncio.create_task(
                self._flush(), name="redis publisher", context=contextvars.Context()
            )
            self._checker = asyncio.create_task(
                self._check(), name="redis health", context=contextvars.Context()
            )

    async def _flush(self) -> None:
        delay = self.RECONNECT_MIN
        while True:
            await self._flushing.wait()
            self._flushing.clear()
            while self._pending:
                batch = dict(self._pending)
                try:
                    await self._publish_batch(batch)
                except (RedisError, OSError, TimeoutError) as exc:
                    metrics.REDIS_PUBLISH_FAILURES.inc()
                    if self.healthy:
                        log.warning("could not publish to Redis (%s); will retry", exc)
                    self.healthy = False
                    await asyncio.sleep(delay)
                    delay = min(delay * 2, self.RECONNECT_MAX)
                    continue
                delay = self.RECONNECT_MIN
                for channel, message in batch.items():
                    if self._pending.get(channel) == message:
                        del self._pending[channel]

    async def _publish_batch(self, batch: dict[str, str]) -> None:
        async with self._publisher.pipeline(transaction=False) as pipe:
            for channel, message in batch.items():
                pipe.publish(self._prefix + channel, message)
            async with asyncio.timeout(self._timeout):
                await pipe.execute()

    async def _check(self) -> None:
        """PING now and then. When Redis comes back after a failure, the listener reconnects:
        a hung server may have swallowed notices without dropping the connection, and a new
        subscription tells every subscriber to resync."""
        while True:
            await asyncio.sleep(self.CHECK_EVERY)
            try:
                async with asyncio.timeout(self._timeout):
                    await self._publisher.ping()
            except (RedisError, OSError, TimeoutError):
                if self.healthy:
                    log.warning("Redis does not answer; this instance serves its own sockets")
                self.healthy = False
                metrics.REDIS_UP.set(0)
                continue
            metrics.REDIS_UP.set(1)
            if not self.healthy:
                log.warning("Redis is back; subscribing again")
                self.healthy = True
                await self._restart_reader()
                self._flushing.set()

    async def _restart_reader(self) -> None:
        if self._reader is None:
            return
        self._reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._reader
        self._down = True
        for entry in self._channels.values():
            entry.lost()
        self._reader = asyncio.create_task(
            self._read(), name="redis bus", context=contextvars.Context()
        )

    @asynccontextmanager
    async def subscribe(self, channel: str) -> AsyncIterator[Subscription]:
        sub = Subscription()
        entry = self._channels.setdefault(channel, _Channel())
        entry.subscriptions.add(sub)
        try:
            if len(entry.subscriptions) == 1:
                await self._want(channel, entry)
            # Only once Redis has the subscription can nothing published fall in between. A
            # hung Redis does not hold the subscriber up: it is told to resync once confirmed.
            try:
                async with asyncio.timeout(self._timeout):
                    await entry.ready.wait()
            except TimeoutError:
                entry.lost()
            yield sub
        finally:
            entry.subscriptions.discard(sub)
            if not entry.subscriptions and self._channels.get(channel) is entry:
                del self._channels[channel]
                await self._unwant(channel)

    async def close(self) -> None:
        await stop_tasks([t for t in (self._reader, self._flusher, self._checker) if t is not None])
        if self._pending:
            # Once more, within REDIS_TIMEOUT: the last changes of a stopping instance (or of
            # a command-line task) still reach the other instances' sockets.
            try:
                await self._publish_batch(self._pending)
            except (RedisError, OSError, TimeoutError) as exc:
                metrics.REDIS_PUBLISH_FAILURES.inc()
                log.warning(
                    "%d notices could not be published on closing (%s)", len(self._pending), exc
                )
            self._pending.clear()
        await self._publisher.aclose()
        await self._listener.aclose()

    async def _want(self, channel: str, entry: _Channel) -> None:
        self._start_tasks()
        if self._reader is None:
            self._reader = asyncio.create_task(
                self._read(), name="redis bus", context=contextvars.Context()
            )
        if self._pubsub is None:
            # The reader subscribes every wanted channel when it connects; while Redis is
            # down, waiting would only hold the subscriber up.
            if self._down:
                entry.lost()
            return
        try:
            await self._send_subscribe(self._pubsub, [channel])
        except (RedisError, OSError):
            # The reader meets the same failure and reconnects.
            entry.lost()

    async def _unwant(self, channel: str) -> None:
        async with self._sending:
            if self._pubsub is None:
                return
            # A failure here is the reader's to handle: it reconnects without this channel.
            with contextlib.suppress(RedisError, OSError):
                await self._pubsub.unsubscribe(self._prefix + channel)

    async def _send_subscribe(self, pubsub: PubSub, channels: list[str]) -> None:
        async with self._sending:
            # Lost meanwhile: the reader subscribes again to what is wanted when it reconnects.
            if pubsub is not self._pubsub:
                return
            for channel in channels:
                self._unconfirmed[channel] += 1
            await pubsub.subscribe(*(self._prefix + c for c in channels))

    async def _read(self) -> None:
        delay = self.RECONNECT_MIN
        while True:
            pubsub = self._listener.pubsub()
            try:
                await pubsub.connect()
                self._pubsub, self._down = pubsub, False
                if self._channels:
                    await self._send_subscribe(pubsub, list(self._channels))
                delay = self.RECONNECT_MIN
                while True:
                    self._dispatch(await pubsub.get_message(timeout=None))
            except (RedisError, OSError) as exc:
                log.warning("Redis pub/sub unavailable (%s); reconnecting in %.1f s", exc, delay)
            except Exception:
                # Subscribers wait on this task: whatever went wrong, it must carry on.
                log.exception("Redis pub/sub reader failed; reconnecting in %.1f s", delay)
            finally:
                self._pubsub = None
                self._unconfirmed.clear()
                with contextlib.suppress(RedisError, OSError):
                    await pubsub.aclose()
            self._down = True
            for entry in self._channels.values():
                entry.lost()
            await asyncio.sleep(delay)
            delay = min(delay * 2, self.RECONNECT_MAX)

    def _dispatch(self, message: dict | None) -> None:
        if message is None or message["type"] not in ("subscribe", "message"):
            return
        channel = message["channel"].removeprefix(self._prefix)
        entry = self._channels.get(channel)
        if message["type"] == "subscribe":
            self._unconfirmed[channel] -= 1
            if self._unconfirmed[channel] > 0:
                return
            del self._unconfirmed[channel]
            if entry is None:
                return
            entry.ready.set()
            if entry.stale:
                entry.stale = False
                for sub in entry.subscriptions:
                    sub.put(RESYNC)
        elif entry is not None:
            for sub in entry.subscriptions:
                sub.put(message["data"])
