"""What the tests of data migrations share: a database at an old revision, and tables to write
rows into as the code of that revision did (only the columns named, so a test says which
columns the old code wrote)."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterable, Iterator

import pytest
import sqlalchemy as sa
from alembic import command
from sqlalchemy.engine import make_url

from app.migrate import alembic_config
from tests.app.conftest import POSTGRES_URL, _execute

# The two databases a migration runs on: a fixture with these params gets "sqlite" or "postgres".
DATABASES = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


def old_table(name: str, columns: Iterable[str], json: Iterable[str] = ()) -> sa.TableClause:
    return sa.table(name, *(sa.column(c) for c in columns), *(sa.column(c, sa.JSON) for c in json))


# Columns that every revision these tests start from had; each test adds its revision's others.
GAME_COLUMNS = (
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
LOBBY_COLUMNS = (
    "id",
    "game",
    "seat_count",
    "private",
    "invite_code",
    "host_id",
    "status",
    "game_id",
    "created_at",
)
players = old_table("players", ["id", "name", "token_hash", "created_at"])
seats = old_table("seats", ["lobby_id", "seat", "player_id", "bot_level"])


def database_at(request: pytest.FixtureRequest, tmp_path, revision: str) -> Iterator[str]:
    """For a fixture with ``DATABASES`` as params: the URL of an empty database migrated up to
    ``revision`` (on PostgreSQL a database of its own, dropped after)."""
    if request.param == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path / 'old.db'}"
        command.upgrade(alembic_config(url), revision)
        yield url
        return
    request.getfixturevalue("postgres_url")  # skips when PostgreSQL is unreachable
    name = f"campground_old_{uuid.uuid4().hex[:12]}"
    asyncio.run(_execute(POSTGRES_URL, f'CREATE DATABASE "{name}"', autocommit=True))
    url = make_url(POSTGRES_URL).set(database=name).render_as_string(hide_password=False)
    try:
        command.upgrade(alembic_config(url), revision)
        yield url
    finally:
        asyncio.run(_execute(POSTGRES_URL, f'DROP DATABASE "{name}" WITH (FORCE)', autocommit=True))
