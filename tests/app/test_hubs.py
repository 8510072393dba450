"""A socket's sends (``app.sockets.Socket``), without a server: a client that is gone, and one
that stops reading."""

from __future__ import annotations

import asyncio

import pytest
from fastapi import WebSocketDisconnect
from starlette.websockets import WebSocketState

from app.sockets import SlowClient, Socket


class FakeSocket:
    """What ``Socket`` uses of Starlette's WebSocket; ``stuck`` sends never finish."""

    def __init__(self, stuck: bool = False):
        self.application_state = WebSocketState.CONNECTED
        self.stuck = stuck
        self.sent: list[str] = []

    async def send_text(self, text: str) -> None:
        if self.stuck:
            await asyncio.Event().wait()
        if self.application_state is WebSocketState.DISCONNECTED:
            raise RuntimeError('Cannot call "send" once a close message has been sent.')
        self.sent.append(text)


def test_a_send_after_the_client_left_ends_the_socket_as_a_disconnect():
    """Starlette refuses a send after one that found the client gone with a RuntimeError,
    which would be logged as a server error; the socket ends as disconnected instead."""

    async def run():
        ws = FakeSocket()
        socket = Socket(ws, timeout=10)
        await socket.send_text("one")
        ws.application_state = WebSocketState.DISCONNECTED
        with pytest.raises(WebSocketDisconnect):
            await socket.send_text("two")
        assert ws.sent == ["one"]

    asyncio.run(run())


def test_a_send_the_client_never_takes_is_given_up_after_the_timeout():
    async def run():
        socket = Socket(FakeSocket(stuck=True), timeout=0.2)
        sending = asyncio.create_task(socket.send_text("never taken"))
        await asyncio.sleep(0.05)
        socket.give_up_if_stuck(socket.sending_since + 0.1)
        assert not sending.done()
        socket.give_up_if_stuck(socket.sending_since + 0.3)
        with pytest.raises(SlowClient):
            await sending
        # The task was not left cancelled: what it awaits next runs as usual.
        assert sending.cancelling() == 0
        with pytest.raises(SlowClient):
            await socket.send_text("after")

    asyncio.run(run())
