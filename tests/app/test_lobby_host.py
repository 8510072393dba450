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
        # Told that they cannot sit down again, where the host and the others are not.
        assert seen["removed"] is True
        assert r.json()["removed"] is False
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


def test_a_removed_player_cannot_rejoin_until_a_new_invite_code(live, documented):
    ana, ben, cal = live.guest("Ana"), live.guest("Ben"), live.guest("Cal")
    lobby = live.lobby(ana, seats=3, private=False)
    code = lobby["invite_code"]
    ben.post("/api/lobbies/join", json={"invite_code": code})
    assert ana.delete(f"/api/lobbies/{lobby['id']}/seats/1").status_code == 200
    for again in (
        ben.post("/api/lobbies/join", json={"invite_code": code}),
        ben.post(f"/api/lobbies/{lobby['id']}/join"),
    ):
        documented(again, "POST", "/api/lobbies/join")
        assert again.status_code == 403
        assert again.json()["detail"] == "The host removed you from this lobby."
    assert ana.get(f"/api/lobbies/{lobby['id']}").json()["seats"][1]["player"] is None
    assert ben.get(f"/api/lobbies/{lobby['id']}").json()["removed"] is True
    # Someone else still joins with the same code.
    assert cal.post("/api/lobbies/join", json={"invite_code": code}).json()["you"] == 1

    assert ben.post(f"/api/lobbies/{lobby['id']}/invite_code").status_code == 403
    with connect(f"{live.ws_url}/ws/lobbies/{lobby['id']}?token={cal.token}") as ws:
        next_lobby(ws)
        r = ana.post(f"/api/lobbies/{lobby['id']}/invite_code")
        documented(r, "POST", "/api/lobbies/{lobby_id}/invite_code")
        assert r.status_code == 200
        new = r.json()["invite_code"]
        assert new != code and r.json()["invite_url"].endswith(f"/join/{new}")
        assert next_lobby(ws)["invite_code"] == new
    for old in (
        ben.get(f"/api/lobbies/invite/{code}"),
        ben.post("/api/lobbies/join", json={"invite_code": code}),
    ):
        assert old.status_code == 410
        assert old.json()["detail"] == (
            "The host has replaced this invite link: ask them for the new one."
        )
    documented(ben.get(f"/api/lobbies/invite/{code}"), "GET", "/api/lobbies/invite/{invite_code}")
    # Invited again, with the new code.
    assert ben.get(f"/api/lobbies/{lobby['id']}").json()["removed"] is False
    assert ben.post("/api/lobbies/join", json={"invite_code": new}).json()["you"] == 2
