"""Sign-ins: a guest keeps their tables under a handle, and any device becomes the same player."""

import asyncio
import hashlib
from datetime import UTC, datetime, timedelta

import argon2
import pytest

from app.services import accounts, passwords
from tests.app.accounts import PASSWORD, device, new_handle, signed_in
from tests.app.conftest import _execute
from tests.app.sockets import Socket


def tables_as_of_now(listing: dict) -> dict:
    """``/api/players/me/games`` without each table's ``time_left``, which counts down."""
    return {**listing, "games": [{**g, "time_left": None} for g in listing["games"]]}


def test_claiming_keeps_the_player_and_their_tables(live, documented):
    ana = live.guest("Ana")
    game_id = live.start_game(ana, bots=("random",))
    before = ana.get("/api/players/me/games").json()
    handle = new_handle("Ana")
    r = ana.post("/api/accounts", json={"handle": handle, "password": PASSWORD})
    documented(r, "POST", "/api/accounts")
    assert r.status_code == 201 and r.json() == {"id": ana.id, "name": "Ana", "handle": handle}
    # The token held before the claim is the player's first device now.
    assert ana.get("/api/players/me").json() == {"id": ana.id, "name": "Ana", "handle": handle}
    # The same tables; only the seconds left have run on meanwhile (the claim hashes a password).
    assert tables_as_of_now(ana.get("/api/players/me/games").json()) == tables_as_of_now(before)
    assert before["games"][0]["game_id"] == game_id
    [first] = ana.get("/api/sessions").json()
    assert first["how"] == "claimed" and first["current"] is True


def test_a_second_device_is_the_same_player_at_the_same_tables(live, documented):
    ana = signed_in(live, "Ana")
    ben = live.guest("Ben")
    game_id = live.start_game(ana, ben)
    r = live.client().post(
        "/api/sessions", json={"handle": ana.handle.upper(), "password": PASSWORD}
    )
    documented(r, "POST", "/api/sessions")
    assert r.status_code == 201
    body = r.json()
    assert (body["id"], body["name"], body["handle"]) == (ana.id, "Ana", ana.handle)
    assert body["token"] != ana.token
    phone = device(live, ana.handle)
    assert tables_as_of_now(phone.get("/api/players/me/games").json()) == tables_as_of_now(
        ana.get("/api/players/me/games").json()
    )
    # The phone takes Ana's turn, and the laptop sees it.
    state = live.state(phone, game_id)
    assert state["view"]["you"] == 0
    move = state["view"]["legal_moves"][0]["move"]
    r = phone.post(f"/api/games/{game_id}/moves", json={"move": move, "expect_version": 0})
    assert r.status_code == 200, r.text
    assert live.state(ana, game_id)["version"] == 1


def test_a_signed_in_device_plays_over_the_socket(live):
    ana = signed_in(live, "Ana")
    game_id = live.start_game(ana, live.guest("Ben"))
    phone = device(live, ana.handle)
    socket = Socket(live, game_id, token=phone.token)
    try:
        assert socket.view["you"] == 0
    finally:
        socket.close()


def test_handles_are_unique_whatever_their_case(live, documented):
    ana = signed_in(live, "Ana")
    r = live.guest("Eve").post(
        "/api/accounts", json={"handle": ana.handle.upper(), "password": PASSWORD}
    )
    assert r.status_code == 409 and "taken" in r.json()["detail"]
    documented(r, "POST", "/api/accounts")
    again = ana.post("/api/accounts", json={"handle": new_handle(), "password": PASSWORD})
    assert again.status_code == 409 and again.json()["detail"] == "You already have a sign-in."


@pytest.mark.parametrize(
    "body",
    [
        {"handle": "ab", "password": PASSWORD},
        {"handle": "ana lee", "password": PASSWORD},
        {"handle": "Me", "password": PASSWORD},
        {"handle": "anaïs", "password": PASSWORD},
        {"handle": "ana", "password": "short"},
        {"handle": "ana", "password": "x" * 129},
        {"handle": "ana", "password": PASSWORD, "suspended": False},
    ],
)
def test_bad_handles_and_passwords_are_422(live, body):
    r = live.guest("Ana").post("/api/accounts", json=body)
    assert r.status_code == 422, r.text


