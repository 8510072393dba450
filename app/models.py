"""The tables. ``migrations/`` mirrors them exactly (a test compares the two)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def now() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map = {dict[str, Any]: JSON, datetime: DateTime(timezone=True)}


class Player(Base):
    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(32))
    # A guest's one token; None once the player has a sign-in (its devices are sessions).
    token_hash: Mapped[str | None] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=now)
    # A sign-in (``app.services.accounts``): the handle as typed, and folded for uniqueness.
    handle: Mapped[str | None] = mapped_column(String(24))
    handle_key: Mapped[str | None] = mapped_column(String(24), unique=True)
    password_hash: Mapped[str | None] = mapped_column(String(128))
    # Set by an admin: the player may only watch; stand-ins play their seats.
    suspended_at: Mapped[datetime | None]


class Game(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    kind: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]]
    seed_commitment: Mapped[str] = mapped_column(String(64))
    seed: Mapped[int] = mapped_column(BigInteger)
    state: Mapped[dict[str, Any]]
    version: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(16), default="active", index=True)
    outcome: Mapped[dict[str, Any] | None]
    created_at: Mapped[datetime] = mapped_column(default=now)
    updated_at: Mapped[datetime] = mapped_column(default=now)
    finished_at: Mapped[datetime | None]
    # Seats whose person no longer plays them, so the stand-in bot does: {"2": "conceded"}.
    stand_ins: Mapped[dict[str, Any]] = mapped_column(default=dict, server_default="{}")
    # The bot level that plays for a person away or gone, as the host chose (None: heuristic).
    stand_in_level: Mapped[str | None] = mapped_column(String(16))
    # Raised whenever a seat's name changes, so cached seats are loaded again.
    seats_version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # Indexed: a rematch's lobby, once started or closed, finds the game it follows.
    rematch_lobby_id: Mapped[str | None] = mapped_column(String(32), index=True)
    # Its lobby said "rated": rated at its end if every seat is a signed-in person or a bot.
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")
    # Why a game its lobby rated is not: "Gus has no sign-in" (``app.services.ratings``).
    unrated_because: Mapped[str | None] = mapped_column(String(200))
    # The clock: its speed (``app.services.speeds``; None: a per-move clock of
    # ``turn_seconds`` seconds a move, or untimed without), each acting person's deadline,
    # each person's bank and the seats the bot plays while their person is away
    # (``app.services.clock``).
    speed: Mapped[str | None] = mapped_column(String(16))
    turn_seconds: Mapped[int | None] = mapped_column(Integer)
    clock: Mapped[dict[str, Any]] = mapped_column(default=dict)
    # When the earliest seat still away went away: the admin's list of away seats.
    away_since: Mapped[datetime | None]
    # When this game next needs the server without anyone asking (a bot's move, a deadline,
    # an abandoned table); an instance claims it by moving it forward (``app.deadlines``).
    due_at: Mapped[datetime | None] = mapped_column(index=True)
    # How many entries the game's log has (``log_entries``): the state holds none of them.
    log_length: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class Lobby(Base):
    __tablename__ = "lobbies"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]]
    seat_count: Mapped[int] = mapped_column(Integer)
    private: Mapped[bool] = mapped_column(Boolean)
    invite_code: Mapped[str] = mapped_column(String(16), unique=True)
    host_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    status: Mapped[str] = mapped_column(String(16), default="open")
    game_id: Mapped[str | None] = mapped_column(ForeignKey("games.id"), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=now, index=True)
    # Its speed (``app.services.speeds``); None: ``turn_seconds`` a move, or untimed.
    speed: Mapped[str | None] = mapped_column(String(16))
    turn_seconds: Mapped[int | None] = mapped_column(Integer)
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")
    # The level of the bot standing in for away or conceded players (None: heuristic).
    stand_in_level: Mapped[str | None] = mapped_column(String(16))
    # An open lobby closes by itself at this time; every change moves it later.
    closes_at: Mapped[datetime | None] = mapped_column(index=True)
    # The players the host removed since the invite code was last made: they cannot rejoin.
    removed: Mapped[list[str]] = mapped_column(JSON, default=list, server_default="[]")
    # Who may watch a private table once it has ended: "private", its seats and whoever holds
    # the invite code, as while it was played; "public", anyone (``app.services.watching``).
    after_end: Mapped[str] = mapped_column(String(16), default="private", server_default="private")


class ReplacedInviteCode(Base):
    """An invite code the host replaced by a new one: its link says so, rather than 404."""

    __tablename__ = "replaced_invite_codes"

    code: Mapped[str] = mapped_column(String(16), primary_key=True)
    lobby_id: Mapped[str] = mapped_column(ForeignKey("lobbies.id"), index=True)


class Seat(Base):
    __tablename__ = "seats"

    lobby_id: Mapped[str] = mapped_column(ForeignKey("lobbies.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"), index=True)
    bot_level: Mapped[str | None] = mapped_column(String(16))
    # A rematch keeps the seat for the old table's player until then.
    reserved_for: Mapped[str | None] = mapped_column(ForeignKey("players.id"))
    reserved_until: Mapped[datetime | None]


class Move(Base):
    __tablename__ = "moves"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    move: Mapped[dict[str, Any]]
    created_at: Mapped[datetime] = mapped_column(default=now)


class LogEntry(Base):
    """One line of a game's log, written once with the move (or the setup) that made it and
    never rewritten: ``n`` counts the game's entries from 0."""

    __tablename__ = "log_entries"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    n: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int | None] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)


