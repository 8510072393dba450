"""WebSockets: live play with per-connection JSON Patch, and lobby updates.

What each socket is sent comes from its hub (``app/hubs.py``); this module reads what
clients say and answers them.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app import guard, logs, metrics
from app.db import RETRY_AFTER, UNAVAILABLE, note_unavailable, unavailable
from app.limits import token_key
from app.home import HomeConnection
from app.hubs import GameHub, LobbyHub
from app.watchers import Refused
from app.sockets import NOBODY, Connection, LobbyConnection, Socket, Who, serve
from app.services import chat, lobby_rows, players, queue, speeds, watching
from app.services.errors import Problem, StaleVersion
from app.sign_outs import CLOSE_SIGNED_OUT, SIGNED_OUT
from engine.core import IllegalMove
from engine.registry import GAMES

if TYPE_CHECKING:
    from app.context import Context

log = logging.getLogger(__name__)
router = APIRouter()


def _ctx(ws: WebSocket) -> Context:
    return ws.app.state.ctx


class _Away(Exception):
    """The database was away when the socket opened; it is closed with 1013."""


async def _opened(ctx: Context, ws: WebSocket) -> Who:
    """Accept the socket and look its player up; while the database is away, close it with
    1013 (try again later), which the page retries, and raise ``_Away``."""
    await ws.accept()
    checked_at = asyncio.get_running_loop().time()
    token = guard.socket_token(ws)
    try:
        player = await players.by_token(ctx.db, token)
    except Exception as exc:
        if not unavailable(exc):
            raise
        note_unavailable(exc, "opening a socket")
        await ws.close(code=TRY_AGAIN_LATER, reason=guard.later(UNAVAILABLE, RETRY_AFTER))
        raise _Away from None
    logs.bind(player_id=player.id if player else None)
    if player is None or token is None:
        return NOBODY
    # A real player's token: their reconnects no longer count against the address.
    ctx.limits.known.add(token_key(token))
    return Who(player.id, players.token_hash(token), checked_at)


def _error(code: str, message: str, ref: Any) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message, "ref": ref}


async def _read(ws: WebSocket, conn: Socket, handle: Callable[[Any], Awaitable[None]]) -> None:
    """Read a socket's messages until the client leaves; what is not JSON is answered here."""
    try:
        while True:
            received = await ws.receive()
            if received["type"] == "websocket.disconnect":
                return
            metrics.received_now()
            if conn.ended:
                # Its session ended: the socket is closing, and acts on nothing more.
                continue
            if guard.PARSED in received:
                message = received[guard.PARSED]
            else:
                try:
                    message = json.loads(received.get("text") or "")
                except ValueError:
                    await conn.send(_error("bad_request", "Messages are JSON objects.", None))
                    continue
            try:
                await handle(message)
            except Exception as exc:
                if not unavailable(exc):
                    raise
                # Nothing was done; the socket stays, and the client may send it again.
                note_unavailable(exc, "answering a socket")
                ref = message.get("ref") if isinstance(message, dict) else None
                await conn.send(
                    _error("unavailable", UNAVAILABLE, ref) | {"retry_after": RETRY_AFTER}
                )
    except WebSocketDisconnect:
        pass


# Close codes: 4404 no such game or lobby (or a private one the caller may not watch); 4401
# signed out (``app.sign_outs``); 1013 (try again later) too many sockets, or the database
# away, its reason ``guard.later``'s JSON.
TRY_AGAIN_LATER = 1013