def test_passwords_and_tokens_are_stored_only_as_hashes(live, sql):
    ana = signed_in(live, "Ana")
    phone = device(live, ana.handle)
    [(stored, guest_token)] = sql(
        "select password_hash, token_hash from players where id = :id", id=ana.id
    )
    assert stored.startswith("$argon2id$") and PASSWORD not in stored
    assert argon2.PasswordHasher().verify(stored, PASSWORD)
    assert guest_token is None
    sessions = {
        h for (h,) in sql("select token_hash from player_sessions where player_id = :id", id=ana.id)
    }
    assert sessions == {hashlib.sha256(t.encode()).hexdigest() for t in (ana.token, phone.token)}
    everything = str(sql("select * from players where id = :id", id=ana.id))
    everything += str(sql("select * from player_sessions where player_id = :id", id=ana.id))
    for secret in (PASSWORD, ana.token, phone.token):
        assert secret not in everything


def test_the_server_hashes_with_argon2ids_rfc_9106_low_memory_profile(
    live, sql, monkeypatch, product_password_hasher
):
    monkeypatch.setattr(passwords, "_hasher", product_password_hasher)
    ana = signed_in(live, "Ana")
    [(stored,)] = sql("select password_hash from players where id = :id", id=ana.id)
    assert argon2.extract_parameters(stored) == argon2.profiles.RFC_9106_LOW_MEMORY
    assert device(live, ana.handle).id == ana.id


def test_an_unknown_handle_and_a_wrong_password_get_the_same_answer_after_the_same_work(
    live, monkeypatch
):
    ana = signed_in(live, "Ana")
    checked = []
    real = passwords._hasher

    class Counting:
        def hash(self, password):
            return real.hash(password)

        def verify(self, stored, password):
            checked.append(argon2.extract_parameters(stored))
            return real.verify(stored, password)

    monkeypatch.setattr(passwords, "_hasher", Counting())
    client = live.client()
    wrong = client.post("/api/sessions", json={"handle": ana.handle, "password": "not it at all"})
    unknown = client.post(
        "/api/sessions", json={"handle": new_handle(), "password": "not it at all"}
    )
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json() == {"detail": "Wrong handle or password."}
    # One argon2id verification each, with the same parameters: the same time.
    assert len(checked) == 2 and checked[0] == checked[1]
    assert checked[0] == argon2.extract_parameters(real.hash("x"))


def test_sign_in_attempts_are_limited_per_handle_and_per_address(database_url, serve):
    with serve(database_url, RATE_SIGN_INS="3/300", RATE_SIGN_INS_PER_ADDRESS="6/300") as live:
        ana = signed_in(live, "Ana")  # the claim counts once against the address
        client = live.client()
        for _ in range(3):
            r = client.post("/api/sessions", json={"handle": ana.handle, "password": "wrong one!"})
            assert r.status_code == 401
        r = client.post("/api/sessions", json={"handle": ana.handle.upper(), "password": PASSWORD})
        assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
        assert r.json()["detail"].startswith("Too many sign-in attempts")
        # Another handle is counted apart, until the address has tried too often.
        other = new_handle()
        r = client.post("/api/sessions", json={"handle": other, "password": "wrong one!"})
        assert r.status_code == 401
        r = client.post("/api/sessions", json={"handle": new_handle(), "password": "wrong one!"})
        assert r.status_code == 429


def test_the_cookie_is_http_only_same_site_and_secure_behind_tls(live, database_url, serve):
    ana = signed_in(live, "Ana")
    r = live.client().post("/api/sessions", json={"handle": ana.handle, "password": PASSWORD})
    cookie = r.headers["set-cookie"]
    assert cookie.startswith(f"campground_token={r.json()['token']};")
    assert "HttpOnly" in cookie and "samesite=lax" in cookie.lower() and "Secure" not in cookie
    with serve(database_url, PUBLIC_URL="https://camp.example") as server:
        r = server.client().post("/api/sessions", json={"handle": ana.handle, "password": PASSWORD})
        assert r.status_code == 201 and "Secure" in r.headers["set-cookie"]


