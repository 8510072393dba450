"""A move's commit: one transaction, on both databases.

SQLite (and PostgreSQL when the move ends the game, so that its rating commits with it) take
the session path: the game row read under a lock, the move inserted, the row updated where
its version is still the one read. PostgreSQL otherwise takes one statement on asyncpg
itself, which updates the row where it is as read and inserts the move if it did. The checks
(``_check``) and the new values (``_apply``) are the same functions on both paths, and
``tests/app/test_commit.py`` runs each rule of the write on both.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, Integer, Text, bindparam, func, insert, select, true, update
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.exc import IntegrityError

from app.db import Database, Prepared, RawJSON, for_asyncpg, storable
from app.models import Game, LogEntry, Move, now
from app.services import clock, game_log, ratings
from app.services.clock import Clock, PlayedBy, Timing
from app.services.errors import Problem, StaleVersion
from app.services.games import (
    CONCEDED,
    SUSPENDED,
    SeatsCache,
    Snapshot,
    final_outcome,
    people,
    seat_bots,
    stand_ins,
)
from engine.core import BaseState, Event, IllegalMove, play
from engine.registry import get_game


@dataclass(frozen=True)
class Committed:
    kind: str
    version: int
    state: BaseState
    status: str
    stand_ins: dict[int, str]
    outcome: dict[str, Any] | None
    updated_at: datetime | None = None
    clock: Clock = field(default_factory=Clock)
    due_at: datetime | None = None
    # The log's entries this move produced, and the log's length with them.
    entries: list[Event] = field(default_factory=list)
    log_length: int = 0


@dataclass(frozen=True)
class _Stored:
    """What a move is checked against: the game row as last read (or as a hub holds it)."""

    kind: str
    version: int
    status: str
    state: BaseState
    stand_ins: dict[int, str]
    updated_at: datetime | None
    clock: Clock
    turn_seconds: int | None
    log_length: int

    @classmethod
    def read(cls, row: Any) -> _Stored:
        """From a game row (the model, or the columns selected by name)."""
        return cls(
            row.kind, row.version, row.status, get_game(row.kind).load(row.state),
            stand_ins(row.stand_ins), row.updated_at, Clock.load(row.clock), row.turn_seconds,
            row.log_length,
        )


@dataclass(frozen=True)
class _Mover:
    """Who moves (``app.services.clock``), and what the clock needs to know of the table."""

    played_by: PlayedBy
    bots: dict[int, str | None]
    timing: Timing


def _check(stored: _Stored, seat: int, expect_version: int, mover: _Mover) -> None:
    if stored.status == "aborted":
        raise IllegalMove("The game was aborted.")
    if mover.played_by == "person" and stored.stand_ins.get(seat) == CONCEDED:
        raise IllegalMove("You conceded this game: the bot plays your seat now.")
    if mover.played_by == "person" and stored.stand_ins.get(seat) == SUSPENDED:
        raise IllegalMove("You are suspended: the bot plays your seat now.")
    # A bot may move for a person's seat only while it stands in: the person may have taken
    # the seat back (or got a new deadline) since the bot chose its move.
    deadline = stored.clock.deadlines.get(seat)
    taken_back = seat in people(mover.bots, stored.stand_ins) and (
        (mover.played_by == "bot" and seat not in stored.clock.away)
        or (mover.played_by == "clock" and (deadline is None or deadline > now()))
    )
    if stored.version != expect_version or taken_back:
        raise StaleVersion(stored.version)


def _apply(
    stored: _Stored, seat: int, move: Any, mover: _Mover
) -> tuple[BaseState, dict, dict[str, Any], Clock]:
    """The new state, the move as recorded, the game row's new values and the new clock. The
    state's ``log`` holds the entries of the move, stored as rows of their own."""
    game = get_game(stored.kind)
    parsed = game.parse_move(move) if isinstance(move, dict) else move
    state = play(game, stored.state, seat, parsed)
    at = now()
    seat_people = people(mover.bots, stored.stand_ins)
    acting = game.to_act(state)
    moved = clock.after_move(
        stored.clock, acting, seat_people, seat, mover.played_by, stored.turn_seconds, at
    )
    outcome = game.outcome(state)
    values: dict[str, Any] = {
        "state": RawJSON(game.dump_json(state)),
        "version": stored.version + 1,
        "updated_at": at,
        "clock": moved.dump(),
        "away_since": moved.away_since(),
        "due_at": clock.due_at(moved, acting, seat_people, mover.timing, at)
        if outcome is None
        else None,
        "log_length": stored.log_length + len(state.log),
    }
    if outcome is not None:
        values |= {"status": "finished", "outcome": final_outcome(outcome, stored.stand_ins)}
        values["finished_at"] = values["updated_at"]
    return state, parsed.model_dump(mode="json"), values, moved