@router.websocket("/ws/games/{game_id}")
async def game_socket(ws: WebSocket, game_id: str) -> None:
    ctx = _ctx(ws)
    try:
        who = await _opened(ctx, ws)
    except _Away:
        return
    timeout = ctx.settings.WS_SEND_TIMEOUT
    conn: Connection | None = None

    def make(hub: GameHub) -> Connection:
        nonlocal conn
        assert hub.snap is not None
        conn = Connection(ws, hub.snap.seat_of(who.player_id), timeout, who)
        return conn

    try:
        hub = await ctx.watchers.join_game(game_id, make)
    except Problem as exc:
        await ws.close(code=4404, reason=exc.detail)
        return
    except Refused as exc:
        metrics.LIMITED.labels("sockets per game or instance").inc()
        await ws.close(code=TRY_AGAIN_LATER, reason=guard.later(str(exc), guard.TRY_AGAIN_SECONDS))
        return
    assert conn is not None and hub.snap is not None
    if not hub.snap.may_watch(who.player_id, ws.query_params.get("invite")):
        ctx.watchers.leave_game(game_id, conn)
        await ws.close(code=4404, reason=watching.NO_SUCH_GAME)
        return

    async def handle(message: Any) -> None:
        await _handle(ctx, hub, conn, game_id, message)

    sockets = metrics.SOCKETS.labels("spectator" if conn.seat is None else "player")
    sockets.inc()
    try:
        if who.player_id is not None:
            await ctx.notices.presence.seen(game_id, who.player_id)
        await _serve(ctx, conn, lambda: _read(ws, conn, handle), lambda: conn.write_updates(hub))
    finally:
        ctx.watchers.leave_game(game_id, conn)
        sockets.dec()


async def _serve(
    ctx: Context, conn: Socket, reader: Callable[[], Any], writer: Callable[[], Any]
) -> None:
    """Serve a socket that joined its hub until either side ends; a socket whose session
    ended meanwhile (even while it joined) is closed with the code that says so."""
    if ctx.sign_outs.missed(conn):
        conn.end(CLOSE_SIGNED_OUT, SIGNED_OUT)
    try:
        if not conn.ended:
            await serve(reader, writer)
    finally:
        if conn.ended:
            await conn.close()


async def _handle(ctx: Context, hub: GameHub, conn: Connection, game_id: str, message: Any) -> None:
    ref = message.get("ref") if isinstance(message, dict) else None
    kind = message.get("type") if isinstance(message, dict) else None
    if kind == "sync":
        # The hub's game is current while the bus works; otherwise read it again.
        if not ctx.bus.healthy:
            hub.reload()
        conn.resync = True
        conn.wake.set()
        return
    if kind == "chat":
        await _game_chat(ctx, hub, conn, game_id, message.get("text"), ref)
        return
    if kind != "move":
        await conn.send(_error("bad_request", "Send a move, a chat or a sync.", ref))
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
        if hub.snap is not None and exc.current > hub.snap.version:
            # This instance missed a change: its sockets catch up.
            hub.reload()
        await conn.send(_error("stale_version", exc.detail, ref))
    except IllegalMove as exc:
        await conn.send(_error("illegal_move", exc.reason, ref))
    except Problem as exc:
        await conn.send(_error("bad_request", exc.detail, ref))
    else:
        await conn.send({"type": "ack", "ref": ref, "version": committed.version})


def _chat_error(exc: Problem, ref: Any) -> dict[str, Any]:
    if isinstance(exc, chat.TooFast):
        return _error("rate_limited", exc.detail, ref) | {"retry_after": exc.retry_after}
    return _error("bad_request", exc.detail, ref)


async def _game_chat(
    ctx: Context, hub: GameHub, conn: Connection, game_id: str, text: Any, ref: Any
) -> None:
    """Seated players write; every socket on the game reads, spectators too unless the table
    is private (``GameHub.tell``)."""
    if conn.seat is None or hub.snap is None:
        await conn.send(_error("not_seated", "Only the players at the table can chat.", ref))
        return
    player_id = next(s.player_id for s in hub.snap.seats if s.seat == conn.seat)
    assert player_id is not None  # the socket's seat is its player's
    try:
        line = await chat.post(ctx.db, player_id, conn.seat, text, game_id=game_id)
    except Problem as exc:
        await conn.send(_chat_error(exc, ref))
        return
    await ctx.game_event(game_id, line)


async def _lobby_chat(
    ctx: Context, hub: LobbyHub, conn: LobbyConnection, lobby_id: str, message: Any
) -> None:
    ref = message.get("ref") if isinstance(message, dict) else None
    if not isinstance(message, dict) or message.get("type") != "chat":
        await conn.send(_error("bad_request", "Send a chat.", ref))
        return
    lobby, player_id = hub.lobby, conn.player_id
    seat = lobby.seat_of(player_id) if lobby is not None else None
    if lobby is None or player_id is None or seat is None:
        await conn.send(_error("not_seated", "Only the players in the lobby can chat.", ref))
        return
    if lobby.lobby.status != "open":
        await conn.send(_error("bad_request", "The lobby is no longer open.", ref))
        return
    try:
        text = message.get("text")
        line = await chat.post(ctx.db, player_id, seat, text, lobby_id=lobby_id)
    except Problem as exc:
        await conn.send(_chat_error(exc, ref))
        return
    await ctx.lobby_event(lobby_id, line)


