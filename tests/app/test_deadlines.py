"""Time-based work claimed from the database: bots of a stopped instance, clocks, absent
players, abandoned tables and idle lobbies."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import create_async_engine
from websockets.sync.client import connect

from app.bots import BotWorkers
from app.db import Database
from app.models import Game
from app.services.clock import Clock, Timing
from app.services.errors import StaleVersion
from app.services.commit import commit_move
from tests.app.notice_play import wants_mail
from tests.app.processes import spawned
from tests.app.sockets import Socket, next_lobby


def on(server, player):
    """``player``'s client for another instance: the same token works everywhere."""
    client = server.client()
    client.token, client.id, client.name = player.token, player.id, player.name
    client.headers["Authorization"] = f"Bearer {player.token}"
    return client


def play_until(server, client, game_id, predicate):
    """``client`` (seat 0) makes its first legal move until ``predicate(state)``."""
    state = server.state(client, game_id)
    while not predicate(state):
        assert 0 in state["view"]["to_act"], "seat 0 cannot bring this about alone"
        move = state["view"]["legal_moves"][0]["move"]
        body = {"move": move, "expect_version": state["version"]}
        r = client.post(f"/api/games/{game_id}/moves", json=body)
        assert r.status_code == 200, r.text
        state = r.json()
    return state


@pytest.mark.slow
@pytest.mark.redis
def test_a_bot_turn_left_by_a_killed_instance_is_played_once_by_the_survivor(
    database_url, redis_url, redis_prefix, tmp_path
):
    settings = {"REDIS_URL": redis_url, "REDIS_PREFIX": redis_prefix, "BOT_DELAY": 1}
    with (
        spawned(tmp_path / "a.log", database_url, **settings) as a,
        spawned(tmp_path / "b.log", database_url, **settings) as b,
    ):
        ana = a.guest("Ana")
        game_id = a.start_game(ana, bots=("random",))
        # Ana's move on A hands the turn to the bot; A owns it and dies before it moves.
        state = play_until(a, ana, game_id, lambda s: 0 not in s["view"]["to_act"] or False)
        waiting_at = state["version"]
        a.kill()
        killed_at = time.monotonic()
        survivor = on(b, ana)
        b.wait_for(survivor, game_id, lambda s: s["version"] > waiting_at, tries=500)
        # Taken over well within the lease (5 s) and a poll, with room for a busy machine.
        assert time.monotonic() - killed_at < 20
        time.sleep(1.5)
        moves = b.admin().get(f"/api/admin/games/{game_id}/moves").json()
        assert [m["seq"] for m in moves] == list(range(1, len(moves) + 1))
        assert moves[waiting_at]["seat"] == 1


def run_sql(database_url, statement):
    async def go():
        engine = create_async_engine(database_url)
        try:
            async with engine.begin() as conn:
                return await conn.execute(statement)
        finally:
            await engine.dispose()

    return asyncio.run(go())


def deadline_at(database_url, game_id, seat, when: datetime) -> None:
    """``seat``'s deadline (and the game's next) is ``when``, as if its turn had started
    ``turn_seconds`` before it."""
    row = run_sql(database_url, select(Game.clock).where(Game.id == game_id)).one()
    clock = Clock.load(row.clock)
    assert seat in clock.deadlines, "only a person who is to act has a deadline"
    clock.deadlines[seat] = when
    run_sql(
        database_url,
        update(Game).where(Game.id == game_id).values(clock=clock.dump(), due_at=when),
    )


def time_runs_out(database_url, game_id, seat):
    """``seat``'s deadline passes now: as if its person had left the table ``turn_seconds`` ago."""
    deadline_at(database_url, game_id, seat, datetime.now(UTC) - timedelta(seconds=1))


def seat_of(view, seat):
    return view["table"]["seats"][seat]


# Tests here start their own servers: one left running would act on the others' deadlines.


def test_a_lobby_has_a_clock_unless_the_host_wants_none(database_url, serve):
    with serve(database_url) as live:
        ana = live.guest("Ana")
        assert live.lobby(ana)["turn_seconds"] == 180
        assert live.lobby(ana, turn_seconds=None)["turn_seconds"] is None
        assert live.lobby(ana, turn_seconds=600)["turn_seconds"] == 600
        for wrong in (9, 7 * 24 * 3600 + 1):
            r = ana.post("/api/lobbies", json={"game": "hike", "turn_seconds": wrong})
            assert r.status_code == 422


