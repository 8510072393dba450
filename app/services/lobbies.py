"""Lobbies: create, join by invite code or id, leave, seat bots, start the game (the rules of
each change; how a lobby is read and written is ``app.services.lobby_rows``)."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import Database, row_values, storable
from app.models import Game, Lobby, Player, Seat, now
from app.notices import outbox
from app.schemas import LobbyCreate
from app.services import speeds
from app.services.clock import Timing
from app.services.errors import Problem
from app.services.games import create_game, new_id
from app.services.watching import PRIVATE
from app.services.lobby_rows import LobbySeats, changing, load, reserved
from app.services.lobby_statements import (
    HOSTED,
    HOSTED_BY,
    INSERT_LOBBY,
    INSERT_SEAT,
    LOBBIES,
    REMATCH_OF,
    public_listing,
    SEATS,
)
from engine.core import Event, IllegalMove
from engine.registry import GAMES

# No 0/o, 1/l/i: codes get read aloud and typed.
INVITE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
# How long a rematch keeps a seat for each player of the old table.
REMATCH_HOLD = timedelta(minutes=10)


def invite_code() -> str:
    return "".join(secrets.choice(INVITE_ALPHABET) for _ in range(10))


async def open_public(session: AsyncSession, per_host: int, limit: int = 50) -> list[LobbySeats]:
    """Open public lobbies, newest first, at most ``per_host`` of each host (so that no one
    player fills the listing), with their seats: two queries however many."""
    shown = public_listing(per_host)
    found = await session.scalars(
        select(Lobby)
        .join(shown, shown.c.id == Lobby.id)
        .order_by(Lobby.created_at.desc(), Lobby.id)
        .limit(limit)
    )
    listed = [LobbySeats(lobby, []) for lobby in found.all()]
    by_id = {ls.lobby.id: ls for ls in listed}
    rows = await session.execute(
        select(Seat, Player)
        .outerjoin(Player, Seat.player_id == Player.id)
        .where(Seat.lobby_id.in_(by_id))
        .order_by(Seat.lobby_id, Seat.seat)
    )
    for seat, player in rows.all():
        by_id[seat.lobby_id].seats.append((seat, player))
    return listed


def touched(lobby: Lobby, idle: float) -> None:
    """A change: the lobby stays open another ``idle`` seconds."""
    lobby.closes_at = now() + timedelta(seconds=idle)


async def create(
    db: Database, host: Player, data: LobbyCreate, max_open: int, idle: float
) -> LobbySeats:
    """A new lobby hosted by ``host``, who may host at most ``max_open`` open ones at once."""
    game = GAMES.get(data.game)
    if game is None:
        raise Problem(422, f"Unknown game {data.game!r}; known: {', '.join(GAMES)}.")
    try:
        options = game.options(data.options)
    except IllegalMove as exc:
        raise Problem(422, exc.reason) from None
    seats = data.seats if data.seats is not None else game.min_players
    if not game.min_players <= seats <= game.max_players:
        counts = f"{game.min_players} to {game.max_players}"
        raise Problem(422, f"{game.title} is for {counts} players, not {seats}.")
    rated = data.rated if data.rated is not None else host.handle is not None
    if rated and host.handle is None:
        raise Problem(422, "Only a signed-in host can open a rated table: add a sign-in first.")
    if data.stand_in_level is not None:
        _known_level(game.bots, data.stand_in_level)
    if data.after_end is not None and not data.private:
        raise Problem(
            422,
            "Only a private table chooses who may watch it after the end: a "
            "public one is anyone's.",
        )
    speed, turn_seconds = _clock_chosen(data)
    lobby = Lobby(
        id=new_id(),
        game=game.id,
        options=options.model_dump(mode="json"),
        speed=speed,
        turn_seconds=turn_seconds,
        seat_count=seats,
        private=data.private,
        after_end=data.after_end or PRIVATE,
        invite_code=invite_code(),
        host_id=host.id,
        status="open",
        game_id=None,
        rated=rated,
        stand_in_level=data.stand_in_level,
    )
    touched(lobby, idle)
    rows = [
        Seat(
            lobby_id=lobby.id,
            seat=i,
            player_id=host.id if i == 0 else None,
            bot_level=None,
            reserved_for=None,
            reserved_until=None,
        )
        for i in range(seats)
    ]
    if db.postgres:
        async with db.driver((Problem,)) as conn, conn.transaction():
            hosted = await conn.fetchval(HOSTED.sql, *HOSTED.args({"host_id": host.id}))
            _may_host(hosted, max_open)
            await conn.execute(INSERT_LOBBY.sql, *INSERT_LOBBY.args(row_values(LOBBIES, lobby)))
            await conn.executemany(
                INSERT_SEAT.sql, [INSERT_SEAT.args(row_values(SEATS, row)) for row in rows]
            )
    else:
        async with db.writing() as session:
            _may_host(
                (await session.execute(HOSTED_BY, {"host_id": host.id})).scalar_one(), max_open
            )
            session.add(lobby)
            await session.flush()
            session.add_all(rows)
    return LobbySeats(lobby, [(row, host if i == 0 else None) for i, row in enumerate(rows)])


def _clock_chosen(data: LobbyCreate) -> tuple[str | None, int | None]:
    """The lobby's named speed, or a script's per-move clock (``turn_seconds`` without a
    speed), or untimed; a host names one, never both."""
    if data.speed is not None:
        if "turn_seconds" in data.model_fields_set:
            raise Problem(422, "Choose a speed or seconds per move (`turn_seconds`), not both.")
        if data.speed not in speeds.SPEEDS:
            raise Problem(422, f"Unknown speed {data.speed!r}; known: {', '.join(speeds.SPEEDS)}.")
        return data.speed, None
    if data.turn_seconds is None:
        return "untimed", None
    return None, data.turn_seconds


def _may_host(hosted: int, max_open: int) -> None:
    if hosted >= max_open:
        raise Problem(
            409,
            f"You already host {hosted} open lobbies (at most {max_open}): start or close one "
            "first.",
        )


async def change(
    db: Database,
    action: Callable[[LobbySeats], bool | None],
    idle: float,
    *,
    lobby_id: str | None = None,
    invite_code: str | None = None,
) -> tuple[LobbySeats, bool]:
    """One change to a lobby (``lobby_id``, or else the lobby of ``invite_code``), in one
    transaction: the lobby as the transaction left it, and whether anything changed
    (``action`` returns False for a no-op). A change keeps the lobby open another ``idle``
    seconds."""
    async with changing(db, lobby_id, invite_code) as locked:
        changed = action(locked.ls) is not False
        if changed:
            touched(locked.ls.lobby, idle)
    return locked.ls, changed


async def close_hosted(db: Database, host: Player, idle: float) -> list[str]:
    """Close every open lobby ``host`` hosts (a suspended host can start none of them).
    Returns the lobbies closed."""
    async with db.session() as session:
        hosted = (
            await session.scalars(
                select(Lobby.id).where(Lobby.host_id == host.id, Lobby.status == "open")
            )
        ).all()
    closed = []
    for lobby_id in hosted:
        try:
            await change(db, lambda ls: close(ls, host), idle, lobby_id=lobby_id)
        except Problem:
            continue  # started or closed meanwhile
        closed.append(lobby_id)
    return closed


async def new_invite_code(db: Database, lobby_id: str, player: Player, idle: float) -> LobbySeats:
    """The host replaces the invite code: the old link says it was replaced, and the players
    removed so far may join again (with the new code, if the host gives it to them)."""
    async with changing(db, lobby_id, None) as locked:
        ls = locked.ls
        _must_be_host(ls, player)
        _must_be_open(ls)
        await locked.replace_code(ls.lobby.invite_code)
        ls.lobby.invite_code = invite_code()
        ls.lobby.removed = []
        touched(ls.lobby, idle)
    return locked.ls


async def start(
    db: Database, lobby_id: str, player: Player, timing: Timing
) -> tuple[Game, tuple[str, int] | None]:
    """The host starts the game of a full lobby: the game's row, inserted, and the ended game
    (with its version) this lobby is the rematch of, if it is one."""
    async with changing(db, lobby_id, None) as locked:
        game, entries = _starting(locked.ls, player, timing)
        await locked.insert_game(game, entries)
        await locked.tell(
            game.id,
            [
                (s.player_id, "invite")
                for s, _ in locked.ls.seats
                if s.player_id is not None and s.player_id != player.id
            ],
        )
        _started(locked.ls, game)
        old = await locked.rematch_of()
    return game, old


def _must_be_open(ls: LobbySeats) -> None:
    if ls.lobby.status == "closed":
        raise Problem(409, "The lobby is closed.")
    if ls.lobby.status != "open":
        raise Problem(409, "The game has already started.")


def _must_be_host(ls: LobbySeats, player: Player) -> None:
    if ls.lobby.host_id != player.id:
        raise Problem(403, "Only the host can do this.")


def join(ls: LobbySeats, player: Player, *, by_code: bool) -> bool:
    """Seat ``player`` in the lowest free seat; False when already seated (nothing to do)."""
    if ls.seat_of(player.id) is not None:
        return False
    kept = any(s.reserved_for == player.id and reserved(s) for s, _ in ls.seats)
    if ls.lobby.private and not by_code and not kept:
        raise Problem(403, "This lobby is private: join it with its invite code.")
    _must_be_open(ls)
    if ls.removed(player.id):
        raise Problem(403, "The host removed you from this lobby.")
    free = ls.open_to(player.id)
    if not free:
        raise Problem(409, "The lobby is full.")
    free[0].player_id = player.id
    return True


async def rematch(
    session: AsyncSession, game_id: str, player: Player, idle: float
) -> tuple[str, int | None]:
    """The lobby of a finished game's rematch, made by the first player to ask, who takes
    their old seat; bots keep theirs, and each other player's seat is kept for them for
    ``REMATCH_HOLD``. Later askers are seated there. Returns the lobby id and, when it is new, the game's version."""
    game = await session.get(Game, game_id, with_for_update=True) if storable(game_id) else None
    if game is None:
        raise Problem(404, "No such game.")
    old = await session.scalar(select(Lobby).where(Lobby.game_id == game_id))
    seats = (
        (
            await session.scalars(select(Seat).where(Seat.lobby_id == old.id).order_by(Seat.seat))
        ).all()
        if old
        else []
    )
    if old is None or not any(s.player_id == player.id for s in seats):
        raise Problem(403, "Only the game's players can ask for a rematch.")
    if game.status != "finished":
        raise Problem(409, "A rematch follows a finished game.")
    if game.rematch_lobby_id is not None:
        ls = await load(session, game.rematch_lobby_id, for_update=True)
        if ls.lobby.status == "open":
            join(ls, player, by_code=True)
        return ls.lobby.id, None
    lobby = Lobby(
        id=new_id(),
        game=old.game,
        options=old.options,
        seat_count=old.seat_count,
        private=old.private,
        after_end=old.after_end,
        invite_code=invite_code(),
        host_id=player.id,
        status="open",
        speed=old.speed,
        turn_seconds=old.turn_seconds,
        rated=old.rated,
        stand_in_level=old.stand_in_level,
    )
    touched(lobby, idle)
    session.add(lobby)
    await session.flush()
    until = now() + REMATCH_HOLD
    for s in seats:
        mine = s.player_id == player.id
        other = s.player_id if s.player_id is not None and not mine else None
        session.add(
            Seat(
                lobby_id=lobby.id,
                seat=s.seat,
                player_id=player.id if mine else None,
                bot_level=s.bot_level,
                reserved_for=other,
                reserved_until=until if other else None,
            )
        )
    game.rematch_lobby_id = lobby.id
    others = [s.player_id for s in seats if s.player_id not in (None, player.id)]
    await outbox.add(session, game_id, [(p, "rematch") for p in others])
    return lobby.id, game.version


