"""Sign-ins: a guest adds a handle and a password to the player they already are, and any
device becomes that player by signing in or with a one-time code from a signed-in device.

Passwords are hashed with argon2id (argon2-cffi's RFC 9106 low-memory profile) in a small
thread pool, so the event loop never waits on a hash and at most ``HASHERS`` hashes hold
their 64 MiB at once. A sign-in with an unknown handle verifies the password against a dummy
hash of the same parameters: it costs what a wrong password costs and gets the same answer.
Every device's token, like a guest's, is kept only as its SHA-256.
"""

from __future__ import annotations

import asyncio
import functools
import re
import secrets
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from argon2.profiles import RFC_9106_LOW_MEMORY
from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError

from app.db import Database, storable
from app.models import DeviceCode, Game, Lobby, Player, PlayerSession, Seat, now
from app.services.errors import Problem
from app.services.games import new_id
from app.services.moderation import Actor, record
from app.services.players import token_hash

HANDLE = re.compile(r"[A-Za-z0-9_-]{3,24}")
# Paths under /api/players that are not profiles.
RESERVED_HANDLES = {"me"}
PASSWORD_CHARS = (8, 128)
HASHERS = 2
DEVICE_CODE_LIFETIME = timedelta(minutes=10)
# No 0/o, 1/l/i: the code may be read off one screen and typed on another.
CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
CODE_LENGTH = 8
WRONG = "Wrong handle or password."

_hasher = PasswordHasher.from_parameters(RFC_9106_LOW_MEMORY)
_pool = ThreadPoolExecutor(max_workers=HASHERS, thread_name_prefix="argon2")


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


@functools.cache
def _dummy_hash() -> str:
    return _hasher.hash(secrets.token_urlsafe(16))


async def _in_pool(fn, *args):
    return await asyncio.get_running_loop().run_in_executor(_pool, fn, *args)


async def hash_password(password: str) -> str:
    return await _in_pool(_hasher.hash, password)


def _verify(stored: str | None, password: str) -> bool:
    try:
        return _hasher.verify(stored or _dummy_hash(), password) and stored is not None
    except (VerificationError, InvalidHashError):
        return False


async def verify_password(stored: str | None, password: str) -> bool:
    """Whether ``password`` is the one ``stored`` was made from; for no stored hash (no
    such handle) the same work is done against the dummy and the answer is False."""
    return await _in_pool(_verify, stored, password)


BROWSERS = (("Edg/", "Edge"), ("Firefox/", "Firefox"), ("Chrome/", "Chrome"), ("Safari/", "Safari"))
SYSTEMS = (
    ("Android", "Android"), ("iPhone", "iPhone"), ("iPad", "iPad"), ("Windows", "Windows"),
    ("Mac OS X", "macOS"), ("CrOS", "ChromeOS"), ("Linux", "Linux"),
)


def device_label(user_agent: str | None) -> str:
    """What a person recognises a device by in their list: "Chrome on Android"."""
    agent = user_agent or ""
    browser = next((name for mark, name in BROWSERS if mark in agent), None)
    system = next((name for mark, name in SYSTEMS if mark in agent), None)
    if browser and system:
        return f"{browser} on {system}"
    return browser or system or (agent[:60] or "Unknown device")


@dataclass(frozen=True)
class SignedIn:
    player: Player
    token: str


def _session(player_id: str, digest: str, how: str, device: str) -> PlayerSession:
    return PlayerSession(
        id=new_id(), player_id=player_id, token_hash=digest, how=how, device=device[:100],
        created_at=now(),
    )


async def _by_handle(db: Database, handle: str) -> Player | None:
    async with db.session() as session:
        return await session.scalar(select(Player).where(Player.handle_key == handle_key(handle)))


async def claim(
    db: Database, player: Player, handle: str, password: str, device: str
) -> Player:
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
                .values(handle=handle, handle_key=handle_key(handle), password_hash=hashed,
                        token_hash=None)
                .execution_options(synchronize_session=False)
            )
            session.add(_session(player.id, guest_token, "claimed", device))
    except IntegrityError:
        raise Problem(409, "That handle is taken: choose another.") from None
    return Player(id=player.id, name=player.name, handle=handle)


async def new_session(db: Database, player: Player, how: str, device: str) -> SignedIn:
    token = secrets.token_urlsafe(32)
    async with db.writing() as session:
        session.add(_session(player.id, token_hash(token), how, device))
    return SignedIn(player, token)


