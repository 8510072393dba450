"""Between the network and the app: size caps on bodies and socket messages, the same-origin
rule, security headers on pages, admission of sockets, the Host invite links are built from,
forwarded headers from trusted proxies only, and tokens kept out of the logs."""

from __future__ import annotations

import json
import logging
import re
import uuid
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from starlette.datastructures import Headers
from starlette.requests import HTTPConnection, cookie_parser
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from app import socket_metrics
from app.config import Settings
from app.limits import RateLimited, TooManySockets, token_key
from app.services.errors import Problem
from app.services.players import COOKIE

UNSAFE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}
# Deeper JSON than any move or option needs; Python's parser gives up near 1,000 anyway.
MAX_DEPTH = 32
# The scripts, styles and images are the site's own; sockets go back to the same host.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
EVERY_RESPONSE = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
]
# A browser script that cannot set headers offers these subprotocols: ["campground", "token.<t>"].
SOCKET_PROTOCOL = "campground"
TOKEN_PROTOCOL = "token."
CLOSE_TOO_MANY = 4429
# Seconds to wait before opening a socket again after a refusal that names no wait of its own
# (too many open sockets, a full server): the page waits at least its backoff anyway.
TRY_AGAIN_SECONDS = 2
# A close frame's reason is at most 123 bytes.
REASON_BYTES = 123
LOOPBACK = {"127.0.0.1", "::1", "localhost"}


def _names(setting: str) -> list[str]:
    return [entry.strip().lower() for entry in setting.split(",") if entry.strip()]


def _host_port(host: str) -> tuple[str, int | None] | None:
    try:
        parts = urlsplit("//" + host)
        return (parts.hostname or "", parts.port) if parts.hostname else None
    except ValueError:
        return None


def expected_host(settings: Settings, conn: HTTPConnection) -> bool:
    """Whether the request's Host is one invite links may point to: one of ALLOWED_HOSTS (an
    entry without a port matches any), else the address the connection came in on."""
    given = _host_port(conn.headers.get("host", ""))
    if given is None:
        return False
    name, port = given
    allowed = [_host_port(entry) for entry in _names(settings.ALLOWED_HOSTS)]
    if allowed:
        return any(a is not None and a[0] == name and a[1] in (None, port) for a in allowed)
    server = conn.scope.get("server")
    if not server or server[0] is None:
        return False
    default_port = 443 if conn.url.scheme in ("https", "wss") else 80
    if (port or default_port) != server[1]:
        return False
    return name == server[0].lower() or (server[0] in LOOPBACK and name in LOOPBACK)


def base_url(settings: Settings, conn: HTTPConnection) -> str:
    """Where invite links point: PUBLIC_URL, else the address this request came to, if that is
    the server's own (a forged Host must not make links to another site)."""
    if settings.PUBLIC_URL:
        return settings.PUBLIC_URL.rstrip("/")
    if not expected_host(settings, conn):
        raise Problem(
            400,
            "This server builds invite links only for its own address; its operator sets "
            "PUBLIC_URL or ALLOWED_HOSTS.",
        )
    scheme = "https" if conn.url.scheme in ("https", "wss") else "http"
    return f"{scheme}://{conn.headers['host']}"


def served_over_https(settings: Settings, conn: HTTPConnection) -> bool:
    if settings.PUBLIC_URL:
        return settings.PUBLIC_URL.startswith("https:")
    return conn.url.scheme in ("https", "wss")


def same_origin(settings: Settings, headers: Headers) -> bool:
    """Whether a browser sent this from the site's own pages. Requests without ``Origin`` and
    ``Sec-Fetch-Site`` come from scripts, not from another site's page, and pass."""
    origin = headers.get("origin")
    if origin is None:
        return headers.get("sec-fetch-site") in (None, "same-origin", "none")
    if settings.PUBLIC_URL:
        site = urlsplit(settings.PUBLIC_URL)
        return origin.lower() == f"{site.scheme}://{site.netloc}".lower()
    # Without PUBLIC_URL the scheme may be rewritten by a proxy: compare host and port.
    return urlsplit(origin).netloc.lower() == headers.get("host", "").lower()


def socket_token(conn: HTTPConnection) -> str | None:
    """A socket's token: the Authorization header, a ``token.`` subprotocol, ``?token=``
    (kept for old scripts; redacted from the logs) or the cookie."""
    authorization = conn.headers.get("authorization", "")
    if authorization[:7].lower() == "bearer ":
        return authorization[7:].strip()
    for protocol in conn.scope.get("subprotocols", []):
        if protocol.startswith(TOKEN_PROTOCOL):
            return protocol[len(TOKEN_PROTOCOL) :]
    return conn.query_params.get("token") or conn.cookies.get(COOKIE)


