"""Per-client rate limits, and caps on the sockets one client may hold open.

Each rate has a player's and an address's: the player's does the fine work (one person, one
script), the address's is a ceiling about ten times higher, because a school, a library or a
family shares one public address (docs/architecture.md, "Limits").

Sockets without a token (anonymous spectators) of an address share a quarter of its rates and
of its open-socket cap, and spend nothing of the rest: whatever they do, a class's players
never compete with them. Each anonymous socket also has a player's rate of its own, so one
flooding socket is refused by its own limit first; a refused action spends nothing anywhere.


With ``REDIS_URL`` set the counts live in Redis (``app/shared_limits.py``), so N instances
behind a load balancer allow together what one allows; without it, or while Redis does not
answer, they live in this process.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from app import metrics
from app.shared_limits import SharedCounts

if TYPE_CHECKING:
    from app.config import Settings

# Anonymous sockets of an address get one part in this many of its rates and socket cap.
ANONYMOUS_SHARE = 4
# Buckets are forgotten once full again; the sweep runs every so many takes.
SWEEP_EVERY = 1000
# Settings that switch every rate off and put every cap out of reach: for load benchmarks,
# whose clients all come from one address.
UNLIMITED = {
    "RATE_PLAYERS": "off",
    "RATE_LOBBIES": "off",
    "RATE_LOBBIES_PER_ADDRESS": "off",
    "RATE_JOINS": "off",
    "RATE_JOINS_PER_ADDRESS": "off",
    "RATE_QUEUES": "off",
    "RATE_QUEUES_PER_ADDRESS": "off",
    "RATE_MOVES": "off",
    "RATE_MOVES_PER_ADDRESS": "off",
    "RATE_SOCKETS": "off",
    "RATE_SOCKETS_PER_ADDRESS": "off",
    "RATE_REPLAYS": "off",
    "RATE_REPLAYS_PER_ADDRESS": "off",
    "RATE_SIGN_INS": "off",
    "RATE_SIGN_INS_PER_ADDRESS": "off",
    "MAX_OPEN_LOBBIES": "1000000",
    "MAX_SOCKETS_PER_PLAYER": "1000000",
    "MAX_SOCKETS_PER_ADDRESS": "1000000",
}


class RateLimited(Exception):
    """Too many requests of one kind; ``retry_after`` seconds until the next is allowed."""

    def __init__(self, what: str, retry_after: float):
        self.retry_after = max(1, math.ceil(retry_after))
        self.detail = f"Too many {what}: try again in {self.retry_after} s."
        super().__init__(self.detail)


@dataclass(frozen=True)
class Rate:
    count: int
    seconds: float

    @classmethod
    def parse(cls, text: str) -> Rate | None:
        """``"20/60"``: up to 20 at once, then 20 per 60 s; ``"off"``: no limit."""
        if text.strip().lower() == "off":
            return None
        count, seconds = text.split("/")
        return cls(int(count), float(seconds))


class Buckets:
    """Token buckets by key: each holds up to ``rate.count`` tokens, refilled evenly over
    ``rate.seconds``; an action takes one token from every key it is counted under. A key's
    rate is that of its kind (``"address:…"`` counts under ``per_address``, the anonymous
    sockets' ``"anonymous:…"`` under a share of it), else ``rate``. Counted in Redis when the
    bucket is shared (``Limits`` names it), else in this process."""

    def __init__(
        self,
        what: str,
        rate: Rate | None,
        clock: Callable[[], float] = time.monotonic,
        per_address: Rate | None = None,
    ):
        self.what = what
        self.rate = rate
        self.per_address = per_address
        self.per_anonymous = per_address and Rate(
            math.ceil(per_address.count / ANONYMOUS_SHARE), per_address.seconds
        )
        self.clock = clock
        self._levels: dict[str, tuple[float, float]] = {}
        self._takes = 0
        self._name = ""
        self._shared: SharedCounts | None = None

    def share(self, name: str, shared: SharedCounts | None) -> None:
        """Count in ``shared`` (Redis) under ``name``, this process's memory while it is away."""
        self._name, self._shared = name, shared

    def _rate(self, key: str) -> Rate | None:
        if key.startswith("address:"):
            return self.per_address
        if key.startswith("anonymous:"):
            return self.per_anonymous
        return self.rate

    def _level(self, key: str, rate: Rate, now: float) -> float:
        tokens, at = self._levels.get(key, (rate.count, now))
        return min(rate.count, tokens + (now - at) * rate.count / rate.seconds)

    async def spend(self, *keys: str) -> None:
        """Count one action under every key, or raise ``RateLimited`` and count nothing."""
        rated = [(key, rate) for key in keys if (rate := self._rate(key)) is not None]
        if not rated:
            return
        wait = None
        if self._shared is not None:
            wait = await self._shared.take(
                self._name, [(key, rate.count, rate.seconds) for key, rate in rated]
            )
        if wait is None:
            wait = self._take_here(rated)
        if wait > 0:
            metrics.LIMITED.labels(self.what).inc()
            raise RateLimited(self.what, wait)

    def _take_here(self, rated: list[tuple[str, Rate]]) -> float:
        """``spend`` in this process's memory: 0 when taken, else the seconds to wait."""
        now = self.clock()
        levels = [(key, self._level(key, rate, now), rate) for key, rate in rated]
        short = [(1 - level) * rate.seconds / rate.count for _, level, rate in levels if level < 1]
        if short:
            return max(short)
        for key, level, _ in levels:
            self._levels[key] = (level - 1, now)
        self._takes += 1
        if self._takes % SWEEP_EVERY == 0:
            self._sweep(now)
        return 0

    def _sweep(self, now: float) -> None:
        full = []
        for key in self._levels:
            rate = self._rate(key)
            if rate is None or self._level(key, rate, now) >= rate.count:
                full.append(key)
        for key in full:
            del self._levels[key]


def token_key(token: str) -> str:
    """What a socket's token is known by here: its hash, never the token."""
    return hashlib.sha256(token.encode()).hexdigest()[:32]


class KnownTokens:
    """Tokens of players whose sockets this instance served lately (``KEEP`` seconds, at most
    ``MOST``): their reconnects count against the player's rate, not the address's."""

    KEEP = 3600.0
    MOST = 100_000

    def __init__(self, clock: Callable[[], float]):
        self.clock = clock
        self._seen: dict[str, float] = {}

    def add(self, key: str) -> None:
        self._seen.pop(key, None)
        self._seen[key] = self.clock()
        if len(self._seen) > self.MOST:
            del self._seen[next(iter(self._seen))]

    def __contains__(self, key: str) -> bool:
        seen = self._seen.get(key)
        return seen is not None and self.clock() - seen < self.KEEP


class TooManySockets(Exception):
    def __init__(self, detail: str):
        super().__init__(detail)
        self.detail = detail


class Limits:
    """The rate limits and open-socket counts: in Redis with ``REDIS_URL``, else this
    instance's. ``clock`` stands in for every clock (tests); Redis's own is used otherwise."""

    def __init__(self, settings: Settings, clock: Callable[[], float] | None = None):
        here = clock or time.monotonic

        def buckets(what: str, rate: str, per_address: str | None = None) -> Buckets:
            address = Rate.parse(per_address if per_address is not None else rate)
            return Buckets(what, Rate.parse(rate), here, address)

        s = settings
        self.players = buckets("new players", s.RATE_PLAYERS)
        self.lobbies = buckets("new lobbies", s.RATE_LOBBIES, s.RATE_LOBBIES_PER_ADDRESS)
        self.joins = buckets("joins", s.RATE_JOINS, s.RATE_JOINS_PER_ADDRESS)
        # The invite page's look-up counts like a join, but apart: opening a link and then
        # joining is one join.
        self.lookups = buckets("invite look-ups", s.RATE_JOINS, s.RATE_JOINS_PER_ADDRESS)
        self.queues = buckets("queue joins", s.RATE_QUEUES, s.RATE_QUEUES_PER_ADDRESS)
        self.moves = buckets("moves and messages", s.RATE_MOVES, s.RATE_MOVES_PER_ADDRESS)
        self.sockets = buckets("connections", s.RATE_SOCKETS, s.RATE_SOCKETS_PER_ADDRESS)
        self.replays = buckets("replays", s.RATE_REPLAYS, s.RATE_REPLAYS_PER_ADDRESS)
        self.known = KnownTokens(here)
        self.notices = buckets("notice settings", s.RATE_NOTICES, s.RATE_NOTICES_PER_ADDRESS)
        self.sign_ins = buckets("sign-in attempts", s.RATE_SIGN_INS)
        self.sign_ins_by_address = buckets("sign-in attempts", s.RATE_SIGN_INS_PER_ADDRESS)
        anonymous = max(1, settings.MAX_SOCKETS_PER_ADDRESS // ANONYMOUS_SHARE)
        self.max_sockets = {
            "player": settings.MAX_SOCKETS_PER_PLAYER,
            # The players' part of the address's cap, and the anonymous sockets' apart.
            "address": max(1, settings.MAX_SOCKETS_PER_ADDRESS - anonymous),
            "anonymous": anonymous,
        }
        self._open: Counter[tuple[str, str]] = Counter()
        self.shared = (
            SharedCounts(settings.REDIS_URL, settings.REDIS_PREFIX, settings.REDIS_TIMEOUT, clock)
            if settings.REDIS_URL
            else None
        )
        # Every bucket, those added later too, is counted in Redis under its attribute's name.
        for name, value in vars(self).items():
            if isinstance(value, Buckets):
                value.share(name, self.shared)
        metrics.LIMITS_SHARED.set(1 if self.shared else 0)
        # Names of this instance's open sockets among every instance's.
        self._sockets = (f"{uuid.uuid4().hex}:{n}" for n in itertools.count())

    async def hold_socket(self, address: str, player: str | None) -> Held:
        """Count one more open socket for the player and the players of the address, or for
        the address's anonymous sockets without a player; or raise ``TooManySockets``. This
        instance's own count is kept too: it is what counts while Redis is away."""
        slots = [("address", address), ("player", player)] if player else [("anonymous", address)]
        member = next(self._sockets)
        refused = None
        if self.shared is not None:
            caps = [(f"{kind}:{key}", self.max_sockets[kind]) for kind, key in slots]
            refused = await self.shared.hold(member, caps)
        if refused is None:
            # No Redis, or Redis away: this instance's count decides.
            full = next(
                (kind for kind, key in slots if self._open[kind, key] >= self.max_sockets[kind]),
                None,
            )
            if full is not None and self.shared is not None:
                await self.shared.release(member)
        else:
            full = slots[refused - 1][0] if refused else None
        if full is not None:
            metrics.LIMITED.labels(f"open sockets per {full}").inc()
            cap = self.max_sockets[full]
            per = "address without a sign-in" if full == "anonymous" else full
            raise TooManySockets(f"At most {cap} open sockets per {per}; close one first.")
        self._open.update(slots)
        return Held(member, slots)

    async def release_socket(self, held: Held) -> None:
        self._open.subtract(held.slots)
        for slot in held.slots:
            if self._open[slot] <= 0:
                del self._open[slot]
        if self.shared is not None:
            await self.shared.release(held.member)

    async def close(self) -> None:
        if self.shared is not None:
            await self.shared.close()


@dataclass(frozen=True)
class Held:
    """One open socket's place: its name in Redis and the counts it is in."""

    member: str
    slots: list[tuple[str, str]]
