"""Ratings stored before the leaderboard ranked by the ordinal and counted opponents: the
migration fills both in from the ratings and the rated games so far, on SQLite and
PostgreSQL."""

import asyncio
import uuid
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa
from alembic import command
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import create_async_engine

from app.migrate import alembic_config, upgrade
from tests.app.conftest import POSTGRES_URL, _execute, query

AT = datetime(2026, 12, 1, tzinfo=UTC)
games = sa.table(
    "games",
    *(
        sa.column(c)
        for c in (
            "id",
            "kind",
            "seed_commitment",
            "seed",
            "version",
            "status",
            "created_at",
            "updated_at",
            "rated",
        )
    ),
    *(sa.column(c, sa.JSON) for c in ("options", "state", "clock")),
)
ratings = sa.table(
    "ratings", *(sa.column(c) for c in ("game", "rater", "mu", "sigma", "games", "updated_at"))
)
changes = sa.table(
    "rating_changes",
    *(
        sa.column(c)
        for c in (
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
        )
    ),
)
# Two rated games: Ana against Ben and a Beginner bot, then Ana against Ben again.
PLAYED = {"g1": ["ana", "ben", "bot:random"], "g2": ["ana", "ben"]}
HELD = {"ana": (27.0, 7.0, 2), "ben": (23.0, 7.5, 2), "bot:random": (4.0, 1.0, 1)}


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def old_database(request, tmp_path):
    """An empty database at the revision before."""
    if request.param == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path / 'old.db'}"
        command.upgrade(alembic_config(url), "0010")
        yield url
        return
    request.getfixturevalue("postgres_url")  # skips when PostgreSQL is unreachable
    name = f"campground_old_{uuid.uuid4().hex[:12]}"
    asyncio.run(_execute(POSTGRES_URL, f'CREATE DATABASE "{name}"', autocommit=True))
    url = make_url(POSTGRES_URL).set(database=name).render_as_string(hide_password=False)
    try:
        command.upgrade(alembic_config(url), "0010")
        yield url
    finally:
        asyncio.run(_execute(POSTGRES_URL, f'DROP DATABASE "{name}" WITH (FORCE)', autocommit=True))


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
