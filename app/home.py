"""The home page's sockets on this instance: the open seeks, live; how many people wait for
each game; and each person's place in the "Play now" queue, which their open sockets keep.

One hub holds them all, and does each piece of work once for every socket: the seeks are read
once per change (at most every ``SEEKS_EVERY``) and each filtered list is encoded once; every
``KEEP_EVERY`` seconds (or a third of the lease, if shorter) one read finds the entries of
every person with a socket here and one statement keeps those waiting alive, and one query
counts the people waiting (``app.services.queue``). A table formed for someone reaches their
sockets on any instance through the bus (and, should that notice be lost, with their entry
at the next keep).
"""

from __future__ import annotations

import asyncio
import contextvars
import dataclasses
import logging
import math
import time
from collections.abc import Callable

import orjson
from fastapi import WebSocket

from app.bus import RESYNC, Bus, home_channel
from app.db import Database, note_unavailable, unavailable
from app.hubs import ended_quietly, foreign_event
from app.models import QueueEntry
from app.schemas_queue import Seek
from app.services import queue, seeks
from app.sockets import Socket, Who, encode

log = logging.getLogger(__name__)

# The notice on the home channel that the seeks changed.
SEEKS = "seeks"
# Seconds between loads of the seeks, however often they change; and between the hub's looks
# at its sockets (the slow ones are dropped).
SEEKS_EVERY = 0.5
TICK = 1.0
# Ratings within this many points share a listing's order (and its encoding).
NEAR = 50
# People whose entries one statement keeps; and how often their places are kept and told at
# most (a lease shorter than three times this is kept three times a lease).
KEPT_AT_ONCE = 500
KEEP_EVERY = 2.0


@dataclasses.dataclass(frozen=True)
class HomeSources:
    bus: Bus
    instance_id: str
    db: Database
    lease: float
    per_host: int
    # Hold one more socket within the instance's cap (raises ``watchers.Refused``); release it.
    hold: Callable[[], None]
    release: Callable[[], None]


class HomeConnection(Socket):
    """A home page's socket: whose it is, their matching rating in each game they have one
    in, and which seeks they look at (a game, a speed; None: all)."""

    def __init__(self, ws: WebSocket, who: Who, ratings: dict[str, float], timeout: float):
        super().__init__(ws, timeout, who)
        self.player_id = who.player_id
        self.near = tuple(sorted((game, round(r / NEAR)) for game, r in ratings.items()))
        self.game: str | None = None
        self.speed: str | None = None
        self.sent: str | None = None

    def look_at(self, game: str | None, speed: str | None) -> None:
        self.game, self.speed = game, speed
        self.wake.set()

    async def write_updates(self, hub: HomeHub) -> None:
        while True:
            await self.wake.wait()
            self.wake.clear()
            await self.send_events()
            text = hub.seeks_text(self.game, self.speed, self.near)
            if text is not None and text != self.sent:
                self.sent = text
                await self.send_text(text)


