"""Last Stick (``tests/tiny_game``), registered only here, plays through the server like the
real games: the documents describe it (its view in /openapi.json, its messages in
/asyncapi.json), a whole game against the server's bot fits them, and no view the server
sends a seat shows the other hand."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest

from tests.app import test_asyncapi as asyncapi
from tests.app.conftest import LiveServer, running, settings_for
from tests.app.sockets import Socket
from tests.tiny_game import GAME, registered

CARD_ID = re.compile(r'"id": ?(\d+)')


@pytest.fixture(scope="module")
def live(database_url) -> Iterator[LiveServer]:
    """A server that plays Last Stick too, its bots thought out in its own process (a bot
    worker imports the registry afresh, without the tests' game)."""
    with registered(), running(settings_for(database_url, BOT_WORKERS=0)) as server:
        yield server


@pytest.fixture(scope="module")
def document(live) -> dict:
    return live.client().get("/asyncapi.json").json()


def test_the_documents_describe_the_game(live, document):
    schema = live.client().get("/openapi.json").json()
    components = schema["components"]["schemas"]
    mapping = components["GameState"]["properties"]["view"]["discriminator"]["mapping"]
    assert mapping[GAME.id] == "#/components/schemas/LastStickView"
    assert GAME.id in components["GameKindId"]["enum"]
    assert components["LastStickPlay"]["properties"]["type"]["const"] == "play"
    assert "LastStickView" in document["components"]["schemas"]
    kinds = {kind["id"]: kind for kind in live.client().get("/api/games").json()}
    assert kinds[GAME.id]["options_schema"]["properties"]["sticks"]["maximum"] == 14


def test_a_whole_game_against_the_servers_bot_fits_the_documents(live, document):
    check = asyncapi.play_through(live, document, GAME.id)
    assert {"state", "patch", "ack", "error", "chat"} <= check.types


def test_no_view_the_server_sends_shows_the_other_hand(live, documented):
    ana = live.guest("Ana")
    lobby = live.lobby(ana, game=GAME.id, seats=2, private=False)
    assert (
        ana.post(
            f"/api/lobbies/{lobby['id']}/bots", json={"seat": 1, "level": "heuristic"}
        ).status_code
        == 200
    )
    game_id = ana.post(f"/api/lobbies/{lobby['id']}/start").json()["game_id"]
    state = live.admin().get(f"/api/admin/games/{game_id}").json()["state"]
    seat = live.state(ana, game_id)["view"]["you"]
    hidden = {state["unused"], *state["hands"][1 - seat]}
    socket = Socket(live, game_id, token=ana.token)
    seen = 0
    try:
        while socket.view["outcome"] is None:
            shown = {int(i) for i in CARD_ID.findall(json.dumps(socket.view))}
            assert not shown & hidden
            seen += 1
            view = socket.view
            if seat in view["to_act"]:
                r = ana.post(
                    f"/api/games/{game_id}/moves",
                    json={"move": view["legal_moves"][0]["move"], "expect_version": socket.version},
                )
                assert r.status_code == 200
                documented(r, "POST", "/api/games/{game_id}/moves")
            socket.until_version(socket.version + 1, timeout=30)
        r = ana.get(f"/api/games/{game_id}/state")
        documented(r, "GET", "/api/games/{game_id}/state")
        assert r.json()["view"]["outcome"]["details"]["taken"]
    finally:
        socket.close()
    assert seen >= 3
