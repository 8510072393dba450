"""Limits counted in Redis, so that every instance behind a load balancer allows together what
one would allow alone (``app/limits.py`` decides what is counted under which key).

Each check is one round trip: a Lua script reads and updates every key of the check at once,
by Redis's own clock, so two instances never both take the last token. While Redis does not
answer, every call returns ``None`` and the caller counts in its own memory; the log says so
once, a probe looks again every second, and the log says so again when Redis is back.

Open sockets are members of a sorted set per key, scored by when they lapse: an instance
renews its own every ``RENEW_EVERY`` seconds, so the sockets of an instance that dies stop
counting after ``LAPSE`` seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import TypeVar

import redis.asyncio as redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import RedisError

from app import metrics

log = logging.getLogger(__name__)
T = TypeVar("T")

# Seconds after which an open socket no longer counts unless its instance renews it.
LAPSE = 90
RENEW_EVERY = 30
# Seconds between looks at a Redis that did not answer.
PROBE_EVERY = 1.0

# The time: the caller's clock when given (ARGV[1]), else Redis's.
_NOW = """
local now = tonumber(ARGV[1])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) + tonumber(t[2]) / 1000000
end
"""

# Token buckets (``app.limits.Buckets``): KEYS are the buckets, ARGV[2 + 2i - 1 .. 2i] each
# one's count and seconds. Takes a token from every bucket and answers "0", or takes nothing
# and answers the seconds until every bucket holds one.
TAKE = (
    _NOW
    + """
local levels, wait = {}, 0
for i, key in ipairs(KEYS) do
  local count, seconds = tonumber(ARGV[2 * i]), tonumber(ARGV[2 * i + 1])
  local held = redis.call('HMGET', key, 'tokens', 'at')
  local level = count
  if held[1] then
    local since = math.max(0, now - tonumber(held[2]))
    level = math.min(count, tonumber(held[1]) + since * count / seconds)
  end
  levels[i] = level
  if level < 1 then wait = math.max(wait, (1 - level) * seconds / count) end
end
if wait > 0 then return string.format('%.6f', wait) end
for i, key in ipairs(KEYS) do
  local count, seconds = tonumber(ARGV[2 * i]), tonumber(ARGV[2 * i + 1])
  local level = levels[i] - 1
  redis.call('HSET', key, 'tokens', string.format('%.17g', level), 'at', string.format('%.17g', now))
  -- Forgotten once full again, as the memory's sweep forgets it.
  redis.call('PEXPIRE', key, math.ceil((count - level) * seconds / count * 1000) + 1000)
end
return '0'
"""
)

# Open sockets: KEYS are the sets, ARGV[2] the member, ARGV[3] the lapse, ARGV[3 + i] each
# set's cap. Adds the member to every set and answers 0, or to none and answers the number of
# the first set already at its cap.
HOLD = (
    _NOW
    + """
local lapse = tonumber(ARGV[3])
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  if redis.call('ZCARD', key) >= tonumber(ARGV[3 + i]) then return i end
end
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, now + lapse, ARGV[2])
  redis.call('EXPIRE', key, math.ceil(lapse))
end
return 0
"""
)

# Renewal: KEYS[i] holds member ARGV[2 + i] for another ARGV[2] seconds.
RENEW = (
    _NOW
    + """
local lapse = tonumber(ARGV[2])
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, now + lapse, ARGV[2 + i])
  redis.call('EXPIRE', key, math.ceil(lapse))
