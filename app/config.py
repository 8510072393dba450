"""Settings read from the environment."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


def project_path(name: str) -> Path:
    """A top-level project file: next to the package in a checkout, else in the working dir.

    An installed package (the Docker image) lives in site-packages while ``migrations/`` and
    ``static/`` stay in the working directory.
    """
    beside = Path(__file__).resolve().parent.parent / name
    return beside if beside.exists() else Path.cwd() / name


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=None, extra="ignore")

    DATABASE_URL: str = "sqlite+aiosqlite:///./campground.db"
    ADMIN_TOKEN: str | None = Field(default=None, description="admin API is off when unset")
    REDIS_URL: str | None = Field(
        default=None, description="fan-out between instances; in-process when unset"
    )
    REDIS_PREFIX: str = Field(
        default="campground:", description="prefix of the Redis channels the instances share"
    )
    BOT_DELAY: float = Field(default=0.6, ge=0, description="seconds before a bot moves")
    BOT_SWEEP: float = Field(
        default=30,
        ge=0,
        description="every so many seconds, bots move in games idle that long (their instance "
        "may have stopped); 0 turns it off",
    )
    PUBLIC_URL: str | None = Field(default=None, description="base of invite links")
    DB_POOL_SIZE: int = Field(default=5, ge=1, description="database connections kept open")
    DB_POOL_OVERFLOW: int = Field(
        default=10, ge=0, description="connections opened beyond DB_POOL_SIZE under load"
    )
    DB_POOL_TIMEOUT: float = Field(
        default=30, gt=0, description="seconds a request waits for a free connection before 503"
    )
    WS_SEND_TIMEOUT: float = Field(
        default=10,
        gt=0,
        description="seconds a client may take to take one message before its socket is dropped",
    )
    WS_MAX_PER_GAME: int = Field(
        default=1000, ge=1, description="sockets on one game, per instance"
    )
    WS_MAX_PER_INSTANCE: int = Field(
        default=10_000, ge=1, description="game and lobby sockets, per instance"
    )
    REDIS_TIMEOUT: float = Field(
        default=1, gt=0, description="seconds a Redis publish or health check may take"
    )
    STATIC_DIR: Path = Field(default_factory=lambda: project_path("static"))
