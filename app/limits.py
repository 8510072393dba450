"""Per-client rate limits, and caps on the sockets one client may hold open.

Counts live in this process: with several instances behind a load balancer each instance
applies the limits on its own, so a client spread over N instances gets up to N times them.
"""

from __future__ import annotations

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
    "RATE_JOINS": "off",
    "RATE_MOVES": "off",
    "RATE_SOCKETS": "off",
    "RATE_LOG_PAGES": "off",
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
    ``rate.seconds``; an action takes one token from every key it is counted under."""

    def __init__(self, what: str, rate: Rate | None, clock: Callable[[], float] = time.monotonic):
        self.what = what
        self.rate = rate
        self.clock = clock
        self._levels: dict[str, tuple[float, float]] = {}
        self._takes = 0

    def _level(self, key: str, now: float) -> float:
        assert self.rate is not None
        tokens, at = self._levels.get(key, (self.rate.count, now))
        return min(self.rate.count, tokens + (now - at) * self.rate.count / self.rate.seconds)

    def take(self, *keys: str) -> None:
        """Count one action under every key, or raise ``RateLimited`` and count nothing."""
        if self.rate is None:
            return
        now = self.clock()
        levels = {key: self._level(key, now) for key in keys}
        short = [1 - level for level in levels.values() if level < 1]
        if short:
            metrics.LIMITED.labels(self.what).inc()
            raise RateLimited(self.what, max(short) * self.rate.seconds / self.rate.count)
        for key, level in levels.items():
            self._levels[key] = (level - 1, now)
        self._takes += 1
        if self._takes % SWEEP_EVERY == 0:
            self._sweep(now)

    def _sweep(self, now: float) -> None:
        assert self.rate is not None
        full = [k for k in self._levels if self._level(k, now) >= self.rate.count]
        for key in full:
            del self._levels[key]


class TooManySockets(Exception):
    def __init__(self, detail: str):
        super().__init__(detail)
        self.detail = detail


class Limits:
    """This instance's rate limits and open-socket counts."""

    def __init__(self, settings: Settings, clock: Callable[[], float] = time.monotonic):
        def buckets(what: str, rate: str) -> Buckets:
            return Buckets(what, Rate.parse(rate), clock)

        self.players = buckets("new players", settings.RATE_PLAYERS)
        self.lobbies = buckets("new lobbies", settings.RATE_LOBBIES)
        self.joins = buckets("joins", settings.RATE_JOINS)
        self.moves = buckets("moves and messages", settings.RATE_MOVES)
        self.sockets = buckets("connections", settings.RATE_SOCKETS)
        self.log_pages = buckets("log pages", settings.RATE_LOG_PAGES)
        self.sign_ins = buckets("sign-in attempts", settings.RATE_SIGN_INS)
        self.sign_ins_by_address = buckets("sign-in attempts", settings.RATE_SIGN_INS_PER_ADDRESS)
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
