"""Sign-ins: a guest adds a handle and a password to the player they already are, and any
device becomes that player by signing in or with a one-time code from a signed-in device.

Passwords are hashed with argon2id in a small bounded pool (``app.services.passwords``). A
sign-in with an unknown handle verifies the password against a dummy hash of the same
parameters: it costs what a wrong password costs and gets the same answer. Every device's
token, like a guest's, is kept only as its SHA-256; its User-Agent only as the browser and
system ua-parser reads from it.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from ua_parser import parse

from app.db import Database, storable
from app.models import DeviceCode, Game, Lobby, Player, PlayerSession, Seat, now
from app.services.errors import Problem
from app.services.games import new_id
from app.services.moderation import Actor, record
from app.services import passwords
from app.services.passwords import hash_password, verify_password
from app.services.players import token_hash

HANDLE = re.compile(r"[A-Za-z0-9_-]{3,24}")
# Paths under /api/players that are not profiles.
RESERVED_HANDLES = {"me"}
PASSWORD_CHARS = (8, 128)
DEVICE_CODE_LIFETIME = timedelta(minutes=10)
# No 0/o, 1/l/i: the code may be read off one screen and typed on another.
CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
CODE_LENGTH = 8
WRONG = "Wrong handle or password."


def handle_key(handle: str) -> str:
    """What makes two handles the same: case does not."""
    return handle.lower()


def check_handle(handle: str) -> str:
    handle = handle.strip()
    if not HANDLE.fullmatch(handle):
        raise ValueError("a handle is 3 to 24 letters (a-z), digits, _ or -")
    if handle_key(handle) in RESERVED_HANDLES:
        raise ValueError(f"{handle!r} cannot be a handle")
    return handle


def check_password(password: str) -> str:
    shortest, longest = PASSWORD_CHARS
    if not shortest <= len(password) <= longest:
        raise ValueError(f"a password is {shortest} to {longest} characters")
    return password


@dataclass(frozen=True)
class Device:
    """What a person recognises a device by in their list: its browser and system."""

    label: str
    browser: str | None = None
    system: str | None = None


def _named(family: str | None, major: str | None) -> str | None:
    if not family or family == "Other":
        return None
    return f"{family} {major}"[:40] if major else family[:40]


def describe(user_agent: str | None) -> Device:
    """ "Chrome Mobile 126 on Android 14", read by ua-parser; a script keeps its own name."""
    agent = (user_agent or "")[:512]
    found = parse(agent) if agent else None
    browser = found and found.user_agent and _named(found.user_agent.family, found.user_agent.major)
    system = found and found.os and _named(found.os.family, found.os.major)
    if browser and system:
        label = f"{browser} on {system}"
    else:
        label = browser or system or (agent[:60] or "Unknown device")
    return Device(label, browser or None, system or None)


@dataclass(frozen=True)
class SignedIn:
    player: Player
    token: str


def _session(player_id: str, digest: str, how: str, device: Device) -> PlayerSession:
    at = now()
    return PlayerSession(
        id=new_id(),
        player_id=player_id,
        token_hash=digest,
        how=how,
        device=device.label[:100],
        browser=device.browser,
        system=device.system,
        created_at=at,
        last_used_at=at,
    )


async def _by_handle(db: Database, handle: str) -> Player | None:
    async with db.session() as session:
        return await session.scalar(select(Player).where(Player.handle_key == handle_key(handle)))


async def claim(db: Database, player: Player, handle: str, password: str, device: Device) -> Player:
    """The guest ``player`` gets a sign-in; their token becomes their first device."""
    if player.handle is not None:
        raise Problem(409, "You already have a sign-in.")
    if await _by_handle(db, handle) is not None:
        raise Problem(409, "That handle is taken: choose another.")
    hashed = await hash_password(password)
    try:
        async with db.writing() as session:
            guest_token = await session.scalar(
                select(Player.token_hash).where(Player.id == player.id, Player.handle.is_(None))
            )
            if guest_token is None:
                raise Problem(409, "You already have a sign-in.")
            await session.execute(
                update(Player)
                .where(Player.id == player.id)
                .values(
                    handle=handle,
                    handle_key=handle_key(handle),
                    password_hash=hashed,
                    token_hash=None,
                )
                .execution_options(synchronize_session=False)
            )
            session.add(_session(player.id, guest_token, "claimed", device))
    except IntegrityError:
        raise Problem(409, "That handle is taken: choose another.") from None
    return Player(id=player.id, name=player.name, handle=handle)


async def new_session(db: Database, player: Player, how: str, device: Device) -> SignedIn:
    token = secrets.token_urlsafe(32)
    async with db.writing() as session:
        session.add(_session(player.id, token_hash(token), how, device))
    return SignedIn(player, token)


async def sign_in(db: Database, handle: str, password: str, device: Device) -> SignedIn:
    """A new device of the player with ``handle``: the same 401 whether the handle is
    unknown or the password wrong, after the same work."""
    passwords.pool.check()
    player = await _by_handle(db, handle) if storable(handle) else None
    if not await verify_password(player.password_hash if player else None, password):
        raise Problem(401, WRONG)
    assert player is not None
    return await new_session(db, player, "sign-in", device)


async def devices(db: Database, player_id: str) -> list[PlayerSession]:
    async with db.session() as session:
        found = await session.scalars(
            select(PlayerSession)
            .where(PlayerSession.player_id == player_id)
            .order_by(PlayerSession.created_at.desc(), PlayerSession.id)
        )
        return list(found.all())


async def _end_devices(
    session: AsyncSession,
    player_id: str,
    *,
    session_id: str | None = None,
    token: str | None = None,
    all_but: str | None = None,
) -> list[str]:
    """End the devices ``sign_out`` names, in ``session``'s transaction. The codes a device
    made end with it (the database deletes them); ending every device, or every device but
    one, is a change of credentials, which ends every code of the player. Returns the ended
    tokens' hashes."""
    query = delete(PlayerSession).where(PlayerSession.player_id == player_id)
    if session_id is not None:
        query = query.where(PlayerSession.id == session_id)
    elif token is not None:
        query = query.where(PlayerSession.token_hash == token_hash(token))
    elif all_but is not None:
        query = query.where(PlayerSession.token_hash != token_hash(all_but))
    ended = await session.scalars(
        query.returning(PlayerSession.token_hash).execution_options(synchronize_session=False)
    )
    hashes = list(ended.all())
    if session_id is None and token is None:
        await session.execute(
            delete(DeviceCode)
            .where(DeviceCode.player_id == player_id)
            .execution_options(synchronize_session=False)
        )
    return hashes


