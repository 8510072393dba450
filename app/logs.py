"""Logging: uvicorn's text lines by default; with ``LOG_FORMAT=json`` one JSON object per line.

Every line logged while a request or socket is served carries its ``request_id`` (the
client's ``X-Request-ID`` when it sends a sensible one, else a new one, sent back in the
response) and, once known, the ``player_id``, ``game_id`` and ``lobby_id``. Whatever the
format, tokens and passwords are cut out of every line before it is written.
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from contextvars import ContextVar
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app import metrics, socket_metrics
from app.config import Settings

# What the lines of the request being served carry; the dict is shared with the request's
# own code (``bind``), and ``scope`` gives the route's ids once it is matched.
REQUEST: ContextVar[dict[str, Any] | None] = ContextVar("request", default=None)
REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")
ACCESS = logging.getLogger("campground.access")

SECRETS = [
    (re.compile(r"((?:token|password)=)[^&\s\"';]*", re.I), r"\1[redacted]"),
    (re.compile(r"(bearer\s+)[^\s\"',]+", re.I), r"\1[redacted]"),
    (re.compile(r"(token\.)[A-Za-z0-9_-]+"), r"\1[redacted]"),
    (
        re.compile(r"""(["']?\w*(?:token|password)["']?\s*[:=]\s*["'])[^"']*""", re.I),
        r"\1[redacted]",
    ),
]


def redact(text: str, *literal: str | None) -> str:
    for pattern, replacement in SECRETS:
        text = pattern.sub(replacement, text)
    for secret in literal:
        if secret:
            text = text.replace(secret, "[redacted]")
    return text


def bind(**fields: str | None) -> None:
    """Add ``fields`` (``player_id=...``) to the lines of the request or task being served."""
    current = REQUEST.get()
    if current is None:
        REQUEST.set({k: v for k, v in fields.items() if v is not None})
    else:
        current.update({k: v for k, v in fields.items() if v is not None})


class Context(logging.Filter):
    """Puts the request's ids on the record, and takes every secret out of it."""

    def __init__(self, admin_token: str | None = None):
        super().__init__()
        self.admin_token = admin_token

    def filter(self, record: logging.LogRecord) -> bool:
        current = REQUEST.get()
        if current:
            params = current.get("scope", {}).get("path_params", {})
            for key in ("game_id", "lobby_id"):
                if key in params and isinstance(params[key], str):
                    current.setdefault(key, params[key])
            for key, value in current.items():
                if key != "scope":
                    setattr(record, key, value)
        self._redact(record)
        # uvicorn's coloured copy of the message would go out unredacted beside it.
        record.__dict__.pop("color_message", None)
        return True

    def _redact(self, record: logging.LogRecord) -> None:
        try:
            message = record.getMessage()
        except (TypeError, ValueError):
            message = str(record.msg)
        clean = redact(message, self.admin_token)
        if clean != message:
            if record.name == "uvicorn.access" and isinstance(record.args, tuple):
                # Its formatter takes the arguments apart; the path is the one that can hold one.
                record.args = tuple(
                    redact(a, self.admin_token) if isinstance(a, str) else a for a in record.args
                )
            else:
                record.msg, record.args = clean, None
        if record.exc_info:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
            # Formatters would write the traceback afresh from exc_info, unredacted.
            record.exc_info = None
        if record.exc_text:
            record.exc_text = redact(record.exc_text, self.admin_token)


