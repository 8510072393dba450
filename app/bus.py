"""Fan-out: "game G is now at version v", "lobby L changed", to every subscriber.

The interface is deliberately tiny (publish a short text on a channel; subscribe to a channel
and iterate over what arrives): `MemoryBus` serves one process, `RedisBus` several instances
sharing a Redis.
"""

from __future__ import annotations

import asyncio
import contextlib
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

log = logging.getLogger(__name__)

# Put on every subscription when messages may have been lost: reload, do not wait for the next.
RESYNC = "bus:resync"


def game_channel(game_id: str) -> str:
    return f"game:{game_id}"


def lobby_channel(lobby_id: str) -> str:
    return f"lobby:{lobby_id}"


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
    async def publish(self, channel: str, message: str) -> None: ...

    def subscribe(self, channel: str) -> AbstractAsyncContextManager[Subscription]: ...

    async def close(self) -> None: ...


class MemoryBus:
    """One process: subscribers are queues in this event loop."""

    def __init__(self) -> None:
        self._subscribers: dict[str, set[Subscription]] = defaultdict(set)

    async def publish(self, channel: str, message: str) -> None:
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

    def __init__(self, url: str, prefix: str = "campground:") -> None:
        self._prefix = prefix
        # One quick retry covers a pooled connection that went stale when Redis restarted.
        self._publisher = redis.from_url(
            url, retry=Retry(NoBackoff(), 1), socket_connect_timeout=5, socket_timeout=5
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

    async def publish(self, channel: str, message: str) -> None:
        try:
            await self._publisher.publish(self._prefix + channel, message)
        except (RedisError, OSError):
            # The change is committed already; failing the request would only make the client
            # retry it. Sockets elsewhere catch up with the next change.
            log.exception("could not publish %r on %s", message, channel)

    @asynccontextmanager
    async def subscribe(self, channel: str) -> AsyncIterator[Subscription]:
        sub = Subscription()
        entry = self._channels.setdefault(channel, _Channel())
        entry.subscriptions.add(sub)
        try:
            if len(entry.subscriptions) == 1:
                await self._want(channel, entry)
            # Only once Redis has the subscription can nothing published fall in between.
            await entry.ready.wait()
            yield sub
        finally:
            entry.subscriptions.discard(sub)
            if not entry.subscriptions and self._channels.get(channel) is entry:
                del self._channels[channel]
                await self._unwant(channel)

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        await self._publisher.aclose()
        await self._listener.aclose()

    async def _want(self, channel: str, entry: _Channel) -> None:
        if self._reader is None:
            self._reader = asyncio.create_task(self._read(), name="redis bus")
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

