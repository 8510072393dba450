"""The whole suite's order: the longest tests start first, dealt evenly over the test
processes, so that a parallel run does not end with one process busy on a long test while the
others wait; the rest keep their modules together (browser, then server, then the engine's
many short tests).

How long each test takes comes from ``tests/durations.json``, updated by a run with
``TEST_DURATIONS=write`` (``make durations`` for the whole suite); a test it does not know yet counts as long when
it is marked ``slow`` or drives a browser."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

HERE = Path(__file__).parent
DURATIONS = HERE / "durations.json"
LONGEST_FIRST = ("browser", "app")
# A test this long (seconds, setup and teardown included) starts in the first round.
LONG = 2.0


def _part(item) -> int:
    """Which part of the suite, by how long its tests take: browser, server, the rest."""
    part = Path(item.fspath).relative_to(HERE).parts[0]
    return LONGEST_FIRST.index(part) if part in LONGEST_FIRST else len(LONGEST_FIRST)


def _recorded() -> dict[str, float]:
    try:
        return json.loads(DURATIONS.read_text())
    except (OSError, ValueError):
        return {}


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    took = _recorded()

    def is_long(item) -> bool:
        if item.nodeid in took:
            return took[item.nodeid] >= LONG
        return item.get_closest_marker("slow") is not None or _part(item) == 0

    # Longest first; unknown long ones after the known, as the slow ones usually are.
    long = sorted(
        (item for item in items if is_long(item)), key=lambda item: -took.get(item.nodeid, LONG)
    )
    rest = sorted((item for item in items if not is_long(item)), key=_part)
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    if workers < 2:
        items[:] = long + rest
        return
    # xdist's load scheduling first hands each process a run of this many consecutive tests
    # (a quarter of its share), then one test at a time to whichever is free. Each first run
    # starts with its share of the long tests, dealt in turn from the longest; the rest keep
    # their order, so that a module's server tests mostly share one process's fixtures.
    first_run = max(2, len(items) // workers // 4)
    ordered = []
    for k in range(workers):
        share = long[k::workers]
        take = max(0, first_run - len(share))
        ordered += share + rest[:take]
        rest = rest[take:]
    items[:] = ordered + rest


# Recording: the controller (or a run without xdist) adds up each test's phases.
_took: dict[str, float] = {}


def pytest_runtest_logreport(report):
    if os.environ.get("TEST_DURATIONS") == "write":
        _took[report.nodeid] = _took.get(report.nodeid, 0.0) + report.duration


def pytest_sessionfinish(session):
    if os.environ.get("TEST_DURATIONS") != "write" or not _took:
        return
    if hasattr(session.config, "workerinput"):
        return  # a test process: the controller writes the whole run's
    # Merged into what the file holds, so that a run of a few modules updates their tests.
    took = _recorded() | {k: round(v, 2) for k, v in _took.items()}
    DURATIONS.write_text(json.dumps(dict(sorted(took.items())), indent=0) + "\n")
