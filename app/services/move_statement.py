"""The one statement a move takes on PostgreSQL (``app.services.commit``): it updates the
game row where it is as read, and only then inserts the move, its log entries and its notices.
"""

from __future__ import annotations

from sqlalchemy import JSON, DateTime, Integer, Text, bindparam, func, insert, select, true, update
from sqlalchemy.dialects.postgresql import ARRAY

from app.db import Prepared, for_asyncpg
from app.models import Game, LogEntry, Move
from app.notices import outbox


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
    entries = (
        func.unnest(
            bindparam("entry_ns", type_=ARRAY(Integer)),
            bindparam("entry_seats", type_=ARRAY(Integer)),
            bindparam("entry_texts", type_=ARRAY(Text)),
        )
        .table_valued("n", "seat", "text")
        .render_derived(name="entries")
    )
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
    noticed = outbox.in_one_statement(moved, bindparam("updated_at", type_=stamp))
    return (
        insert(Move)
        .add_cte(logged, noticed)
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
MOVE = Prepared(_MOVE_IN_ONE)
# A statement that did nothing: what the game is now.
CURRENT_SQL = for_asyncpg(
    select(Game.status, Game.version).where(Game.id == bindparam("game_id"))
).string
