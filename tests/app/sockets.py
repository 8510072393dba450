"""A test client for the game WebSocket, shared by the WebSocket tests."""

import json

import jsonpatch
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from app.services.game_log import SHOWN


class Socket:
    """A game socket that keeps the view up to date by applying each patch it receives.

    Patches append the log's new entries; the socket keeps the latest ``SHOWN`` of them, as a
    whole state (and the REST view) carries, so that its view compares equal to those."""

    def __init__(self, live, game_id, token=None, cookie=None):
        url = f"{live.ws_url}/ws/games/{game_id}" + (f"?token={token}" if token else "")
        headers = {"Cookie": f"campground_token={cookie}"} if cookie else None
        # Everything the server sends is read into memory at once, whenever the test gets to
        # it: a test that reads only at the end must not stall the socket (the server would
        # drop it) nor leave the pong to the client's keepalive ping unread behind it.
        self._connection = connect(url, additional_headers=headers, open_timeout=10, max_queue=None)
        self.ws = self._connection.__enter__()
        first = self.recv()
        assert first["type"] == "state"
        self.version, self.view = first["version"], first["view"]
        self.others: list[dict] = []

    def recv(self, timeout: float = 10) -> dict:
        return json.loads(self.ws.recv(timeout=timeout))

    def send(self, message: dict) -> None:
        self.ws.send(json.dumps(message))

    def next(self) -> dict:
        """The next message that is not a patch, applying patches on the way."""
        while True:
            message = self.recv()
            if message["type"] != "patch":
                return message
            self.apply(message)

    def apply(self, patch: dict) -> None:
        assert patch["from"] == self.version
        self.view = jsonpatch.apply_patch(self.view, patch["ops"])
        self.view["log"] = self.view["log"][-SHOWN:]
        self.version = patch["version"]

    def until_version(self, version: int, timeout: float = 10) -> None:
        """Patches applied until ``version``; ``timeout`` for each message."""
        while self.version < version:
            message = self.recv(timeout)
            if message["type"] == "patch":
                self.apply(message)
            else:
                self.others.append(message)

    def close(self) -> None:
        self._connection.__exit__(None, None, None)


def next_lobby(ws) -> dict:
    """The next message on a lobby socket, which is always the whole lobby."""
    message = json.loads(ws.recv(timeout=10))
    assert message["type"] == "lobby"
    return message["lobby"]


def after_close(ws: ClientConnection, *messages: dict) -> tuple[list[dict], int, str]:
    """Send ``messages`` while the socket lets us, then read until it closes: what came
    meanwhile, the close code and the reason. A socket left open fails (recv times out)."""
    for message in messages:
        try:
            ws.send(json.dumps(message))
        except ConnectionClosed:
            break
    came = []
    try:
        while True:
            came.append(json.loads(ws.recv(timeout=10)))
    except ConnectionClosed as exc:
        assert exc.rcvd is not None, "the server did not close the socket"
        return came, exc.rcvd.code, exc.rcvd.reason
