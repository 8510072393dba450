"""A classroom behind one address, under the default limits: forty players arrive, create and
join tables, hold their sockets through a Wi-Fi blip and play at a human pace without one
refusal; one client flooding is still refused. The limiter's clock is the test's own, so what
minutes of play would do takes no waiting."""

from __future__ import annotations


import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from app.config import Settings
from app.limits import Limits, RateLimited
from tests.app.conftest import sqlite_copy
from tests.app.sockets import Socket, next_lobby

LIMITS = [
    name for name in Settings.model_fields
    if name.startswith(("RATE_", "MAX_SOCKETS", "MAX_OPEN_LOBBIES"))
]
DEFAULTS = {name: Settings.model_fields[name].default for name in LIMITS}
CLASS = 40


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(scope="module")
def database_url(sqlite_template, tmp_path_factory) -> str:
    """SQLite only: the limits do not depend on the database."""
    return sqlite_copy(sqlite_template, tmp_path_factory, "classroom")


@pytest.fixture
def school(database_url, serve):
    """A server with the default limits, and the clock they count by."""
    clock = Clock()
    with serve(database_url, **DEFAULTS) as live:
        ctx = live.app.state.ctx
        ctx.limits = Limits(ctx.settings, clock)
        yield live, clock


def test_forty_players_behind_one_address_arrive_sit_down_and_play(school):
    live, clock = school
    students = [live.guest(f"Student {i}") for i in range(CLASS)]
    hosts, joiners = students[::2], students[1::2]
    lobbies = [live.lobby(host, seats=2) for host in hosts]
    for joiner, lobby in zip(joiners, lobbies):
        # The invite page looks the code up first; the join is the only join spent.
        assert joiner.get(f"/api/lobbies/invite/{lobby['invite_code']}").status_code == 200
        r = joiner.post("/api/lobbies/join", json={"invite_code": lobby["invite_code"]})
        assert r.status_code == 200, r.text
    for host, joiner, lobby in zip(hosts, joiners, lobbies):
        for student in (host, joiner):
            with connect(f"{live.ws_url}/ws/lobbies/{lobby['id']}?token={student.token}") as ws:
                assert next_lobby(ws)["id"] == lobby["id"]
    games = [host.post(f"/api/lobbies/{lobby['id']}/start").json()["game_id"]
             for host, lobby in zip(hosts, lobbies)]
    tables = list(zip(games, hosts, joiners))
    sockets = [Socket(live, game, token=s.token) for game, *pair in tables for s in pair]
    try:
        # A Wi-Fi blip: every socket drops and comes back at the same moment.
        for socket in sockets:
            socket.close()
        sockets = [Socket(live, game, token=s.token) for game, *pair in tables for s in pair]
        # Each student moves every 2 s: the class makes 20 moves a second.
        for _ in range(3):
            for game, *pair in tables:
                seat = pair[0]
                state = live.state(seat, game)
                mover = pair[state["view"]["to_act"][0]]
                move = live.state(mover, game)["view"]["legal_moves"][0]["move"]
                r = mover.post(f"/api/games/{game}/moves",
                               json={"move": move, "expect_version": state["version"]})
                assert r.status_code == 200, r.text
                clock.now += 2 / CLASS
    finally:
        for socket in sockets:
            socket.close()


def test_a_class_playing_for_ten_minutes_is_never_refused():
    clock = Clock()
    limits = Limits(Settings(DATABASE_URL="sqlite+aiosqlite://"), clock)
    for step in range(10 * 60 * CLASS // 2):
        student = step % CLASS
        limits.moves.take("address:school", f"player:{student}")
        clock.now += 2 / CLASS
    # One student clicking five times as fast as a person can is the only one refused.
    with pytest.raises(RateLimited):
        for _ in range(400):
            limits.moves.take("address:school", "player:0")
            clock.now += 0.04
    limits.moves.take("address:school", "player:1")


def refused(attempt) -> int:
    """How many attempts succeed before the first 429."""
    for done in range(10_000):
        if attempt().status_code == 429:
            return done
    raise AssertionError("never refused")


def test_one_client_flooding_is_still_refused(school):
    live, clock = school
    anon = live.client()
    assert refused(lambda: anon.post("/api/players", json={"name": "Bot"})) == 100
    clock.now += 60
    eve = live.guest("Eve")
    # Ten lobbies open (then 409 for the open cap), twenty in all within the minute.
    assert refused(lambda: eve.post("/api/lobbies", json={"game": "hike"})) == 20
    guess = {"invite_code": "nosuchcode"}
    assert refused(lambda: eve.post("/api/lobbies/join", json=guess)) == 30
    game_id = live.start_game(live.guest("Mal"), bots=("random",))
    socket = Socket(live, game_id, token=eve.token)
    try:
        for i in range(300):
            socket.send({"type": "dance", "ref": i})
            assert socket.next()["code"] == "bad_request"
        socket.send({"type": "dance", "ref": "over"})
        assert socket.next()["code"] == "rate_limited"
    finally:
        socket.close()
    # Her first socket above was her first connection; 59 more, then 4429.
    for _ in range(59):
        Socket(live, game_id, token=eve.token).close()
    with connect(f"{live.ws_url}/ws/games/{game_id}?token={eve.token}") as ws:
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
    assert closed.value.rcvd.code == 4429


def test_a_known_players_reconnects_do_not_count_against_the_address(database_url, serve):
    with serve(database_url, RATE_SOCKETS_PER_ADDRESS="2/60") as live:
        ana = live.guest("Ana")
        game_id = live.start_game(ana, bots=("random",))
        for _ in range(5):
            Socket(live, game_id, token=ana.token).close()
        # Ana's first socket took one of the address's two; a spectator takes the other.
        Socket(live, game_id).close()
        for stranger in (None, "not-a-players-token"):
            url = f"{live.ws_url}/ws/games/{game_id}" + (f"?token={stranger}" if stranger else "")
            with connect(url) as ws:
                with pytest.raises(ConnectionClosed) as closed:
                    ws.recv(timeout=10)
            assert closed.value.rcvd.code == 4429


def test_opening_an_invite_link_does_not_spend_a_join(database_url, serve):
    with serve(database_url, RATE_JOINS="2/60") as live:
        ana, ben = live.guest("Ana"), live.guest("Ben")
        codes = [live.lobby(ana, seats=2)["invite_code"] for _ in range(3)]
        for code in codes[:2]:
            assert ben.get(f"/api/lobbies/invite/{code}").status_code == 200
            assert ben.post("/api/lobbies/join", json={"invite_code": code}).status_code == 200
        assert ben.post("/api/lobbies/join", json={"invite_code": codes[2]}).status_code == 429
