from collections import Counter

import pytest


# `make test` runs with `--dist loadgroup --no-loadscope-reorder`: a test process takes one
# unit at a time from the front. Each slow test is a unit of its own, and they come first, so
# they are shared out early and the run does not end waiting on one of them; the other tests
# of a module are one unit, so a module's servers and browser start once, in one process.
# Bigger modules go before smaller ones for the same reason.
def _module(item) -> str:
    return item.nodeid.split("::")[0]


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    for item in items:
        if item.get_closest_marker("slow") is None:
            item.add_marker(pytest.mark.xdist_group(_module(item)))
    sizes = Counter(_module(item) for item in items)
    first = {}
    for index, item in enumerate(items):
        first.setdefault(_module(item), index)
    items.sort(key=lambda item: (item.get_closest_marker("slow") is None,
                                 -sizes[_module(item)], first[_module(item)]))
