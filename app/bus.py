"""Fan-out: "game G is now at version v", "lobby L changed", to every subscriber.

The interface is deliberately tiny (publish a short text on a channel; subscribe to a channel
and iterate over what arrives) so that a Redis backend can replace the in-process one when
the app runs as several instances.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Protocol


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
