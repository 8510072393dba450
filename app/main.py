"""The FastAPI application."""

from __future__ import annotations

import functools
import gc
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib.metadata import version
from typing import Any

from fastapi import FastAPI, HTTPException, Request, Response
from fastapi.encoders import jsonable_encoder
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException

from app import guard, installable, logs, metrics, openapi, pages, protocol, static_files
from app.api.routes import (
    accounts,
    admin,
    admin_players,
    games,
    health,
    lobbies,
    moderation,
    players,
    profiles,
    queue,
    scrape,
)
from app.collector import collecting
from app.config import Settings
from app.context import Context
from app.db import FAILURES, RETRY_AFTER, UNAVAILABLE, note_unavailable, unavailable
from app.services.errors import Problem
from app.ws import router as ws_router
from app.notices import routes as notices
from engine.registry import GAMES


class EscapedJSONResponse(JSONResponse):
    """JSON with everything outside ASCII escaped: validation errors quote the request, and the
    lone surrogates that JSON's \\ud800 escapes give cannot be encoded as UTF-8."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, separators=(",", ":")).encode()


@functools.cache
def _freeze_startup() -> None:
    """Once per process: what exists when the first app starts (modules, card tables) lives
    as long as the process, so no collection need walk it again."""
    gc.freeze()


PAGES = [
    "/",
    "/lobbies/{lobby_id}",
    "/join/{invite_code}",
    "/games/{game_id}",
    "/account",
    "/device",
    "/notices",
]


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        ctx = Context(settings)
        app.state.ctx = ctx
        await ctx.start()
        _freeze_startup()
        try:
            async with collecting():
                yield
        finally:
            await ctx.close()
            metrics.process_ended()

    app = openapi.App(
        title="Campground",
        summary="Camp-themed tabletop games, online.",
        description="Guests create lobbies, invite friends or seat bots, and play over HTTP or a "
        "WebSocket that pushes each player's view as JSON Patch. See docs/api.md.",
        version=version("campground"),
        lifespan=lifespan,
        generate_unique_id_function=openapi.operation_id,
    )
    app.state.settings = settings

    @app.exception_handler(Problem)
    async def problem(_request: Request, exc: Problem) -> JSONResponse:
        headers = {"Retry-After": str(exc.retry_after)} if exc.retry_after else None
        return JSONResponse({"detail": exc.detail}, status_code=exc.status, headers=headers)

    @app.exception_handler(PoolTimeout)
    async def busy(_request: Request, _exc: PoolTimeout) -> JSONResponse:
        # Every database connection stayed busy for DB_POOL_TIMEOUT: overloaded, not broken.
        detail = "The server is busy; try again shortly."
        return JSONResponse({"detail": detail}, status_code=503, headers={"Retry-After": "1"})

    async def away(request: Request, exc: Exception) -> JSONResponse:
        if not unavailable(exc):
            raise exc
        note_unavailable(exc, f"serving {request.method} {request.url.path}")
        headers = {"Retry-After": str(RETRY_AFTER)}
        return JSONResponse({"detail": UNAVAILABLE}, status_code=503, headers=headers)

    for kind in FAILURES:
        app.add_exception_handler(kind, away)

    @app.exception_handler(Exception)
    async def failed(_request: Request, _exc: Exception) -> JSONResponse:
        # Starlette logs the exception after this answer; uvicorn then closes the connection,
        # so the answer says so and a client does not send its next request down it.
        detail = "Something went wrong on the server; it has been logged."
        return JSONResponse({"detail": detail}, status_code=500, headers={"Connection": "close"})

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if exc.status_code == 404:
            return pages.not_found(request, exc.detail)
        return await http_exception_handler(request, exc)

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return EscapedJSONResponse({"detail": jsonable_encoder(exc.errors())}, status_code=422)

    guard.install(app, settings)
    # Added last, so it runs first: every line of the request carries its id.
    app.add_middleware(logs.RequestContext, settings=settings)
    for router in (
        players.router,
        games.router,
        lobbies.router,
        admin.router,
        moderation.router,
        health.router,
        ws_router,
        scrape.router,
        pages.router,
        accounts.router,
        profiles.router,
        profiles.pages,
        admin_players.router,
        queue.router,
        installable.router,
        notices.router,
    ):
        app.include_router(router)

    @functools.cache
    def asyncapi() -> dict[str, Any]:
        return protocol.document(list(GAMES.values()), app.version)

    @app.get("/asyncapi.json", include_in_schema=False)
    async def asyncapi_json(request: Request) -> JSONResponse:
        """The sockets' AsyncAPI 3 document, as /openapi.json is the HTTP API's: made once,
        with the server the request came to."""
        server = {"host": request.url.netloc, "protocol": "ws"}
        return JSONResponse(asyncapi() | {"servers": {"campground": server}})

    index = settings.STATIC_DIR / "index.html"

    @functools.cache
    def client_version() -> str:
        return static_files.version(settings.STATIC_DIR)

    @functools.cache
    def index_html() -> str:
        return static_files.index_page(settings.STATIC_DIR, client_version())

    async def page() -> HTMLResponse:
        if not index.is_file():
            raise HTTPException(404, "The browser client is not installed (no static/index.html).")
        return HTMLResponse(index_html(), headers={"Cache-Control": static_files.REVALIDATE})

    for path in PAGES:
        app.add_api_route(path, page, methods=["GET"], include_in_schema=False)
    if settings.STATIC_DIR.is_dir():
        files = static_files.ClientFiles(
            directory=settings.STATIC_DIR, client_version=client_version()
        )
        app.mount("/static", files, name="static")
    return app


app = create_app()
