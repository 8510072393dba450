"""What FastAPI does not write into OpenAPI by itself, for every route, those added later too.

- The refusals that come from between the network and the routes, on every operation that can
  give them: 403 for a cross-site request and 413 for a body too large (the guard, on every
  call that changes something), 429 beyond a rate (the routes with a rate limit), 503 when no
  database connection comes free in time or the database is away (every route that uses one).
- Operation ids ``{tag}-{name}`` (``games-make_move``), short and stable: a generated client
  names its functions after them.
- Security: a call that also works anonymously says so (``{}`` among its requirements).
- The typed games (``app.shapes``): each game's view, moves, options and outcome, for the
  games registered when the document is built."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from fastapi import FastAPI
from fastapi.dependencies.models import Dependant
from fastapi.openapi.utils import get_openapi
from fastapi.routing import APIRoute, iter_route_contexts

from app import shapes
from app.api.deps import get_context, get_current_player, get_optional_player
from engine.registry import GAMES

ERROR = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}
RETRY_AFTER = {"Retry-After": {"description": "seconds to wait", "schema": {"type": "integer"}}}
CROSS_SITE = (
    "cross-site request refused: a browser page of another site, with the cookie or without "
    "a bearer token"
)
REFUSALS: dict[str, dict[str, Any]] = {
    "413": {"description": "the body is over MAX_BODY_BYTES", "content": ERROR},
    "429": {
        "description": "too many calls: see Retry-After",
        "content": ERROR,
        "headers": RETRY_AFTER,
    },
    "503": {
        "description": "busy or away: no database connection came free within "
        "DB_POOL_TIMEOUT, or the database is unavailable (down, restarting); try again "
        "after Retry-After",
        "content": ERROR,
        "headers": RETRY_AFTER,
    },
}
CHANGES = {"post", "put", "patch", "delete"}


def _calls(dependant: Dependant) -> Iterator[Callable[..., Any]]:
    for sub in dependant.dependencies:
        if sub.call is not None:
            yield sub.call
        yield from _calls(sub)


def refusals(route: Any, method: str) -> list[str]:
    """The status codes ``route`` can answer before or around its own work."""
    calls = list(_calls(route.dependant))
    codes = ["403", "413"] if method in CHANGES else []
    if any(getattr(call, "__qualname__", "").startswith("rate_limit.") for call in calls):
        codes.append("429")
    if get_context in calls:
        codes.append("503")
    return codes


def _add(operation: dict[str, Any], code: str) -> None:
    responses = operation.setdefault("responses", {})
    if code == "403":
        given = responses.get("403")
        if given is None:
            responses["403"] = {"description": CROSS_SITE, "content": ERROR}
        elif CROSS_SITE not in given["description"]:
            given["description"] = f"{given['description']}; or {CROSS_SITE}"
    elif code in responses:
        if "headers" in REFUSALS[code]:
            responses[code].setdefault("headers", REFUSALS[code]["headers"])
    else:
        responses[code] = dict(REFUSALS[code])


def operation_id(route: APIRoute) -> str:
    return f"{route.tags[0]}-{route.name}" if route.tags else route.name


def _anonymous(route: Any) -> bool:
    """The route finds out who calls it, and works for nobody in particular too."""
    calls = list(_calls(route.dependant))
    return get_optional_player in calls and get_current_player not in calls


def _add_components(schema: dict[str, Any]) -> dict[str, Any]:
    typed = shapes.components(list(GAMES.values()))
    schema = shapes.resolve(schema, typed)
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    for name, definition in typed.items():
        if components.setdefault(name, definition) != definition:
            raise ValueError(f"Two schemas are named {name}")
    return schema


class App(FastAPI):
    """FastAPI, whose OpenAPI document has all of the above, built when first asked for."""

    def openapi(self) -> dict[str, Any]:
        if self.openapi_schema is None:
            schema = get_openapi(
                title=self.title,
                version=self.version,
                summary=self.summary,
                description=self.description,
                routes=self.routes,
            )
            for route in iter_route_contexts(self.routes):
                if not isinstance(route.original_route, APIRoute) or not route.include_in_schema:
                    continue
                for method in route.methods or ():
                    operation = schema["paths"][route.path_format].get(method.lower())
                    if operation is None:
                        continue
                    for code in refusals(route, method.lower()):
                        _add(operation, code)
                    if _anonymous(route):
                        operation["security"] = [*operation.get("security", []), {}]
            self.openapi_schema = _add_components(schema)
        return self.openapi_schema
