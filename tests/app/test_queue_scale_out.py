"""Two instances on one PostgreSQL and one Redis forming tables from one queue, racing for
every pass: under joins and leaves at once, nobody is seated twice or at two tables, nobody
who left is seated, and a page on one instance opens the table the other formed."""

from __future__ import annotations

import threading
from collections import Counter

import pytest

from tests.app.queue_helpers import home, table_of, until
from tests.app.test_scale_out import on

pytestmark = [pytest.mark.redis, pytest.mark.postgres]


def test_two_instances_seat_everyone_once_under_joins_and_leaves(
    database_url, redis_url, redis_prefix, serve, sql
):
    if not database_url.startswith("postgresql"):
        pytest.skip("several instances share PostgreSQL; SQLite serves one")
    # Both instances look for tables every 20 ms, so they race for every pass.
    settings = {
        "REDIS_URL": redis_url,
        "REDIS_PREFIX": redis_prefix,
        "QUEUE_EVERY": 0.02,
        "QUEUE_LEASE": 600,
    }
    with serve(database_url, **settings) as a, serve(database_url, **settings) as b:
        people = [a.guest(f"P{i}") for i in range(48)]
        clients = [on((a, b)[i % 2], person) for i, person in enumerate(people)]
        # Every fourth person leaves as soon as they have joined; the rest wait, with bots
        # allowed after a few seconds so that nobody is left over.
        leaving = set(range(3, len(people), 4))
        left: dict[int, int] = {}
        start = threading.Barrier(len(people))

        def press_play_now(i: int) -> None:
            game = ("hike", "summer-camp")[i % 2]
            start.wait()
            r = clients[i].post(
                "/api/queue",
                json={
                    "game": game,
                    "fewest": 2,
                    "most": 2 + i % 3,
                    "bots_after": 3,
                },
            )
            assert r.status_code == 201, r.text
            if i in leaving:
                left[i] = clients[i].delete("/api/queue").status_code

        # Two of the people watch their page on the instance they did not join on.
        pages = {i: home((b, a)[i % 2], people[i]).__enter__() for i in (0, 1)}
        try:
            threads = [
                threading.Thread(target=press_play_now, args=(i,)) for i in range(len(people))
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            assert set(left.values()) <= {200, 409}
            stayed = [i for i in range(len(people)) if left.get(i, 409) == 409]
            tables = {i: table_of(clients[i], tries=3000) for i in stayed}
            for i, page in pages.items():
                if i in tables:
                    assert until(page, "seated")["game_id"] == tables[i]
        finally:
            for page in pages.values():
                page.close()
        ids = [p.id for p in people]
        seated = sql(
            "select s.player_id, l.game_id from seats s join lobbies l on l.id = s.lobby_id "
            f"where s.player_id in ({', '.join(repr(i) for i in ids)})"
        )
        count = Counter(player for player, _ in seated)
        assert set(count.values()) == {1}, "someone was seated twice"
        assert {people[i].id: tables[i] for i in stayed} == dict(seated)
        gone = [people[i].id for i, status in left.items() if status == 200]
        assert not set(gone) & set(count)
        assert sql(
            "select count(*) from queue_entries where player_id in "
            f"({', '.join(repr(i) for i in ids)}) and game_id is null"
        ) == [(0,)]
