"""One client socket of this instance: its sends serialised and bounded in time, and what a
game or lobby socket was last sent. The hubs (``app.hubs``) feed them."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import orjson
from fastapi import WebSocket, WebSocketDisconnect
from starlette.websockets import WebSocketState

from app import metrics
from app.patch import make_patch
from app.services.games import Snapshot

# Events waiting for a slow socket: beyond this many, the oldest are dropped.
EVENTS_KEPT = 100


class GameFeed(Protocol):
    """What a game socket reads of its hub: the game as last known and each seat's frame."""

    game_id: str
    snap: Snapshot | None

    def frame(self, seat: int | None) -> Frame: ...


class LobbyFeed(Protocol):
    """What a lobby socket reads of its hub: the lobby, rendered once per kind of viewer."""

    lobby: Any

    def render(self, player_id: str | None, base: str) -> str: ...


class SlowClient(Exception):
    """The client did not take a message within ``WS_SEND_TIMEOUT``."""


@dataclass(frozen=True)
class Who:
    """Whom a socket was opened for: the player and the hash of the token it came with (None
    for nobody), and when that token was looked up (by the event loop's clock)."""

    player_id: str | None = None
    token_hash: str | None = None
    checked_at: float = 0.0


NOBODY = Who()


def encode(message: dict[str, Any]) -> str:
    """Compact JSON text. orjson takes a tenth of the standard encoder's time, which was a
    twentieth of a move's on the server (every whole state and patch goes through here)."""
    try:
        return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:
        # What orjson refuses (an integer beyond 64 bits; a lone surrogate, from JSON's \ud800
        # escapes in a client's ref, which UTF-8 cannot carry) goes as escaped ASCII.
        return json.dumps(message, separators=(",", ":"))


class Socket:
    """One client socket: sends are serialised and bounded in time.

    The bound is kept by ``Watchers``' watchdog, which cancels a send still waiting after
    ``timeout``: a timer per message cost more than the rest of sending it."""

    def __init__(self, ws: WebSocket, timeout: float, who: Who = NOBODY):
        self.ws = ws
        self.timeout = timeout
        self.who = who
        # The close code and reason of a socket ended by the server (its session ended): from
        # then on nothing it sends is acted on and nothing more is sent to it but the close.
        self.ended: tuple[int, str] | None = None
        self.lock = asyncio.Lock()
        self.wake = asyncio.Event()
        self.events: deque[str] = deque(maxlen=EVENTS_KEPT)
        self.sending_since: float | None = None
        self._sender: asyncio.Task | None = None
        self._too_slow = False

    def tell(self, text: str) -> None:
        self.events.append(text)
        self.wake.set()

    async def send_events(self) -> None:
        while self.events:
            await self.send_text(self.events.popleft())

    async def send_text(self, text: str) -> None:
        async with self.lock:
            if self._too_slow:
                raise SlowClient
            if self.ended:
                raise WebSocketDisconnect(self.ended[0])
            if self.ws.application_state is WebSocketState.DISCONNECTED:
                # An earlier send found the client gone (Starlette refuses any further send).
                raise WebSocketDisconnect(1006)
            self._sender = asyncio.current_task()
            self.sending_since = time.monotonic()
            try:
                await self.ws.send_text(text)
            except asyncio.CancelledError:
                if not self._too_slow:
                    raise
                self._sender.uncancel()
                raise SlowClient from None
            finally:
                self.sending_since = None

    def give_up_if_stuck(self, now: float) -> None:
        """Cancel a send that has waited longer than ``timeout`` (its task raises SlowClient)."""
        since = self.sending_since
        if since is not None and now - since > self.timeout and not self._too_slow:
            self._too_slow = True
            assert self._sender is not None
            self._sender.cancel()

    async def send(self, message: dict[str, Any]) -> None:
        await self.send_text(encode(message))

    def end(self, code: int, reason: str) -> None:
        """Stop serving the client at once; ``close`` then tells it ``code`` and ``reason``."""
        self.ended = (code, reason)
        self.wake.set()

    async def close(self) -> None:
        """Close an ended socket with its code and reason, after any send under way; once."""
        assert self.ended is not None
        async with self.lock:
            if self.ws.application_state is WebSocketState.DISCONNECTED:
                return
            # A client already gone has nothing to be told.
            with contextlib.suppress(RuntimeError, OSError, WebSocketDisconnect):
                await self.ws.close(*self.ended)


