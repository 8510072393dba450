"""What one client may do: rates by player and by address, and caps on what one holds open.

Each test starts a server of its own with the limit under test made tight (every test client
comes from 127.0.0.1, so per-address counts would otherwise carry over between tests)."""

import json
import time

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.app.sockets import Socket


def assert_429(r):
    assert r.status_code == 429, r.text
    assert int(r.headers["retry-after"]) >= 1
    assert r.json()["detail"].startswith("Too many")


def test_new_players_per_address(database_url, serve):
    with serve(database_url, RATE_PLAYERS="3/60") as live:
        for name in ("Ana", "Ben", "Cy"):
            live.guest(name)
        r = live.client().post("/api/players", json={"name": "Dee"})
        assert_429(r)
        assert r.headers["retry-after"] == "20"


def test_new_lobbies_per_player_and_per_address(database_url, serve):
    with serve(database_url, RATE_LOBBIES="2/60", RATE_LOBBIES_PER_ADDRESS="4/60") as live:
        ana, ben = live.guest("Ana"), live.guest("Ben")
        live.lobby(ana)
        live.lobby(ana)
        assert_429(ana.post("/api/lobbies", json={"game": "hike"}))
        # Ben is another player, at the same address: his own first lobby fits under the
        # address's ceiling (which counted Ana's refused call too), his second does not.
        live.lobby(ben)
        assert_429(ben.post("/api/lobbies", json={"game": "hike"}))


def test_invite_codes_cannot_be_guessed_quickly(database_url, serve):
    with serve(database_url, RATE_JOINS="5/60") as live:
        ana, eve = live.guest("Ana"), live.guest("Eve")
        lobby = live.lobby(ana, seats=2)
        codes = [f"guess{i:05d}" for i in range(5)] + [lobby["invite_code"]]
        answers = [eve.post("/api/lobbies/join", json={"invite_code": c}) for c in codes]
        assert [r.status_code for r in answers[:5]] == [404] * 5
        assert_429(answers[5])


def test_moves_over_http(database_url, serve):
    with serve(database_url, RATE_MOVES="3/60") as live:
        ana, ben = live.guest("Ana"), live.guest("Ben")
        game_id = live.start_game(ana, ben)
        stale = {"move": {"type": "draw"}, "expect_version": 99}
        codes = [ana.post(f"/api/games/{game_id}/moves", json=stale).status_code for _ in range(3)]
        assert codes == [409] * 3
        assert_429(ana.post(f"/api/games/{game_id}/moves", json=stale))


def test_moves_over_a_socket(database_url, serve):
    with serve(database_url, RATE_MOVES="3/60") as live:
        ana, ben = live.guest("Ana"), live.guest("Ben")
        socket = Socket(live, live.start_game(ana, ben), token=ben.token)
        try:
            draw = {"type": "move", "move": {"type": "draw"}, "expect_version": 0}
            for i in range(3):
                socket.send(draw | {"ref": i})
                assert socket.next()["code"] == "illegal_move"
            socket.send(draw | {"ref": "x"})
            error = socket.next()
            assert (error["code"], error["ref"]) == ("rate_limited", "x")
            assert error["retry_after"] >= 1
        finally:
            socket.close()


