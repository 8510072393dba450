"""Everything a client sends has a size: request bodies, socket messages, refs, nesting."""

import json

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.app.sockets import Socket

BIG = 50_000


def test_a_big_body_is_413_before_authentication(live):
    # No token: the 401 would need the body read first; the 413 comes before.
    r = live.client().post("/api/lobbies", content=b"{" + b" " * BIG + b"}",
                           headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert r.json() == {"detail": "Request bodies are at most 4096 bytes."}


def test_a_big_chunked_body_is_413(live):
    ana = live.guest("Ana")

    def chunks():
        for _ in range(BIG // 1000):
            yield b" " * 1000

    r = ana.post("/api/lobbies", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413


def test_a_body_under_the_cap_is_served(live):
    ana = live.guest("Ana")
    r = ana.post("/api/lobbies", json={"game": "hike", "options": {"x": " " * 3000}})
    assert r.status_code == 422  # read and judged: not refused for its size


def test_deeply_nested_json_in_a_body_is_400_not_500(live):
    ana = live.guest("Ana")
    r = ana.post("/api/lobbies", content=b"[" * 2000 + b"]" * 2000,
                 headers={"content-type": "application/json"})
    assert r.status_code in (400, 422)


@pytest.fixture
def seated(live):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    game_id = live.start_game(ana, ben)
    socket = Socket(live, game_id, token=ana.token)
    yield socket
    socket.close()


def still_answers(socket: Socket) -> None:
    socket.send({"type": "sync"})
    assert socket.next()["type"] == "state"


def test_an_oversized_message_is_refused_and_the_socket_lives(seated):
    seated.send({"type": "sync", "ref": "r", "pad": "x" * 5000})
    assert seated.next() == {
        "type": "error", "code": "bad_request",
        "message": "Messages are at most 4096 bytes.", "ref": None,
    }
    still_answers(seated)


def test_a_long_ref_is_not_echoed(seated):
    seated.send({"type": "dance", "ref": "r" * 1000})
    error = seated.next()
    assert (error["code"], error["ref"]) == ("bad_request", None)
    assert "ref" in error["message"]
    still_answers(seated)


def test_a_binary_frame_is_a_bad_request(seated):
    seated.ws.send(b'{"type": "sync"}')
    error = seated.next()
    assert error["code"] == "bad_request"
    assert error["message"] == "Messages are JSON text, not binary."
    still_answers(seated)


@pytest.mark.parametrize("depth", [40, 1500])
def test_json_nested_too_deep_is_a_bad_request(seated, depth):
    nested = "[" * depth + "]" * depth
    seated.ws.send('{"type": "move", "expect_version": 0, "move": ' + nested + "}")
    error = seated.next()
    assert error["code"] == "bad_request" and "nest" in error["message"]
    still_answers(seated)


def test_a_frame_far_beyond_the_cap_closes_the_socket(live, seated):
    seated.ws.send("x" * (16 * 4096 + 1))
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            seated.recv()
    assert closed.value.rcvd.code == 1009


def test_a_lobby_socket_answers_a_binary_frame_and_stays(live):
    ana = live.guest("Ana")
    lobby = live.lobby(ana)
    with connect(f"{live.ws_url}/ws/lobbies/{lobby['id']}") as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "lobby"
        ws.send(b"\x00\x01")
        assert json.loads(ws.recv(timeout=10))["code"] == "bad_request"
        live.guest("Ben").post("/api/lobbies/join", json={"invite_code": lobby["invite_code"]})
        assert json.loads(ws.recv(timeout=10))["type"] == "lobby"


@pytest.mark.parametrize("message", ["null", "[]", "7", '"move"'])
def test_a_message_that_is_not_an_object_is_told_so(seated, message):
    seated.ws.send(message)
    assert seated.next() == {
        "type": "error", "code": "bad_request", "message": "A message is a JSON object.",
        "ref": None,
    }
    still_answers(seated)
