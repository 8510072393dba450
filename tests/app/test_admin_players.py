"""Admin of players: look up by handle, sign out everywhere, suspend; ratings recomputed are in
test_ratings."""

import json
import random

from websockets.sync.client import connect

from tests.app.accounts import device, signed_in
from tests.app.sockets import Socket, next_lobby
from tests.app.test_games import play_as

SUSPENDED = "You are suspended: you can watch tables, but not play, host, chat or rename."


def stand_ins(sql, game_id):
    [(found,)] = sql("select stand_ins from games where id = :g", g=game_id)
    return json.loads(found) if isinstance(found, str) else found


def suspend(live, player):
    """Suspend ``player``, who is signed out everywhere by it, and sign them in again."""
    r = live.admin().post(f"/api/admin/players/{player.id}/suspension")
    assert r.status_code == 200, r.text
    assert player.get("/api/players/me").status_code == 401
    return device(live, player.handle)


def test_look_a_player_up_by_handle(live, documented):
    ana = signed_in(live, "Ana")
    device(live, ana.handle)
    admin = live.admin()
    r = admin.get("/api/admin/players", params={"handle": ana.handle.upper()})
    documented(r, "GET", "/api/admin/players")
    found = r.json()
    assert (found["id"], found["handle"], found["devices"]) == (ana.id, ana.handle, 2)
    assert found["suspended_at"] is None
    assert admin.get("/api/admin/players", params={"handle": "nobody"}).status_code == 404
    r = ana.get("/api/admin/players", params={"handle": ana.handle})
    assert r.status_code == 401


def test_sign_out_all_their_devices(live, documented):
    ana = signed_in(live, "Ana")
    phone = device(live, ana.handle)
    r = live.admin().delete(f"/api/admin/players/{ana.id}/sessions")
    documented(r, "DELETE", "/api/admin/players/{player_id}/sessions")
    assert r.json() == {"signed_out": 2}
    for client in (ana, phone):
        assert client.get("/api/players/me").status_code == 401
    device(live, ana.handle)
    assert live.admin().delete("/api/admin/players/nobody/sessions").status_code == 404


def test_a_suspended_player_takes_no_seat_and_moves_no_more(database_url, serve, sql, documented):
    # Bots wait a minute: the suspended player's move meets their seat before the bot's does.
    with serve(database_url, BOT_DELAY=60) as live:
        ana, ben, cy = signed_in(live, "Ana"), signed_in(live, "Ben"), live.guest("Cy")
        game_id = live.start_game(ana, ben)
        open_lobby = live.lobby(cy, seats=2)
        r = live.admin().post(f"/api/admin/players/{ana.id}/suspension")
        assert r.status_code == 200, r.text
        assert r.json()["suspended_at"] is not None and r.json()["seats_stood_in"] == 1
        # Every device is signed out; signed in again, Ana may watch and nothing more.
        assert r.json()["devices"] == 0 and ana.get("/api/players/me").status_code == 401
        ana = device(live, ana.handle)
        for refused in (
            ana.post("/api/lobbies", json={"game": "hike"}),
            ana.post("/api/lobbies/join", json={"invite_code": open_lobby["invite_code"]}),
        ):
            assert refused.status_code == 403 and "suspended" in refused.json()["detail"]
        state = live.state(ana, game_id)
        assert state["view"]["you"] == 0 and state["view"]["to_act"] == [0]
        move = state["view"]["legal_moves"][0]["move"]
        r = ana.post(f"/api/games/{game_id}/moves", json={"move": move, "expect_version": 0})
        assert r.status_code == 422
        assert r.json()["detail"] == "You are suspended: the bot plays your seat now."
        assert stand_ins(sql, game_id) == {"0": "suspended"}
        r = live.admin().delete(f"/api/admin/players/{ana.id}/suspension")
        documented(r, "DELETE", "/api/admin/players/{player_id}/suspension")
        assert r.json()["suspended_at"] is None
        assert ana.post("/api/lobbies", json={"game": "hike"}).status_code == 201


def test_the_bot_plays_a_suspended_players_seat(live, documented):
    ana, ben = signed_in(live, "Ana"), signed_in(live, "Ben")
    game_id = live.start_game(ana, ben)
    r = live.admin().post(f"/api/admin/players/{ana.id}/suspension")
    documented(r, "POST", "/api/admin/players/{player_id}/suspension")
    live.wait_for(ben, game_id, lambda s: s["version"] >= 1)
    [first, *_] = live.admin().get(f"/api/admin/games/{game_id}/moves").json()
    assert first["seat"] == 0
    assert live.admin().post("/api/admin/players/nobody/suspension").status_code == 404


