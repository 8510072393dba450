"""Live sockets of this instance, grouped by game and by lobby.

A hub per watched game holds the game as this instance last knew it. A move committed here is
handed to the hub as it is (no reload); a notice from another instance makes the hub load the
game once, for all its sockets. Every distinct view (one per seat; every spectator shares
one), its whole-state message and its patch from a given version are computed once per
version and the same text goes to every socket that needs it. A lobby hub loads its lobby
once per change and renders it once per distinct viewer.

Each socket (``app.sockets``) has one writer task that sends the newest thing it has not
sent yet: a slow client skips versions (its next patch spans them) instead of queueing them,
and a client that takes longer than ``WS_SEND_TIMEOUT`` to take one message is dropped, so
no socket can grow the server's memory or hold anything up. The instance's hubs, the caps on
its sockets and the watchdog that drops them are kept by ``app.watchers``.
"""

from __future__ import annotations

import asyncio
import contextvars
import dataclasses
import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import TypeVar

import orjson

from app.bus import RESYNC, Bus, game_channel, lobby_channel
from app.db import note_unavailable, unavailable
from app.services import lobby_rows
from app.services.commit import Committed
from app.services.errors import Problem
from app.services.games import Snapshot
from app.sockets import Connection, Frame, LobbyConnection, encode

log = logging.getLogger(__name__)
Conn = TypeVar("Conn", Connection, LobbyConnection)

# A notice "{version}" tells of a committed move; "{version}!" asks for a reload whatever the
# version (a game started or aborted).
RELOAD = "!"
# "event:{instance}:{json}" carries a message for every socket (a chat line, a rematch); the
# instance that sent it has handed it to its own sockets already.
EVENT = "event:"


def event_notice(instance_id: str, text: str) -> str:
    return f"{EVENT}{instance_id}:{text}"


def foreign_event(message: str, instance_id: str) -> str | None:
    """The event text of a notice from another instance; None for any other notice."""
    if not message.startswith(EVENT):
        return None
    sender, _, text = message.removeprefix(EVENT).partition(":")
    return text if sender != instance_id else ""


async def ended_quietly(run: Awaitable[None]) -> None:
    """A hub's work until it is cancelled, its last socket gone. A task that ends cancelled
    keeps its CancelledError, whose traceback holds the hub's frame: hub, task and error
    would be a cycle, and the hub's game and views garbage that only the collector's full
    pass frees. Ended this way the task keeps nothing, and reference counting frees the hub."""
    try:
        await run
    except asyncio.CancelledError:
        pass


@dataclasses.dataclass(frozen=True)
class Sources:
    """What the hubs need of the app: where changes are heard, where games and lobbies are
    read, and the caps on sockets."""

    bus: Bus
    instance_id: str
    load_game: Callable[[str], Awaitable[Snapshot]]
    load_lobby: Callable[[str], Awaitable[lobby_rows.LobbySeats]]
    send_timeout: float
    max_per_instance: int
    max_per_game: int


def is_chat(text: str) -> bool:
    """Whether an event's text is a chat line (a player's, or a moderator's notice)."""
    return orjson.loads(text).get("type") == "chat"


def tell_each(
    connections: Iterable[Conn], text: str, reads_chat: Callable[[Conn], bool] | None
) -> None:
    """Pass an event to every connection; a chat line only to those that may read the chat
    (``reads_chat``; None: all of them, at a public table)."""
    if reads_chat is not None and is_chat(text):
        connections = [conn for conn in connections if reads_chat(conn)]
    for conn in connections:
        conn.tell(text)


