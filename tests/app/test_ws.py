import random

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.app.sockets import Socket, next_lobby


@pytest.fixture
def table(live):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    game_id = live.start_game(ana, ben)
    sockets = []

    def open_socket(**kw):
        sockets.append(Socket(live, game_id, **kw))
        return sockets[-1]

    yield ana, ben, game_id, open_socket
    for s in sockets:
        s.close()


def test_players_see_each_others_moves_as_patches(live, table):
    ana, ben, game_id, open_socket = table
    a, b = open_socket(token=ana.token), open_socket(cookie=ben.token)
    assert a.view == live.state(ana, game_id)["view"] and a.view["you"] == 0
    assert b.view == live.state(ben, game_id)["view"] and b.view["you"] == 1
    rng = random.Random(5)
    for _ in range(12):
        mover = a if 0 in a.view["to_act"] else b
        move = rng.choice(mover.view["legal_moves"])["move"]
        ref = f"m{mover.version}"
        mover.send({"type": "move", "move": move, "expect_version": mover.version, "ref": ref})
        version = mover.version + 1
        for s in (a, b):
            s.until_version(version)
        # The ack and the patch travel separately; either may come first.
        ack = mover.others.pop() if mover.others else mover.next()
        assert ack == {"type": "ack", "ref": ref, "version": version}
        assert a.view == live.state(ana, game_id)["view"]
        assert b.view == live.state(ben, game_id)["view"]
    assert a.version == b.version == live.state(ana, game_id)["version"] == 12


def test_http_moves_reach_sockets_and_spectators(live, table):
    ana, ben, game_id, open_socket = table
    watcher = open_socket()
    assert watcher.view["you"] is None and watcher.view["legal_moves"] == []
    move = live.state(ana, game_id)["view"]["legal_moves"][0]["move"]
    r = ana.post(f"/api/games/{game_id}/moves", json={"move": move, "expect_version": 0})
    assert r.status_code == 200
    watcher.until_version(1)
    assert watcher.view == live.state(live.client(), game_id)["view"]


def test_move_errors_carry_the_ref(live, table):
    ana, ben, game_id, open_socket = table
    a, b, watcher = open_socket(token=ana.token), open_socket(token=ben.token), open_socket()
    b.send({"type": "move", "move": {"type": "draw"}, "expect_version": 0, "ref": 1})
    assert b.next() == {
        "type": "error",
        "code": "illegal_move",
        "message": "It is not your turn.",
        "ref": 1,
    }
    a.send({"type": "move", "move": {"type": "draw"}, "expect_version": 3, "ref": "x"})
    error = a.next()
    assert (error["code"], error["ref"]) == ("stale_version", "x")
    a.send({"type": "move", "move": {"type": "draw"}, "ref": "y"})
    assert (a.next()["code"], "y") == ("bad_request", "y")
    a.send({"type": "dance", "ref": "z"})
    assert a.next()["code"] == "bad_request"
    a.ws.send("not json")
    assert a.next()["code"] == "bad_request"
    a.ws.send(r'{"type": "dance", "ref": "a\ud800"}')
    error = a.next()
    assert (error["code"], error["ref"]) == ("bad_request", "a\ud800")
    watcher.send({"type": "move", "move": {"type": "draw"}, "expect_version": 0, "ref": "w"})
    assert watcher.next() == {
        "type": "error",
        "code": "not_seated",
        "message": "You have no seat at this game.",
        "ref": "w",
    }
    assert live.state(ana, game_id)["version"] == 0


def test_a_repeated_move_applies_once(live, table):
    ana, ben, game_id, open_socket = table
    a = open_socket(token=ana.token)
    move = a.view["legal_moves"][0]["move"]
    message = {"type": "move", "move": move, "expect_version": 0, "ref": "once"}
    a.send(message)
    assert a.next() == {"type": "ack", "ref": "once", "version": 1}
    a.send(message)
    error = a.next()
    assert (error["code"], error["ref"]) == ("stale_version", "once")
    assert len(live.admin().get(f"/api/admin/games/{game_id}/moves").json()) == 1


