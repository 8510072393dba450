"""Who is looking at which table now, across instances: nobody is sent a notice about a table
they have open.

Each instance knows its own game sockets (``looking_here``). With Redis, it also keeps a key per
(game, player) it has a socket for, set when the socket opens and again every ``REFRESH``
seconds, expiring after ``TTL``, so every instance can ask about the others' sockets: a socket closed a moment ago
may still count for up to ``TTL``, which only holds back a notice about a table just left.
Without Redis there is one instance, and its own sockets are all there is to know.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable

from redis.asyncio import Redis
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

TTL = 30
REFRESH = 10


class Presence:
    def __init__(
        self,
        looking_here: Callable[[], set[tuple[str, str]]],
        redis_url: str | None,
        prefix: str,
        timeout: float,
    ):
        self.looking_here = looking_here
        self.prefix = f"{prefix}looking:"
        self.redis = (
            Redis.from_url(redis_url, socket_timeout=timeout, max_connections=4)
            if redis_url
            else None
        )
        self._task: asyncio.Task | None = None

    def _key(self, game_id: str, player_id: str) -> str:
        return f"{self.prefix}{game_id}:{player_id}"

    def start(self) -> None:
        if self.redis is not None:
            self._task = asyncio.create_task(self._refresh())

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        if self.redis is not None:
            await self.redis.aclose()

    async def _refresh(self) -> None:
        while True:
            try:
                await self.mark(self.looking_here())
            except RedisError as exc:
                log.warning("could not mark who is looking at tables: %s", exc)
            await asyncio.sleep(REFRESH)

    async def seen(self, game_id: str, player_id: str) -> None:
        """A socket of the player opened on the game here. Awaited before the page is sent the
        table, so from the moment a player sees it every instance knows, not at the next
        refresh; a Redis that cannot answer costs at most its timeout."""
        if self.redis is None:
            return
        try:
            await self.mark([(game_id, player_id)])
        except RedisError as exc:
            log.warning("could not mark who is looking at a table: %s", exc)

    async def mark(self, pairs: Iterable[tuple[str, str]]) -> None:
        """Tell the other instances who looks at which table here."""
        if self.redis is None:
            return
        async with self.redis.pipeline(transaction=False) as pipe:
            for game_id, player_id in pairs:
                pipe.set(self._key(game_id, player_id), "1", ex=TTL)
            await pipe.execute()

    async def looking(self, pairs: list[tuple[str, str]]) -> set[tuple[str, str]]:
        """Which of the (game, player) ``pairs`` have the table open on any instance. When
        Redis cannot say, only this instance's sockets count: a notice too many beats none."""
        here = self.looking_here()
        found = {p for p in pairs if p in here}
        rest = [p for p in pairs if p not in here]
        if self.redis is None or not rest:
            return found
        try:
            answers = await self.redis.mget([self._key(g, p) for g, p in rest])
        except RedisError as exc:
            log.warning("could not ask who is looking at tables: %s", exc)
            return found
        return found | {pair for pair, answer in zip(rest, answers) if answer is not None}