@router.websocket("/ws/lobbies/{lobby_id}")
async def lobby_socket(ws: WebSocket, lobby_id: str) -> None:
    ctx = _ctx(ws)
    try:
        who = await _opened(ctx, ws)
    except _Away:
        return
    try:
        conn = LobbyConnection(ws, who, ctx.base_url(ws), ctx.settings.WS_SEND_TIMEOUT)
        hub = await ctx.watchers.join_lobby(lobby_id, lambda _hub: conn)
    except Problem as exc:
        # 4404 no such lobby; 4400 a Host no invite link may be built for.
        await ws.close(code=4000 + exc.status, reason=exc.detail)
        return
    except Refused as exc:
        metrics.LIMITED.labels("sockets per game or instance").inc()
        await ws.close(code=TRY_AGAIN_LATER, reason=guard.later(str(exc), guard.TRY_AGAIN_SECONDS))
        return

    assert hub.lobby is not None
    if not hub.lobby.may_watch(who.player_id, ws.query_params.get("invite")):
        ctx.watchers.leave_lobby(lobby_id, conn)
        await ws.close(code=4404, reason=lobby_rows.NO_SUCH_LOBBY)
        return

    async def handle(message: Any) -> None:
        await _lobby_chat(ctx, hub, conn, lobby_id, message)

    metrics.SOCKETS.labels("lobby").inc()
    try:
        await _serve(ctx, conn, lambda: _read(ws, conn, handle), lambda: conn.write_updates(hub))
    finally:
        ctx.watchers.leave_lobby(lobby_id, conn)
        metrics.SOCKETS.labels("lobby").dec()


@router.websocket("/ws/home")
async def home_socket(ws: WebSocket) -> None:
    """The home page's: the open seeks, how many wait for each game, the caller's place in
    the queue (kept while this socket is open) and the table formed for them."""
    ctx = _ctx(ws)
    try:
        who = await _opened(ctx, ws)
    except _Away:
        return
    player_id = who.player_id
    mine: dict[str, float] = {}
    if player_id is not None:
        try:
            mine = await queue.matching_ratings(ctx.db, player_id)
        except Exception as exc:
            if not unavailable(exc):
                raise
            note_unavailable(exc, "opening a home socket")
    conn = HomeConnection(ws, who, mine, ctx.settings.WS_SEND_TIMEOUT)
    try:
        ctx.home.join(conn)
    except Refused as exc:
        metrics.LIMITED.labels("sockets per game or instance").inc()
        await ws.close(code=TRY_AGAIN_LATER, reason=str(exc))
        return

    async def handle(message: Any) -> None:
        await _look_at(conn, message)

    metrics.SOCKETS.labels("home").inc()
    try:
        await _serve(
            ctx, conn, lambda: _read(ws, conn, handle), lambda: conn.write_updates(ctx.home)
        )
    finally:
        metrics.SOCKETS.labels("home").dec()
        ctx.home.leave(conn)


async def _look_at(conn: HomeConnection, message: Any) -> None:
    """``{"type":"seeks","game","speed"}``: list the seeks of that game and speed (null: any)."""
    ref = message.get("ref") if isinstance(message, dict) else None
    if not isinstance(message, dict) or message.get("type") != "seeks":
        await conn.send(
            _error("bad_request", "Send seeks, with a game and a speed (or null).", ref)
        )
        return
    game, speed = message.get("game"), message.get("speed")
    known = (game is None or (isinstance(game, str) and game in GAMES)) and (
        speed is None or (isinstance(speed, str) and speed in speeds.SPEEDS)
    )
    if not known:
        await conn.send(_error("bad_request", "Unknown game or speed.", ref))
        return
    conn.look_at(game, speed)
