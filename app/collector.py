"""The cyclic garbage collector, run on a clock rather than on allocation counts.

A busy server keeps every game's current state and views alive, a few seconds old at most,
and each move replaces them. CPython starts a young collection after so many allocations,
and by then every game has moved: the young generation holds the whole working set (about
100,000 objects for 500 games), and walking it stopped the event loop for 50–180 ms every
few seconds, whoever was waiting.

Collected every ``YOUNG_EVERY`` seconds instead, the young generation holds only what was made
since and is still alive: a few milliseconds at 500 games. What outlives a young collection
is looked at again with the middle generation once a minute, and everything every ten
minutes: those walk the working set (60–130 and 150–350 ms at 500 games), but rarely.
Reference counting frees whatever is not in a cycle at once, whatever this schedule.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import itertools
import threading
from collections.abc import AsyncIterator

YOUNG_EVERY = 0.25  # seconds
MIDDLE_EVERY = 240  # young collections: a minute
FULL_EVERY = 10  # collections of the middle generation: ten minutes

_apps = 0
_apps_lock = threading.Lock()  # apps of one process may run on loops of their own threads


@contextlib.asynccontextmanager
async def collecting() -> AsyncIterator[None]:
    """While an app runs: CPython's own schedule off, this one on."""
    global _apps
    with _apps_lock:
        _apps += 1
        gc.disable()
    task = asyncio.create_task(_collect(), name="garbage collector")
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        with _apps_lock:
            _apps -= 1
            if _apps == 0:
                gc.enable()


def generation(tick: int) -> int:
    """The oldest generation the ``tick``-th collection (from 1) takes in."""
    if tick % (MIDDLE_EVERY * FULL_EVERY) == 0:
        return 2
    return 1 if tick % MIDDLE_EVERY == 0 else 0


async def _collect() -> None:
    for tick in itertools.count(1):
        await asyncio.sleep(YOUNG_EVERY)
        gc.collect(generation(tick))