async def sign_in(db: Database, handle: str, password: str, device: str) -> SignedIn:
    """A new device of the player with ``handle``: the same 401 whether the handle is
    unknown or the password wrong, after the same work."""
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


async def sign_out(
    db: Database, player_id: str, *, session_id: str | None = None,
    token: str | None = None, all_but: str | None = None, admin: Actor | None = None,
) -> int:
    """Sign out the player's device ``session_id``, or the one holding ``token``, or every
    device but the one holding ``all_but`` (every device when all are None). Returns how
    many devices were signed out. An ``admin``'s sign-out goes into the audit log with it."""
    query = delete(PlayerSession).where(PlayerSession.player_id == player_id)
    if session_id is not None:
        query = query.where(PlayerSession.id == session_id)
    elif token is not None:
        query = query.where(PlayerSession.token_hash == token_hash(token))
    elif all_but is not None:
        query = query.where(PlayerSession.token_hash != token_hash(all_but))
    async with db.writing() as session:
        result = await session.execute(query.execution_options(synchronize_session=False))
        if admin is not None:
            record(session, admin, "player.sign_out", player_id, devices=result.rowcount)
    return result.rowcount


async def change_password(
    db: Database, player: Player, current: str, new: str, token: str | None
) -> int:
    """A new password once the current one is given; every other device is signed out.
    Returns how many were."""
    async with db.session() as session:
        stored = await session.scalar(select(Player.password_hash).where(Player.id == player.id))
    if stored is None:
        raise Problem(409, "Add a sign-in first: a guest has no password.")
    if not await verify_password(stored, current):
        raise Problem(401, "Wrong password.")
    hashed = await hash_password(new)
    async with db.writing() as session:
        await session.execute(
            update(Player).where(Player.id == player.id).values(password_hash=hashed)
            .execution_options(synchronize_session=False)
        )
    return await sign_out(db, player.id, all_but=token or "")


def _code_key(code: str) -> str:
    """A typed code as stored (its hash): case, spaces and dashes do not matter."""
    return token_hash(re.sub(r"[^a-z0-9]", "", code.lower()))


def shown_code(code: str) -> str:
    half = len(code) // 2
    return f"{code[:half]}-{code[half:]}"


async def new_device_code(db: Database, player: Player) -> tuple[str, datetime]:
    """A code that makes one more device this player, once, for ``DEVICE_CODE_LIFETIME``."""
    if player.handle is None:
        raise Problem(403, "Add a sign-in first: only a signed-in player can use another device.")
    code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    at = now()
    expires = at + DEVICE_CODE_LIFETIME
    async with db.writing() as session:
        await session.execute(
            delete(DeviceCode).where(DeviceCode.expires_at <= at)
            .execution_options(synchronize_session=False)
        )
        session.add(DeviceCode(code_hash=_code_key(code), player_id=player.id, expires_at=expires,
                               created_at=at))
    return shown_code(code), expires


async def redeem_device_code(db: Database, code: str, device: str) -> SignedIn:
    """The device that typed (or scanned) ``code`` becomes its player; the code is spent."""
    bad = Problem(401, "This code is unknown, used or expired: make a new one on your "
                       "signed-in device.")
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
    """Suspend the player, or lift it; the audit log says who did, in the same transaction."""
    async with db.writing() as session:
        player = await session.get(Player, player_id) if storable(player_id) else None
        if player is None:
            raise Problem(404, "No such player.")
        was = player.suspended_at is not None
        if suspended != was:
            player.suspended_at = now() if suspended else None
        record(session, admin, "player.suspend" if suspended else "player.unsuspend", player_id,
               changed=suspended != was)
    return player


async def active_seats(db: Database, player_id: str) -> list[tuple[str, int, int]]:
    """The player's seats at games under way: (game id, seat, number of seats)."""
    async with db.session() as session:
        rows = await session.execute(
            select(Lobby.game_id, Seat.seat, Lobby.seat_count)
            .join(Seat, Seat.lobby_id == Lobby.id)
            .join(Game, Game.id == Lobby.game_id)
            .where(Seat.player_id == player_id, Game.status == "active")
        )
        return [tuple(row) for row in rows.all()]


async def look_up(db: Database, handle: str) -> tuple[Player, int]:
    """The player with ``handle`` and how many devices they have signed in."""
    player = await _by_handle(db, handle) if storable(handle) else None
    if player is None:
        raise Problem(404, "No player has this handle.")
    return player, len(await devices(db, player.id))
