"""Play now over HTTP, on SQLite and PostgreSQL: people whose choices agree sit at one table
started at once, bots fill seats after the wait chosen, impossible choices are 422, one
queue at a time, and a person who left is never seated."""

from __future__ import annotations

import asyncio

import pytest

from app.services import ratings
from tests.app.accounts import signed_in
from tests.app.conftest import _execute, running, settings_for
from tests.app.queue_helpers import play_now, seats_of, table_of


@pytest.fixture(scope="module")
def live(database_url):
    """Places are kept for ten minutes: these tests keep them by asking now and then, not by a
    home socket (``test_home_socket.py``)."""
    with running(settings_for(database_url, QUEUE_LEASE=600)) as server:
        yield server


@pytest.fixture(autouse=True)
def empty_queue(database_url):
    """Tests share the module's server: nobody a test left waiting meets the next test's."""
    yield
    asyncio.run(_execute(database_url, "DELETE FROM queue_entries"))


def test_people_who_press_play_now_sit_at_one_table_that_starts_at_once(live):
    ana, ben, cy = live.guest("Ana"), live.guest("Ben"), live.guest("Cy")
    place = play_now(ana, fewest=3, most=3)
    assert place["game"] == "hike" and place["game_id"] is None
    assert (place["fewest"], place["most"], place["speed"], place["rated"]) == (3, 3, "3m", False)
    assert place["waiting"] == 1 and place["gap"] >= 100 and place["waited"] >= 0
    play_now(ben, fewest=3, most=3)
    play_now(cy, fewest=2, most=3)
    game_id = table_of(ana)
    assert table_of(ben) == table_of(cy) == game_id
    state = live.state(ana, game_id)
    assert state["version"] == 0 and state["view"]["table"]["status"] == "active"
    table = state["view"]["table"]
    assert sorted(s["name"] for s in table["seats"]) == ["Ana", "Ben", "Cy"]
    assert table["speed"] == "3m" and table["private"] is False and table["rated"] is False
    # A table formed is a started game, never an open seek.
    assert live.client().get("/api/lobbies").json() == []
    assert live.client().get("/api/queue/waiting").json() == {"games": {}}


def test_choices_that_differ_do_not_sit_together(live):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    play_now(ana, speed="1d", most=2)
    play_now(ben, speed="3m", most=2)
    play_now(live.guest("Cy"), game="summer-camp", most=2)
    assert live.client().get("/api/queue/waiting").json() == {
        "games": {"hike": 2, "summer-camp": 1}
    }
    assert ana.get("/api/queue").json()["game_id"] is None
    dee = live.guest("Dee")
    play_now(dee, speed="1d", most=2)
    assert table_of(dee) == table_of(ana)
    assert live.state(ana, table_of(ana))["view"]["table"]["speed"] == "1d"


def test_bots_fill_the_seats_after_the_wait_chosen(live):
    ana = live.guest("Ana")
    play_now(ana, fewest=3, most=4, bots_after=0, bot_level="random")
    game_id = table_of(ana)
    seats = seats_of(live, ana, game_id)
    assert [s["name"] for s in seats if s["bot"] is None] == ["Ana"]
    assert [s["bot"] for s in seats if s["bot"]] == ["random", "random"]
    # The level chosen also stands in for a person who leaves or is away.
    assert live.state(ana, game_id)["view"]["table"]["stand_in_bot"] == "Beginner bot"


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ({"game": "camping-life", "fewest": 5}, "Camping Life is for 2 players, not 5."),
        (
            {"game": "hike", "fewest": 1, "most": 3},
            "Let's Take a Hike is for 2 to 5 players, not 1.",
        ),
        (
            {"game": "hike", "fewest": 4, "most": 3},
            "The fewest players (4) is more than the most (3).",
        ),
        ({"game": "hike", "rated": True}, "Only a signed-in player can play rated"),
        ({"game": "hike", "speed": "5+3"}, "Unknown speed '5+3'"),
        ({"game": "hike", "bots_after": 30, "bot_level": "grandmaster"}, "Unknown bot level"),
        ({"game": "chess"}, "Unknown game 'chess'"),
    ],
)
def test_an_impossible_choice_is_a_clear_422(live, body, says):
    r = live.guest("Gus").post("/api/queue", json=body)
    assert r.status_code == 422 and r.json()["detail"].startswith(says)


def test_a_bot_wait_out_of_bounds_is_422(live):
    gus = live.guest("Gus")
    for wait in (-1, 601):
        assert gus.post("/api/queue", json={"game": "hike", "bots_after": wait}).status_code == 422