class RequestContext:
    """Outermost middleware: the request id, the time the request arrived (move latency
    counts from it), every request and socket message counted and timed (``app.metrics``,
    ``app.socket_metrics``), and with JSON logs one access line per request or socket."""

    def __init__(self, app: ASGIApp, settings: Settings):
        self.app = app
        self.access = settings.LOG_FORMAT == "json"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        metrics.RECEIVED.set(started)
        given = dict(scope["headers"]).get(b"x-request-id", b"").decode("latin-1")
        request_id = given if REQUEST_ID.fullmatch(given) else uuid.uuid4().hex
        current: dict[str, Any] = {"request_id": request_id, "scope": scope}
        REQUEST.set(current)
        status: int | None = None
        # A socket's close is counted once, by whichever side closed first.
        closed = False

        async def with_id(message: Message) -> None:
            nonlocal status, closed
            kind = message["type"]
            if kind in ("http.response.start", "websocket.accept"):
                status = message.get("status", 101)
                headers = [h for h in message.get("headers", []) if h[0] != b"x-request-id"]
                message["headers"] = [*headers, (b"x-request-id", request_id.encode())]
            elif kind == "websocket.send":
                socket_metrics.message_sent(message.get("text") or "")
            elif kind == "websocket.close":
                if status is None:
                    status = 403
                if not closed:
                    closed = True
                    socket_metrics.socket_closed(message.get("code", 1000))
            await send(message)

        async def reading() -> Message:
            nonlocal closed
            message = await receive()
            if message["type"] == "websocket.disconnect" and not closed:
                closed = True
                socket_metrics.socket_closed(message.get("code", 1005))
            return message

        socket = scope["type"] == "websocket"
        raised: Exception | None = None
        try:
            await self.app(scope, reading if socket else receive, with_id)
        except Exception as exc:
            raised = exc
            raise
        finally:
            elapsed = time.perf_counter() - started
            if not socket:
                metrics.request_done(scope, status, elapsed, raised)
            elif status == 101 and not closed:
                socket_metrics.socket_closed(None)
            if self.access:
                client = scope.get("client")
                ACCESS.info(
                    "%s %s %s",
                    scope.get("method", "WebSocket"),
                    scope["path"],
                    status,
                    extra={
                        "method": scope.get("method", "WEBSOCKET"),
                        "path": scope["path"],
                        "status": status,
                        "duration_ms": round(elapsed * 1000, 1),
                        "client": client[0] if client else None,
                    },
                )
            # Tasks started while serving it keep the dict: they no longer speak for it.
            current.clear()


def config(settings: Settings) -> dict[str, Any]:
    """The ``logging.config.dictConfig`` for uvicorn and the app (``campground serve``)."""
    from uvicorn.config import LOGGING_CONFIG

    filters = {"context": {"()": "app.logs.Context", "admin_token": settings.ADMIN_TOKEN}}
    level = settings.LOG_LEVEL.upper()
    if settings.LOG_FORMAT == "json":
        formatter = {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": ["asctime", "levelname", "name", "message"],
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
            "datefmt": "%Y-%m-%dT%H:%M:%S%z",
        }
        handler = {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stderr",
            "formatter": "json",
            "filters": ["context"],
        }
        return {
            "version": 1,
            "disable_existing_loggers": False,
            "filters": filters,
            "formatters": {"json": formatter},
            "handlers": {"json": handler},
            "loggers": {
                "uvicorn": {"level": level},
                "alembic": {"level": "WARNING"},
                "sqlalchemy": {"level": "WARNING"},
                # Its debug lines name the mail's recipients.
                "aiosmtplib": {"level": "WARNING"},
                # The middleware writes one line per request, with its ids.
                "uvicorn.access": {"level": "WARNING"},
            },
            "root": {"handlers": ["json"], "level": level},
        }
    text = {**LOGGING_CONFIG, "filters": filters}
    text["formatters"] = {
        **LOGGING_CONFIG["formatters"],
        "app": {"format": "%(levelname)s %(name)s: %(message)s"},
    }
    text["handlers"] = {
        name: {**handler, "filters": ["context"]}
        for name, handler in LOGGING_CONFIG["handlers"].items()
    } | {
        "app": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stderr",
            "formatter": "app",
            "filters": ["context"],
        },
    }
    text["loggers"] = LOGGING_CONFIG["loggers"] | {
        "uvicorn": {**LOGGING_CONFIG["loggers"]["uvicorn"], "level": level},
        "alembic": {"level": "WARNING"},
        "sqlalchemy": {"level": "WARNING"},
        "aiosmtplib": {"level": "WARNING"},
    }
    text["root"] = {"handlers": ["app"], "level": level}
    return text
