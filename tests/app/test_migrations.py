"""The ORM models and the Alembic migrations never drift."""

import asyncio

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

from app.config import Settings
from app.context import Context
from app.db import make_engine
from app.migrate import alembic_config, upgrade
from app.models import Base


def drift(url: str) -> list:
    async def compare() -> list:
        engine = make_engine(url)
        try:
            async with engine.connect() as conn:
                return await conn.run_sync(
                    lambda sync: compare_metadata(
                        MigrationContext.configure(sync, opts={"compare_type": True}), Base.metadata
                    )
                )
        finally:
            await engine.dispose()

    return asyncio.run(compare())


def test_one_head():
    assert len(ScriptDirectory.from_config(alembic_config()).get_heads()) == 1


def test_models_match_the_migrations(database_url):
    assert drift(database_url) == []


def test_a_fresh_database_migrates_and_reports_drift_when_behind(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'fresh.db'}"
    upgrade(url)
    assert drift(url) == []
    command.downgrade(alembic_config(url), "base")
    assert drift(url), "an empty database must differ from the models"
    upgrade(url)
    assert drift(url) == []


@pytest.mark.postgres
def test_downgrade_and_upgrade_on_postgres(postgres_url):
    command.downgrade(alembic_config(postgres_url), "base")
    assert drift(postgres_url)
    upgrade(postgres_url)
    assert drift(postgres_url) == []


def test_the_server_refuses_an_unmigrated_database(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'empty.db'}"
    ctx = Context(Settings(DATABASE_URL=url))

    async def start():
        try:
            await ctx.start()
        finally:
            await ctx.close()

    with pytest.raises(RuntimeError, match="run `campground migrate` first"):
        asyncio.run(start())


@pytest.mark.postgres
def test_game_states_are_compressed_with_lz4_on_postgres(postgres_url):
    from tests.app.conftest import query

    compression = (
        "SELECT attcompression::text FROM pg_attribute "
        "WHERE attrelid = 'games'::regclass AND attname = 'state'"
    )
    assert asyncio.run(query(postgres_url, compression)) == [("l",)]
    command.downgrade(alembic_config(postgres_url), "0003")
    assert asyncio.run(query(postgres_url, compression)) == [("p",)]
    upgrade(postgres_url)
    assert asyncio.run(query(postgres_url, compression)) == [("l",)]