def test_the_table_shows_each_acting_persons_deadline(database_url, serve):
    with serve(database_url) as live:
        ana, ben = live.guest("Ana"), live.guest("Ben")
        lobby = live.lobby(ana, seats=3, turn_seconds=60)
        ben.post("/api/lobbies/join", json={"invite_code": lobby["invite_code"]})
        ana.post(f"/api/lobbies/{lobby['id']}/bots", json={"seat": 2, "level": "random"})
        before = datetime.now(UTC)
        game_id = ana.post(f"/api/lobbies/{lobby['id']}/start").json()["game_id"]
        view = live.state(ben, game_id)["view"]
        assert view["table"]["turn_seconds"] == 60
        for seat in range(3):
            entry = seat_of(view, seat)
            assert entry["away"] is False
            if seat in view["to_act"] and seat != 2:
                deadline = datetime.fromisoformat(entry["deadline"])
                assert before + timedelta(seconds=59) < deadline
                assert deadline < datetime.now(UTC) + timedelta(seconds=61)
            else:
                assert entry["deadline"] is None
        untimed = live.lobby(ana, seats=2, turn_seconds=None)
        ana.post(f"/api/lobbies/{untimed['id']}/bots", json={"seat": 1, "level": "random"})
        game_id = ana.post(f"/api/lobbies/{untimed['id']}/start").json()["game_id"]
        table = live.state(ana, game_id)["view"]["table"]
        assert table["turn_seconds"] is None
        assert [s["deadline"] for s in table["seats"]] == [None, None]


@pytest.mark.redis
def test_a_deadline_running_out_with_two_instances_gives_one_bot_move(
    database_url, redis_url, redis_prefix, serve
):
    settings = {"REDIS_URL": redis_url, "REDIS_PREFIX": redis_prefix, "DEADLINE_POLL": 0.02}
    with serve(database_url, **settings) as a, serve(database_url, **settings) as b:
        ana, ben = a.guest("Ana"), a.guest("Ben")
        game_id = a.start_game(ana, ben)
        state = a.state(ana, game_id)
        late = state["view"]["to_act"][0]
        ben_ws = Socket(b, game_id, ben.token)
        try:
            time_runs_out(database_url, game_id, late)
            # The bot's move is thought out in a worker process the instance starts: on a
            # busy machine that start alone has taken over 10 s.
            ben_ws.until_version(state["version"] + 1, timeout=45)
            assert seat_of(ben_ws.view, late)["away"] is True
            time.sleep(0.3)
            moves = a.admin().get(f"/api/admin/games/{game_id}/moves").json()
            assert moves[state["version"]]["seat"] == late
            assert [m["seq"] for m in moves] == list(range(1, len(moves) + 1))
            ben_ws.until_version(len(moves))
            assert ben_ws.view == b.state(on(b, ben), game_id)["view"]
        finally:
            ben_ws.close()


def until_acting(server, game_id, seat, players):
    """The others make their first legal move until ``seat`` is to act; its state."""
    while True:
        state = server.state(players[seat], game_id)
        acting = state["view"]["to_act"]
        if seat in acting:
            return state
        mover = players[acting[0]]
        move = server.state(mover, game_id)["view"]["legal_moves"][0]["move"]
        body = {"move": move, "expect_version": state["version"]}
        assert mover.post(f"/api/games/{game_id}/moves", json=body).status_code == 200


def test_a_person_comes_back_by_moving_or_by_saying_so(database_url, serve):
    # The stand-in waits 3 s before each move, long enough for the person to get in first.
    with serve(database_url, BOT_DELAY=3, DEADLINE_POLL=0.05) as live:
        ana, ben = live.guest("Ana"), live.guest("Ben")
        game_id = live.start_game(ana, ben)
        players = [ana, ben]
        for how in ("move", "back"):
            state = until_acting(live, game_id, 0, players)
            time_runs_out(database_url, game_id, 0)
            state = live.wait_for(ana, game_id, lambda s: seat_of(s["view"], 0)["away"])
            assert seat_of(live.state(ben, game_id)["view"], 0)["away"] is True
            moves = live.admin().get(f"/api/admin/games/{game_id}/moves").json()
            timed_out = moves[-1]
            assert timed_out["seat"] == 0
            state = until_acting(live, game_id, 0, players)
            if how == "move":
                move = state["view"]["legal_moves"][0]["move"]
                body = {"move": move, "expect_version": state["version"]}
                r = ana.post(f"/api/games/{game_id}/moves", json=body)
            else:
                r = ana.post(f"/api/games/{game_id}/back")
            assert r.status_code == 200, r.text
            view = r.json()["view"]
            assert seat_of(view, 0)["away"] is False
            if 0 in view["to_act"]:
                assert seat_of(view, 0)["deadline"] is not None
        # Saying so again, or from a seat that is not away, changes nothing.
        now_at = live.state(ana, game_id)["version"]
        assert ana.post(f"/api/games/{game_id}/back").json()["version"] == now_at
        assert live.client().post(f"/api/games/{game_id}/back").status_code == 401
        stranger = live.guest("Cy")
        assert stranger.post(f"/api/games/{game_id}/back").status_code == 403