def client_address(conn: HTTPConnection) -> str:
    return conn.client.host if conn.client else "unknown"


def later(message: str, retry_after: int) -> str:
    """The reason of a 4429 or 1013 close: JSON, ``{"retry_after": seconds, "message": text}``,
    so a client reads the wait as a number; the message cut to fit a close frame."""
    while True:
        reason = json.dumps({"retry_after": retry_after, "message": message}, separators=(",", ":"))
        if len(reason.encode()) <= REASON_BYTES:
            return reason
        message = message[:-2] + "…"


def _error(code: str, message: str, ref: Any = None, **extra: Any) -> str:
    return json.dumps({"type": "error", "code": code, "message": message, "ref": ref} | extra)


PARSED = "campground.json"
"""The key of an admitted socket message's parsed JSON, beside its text."""


def _depth(value: Any) -> int:
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return deepest


class SocketClosed(OSError):
    """A send to a socket the server has closed on its own: an ``OSError``, which Starlette
    turns into a disconnect, as for a client gone."""


def _may_be_cross_site(headers: Headers) -> bool:
    """Whether a request must come from the site's own pages: any that carries the cookie (a
    browser sends it whatever else the page adds, so an ``Authorization`` header proves
    nothing), and any without a bearer token. A script's bearer token alone passes."""
    return COOKIE in cookie_parser(headers.get("cookie", "")) or "authorization" not in headers


