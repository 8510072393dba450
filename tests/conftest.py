import pytest


# Slow tests first: the test processes take tests one at a time from the front, so the long
# ones are shared out early and the run does not end waiting on one of them.
@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
