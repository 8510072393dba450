"""Settings read from the environment."""

from __future__ import annotations

import ipaddress
import re
from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from engine.search import DEFAULT_BUDGET


def project_path(name: str) -> Path:
    """A top-level project file: next to the package in a checkout, else in the working dir.

    An installed package (the Docker image) lives in site-packages while ``migrations/`` and
    ``static/`` stay in the working directory.
    """
    beside = Path(__file__).resolve().parent.parent / name
    return beside if beside.exists() else Path.cwd() / name


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=None, extra="ignore")

    DATABASE_URL: str = Field(
        default="sqlite+aiosqlite:///./campground.db",
        description="the database, as a SQLAlchemy async URL (PostgreSQL: "
        "postgresql+asyncpg://user:password@host:5432/name)",
    )
    ADMIN_TOKEN: str | None = Field(default=None, description="admin API is off when unset")
    REDIS_URL: str | None = Field(
        default=None,
        description="fan-out between instances, and the rate limits and socket "
        "caps they share; in-process when unset",
    )
    REDIS_PREFIX: str = Field(
        default="campground:", description="prefix of the Redis channels the instances share"
    )
    BOT_DELAY: float = Field(default=0.6, ge=0, description="seconds before a bot moves")
    BOT_WORKERS: int = Field(
        default=1,
        ge=0,
        description="processes per instance that think out bot turns, off the event loop; 0 "
        "thinks them out in the server's own process",
    )
    BOT_TIMEOUT: float = Field(
        default=10,
        gt=0,
        description="seconds a bot worker may think before it is replaced and the turn thought "
        "out again",
    )
    BOT_BUDGET: int = Field(
        default=DEFAULT_BUDGET,
        ge=1,
        description="engine steps an Expert (search) bot may play out per move: more plays "
        "stronger and slower; a seed and a budget give the same move on any machine",
    )
    DEADLINE_POLL: float = Field(
        default=1,
        ge=0,
        description="every so many seconds, each instance acts on deadlines that have come "
        "(bots of a stopped instance, clocks, abandoned games, idle lobbies); 0 turns it off",
    )
    ABANDON_AFTER: float = Field(
        default=30 * 24 * 3600,
        gt=0,
        description="seconds every person at a table may be away before the game is aborted",
    )
    QUEUE_EVERY: float = Field(
        default=1,
        ge=0,
        description="every so many seconds (and at once after a join), each instance forms the "
        'tables the "Play now" queue allows; 0 turns it off',
    )
    QUEUE_LEASE: float = Field(
        default=6,
        gt=0,
        description='seconds a "Play now" entry counts without an open home socket of its '
        "person (or a GET /api/queue) keeping it",
    )
    LOBBY_IDLE: float = Field(
        default=24 * 3600,
        gt=0,
        description="seconds an open lobby may go unchanged before it closes by itself",
    )
    PUBLIC_URL: str | None = Field(default=None, description="base of invite links")
    DB_POOL_SIZE: int = Field(default=40, ge=1, description="database connections kept open")
    DB_POOL_OVERFLOW: int = Field(
        default=0,
        ge=0,
        description="connections opened beyond DB_POOL_SIZE under load (and closed after use)",
    )
    DB_POOL_TIMEOUT: float = Field(
        default=30, gt=0, description="seconds a request waits for a free connection before 503"
    )
    DB_PRE_PING: bool = Field(
        default=False,
        description="test each connection before use (a round trip each time); without it a "
        "connection broken by a database restart fails one request and the pool starts afresh",
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
        default=10_000, ge=1, description="game, lobby and home sockets, per instance"
    )
    REDIS_TIMEOUT: float = Field(
        default=1, gt=0, description="seconds a Redis publish or health check may take"
    )
    STATIC_DIR: Path = Field(
        default_factory=lambda: project_path("static"),
        description="the browser client's files (default: static/ of the project); their "
        "version, named in their addresses, is worked out at start: restart after changing one",
    )
    LOG_FORMAT: Literal["text", "json"] = Field(
        default="text", description="text lines, or one JSON object per line"
    )
    LOG_LEVEL: Literal["debug", "info", "warning", "error"] = Field(
        default="info", description="the least important lines written"
    )
    METRICS_ALLOW: str = Field(
        default="127.0.0.0/8,::1",
        description="comma-separated addresses or networks that may read /metrics without the "
        "admin token",
    )
    METRICS_SAMPLE_EVERY: float = Field(
        default=10,
        gt=0,
        description="seconds between the samples of the database behind the figures /metrics "
        "reads from it (games being played)",
    )

    # Notices off the site (``app.notices``).
    VAPID_PRIVATE_KEY: str | None = Field(
        default=None,
        description="the Web Push (VAPID) private key, PEM or raw base64url; made on first start "
        "and kept in the database when unset",
    )
    VAPID_SUBJECT: str = Field(
        default="mailto:admin@localhost",
        description="who push services may contact about this server's pushes (mailto: or https:)",
    )
    PUSH_SERVICES: str = Field(
        default="fcm.googleapis.com,updates.push.services.mozilla.com,notify.windows.com,"
        "push.apple.com",
        description="comma-separated hosts (and their subdomains) a push subscription's endpoint "
        "may be on; every other endpoint is refused",
    )
    SMTP_URL: str | None = Field(
        default=None,
        description="the mail server, smtp://user:password@host:port (smtps:// for TLS); "
        "mail is off when unset",
    )
    MAIL_FROM: str = Field(default="Campground <noreply@localhost>", description="mails' sender")
    MAIL_EVERY: float = Field(
        default=3 * 3600, ge=0, description="seconds between two mails about one table"
    )
    NOTICE_POLL: float = Field(
        default=1,
        ge=0,
        description="every so many seconds, each instance sends the notices due; 0 turns it off",
    )
    NOTICE_SENDING: Literal["process", "inline"] = Field(
        default="process",
        description="where pushes are encrypted and posted and mails sent: 'process', a "
        "process of each instance's own beside it (a busy server's moves and notices do not "
        "share its event loop), or 'inline', on the server's loop (one process in all)",
    )
    NOTICE_GATHER: float = Field(
        default=0.25,
        ge=0,
        description="at least so many seconds between two sending passes of an instance: a "
        "busy server's notices go out in batches, a quiet one's at once",
    )
    NOTICE_RETRY: float = Field(
        default=10,
        gt=0,
        description="seconds before a failed notice is tried again; doubled at each failure, "
        "up to an hour",
    )
    NOTICE_SCAN_EVERY: float = Field(
        default=60,
        gt=0,
        description="every so many seconds, each instance writes the reminders that have come "
        "and sends the daily digests due",
    )
    NOTICE_GIVE_UP: float = Field(
        default=24 * 3600, gt=0, description="seconds a notice is retried before it is dropped"
    )
    PUSH_TIMEOUT: float = Field(
        default=10, gt=0, description="seconds a push service or mail server may take to answer"
    )

    # Limits on what one client may send or hold; see docs/architecture.md ("Limits").
    TRUSTED_PROXIES: str = Field(
        default="",
        description="comma-separated addresses or networks of the reverse proxies whose "
        "X-Forwarded-For and X-Forwarded-Proto are believed; nobody's when empty",
    )
    ALLOWED_HOSTS: str = Field(
        default="",
        description="comma-separated Host headers (host or host:port) invite links may be built "
        "from when PUBLIC_URL is unset; when empty, only the address the server listens on",
    )
    MAX_BODY_BYTES: int = Field(default=4096, ge=256, description="largest request body")
    MAX_MESSAGE_BYTES: int = Field(
        default=4096, ge=256, description="largest WebSocket message a client may send"
    )
    MAX_REF_CHARS: int = Field(default=128, ge=1, description="longest `ref`, as JSON")
    # A rate is "count/seconds": up to count at once, then count per seconds; "off" for none.
    # A player's rate does the fine work; an address's is a ceiling about ten times higher,
    # since a classroom shares one address.
    RATE_PLAYERS: str = Field(default="100/60", description="new players per address")
    RATE_LOBBIES: str = Field(default="20/60", description="new lobbies per player")
    RATE_LOBBIES_PER_ADDRESS: str = Field(default="200/60", description="new lobbies per address")
    RATE_JOINS: str = Field(
        default="30/60",
        description="joins per player (invite-page look-ups are counted apart, at the same rate)",
    )
    RATE_JOINS_PER_ADDRESS: str = Field(default="300/60", description="joins per address")
    RATE_QUEUES: str = Field(default="10/60", description='"Play now" queue joins per player')
    RATE_QUEUES_PER_ADDRESS: str = Field(
        default="300/60", description='"Play now" queue joins per address'
    )
    RATE_MOVES: str = Field(
        default="300/60", description="HTTP moves and WebSocket messages per player"
    )
    RATE_MOVES_PER_ADDRESS: str = Field(
        default="3000/60", description="HTTP moves and WebSocket messages per address"
    )
    RATE_SOCKETS: str = Field(default="60/60", description="WebSocket connections per player")
    RATE_SOCKETS_PER_ADDRESS: str = Field(
        default="600/60",
        description="new WebSocket connections per address (a known player's reconnects count "
        "against the player only)",
    )
    RATE_REPLAYS: str = Field(
        default="120/60", description="replay steps of ended games per player (or spectator)"
    )
    RATE_REPLAYS_PER_ADDRESS: str = Field(
        default="1200/60", description="replay steps of ended games per address"
    )
    RATE_SIGN_INS: str = Field(
        default="10/300",
        description="sign-in attempts (a password, a device code, a password change) per handle "
        "or player",
    )
    RATE_SIGN_INS_PER_ADDRESS: str = Field(
        default="60/300", description="sign-in attempts and new sign-ins per address"
    )
    RATE_NOTICES: str = Field(
        default="20/600",
        description="changes to a player's notices (push subscriptions, mail address) and "
        "uses of mail links, per player",
    )
    RATE_NOTICES_PER_ADDRESS: str = Field(default="200/600", description="the same, per address")
    MAX_OPEN_LOBBIES: int = Field(
        default=10, ge=1, description="open lobbies one player may host at once"
    )
    MAX_SOCKETS_PER_PLAYER: int = Field(
        default=16,
        ge=1,
        description="WebSockets one player may hold open (on every instance "
        "together with REDIS_URL, else on this one)",
    )
    MAX_SOCKETS_PER_ADDRESS: int = Field(
        default=200,
        ge=1,
        description="WebSockets one address may hold open (on every instance "
        "together with REDIS_URL, else on this one; a quarter of them for sockets without a "
        "token, apart from the players')",
    )
    LISTED_LOBBIES_PER_HOST: int = Field(
        default=3, ge=1, description="public lobbies of one host shown in the listing"
    )

    @field_validator("METRICS_ALLOW")
    @classmethod
    def _networks(cls, v: str) -> str:
        for entry in v.split(","):
            if entry.strip():
                ipaddress.ip_network(entry.strip(), strict=False)
        return v

    @field_validator(
        "RATE_PLAYERS",
        "RATE_LOBBIES",
        "RATE_LOBBIES_PER_ADDRESS",
        "RATE_JOINS",
        "RATE_JOINS_PER_ADDRESS",
        "RATE_QUEUES",
        "RATE_QUEUES_PER_ADDRESS",
        "RATE_MOVES",
        "RATE_MOVES_PER_ADDRESS",
        "RATE_SOCKETS",
        "RATE_SOCKETS_PER_ADDRESS",
        "RATE_REPLAYS",
        "RATE_REPLAYS_PER_ADDRESS",
        "RATE_SIGN_INS",
        "RATE_SIGN_INS_PER_ADDRESS",
        "RATE_NOTICES",
        "RATE_NOTICES_PER_ADDRESS",
    )
    @classmethod
    def _rate(cls, v: str) -> str:
        if v.strip().lower() != "off" and not re.fullmatch(r"\s*[1-9]\d*\s*/\s*\d+(\.\d+)?\s*", v):
            raise ValueError('a rate is "count/seconds", e.g. "20/60", or "off"')
        return v
