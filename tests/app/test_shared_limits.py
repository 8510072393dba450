"""Limits counted in Redis: two instances allow together what one allows, whichever instance
each call reaches; a class behind one address is still never refused; while Redis does not
answer each instance counts alone, says so once, and counts in Redis again once it is back."""

from __future__ import annotations

import itertools
import logging
import threading

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from app import shared_limits
from app.shared_limits import SharedCounts
from tests.app.conftest import sqlite_copy
from tests.app.sockets import Socket, next_lobby
from tests.app.test_classroom import CLASS, DEFAULTS, Clock
from tests.app.test_metrics import scrape, value
from tests.app.test_rate_limits import closed_with
from tests.app.test_redis_faults import private_redis  # noqa: F401 (a fixture)
from tests.app.test_scale_out import on

pytestmark = pytest.mark.redis


@pytest.fixture(scope="module")
def database_url(sqlite_template, tmp_path_factory) -> str:
    """SQLite only: the limits do not depend on the database."""
    return sqlite_copy(sqlite_template, tmp_path_factory, "shared-limits")


@pytest.fixture
def two(database_url, redis_url, redis_prefix, serve):
    """``two(**limits)``: instances A and B sharing one Redis, with those limits."""
    servers = []

    def start(**limits):
        settings = {"REDIS_URL": redis_url, "REDIS_PREFIX": redis_prefix, **limits}
        for _ in range(2):
            context = serve(database_url, **settings)
            servers.append((context, context.__enter__()))
        return servers[-2][1], servers[-1][1]

    yield start
    for context, _ in reversed(servers):
        context.__exit__(None, None, None)


def refused_after(attempts) -> int:
    """How many attempts, taken in turn from ``attempts``, succeed before the first 429."""
    for done, attempt in enumerate(attempts):
        if attempt().status_code == 429:
            return done
        assert done < 100, "never refused"
    raise AssertionError("never refused")


def test_a_flooder_is_refused_after_the_same_count_whichever_instance_it_reaches(two):
    a, b = two(RATE_PLAYERS="6/3600")
    clients = itertools.cycle([a.client(), b.client()])
    assert (
        refused_after((lambda c=c: c.post("/api/players", json={"name": "Bot"})) for c in clients)
        == 6
    )
    # The other instance's count is the same count: refused there too.
    assert b.client().post("/api/players", json={"name": "Bot"}).status_code == 429


def test_lobbies_and_connections_are_counted_once_for_both(two):
    # Sockets without a token have a quarter of the address's rate: 3 here.
    a, b = two(RATE_LOBBIES="4/3600", RATE_SOCKETS_PER_ADDRESS="12/3600")
    eve = a.guest("Eve")
    eves = itertools.cycle([eve, on(b, eve)])
    assert (
        refused_after((lambda c=c: c.post("/api/lobbies", json={"game": "hike"})) for c in eves)
        == 4
    )
    game_id = a.start_game(a.guest("Ana"), bots=("random",))
    # A spectator's sockets, from one address: three in all, then 4429 on either instance.
    watching = [Socket(server, game_id) for server in (a, b, a)]
    try:
        for server in (b, a):
            assert closed_with(f"{server.ws_url}/ws/games/{game_id}")[0] == 4429
    finally:
        for socket in watching:
            socket.close()


def test_socket_messages_are_counted_once_for_both(two):
    a, b = two(RATE_MOVES="5/3600")
    ana = a.guest("Ana")
    game_id = a.start_game(ana, bots=("random",))
    sockets = [Socket(a, game_id, token=ana.token), Socket(b, game_id, token=ana.token)]
    try:
        answers = []
        for i in range(6):
            socket = sockets[i % 2]
            socket.send({"type": "dance", "ref": i})
            answers.append(socket.next()["code"])
        assert answers == ["bad_request"] * 5 + ["rate_limited"]
    finally:
        for socket in sockets:
            socket.close()


def test_open_sockets_are_capped_over_both_instances(two):
    a, b = two(MAX_SOCKETS_PER_PLAYER=3)
    ana = a.guest("Ana")
    game_id = a.start_game(ana, bots=("random",))
    held = [Socket(server, game_id, token=ana.token) for server in (a, b, a)]
    try:
        for server in (a, b):
            url = f"{server.ws_url}/ws/games/{game_id}?token={ana.token}"
            assert closed_with(url)[0] == 4429
        # One closed on A frees a place on B, once A has seen it close.
        held.pop().close()
        for _ in range(200):
            try:
                held.append(Socket(b, game_id, token=ana.token))
                break
            except ConnectionClosed:
                threading.Event().wait(0.05)
        else:
            raise AssertionError("the closed socket's place was never freed")
    finally:
        for socket in held:
            socket.close()


