"""A sign-out takes effect at once: the ended device's game, lobby and home sockets are closed
before the sign-out answers, with a close code of their own, and a device code dies with the
session that made it."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from types import SimpleNamespace

import pytest
from websockets.sync.client import ClientConnection, connect

from app.bus import RESYNC, MemoryBus
from app.sign_outs import CHANNEL, SignOuts
from app.sockets import Who
from tests.app.accounts import PASSWORD, SIGN_OUTS, device, signed_in
from tests.app.conftest import LiveServer, running, settings_for
from tests.app.queue_helpers import home, until
from tests.app.sockets import after_close

# What the page is told (docs/api.md): the code it turns into its own words, and the reason.
CLOSE_SIGNED_OUT = 4401
SIGNED_OUT = "You were signed out on this device. Sign in again."


@pytest.fixture(scope="module")
def live(database_url) -> Iterator[LiveServer]:
    """This module signs in far more often than one address may in five minutes."""
    many = "100000/60"
    with running(settings_for(database_url, RATE_SIGN_INS_PER_ADDRESS=many)) as server:
        yield server


@contextmanager
def opened(url: str) -> Iterator[ClientConnection]:
    """A game or lobby socket, past its first message."""
    with connect(url, open_timeout=10) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] in ("state", "lobby")
        yield ws


@pytest.fixture
def tables(live):
    """Ana signed in on a laptop and a phone, at a game with Ben and in Ben's open lobby."""
    laptop = signed_in(live, "Ana")
    phone = device(live, laptop.handle)
    ben = signed_in(live, "Ben")
    game_id = live.start_game(laptop, ben)
    lobby = live.lobby(ben, seats=2)
    r = phone.post("/api/lobbies/join", json={"invite_code": lobby["invite_code"]})
    assert r.status_code == 200, r.text
    return laptop, phone, ben, game_id, lobby["id"]


@pytest.mark.parametrize("how", SIGN_OUTS)
def test_a_sign_out_closes_the_devices_sockets_before_it_answers(live, tables, how):
    laptop, phone, ben, game_id, lobby_id = tables
    sign_out, laptop_stays = SIGN_OUTS[how]
    game = f"{live.ws_url}/ws/games/{game_id}"
    lobby = f"{live.ws_url}/ws/lobbies/{lobby_id}"
    legal = live.state(laptop, game_id)["view"]["legal_moves"][0]["move"]
    with ExitStack() as sockets:
        phone_game = sockets.enter_context(opened(f"{game}?token={phone.token}"))
        phone_lobby = sockets.enter_context(opened(f"{lobby}?token={phone.token}"))
        phone_home = sockets.enter_context(home(live, phone))
        until(phone_home, "seeks")
        laptop_game = sockets.enter_context(opened(f"{game}?token={laptop.token}"))
        r = sign_out(live, laptop, phone)
        assert r.status_code == 200, r.text
        # Sent once the sign-out has answered: neither a chat line nor a move is taken, and
        # nothing more is sent to the device (its seat's view least of all).
        chat = {"type": "chat", "text": "still here", "ref": "chat1"}
        move = {"type": "move", "move": legal, "expect_version": 0, "ref": "m1"}
        came, code, reason = after_close(phone_game, chat, move)
        assert (came, code, reason) == ([], CLOSE_SIGNED_OUT, SIGNED_OUT)
        came, code, reason = after_close(phone_lobby, chat)
        assert not [m for m in came if m["type"] in ("chat", "error")]
        assert (code, reason) == (CLOSE_SIGNED_OUT, SIGNED_OUT)
        assert after_close(phone_home)[1:] == (CLOSE_SIGNED_OUT, SIGNED_OUT)
        if laptop_stays:
            laptop_game.send(json.dumps({"type": "sync"}))
            assert json.loads(laptop_game.recv(timeout=10))["type"] == "state"
        else:
            assert after_close(laptop_game)[1:] == (CLOSE_SIGNED_OUT, SIGNED_OUT)
        assert ben.get(f"/api/games/{game_id}/chat").json() == []
        assert ben.get(f"/api/lobbies/{lobby_id}/chat").json() == []
        if how != "suspension":  # else the bot plays Ana's seat at once
            assert live.state(ben, game_id)["version"] == 0
        # The closed device may still watch, as anybody may: as nobody.
        with connect(f"{game}?token={phone.token}", open_timeout=10) as again:
            assert json.loads(again.recv(timeout=10))["view"]["you"] is None


