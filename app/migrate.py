"""Bring a database schema up to date: ``alembic upgrade head``, from Python."""

from __future__ import annotations

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

from app.config import project_path


def alembic_config(database_url: str | None = None) -> Config:
    cfg = Config(str(project_path("alembic.ini")))
    cfg.set_main_option("script_location", str(project_path("migrations")))
    cfg.attributes["database_url"] = database_url
    cfg.attributes["configure_logger"] = False
    return cfg


def upgrade(database_url: str | None = None) -> None:
    """Migrate ``database_url`` (default: the settings' ``DATABASE_URL``) to the latest revision.

    Synchronous; it runs its own event loop, so call it from a thread inside async code.
    """
    command.upgrade(alembic_config(database_url), "head")


def head() -> str | None:
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def current(connection: Connection) -> str | None:
    return MigrationContext.configure(connection).get_current_revision()


async def check_schema(engine: AsyncEngine) -> None:
    """Refuse to serve a database that is not at the latest revision, with the remedy."""
    async with engine.connect() as conn:
        revision = await conn.run_sync(current)
    if revision != head():
        raise RuntimeError(
            f"The database schema is at revision {revision or 'none'}, not {head()}: "
            "run `campground migrate` first."
        )