async def rematch_of(db: Database, lobby_id: str) -> tuple[str, int] | None:
    """The ended game whose rematch ``lobby_id`` is, with its version; None for a lobby that
    is no rematch."""
    async with db.session() as session:
        found = (await session.execute(REMATCH_OF, {"lobby_id": lobby_id})).first()
    return (found[0], found[1]) if found else None


def leave(ls: LobbySeats, player: Player) -> None:
    seat = ls.seat_of(player.id)
    if seat is None:
        raise Problem(409, "You are not in this lobby.")
    if ls.lobby.host_id == player.id:
        raise Problem(403, "The host cannot leave their own lobby.")
    _must_be_open(ls)
    ls.seats[seat][0].player_id = None


def _seat(ls: LobbySeats, seat: int) -> Seat:
    if not 0 <= seat < len(ls.seats):
        raise Problem(422, f"Seats are numbered 0 to {len(ls.seats) - 1}.")
    return ls.seats[seat][0]


def _known_level(levels: dict, level: str) -> None:
    if level not in levels:
        raise Problem(422, f"Unknown bot level {level!r}; known: {', '.join(levels)}.")


def add_bot(ls: LobbySeats, player: Player, seat: int, level: str) -> None:
    _must_be_host(ls, player)
    _must_be_open(ls)
    _known_level(GAMES[ls.lobby.game].bots, level)
    row = _seat(ls, seat)
    if row.player_id is not None or row.bot_level is not None:
        raise Problem(409, f"Seat {seat} is taken.")
    row.bot_level = level