def test_a_guests_sockets_close_when_they_are_suspended(live):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    game_id = live.start_game(ana, ben)
    with opened(f"{live.ws_url}/ws/games/{game_id}?token={ana.token}") as ws:
        assert live.admin().post(f"/api/admin/players/{ana.id}/suspension").status_code == 200
        assert after_close(ws)[1] == CLOSE_SIGNED_OUT


def test_sockets_of_other_players_and_other_devices_stay_open(live, tables):
    laptop, phone, ben, game_id, _ = tables
    url = f"{live.ws_url}/ws/games/{game_id}"
    with opened(f"{url}?token={ben.token}") as bens, opened(url) as watcher:
        assert phone.delete("/api/sessions/current").status_code == 200
        move = live.state(laptop, game_id)["view"]["legal_moves"][0]["move"]
        r = laptop.post(f"/api/games/{game_id}/moves", json={"move": move, "expect_version": 0})
        assert r.status_code == 200, r.text
        for ws in (bens, watcher):
            assert json.loads(ws.recv(timeout=10))["version"] == 1


def test_a_lost_sign_out_notice_is_made_up_for_when_the_bus_resyncs(database_url, serve):
    """Two instances that share no bus: the one that did not hear of a sign-out checks its
    sockets' tokens again once its bus says notices may have been lost."""
    with serve(database_url) as a, serve(database_url) as b:
        laptop = signed_in(a, "Ana")
        phone = device(a, laptop.handle)
        game_id = a.start_game(laptop, a.guest("Ben"))
        with opened(f"{a.ws_url}/ws/games/{game_id}?token={phone.token}") as ws:
            on_b = b.client()
            on_b.headers["Authorization"] = f"Bearer {laptop.token}"
            assert on_b.delete("/api/sessions").status_code == 200
            ctx = a.app.state.ctx
            loop = ctx.sign_outs.task.get_loop()
            loop.call_soon_threadsafe(ctx.bus.publish_soon, CHANNEL, RESYNC)
            assert after_close(ws)[1:] == (CLOSE_SIGNED_OUT, SIGNED_OUT)


async def test_a_socket_still_joining_its_hub_when_its_session_ends_is_ended_as_it_joins():
    def no_sockets_yet() -> list:
        return []

    async def nothing_valid(digests) -> set[str]:
        return set()

    sign_outs = SignOuts(MemoryBus(), "here", no_sockets_yet, nothing_valid)
    now = asyncio.get_running_loop().time()

    def looked_up(token: str, at: float) -> SimpleNamespace:
        return SimpleNamespace(who=Who("ana", token, at))

    before = looked_up("phone", now)
    await sign_outs.ended("ana", ["phone"])
    # Its token was looked up before the sign-out: missed. A token looked up later names
    # nobody (the socket is nobody's); another device's socket is not concerned.
    assert sign_outs.missed(before)
    assert not sign_outs.missed(looked_up("phone", now + 60))
    assert not sign_outs.missed(looked_up("laptop", now))
    await sign_outs.ended("ana")  # a suspension: every socket of the player
    assert sign_outs.missed(looked_up("laptop", now))


def test_a_thiefs_device_code_dies_with_the_owners_password_change(live):
    ana = signed_in(live, "Ana")
    thief = device(live, ana.handle)  # who learnt the password
    code = thief.post("/api/sessions/device-codes").json()["code"]
    r = ana.put("/api/accounts/password", json={"password": PASSWORD, "new_password": "mine again"})
    assert r.status_code == 200 and r.json() == {"signed_out": 1}
    r = live.client().post("/api/sessions/device", json={"code": code})
    assert r.status_code == 401 and "used or expired" in r.json()["detail"]


@pytest.mark.parametrize("how", SIGN_OUTS)
def test_a_device_code_dies_with_its_session_and_every_code_with_a_credential_change(live, how):
    laptop = signed_in(live, "Ana")
    phone = device(live, laptop.handle)
    codes = {
        name: client.post("/api/sessions/device-codes").json()["code"]
        for name, client in (("laptop", laptop), ("phone", phone))
    }
    sign_out, _ = SIGN_OUTS[how]
    assert sign_out(live, laptop, phone).status_code == 200
    # Ending one device ends its codes; a change of credentials ends every code.
    alive = {"laptop"} if how in ("this device", "one device") else set()
    for name, code in codes.items():
        r = live.client().post("/api/sessions/device", json={"code": code})
        assert r.status_code == (201 if name in alive else 401), name
