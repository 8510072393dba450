"""The whole suite's order: the tests marked ``slow`` start first, then the browser tests,
then the server tests, and last the engine's many short ones, the long ones spread evenly
over the test processes, so that a parallel run does not end with one process busy on long
tests while the others wait."""

import os
from pathlib import Path

import pytest

HERE = Path(__file__).parent
LONGEST_FIRST = ("browser", "app")


def _part(item) -> int:
    """Which part of the suite, by how long its tests take: browser, server, the rest."""
    part = Path(item.fspath).relative_to(HERE).parts[0]
    return LONGEST_FIRST.index(part) if part in LONGEST_FIRST else len(LONGEST_FIRST)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    slow = [item for item in items if item.get_closest_marker("slow")]
    rest = sorted((item for item in items if not item.get_closest_marker("slow")), key=_part)
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    if workers < 2:
        items[:] = slow + rest
        return
    # xdist's load scheduling first hands each process a run of this many consecutive tests
    # (a quarter of its share). Each run starts with its share of the slow and browser tests,
    # dealt in turn; the rest keep their order, so that a module's server tests mostly share
    # one process's fixtures.
    first_run = max(2, len(items) // workers // 4)
    browser = sum(1 for item in rest if _part(item) == 0)
    long, rest = slow + rest[:browser], rest[browser:]
    ordered = []
    for k in range(workers):
        share = long[k::workers]
        take = max(0, first_run - len(share))
        ordered += share + rest[:take]
        rest = rest[take:]
    items[:] = ordered + rest