def test_one_queue_at_a_time(live):
    ana = live.guest("Ana")
    play_now(ana)
    r = ana.post("/api/queue", json={"game": "summer-camp"})
    assert r.status_code == 409
    assert (
        r.json()["detail"] == "You are already waiting for Let's Take a Hike: leave that "
        "queue first."
    )
    assert ana.delete("/api/queue").json() == {"left": True}
    assert play_now(ana, game="summer-camp")["game"] == "summer-camp"
    assert live.client().get("/api/queue/waiting").json() == {"games": {"summer-camp": 1}}


def test_a_person_who_left_is_never_seated(live):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    play_now(ana, fewest=3, most=3)
    play_now(ben, fewest=3, most=3)
    assert ana.delete("/api/queue").status_code == 200
    assert ana.get("/api/queue").status_code == 404
    assert ana.delete("/api/queue").status_code == 404
    cy = live.guest("Cy")
    play_now(cy, fewest=3, most=3)
    play_now(dee := live.guest("Dee"), fewest=3, most=3)
    game_id = table_of(cy)
    assert table_of(ben) == table_of(dee) == game_id
    assert "Ana" not in [s["name"] for s in seats_of(live, cy, game_id)]
    # Too late to leave once seated: the table is said.
    r = ben.delete("/api/queue")
    assert r.status_code == 409 and f"/games/{game_id}" in r.json()["detail"]


def test_a_suspended_player_and_a_stranger_cannot_queue(live):
    assert live.client().post("/api/queue", json={"game": "hike"}).status_code == 401
    gus = live.guest("Gus")
    assert live.admin().post(f"/api/admin/players/{gus.id}/suspension", json={}).status_code == 200
    assert gus.post("/api/queue", json={"game": "hike"}).status_code == 403


def test_people_are_matched_by_their_conservative_rating(live):
    strong, weak = signed_in(live, "Sam"), signed_in(live, "Wes")
    asyncio.run(
        _execute(
            live.settings.DATABASE_URL,
            "INSERT INTO ratings (game, rater, mu, sigma, ordinal, games, opponents, updated_at) "
            f"VALUES ('hike', '{strong.id}', 40, 2, 34, 30, 5, '2026-01-01'), "
            f"('hike', '{weak.id}', 27, 8, 3, 2, 1, '2026-01-01')",
        )
    )
    # Established: mu - 3 sigma; provisional: as if sigma were down to the provisional line.
    # Signed-in players play rated unless they say otherwise; a guest cannot.
    assert play_now(strong, most=2)["rated"] is True
    assert strong.delete("/api/queue").status_code == 200
    assert play_now(strong, most=2, rated=False)["rating"] == round(60 * (40 - 3 * 2))
    weak_place = play_now(weak, most=2, rated=False)
    assert weak_place["rating"] == round(60 * (27 - 3 * ratings.PROVISIONAL_SIGMA))
    assert play_now(newcomer := live.guest("Neo"), most=2)["rating"] == round(
        ratings.matching_points(None, None)
    )
    # 2,040 and 540: the newcomer (420) is nearer the provisional player.
    assert table_of(weak) == table_of(newcomer)
    assert strong.get("/api/queue").json()["game_id"] is None


def test_the_speeds_are_named_in_one_place_real_time_then_turn_based(live):
    speeds = live.client().get("/api/queue/speeds").json()
    assert [(s["id"], s["pace"], s["start_seconds"], s["add_seconds"]) for s in speeds] == [
        ("3m", "real time", 180, 15),
        ("10m", "real time", 600, 30),
        ("20m", "real time", 1200, 60),
        ("1d", "turn-based", 3 * 86400, 86400),
        ("3d", "turn-based", 6 * 86400, 3 * 86400),
        ("7d", "turn-based", 14 * 86400, 7 * 86400),
        ("untimed", "untimed", None, None),
    ]
    assert speeds[0]["words"] == "Real time · 3 min + 15 s a move"
    assert speeds[3]["words"] == "Turn-based · 1 day a move, 2 to spare"


def test_a_play_now_table_gets_the_speed_chosen(live):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    play_now(ana, speed="1d", most=2)
    play_now(ben, speed="1d", most=2)
    game_id = table_of(ana)
    assert game_id is not None and game_id == table_of(ben)
    table = live.state(ana, game_id)["view"]["table"]
    assert (table["speed"], table["pace"], table["turn_seconds"]) == ("1d", "turn-based", None)
    acting = table["seats"][live.state(ana, game_id)["view"]["to_act"][0]]
    assert acting["deadline"] is not None


def test_a_join_made_is_answered_as_made_whatever_fails_after(live, monkeypatch):
    """Once the join is committed nothing else is asked of the database: a count that failed
    after it had answered 503 to a join that was made."""
    from app.services import queue

    async def away(*_args, **_kwargs):
        raise ConnectionRefusedError("the database went away")

    monkeypatch.setattr(queue, "waiting", away)
    ana = live.guest("Ana")
    r = ana.post("/api/queue", json={"game": "hike", "most": 2})
    assert r.status_code == 201 and r.json()["waiting"] == 1
