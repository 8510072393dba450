"""Playing a table until it is another seat's turn, for the notices' tests."""

from __future__ import annotations

import asyncio

from sqlalchemy import text

from app.db import Database
from app.models import now
from tests.app.notice_parts import wait_until
from tests.app.sockets import Socket

DAY = 24 * 3600


def turn_based_table(
    live, host, *others, game: str = "hike", turn_seconds: int = DAY, speed: str | None = None
) -> str:
    """A table of a per-move clock of ``turn_seconds``, or of the named ``speed``."""
    clock = {"speed": speed} if speed else {"turn_seconds": turn_seconds}
    lobby = live.lobby(host, game=game, seats=1 + len(others), **clock)
    for other in others:
        r = other.post("/api/lobbies/join", json={"invite_code": lobby["invite_code"]})
        assert r.status_code == 200, r.text
    r = host.post(f"/api/lobbies/{lobby['id']}/start")
    assert r.status_code == 201, r.text
    return r.json()["game_id"]


def acting(live, client, game_id) -> list[int]:
    return live.state(client, game_id)["view"]["to_act"]


def play_turn(live, client, game_id) -> dict:
    """``client`` moves (never taking a step back) until its turn is over; the state then."""
    while True:
        state = live.state(client, game_id)
        view = state["view"]
        if view["you"] not in view["to_act"] or view["outcome"]:
            return state
        move = next(m["move"] for m in view["legal_moves"] if m["move"]["type"] != "undo")
        r = client.post(
            f"/api/games/{game_id}/moves", json={"move": move, "expect_version": state["version"]}
        )
        assert r.status_code == 200, r.text


def to_seat(live, players, game_id, seat: int) -> None:
    """Play every other seat's turns until ``seat`` is to act."""
    while seat not in acting(live, players[seat], game_id):
        for s, client in enumerate(players):
            if s != seat and s in acting(live, client, game_id):
                play_turn(live, client, game_id)


def waiting(live, players, game_id):
    """(the player to act first, a player who is not)."""
    first = acting(live, players[0], game_id)[0]
    return players[first], next(p for s, p in enumerate(players) if s != first)


def table(live, *players, turn_seconds=DAY):
    """A two-player turn-based table: its id, the player to act first, and the other."""
    ana, ben = players or (live.guest("Ana"), live.guest("Ben"))
    game_id = turn_based_table(live, ana, ben, turn_seconds=turn_seconds)
    return game_id, *waiting(live, [ana, ben], game_id)


def ben_seat(live, ben, game_id):
    return live.state(ben, game_id)["view"]["you"]


def subscribe(client, device, kinds=("turn", "ended", "rematch", "chat")):
    r = client.put("/api/notices/push", json=device.subscription(list(kinds)))
    assert r.status_code == 200, r.text
    return r.json()


def wants_mail(database_url: str, player_id: str) -> None:
    """The player confirmed an address: notices are written for them from now on."""

    async def run() -> None:
        db = Database(database_url)
        try:
            async with db.writing() as session:
                await session.execute(
                    text(
                        "insert into mail_addresses (player_id, address, digest, confirmed_at) "
                        "values (:p, :a, false, :at)"
                    ),
                    {"p": player_id, "a": f"{player_id}@camp.example", "at": now()},
                )
        finally:
            await db.dispose()

    asyncio.run(run())


def told_only_of_the_table_not_open(watch, play, push, sql) -> None:
    """Ben has one of his two tables with Ana open (a socket on the server ``watch``); a turn
    is played at each through ``play``, and his device is told of the other table alone.
    Returns Ana."""
    looked_at, ana, ben = table(play)
    other = turn_based_table(play, ana, ben)
    phone = push.device()
    subscribe(ben, phone)
    socket = Socket(watch, looked_at, token=ben.token)
    try:
        play_turn(play, ana, looked_at)
        wait_until(
            lambda: not sql("select id from notices where game_id = :g", g=looked_at),
            "the open table's notice handled",
        )
        if ben_seat(play, ben, other) in acting(play, ben, other):
            play_turn(play, ben, other)
        play_turn(play, ana, other)
        wait_until(lambda: push.to(phone), "the other table's push")
    finally:
        socket.ws.close()
    assert [n["url"] for n in push.to(phone)] == [f"/games/{other}"]
