"""Summer Camp on the server: options, a whole game over a socket against a bot, several seats
deciding at once, and what leaves the server for each seat."""

import json
import random

import pytest

from engine.core import full_view
from engine.summer_camp import GAME
from engine.summer_camp.bot import heuristic_bot
from engine.summer_camp.cards import COPIES
from tests.app.sockets import Socket
from tests.app.conftest import sqlite_copy


@pytest.fixture(scope="module")
def database_url(sqlite_template, tmp_path_factory) -> str:
    """SQLite only: the game's rules over HTTP and sockets do not depend on the database."""
    return sqlite_copy(sqlite_template, tmp_path_factory, "summer_camp")


GAMES_PACK = {"packs": ["games", "outdoors", "water_sports"]}


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"seats": 5}, "Summer Camp is for 2 to 4 players, not 5"),
        (
            {"options": {"packs": ["cooking", "outdoors"]}},
            "Invalid options: packs: Value error, choose exactly 3 different activity packs",
        ),
        (
            {"options": {"packs": ["cooking", "outdoors", "knitting"]}},
            "Invalid options: packs.2: Input should be 'adventure'",
        ),
    ],
)
def test_bad_options_are_a_readable_422(live, documented, body, message):
    r = live.guest().post("/api/lobbies", json={"game": "summer-camp", **body})
    assert r.status_code == 422 and message in r.json()["detail"], r.text
    documented(r, "POST", "/api/lobbies")


def test_a_lobby_keeps_the_packs_chosen(live):
    ana = live.guest("Ana")
    lobby = live.lobby(ana, game="summer-camp", seats=3, options=GAMES_PACK)
    assert lobby["options"] == GAMES_PACK
    kinds = {k["id"]: k for k in live.client().get("/api/games").json()}
    camp = kinds["summer-camp"]
    assert (camp["min_players"], camp["max_players"]) == (2, 4)
    assert set(camp["bot_levels"]) == {"random", "heuristic", "search"}
    assert camp["options_schema"]["properties"]["packs"]["default"] == [
        "cooking",
        "outdoors",
        "water_sports",
    ]


def hidden_from(view: dict, seat: int, seed: int) -> None:
    """Nothing ``seat`` may not see: others' discard piles beyond the top, the RNG, the seed."""
    assert view["you"] == seat
    assert all(p["discard"] is None for p in view["seats"] if p["seat"] != seat)
    # Without the log's length and the number of the last decision's entry: small numbers
    # that a small test seed may equal.
    hidden = ("log_length", "last_decision")
    text = json.dumps({key: value for key, value in view.items() if key not in hidden})
    assert '"rng"' not in text and str(seed) not in text


def test_a_whole_game_over_a_socket_against_a_bot(live):
    ana = live.guest("Ana")
    lobby = live.lobby(ana, game="summer-camp", seats=2, options=GAMES_PACK)
    r = ana.post(f"/api/lobbies/{lobby['id']}/bots", json={"seat": 1, "level": "heuristic"})
    assert r.status_code == 200, r.text
    game_id = ana.post(f"/api/lobbies/{lobby['id']}/start").json()["game_id"]
    seed = live.admin().get(f"/api/admin/games/{game_id}").json()["seed"]
    a = Socket(live, game_id, token=ana.token)
    rng = random.Random(4)
    try:
        while a.view["outcome"] is None:
            hidden_from(a.view, 0, seed)
            if 0 not in a.view["to_act"]:
                message = a.recv()
                if message["type"] == "patch":
                    a.apply(message)
                continue
            legal = [GAME.parse_move(m["move"]) for m in a.view["legal_moves"]]
            move = heuristic_bot(a.view, legal, rng).model_dump()
            a.send({"type": "move", "move": move, "expect_version": a.version, "ref": a.version})
            reply = a.next()
            assert reply["type"] == "ack", reply
            a.until_version(reply["version"])
        end = live.state(ana, game_id)
        a.until_version(end["version"])
        assert a.view == end["view"] and end["view"]["table"]["status"] == "finished"
        stored = live.admin().get(f"/api/admin/games/{game_id}").json()
        state = GAME.load(stored["state"])
        assert a.view["hand"] == [COPIES[c] for c in state.hands[0]]
        assert end["view"]["outcome"] == stored["outcome"]
        moves = live.admin().get(f"/api/admin/games/{game_id}/moves").json()
        assert {m["seat"] for m in moves} == {0, 1}
    finally:
        a.close()


def dodgeball_table(players, options, seed):
    """A real table where seat 0 starts with Dodgeball in hand and everyone holds cards."""
    s = type(GAME).setup(GAME, players, options, seed)
    s.start_player = s.active = 0
    dodgeball = next(c for c in s.piles[0] + s.display[0] if COPIES[c] == "dodgeball")
    if dodgeball in s.piles[0]:
        s.piles[0].remove(dodgeball)
    else:
        s.display[0][s.display[0].index(dodgeball)] = s.piles[0].pop()
    s.hands[0].append(dodgeball)
    return s