end
return 0
"""
)


class SharedCounts:
    """The limits' counts in one Redis, under ``{prefix}limit:``."""

    def __init__(
        self, url: str, prefix: str, timeout: float, clock: Callable[[], float] | None = None
    ):
        self._prefix = f"{prefix}limit:"
        self._timeout = timeout
        self._clock = clock
        self._redis = redis.from_url(
            url,
            retry=Retry(NoBackoff(), 1),
            socket_connect_timeout=timeout,
            socket_timeout=timeout,
            client_name=f"{prefix}limits",
        )
        self._take = self._redis.register_script(TAKE)
        self._hold = self._redis.register_script(HOLD)
        self._renew = self._redis.register_script(RENEW)
        # The open sockets this instance holds in Redis: member -> its sets.
        self._held: dict[str, list[str]] = {}
        self.shared = True
        self._probe: asyncio.Task | None = None
        self._renewer: asyncio.Task | None = None

    def _now(self) -> str:
        return "" if self._clock is None else repr(self._clock())

    async def take(self, bucket: str, rated: Iterable[tuple[str, int, float]]) -> float | None:
        """One token from each (key, count, seconds) bucket: the seconds to wait (0: taken),
        or None while Redis is away."""
        keys, args = [], [self._now()]
        for key, count, seconds in rated:
            keys.append(f"{self._prefix}{bucket}:{key}")
            args += [str(count), repr(seconds)]
        answer = await self._ask(lambda: self._take(keys, args))
        return None if answer is None else float(answer)

    async def hold(self, member: str, caps: list[tuple[str, int]]) -> int | None:
        """Hold one more open socket under each (key, cap): 0 when held, else the number (from
        1) of the first key at its cap; None while Redis is away."""
        keys = [f"{self._prefix}open:{key}" for key, _ in caps]
        args = [self._now(), member, str(LAPSE), *(str(cap) for _, cap in caps)]
        answer = await self._ask(lambda: self._hold(keys, args))
        if answer is None or answer == 0:
            # Held here while Redis is away: the renewal writes it there once it is back.
            self._held[member] = keys
            self._start_renewing()
        return None if answer is None else int(answer)

    async def release(self, member: str) -> None:
        keys = self._held.pop(member, None)
        if not keys:
            return

        async def remove() -> None:
            async with self._redis.pipeline(transaction=False) as pipe:
                for key in keys:
                    pipe.zrem(key, member)
                await pipe.execute()

        # Away, it lapses by itself.
        await self._ask(remove)

    async def _ask(self, call: Callable[[], Awaitable[T]]) -> T | None:
        if not self.shared:
            return None
        try:
            async with asyncio.timeout(self._timeout):
                return await call()
        except (RedisError, OSError, TimeoutError) as exc:
            self._away(exc)
            return None

    def _away(self, exc: Exception) -> None:
        if not self.shared:
            return
        self.shared = False
        metrics.LIMITS_SHARED.set(0)
        log.warning(
            "Redis does not answer (%s): limits are counted by this instance alone "
            "until it is back",
            exc or type(exc).__name__,
        )
        self._probe = asyncio.create_task(
            self._look_again(), name="limits' Redis probe", context=contextvars.Context()
        )

    async def _look_again(self) -> None:
        while True:
            await asyncio.sleep(PROBE_EVERY)
            try:
                async with asyncio.timeout(self._timeout):
                    await self._redis.ping()
            except (RedisError, OSError, TimeoutError):
                continue
            self.shared = True
            metrics.LIMITS_SHARED.set(1)
            log.warning("Redis answers again: limits are counted in Redis")
            return

    def _start_renewing(self) -> None:
        if self._renewer is None:
            self._renewer = asyncio.create_task(
                self._renew_held(), name="open sockets' renewal", context=contextvars.Context()
            )

    async def _renew_held(self) -> None:
        while True:
            await asyncio.sleep(RENEW_EVERY)
            pairs = [(key, member) for member, keys in self._held.items() for key in keys]
            # One script per thousand memberships: none holds Redis up for long.
            for start in range(0, len(pairs), 1000):
                await self._ask(functools.partial(self._renew_batch, pairs[start : start + 1000]))

    async def _renew_batch(self, pairs: list[tuple[str, str]]) -> object:
        args = [self._now(), str(LAPSE), *(member for _, member in pairs)]
        return await self._renew([key for key, _ in pairs], args)

    async def close(self) -> None:
        for task in (self._probe, self._renewer):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        await self._redis.aclose()
