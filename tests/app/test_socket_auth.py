"""Scripts authenticate sockets without a token in the URL, and no token reaches the logs."""

import json
import logging

import pytest
from websockets.sync.client import connect


@pytest.fixture
def game(live):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    return ana, f"{live.ws_url}/ws/games/{live.start_game(ana, ben)}"


def first_view(ws) -> dict:
    message = json.loads(ws.recv(timeout=10))
    assert message["type"] == "state"
    return message["view"]


def test_a_socket_authenticates_with_the_authorization_header(game):
    ana, url = game
    with connect(url, additional_headers={"Authorization": f"Bearer {ana.token}"}) as ws:
        assert first_view(ws)["you"] == 0


def test_a_socket_authenticates_with_a_token_subprotocol(game):
    ana, url = game
    with connect(url, subprotocols=["campground", f"token.{ana.token}"]) as ws:
        assert ws.subprotocol == "campground"
        assert first_view(ws)["you"] == 0


@pytest.fixture
def server_log():
    """Everything uvicorn logs (access lines and WebSocket lines), at INFO, while the test runs."""
    lines: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(record.getMessage())

    handler = Keep()
    saved = []
    for name in ("uvicorn.access", "uvicorn.error"):
        logger = logging.getLogger(name)
        saved.append((logger, logger.level))
        logger.setLevel(logging.INFO)
        logger.addHandler(handler)
    yield lines
    for logger, level in saved:
        logger.setLevel(level)
        logger.removeHandler(handler)


def test_a_token_in_the_url_still_works_but_is_never_logged(live, game, server_log):
    ana, url = game
    with connect(f"{url}?token={ana.token}") as ws:
        assert first_view(ws)["you"] == 0
    live.client().get(f"/api/games/nothing/state?token={ana.token}&x=1")
    assert any("?token=[redacted]" in line and "WebSocket" in line for line in server_log)
    assert any("?token=[redacted]&x=1" in line for line in server_log)
    assert not any(ana.token in line for line in server_log)