class HomeHub:
    def __init__(self, sources: HomeSources):
        self.sources = sources
        self.connections: set[HomeConnection] = set()
        self.players: dict[str, set[HomeConnection]] = {}
        self.seeks: list[tuple[Seek, float]] | None = None
        self.counts: dict[str, int] = {}
        self._texts: dict[tuple, str] = {}
        self._told: dict[str, str] = {}
        self._seeks_stale = True
        self._queue_stale = True
        self._seeks_after = 0.0
        # People whose last socket here closed: their places stop counting, in the hub's own
        # task, after any keep under way (which would otherwise revive them).
        self._gone: set[str] = set()
        self._kick = asyncio.Event()
        self.task: asyncio.Task | None = None

    def join(self, conn: HomeConnection) -> None:
        """Admit ``conn`` (or raise ``watchers.Refused``); it gets the seeks and its place soon."""
        self.sources.hold()
        self.connections.add(conn)
        if conn.player_id is not None:
            self.players.setdefault(conn.player_id, set()).add(conn)
        if self.counts:
            conn.tell(self._counts_text())
        if self.task is None:
            self.task = asyncio.create_task(
                ended_quietly(self._run()), name="home hub", context=contextvars.Context()
            )
        conn.wake.set()

    def leave(self, conn: HomeConnection) -> None:
        """``conn`` closed; if it was its person's last socket here, their place stops
        counting (a socket of theirs elsewhere keeps it again within seconds)."""
        if conn not in self.connections:
            return
        self.connections.discard(conn)
        self.sources.release()
        player_id = conn.player_id or ""
        mine = self.players.get(player_id)
        if mine is not None:
            mine.discard(conn)
            if not mine:
                del self.players[player_id]
                self._told.pop(player_id, None)
                self._gone.add(player_id)
        self._kick.set()

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)
            self.task = None

    def seeks_changed(self) -> None:
        self._seeks_stale = True
        self._kick.set()

    def queue_changed(self) -> None:
        """Keep and tell now rather than at the next tick (after a resync). Not on every join,
        leave or table: each keep locks the waiting rows of this instance's people for a
        moment, and a pass forming tables passes over locked rows."""
        self._queue_stale = True
        self._kick.set()

    def seated(self, game_id: str, players: list[str]) -> None:
        """A table was formed for ``players``: their pages open it."""
        for player_id in players:
            self._tell(player_id, encode({"type": "seated", "game_id": game_id}))

    def seeks_text(self, game: str | None, speed: str | None, near: tuple) -> str | None:
        """The seeks of ``game`` and ``speed`` (None: any), those nearest the viewer's ratings
        (``near``) first, then the newest: encoded once per load for all who look alike."""
        if self.seeks is None:
            return None
        key = (game, speed, tuple(n for n in near if game is None or n[0] == game))
        text = self._texts.get(key)
        if text is None:
            mine = {kind: r * NEAR for kind, r in key[2]}
            listed = [
                (seek, rating)
                for seek, rating in self.seeks
                if (game is None or seek.game == game) and (speed is None or seek.speed == speed)
            ]
            listed.sort(
                key=lambda s: abs(s[1] - mine[s[0].game]) if s[0].game in mine else math.inf
            )
            text = self._texts[key] = encode(
                {
                    "type": "seeks",
                    "game": game,
                    "speed": speed,
                    "seeks": [seek.model_dump(mode="json") for seek, _ in listed],
                }
            )
        return text

    def _tell(self, player_id: str, text: str) -> None:
        """Tell ``player_id``'s sockets here ``text``, unless it is what they were told last."""
        mine = self.players.get(player_id)
        if not mine or self._told.get(player_id) == text:
            return
        self._told[player_id] = text
        for conn in mine:
            conn.tell(text)

    def _counts_text(self) -> str:
        return encode({"type": "waiting", "games": self.counts})

    async def _run(self) -> None:
        async with self.sources.bus.subscribe(home_channel()) as sub:
            listener = asyncio.create_task(self._listen(sub))
            try:
                next_keep = 0.0
                while True:
                    if self._gone:
                        await self._expire()
                    if not self.connections and not self._gone:
                        # Done until the next socket, which starts the hub again.
                        self.task, self.seeks, self._texts, self.counts = None, None, {}, {}
                        self._seeks_stale = self._queue_stale = True
                        return
                    now = time.monotonic()
                    for conn in list(self.connections):
                        conn.give_up_if_stuck(now)
                    if self._seeks_stale and now >= self._seeks_after:
                        self._seeks_stale, self._seeks_after = False, now + SEEKS_EVERY
                        await self._load_seeks()
                    if self._queue_stale or now >= next_keep:
                        self._queue_stale = False
                        next_keep = now + min(KEEP_EVERY, self.sources.lease / 3)
                        await self._keep()
                    wake = min(next_keep, now + TICK)
                    if self._seeks_stale:
                        wake = min(wake, self._seeks_after)
                    try:
                        await asyncio.wait_for(self._kick.wait(), max(0.0, wake - time.monotonic()))
                    except TimeoutError:
                        pass
                    self._kick.clear()
            finally:
                listener.cancel()

    async def _listen(self, sub) -> None:
        async for message in sub:
            if message == RESYNC:
                self.seeks_changed()
                self.queue_changed()
            elif message == SEEKS:
                self.seeks_changed()
            else:
                event = foreign_event(message, self.sources.instance_id)
                if event:
                    for table in orjson.loads(event)["tables"]:
                        self.seated(table["game_id"], table["players"])

    async def _expire(self) -> None:
        gone, self._gone = self._gone - set(self.players), set()
        try:
            await queue.expire(self.sources.db, gone)
        except Exception as exc:
            self._failed(exc, "taking closed pages out of the queue")

    async def _load_seeks(self) -> None:
        try:
            async with self.sources.db.session() as session:
                found = await seeks.open_seeks(session, self.sources.per_host)
        except Exception as exc:
            self._failed(exc, "loading the open seeks")
            self._seeks_stale = True
            return
        self.seeks, self._texts = found, {}
        for conn in self.connections:
            conn.wake.set()

    async def _keep(self) -> None:
        """Keep the entries of every person with a socket here, and tell each their place."""
        ids = list(self.players)
        try:
            entries: dict[str, QueueEntry] = {}
            for i in range(0, len(ids), KEPT_AT_ONCE):
                entries |= await queue.keep(
                    self.sources.db, ids[i : i + KEPT_AT_ONCE], self.sources.lease
                )
            counts = await queue.waiting(self.sources.db)
        except Exception as exc:
            self._failed(exc, "keeping the queue's entries")
            return
        if counts != self.counts:
            self.counts = counts
            text = self._counts_text()
            for conn in self.connections:
                conn.tell(text)
        for player_id in ids:
            entry = entries.get(player_id)
            if entry is not None and entry.game_id is not None:
                self._tell(player_id, encode({"type": "seated", "game_id": entry.game_id}))
            else:
                place = queue.shown(entry, counts).model_dump(mode="json") if entry else None
                self._tell(player_id, encode({"type": "queue", "place": place}))

    @staticmethod
    def _failed(exc: Exception, doing: str) -> None:
        if unavailable(exc):
            note_unavailable(exc, doing)
        else:
            log.exception("%s failed; trying again", doing)
