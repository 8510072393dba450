"""A move's commit: one transaction, on both databases.

SQLite (and PostgreSQL when the move ends the game, so that its rating commits with it) take
the session path: the game row read under a lock, the move inserted, the row updated where
its version is still the one read. PostgreSQL otherwise takes one statement on asyncpg
itself (``app.services.move_statement``), which updates the row where it is as read and
inserts the move if it did. The checks (``_check``) and the new values (``_apply``) are the
same functions on both paths, and ``tests/app/test_commit.py`` runs each rule of the write on
both.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError

from app.db import Database, RawJSON, rowcount, storable
from app.models import Game, LogEntry, Move, now
from app.notices import outbox
from app.services import clock, game_log, move_statement, ratings, speeds
from app.services.clock import Bank, Clock, PlayedBy, Timing
from app.services.errors import Problem, StaleVersion
from app.services.game_loading import SeatsCache
from app.services.games import (
    CONCEDED,
    SUSPENDED,
    Snapshot,
    final_outcome,
    people,
    stand_ins,
)
from engine.core import BaseState, Event, IllegalMove, play
from engine.registry import get_game
from engine.undo import keeps_turn


class GameAborted(IllegalMove):
    """A move on a game an admin aborted (or that was abandoned), maybe while it was being
    chosen: refused like any illegal move, and an expected end for a bot's turn."""

    def __init__(self) -> None:
        super().__init__("The game was aborted.")


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
    # What the game's end did to its ratings, when this move ended it.
    rated: ratings.Rated | None = None
    # Who is told of the move off the site (``app.notices``): (player id, kind).
    told: list[tuple[str, str]] = field(default_factory=list)


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
    bank: Bank | None
    log_length: int

    @classmethod
    def read(cls, row: Any) -> _Stored:
        """From a game row (the model, or the columns selected by name)."""
        return cls(
            row.kind,
            row.version,
            row.status,
            get_game(row.kind).load(row.state),
            stand_ins(row.stand_ins),
            row.updated_at,
            Clock.load(row.clock),
            speeds.table_clock(row.speed, row.turn_seconds).bank,
            row.log_length,
        )


@dataclass(frozen=True)
class _Mover:
    """Who moves (``app.services.clock``), and what the clock needs to know of the table."""

    played_by: PlayedBy
    bots: dict[int, str | None]
    timing: Timing
    players: dict[int, str | None] = field(default_factory=dict)


