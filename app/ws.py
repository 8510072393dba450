"""WebSockets: live play with per-connection JSON Patch, and lobby updates.

Each process subscribes once per watched game to the bus, loads the new state once per
change and hands the snapshot to every connection on that game; each connection computes its
own view and sends the patch from the last view it sent. When the bus may have lost changes
(``RESYNC``), connections send a whole state instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app.bus import RESYNC, game_channel, lobby_channel
from app.patch import make_patch
from app.services import lobbies, players
from app.services.errors import Problem, StaleVersion
from app.services.games import Snapshot
from engine.core import IllegalMove

if TYPE_CHECKING:
    from app.context import Context

log = logging.getLogger(__name__)
router = APIRouter()


class Connection:
    """One socket on one game: what it was last sent, and a writer fed with snapshots."""

    def __init__(self, ws: WebSocket, seat: int | None):
        self.ws = ws
        self.seat = seat
        self.version = -1
        self.view: dict[str, Any] | None = None
        self.lock = asyncio.Lock()
        self._latest: Snapshot | None = None
        self._resync = False
        self._wake = asyncio.Event()

    async def send(self, message: dict[str, Any]) -> None:
        # ASCII only: the ref is the client's, and JSON's \ud800 escapes give lone surrogates
        # that UTF-8 cannot encode.
        async with self.lock:
            await self.ws.send_text(json.dumps(message, separators=(",", ":")))

    async def send_state(self, snap: Snapshot) -> None:
        async with self.lock:
            self.view = snap.view(self.seat)
            self.version = snap.version
            await self.ws.send_json({"type": "state", "version": snap.version, "view": self.view})
        # A change offered while this state was being loaded may be newer than it.
        if self._latest is not None and self._latest.version > self.version:
            self._wake.set()

    def offer(self, snap: Snapshot, resync: bool = False) -> None:
        """The game now; ``resync`` when changes may have been missed: send a whole state."""
        self._latest = snap
        self._resync |= resync
        self._wake.set()

    async def write_updates(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            snap = self._latest
            if snap is None:
                continue
            resync, self._resync = self._resync, False
            async with self.lock:
                # Before the first state, ``send_state`` looks at the latest offer itself.
                if snap.version < self.version or self.view is None:
                    continue
                view = snap.view(self.seat)
                if resync:
                    self.view, self.version = view, snap.version
                    state = {"type": "state", "version": snap.version, "view": view}
                    await self.ws.send_json(state)
                    continue
                ops = make_patch(self.view, view)
                # Same version and same view: this socket has seen it already.
                if not ops and snap.version == self.version:
                    continue
                message = {"type": "patch", "from": self.version, "version": snap.version}
                self.view, self.version = view, snap.version
                await self.ws.send_json(message | {"ops": ops})


class GameWatch:
    """This process's subscription to one game, shared by its connections."""

    def __init__(self, ctx: Context, game_id: str):
        self.ctx = ctx
        self.game_id = game_id
        self.connections: set[Connection] = set()
        self.ready = asyncio.Event()
        self.task = asyncio.create_task(self._run(), name=f"watch {game_id}")

    async def _run(self) -> None:
        async with self.ctx.bus.subscribe(game_channel(self.game_id)) as sub:
            self.ready.set()
            while True:
                messages = [await sub.get(), *sub.drain()]
                snap = await self._load()
                for conn in list(self.connections):
                    conn.offer(snap, resync=RESYNC in messages)

    async def _load(self) -> Snapshot:
        """The game now; retried, because a change that is not passed on leaves sockets behind."""
        while True:
            try:
                async with self.ctx.db.session() as session:
                    return await self.ctx.snapshot(session, self.game_id)
            except Exception:
                log.exception("could not load game %s for its sockets; retrying", self.game_id)
                await asyncio.sleep(0.5)


class Watchers:
    def __init__(self, ctx: Context):
        self.ctx = ctx
        self._games: dict[str, GameWatch] = {}

    async def add(self, game_id: str, conn: Connection) -> None:
        watch = self._games.get(game_id)
        if watch is None:
            watch = self._games[game_id] = GameWatch(self.ctx, game_id)
        watch.connections.add(conn)
        await watch.ready.wait()

    def remove(self, game_id: str, conn: Connection) -> None:
        watch = self._games.get(game_id)
        if watch is None:
            return
        watch.connections.discard(conn)
        if not watch.connections:
            watch.task.cancel()
            del self._games[game_id]

    async def close(self) -> None:
        for watch in self._games.values():
            watch.task.cancel()
        await asyncio.gather(*(w.task for w in self._games.values()), return_exceptions=True)
        self._games.clear()


