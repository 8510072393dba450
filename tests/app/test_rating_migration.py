"""Ratings stored before the leaderboard ranked by the ordinal and counted opponents: the
migration fills both in from the ratings and the rated games so far, on SQLite and
PostgreSQL."""

import asyncio
from datetime import UTC, datetime

import pytest
from sqlalchemy.ext.asyncio import create_async_engine

from app.migrate import upgrade
from tests.app.conftest import query
from tests.app.migration_parts import DATABASES, GAME_COLUMNS, database_at, old_table

AT = datetime(2026, 12, 1, tzinfo=UTC)
games = old_table("games", GAME_COLUMNS, json=["options", "state", "clock"])
ratings = old_table("ratings", ["game", "rater", "mu", "sigma", "games", "updated_at"])
changes = old_table(
    "rating_changes",
    [
        "game_id",
        "seat",
        "kind",
        "rater",
        "place",
        "mu_before",
        "sigma_before",
        "mu_after",
        "sigma_after",
        "created_at",
    ],
)
# Two rated games: Ana against Ben and a Beginner bot, then Ana against Ben again.
PLAYED = {"g1": ["ana", "ben", "bot:random"], "g2": ["ana", "ben"]}
HELD = {"ana": (27.0, 7.0, 2), "ben": (23.0, 7.5, 2), "bot:random": (4.0, 1.0, 1)}


@pytest.fixture(params=DATABASES)
def old_database(request, tmp_path):
    """An empty database at the revision before."""
    yield from database_at(request, tmp_path, "0010")


async def store(url: str) -> None:
    engine = create_async_engine(url)
    try:
        async with engine.begin() as conn:
            for game_id, raters in PLAYED.items():
                await conn.execute(
                    games.insert().values(
                        id=game_id,
                        kind="hike",
                        seed_commitment="0" * 64,
                        seed=1,
                        version=9,
                        status="finished",
                        created_at=AT,
                        updated_at=AT,
                        rated=True,
                        options={},
                        state={},
                        clock={},
                    )
                )
                await conn.execute(
                    changes.insert(),
                    [
                        {
                            "game_id": game_id,
                            "seat": seat,
                            "kind": "hike",
                            "rater": rater,
                            "place": seat,
                            "mu_before": 25.0,
                            "sigma_before": 8.0,
                            "mu_after": 25.0,
                            "sigma_after": 8.0,
                            "created_at": AT,
                        }
                        for seat, rater in enumerate(raters)
                    ],
                )
            await conn.execute(
                ratings.insert(),
                [
                    {
                        "game": "hike",
                        "rater": rater,
                        "mu": mu,
                        "sigma": sigma,
                        "games": played,
                        "updated_at": AT,
                    }
                    for rater, (mu, sigma, played) in HELD.items()
                ],
            )
    finally:
        await engine.dispose()


def test_the_migration_fills_in_ordinals_and_opponents(old_database):
    asyncio.run(store(old_database))
    upgrade(old_database)
    rows = asyncio.run(
        query(old_database, "select rater, ordinal, opponents from ratings order by rater")
    )
    assert rows == [
        ("ana", pytest.approx(27.0 - 21.0), 2),
        ("ben", pytest.approx(23.0 - 22.5), 2),
        ("bot:random", pytest.approx(4.0 - 3.0), 0),
    ]
    met = asyncio.run(
        query(old_database, "select rater, opponent from rating_opponents order by rater, opponent")
    )
    assert met == [("ana", "ben"), ("ana", "bot:random"), ("ben", "ana"), ("ben", "bot:random")]