class Guard:
    """Pure ASGI middleware, so a body is refused before anything reads or parses it."""

    def __init__(self, app: ASGIApp, settings: Settings):
        self.app = app
        self.settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self._http(scope, receive, send)
        elif scope["type"] == "websocket":
            await self._socket(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = Headers(scope=scope)
        limit = self.settings.MAX_BODY_BYTES
        page = scope["path"] not in ("/docs", "/redoc")

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                extra = list(EVERY_RESPONSE)
                content_type = Headers(raw=message.get("headers", [])).get("content-type", "")
                if page and content_type.startswith("text/html"):
                    extra.append((b"content-security-policy", CSP.encode()))
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        async def refuse(status: int, detail: str) -> None:
            await JSONResponse({"detail": detail}, status)(scope, receive, with_headers)

        too_large = f"Request bodies are at most {limit} bytes."
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > limit):
            return await refuse(413, too_large)
        if (
            scope["method"] in UNSAFE_METHODS
            and _may_be_cross_site(headers)
            and not same_origin(self.settings, headers)
        ):
            return await refuse(
                403,
                "Cross-site request refused: use this site's own pages, or send a bearer token.",
            )
        # Read the (small) body here, so one sent without Content-Length is capped too.
        body = b""
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return
            body += message.get("body", b"")
            if len(body) > limit:
                return await refuse(413, too_large)
            if not message.get("more_body", False):
                break
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, with_headers)

    async def _socket(self, scope: Scope, receive: Receive, send: Send) -> None:
        conn = HTTPConnection(scope)
        if not same_origin(self.settings, conn.headers):
            # Closing before the handshake answers 403.
            await send({"type": "websocket.close", "code": 1008})
            return
        limits = scope["app"].state.ctx.limits
        address = client_address(conn)
        token = socket_token(conn)
        # Keyed by the token's hash: no database look-up before admission. A socket without
        # a token counts against itself and the address's anonymous share, never against
        # the players' part of the address (``app.limits``).
        player = token_key(token) if token else None
        if player is not None:
            keys = [f"token:{player}", f"address:{address}"]
        else:
            keys = [f"socket:{uuid.uuid4().hex}", f"anonymous:{address}"]
        try:
            # Its cap first: a connection refused for want of a place spends no rate.
            held = await limits.hold_socket(address, player)
            # A player this instance served lately coming back (a Wi-Fi blip, a reload) is
            # not a new client of the address: only the player's own rate counts it. A new
            # anonymous socket has no rate of its own yet: its share counts it.
            if player is None:
                counted = keys[1:]
            elif player in limits.known:
                counted = keys[:1]
            else:
                counted = keys
            try:
                await limits.sockets.spend(*counted)
            except RateLimited:
                await limits.release_socket(held)
                raise
        except (RateLimited, TooManySockets) as exc:
            await receive()
            await send({"type": "websocket.accept"})
            wait = exc.retry_after if isinstance(exc, RateLimited) else TRY_AGAIN_SECONDS
            reason = later(exc.detail, wait)
            await send({"type": "websocket.close", "code": CLOSE_TOO_MANY, "reason": reason})
            return

        async def checked() -> Message:
            while True:
                message = await receive()
                if message["type"] != "websocket.receive":
                    return message
                refusal = await self._refusal(message, limits, keys)
                socket_metrics.message_received(message.get(PARSED))
                if refusal is None:
                    return message
                await send({"type": "websocket.send", "text": refusal})

        accepted = closed_by_app = False

        async def accepting(message: Message) -> None:
            nonlocal accepted, closed_by_app
            offered = scope.get("subprotocols", [])
            if message["type"] == "websocket.accept" and SOCKET_PROTOCOL in offered:
                message["subprotocol"] = message.get("subprotocol") or SOCKET_PROTOCOL
            try:
                await send(message)
            except RuntimeError:
                if not accepted or closed_by_app:
                    raise
                # The server closed the socket itself (1009, a frame over ws_max_size) just
                # before: nothing was written, and the app is told the client is gone.
                raise SocketClosed from None
            accepted = accepted or message["type"] == "websocket.accept"
            closed_by_app = closed_by_app or message["type"] == "websocket.close"

        try:
            await self.app(scope, checked, accepting)
        finally:
            await limits.release_socket(held)

    async def _refusal(self, message: Message, limits: Any, keys: list[str]) -> str | None:
        """The error that answers a message the app never sees, or None to pass it on."""
        text = message.get("text")
        if text is None:
            return _error("bad_request", "Messages are JSON text, not binary.")
        limit = self.settings.MAX_MESSAGE_BYTES
        if len(text) > limit or len(text.encode("utf-8", "surrogatepass")) > limit:
            return _error("bad_request", f"Messages are at most {limit} bytes.")
        too_deep = _error("bad_request", f"Messages nest at most {MAX_DEPTH} levels deep.")
        try:
            data = json.loads(text)
        except RecursionError:
            return too_deep
        except ValueError:
            return None  # the app answers what is not JSON
        if not isinstance(data, dict):
            return _error("bad_request", "A message is a JSON object.")
        if _depth(data) > MAX_DEPTH:
            return too_deep
        # Parsed once: the app reads it from the message (``app.ws``).
        message[PARSED] = data
        ref = data.get("ref")
        if ref is not None and len(json.dumps(ref)) > self.settings.MAX_REF_CHARS:
            return _error(
                "bad_request", f"A ref is at most {self.settings.MAX_REF_CHARS} characters of JSON."
            )
        try:
            await limits.moves.spend(*keys)
        except RateLimited as exc:
            return _error("rate_limited", exc.detail, ref, retry_after=exc.retry_after)
        return None


TOKEN_IN_URL = re.compile(r"([?&]token=)[^&\s\"']*")


class RedactTokens(logging.Filter):
    """Access and WebSocket log lines show ``?token=[redacted]``, never the token."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(
                TOKEN_IN_URL.sub(r"\1[redacted]", a) if isinstance(a, str) else a
                for a in record.args
            )
        if isinstance(record.msg, str):
            record.msg = TOKEN_IN_URL.sub(r"\1[redacted]", record.msg)
        return True


def server_options(settings: Settings) -> dict[str, Any]:
    """uvicorn options that go with these settings (``campground serve`` and the tests): the
    app handles forwarded headers itself, and frames far beyond MAX_MESSAGE_BYTES are never
    buffered (the socket is closed with 1009)."""
    return {"proxy_headers": False, "ws_max_size": 16 * settings.MAX_MESSAGE_BYTES}


def install(app: FastAPI, settings: Settings) -> None:
    @app.exception_handler(RateLimited)
    async def rate_limited(_request: Request, exc: RateLimited) -> JSONResponse:
        headers = {"Retry-After": str(exc.retry_after)}
        return JSONResponse({"detail": exc.detail}, status_code=429, headers=headers)

    app.add_middleware(Guard, settings=settings)
    # Added last, so it runs first: the guard sees the client behind the proxy.
    proxies = _names(settings.TRUSTED_PROXIES)
    if proxies:
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=proxies)
    for name in ("uvicorn.access", "uvicorn.error"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())
