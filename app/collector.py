"""The cyclic garbage collector, run on a clock, and what survives it frozen.

A busy server keeps every game's current state and views alive, a few seconds old at most,
and each move replaces them: hundreds of thousands of containers at 800 games (the working
set). A collection stops the process for as long as it walks, and CPython's generations walk
the working set again and again: its automatic young collections, once every game had moved,
took 50–180 ms; collected on a clock, the young generation held only what was made since,
but the middle generation, once a minute, walked the whole working set (251–322 ms at 600–800
human-paced games), and the full collection everything.

So every ``YOUNG_EVERY`` seconds the young generation is collected, every ``MIDDLE_EVERY``
young collections the middle one too, and what survives that is frozen (``gc.freeze``):
no collection walks it again. Each walk is then what was made in the last second or so and
is still alive. Reference counting frees the frozen objects as it frees any other; only a
reference cycle that dies frozen stays, and the app keeps its long-lived things free of
cycles (``tests/app/test_hubs_freed.py``). In case some leak anyway, once the frozen objects
are ``GROW`` times as many as after the last full collection, everything is unfrozen and
collected once (a long pause, logged); a server whose load is steady never comes to it. They
are counted only every ``COUNT_EVERY`` middle collections: CPython counts them by walking
every one, and done each second that walk was a tenth of a busy server's CPU.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import itertools
import logging
import threading
import time
from collections import deque
from collections.abc import AsyncIterator
from typing import Any

from app import metrics

log = logging.getLogger(__name__)

YOUNG_EVERY = 0.25  # seconds
MIDDLE_EVERY = 4  # young collections: a second
GROW = 2.0
COUNT_EVERY = 60  # middle collections: a minute

# Seconds between the timers whose lateness is the event loop's lag.
LAG_EVERY = 0.05
# Seconds over which the longest lag and the longest pause are reported.
RECENT = 10.0

_apps = 0
_apps_lock = threading.Lock()  # apps of one process may run on loops of their own threads


class RecentMax:
    """The largest value seen in the last ``RECENT`` seconds, on ``gauge``."""

    def __init__(self, gauge: Any) -> None:
        self.gauge = gauge
        # (when, value), values decreasing: the first is the largest still recent.
        self._kept: deque[tuple[float, float]] = deque()

    def add(self, value: float) -> None:
        now = time.monotonic()
        kept = self._kept
        while kept and kept[-1][1] <= value:
            kept.pop()
        kept.append((now, value))
        while kept[0][0] < now - RECENT:
            kept.popleft()
        self.gauge.set(kept[0][1])


_PAUSES = [metrics.GC_PAUSES.labels(str(generation)) for generation in range(3)]
_longest_pause = RecentMax(metrics.GC_PAUSE_MAX)
_started = 0.0


def _timed(phase: str, info: dict[str, int]) -> None:
    """A ``gc.callbacks`` entry: every collection's pause, by generation."""
    global _started
    if phase == "start":
        _started = time.perf_counter()
        return
    pause = time.perf_counter() - _started
    _PAUSES[info["generation"]].observe(pause)
    _longest_pause.add(pause)


@contextlib.asynccontextmanager
async def collecting() -> AsyncIterator[None]:
    """While an app runs: CPython's own schedule off, this one on."""
    global _apps
    with _apps_lock:
        _apps += 1
        gc.disable()
        if _timed not in gc.callbacks:
            gc.callbacks.append(_timed)
    tasks = [
        asyncio.create_task(_collect(), name="garbage collector"),
        asyncio.create_task(_watch_lag(), name="event loop lag"),
    ]
    try:
        yield
    finally:
        for task in tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        with _apps_lock:
            _apps -= 1
            if _apps == 0:
                gc.enable()
                gc.callbacks.remove(_timed)


def generation(tick: int) -> int:
    """The oldest generation the ``tick``-th collection (from 1) takes in."""
    return 1 if tick % MIDDLE_EVERY == 0 else 0


def counts(tick: int) -> bool:
    """Whether the frozen objects are counted after the ``tick``-th collection (from 1)."""
    return tick % (MIDDLE_EVERY * COUNT_EVERY) == 0


async def _collect() -> None:
    frozen = gc.get_freeze_count()
    metrics.GC_FROZEN.set(frozen)
    for tick in itertools.count(1):
        await asyncio.sleep(YOUNG_EVERY)
        oldest = generation(tick)
        gc.collect(oldest)
        if oldest:
            gc.freeze()
        if counts(tick):
            count = gc.get_freeze_count()
            if count > GROW * frozen:
                frozen = count = collect_everything()
            metrics.GC_FROZEN.set(count)


def collect_everything() -> int:
    """Unfreeze, collect every generation, freeze again: the frozen objects afterwards."""
    before = gc.get_freeze_count()
    started = time.perf_counter()
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    after = gc.get_freeze_count()
    log.info(
        "collected every generation in %.0f ms: %d frozen objects, %d after",
        (time.perf_counter() - started) * 1000,
        before,
        after,
    )
    return after


async def _watch_lag() -> None:
    """Time how late the loop runs a timer: a stall, by the collector or by anything else
    holding the loop, shows whoever scrapes /metrics."""
    loop = asyncio.get_running_loop()
    longest = RecentMax(metrics.EVENT_LOOP_LAG_MAX)
    while True:
        set_at = loop.time()
        await asyncio.sleep(LAG_EVERY)
        lag = max(0.0, loop.time() - set_at - LAG_EVERY)
        metrics.EVENT_LOOP_LAG.observe(lag)
        longest.add(lag)