async def sign_out(
    db: Database,
    player_id: str,
    *,
    session_id: str | None = None,
    token: str | None = None,
    all_but: str | None = None,
    admin: Actor | None = None,
) -> list[str]:
    """Sign out the player's device ``session_id``, or the one holding ``token``, or every
    device but the one holding ``all_but`` (every device when all are None). Returns the
    signed-out tokens' hashes, whose sockets are to be closed. An ``admin``'s sign-out goes
    into the audit log with it."""
    async with db.writing() as session:
        ended = await _end_devices(
            session, player_id, session_id=session_id, token=token, all_but=all_but
        )
        if admin is not None:
            record(session, admin, "player.sign_out", player_id, devices=len(ended))
    return ended


async def change_password(
    db: Database, player: Player, current: str, new: str, token: str | None
) -> list[str]:
    """A new password once the current one is given; every other device is signed out, and
    every device code of the player ends. Returns the signed-out tokens' hashes."""
    async with db.session() as session:
        stored = await session.scalar(select(Player.password_hash).where(Player.id == player.id))
    if stored is None:
        raise Problem(409, "Add a sign-in first: a guest has no password.")
    if not await verify_password(stored, current):
        raise Problem(401, "Wrong password.")
    hashed = await hash_password(new)
    async with db.writing() as session:
        await session.execute(
            update(Player)
            .where(Player.id == player.id)
            .values(password_hash=hashed)
            .execution_options(synchronize_session=False)
        )
        return await _end_devices(session, player.id, all_but=token or "")


