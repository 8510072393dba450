"""The garbage collector runs on a clock while an app runs (``app.collector``)."""

from __future__ import annotations

import asyncio
import gc
import time
import weakref

from app import collector
from tests.app.conftest import running, settings_for


class Node:
    """Something a reference cycle can be made of (and a weak reference can watch)."""

    other: Node | None = None


def cycle() -> weakref.ref:
    """A reference cycle nobody holds: only the cyclic collector frees it."""
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


def test_the_middle_generation_comes_every_minute_and_everything_every_ten():
    ticks = range(1, collector.MIDDLE_EVERY * collector.FULL_EVERY + 1)
    taken = [collector.generation(t) for t in ticks]
    assert collector.YOUNG_EVERY * collector.MIDDLE_EVERY == 60
    assert taken.count(2) == 1 and taken[-1] == 2
    assert [t for t, g in zip(ticks, taken) if g == 1] == [
        collector.MIDDLE_EVERY * k for k in range(1, collector.FULL_EVERY)
    ]
    assert taken.count(0) == len(taken) - collector.FULL_EVERY


async def test_cycles_are_collected_on_the_clock_with_the_automatic_collector_off(monkeypatch):
    monkeypatch.setattr(collector, "YOUNG_EVERY", 0.01)
    taken = []
    real_collect = gc.collect
    monkeypatch.setattr(collector.gc, "collect", lambda g: taken.append(g) or real_collect(g))
    async with collector.collecting():
        assert not gc.isenabled()
        watched = cycle()
        for _ in range(200):
            if watched() is None:
                break
            await asyncio.sleep(0.01)
        assert watched() is None
        assert taken and set(taken) == {0}


async def test_the_automatic_collector_is_back_once_the_last_app_stops():
    running_before = collector._apps  # another test's server may run in this process
    async with collector.collecting():
        async with collector.collecting():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert collector._apps == running_before
    assert gc.isenabled() is (running_before == 0)


def test_a_running_server_collects_on_its_clock(database_url):
    with running(settings_for(database_url)):
        assert not gc.isenabled()
        watched = cycle()
        deadline = time.monotonic() + 10 * collector.YOUNG_EVERY
        while watched() is not None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert watched() is None