def _ctx(ws: WebSocket) -> Context:
    return ws.app.state.ctx


async def _player_id(ctx: Context, ws: WebSocket) -> str | None:
    token = ws.query_params.get("token") or ws.cookies.get(players.COOKIE)
    async with ctx.db.session() as session:
        player = await players.by_token(session, token)
    return player.id if player else None


def _error(code: str, message: str, ref: Any) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message, "ref": ref}


@router.websocket("/ws/games/{game_id}")
async def game_socket(ws: WebSocket, game_id: str) -> None:
    ctx = _ctx(ws)
    await ws.accept()
    player_id = await _player_id(ctx, ws)
    try:
        async with ctx.db.session() as session:
            snap = await ctx.snapshot(session, game_id)
    except Problem as exc:
        await ws.close(code=4404, reason=exc.detail)
        return
    conn = Connection(ws, snap.seat_of(player_id))
    # Subscribe before loading the first view, so no change can fall between the two.
    await ctx.watchers.add(game_id, conn)
    writer = asyncio.create_task(conn.write_updates())
    try:
        async with ctx.db.session() as session:
            await conn.send_state(await ctx.snapshot(session, game_id))
        while True:
            text = await ws.receive_text()
            try:
                message = json.loads(text)
            except ValueError:
                await conn.send(_error("bad_request", "Messages are JSON objects.", None))
                continue
            await _handle(ctx, conn, game_id, message)
    except WebSocketDisconnect:
        pass
    finally:
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await writer
        ctx.watchers.remove(game_id, conn)


async def _handle(ctx: Context, conn: Connection, game_id: str, message: Any) -> None:
    ref = message.get("ref") if isinstance(message, dict) else None
    kind = message.get("type") if isinstance(message, dict) else None
    if kind == "sync":
        async with ctx.db.session() as session:
            await conn.send_state(await ctx.snapshot(session, game_id))
        return
    if kind != "move":
        await conn.send(_error("bad_request", "Send a move or a sync.", ref))
        return
    move, expect = message.get("move"), message.get("expect_version")
    if not isinstance(move, dict) or not isinstance(expect, int) or isinstance(expect, bool):
        message = "A move needs a move object and expect_version."
        await conn.send(_error("bad_request", message, ref))
        return
    if conn.seat is None:
        await conn.send(_error("not_seated", "You have no seat at this game.", ref))
        return
    try:
        committed = await ctx.move(game_id, conn.seat, move, expect)
    except StaleVersion as exc:
        await conn.send(_error("stale_version", exc.detail, ref))
    except IllegalMove as exc:
        await conn.send(_error("illegal_move", exc.reason, ref))
    except Problem as exc:
        await conn.send(_error("bad_request", exc.detail, ref))
    else:
        await conn.send({"type": "ack", "ref": ref, "version": committed.version})


@router.websocket("/ws/lobbies/{lobby_id}")
async def lobby_socket(ws: WebSocket, lobby_id: str) -> None:
    ctx = _ctx(ws)
    await ws.accept()
    player_id = await _player_id(ctx, ws)
    base = ctx.base_url(str(ws.base_url))

    async def send_lobby() -> None:
        async with ctx.db.session() as session:
            ls = await lobbies.load(session, lobby_id)
        lobby = ls.out(player_id, base).model_dump(mode="json")
        await ws.send_json({"type": "lobby", "lobby": lobby})

    async with ctx.bus.subscribe(lobby_channel(lobby_id)) as sub:
        try:
            await send_lobby()
        except Problem as exc:
            await ws.close(code=4404, reason=exc.detail)
            return

        async def push() -> None:
            # Every message, ``RESYNC`` too, is answered with the whole lobby as it is now.
            while True:
                await sub.get()
                sub.drain()
                await send_lobby()

        pusher = asyncio.create_task(push())
        try:
            # Clients have nothing to say here; reading only notices when they leave.
            while True:
                await ws.receive_text()
        except WebSocketDisconnect:
            pass
        finally:
            pusher.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await pusher