def test_a_deadline_that_ran_out_while_no_server_ran_is_acted_on_after_the_restart(
    database_url, serve
):
    with serve(database_url, DEADLINE_POLL=0) as first:
        ana, ben = first.guest("Ana"), first.guest("Ben")
        game_id = first.start_game(ana, ben)
        state = first.state(ana, game_id)
        tokens = (ana.token, ben.token)
    late = state["view"]["to_act"][0]
    time_runs_out(database_url, game_id, late)
    with serve(database_url) as second:
        client = second.client()
        client.headers["Authorization"] = f"Bearer {tokens[late]}"
        after = second.wait_for(client, game_id, lambda s: s["version"] > state["version"])
        assert seat_of(after["view"], late)["away"] is True
        moves = second.admin().get(f"/api/admin/games/{game_id}/moves").json()
        assert moves[state["version"]]["seat"] == late


def test_a_game_everyone_has_left_waits_then_is_aborted(database_url, serve, sql):
    with serve(database_url, DEADLINE_POLL=0.05, ABANDON_AFTER=1, NOTICE_POLL=0) as live:
        ana = live.guest("Ana")
        wants_mail(database_url, ana.id)
        game_id = live.start_game(ana, bots=("random",))
        state = until_acting(live, game_id, 0, [ana])
        time_runs_out(database_url, game_id, 0)
        # The stand-in makes the move that ran out; then nobody is left to play for.
        ended = live.wait_for(ana, game_id, lambda s: s["view"]["table"]["status"] != "active")
        assert ended["view"]["table"]["status"] == "aborted"
        assert ended["version"] == state["version"] + 1
        assert seat_of(ended["view"], 0)["away"] is True
        # Ana, away, hears of it off the site.
        told = sql(
            "select kind, detail from notices where game_id = :g and player_id = :p",
            g=game_id,
            p=ana.id,
        )
        assert [tuple(row) for row in told] == [("ended", "aborted")]


def test_the_admin_lists_overdue_deadlines_and_away_seats(database_url, serve):
    with serve(database_url, DEADLINE_POLL=0) as idle:
        ana, ben = idle.guest("Ana"), idle.guest("Ben")
        game_id = idle.start_game(ana, ben)
        late = idle.state(ana, game_id)["view"]["to_act"][0]
        time_runs_out(database_url, game_id, late)
        admin = idle.admin()
        overdue = admin.get("/api/admin/clocks").json()["overdue"]
        mine = [o for o in overdue if o["game_id"] == game_id]
        assert len(mine) == 1 and mine[0]["kind"] == "hike"
        assert [s["seat"] for s in mine[0]["seats"]] == [late]
        assert mine[0]["seats"][0]["name"] == ("Ana", "Ben")[late]
        with serve(database_url, DEADLINE_POLL=0.05) as acting:
            acting.wait_for(on(acting, ana), game_id, lambda s: seat_of(s["view"], late)["away"])
        clocks = admin.get("/api/admin/clocks").json()
        assert game_id not in [o["game_id"] for o in clocks["overdue"]]
        away = [a for a in clocks["away"] if a["game_id"] == game_id]
        assert [(a["seat"], a["name"]) for a in away] == [(late, ("Ana", "Ben")[late])]


def test_an_idle_lobby_closes_and_its_sockets_see_it(database_url, serve):
    with serve(database_url, DEADLINE_POLL=0.05, LOBBY_IDLE=0.5) as live:
        ana, ben = live.guest("Ana"), live.guest("Ben")
        lobby = live.lobby(ana, seats=2)
        with connect(f"{live.ws_url}/ws/lobbies/{lobby['id']}?token={ana.token}") as ws:
            assert next_lobby(ws)["status"] == "open"
            assert next_lobby(ws)["status"] == "closed"
        r = ben.post("/api/lobbies/join", json={"invite_code": lobby["invite_code"]})
        assert r.status_code == 409 and r.json()["detail"] == "The lobby is closed."
        assert lobby["id"] not in [x["id"] for x in live.client().get("/api/lobbies").json()]


