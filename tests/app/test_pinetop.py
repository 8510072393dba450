"""Camp Pinetop through the server: its options are checked, and views hide what they must."""

import json
import random

import pytest
from tests.app.conftest import sqlite_copy


@pytest.fixture(scope="module")
def database_url(sqlite_template, tmp_path_factory) -> str:
    """SQLite only: the game's rules over HTTP and sockets do not depend on the database."""
    return sqlite_copy(sqlite_template, tmp_path_factory, "pinetop")


MODULES = {"friendship": True, "nature": True, "animal": "otter", "tower": True}


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"weather": True}, "Invalid options: weather: Extra inputs are not permitted"),
        (
            {"nature": "maybe"},
            "Invalid options: nature: Input should be a valid boolean, unable to interpret input",
        ),
    ],
)
def test_bad_options_are_a_readable_422(live, documented, options, message):
    r = live.guest().post("/api/lobbies", json={"game": "pinetop", "seats": 3, "options": options})
    assert r.status_code == 422 and r.json()["detail"] == message
    documented(r, "POST", "/api/lobbies")


def start(live, ana, ben) -> str:
    # Public: a spectator without a seat watches it.
    lobby = live.lobby(ana, game="pinetop", seats=3, options=MODULES, private=False)
    assert lobby["options"] == MODULES
    r = ben.post("/api/lobbies/join", json={"invite_code": lobby["invite_code"]})
    assert r.status_code == 200, r.text
    r = ana.post(f"/api/lobbies/{lobby['id']}/bots", json={"seat": 2, "level": "heuristic"})
    assert r.status_code == 200, r.text
    r = ana.post(f"/api/lobbies/{lobby['id']}/start")
    assert r.status_code == 201, r.text
    return r.json()["game_id"]


def check(view: dict, seat: int | None, full: dict) -> None:
    for x in view["seats"]:
        mine = x["seat"] == seat
        assert (x["hand"] is not None) == mine
        assert x["hand_count"] == len(full["hands"][x["seat"]])
        if mine:
            assert [c["id"] for c in x["hand"]] == full["hands"][seat]
    assert view["supply"]["deck"] == len(full["deck"])
    text = json.dumps(view)
    assert str(full["rng"]["state"]) not in text
    if len(full["deck"]) >= 3:
        assert json.dumps(full["deck"])[1:-1] not in text


def test_every_seat_and_a_spectator_see_only_their_own_hand(live):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    game_id = start(live, ana, ben)
    admin, nobody = live.admin(), live.client()
    rng = random.Random(5)
    moves = 0
    while moves < 30:
        state = live.wait_for(
            ana, game_id, lambda s: s["view"]["to_act"] != [2] or s["view"]["outcome"] is not None
        )
        version = state["version"]
        full = admin.get(f"/api/admin/games/{game_id}/state", params={"at": version}).json()
        full = full["state"]
        for client, seat in ((ana, 0), (ben, 1), (nobody, None)):
            at = live.state(client, game_id)
            if at["version"] == version:
                check(at["view"], seat, full)
        view = state["view"]
        if view["outcome"] is not None:
            break
        actor = (ana, ben)[view["to_act"][0]]
        mine = live.state(actor, game_id)
        if mine["version"] != version:
            continue
        move = rng.choice(mine["view"]["legal_moves"])["move"]
        r = actor.post(
            f"/api/games/{game_id}/moves", json={"move": move, "expect_version": version}
        )
        assert r.status_code in (200, 409), r.text
        moves += 1
    assert state["view"]["options"] == MODULES and state["view"]["nature"] is not None