def _committed(
    stored: _Stored, state: BaseState, values: dict[str, Any], moved: Clock
) -> Committed:
    return Committed(
        stored.kind,
        values["version"],
        state,
        values.get("status", "active"),
        stored.stand_ins,
        values.get("outcome"),
        values["updated_at"],
        moved,
        values["due_at"],
        state.log,
        values["log_length"],
    )


async def _bots(
    conn: Any, game_id: str, known: Snapshot | None, seats_cache: SeatsCache | None
) -> dict[int, str | None]:
    """Each seat's bot level, from what the caller holds when it can."""
    if known is not None:
        return {s.seat: s.bot for s in known.seats}
    cached = seats_cache.get(game_id) if seats_cache is not None else None
    if cached is not None:
        return {s.seat: s.bot for s in cached[1]}
    return await seat_bots(conn, game_id)


async def commit_move(
    db: Database, game_id: str, seat: int, move: Any, expect_version: int, *,
    timing: Timing, played_by: PlayedBy = "person", known: Snapshot | None = None,
    seats_cache: SeatsCache | None = None, one_statement: bool = True,
) -> Committed:
    """Apply one move for ``seat`` in one transaction; returns the new version and state.
    ``played_by`` says who moves (``app.services.clock``): a bot may move for a person's seat
    only while it stands in for them. The clock moves on in the same update.
    ``known``: the game as the caller holds it; at ``expect_version`` it saves reading it.

    Raises ``StaleVersion`` when ``expect_version`` is not the current version (or another
    writer won the race) and ``IllegalMove`` when the engine refuses the move; in both cases
    nothing is written. A move that ends the game rates it (``app.services.ratings``) in the
    same transaction, which on PostgreSQL is then the session's rather than one statement.
    """
    if db.postgres and one_statement:
        return await _commit_in_one_statement(
            db, game_id, seat, move, expect_version, played_by, timing, known, seats_cache
        )
    async with db.writing() as session:
        # Locked on PostgreSQL, where writers do not queue: a concession meanwhile would
        # change the seats this move's outcome ranks.
        row = await session.get(Game, game_id, populate_existing=True, with_for_update=True)
        if row is None:
            raise Problem(404, "No such game.")
        stored = _Stored.read(row)
        mover = _Mover(played_by, await _bots(session, game_id, known, seats_cache), timing)
        _check(stored, seat, expect_version, mover)
        state, record, values, moved = _apply(stored, seat, move, mover)
        version = values["version"]
        session.add(Move(game_id=game_id, seq=version, seat=seat, move=record))
        try:
            await session.flush()
        except IntegrityError:
            raise StaleVersion(version) from None
        result = await session.execute(
            update(Game)
            .where(Game.id == game_id, Game.version == row.version, Game.status == "active")
            .values(**values)
            .execution_options(synchronize_session=False)
        )
        if result.rowcount != 1:
            # Another writer won, or an admin aborted the game meanwhile.
            now_status = await session.scalar(select(Game.status).where(Game.id == game_id))
            if now_status == "aborted":
                raise IllegalMove("The game was aborted.")
            raise StaleVersion(version)
        if state.log:
            entries = game_log.rows(game_id, stored.log_length, state.log)
            await session.execute(insert(LogEntry), entries)
        if values.get("status") == "finished":
            await ratings.game_ended(session, game_id)
        return _committed(stored, state, values, moved)


def _move_in_one_statement():
    """Update the game where it is as read; insert the move if it was. Built once: building
    the expression per move cost more than running it."""
    stamp = DateTime(timezone=True)
    moved = (
        update(Game)
        .where(
            Game.id == bindparam("game_id"),
            Game.version == bindparam("expect"),
            Game.status == "active",
            Game.updated_at == bindparam("read_at", type_=stamp),
        )
        .values(
            state=bindparam("state", type_=JSON),
            version=bindparam("version"),
            updated_at=bindparam("updated_at", type_=stamp),
            status=bindparam("status"),
            outcome=bindparam("outcome", type_=JSON(none_as_null=True)),
            finished_at=bindparam("finished_at", type_=stamp),
            clock=bindparam("clock", type_=JSON),
            away_since=bindparam("away_since", type_=stamp),
            due_at=bindparam("due_at", type_=stamp),
            log_length=bindparam("log_length"),
        )
        .returning(Game.id)
        .cte("moved")
    )
    # The move's log entries, one array per column: as many rows as the move made entries.
    entries = func.unnest(
        bindparam("entry_ns", type_=ARRAY(Integer)),
        bindparam("entry_seats", type_=ARRAY(Integer)),
        bindparam("entry_texts", type_=ARRAY(Text)),
    ).table_valued("n", "seat", "text").render_derived(name="entries")
    logged = (
        insert(LogEntry)
        .from_select(
            ["game_id", "n", "seat", "text"],
            select(moved.c.id, entries.c.n, entries.c.seat, entries.c.text).select_from(
                moved.join(entries, true())
            ),
        )
        .cte("logged")
    )
    return (
        insert(Move)
        .add_cte(logged)
        .from_select(
            ["game_id", "seq", "seat", "move", "created_at"],
            select(
                moved.c.id,
                bindparam("version"),
                bindparam("seat"),
                bindparam("move", type_=JSON),
                bindparam("updated_at", type_=stamp),
            ),
        )
        .returning(Move.seq)
    )


