"""PATCH /api/players/me: a new name, the same player, shown live wherever they sit."""

from websockets.sync.client import connect

from tests.app.sockets import Socket, next_lobby


def test_a_rename_keeps_the_player_and_reaches_open_sockets(live, documented):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    game_id = live.start_game(ana, ben)
    lobby = live.lobby(ana, seats=2, private=False)
    sock = Socket(live, game_id, token=ben.token)
    try:
        with connect(f"{live.ws_url}/ws/lobbies/{lobby['id']}?token={ben.token}") as ws:
            next_lobby(ws)
            r = ana.patch("/api/players/me", json={"name": "  Anabel "})
            documented(r, "PATCH", "/api/players/me")
            assert r.status_code == 200 and r.json() == (
                {"id": ana.id, "name": "Anabel", "handle": None}
            )
            assert next_lobby(ws)["seats"][0]["player"] == (
                {"id": ana.id, "name": "Anabel", "handle": None}
            )
        version = sock.version
        while sock.view["table"]["seats"][0]["name"] != "Anabel":
            sock.apply(sock.recv())
        assert sock.version == version
    finally:
        sock.close()
    assert ana.get("/api/players/me").json() == {"id": ana.id, "name": "Anabel", "handle": None}
    view = live.state(ana, game_id)["view"]
    assert view["you"] == 0 and view["table"]["seats"][0]["name"] == "Anabel"
    games = ana.get("/api/players/me/games").json()["games"]
    assert [s["name"] for s in games[0]["seats"]] == ["Anabel", "Ben"]


def test_a_bad_name_is_refused(live, documented):
    ana = live.guest("Ana")
    r = ana.patch("/api/players/me", json={"name": "   "})
    assert r.status_code == 422
    documented(r, "PATCH", "/api/players/me")
    assert live.client().patch("/api/players/me", json={"name": "X"}).status_code == 401
    assert ana.get("/api/players/me").json()["name"] == "Ana"