class ChatMessage(Base):
    """One line of a table's chat: of a game, or of a lobby before its start."""

    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str | None] = mapped_column(ForeignKey("games.id"), index=True)
    lobby_id: Mapped[str | None] = mapped_column(ForeignKey("lobbies.id"), index=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(32))
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=now)

    __table_args__ = (Index("ix_chat_messages_player_id_created_at", "player_id", "created_at"),)


class AdminAction(Base):
    """One change an admin made, kept for good: who (the name they gave, their address),
    what (``action`` on ``target``, with ``details``) and when."""

    __tablename__ = "admin_actions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[datetime] = mapped_column(default=now, index=True)
    actor: Mapped[str] = mapped_column(String(64))
    address: Mapped[str] = mapped_column(String(64))
    request_id: Mapped[str | None] = mapped_column(String(64))
    action: Mapped[str] = mapped_column(String(32), index=True)
    target: Mapped[str] = mapped_column(String(64))
    details: Mapped[dict[str, Any]] = mapped_column(default=dict)


class ChatMute(Base):
    """A player who may not chat until ``until``."""

    __tablename__ = "chat_mutes"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    until: Mapped[datetime]
    reason: Mapped[str | None] = mapped_column(String(200))


class PlayerSession(Base):
    """One signed-in device of a player: its token, of which only the hash is kept."""

    __tablename__ = "player_sessions"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    # How the device came in (claimed, sign-in, device code) and what browser it said it was.
    how: Mapped[str] = mapped_column(String(16))
    device: Mapped[str] = mapped_column(String(100))
    # Its User-Agent, read by ua-parser when it signed in: "Firefox", "Android".
    browser: Mapped[str | None] = mapped_column(String(40))
    system: Mapped[str | None] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(default=now)
    # When its token last authenticated a request or socket, to within ``TOUCH_EVERY``.
    last_used_at: Mapped[datetime | None] = mapped_column()


class DeviceCode(Base):
    """A one-time code that makes another device the same player, until ``expires_at``: it
    ends with the device that made it (the database deletes it with its session)."""

    __tablename__ = "device_codes"

    code_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    session_id: Mapped[str] = mapped_column(
        ForeignKey("player_sessions.id", ondelete="CASCADE"), index=True
    )
    expires_at: Mapped[datetime] = mapped_column(index=True)
    created_at: Mapped[datetime] = mapped_column(default=now)


class Rating(Base):
    """A rater's OpenSkill rating in one game: a player's (their id) or a bot level's
    (``bot:<level>``)."""

    __tablename__ = "ratings"

    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    rater: Mapped[str] = mapped_column(String(48), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    # mu - 3 sigma, the conservative rating the leaderboard ranks by.
    ordinal: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    # Different raters met in rated games (``rating_opponents``); kept for people only.
    opponents: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    updated_at: Mapped[datetime] = mapped_column(default=now)

    __table_args__ = (Index("ix_ratings_game_ordinal", "game", "ordinal"),)


class RatingOpponent(Base):
    """A person and a rater they have met in a rated game of ``game``: the leaderboard lists
    those who met enough different opponents."""

    __tablename__ = "rating_opponents"

    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    rater: Mapped[str] = mapped_column(String(48), primary_key=True)
    opponent: Mapped[str] = mapped_column(String(48), primary_key=True)


class RatingChange(Base):
    """What one rated game did to one seat's rating: its place and the rating before and
    after. A game with these rows has been rated (so never twice)."""

    __tablename__ = "rating_changes"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(32))
    rater: Mapped[str] = mapped_column(String(48))
    place: Mapped[int] = mapped_column(Integer)
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(default=now)

    __table_args__ = (
        Index("ix_rating_changes_rater_created_at", "rater", "created_at"),
        Index("ix_rating_changes_kind_created_at", "kind", "created_at"),
    )