_MOVE_IN_ONE = _move_in_one_statement()
# Run on asyncpg itself: SQLAlchemy's execution (compiled-cache look-up, parameter
# processing, result wrapping) cost a tenth of a move's time on the server, more than
# PostgreSQL took to run the statement.
_MOVE = Prepared(_MOVE_IN_ONE)
# A statement that did nothing: what the game is now.
_CURRENT_SQL = for_asyncpg(
    select(Game.status, Game.version).where(Game.id == bindparam("game_id"))
).string


async def _commit_in_one_statement(
    db: Database, game_id: str, seat: int, move: Any, expect_version: int, played_by: PlayedBy,
    timing: Timing, known: Snapshot | None, seats_cache: SeatsCache | None,
) -> Committed:
    """PostgreSQL: one statement (so one transaction, without BEGIN and COMMIT round trips)
    updates the game where it is still as read and inserts the move if it did.

    The row "as read" is its version and ``updated_at``: every change to a game row that
    bears on its moves (a move, an abort, a concession, a seat coming back) sets
    ``updated_at``. With ``known`` at
    ``expect_version`` the row is not even read: a move costs one round trip.
    """
    if known is not None and known.version == expect_version and known.updated_at:
        stored = _Stored(
            known.kind, known.version, known.status, known.state, known.stand_ins,
            known.updated_at, known.clock, known.turn_seconds, known.log.length,
        )
        bots = await _bots(None, game_id, known, seats_cache)
    else:
        async with db.autocommit() as conn:
            row = (
                await conn.execute(
                    select(
                        Game.kind, Game.version, Game.status, Game.state, Game.stand_ins,
                        Game.updated_at, Game.clock, Game.turn_seconds, Game.log_length,
                    ).where(Game.id == game_id)
                )
            ).one_or_none() if storable(game_id) else None
            bots = await _bots(conn, game_id, known, seats_cache) if row is not None else {}
        if row is None:
            raise Problem(404, "No such game.")
        stored = _Stored.read(row)
    mover = _Mover(played_by, bots, timing)
    _check(stored, seat, expect_version, mover)
    # The engine's work is done before a connection is taken: under load, a connection held
    # through it (and the turns of the event loop around it) was what moves queued for.
    state, record, values, moved = _apply(stored, seat, move, mover)
    if values.get("status") == "finished":
        return await commit_move(
            db, game_id, seat, move, expect_version, timing=timing, played_by=played_by,
            seats_cache=seats_cache, one_statement=False,
        )
    args = _MOVE.args({
        "game_id": game_id,
        "expect": expect_version,
        "read_at": stored.updated_at,
        "version": values["version"],
        "state": values["state"],
        "updated_at": values["updated_at"],
        "status": values.get("status", "active"),
        "outcome": values.get("outcome"),
        "finished_at": values.get("finished_at"),
        "clock": values["clock"],
        "away_since": values["away_since"],
        "due_at": values["due_at"],
        "seat": seat,
        "move": record,
        "log_length": values["log_length"],
        "entry_ns": list(range(stored.log_length, values["log_length"])),
        "entry_seats": [e.seat for e in state.log],
        "entry_texts": [e.text for e in state.log],
    })
    async with db.driver() as conn:
        inserted = await conn.fetchval(_MOVE.sql, *args)
        if inserted is None:
            # Another writer won, or the game changed otherwise (aborted, a concession).
            current = await conn.fetchrow(_CURRENT_SQL, game_id)
    if inserted is None:
        if current["status"] == "aborted":
            raise IllegalMove("The game was aborted.")
        if current["version"] == expect_version and known is not None:
            # Only what the caller held was out of date: check against the row itself.
            return await _commit_in_one_statement(
                db, game_id, seat, move, expect_version, played_by, timing, None, seats_cache,
            )
        raise StaleVersion(current["version"])
    return _committed(stored, state, values, moved)
