"""Route dependencies and endpoints."""

from __future__ import annotations

import inspect

from fastapi.routing import APIRoute, APIWebSocketRoute

from app.main import create_app
from tests.app.conftest import settings_for


def _runs_on_the_loop(call) -> bool:
    target = call if inspect.isfunction(call) or inspect.ismethod(call) else call.__call__
    return inspect.iscoroutinefunction(target) or inspect.isasyncgenfunction(target)


def _calls(dependant):
    yield dependant.call
    for sub in dependant.dependencies:
        yield from _calls(sub)


def _routes(routes):
    for route in routes:
        included = getattr(route, "original_router", None)  # an included router
        if included is not None:
            yield from _routes(included.routes)
        elif isinstance(route, APIRoute | APIWebSocketRoute):
            yield route


def test_no_route_hands_its_work_to_the_thread_pool(tmp_path):
    # FastAPI runs a plain function (an endpoint or a dependency) in its thread pool: a hand-off
    # to a thread and back on every request, for work that never blocks.
    app = create_app(settings_for(f"sqlite+aiosqlite:///{tmp_path}/unused.db"))
    routes = list(_routes(app.routes))
    assert len(routes) > 20
    in_threads = {
        f"{route.path}: {getattr(call, '__qualname__', call)}"
        for route in routes
        for call in _calls(route.dependant)
        if not _runs_on_the_loop(call)
    }
    assert not in_threads