def test_a_bot_move_for_a_seat_its_person_plays_is_refused(database_url, serve):
    """The bot chose a move while the seat was away or late; by the time it commits, the person
    is back (or has a new deadline): the move is refused as stale and nothing is written."""

    async def bot_moves(game_id, seat, move, version, played_by):
        db = Database(database_url)
        try:
            await commit_move(
                db, game_id, seat, move, version, timing=Timing(0, 60), played_by=played_by
            )
        finally:
            await db.dispose()

    with serve(database_url, DEADLINE_POLL=0) as live:
        ana, ben = live.guest("Ana"), live.guest("Ben")
        game_id = live.start_game(ana, ben)
        state = live.state(ana, game_id)
        seat = state["view"]["to_act"][0]
        move = live.state((ana, ben)[seat], game_id)["view"]["legal_moves"][0]["move"]
        for played_by in ("bot", "clock"):
            with pytest.raises(StaleVersion):
                asyncio.run(bot_moves(game_id, seat, move, state["version"], played_by))
        assert live.state(ana, game_id) == state


def test_taking_back_gives_no_time_back(database_url, serve):
    """A step that can be taken back and its undoing keep the deadline the turn started with:
    putting a coin down on a card and taking it back again and again does not keep the seat from being
    marked away once that deadline passes."""
    with serve(database_url, DEADLINE_POLL=0) as live:
        ana, ben = live.guest("Ana"), live.guest("Ben")
        game_id = live.start_game(ana, ben, game="camping-life")
        state = live.state(ana, game_id)
        seat = state["view"]["to_act"][0]
        mover = (ana, ben)[seat]
        # Earlier than a fresh turn's (180 s from now), so a deadline started again shows.
        deadline_at(
            database_url,
            game_id,
            seat,
            datetime.now(UTC).replace(microsecond=0) + timedelta(seconds=100),
        )
        state = live.state(mover, game_id)
        started = seat_of(state["view"], seat)["deadline"]

        def send(move: dict) -> dict:
            body = {"move": move, "expect_version": state["version"]}
            r = mover.post(f"/api/games/{game_id}/moves", json=body)
            assert r.status_code == 200, r.text
            return r.json()

        def step() -> dict:
            legal = [e["move"] for e in state["view"]["legal_moves"]]
            return next(m for m in legal if m["type"] == "bid_card")

        for _ in range(3):
            state = send(step())
            assert {"type": "undo"} in [e["move"] for e in state["view"]["legal_moves"]]
            assert seat_of(state["view"], seat)["deadline"] == started
            state = send({"type": "undo"})
            assert seat_of(state["view"], seat)["deadline"] == started
        # The turn's deadline passes; a step then does not start it again: the stand-in
        # plays the seat, which is marked away.
        time_runs_out(database_url, game_id, seat)
        state = live.state(mover, game_id)
        send(step())
        live.wait_for(mover, game_id, lambda s: seat_of(s["view"], seat)["away"])


def test_an_admin_abort_racing_a_bots_deadline_is_logged_as_expected(
    database_url, serve, monkeypatch, caplog
):
    """The admin aborts the game while its bot thinks out its move: the bot's move is refused,
    which the deadline's task logs at INFO, without a traceback or an error."""
    thinking, go_on = threading.Event(), threading.Event()
    chosen = BotWorkers.move

    async def held(self, snap, seat):
        thinking.set()
        await asyncio.to_thread(go_on.wait, 30)
        return await chosen(self, snap, seat)

    monkeypatch.setattr(BotWorkers, "move", held)
    with serve(database_url, DEADLINE_POLL=0) as live:
        ana = live.guest("Ana")
        game_id = live.start_game(ana, bots=("random",))
        with caplog.at_level(logging.INFO, logger="app.deadlines"):
            play_until(live, ana, game_id, lambda s: 0 not in s["view"]["to_act"])
            assert thinking.wait(30), "the bot's deadline never came"
            r = live.admin().post(f"/api/admin/games/{game_id}/abort")
            assert r.status_code == 200, r.text
            go_on.set()
            for _ in range(500):
                said = [r for r in caplog.records if r.name == "app.deadlines"]
                if said:
                    break
                threading.Event().wait(0.01)
        moves = live.admin().get(f"/api/admin/games/{game_id}/moves").json()
    assert [(r.levelno, r.exc_info) for r in said] == [(logging.INFO, None)], caplog.text
    assert "aborted" in said[0].getMessage()
    assert all(m["seat"] == 0 for m in moves)