class QueueEntry(Base):
    """A person waiting to "Play now" (``app.services.queue``), with their choices: at most
    one entry per person. The table formed for them sets ``game_id`` in the transaction that
    creates it; the entry goes a little later, once the person's page has heard."""

    __tablename__ = "queue_entries"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), index=True)
    # A speed's id (``app.services.speeds``), matched as it is.
    speed: Mapped[str] = mapped_column(String(16))
    rated: Mapped[bool] = mapped_column(Boolean)
    # The table sizes accepted, from ``fewest`` to ``most`` players.
    fewest: Mapped[int] = mapped_column(Integer)
    most: Mapped[int] = mapped_column(Integer)
    # Seconds after which bots may fill seats (None: never), and their level.
    bots_after: Mapped[int | None] = mapped_column(Integer)
    bot_level: Mapped[str | None] = mapped_column(String(16))
    # The rating matched by, in points (``ratings.matching_points``), as it was on joining.
    rating: Mapped[float] = mapped_column(Float)
    joined_at: Mapped[datetime] = mapped_column(default=now)
    # The entry counts while this is ahead: every open home socket of the person moves it on.
    alive_until: Mapped[datetime]
    # The table formed for the person.
    game_id: Mapped[str | None] = mapped_column(ForeignKey("games.id"))


class Notice(Base):
    """A notice to send off the site (``app.notices``): written in the transaction of the change
    that causes it (the outbox), deleted once sent or given up. Only players who asked for
    notices (a push subscription or a confirmed address) get rows."""

    __tablename__ = "notices"

    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    game_id: Mapped[str | None] = mapped_column(String(32))
    # turn, ended, rematch, invite, chat, reminder; confirm (an address's confirmation mail).
    kind: Mapped[str] = mapped_column(String(16))
    # The chat line, or how much time is left for a reminder.
    detail: Mapped[str | None] = mapped_column(String(300))
    created_at: Mapped[datetime] = mapped_column(default=now)
    # When a worker may next take it: now, after a failure's backoff, or a claim's lease.
    next_try_at: Mapped[datetime] = mapped_column(default=now, index=True)
    tries: Mapped[int] = mapped_column(Integer, server_default="0")
    # The channels that already have it ("mail", "push:<id>"): a retry sends only the rest.
    done: Mapped[list[str]] = mapped_column(JSON, server_default="[]")


class PushSubscription(Base):
    """One device's Web Push subscription, and the notices it wants."""

    __tablename__ = "push_subscriptions"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    endpoint: Mapped[str] = mapped_column(String(1024), unique=True)
    p256dh: Mapped[str] = mapped_column(String(100))
    auth: Mapped[str] = mapped_column(String(40))
    kinds: Mapped[list[str]] = mapped_column(JSON, default=list)
    created_at: Mapped[datetime] = mapped_column(default=now)


class MailAddress(Base):
    """A player's address for "your turn" mails: never shown, logged or sent to anyone else."""

    __tablename__ = "mail_addresses"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    address: Mapped[str] = mapped_column(String(254))
    # The confirmation link's secret part; None once used.
    nonce: Mapped[str | None] = mapped_column(String(32))
    confirmed_at: Mapped[datetime | None] = mapped_column(index=True)
    # One mail a day listing the tables where it is their turn, instead of a mail per turn.
    digest: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")
    last_digest_at: Mapped[datetime | None]


class MailSent(Base):
    """When a table last mailed a player: at most one mail per table per ``MAIL_EVERY``."""

    __tablename__ = "mails_sent"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    sent_at: Mapped[datetime] = mapped_column(default=now)


class Reminder(Base):
    """A reminder written for one turn of one seat (its deadline), so each is sent once."""

    __tablename__ = "reminders"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    deadline: Mapped[datetime] = mapped_column(primary_key=True)
    which: Mapped[str] = mapped_column(String(8), primary_key=True)


class ServerKey(Base):
    """Secrets the server makes for itself once and every instance shares: the key that signs
    device cookies (``app.services.trusted_devices``), the VAPID key, the key that signs mail
    links."""

    __tablename__ = "server_keys"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(Text)
