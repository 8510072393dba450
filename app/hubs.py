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
no socket can grow the server's memory or hold anything up.
"""

from __future__ import annotations

import asyncio
import contextvars
import dataclasses
import logging
import time
from collections.abc import Awaitable, Callable

from app.bus import RESYNC, Bus, game_channel, lobby_channel
from app.db import note_unavailable, unavailable
from app.services import lobby_rows
from app.services.commit import Committed
from app.services.errors import Problem
from app.services.games import Snapshot
from app.sockets import Connection, Frame, LobbyConnection, encode

log = logging.getLogger(__name__)

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
        self.task = asyncio.create_task(ended_quietly(self._run()), name=f"game hub {game_id}",
                                        context=contextvars.Context())

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
        for conn in self.connections:
            conn.tell(text)

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
        self.task = asyncio.create_task(ended_quietly(self._run()), name=f"lobby hub {lobby_id}",
                                        context=contextvars.Context())

    def reload(self) -> None:
        self._kick.set()

    def render(self, player_id: str | None, base: str) -> str:
        assert self.lobby is not None
        key = (self.lobby.seat_of(player_id), player_id == self.lobby.lobby.host_id, base)
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
        for conn in self.connections:
            conn.tell(text)

    async def _listen(self, sub) -> None:
        async for message in sub:
            event = foreign_event(message, self.sources.instance_id)
            if event:
                self.tell(event)
            # This instance's own notices come back through Redis: it has reloaded already.
            elif event is None and message != self.sources.instance_id:
                self.reload()


class Refused(Exception):
    """Too many sockets: on this game, or on this instance."""


class Watchers:
    """Every hub of this instance, and the caps on sockets."""

    def __init__(self, sources: Sources):
        self.sources = sources
        self._games: dict[str, GameHub] = {}
        self._lobbies: dict[str, LobbyHub] = {}
        self.sockets = 0
        self._watchdog: asyncio.Task | None = None

    async def _watch_sends(self) -> None:
        """Drop every socket whose client has not taken a message for ``WS_SEND_TIMEOUT``."""
        period = min(1.0, self.sources.send_timeout / 4)
        while True:
            await asyncio.sleep(period)
            self._drop_stuck(time.monotonic())

    def _drop_stuck(self, now: float) -> None:
        # Its own frame: the loop's last hub and connection go with it, where in the sleeping
        # watchdog's frame they would keep a hub nobody watches alive.
        for hub in [*self._games.values(), *self._lobbies.values()]:
            for conn in hub.connections:
                conn.give_up_if_stuck(now)

    def snapshot(self, game_id: str) -> Snapshot | None:
        """The game as this instance last knew it, if it has sockets on it."""
        hub = self._games.get(game_id)
        return hub.snap if hub is not None else None

    def count(self, game_id: str) -> int:
        hub = self._games.get(game_id)
        return len(hub.connections) if hub is not None else 0

    def _admit(self, hub: GameHub | LobbyHub, per_hub: int | None) -> None:
        if self.sockets >= self.sources.max_per_instance:
            raise Refused("This server has too many sockets open; try again later.")
        if per_hub is not None and len(hub.connections) + hub.waiting >= per_hub:
            raise Refused("This game has too many sockets open; try again later.")

    async def join_game(self, game_id: str, make: Callable[[GameHub], Connection]) -> GameHub:
        """The hub of ``game_id`` with the connection ``make`` builds once it is loaded; raises
        ``Problem`` (no such game) or ``Refused``."""
        hub = self._games.get(game_id)
        if hub is None:
            hub = self._games[game_id] = GameHub(self.sources, game_id)
        return await self._join(hub, self._games, game_id, make, self.sources.max_per_game)

    async def join_lobby(
        self, lobby_id: str, make: Callable[[LobbyHub], LobbyConnection]
    ) -> LobbyHub:
        hub = self._lobbies.get(lobby_id)
        if hub is None:
            hub = self._lobbies[lobby_id] = LobbyHub(self.sources, lobby_id)
        return await self._join(hub, self._lobbies, lobby_id, make, None)

    async def _join(self, hub, hubs: dict, key: str, make, per_hub: int | None):
        try:
            self._admit(hub, per_hub)
        except Refused:
            self._drop_if_idle(hubs, key, hub)
            raise
        # Counted while it waits, so a crowd arriving at once cannot pass the cap.
        self.sockets += 1
        hub.waiting += 1
        try:
            await hub.loaded.wait()
        finally:
            hub.waiting -= 1
            self.sockets -= 1
        if hub.missing:
            self._drop_if_idle(hubs, key, hub)
            raise Problem(404, "No such game." if hubs is self._games else "No such lobby.")
        conn = make(hub)
        hub.connections.add(conn)
        if self._watchdog is None:
            self._watchdog = asyncio.create_task(self._watch_sends(), name="socket watchdog")
        self.sockets += 1
        conn.wake.set()
        return hub

    def leave_game(self, game_id: str, conn: Connection) -> None:
        self._leave(self._games, game_id, conn)

    def leave_lobby(self, lobby_id: str, conn: LobbyConnection) -> None:
        self._leave(self._lobbies, lobby_id, conn)

    def _leave(self, hubs: dict, key: str, conn) -> None:
        hub = hubs.get(key)
        if hub is None or conn not in hub.connections:
            return
        hub.connections.discard(conn)
        self.sockets -= 1
        self._drop_if_idle(hubs, key, hub)

    def _drop_if_idle(self, hubs: dict, key: str, hub) -> None:
        if not hub.connections and not hub.waiting and hubs.get(key) is hub:
            hub.task.cancel()
            del hubs[key]

    def committed(self, game_id: str, done: Committed) -> None:
        hub = self._games.get(game_id)
        if hub is not None:
            hub.committed(done)

    def game_changed(self, game_id: str) -> None:
        hub = self._games.get(game_id)
        if hub is not None:
            hub.reload()

    def game_event(self, game_id: str, text: str) -> None:
        hub = self._games.get(game_id)
        if hub is not None:
            hub.tell(text)

    def lobby_event(self, lobby_id: str, text: str) -> None:
        hub = self._lobbies.get(lobby_id)
        if hub is not None:
            hub.tell(text)

    def lobby_changed(self, lobby_id: str) -> None:
        hub = self._lobbies.get(lobby_id)
        if hub is not None:
            hub.reload()

    async def close(self) -> None:
        hubs = [*self._games.values(), *self._lobbies.values()]
        tasks = [h.task for h in hubs] + ([self._watchdog] if self._watchdog else [])
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._watchdog = None
        self._games.clear()
        self._lobbies.clear()