def test_sync_sends_a_fresh_state(live, table):
    ana, ben, game_id, open_socket = table
    a = open_socket(token=ana.token)
    move = live.state(ana, game_id)["view"]["legal_moves"][0]["move"]
    ana.post(f"/api/games/{game_id}/moves", json={"move": move, "expect_version": 0})
    a.send({"type": "sync"})
    state = a.next()
    assert state == {"type": "state", "version": 1, "view": live.state(ana, game_id)["view"]}


def test_an_abort_reaches_the_sockets(live, table):
    ana, ben, game_id, open_socket = table
    a = open_socket(token=ana.token)
    assert live.admin().post(f"/api/admin/games/{game_id}/abort").status_code == 200
    # Same version, new view: a patch from version 0 to version 0.
    patch = a.recv()
    assert (patch["type"], patch["from"], patch["version"]) == ("patch", 0, 0)
    a.apply(patch)
    assert a.view["table"]["status"] == "aborted" and a.view["legal_moves"] == []
    assert a.view == live.state(ana, game_id)["view"]


def test_bot_moves_arrive_as_patches(live):
    ana = live.guest("Ana")
    game_id = live.start_game(ana, bots=("random",))
    a = Socket(live, game_id, token=ana.token)
    rng = random.Random(11)
    try:
        for _ in range(10):
            while 0 not in a.view["to_act"] and a.view["outcome"] is None:
                message = a.recv()
                if message["type"] == "patch":
                    a.apply(message)
            if a.view["outcome"] is not None:
                break
            move = rng.choice(a.view["legal_moves"])["move"]
            a.send({"type": "move", "move": move, "expect_version": a.version, "ref": a.version})
            reply = a.next()
            # Both seats may be asked at once (joining a hike): the bot can get there first.
            if reply["type"] == "error":
                assert reply["code"] == "stale_version", reply
                continue
            assert reply["type"] == "ack", reply
            a.until_version(reply["version"])
        log = live.admin().get(f"/api/admin/games/{game_id}/moves").json()
        assert any(m["seat"] == 1 for m in log)
        current = live.state(ana, game_id)
        a.until_version(current["version"])
        assert a.view == current["view"]
    finally:
        a.close()


@pytest.mark.parametrize(
    "path", ["/ws/games/nope", "/ws/lobbies/nope", "/ws/games/no%00pe", "/ws/lobbies/no%00pe"]
)
def test_unknown_game_or_lobby_closes_the_socket(live, path):
    with connect(f"{live.ws_url}{path}") as ws:
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
    assert closed.value.rcvd.code == 4404


def test_lobby_socket_follows_the_lobby(live):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    lobby = live.lobby(ana, seats=3)
    with connect(f"{live.ws_url}/ws/lobbies/{lobby['id']}?token={ana.token}") as ws:
        assert next_lobby(ws) == lobby
        ben.post("/api/lobbies/join", json={"invite_code": lobby["invite_code"]})
        assert next_lobby(ws)["seats"][1]["player"] == {"id": ben.id, "name": "Ben", "handle": None}
        ben.post(f"/api/lobbies/{lobby['id']}/leave")
        assert next_lobby(ws)["seats"][1]["player"] is None
        ana.post(f"/api/lobbies/{lobby['id']}/bots", json={"seat": 1, "level": "heuristic"})
        assert next_lobby(ws)["seats"][1]["bot"] == "heuristic"
        ana.delete(f"/api/lobbies/{lobby['id']}/seats/1")
        assert next_lobby(ws)["seats"][1]["bot"] is None
        ben.post("/api/lobbies/join", json={"invite_code": lobby["invite_code"]})
        assert next_lobby(ws)["seats"][1]["player"] == {"id": ben.id, "name": "Ben", "handle": None}
        ana.post(f"/api/lobbies/{lobby['id']}/bots", json={"seat": 2, "level": "random"})
        assert next_lobby(ws)["seats"][2]["bot"] == "random"
        game_id = ana.post(f"/api/lobbies/{lobby['id']}/start").json()["game_id"]
        started = next_lobby(ws)
        assert started["status"] == "started" and started["game_id"] == game_id
        assert started["you"] == 0 and started["invite_code"] == lobby["invite_code"]