def free_seat(ls: LobbySeats, player: Player, seat: int) -> None:
    """The host takes a bot, or a person other than themselves, out of a seat."""
    _must_be_host(ls, player)
    _must_be_open(ls)
    row = _seat(ls, seat)
    if row.player_id == player.id:
        raise Problem(409, "The host keeps their own seat: close the lobby instead.")
    if row.bot_level is None and row.player_id is None:
        raise Problem(409, f"Seat {seat} is empty.")
    if row.player_id is not None:
        # A new list: the ORM sees a JSON column change only when it is assigned.
        ls.lobby.removed = [*(ls.lobby.removed or []), row.player_id]
    row.bot_level = None
    row.player_id = None


def choose_stand_in(ls: LobbySeats, player: Player, level: str) -> None:
    """The host chooses the level of the bot that will play for away or conceded players."""
    _must_be_host(ls, player)
    _must_be_open(ls)
    _known_level(GAMES[ls.lobby.game].bots, level)
    ls.lobby.stand_in_level = level


def close(ls: LobbySeats, player: Player) -> None:
    _must_be_host(ls, player)
    _must_be_open(ls)
    ls.lobby.status = "closed"
    ls.lobby.closes_at = None


def _starting(ls: LobbySeats, player: Player, timing: Timing) -> tuple[Game, list[Event]]:
    _must_be_host(ls, player)
    _must_be_open(ls)
    empty = [s.seat for s in ls.free_seats()]
    if empty:
        raise Problem(409, f"Every seat must be filled first; empty: {', '.join(map(str, empty))}.")
    people = {s.seat for s, _ in ls.seats if s.player_id is not None}
    # A person suspended since they sat down: the stand-in bot plays their seat from the start.
    suspended = {s.seat for s, p in ls.seats if p is not None and p.suspended_at is not None}
    return create_game(ls.lobby, people, timing, suspended)


def _started(ls: LobbySeats, game: Game) -> None:
    ls.lobby.status = "started"
    ls.lobby.game_id = game.id
    ls.lobby.closes_at = None
