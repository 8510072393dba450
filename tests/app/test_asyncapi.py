"""/asyncapi.json describes the sockets: it is a valid AsyncAPI 3.0 document (checked against
the specification's own JSON Schema, vendored in ``vendor/asyncapi``), and every message the
server sends in a whole game of each kind, on a lobby socket and in a refusal's close reason
fits the schema the document gives it."""

from __future__ import annotations

import json
import random
from pathlib import Path

import jsonschema
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from app import shapes
from engine.registry import GAMES
from tests.app.sockets import Socket
from tests.app.conftest import sqlite_copy


@pytest.fixture(scope="module")
def database_url(sqlite_template, tmp_path_factory) -> str:
    """SQLite only: the messages' shapes do not depend on the database."""
    return sqlite_copy(sqlite_template, tmp_path_factory, "asyncapi")


SPEC = json.loads((Path(__file__).parent / "vendor" / "asyncapi" / "3.0.0.json").read_text())


@pytest.fixture(scope="module")
def document(live) -> dict:
    r = live.client().get("/asyncapi.json")
    assert r.status_code == 200
    return r.json()


def validator(document: dict, names: list[str]) -> jsonschema.Draft7Validator:
    """Checks a message against exactly one of the messages ``names``; the document's
    components travel with the schema, so its references resolve."""
    messages = document["components"]["messages"]
    schema = {
        "oneOf": [messages[name]["payload"] for name in names],
        "components": document["components"],
    }
    return jsonschema.Draft7Validator(schema)


class Checked:
    """Every message a socket receives, checked against what its channel's operation sends."""

    def __init__(self, document: dict, channel: str):
        sent = document["operations"][f"send{channel.title()}"]["messages"]
        self.names = [ref["$ref"].rsplit("/", 1)[1] for ref in sent]
        self.validator = validator(document, self.names)
        self.types: set[str] = set()

    def __call__(self, message: dict) -> dict:
        self.validator.validate(message)
        self.types.add(message["type"])
        return message


def test_the_document_is_asyncapi_3(live, document):
    jsonschema.Draft7Validator(SPEC).validate(document)
    assert document["asyncapi"] == "3.0.0"
    assert document["servers"]["campground"] == {"host": live.url.split("//")[1], "protocol": "ws"}
    assert {c["address"] for c in document["channels"].values()} == {
        "/ws/games/{game_id}",
        "/ws/lobbies/{lobby_id}",
    }
    assert shapes.REF not in json.dumps(document)
    # The check is real: a document that breaks the specification fails it.
    broken = document | {"channels": {"game": {"address": 404}}}
    assert not jsonschema.Draft7Validator(SPEC).is_valid(broken)


def test_a_message_that_drifts_from_its_schema_fails(document):
    check = Checked(document, "game")
    check({"type": "ack", "ref": 1, "version": 3})
    for wrong in (
        {"type": "ack", "ref": 1, "version": "3"},
        {"type": "ack", "ref": 1},
        {"type": "ack", "ref": 1, "version": 3, "extra": True},
        {"type": "cheer", "ref": 1},
    ):
        with pytest.raises(jsonschema.ValidationError):
            check(wrong)


def play_through(live, document, kind: str) -> Checked:
    """Ana and random bots play a whole game of ``kind``; Ana plays at random through her
    socket, and also chats, asks for a sync and sends a move that is not hers to make."""
    ana = live.guest("Ana")
    game = GAMES[kind]
    game_id = live.start_game(ana, bots=("random",) * (game.min_players - 1), game=kind)
    check = Checked(document, "game")
    socket = Socket(live, game_id, token=ana.token)
    rng = random.Random(kind)
    try:
        check({"type": "state", "version": socket.version, "view": socket.view})
        socket.send({"type": "chat", "text": "Good luck", "ref": "hi"})
        socket.send({"type": "sync"})
        socket.send({"type": "move", "move": {"type": "nothing"}, "expect_version": 0, "ref": 1})
        waiting = False  # for the answer to Ana's move, or the change it brings
        for _ in range(20000):
            view = socket.view
            if view["outcome"] is not None:
                break
            if not waiting and view["you"] in view["to_act"] and view["legal_moves"]:
                entry = rng.choice(view["legal_moves"])
                socket.send(
                    {
                        "type": "move",
                        "move": entry["move"],
                        "expect_version": socket.version,
                        "ref": socket.version,
                    }
                )
                waiting = True
            message = check(socket.recv(timeout=30))
            if message["type"] == "patch":
                socket.apply(message)
            elif message["type"] == "state":
                socket.version, socket.view = message["version"], message["view"]
            waiting = waiting and message["type"] not in ("patch", "state", "error")
        else:
            raise AssertionError("the game did not end")
    finally:
        socket.close()
    return check


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(GAMES))
def test_every_message_of_a_whole_game_fits_the_document(live, document, kind):
    check = play_through(live, document, kind)
    assert {"state", "patch", "ack", "error", "chat"} <= check.types


def test_every_message_on_a_lobby_socket_fits_the_document(live, document):
    ana = live.guest("Ana")
    lobby = live.lobby(ana, seats=2)
    check = Checked(document, "lobby")
    headers = {"Authorization": f"Bearer {ana.token}"}
    with connect(
        f"{live.ws_url}/ws/lobbies/{lobby['id']}", additional_headers=headers, open_timeout=10
    ) as ws:
        check(json.loads(ws.recv(timeout=10)))
        ws.send(json.dumps({"type": "chat", "text": "Who is in?"}))
        ws.send(json.dumps({"type": "move"}))
        r = ana.post(f"/api/lobbies/{lobby['id']}/bots", json={"seat": 1, "level": "random"})
        assert r.status_code == 200
        assert ana.post(f"/api/lobbies/{lobby['id']}/start").status_code == 201
        while True:
            message = check(json.loads(ws.recv(timeout=10)))
            if message["type"] == "lobby" and message["lobby"]["game_id"]:
                break
    assert check.types == {"lobby", "chat", "error"}


def test_a_refusals_close_reason_fits_the_document(database_url, serve, document):
    close = jsonschema.Draft7Validator(
        {"$ref": "#/components/schemas/CloseReason", "components": document["components"]}
    )
    with serve(database_url, MAX_SOCKETS_PER_PLAYER=1) as live:
        ana = live.guest("Ana")
        game_id = live.start_game(ana, bots=("random",))
        first = Socket(live, game_id, token=ana.token)
        try:
            url = f"{live.ws_url}/ws/games/{game_id}?token={ana.token}"
            with connect(url, open_timeout=10) as ws, pytest.raises(ConnectionClosed) as closed:
                while True:
                    ws.recv(timeout=10)
        finally:
            first.close()
    assert closed.value.rcvd.code == 4429
    said = json.loads(closed.value.rcvd.reason)
    close.validate(said)
    assert said["retry_after"] >= 1