def _check(stored: _Stored, seat: int, expect_version: int, mover: _Mover) -> None:
    if stored.status == "aborted":
        raise GameAborted()
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
) -> tuple[BaseState, dict, dict[str, Any], Clock, list[tuple[str, str]]]:
    """The new state, the move as recorded, the game row's new values, the new clock and who
    is told of it. The state's ``log`` holds the entries of the move, stored as rows of their
    own."""
    game = get_game(stored.kind)
    parsed = game.parse_move(move) if isinstance(move, dict) else move
    state = play(game, stored.state, seat, parsed)
    at = now()
    seat_people = people(mover.bots, stored.stand_ins)
    acting = game.to_act(state)
    moved = clock.after_move(
        stored.clock,
        acting,
        seat_people,
        seat,
        mover.played_by,
        stored.bank,
        at,
        keeps_turn(parsed, state, seat),
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
    told = outbox.of_move(
        game.to_act(stored.state),
        acting,
        seat_people,
        moved.away,
        mover.players,
        seat,
        outcome is not None,
    )
    return state, parsed.model_dump(mode="json"), values, moved, told


def _committed(
    stored: _Stored,
    state: BaseState,
    values: dict[str, Any],
    moved: Clock,
    told: list[tuple[str, str]],
    rated: ratings.Rated | None = None,
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
        rated,
        told,
    )


async def _seating(
    conn: Any, game_id: str, known: Snapshot | None, seats_cache: SeatsCache | None
) -> tuple[dict[int, str | None], dict[int, str | None]]:
    """Each seat's bot level and player, from what the caller holds when it can."""
    cached = seats_cache.get(game_id) if seats_cache is not None else None
    seats = known.seats if known is not None else cached[1] if cached is not None else None
    if seats is not None:
        return {s.seat: s.bot for s in seats}, {s.seat: s.player_id for s in seats}
    found = await outbox.seating(conn, game_id)
    return {s: b for s, (b, _) in found.items()}, {s: p for s, (_, p) in found.items()}


async def commit_move(
    db: Database,
    game_id: str,
    seat: int,
    move: Any,
    expect_version: int,
    *,
    timing: Timing,
    played_by: PlayedBy = "person",
    known: Snapshot | None = None,
    seats_cache: SeatsCache | None = None,
    one_statement: bool = True,
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
        bots, players = await _seating(session, game_id, known, seats_cache)
        mover = _Mover(played_by, bots, timing, players)
        _check(stored, seat, expect_version, mover)
        state, record, values, moved, told = _apply(stored, seat, move, mover)
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
        if rowcount(result) != 1:
            # Another writer won, or an admin aborted the game meanwhile.
            now_status = await session.scalar(select(Game.status).where(Game.id == game_id))
            if now_status == "aborted":
                raise GameAborted()
            raise StaleVersion(version)
        if state.log:
            entries = game_log.rows(game_id, stored.log_length, state.log)
            await session.execute(insert(LogEntry), entries)
        rated = None
        if values.get("status") == "finished":
            rated = await ratings.game_ended(session, game_id)
        await outbox.add(session, game_id, told, at=values["updated_at"])
        return _committed(stored, state, values, moved, told, rated)


async def _commit_in_one_statement(
    db: Database,
    game_id: str,
    seat: int,
    move: Any,
    expect_version: int,
    played_by: PlayedBy,
    timing: Timing,
    known: Snapshot | None,
    seats_cache: SeatsCache | None,
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
            known.kind,
            known.version,
            known.status,
            known.state,
            known.stand_ins,
            known.updated_at,
            known.clock,
            known.bank,
            known.log.length,
        )
        seating = await _seating(None, game_id, known, seats_cache)
    else:
        async with db.autocommit() as conn:
            row = (
                (
                    await conn.execute(
                        select(
                            Game.kind,
                            Game.version,
                            Game.status,
                            Game.state,
                            Game.stand_ins,
                            Game.updated_at,
                            Game.clock,
                            Game.speed,
                            Game.turn_seconds,
                            Game.log_length,
                        ).where(Game.id == game_id)
                    )
                ).one_or_none()
                if storable(game_id)
                else None
            )
            seating = (
                await _seating(conn, game_id, known, seats_cache) if row is not None else ({}, {})
            )
        if row is None:
            raise Problem(404, "No such game.")
        stored = _Stored.read(row)
    mover = _Mover(played_by, seating[0], timing, seating[1])
    _check(stored, seat, expect_version, mover)
    # The engine's work is done before a connection is taken: under load, a connection held
    # through it (and the turns of the event loop around it) was what moves queued for.
    state, record, values, moved, told = _apply(stored, seat, move, mover)
    if values.get("status") == "finished":
        return await commit_move(
            db,
            game_id,
            seat,
            move,
            expect_version,
            timing=timing,
            played_by=played_by,
            seats_cache=seats_cache,
            one_statement=False,
        )
    args = move_statement.MOVE.args(
        {
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
            "told_players": [p for p, _ in told],
            "told_kinds": [k for _, k in told],
        }
    )
    async with db.driver() as conn:
        inserted = await conn.fetchval(move_statement.MOVE.sql, *args)
        if inserted is None:
            # Another writer won, or the game changed otherwise (aborted, a concession).
            current = await conn.fetchrow(move_statement.CURRENT_SQL, game_id)
    if inserted is None:
        if current["status"] == "aborted":
            raise GameAborted()
        if current["version"] == expect_version and known is not None:
            # Only what the caller held was out of date: check against the row itself.
            return await _commit_in_one_statement(
                db,
                game_id,
                seat,
                move,
                expect_version,
                played_by,
                timing,
                None,
                seats_cache,
            )
        raise StaleVersion(current["version"])
    return _committed(stored, state, values, moved, told)