def test_a_class_behind_one_address_spread_over_two_instances_is_never_refused(two):
    a, b = two(**DEFAULTS)
    servers = itertools.cycle([a, b])
    students = [(server := next(servers), server.guest(f"Student {i}")) for i in range(CLASS)]
    hosts, joiners = students[::2], students[1::2]
    lobbies = [server.lobby(host, seats=2) for server, host in hosts]
    for (_server, joiner), lobby in zip(joiners, lobbies):
        assert joiner.get(f"/api/lobbies/invite/{lobby['invite_code']}").status_code == 200
        r = joiner.post("/api/lobbies/join", json={"invite_code": lobby["invite_code"]})
        assert r.status_code == 200, r.text
    for pair, lobby in zip(zip(hosts, joiners), lobbies):
        for server, student in pair:
            url = f"{server.ws_url}/ws/lobbies/{lobby['id']}?token={student.token}"
            with connect(url) as ws:
                assert next_lobby(ws)["id"] == lobby["id"]
    games = [
        host.post(f"/api/lobbies/{lobby['id']}/start").json()["game_id"]
        for (_, host), lobby in zip(hosts, lobbies)
    ]
    tables = list(zip(games, hosts, joiners))

    def sockets(flip: bool) -> list[Socket]:
        """Every student's socket, on the other instance after a blip."""
        return [
            Socket(other if flip else server, game, token=student.token)
            for game, *pair in tables
            for server, student in pair
            for other in [b if server is a else a]
        ]

    opened = sockets(False)
    try:
        for socket in opened:
            socket.close()
        opened = sockets(True)
        for _ in range(3):
            for game, (_, host), (_, joiner) in tables:
                state = host.get(f"/api/games/{game}/state").json()
                mover = (host, joiner)[state["view"]["to_act"][0]]
                move = mover.get(f"/api/games/{game}/state").json()["view"]["legal_moves"][0]
                r = mover.post(
                    f"/api/games/{game}/moves",
                    json={"move": move["move"], "expect_version": state["version"]},
                )
                assert r.status_code == 200, r.text
    finally:
        for socket in opened:
            socket.close()
    assert value(scrape(a.client()), "campground_limit_refusals_total") == 0


def test_a_redis_outage_counts_here_says_so_once_and_counts_in_redis_again(
    database_url,
    private_redis,  # noqa: F811
    serve,
    caplog,
):
    settings = {
        "REDIS_URL": private_redis.url,
        "REDIS_TIMEOUT": 0.3,
        "RATE_PLAYERS": "3/3600",
        "RATE_LOBBIES": "3/3600",
    }
    caplog.set_level(logging.WARNING, logger="app.shared_limits")
    with serve(database_url, **settings) as live:
        anon, eve = live.client(), live.guest("Eve")

        def new_player():
            return anon.post("/api/players", json={"name": "Bot"})

        def new_lobby():
            return eve.post("/api/lobbies", json={"game": "hike"})

        assert value(scrape(anon), "campground_limits_shared") == 1
        assert [new_lobby().status_code for _ in range(2)] == [201, 201]
        private_redis.hang()
        try:
            # This instance's own count, from nothing (Eve's player was counted in Redis):
            # three, then refused.
            assert refused_after(new_player for _ in itertools.count()) == 3
            assert value(scrape(anon), "campground_limits_shared") == 0
        finally:
            private_redis.resume()
        for _ in range(200):
            if value(scrape(anon), "campground_limits_shared") == 1:
                break
            threading.Event().wait(0.05)
        else:
            raise AssertionError("the limits never went back to Redis")
        # Redis kept Eve's two lobbies: one more, then refused (counted here, three).
        assert refused_after(new_lobby for _ in itertools.count()) == 1
    said = [r.getMessage() for r in caplog.records if r.name == "app.shared_limits"]
    assert len(said) == 2, said
    assert "counted by this instance alone" in said[0] and "in Redis" in said[1]


async def test_the_sockets_of_an_instance_that_died_stop_counting(redis_url, redis_prefix):
    clock = Clock()
    dead, alive = (SharedCounts(redis_url, redis_prefix, 1, clock) for _ in range(2))
    try:
        assert await dead.hold("dead:1", [("player:ana", 1)]) == 0
        assert await alive.hold("alive:1", [("player:ana", 1)]) == 1
        # The dead instance renews nothing: once its socket lapses, the place is free.
        clock.now += shared_limits.LAPSE + 1
        assert await alive.hold("alive:1", [("player:ana", 1)]) == 0
    finally:
        await dead.close()
        await alive.close()
