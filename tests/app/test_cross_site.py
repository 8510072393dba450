"""Another site's page cannot act with the player's cookie, and pages refuse to be framed."""

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from tests.app.sockets import Socket

EVIL = "https://evil.example"


@pytest.fixture
def lobby_and_victim(live):
    ana = live.guest("Ana")
    lobby = live.lobby(ana, seats=2, private=False)
    victim = live.client()
    victim.cookies.set("campground_token", live.guest("Ben").token)
    return lobby, victim


def test_a_cookie_post_from_another_origin_is_refused(live, lobby_and_victim):
    lobby, victim = lobby_and_victim
    r = victim.post(f"/api/lobbies/{lobby['id']}/join", headers={"Origin": EVIL})
    assert r.status_code == 403 and "Cross-site" in r.json()["detail"]
    r = victim.post(f"/api/lobbies/{lobby['id']}/join", headers={"Sec-Fetch-Site": "cross-site"})
    assert r.status_code == 403
    assert live.client().get(f"/api/lobbies/{lobby['id']}").json()["seats"][1]["player"] is None


def test_a_cookie_post_from_the_site_itself_or_a_script_is_served(live, lobby_and_victim):
    lobby, victim = lobby_and_victim
    r = victim.post(f"/api/lobbies/{lobby['id']}/join", headers={"Origin": live.url})
    assert r.status_code == 200 and r.json()["you"] == 1
    assert victim.post(f"/api/lobbies/{lobby['id']}/join").status_code == 200


def test_a_bearer_token_works_from_anywhere(live):
    ana = live.guest("Ana")
    r = ana.post("/api/lobbies", json={"game": "hike"}, headers={"Origin": EVIL})
    assert r.status_code == 201


def test_another_site_cannot_make_a_player_for_the_browser(live):
    r = live.client().post("/api/players", json={"name": "Eve"}, headers={"Origin": EVIL})
    assert r.status_code == 403 and "set-cookie" not in r.headers


def test_a_socket_from_another_origin_is_refused(live):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    game_id = live.start_game(ana, ben)
    url = f"{live.ws_url}/ws/games/{game_id}"
    cookie = {"Cookie": f"campground_token={ana.token}"}
    with pytest.raises(InvalidStatus) as refused:
        connect(url, origin=EVIL, additional_headers=cookie, open_timeout=10)
    assert refused.value.response.status_code == 403
    with connect(url, origin=live.url, additional_headers=cookie, open_timeout=10) as ws:
        assert '"you":0' in ws.recv(timeout=10)
    Socket(live, game_id, cookie=ana.token).close()  # a script sends no Origin


@pytest.mark.parametrize("path", ["/", "/games/some-game", "/join/abc"])
def test_pages_carry_security_headers(live, path):
    r = live.client().get(path)
    assert r.status_code == 200
    csp = r.headers["content-security-policy"]
    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert "'unsafe-inline'" not in csp
    assert r.headers["x-frame-options"] == "DENY"
    assert r.headers["referrer-policy"] == "same-origin"
    assert r.headers["x-content-type-options"] == "nosniff"


def test_api_answers_are_not_sniffed_or_framed(live):
    r = live.client().get("/api/games")
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["x-frame-options"] == "DENY"


@pytest.mark.parametrize("authorization", ["Bearer", "junk", "Basic eA=="])
def test_a_cookie_post_from_another_origin_is_refused_whatever_authorization_it_adds(
    live, lobby_and_victim, authorization
):
    lobby, victim = lobby_and_victim
    r = victim.post(
        f"/api/lobbies/{lobby['id']}/join", headers={"Origin": EVIL, "Authorization": authorization}
    )
    assert r.status_code == 403 and "Cross-site" in r.json()["detail"]
    assert live.client().get(f"/api/lobbies/{lobby['id']}").json()["seats"][1]["player"] is None


def test_a_bearer_token_beside_the_cookie_is_checked_for_its_origin_too(live, lobby_and_victim):
    lobby, victim = lobby_and_victim
    ben = live.guest("Ben 2")
    r = victim.post(
        f"/api/lobbies/{lobby['id']}/join",
        headers={"Origin": EVIL, "Authorization": f"Bearer {ben.token}"},
    )
    assert r.status_code == 403