def test_steps_and_their_undoing_count_as_moves(database_url, serve):
    """Putting a coin down on a card and taking it back spends two moves, over HTTP and over a socket."""
    with serve(database_url, RATE_MOVES="4/60") as live:
        for over_socket in (False, True):
            ana, ben = live.guest("Ana"), live.guest("Ben")
            game_id = live.start_game(ana, ben, game="camping-life")
            state = live.state(ana, game_id)
            mover = (ana, ben)[state["view"]["to_act"][0]]
            state = live.state(mover, game_id)
            socket = Socket(live, game_id, token=mover.token) if over_socket else None
            try:
                answers = []
                for i in range(5):
                    legal = [e["move"] for e in state["view"]["legal_moves"]]
                    move = (
                        {"type": "undo"}
                        if i % 2
                        else next(m for m in legal if m["type"] == "bid_card")
                    )
                    body = {"move": move, "expect_version": state["version"]}
                    if socket is None:
                        r = mover.post(f"/api/games/{game_id}/moves", json=body)
                        answers.append(r.status_code)
                        if r.status_code == 200:
                            state = r.json()
                        continue
                    socket.send({"type": "move", "ref": i} | body)
                    answer = socket.next()
                    answers.append(answer.get("code", answer["type"]))
                    socket.until_version(answer.get("version", socket.version))
                    state = {"version": socket.version, "view": socket.view}
                assert answers == (["ack"] * 4 + ["rate_limited"] if socket else [200] * 4 + [429])
                assert state["version"] == 4
            finally:
                if socket is not None:
                    socket.close()


def closed_with(url: str, **kw) -> tuple[int, str]:
    with connect(url, open_timeout=10, **kw) as ws:
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ws.recv(timeout=10)
    return closed.value.rcvd.code, closed.value.rcvd.reason


def test_socket_connections_per_address(database_url, serve):
    with serve(database_url, RATE_SOCKETS_PER_ADDRESS="3/60") as live:
        ana = live.guest("Ana")
        game_id = live.start_game(ana, bots=("random",))
        # Players' sockets: anonymous ones count against a share of their own.
        sockets = [Socket(live, game_id, token=live.guest(f"Fan {i}").token) for i in range(3)]
        try:
            code, reason = closed_with(
                f"{live.ws_url}/ws/games/{game_id}?token={live.guest('Fan 3').token}"
            )
            # The wait as a number a client reads, and the sentence for a person.
            said = json.loads(reason)
            assert code == 4429 and said["message"].startswith("Too many connections")
            assert isinstance(said["retry_after"], int) and 1 <= said["retry_after"] <= 60
        finally:
            for s in sockets:
                s.close()


def test_open_sockets_per_player(database_url, serve):
    with serve(database_url, MAX_SOCKETS_PER_PLAYER=2) as live:
        ana = live.guest("Ana")
        game_id = live.start_game(ana, bots=("random",))
        sockets = [Socket(live, game_id, token=ana.token) for _ in range(2)]
        try:
            url = f"{live.ws_url}/ws/games/{game_id}"
            auth = {"Authorization": f"Bearer {ana.token}"}
            assert closed_with(url, additional_headers=auth)[0] == 4429
            # Someone else is still let in, and a closed socket frees its place once the
            # server has seen it close.
            Socket(live, game_id).close()
            sockets.pop().close()
            for _ in range(100):
                try:
                    Socket(live, game_id, token=ana.token).close()
                    break
                except ConnectionClosed:
                    time.sleep(0.05)
            else:
                raise AssertionError("the closed socket's place was never freed")
        finally:
            for s in sockets:
                s.close()


def test_open_lobbies_per_host(database_url, serve):
    with serve(database_url, MAX_OPEN_LOBBIES=2) as live:
        ana = live.guest("Ana")
        first = live.lobby(ana, seats=2)
        live.lobby(ana)
        r = ana.post("/api/lobbies", json={"game": "hike"})
        assert r.status_code == 409 and "at most 2" in r.json()["detail"]
        # Starting one frees a place.
        ana.post(f"/api/lobbies/{first['id']}/bots", json={"seat": 1, "level": "random"})
        assert ana.post(f"/api/lobbies/{first['id']}/start").status_code == 201
        live.lobby(ana)


def test_one_host_cannot_drown_the_public_listing(database_url, serve):
    with serve(database_url, LISTED_LOBBIES_PER_HOST=2) as live:
        ben = live.guest("Ben")
        bens = live.lobby(ben, private=False)
        eve = live.guest("Eve")
        eves = [live.lobby(eve, private=False)["id"] for _ in range(6)]
        listed = [lobby["id"] for lobby in live.client().get("/api/lobbies").json()]
        assert listed == [eves[5], eves[4], bens["id"]]
