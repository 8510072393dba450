"""The home socket on SQLite and PostgreSQL: open seeks live (filtered, nearest the viewer's
rating first), the caller's place in the queue and the table formed for them, and a place
that counts only while a page of its person is open."""

from __future__ import annotations

import asyncio
import json
import threading

import pytest

from tests.app.accounts import signed_in
from tests.app.conftest import _execute
from tests.app.queue_helpers import home, play_now, table_of, until


@pytest.fixture(autouse=True)
def empty(database_url):
    yield
    asyncio.run(
        _execute(
            database_url,
            "DELETE FROM queue_entries",
            "UPDATE lobbies SET status = 'closed' WHERE status = 'open'",
        )
    )


def rate(database_url, *rows) -> None:
    asyncio.run(
        _execute(
            database_url,
            *(
                "INSERT INTO ratings (game, rater, mu, sigma, ordinal, games, opponents, updated_at) "
                f"VALUES ('{game}', '{rater}', {mu}, 2, {mu - 6}, 20, 5, '2026-01-01')"
                for game, rater, mu in rows
            ),
        )
    )


def test_open_seeks_are_listed_live(live):
    with home(live) as ws:
        assert until(ws, "seeks")["seeks"] == []
        ana = live.guest("Ana")
        lobby = live.lobby(ana, seats=3, private=False, speed="10m")
        live.lobby(ana, private=True)
        [seek] = until(ws, "seeks", lambda m: m["seeks"])["seeks"]
        assert seek == {
            "lobby_id": lobby["id"],
            "game": "hike",
            "title": "Let's Take a Hike",
            "seats": 3,
            "taken": 1,
            "speed": "10m",
            "speed_name": "Real time · 10 min + 30 s a move",
            "turn_seconds": None,
            "rated": False,
            "host": {"id": ana.id, "name": "Ana", "handle": None, "rating": None},
            "created_at": seek["created_at"],
        }
        ben = live.guest("Ben")
        assert ben.post(f"/api/lobbies/{lobby['id']}/join").status_code == 200
        assert until(ws, "seeks", lambda m: m["seeks"][0]["taken"] == 2)
        assert ana.post(f"/api/lobbies/{lobby['id']}/close").status_code == 200
        assert until(ws, "seeks", lambda m: m["seeks"] == [])


def test_seeks_are_filtered_by_game_and_speed(live):
    ana = live.guest("Ana")
    hike = live.lobby(ana, private=False)
    camp = live.lobby(ana, game="summer-camp", private=False, turn_seconds=None)
    with home(live) as ws:
        listed = until(ws, "seeks", lambda m: len(m["seeks"]) == 2)["seeks"]
        assert [s["lobby_id"] for s in listed] == [camp["id"], hike["id"]]
        ws.send(json.dumps({"type": "seeks", "game": "summer-camp", "speed": None}))
        shown = until(ws, "seeks", lambda m: m["game"] == "summer-camp")
        assert [s["lobby_id"] for s in shown["seeks"]] == [camp["id"]]
        assert shown["seeks"][0]["speed"] == "untimed"
        assert shown["seeks"][0]["speed_name"] == "Untimed"
        ws.send(json.dumps({"type": "seeks", "game": "summer-camp", "speed": "3m"}))
        assert until(ws, "seeks", lambda m: m["speed"] == "3m")["seeks"] == []
        ws.send(json.dumps({"type": "seeks", "game": ["hike"], "speed": None, "ref": 1}))
        error = until(ws, "error")
        assert (error["code"], error["ref"]) == ("bad_request", 1)


def test_a_player_with_a_rating_sees_first_the_seeks_near_it(live, database_url):
    near, far, guest = signed_in(live, "Nia"), signed_in(live, "Fox"), live.guest("Gus")
    viewer = signed_in(live, "Viv")
    rate(database_url, ("hike", near.id, 30), ("hike", far.id, 45), ("hike", viewer.id, 31))
    ids = [live.lobby(host, private=False)["id"] for host in (near, far, guest)]
    with home(live) as anyone, home(live, viewer) as ws:
        # Newest first for a viewer without a rating...
        listed = until(anyone, "seeks", lambda m: len(m["seeks"]) == 3)["seeks"]
        assert [s["lobby_id"] for s in listed] == ids[::-1]
        assert listed[1]["host"]["rating"] == {"points": 2700, "provisional": False, "games": 20}
        # ...nearest the viewer's rating first for one with a rating.
        listed = until(ws, "seeks", lambda m: len(m["seeks"]) == 3)["seeks"]
        assert [s["lobby_id"] for s in listed] == [ids[0], ids[1], ids[2]]


def test_the_page_shows_the_place_and_opens_the_table_formed(live):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    with home(live, ana) as ana_ws, home(live, ben) as ben_ws:
        play_now(ana, most=2)
        place = until(ana_ws, "queue", lambda m: m["place"] is not None)["place"]
        assert (place["game"], place["waiting"], place["game_id"]) == ("hike", 1, None)
        assert until(ben_ws, "waiting")["games"] == {"hike": 1}
        play_now(ben, most=2)
        game_id = until(ana_ws, "seated")["game_id"]
        assert until(ben_ws, "seated")["game_id"] == game_id
        assert table_of(ana) == game_id


def test_a_closed_page_is_out_of_the_queue_and_a_reload_takes_the_place_up_again(
    database_url, serve
):
    # A lease of ten minutes: only the page closing can take Ana out.
    with serve(database_url, QUEUE_LEASE=600) as live:
        _closed_and_reloaded(live)


def _closed_and_reloaded(live) -> None:
    ana, ben = live.guest("Ana"), live.guest("Ben")
    with home(live, ana) as ws:
        play_now(ana, most=2)
        until(ws, "queue", lambda m: m["place"] is not None)
    waiting = live.client()
    for _ in range(500):
        if waiting.get("/api/queue/waiting").json() == {"games": {}}:
            break
        threading.Event().wait(0.02)
    assert waiting.get("/api/queue/waiting").json() == {"games": {}}
    play_now(ben, most=2)
    with home(live, ben) as ben_ws:
        assert until(ben_ws, "queue", lambda m: m["place"] is not None)["place"]["waiting"] == 1
        # Ana comes back (a reload): her place counts again, and the table is formed.
        with home(live, ana) as ana_ws:
            game_id = until(ana_ws, "seated")["game_id"]
        assert until(ben_ws, "seated")["game_id"] == game_id


def test_a_place_nobody_keeps_stops_counting_after_its_lease(database_url, serve):
    with serve(database_url, QUEUE_LEASE=0.5) as live:
        ana = live.guest("Ana")
        play_now(ana, most=2)
        waiting = live.client()
        for _ in range(500):
            if waiting.get("/api/queue/waiting").json() == {"games": {}}:
                break
            threading.Event().wait(0.02)
        assert waiting.get("/api/queue/waiting").json() == {"games": {}}
        play_now(ben := live.guest("Ben"), most=2)
        assert ben.get("/api/queue").json()["waiting"] == 1