def test_cross_site_sign_ins_and_sign_outs_are_refused(live):
    ana = signed_in(live, "Ana")
    browser = live.client()
    assert (
        browser.post(
            "/api/sessions",
            json={"handle": ana.handle, "password": PASSWORD},
            headers={"Origin": live.url},
        ).status_code
        == 201
    )
    evil = {"Origin": "https://evil.example"}
    r = browser.post(
        "/api/sessions", json={"handle": ana.handle, "password": PASSWORD}, headers=evil
    )
    assert r.status_code == 403 and r.json()["detail"].startswith("Cross-site request refused")
    assert browser.delete("/api/sessions/current", headers=evil).status_code == 403
    assert browser.post("/api/sessions/device-codes", headers=evil).status_code == 403
    assert browser.get("/api/players/me").json()["id"] == ana.id


def test_signing_out_one_device_leaves_the_others(live, documented):
    ana = signed_in(live, "Ana")
    phone, tablet = device(live, ana.handle), device(live, ana.handle)
    r = phone.delete("/api/sessions/current")
    documented(r, "DELETE", "/api/sessions/current")
    assert r.status_code == 200 and "campground_token=" in r.headers["set-cookie"]
    assert phone.get("/api/players/me").status_code == 401
    listed = tablet.get("/api/sessions")
    documented(listed, "GET", "/api/sessions")
    devices = listed.json()
    assert len(devices) == 2 and [d["current"] for d in devices].count(True) == 1
    laptop = next(d for d in devices if not d["current"])
    assert laptop["how"] == "claimed"
    r = tablet.delete(f"/api/sessions/{laptop['id']}")
    documented(r, "DELETE", "/api/sessions/{session_id}")
    assert r.status_code == 200
    assert ana.get("/api/players/me").status_code == 401
    assert tablet.get("/api/players/me").json()["id"] == ana.id
    # Nobody signs out another player's device.
    eve = signed_in(live, "Eve")
    [mine] = [d["id"] for d in tablet.get("/api/sessions").json()]
    assert eve.delete(f"/api/sessions/{mine}").status_code == 404


def test_a_guest_cannot_sign_out_for_good(live):
    ana = live.guest("Ana")
    assert ana.delete("/api/sessions/current").status_code == 409
    assert ana.get("/api/sessions").json() == []
    assert ana.get("/api/players/me").status_code == 200


def test_signing_out_everywhere_else(live):
    ana = signed_in(live, "Ana")
    phone, tablet = device(live, ana.handle), device(live, ana.handle)
    r = phone.delete("/api/sessions")
    assert r.status_code == 200 and r.json() == {"signed_out": 2}
    assert ana.get("/api/players/me").status_code == 401
    assert tablet.get("/api/players/me").status_code == 401
    assert phone.get("/api/players/me").status_code == 200


def test_changing_the_password_signs_out_every_other_device(live, documented):
    ana = signed_in(live, "Ana")
    phone = device(live, ana.handle)
    wrong = ana.put(
        "/api/accounts/password", json={"password": "not mine!", "new_password": "a new secret"}
    )
    assert wrong.status_code == 401
    documented(wrong, "PUT", "/api/accounts/password")
    assert phone.get("/api/players/me").status_code == 200
    r = ana.put(
        "/api/accounts/password", json={"password": PASSWORD, "new_password": "a new secret"}
    )
    documented(r, "PUT", "/api/accounts/password")
    assert r.status_code == 200 and r.json() == {"signed_out": 1}
    assert phone.get("/api/players/me").status_code == 401
    assert ana.get("/api/players/me").status_code == 200
    old = live.client().post("/api/sessions", json={"handle": ana.handle, "password": PASSWORD})
    assert old.status_code == 401
    device(live, ana.handle, "a new secret")
    guest = live.guest("Cy")
    r = guest.put(
        "/api/accounts/password", json={"password": "whatever1", "new_password": "whatever2"}
    )
    assert r.status_code == 409


