"""Per-client rate limits, and caps on the sockets one client may hold open.

Each rate has a player's and an address's: the player's does the fine work (one person, one
script), the address's is a ceiling about ten times higher, because a school, a library or a
family shares one public address (docs/architecture.md, "Limits").

Counts live in this process: with several instances behind a load balancer each instance
applies the limits on its own, so a client spread over N instances gets up to N times them.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from app import metrics

if TYPE_CHECKING:
    from app.config import Settings

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
    rate is that of its kind (``"address:…"`` counts under ``per_address``), else ``rate``."""

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
        self.clock = clock
        self._levels: dict[str, tuple[float, float]] = {}
        self._takes = 0

    def _rate(self, key: str) -> Rate | None:
        return self.per_address if key.startswith("address:") else self.rate

    def _level(self, key: str, rate: Rate, now: float) -> float:
        tokens, at = self._levels.get(key, (rate.count, now))
        return min(rate.count, tokens + (now - at) * rate.count / rate.seconds)

    def take(self, *keys: str) -> None:
        """Count one action under every key, or raise ``RateLimited`` and count nothing."""
        rated = [(key, rate) for key in keys if (rate := self._rate(key)) is not None]
        if not rated:
            return
        now = self.clock()
        levels = [(key, self._level(key, rate, now), rate) for key, rate in rated]
        short = [(1 - level) * rate.seconds / rate.count for _, level, rate in levels if level < 1]
        if short:
            metrics.LIMITED.labels(self.what).inc()
            raise RateLimited(self.what, max(short))
        for key, level, _ in levels:
            self._levels[key] = (level - 1, now)
        self._takes += 1
        if self._takes % SWEEP_EVERY == 0:
            self._sweep(now)

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
    """This instance's rate limits and open-socket counts."""

    def __init__(self, settings: Settings, clock: Callable[[], float] = time.monotonic):
        def buckets(what: str, rate: str, per_address: str | None = None) -> Buckets:
            address = Rate.parse(per_address if per_address is not None else rate)
            return Buckets(what, Rate.parse(rate), clock, address)

        s = settings
        self.players = buckets("new players", s.RATE_PLAYERS)
        self.lobbies = buckets("new lobbies", s.RATE_LOBBIES, s.RATE_LOBBIES_PER_ADDRESS)
        self.joins = buckets("joins", s.RATE_JOINS, s.RATE_JOINS_PER_ADDRESS)
        # The invite page's look-up counts like a join, but apart: opening a link and then
        # joining is one join.
        self.lookups = buckets("invite look-ups", s.RATE_JOINS, s.RATE_JOINS_PER_ADDRESS)
        self.moves = buckets("moves and messages", s.RATE_MOVES, s.RATE_MOVES_PER_ADDRESS)
        self.sockets = buckets("connections", s.RATE_SOCKETS, s.RATE_SOCKETS_PER_ADDRESS)
        self.replays = buckets("replays", s.RATE_REPLAYS, s.RATE_REPLAYS_PER_ADDRESS)
        self.known = KnownTokens(clock)
        self.sign_ins = buckets("sign-in attempts", s.RATE_SIGN_INS)
        self.sign_ins_by_address = buckets("sign-in attempts", s.RATE_SIGN_INS_PER_ADDRESS)
        self.max_sockets = {
            "player": settings.MAX_SOCKETS_PER_PLAYER,
            "address": settings.MAX_SOCKETS_PER_ADDRESS,
        }
        self._open: Counter[tuple[str, str]] = Counter()

    def hold_socket(self, address: str, player: str | None) -> list[tuple[str, str]]:
        """Count one more open socket for the address and player, or raise ``TooManySockets``."""
        held = [("address", address)] + ([("player", player)] if player else [])
        for kind, key in held:
            if self._open[kind, key] >= self.max_sockets[kind]:
                metrics.LIMITED.labels(f"open sockets per {kind}").inc()
                cap = self.max_sockets[kind]
                raise TooManySockets(f"At most {cap} open sockets per {kind}; close one first.")
        self._open.update(held)
        return held

    def release_socket(self, held: list[tuple[str, str]]) -> None:
        self._open.subtract(held)
        for slot in held:
            if self._open[slot] <= 0:
                del self._open[slot]
