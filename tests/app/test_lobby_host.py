"""The host removes people and closes the lobby; whoever watches the lobby sees it live."""

from websockets.sync.client import connect

from tests.app.sockets import next_lobby


def test_the_host_removes_a_person_and_they_see_it(live, documented):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    lobby = live.lobby(ana, seats=3)
    ben.post("/api/lobbies/join", json={"invite_code": lobby["invite_code"]})
    with connect(f"{live.ws_url}/ws/lobbies/{lobby['id']}?token={ben.token}") as ws:
        assert next_lobby(ws)["you"] == 1
        assert ben.delete(f"/api/lobbies/{lobby['id']}/seats/0").status_code == 403
        r = ana.delete(f"/api/lobbies/{lobby['id']}/seats/1")
        documented(r, "DELETE", "/api/lobbies/{lobby_id}/seats/{seat}")
        assert r.status_code == 200 and r.json()["seats"][1]["player"] is None
        seen = next_lobby(ws)
        assert seen["you"] is None and seen["seats"][1]["player"] is None
    r = ana.delete(f"/api/lobbies/{lobby['id']}/seats/0")
    assert r.status_code == 409 and "own seat" in r.json()["detail"]


def test_the_host_closes_the_lobby_for_everyone(live, documented):
    ana, ben, cal = live.guest("Ana"), live.guest("Ben"), live.guest("Cal")
    lobby = live.lobby(ana, seats=3)
    ben.post("/api/lobbies/join", json={"invite_code": lobby["invite_code"]})
    with connect(f"{live.ws_url}/ws/lobbies/{lobby['id']}?token={ben.token}") as ws:
        next_lobby(ws)
        assert ben.post(f"/api/lobbies/{lobby['id']}/close").status_code == 403
        r = ana.post(f"/api/lobbies/{lobby['id']}/close")
        documented(r, "POST", "/api/lobbies/{lobby_id}/close")
        assert r.status_code == 200 and r.json()["status"] == "closed"
        assert next_lobby(ws)["status"] == "closed"
    r = cal.post("/api/lobbies/join", json={"invite_code": lobby["invite_code"]})
    assert r.status_code == 409 and r.json()["detail"] == "The lobby is closed."
    assert ana.post(f"/api/lobbies/{lobby['id']}/start").status_code == 409
    again = ana.post(f"/api/lobbies/{lobby['id']}/close")
    assert again.status_code == 409
    documented(again, "POST", "/api/lobbies/{lobby_id}/close")