def test_a_device_code_works_once(live, documented):
    ana = signed_in(live, "Ana")
    r = ana.post("/api/sessions/device-codes")
    documented(r, "POST", "/api/sessions/device-codes")
    assert r.status_code == 201
    made = r.json()
    assert made["url"] == f"{live.url}/device#{made['code']}"
    assert made["qr_svg"].startswith("data:image/svg+xml")
    phone = live.client()
    r = phone.post("/api/sessions/device", json={"code": made["code"].upper().replace("-", " ")})
    documented(r, "POST", "/api/sessions/device")
    assert r.status_code == 201 and r.json()["id"] == ana.id
    assert phone.get("/api/players/me").json()["id"] == ana.id  # by the cookie
    assert "device code" in [d["how"] for d in ana.get("/api/sessions").json()]
    again = live.client().post("/api/sessions/device", json={"code": made["code"]})
    assert again.status_code == 401 and "used or expired" in again.json()["detail"]
    documented(again, "POST", "/api/sessions/device")
    assert live.client().post("/api/sessions/device", json={"code": "nope-nope"}).status_code == 401


def test_a_device_code_expires(live, monkeypatch):
    ana = signed_in(live, "Ana")
    monkeypatch.setattr(accounts, "DEVICE_CODE_LIFETIME", timedelta(seconds=-1))
    code = ana.post("/api/sessions/device-codes").json()["code"]
    r = live.client().post("/api/sessions/device", json={"code": code})
    assert r.status_code == 401


def test_only_a_signed_in_player_makes_device_codes(live):
    r = live.guest("Ana").post("/api/sessions/device-codes")
    assert r.status_code == 403 and "sign-in" in r.json()["detail"]
    assert live.client().post("/api/sessions/device-codes").status_code == 401


PHONE = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/126.0.0.0 Mobile Safari/537.36"
)
LAPTOP = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0"


def test_the_devices_list_tells_devices_apart(live, documented):
    ana = live.guest("Ana")
    ana.headers["User-Agent"] = LAPTOP
    ana.handle = new_handle()
    assert (
        ana.post("/api/accounts", json={"handle": ana.handle, "password": PASSWORD}).status_code
        == 201
    )
    phone = live.client()
    phone.headers["User-Agent"] = PHONE
    assert (
        phone.post("/api/sessions", json={"handle": ana.handle, "password": PASSWORD}).status_code
        == 201
    )
    # The phone was last used an hour ago; its next request brings that up to date.
    an_hour_ago = (datetime.now(UTC) - timedelta(hours=1)).strftime("%Y-%m-%d %H:%M:%S")
    asyncio.run(
        _execute(
            live.settings.DATABASE_URL,
            f"update player_sessions set last_used_at = '{an_hour_ago}' "
            f"where player_id = '{ana.id}' and how = 'sign-in'",
        )
    )
    r = ana.get("/api/sessions")
    documented(r, "GET", "/api/sessions")
    laptop, mobile = sorted(r.json(), key=lambda d: d["how"])
    assert laptop["current"] and not mobile["current"]
    assert (laptop["browser"], laptop["system"]) == ("Firefox 125", "Windows 10")
    assert laptop["device"] == "Firefox 125 on Windows 10"
    assert (mobile["browser"], mobile["system"]) == ("Chrome Mobile 126", "Android 14")
    assert mobile["created_at"] > mobile["last_used_at"]
    phone.get("/api/players/me")
    mobile = next(d for d in ana.get("/api/sessions").json() if d["id"] == mobile["id"])
    assert mobile["last_used_at"] >= mobile["created_at"]
    # A script names no browser: it is known by its own name.
    script = live.client()
    assert (
        script.post("/api/sessions", json={"handle": ana.handle, "password": PASSWORD}).status_code
        == 201
    )
    scripted = [d for d in ana.get("/api/sessions").json() if d["device"].startswith("python-")]
    assert len(scripted) == 1 and scripted[0]["browser"] is None
