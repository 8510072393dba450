import hashlib
import json

import pytest


def test_create_player_returns_token_and_sets_cookie(live):
    client = live.client()
    r = client.post("/api/players", json={"name": "  Ana  "})
    assert r.status_code == 201
    body = r.json()
    assert body["name"] == "Ana"
    assert len(body["token"]) >= 32
    cookie = r.headers["set-cookie"]
    assert cookie.startswith(f"campground_token={body['token']};")
    assert "HttpOnly" in cookie and "Path=/" in cookie and "samesite=lax" in cookie.lower()
    assert "Secure" not in cookie


def test_the_cookie_is_secure_behind_https(database_url, serve):
    with serve(database_url, PUBLIC_URL="https://camp.example") as server:
        r = server.client().post("/api/players", json={"name": "Ana"})
        assert "Secure" in r.headers["set-cookie"]


def test_only_the_token_hash_is_stored(live, sql):
    ana = live.guest("Ana")
    rows = sql("select token_hash from players where id = :id", id=ana.id)
    assert rows == [(hashlib.sha256(ana.token.encode()).hexdigest(),)]
    assert ana.token not in str(rows)


def test_me_by_bearer_token(live):
    ana = live.guest("Ana")
    r = ana.get("/api/players/me")
    assert r.status_code == 200
    assert r.json() == {"id": ana.id, "name": "Ana", "handle": None}


def test_me_by_cookie(live):
    client = live.client()
    created = client.post("/api/players", json={"name": "Ben"}).json()
    r = client.get("/api/players/me")
    assert r.status_code == 200
    assert r.json() == {"id": created["id"], "name": "Ben", "handle": None}


def test_me_without_or_with_an_unknown_token_is_401(live):
    assert live.client().get("/api/players/me").status_code == 401
    r = live.client().get("/api/players/me", headers={"Authorization": "Bearer nope"})
    assert r.status_code == 401


def test_tokens_are_distinct(live):
    assert live.guest("A").token != live.guest("A").token


@pytest.mark.parametrize("name", ["", "   ", "x" * 33])
def test_bad_names_are_422(live, name):
    r = live.client().post("/api/players", json={"name": name})
    assert r.status_code == 422
    assert "1 to 32 characters" in r.text


def test_a_32_character_name_is_fine(live):
    r = live.client().post("/api/players", json={"name": "x" * 32})
    assert r.status_code == 201


def test_a_missing_body_is_a_documented_422(live, documented):
    r = live.client().post("/api/players")
    assert r.status_code == 422
    assert r.json()["detail"][0]["loc"] == ["body"]
    documented(r, "POST", "/api/players")


def test_a_body_that_is_not_utf8_is_a_documented_400(live, documented):
    r = live.client().post(
        "/api/players", content=b"\xff", headers={"Content-Type": "application/json"}
    )
    assert r.status_code == 400
    documented(r, "POST", "/api/players")


@pytest.mark.parametrize("name", [r"A\u0000na", r"A\ud800na", r"A\ud800" + "n" * 40])
def test_a_name_with_a_nul_or_a_lone_surrogate_is_422(live, documented, name):
    """Lone surrogates come from JSON's \\ud800 escapes; UTF-8 cannot encode them."""
    r = live.client().post(
        "/api/players",
        content=f'{{"name": "{name}"}}'.encode(),
        headers={"Content-Type": "application/json"},
    )
    assert r.status_code == 422
    assert r.json()["detail"][0]["input"] == json.loads(f'"{name}"')
    documented(r, "POST", "/api/players")


@pytest.mark.parametrize(
    "name",
    [
        "\u200b",  # zero-width space alone
        "Ana\u200b",  # and inside a name
        "\u2800\u3164",  # blank-looking letters and symbols
        "Ana\u202egnissim",  # right-to-left override
        "\u2066Ana\u2069",  # isolates
        "Ana\u0007",  # BEL
        "Ana\nBen",
        "Ana\u2028",
    ],
)
def test_invisible_direction_and_control_characters_are_refused(live, name):
    r = live.client().post("/api/players", json={"name": name})
    assert r.status_code == 422
    message = r.json()["detail"][0]["msg"]
    assert "invisible" in message or "visible letter" in message


def test_a_name_has_its_spaces_collapsed(live):
    r = live.client().post("/api/players", json={"name": " Ana \u00a0  Lee "})
    assert r.json()["name"] == "Ana Lee"


def test_names_outside_ascii_are_welcome(live):
    for name in ("Zoë", "Ильи", "花子", "👍 Ana", "José"):
        assert live.client().post("/api/players", json={"name": name}).json()["name"] == name


def test_equal_names_at_one_table_are_told_apart(live):
    ana, other, third = live.guest("Ana"), live.guest("ana"), live.guest("Ana")
    lobby = live.lobby(ana, seats=5)
    for guest in (other, third):
        guest.post("/api/lobbies/join", json={"invite_code": lobby["invite_code"]})
    for seat in (3, 4):
        ana.post(f"/api/lobbies/{lobby['id']}/bots", json={"seat": seat, "level": "random"})
    seats = ana.get(f"/api/lobbies/{lobby['id']}").json()["seats"]
    assert [s["player"]["name"] for s in seats[:3]] == ["Ana", "ana (2)", "Ana (3)"]
    game_id = ana.post(f"/api/lobbies/{lobby['id']}/start").json()["game_id"]
    table = live.state(ana, game_id)["view"]["table"]["seats"]
    names = [s["name"] for s in table]
    assert names == ["Ana", "ana (2)", "Ana (3)", "Beginner bot", "Beginner bot (2)"]


def test_sign_out_clears_the_cookie(live):
    browser = live.client()
    browser.post("/api/players", json={"name": "Ana"})
    assert browser.get("/api/players/me").status_code == 200
    r = browser.post("/api/players/sign-out", headers={"Origin": live.url})
    assert r.status_code == 200
    assert "campground_token=" in r.headers["set-cookie"]
    assert browser.get("/api/players/me").status_code == 401
