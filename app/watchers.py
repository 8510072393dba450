"""Every hub of this instance (``app.hubs``), and the caps on its sockets.

A socket joins its game's or lobby's hub here, which starts the hub on the first socket and
ends it with the last; a home page's socket holds a place within the instance's cap without a
hub. One watchdog drops every socket whose client has not taken a message for
``WS_SEND_TIMEOUT``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from app.hubs import GameHub, LobbyHub, Sources
from app.services.commit import Committed
from app.services.errors import Problem
from app.services.games import Snapshot
from app.sockets import Connection, LobbyConnection, Socket


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

    def _hubs(self) -> list[GameHub | LobbyHub]:
        return [*self._games.values(), *self._lobbies.values()]

    def _drop_stuck(self, now: float) -> None:
        # Its own frame: the loop's last hub and connection go with it, where in the sleeping
        # watchdog's frame they would keep a hub nobody watches alive.
        for hub in self._hubs():
            for conn in hub.connections:
                conn.give_up_if_stuck(now)

    def every_socket(self) -> list[Socket]:
        """Every game and lobby socket of this instance, as it is now."""
        return [conn for hub in self._hubs() for conn in hub.connections]

    def looking(self) -> set[tuple[str, str]]:
        """(game, player) for every player with a socket on a game here (``app.notices``)."""
        return {
            (g, c.who.player_id)
            for g, hub in self._games.items()
            for c in hub.connections
            if c.who.player_id is not None
        }

    def hold(self) -> None:
        """One more socket that no hub here holds (a home page's), within the instance's cap."""
        if self.sockets >= self.sources.max_per_instance:
            raise Refused("This server has too many sockets open; try again later.")
        self.sockets += 1

    def release(self) -> None:
        self.sockets -= 1

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

    def _drop_if_idle(self, hubs: dict, key: str, hub: GameHub | LobbyHub) -> None:
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
        tasks = [h.task for h in self._hubs()] + ([self._watchdog] if self._watchdog else [])
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._watchdog = None
        self._games.clear()
        self._lobbies.clear()
