"""The whole suite: tests marked ``slow`` are handed out first, so that the parallel run does
not end with one process busy on a long test while the others wait."""

import pytest


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
