"""A classroom behind one address, under the default limits: forty players arrive, create and
join tables, hold their sockets through a Wi-Fi blip and play at a human pace without one
refusal, and forty press "Play now" and all get tables; one client flooding is still refused,
and neither an anonymous socket flooding messages nor one holding sockets open from the same
address keeps the class from playing. The limiter's clock is the test's own, so what minutes
of play would do takes no waiting."""

from __future__ import annotations

import asyncio
import json

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from app.config import Settings
from app.limits import Limits, RateLimited
from tests.app.conftest import Client, sqlite_copy
from tests.app.queue_helpers import home, until
from tests.app.sockets import Socket, next_lobby

LIMITS = [
    name
    for name in Settings.model_fields
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


@pytest.fixture
def postgres_school(postgres_url, serve):
    """The same on PostgreSQL, as the product runs."""
    clock = Clock()
    with serve(postgres_url, **DEFAULTS) as live:
        ctx = live.app.state.ctx
        ctx.limits = Limits(ctx.settings, clock)
        yield live, clock


def seated_class(live) -> list[tuple[str, Client, Client]]:
    """Forty students at twenty public two-seat tables of Hike: (game id, host, joiner)."""
    students = [live.guest(f"Student {i}") for i in range(CLASS)]
    hosts, joiners = students[::2], students[1::2]
    lobbies = [live.lobby(host, seats=2, private=False) for host in hosts]
    for joiner, lobby in zip(joiners, lobbies):
        r = joiner.post("/api/lobbies/join", json={"invite_code": lobby["invite_code"]})
        assert r.status_code == 200, r.text
    games = [
        host.post(f"/api/lobbies/{lobby['id']}/start").json()["game_id"]
        for host, lobby in zip(hosts, lobbies)
    ]
    return list(zip(games, hosts, joiners))


def class_moves(live, clock, tables) -> None:
    """Each table's student to act moves, one every 2 s of the class: 20 moves a second."""
    for game, *pair in tables:
        state = live.state(pair[0], game)
        mover = pair[state["view"]["to_act"][0]]
        move = live.state(mover, game)["view"]["legal_moves"][0]["move"]
        r = mover.post(
            f"/api/games/{game}/moves", json={"move": move, "expect_version": state["version"]}
        )
        assert r.status_code == 200, r.text
        clock.now += 2 / CLASS


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
    games = [
        host.post(f"/api/lobbies/{lobby['id']}/start").json()["game_id"]
        for host, lobby in zip(hosts, lobbies)
    ]
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
                r = mover.post(
                    f"/api/games/{game}/moves",
                    json={"move": move, "expect_version": state["version"]},
                )
                assert r.status_code == 200, r.text
                clock.now += 2 / CLASS
    finally:
        for socket in sockets:
            socket.close()


def test_forty_players_behind_one_address_press_play_now_and_all_get_tables(school):
    live, _ = school
    students = [live.guest(f"Student {i}") for i in range(CLASS)]
    pages = [home(live, student).__enter__() for student in students]
    try:
        for student in students:
            r = student.post("/api/queue", json={"game": "hike", "fewest": 2, "most": 5})
            assert r.status_code == 201, r.text
        games = [until(page, "seated")["game_id"] for page in pages]
    finally:
        for page in pages:
            page.close()
    for student, game_id in zip(students, games):
        seats = live.state(student, game_id)["view"]["table"]["seats"]
        assert [s["name"] for s in seats].count(student.name) == 1
        assert 2 <= len(seats) <= 5 and not any(s["bot"] for s in seats)


async def play_ten_minutes(limits: Limits, clock: Clock) -> None:
    for step in range(10 * 60 * CLASS // 2):
        student = step % CLASS
        await limits.moves.spend("address:school", f"player:{student}")
        clock.now += 2 / CLASS
    # One student clicking five times as fast as a person can is the only one refused.
    with pytest.raises(RateLimited):
        for _ in range(400):
            await limits.moves.spend("address:school", "player:0")
            clock.now += 0.04
    await limits.moves.spend("address:school", "player:1")


def test_a_class_playing_for_ten_minutes_is_never_refused():
    clock = Clock()
    asyncio.run(
        play_ten_minutes(Limits(Settings(DATABASE_URL="sqlite+aiosqlite://"), clock), clock)
    )


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

    def queue_and_leave():
        r = eve.post("/api/queue", json={"game": "hike"})
        if r.status_code == 201:
            eve.delete("/api/queue")
        return r

    assert refused(queue_and_leave) == 10
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
        # Ana's first socket took one of the address's two; Ben's first takes the other, and
        # an anonymous spectator the one of the anonymous sockets' share (a quarter of two).
        Socket(live, game_id, token=live.guest("Ben").token).close()
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


FLOOD = 4000


def flood(ws) -> list[str]:
    """``FLOOD`` syncs as fast as the socket takes them; how they were answered, in order."""
    for _ in range(FLOOD):
        ws.send('{"type":"sync"}')
    ws.send('{"type":"flooded","ref":"done"}')
    answers = []
    while True:
        message = json.loads(ws.recv(timeout=30))
        answers.append(message.get("code", message["type"]))
        if message.get("ref") == "done":
            return answers


@pytest.mark.postgres
def test_a_class_plays_on_beside_an_anonymous_socket_flooding_from_its_address(postgres_school):
    live, clock = postgres_school
    tables = seated_class(live)
    sockets = [Socket(live, game, token=s.token) for game, *pair in tables for s in pair]
    url = f"{live.ws_url}/ws/games/{tables[0][0]}"
    try:
        with connect(url, max_queue=None, open_timeout=10) as flooder:
            flooder.recv(timeout=10)
            for _ in range(3):
                answers = flood(flooder)
                # Refused by its own limit; the refusals spend nothing of the address's.
                assert "rate_limited" in answers
                class_moves(live, clock, tables)
    finally:
        for socket in sockets:
            socket.close()


def open_anonymous(url: str, most: int) -> list:
    """Anonymous sockets held open until the server refuses one (4429), at most ``most``."""
    held = []
    for _ in range(most):
        ws = connect(url, open_timeout=10).__enter__()
        try:
            ws.recv(timeout=10)
        except ConnectionClosed as closed:
            assert closed.rcvd.code == 4429
            ws.close()
            return held
        held.append(ws)
    return held


@pytest.mark.postgres
def test_an_anonymous_socket_hog_never_keeps_a_class_out(postgres_school):
    live, clock = postgres_school
    tables = seated_class(live)
    url = f"{live.ws_url}/ws/games/{tables[0][0]}"
    hog = open_anonymous(url, DEFAULTS["MAX_SOCKETS_PER_ADDRESS"] + 1)
    sockets = []
    try:
        assert hog
        sockets = [Socket(live, game, token=s.token) for game, *pair in tables for s in pair]
        # A Wi-Fi blip: every student's socket drops, and the hog grabs at the freed places.
        for socket in sockets:
            socket.close()
        hog += open_anonymous(url, CLASS)
        sockets = [Socket(live, game, token=s.token) for game, *pair in tables for s in pair]
        class_moves(live, clock, tables)
    finally:
        for socket in sockets:
            socket.close()
        for ws in hog:
            ws.close()