def test_each_admin_change_to_a_player_or_ratings_is_in_the_audit_log(live):
    ana = signed_in(live, "Ana")
    admin = live.admin()
    admin.headers["X-Admin-Name"] = "sam"
    assert admin.delete(f"/api/admin/players/{ana.id}/sessions").status_code == 200
    assert admin.post(f"/api/admin/players/{ana.id}/suspension").status_code == 200
    assert admin.delete(f"/api/admin/players/{ana.id}/suspension").status_code == 200
    assert admin.post("/api/admin/ratings/hike/recompute").status_code == 200
    log = admin.get("/api/admin/audit", params={"limit": 4}).json()
    assert [(e["action"], e["target"], e["actor"]) for e in log] == [
        ("ratings.recompute", "hike", "sam"),
        ("player.unsuspend", ana.id, "sam"),
        ("player.suspend", ana.id, "sam"),
        ("player.sign_out", ana.id, "sam"),
    ]
    assert log[3]["details"] == {"devices": 1}
    assert log[2]["details"] == {"changed": True}
    # A refused change writes nothing.
    assert admin.post("/api/admin/players/nobody/suspension").status_code == 404
    assert admin.get("/api/admin/audit", params={"limit": 1}).json()[0] == log[0]


def test_a_suspended_players_seat_at_a_lobby_that_starts_later_is_the_bots(live, sql):
    ben, ana = signed_in(live, "Ben"), signed_in(live, "Ana")
    lobby = live.lobby(ben, seats=2)
    assert (
        ana.post("/api/lobbies/join", json={"invite_code": lobby["invite_code"]}).status_code == 200
    )
    ana = suspend(live, ana)
    r = ben.post(f"/api/lobbies/{lobby['id']}/start")
    assert r.status_code == 201, r.text
    game_id = r.json()["game_id"]
    assert stand_ins(sql, game_id) == {"1": "suspended"}
    move = live.state(ben, game_id)["view"]["legal_moves"][0]["move"]
    refused = "You are suspended: the bot plays your seat now."
    r = ana.post(f"/api/games/{game_id}/moves", json={"move": move, "expect_version": 0})
    assert r.status_code == 422 and r.json()["detail"] == refused
    socket = Socket(live, game_id, token=ana.token)
    try:
        assert socket.view["you"] == 1
        socket.send({"type": "move", "move": move, "expect_version": 0, "ref": "m"})
        error = socket.next()
        assert (error["type"], error["message"]) == ("error", refused)
    finally:
        socket.close()
    # The game goes on for Ben against the bot, and the rated result ranks Ana's seat last.
    play_as(live, ben, game_id, random.Random(5), lambda s: s["view"]["outcome"] is not None)
    places = dict(sql("select seat, place from rating_changes where game_id = :g", g=game_id))
    assert places == {0: 0, 1: 1}


def test_a_suspended_host_hosts_no_more(live):
    ana, ben = signed_in(live, "Ana"), live.guest("Ben")
    lobby = live.lobby(ana, seats=3)
    assert (
        ben.post("/api/lobbies/join", json={"invite_code": lobby["invite_code"]}).status_code == 200
    )
    with connect(f"{live.ws_url}/ws/lobbies/{lobby['id']}?token={ben.token}") as ws:
        assert next_lobby(ws)["status"] == "open"
        ana = suspend(live, ana)
        # Nobody waits at a table that can no longer start.
        assert next_lobby(ws)["status"] == "closed"
    path = f"/api/lobbies/{lobby['id']}"
    for r in (
        ana.post(f"{path}/bots", json={"seat": 2, "level": "random"}),
        ana.post(f"{path}/start"),
        ana.put(f"{path}/stand_in", json={"level": "random"}),
        ana.delete(f"{path}/seats/1"),
        ana.post(f"{path}/invite_code"),
    ):
        assert r.status_code == 403 and r.json()["detail"] == SUSPENDED, r.text


def test_a_suspended_player_neither_chats_nor_renames(live):
    ana, ben = signed_in(live, "Ana"), live.guest("Ben")
    game_id = live.start_game(ana, ben)
    lobby = live.lobby(ben, seats=2)
    assert (
        ana.post("/api/lobbies/join", json={"invite_code": lobby["invite_code"]}).status_code == 200
    )
    ana = suspend(live, ana)
    r = ana.patch("/api/players/me", json={"name": "Not Ana"})
    assert r.status_code == 403 and r.json()["detail"] == SUSPENDED
    socket = Socket(live, game_id, token=ana.token)
    try:
        socket.send({"type": "chat", "text": "hello", "ref": "c"})
        error = socket.next()
        assert (error["type"], error["message"]) == ("error", SUSPENDED)
    finally:
        socket.close()
    with connect(f"{live.ws_url}/ws/lobbies/{lobby['id']}?token={ana.token}") as ws:
        next_lobby(ws)
        ws.send(json.dumps({"type": "chat", "text": "hello"}))
        assert json.loads(ws.recv(timeout=10))["message"] == SUSPENDED
    assert ben.get(f"/api/games/{game_id}/chat").json() == []
    assert ben.get(f"/api/lobbies/{lobby['id']}/chat").json() == []
    assert ben.get("/api/players/" + ana.handle).json()["name"] == "Ana"
