"""Bring a database schema up to date: ``alembic upgrade head``, from Python."""

from __future__ import annotations

from alembic import command
from alembic.config import Config

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