def _code_key(code: str) -> str:
    """A typed code as stored (its hash): case, spaces and dashes do not matter."""
    return token_hash(re.sub(r"[^a-z0-9]", "", code.lower()))


def shown_code(code: str) -> str:
    half = len(code) // 2
    return f"{code[:half]}-{code[half:]}"


async def new_device_code(db: Database, player: Player, token: str) -> tuple[str, datetime]:
    """A code that makes one more device this player, once, for ``DEVICE_CODE_LIFETIME``;
    it ends sooner if the device holding ``token``, which made it, is signed out."""
    if player.handle is None:
        raise Problem(403, "Add a sign-in first: only a signed-in player can use another device.")
    code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    at = now()
    expires = at + DEVICE_CODE_LIFETIME
    async with db.writing() as session:
        await session.execute(
            delete(DeviceCode)
            .where(DeviceCode.expires_at <= at)
            .execution_options(synchronize_session=False)
        )
        maker = await session.scalar(
            select(PlayerSession.id)
            .where(PlayerSession.token_hash == token_hash(token))
            .with_for_update()
        )
        if maker is None:
            raise Problem(401, "This device is signed out: sign in again.")
        session.add(
            DeviceCode(
                code_hash=_code_key(code),
                player_id=player.id,
                session_id=maker,
                expires_at=expires,
                created_at=at,
            )
        )
    return shown_code(code), expires


async def redeem_device_code(db: Database, code: str, device: Device) -> SignedIn:
    """The device that typed (or scanned) ``code`` becomes its player; the code is spent."""
    bad = Problem(
        401, "This code is unknown, used or expired: make a new one on your signed-in device."
    )
    if not storable(code):
        raise bad
    async with db.writing() as session:
        player_id = await session.scalar(
            delete(DeviceCode)
            .where(DeviceCode.code_hash == _code_key(code), DeviceCode.expires_at > now())
            .returning(DeviceCode.player_id)
        )
        player = await session.get(Player, player_id) if player_id else None
    if player is None:
        raise bad
    return await new_session(db, player, "device code", device)


async def known(db: Database, player_id: str) -> Player:
    async with db.session() as session:
        player = await session.get(Player, player_id) if storable(player_id) else None
    if player is None:
        raise Problem(404, "No such player.")
    return player


async def suspend(db: Database, player_id: str, suspended: bool, admin: Actor) -> Player:
    """Suspend the player, or lift it; the audit log says who did, in the same transaction.
    A suspension signs out every device of the player and ends their device codes."""
    async with db.writing() as session:
        player = await session.get(Player, player_id) if storable(player_id) else None
        if player is None:
            raise Problem(404, "No such player.")
        was = player.suspended_at is not None
        if suspended != was:
            player.suspended_at = now() if suspended else None
        if suspended:
            await _end_devices(session, player_id)
        record(
            session,
            admin,
            "player.suspend" if suspended else "player.unsuspend",
            player_id,
            changed=suspended != was,
        )
    return player


async def active_seats(db: Database, player_id: str) -> list[tuple[str, int, int]]:
    """The player's seats at games under way: (game id, seat, number of seats)."""
    async with db.session() as session:
        rows = await session.execute(
            select(Game.id, Seat.seat, Lobby.seat_count)
            .join(Seat, Seat.lobby_id == Lobby.id)
            .join(Game, Game.id == Lobby.game_id)
            .where(Seat.player_id == player_id, Game.status == "active")
        )
        return [(game_id, seat, seats) for game_id, seat, seats in rows.all()]


async def look_up(db: Database, handle: str) -> tuple[Player, int]:
    """The player with ``handle`` and how many devices they have signed in."""
    player = await _by_handle(db, handle) if storable(handle) else None
    if player is None:
        raise Problem(404, "No player has this handle.")
    return player, len(await devices(db, player.id))
