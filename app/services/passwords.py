"""Password hashes: argon2id (argon2-cffi's RFC 9106 low-memory profile), made and checked in
a small, bounded pool of threads beside the event loop.

A hash costs tens of milliseconds of CPU and 64 MiB, on purpose. On the event loop a stream of
wrong sign-ins would stall every table; in an unbounded queue it would make every sign-in wait
for all the guesses before it. So at most ``HASHERS`` hashes run at once, in threads of lower
priority than the loop (argon2 releases the GIL), at most ``WAITING`` more wait for one, and
any beyond are refused at once: ``Busy``, a 503 with ``Retry-After``. A person retries in a
second; a flood is turned away for the price of a counter.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import secrets
import threading
from concurrent.futures import ThreadPoolExecutor

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from argon2.profiles import RFC_9106_LOW_MEMORY

from app import metrics
from app.services.errors import Problem

HASHERS = 2
WAITING = 8
# A hashing thread is background work: the lowest priority (Linux nice 19, per thread), so
# on a busy machine the loop keeps its share and the hashes wait.
NICER = 19

_hasher = PasswordHasher.from_parameters(RFC_9106_LOW_MEMORY)


def _lower_priority() -> None:
    """Run this pool thread below the event loop, so the tables are served first."""
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), NICER)


_pool = ThreadPoolExecutor(
    max_workers=HASHERS, thread_name_prefix="argon2", initializer=_lower_priority
)


class Busy(Problem):
    def __init__(self) -> None:
        super().__init__(503, "Too many sign-ins at once: try again in a second.", retry_after=1)


class Pool:
    """Hashes under way or waiting, counted on the loop: no lock needed."""

    def __init__(self, most: int):
        self.most = most
        self.taken = 0

    def check(self) -> None:
        """Raise ``Busy`` when no hash could start or wait now: before any other work."""
        if self.taken >= self.most:
            metrics.LIMITED.labels("password hashes").inc()
            raise Busy()

    async def run(self, fn, *args):
        self.check()
        self.taken += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(_pool, fn, *args)
        finally:
            self.taken -= 1


pool = Pool(HASHERS + WAITING)


@functools.cache
def _dummy_hash() -> str:
    return _hasher.hash(secrets.token_urlsafe(16))


async def hash_password(password: str) -> str:
    return await pool.run(_hasher.hash, password)


def _verify(stored: str | None, password: str) -> bool:
    try:
        return _hasher.verify(stored or _dummy_hash(), password) and stored is not None
    except (VerificationError, InvalidHashError):
        return False


async def verify_password(stored: str | None, password: str) -> bool:
    """Whether ``password`` is the one ``stored`` was made from; for no stored hash (no
    such handle) the same work is done against the dummy and the answer is False."""
    return await pool.run(_verify, stored, password)