class Connection(Socket):
    """A game socket: the version and view it was last sent."""

    def __init__(self, ws: WebSocket, seat: int | None, timeout: float, who: Who = NOBODY):
        super().__init__(ws, timeout, who)
        self.seat = seat
        self.version = -1
        self.view: dict[str, Any] | None = None
        # The next thing sent is a whole state (first message, ``sync``, missed changes).
        self.resync = True

    async def write_updates(self, hub: GameFeed) -> None:
        while True:
            await self.wake.wait()
            self.wake.clear()
            await self.send_events()
            if hub.snap is None:
                continue
            frame = hub.frame(self.seat)
            resync, self.resync = self.resync, False
            text: str | None
            if resync:
                text = frame.state()
            elif hub.snap.version < self.version or self.view is None:
                continue
            else:
                text = frame.patch_from(self.version, self.view)
                if text is None:
                    continue
            self.view, self.version = frame.view, frame.version
            await self.send_text(text)
            metrics.sent(hub.game_id, self.version)


class Frame:
    """One seat's view of one version, and the messages built from it, shared by its sockets.

    ``view`` is the live view (``Snapshot.live_view``): the log's entries are not diffed. A
    whole state carries the latest entries; a patch appends the entries made since the
    version it starts from (``/log/-``), so neither grows with the game."""

    def __init__(self, snap: Snapshot, seat: int | None):
        self.snap = snap
        self.version = snap.version
        self.view = snap.live_view(seat)
        self._state: str | None = None
        self._patches: dict[int, str | None] = {}

    def state(self) -> str:
        if self._state is None:
            view = self.view | {"log": self.snap.log.latest()}
            self._state = encode({"type": "state", "version": self.version, "view": view})
        return self._state

    def patch_from(self, version: int, view: dict[str, Any]) -> str | None:
        """The patch from ``view`` (this seat's live view at ``version``); None when nothing
        changed; the whole state when the entries made since are no longer held."""
        if version not in self._patches:
            entries = self.snap.log.since(view["log_length"])
            if entries is None:
                self._patches[version] = self.state()
                return self._patches[version]
            ops = make_patch(view, self.view)
            ops += [{"op": "add", "path": "/log/-", "value": e} for e in entries]
            same = not ops and version == self.version
            message = {"type": "patch", "from": version, "version": self.version, "ops": ops}
            self._patches[version] = None if same else encode(message)
        return self._patches[version]


class LobbyConnection(Socket):
    def __init__(self, ws: WebSocket, who: Who, base: str, timeout: float):
        super().__init__(ws, timeout, who)
        self.player_id = who.player_id
        self.base = base
        self.sent: str | None = None

    async def write_updates(self, hub: LobbyFeed) -> None:
        while True:
            await self.wake.wait()
            self.wake.clear()
            await self.send_events()
            if hub.lobby is not None:
                text = hub.render(self.player_id, self.base)
                if text != self.sent:
                    self.sent = text
                    await self.send_text(text)


async def serve(reader: Callable[[], Any], writer: Callable[[], Any]) -> None:
    """Run a socket's reader and writer until either ends (the client left, or was too slow)."""
    tasks = [asyncio.create_task(reader()), asyncio.create_task(writer())]
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            exc = task.exception()
            # A client gone or too slow ends its socket; anything else is a bug to log.
            if exc is not None and not isinstance(exc, SlowClient | WebSocketDisconnect | OSError):
                raise exc
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
