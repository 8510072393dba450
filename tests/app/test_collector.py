"""The garbage collector runs on a clock while an app runs (``app.collector``)."""

from __future__ import annotations

import asyncio
import gc
import time
import weakref

from app import collector
from tests.app.conftest import running, settings_for
from tests.app.test_metrics import scrape, value


class Node:
    """Something a reference cycle can be made of (and a weak reference can watch)."""

    other: Node | None = None


def cycle() -> weakref.ref:
    """A reference cycle nobody holds: only the cyclic collector frees it."""
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


def test_the_middle_generation_comes_every_few_young_ones():
    taken = [collector.generation(t) for t in range(1, 4 * collector.MIDDLE_EVERY + 1)]
    assert [t for t, g in enumerate(taken, 1) if g == 1] == [
        collector.MIDDLE_EVERY * k for k in range(1, 5)
    ]
    assert set(taken) == {0, 1}


def test_the_frozen_objects_are_counted_after_every_few_middle_collections():
    every = collector.MIDDLE_EVERY * collector.COUNT_EVERY
    counted = [t for t in range(1, 3 * every + 1) if collector.counts(t)]
    assert counted == [every, 2 * every, 3 * every]
    assert {collector.generation(t) for t in counted} == {1}


async def test_frozen_objects_grown_past_the_bound_are_collected_once_counted(monkeypatch):
    monkeypatch.setattr(collector, "YOUNG_EVERY", 0.001)
    monkeypatch.setattr(collector, "COUNT_EVERY", 1)
    monkeypatch.setattr(collector, "GROW", 0.0)
    everything = []
    monkeypatch.setattr(collector, "collect_everything", lambda: everything.append(1) or 7)
    async with collector.collecting():
        for _ in range(500):
            if everything:
                break
            await asyncio.sleep(0.01)
    assert everything
    assert collector.metrics.GC_FROZEN._value.get() == 7


async def test_what_outlives_the_middle_generation_is_frozen(monkeypatch):
    monkeypatch.setattr(collector, "YOUNG_EVERY", 0.01)
    async with collector.collecting():
        kept = [Node()]
        for _ in range(500):
            await asyncio.sleep(0.01)
            if not any(o is kept for o in gc.get_objects()):
                break
        # Still alive, out of every generation a collection walks.
        assert gc.is_tracked(kept) and not any(o is kept for o in gc.get_objects())
        assert gc.get_freeze_count() > 0


def test_a_cycle_that_died_frozen_is_freed_by_the_collection_of_everything():
    watched = cycle()
    gc.freeze()
    gc.collect()
    assert watched() is not None
    collector.collect_everything()
    assert watched() is None


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
        assert taken and taken[0] == 0


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


def test_a_running_app_collects_on_its_clock_and_reports_pauses_and_lag(sqlite_template, tmp_path):
    path = tmp_path / "campground.db"
    path.write_bytes(open(sqlite_template, "rb").read())
    with running(settings_for(f"sqlite+aiosqlite:///{path}")) as live:
        assert not gc.isenabled()
        assert gc.get_freeze_count() > 0
        assert collector._timed in gc.callbacks
        for _ in range(400):
            figures = scrape(live.client())
            young = value(figures, "campground_gc_pause_seconds_count", generation="0")
            lags = value(figures, "campground_event_loop_lag_seconds_count")
            if young and lags:
                break
            time.sleep(0.025)
        else:
            raise AssertionError("no collection or lag was reported")
        names = {name for name, _ in figures}
        assert {
            "campground_event_loop_lag_max_seconds",
            "campground_gc_pause_max_seconds",
            "campground_gc_pause_seconds_bucket",
        } <= names