def test_several_seats_decide_at_once(live, monkeypatch):
    """Dodgeball asks every opponent at once: the bots answer, the table waits for Ben."""
    monkeypatch.setattr(GAME, "setup", dodgeball_table)
    ana, ben = live.guest("Ana"), live.guest("Ben")
    lobby = live.lobby(ana, game="summer-camp", seats=4, options=GAMES_PACK)
    assert ben.post("/api/lobbies/join", json={"invite_code": lobby["invite_code"]}).is_success
    for seat in (2, 3):
        r = ana.post(f"/api/lobbies/{lobby['id']}/bots", json={"seat": seat, "level": "random"})
        assert r.status_code == 200, r.text
    game_id = ana.post(f"/api/lobbies/{lobby['id']}/start").json()["game_id"]
    b = Socket(live, game_id, token=ben.token)
    try:
        move = {"type": "play", "card": "dodgeball", "use": "action"}
        r = ana.post(f"/api/games/{game_id}/moves", json={"move": move, "expect_version": 0})
        assert r.status_code == 200, r.text
        assert r.json()["view"]["to_act"] == [1, 2, 3] and r.json()["view"]["legal_moves"] == []
        # Both bots discard; Ben is still asked, and so nobody else may move.
        waiting = live.wait_for(ana, game_id, lambda s: s["version"] == 3)
        assert waiting["view"]["to_act"] == [1]
        assert waiting["view"]["prompt"]["kind"] == "dodgeball"
        b.until_version(3)
        assert b.view["prompt"]["seats"] == [1]
        assert all(m["label"].startswith("Discard ") for m in b.view["legal_moves"])
        r = ana.post(
            f"/api/games/{game_id}/moves", json={"move": {"type": "end_turn"}, "expect_version": 3}
        )
        assert r.status_code == 422 and r.json()["detail"] == "It is not your turn."
        choice = b.view["legal_moves"][0]["move"]
        b.send({"type": "move", "move": choice, "expect_version": 3, "ref": "discard"})
        assert b.next() == {"type": "ack", "ref": "discard", "version": 4}
        b.until_version(4)
        assert b.view["to_act"] == [0] and b.view["prompt"] is None
        assert b.view == live.state(ben, game_id)["view"]
        ana_view = live.state(ana, game_id)["view"]
        assert ana_view["seats"][1]["discard_top"] == choice["card"]
        stored = GAME.load(live.admin().get(f"/api/admin/games/{game_id}").json()["state"])
        live_part = {k: v for k, v in ana_view.items() if k not in ("log", "log_length")}
        assert live_part == {**full_view(GAME, stored, 0), "table": ana_view["table"]}
    finally:
        b.close()


def check(view: dict, seat: int | None, full: dict) -> None:
    """``view`` against the full state: own hand and discard pile only, counts of the rest."""
    assert view["you"] == seat
    assert view["hand"] == (None if seat is None else [COPIES[c] for c in full["hands"][seat]])
    for x in view["seats"]:
        p = x["seat"]
        assert (x["hand"], x["draw_pile"]) == (len(full["hands"][p]), len(full["draws"][p]))
        assert x["discard"] == ([COPIES[c] for c in full["discards"][p]] if p == seat else None)
    assert [p["draw_pile"] for p in view["paths"]] == [len(p) for p in full["piles"]]
    assert str(full["rng"]["state"]) not in json.dumps(view)


def test_every_seat_and_a_spectator_see_only_their_own_cards(live):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    lobby = live.lobby(ana, game="summer-camp", seats=2, options=GAMES_PACK, private=False)
    assert ben.post("/api/lobbies/join", json={"invite_code": lobby["invite_code"]}).is_success
    game_id = ana.post(f"/api/lobbies/{lobby['id']}/start").json()["game_id"]
    admin, nobody = live.admin(), live.client()
    rng = random.Random(5)
    for _ in range(40):
        state = live.state(nobody, game_id)
        version = state["version"]
        full = admin.get(f"/api/admin/games/{game_id}/state", params={"at": version}).json()
        for client, seat in ((ana, 0), (ben, 1), (nobody, None)):
            check(live.state(client, game_id)["view"], seat, full["state"])
        actor = (ana, ben)[state["view"]["to_act"][0]]
        move = rng.choice(live.state(actor, game_id)["view"]["legal_moves"])["move"]
        r = actor.post(
            f"/api/games/{game_id}/moves", json={"move": move, "expect_version": version}
        )
        assert r.status_code == 200, r.text


def test_an_unknown_card_is_an_illegal_move_over_http_and_a_socket(live):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    game_id = live.start_game(ana, ben, game="summer-camp")
    before = live.state(ana, game_id)
    for move in (
        {"type": "play", "card": "no-such-card", "use": "energy"},
        {"type": "buy", "card": "no-such-card"},
    ):
        r = ana.post(f"/api/games/{game_id}/moves", json={"move": move, "expect_version": 0})
        assert r.status_code == 422 and "no Summer Camp card" in r.json()["detail"], r.text
    socket = Socket(live, game_id, token=ana.token)
    try:
        socket.send(
            {
                "type": "move",
                "ref": 1,
                "expect_version": 0,
                "move": {"type": "buy", "card": "no-such-card"},
            }
        )
        error = socket.next()
        assert (error["code"], error["ref"]) == ("illegal_move", 1)
        socket.send({"type": "sync"})
        assert socket.next()["type"] == "state"
    finally:
        socket.close()
    assert live.state(ana, game_id) == before