class GameHub:
    """This instance's sockets on one game, and the game as last known."""

    def __init__(self, sources: Sources, game_id: str):
        self.sources = sources
        self.game_id = game_id
        self.connections: set[Connection] = set()
        self.waiting = 0
        self.snap: Snapshot | None = None
        self.missing = False
        self.loaded = asyncio.Event()
        self._frames: dict[int | None, Frame] = {}
        self._kick = asyncio.Event()
        self._resync = False
        # A context of its own: the request that happened to start it is not its.
        self.task = asyncio.create_task(
            ended_quietly(self._run()), name=f"game hub {game_id}", context=contextvars.Context()
        )

    def frame(self, seat: int | None) -> Frame:
        frame = self._frames.get(seat)
        if frame is None:
            assert self.snap is not None
            frame = self._frames[seat] = Frame(self.snap, seat)
        return frame

    def reload(self, resync: bool = False) -> None:
        """Load the game again soon (one load, however many ask meanwhile)."""
        self._resync |= resync
        self._kick.set()

    def update(self, snap: Snapshot, resync: bool = False) -> None:
        """``snap`` is the game now, unless this hub already knows a newer version."""
        current = self.snap
        if (
            current is None
            or snap.version > current.version
            # Not a move, but the table changed: an abort, a concession, a rename, a seat back.
            or (snap.version == current.version and snap.table() != current.table())
        ):
            self.snap, self._frames = snap, {}
        elif not resync:
            return
        for conn in self.connections:
            conn.resync |= resync
            conn.wake.set()
        self.loaded.set()

    def committed(self, done: Committed) -> None:
        """A move committed by this instance: the new state, without a reload (unless this
        hub missed a move before it, whose log entries it then reads)."""
        if self.snap is not None and done.version > self.snap.version:
            if self.snap.log.follows(done.entries, done.log_length):
                self.update(self.snap.moved(done))
            else:
                self.reload()

    def tell(self, text: str) -> None:
        # A private table's chat is for its seats (``app.services.watching``).
        private = self.snap is not None and self.snap.privacy.private
        tell_each(self.connections, text, (lambda conn: conn.seat is not None) if private else None)

    def notice(self, message: str) -> None:
        event = foreign_event(message, self.sources.instance_id)
        if event is not None:
            if event:
                self.tell(event)
            return
        if message == RESYNC:
            self.reload(resync=True)
            return
        forced = message.endswith(RELOAD)
        try:
            version = int(message.removesuffix(RELOAD))
        except ValueError:
            return
        if forced or self.snap is None or version > self.snap.version:
            self.reload()

    async def _run(self) -> None:
        async with self.sources.bus.subscribe(game_channel(self.game_id)) as sub:
            listener = asyncio.create_task(self._listen(sub))
            try:
                self._kick.set()
                while True:
                    await self._kick.wait()
                    self._kick.clear()
                    resync, self._resync = self._resync, False
                    try:
                        snap = await self._load()
                    except Problem:
                        self.missing = True
                        self.loaded.set()
                        return
                    self.update(snap, resync)
            finally:
                listener.cancel()

    async def _listen(self, sub) -> None:
        async for message in sub:
            self.notice(message)

    async def _load(self) -> Snapshot:
        """The game now; retried, because a change that is not passed on leaves sockets behind."""
        while True:
            try:
                return await self.sources.load_game(self.game_id)
            except Problem:
                raise
            except Exception as exc:
                if unavailable(exc):
                    note_unavailable(exc, f"loading game {self.game_id} for its sockets")
                else:
                    log.exception("could not load game %s for its sockets; retrying", self.game_id)
                await asyncio.sleep(0.5)


class LobbyHub:
    """This instance's sockets on one lobby: one load per change, one rendering per viewer
    kind (seat, host or not, base URL)."""

    def __init__(self, sources: Sources, lobby_id: str):
        self.sources = sources
        self.lobby_id = lobby_id
        self.connections: set[LobbyConnection] = set()
        self.waiting = 0
        self.lobby: lobby_rows.LobbySeats | None = None
        self.missing = False
        self.loaded = asyncio.Event()
        self._rendered: dict[tuple, str] = {}
        self._kick = asyncio.Event()
        self.task = asyncio.create_task(
            ended_quietly(self._run()), name=f"lobby hub {lobby_id}", context=contextvars.Context()
        )

    def reload(self) -> None:
        self._kick.set()

    def render(self, player_id: str | None, base: str) -> str:
        assert self.lobby is not None
        key = (
            self.lobby.seat_of(player_id),
            player_id == self.lobby.lobby.host_id,
            self.lobby.removed(player_id),
            base,
        )
        text = self._rendered.get(key)
        if text is None:
            lobby = self.lobby.out(player_id, base).model_dump(mode="json")
            text = self._rendered[key] = encode({"type": "lobby", "lobby": lobby})
        return text

    async def _run(self) -> None:
        async with self.sources.bus.subscribe(lobby_channel(self.lobby_id)) as sub:
            listener = asyncio.create_task(self._listen(sub))
            try:
                self._kick.set()
                while True:
                    await self._kick.wait()
                    self._kick.clear()
                    try:
                        lobby = await self.sources.load_lobby(self.lobby_id)
                    except Problem:
                        self.missing = True
                        self.loaded.set()
                        return
                    except Exception as exc:
                        if unavailable(exc):
                            note_unavailable(exc, f"loading lobby {self.lobby_id}")
                        else:
                            log.exception("could not load lobby %s; retrying", self.lobby_id)
                        await asyncio.sleep(0.5)
                        self._kick.set()
                        continue
                    self.lobby, self._rendered = lobby, {}
                    self.loaded.set()
                    for conn in self.connections:
                        conn.wake.set()
            finally:
                listener.cancel()

    def tell(self, text: str) -> None:
        # A private lobby's chat is for its seats, like its table's.
        lobby = self.lobby
        tell_each(
            self.connections,
            text,
            (lambda conn: lobby.seat_of(conn.player_id) is not None)
            if lobby is not None and lobby.lobby.private
            else None,
        )

    async def _listen(self, sub) -> None:
        async for message in sub:
            event = foreign_event(message, self.sources.instance_id)
            if event:
                self.tell(event)
            # This instance's own notices come back through Redis: it has reloaded already.
            elif event is None and message != self.sources.instance_id:
                self.reload()
