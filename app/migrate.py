"""Bring a database schema up to date: ``alembic upgrade head``, from Python."""

from __future__ import annotations

from dataclasses import dataclass

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


@dataclass(frozen=True)
class Migrated:
    """What an upgrade did: the revision it started at (None: an empty database) and the
    revisions it applied, in order (none: the schema was up to date)."""

    started_at: str | None
    applied: list[str]


def upgrade(database_url: str | None = None) -> Migrated:
    """Migrate ``database_url`` (default: the settings' ``DATABASE_URL``) to the latest revision.

    Synchronous; it runs its own event loop, so call it from a thread inside async code.
    """
    cfg = alembic_config(database_url)
    command.upgrade(cfg, "head")
    return Migrated(cfg.attributes.get("started_at"), cfg.attributes.get("applied", []))


def describe(revision: str) -> str:
    """A revision's first line, as its file says what it changes."""
    script = ScriptDirectory.from_config(alembic_config()).get_revision(revision)
    return (script.doc or "").strip().splitlines()[0] if script and script.doc else ""


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
