"""a game's log leaves its state: one row per entry, written once

Every move used to write the game's whole state, log included, so a move cost more the later
it came. The entries of each stored state move to ``log_entries`` (numbered from 0, in
order) and ``games.log_length`` counts them; the state keeps the live game only, and counts
its log's entries (``logged``).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Games moved per round trip: a game's log is a few hundred rows at most.
BATCH = 200

games = sa.table(
    "games",
    sa.column("id", sa.String),
    sa.column("state", sa.JSON),
    sa.column("log_length", sa.Integer),
)
entries = sa.table(
    "log_entries",
    sa.column("game_id", sa.String),
    sa.column("n", sa.Integer),
    sa.column("seat", sa.Integer),
    sa.column("text", sa.Text),
)


def _batches(bind):
    """The games, BATCH at a time, in order of id (each batch read before it is changed)."""
    after = ""
    while True:
        rows = bind.execute(
            sa.select(games.c.id, games.c.state)
            .where(games.c.id > after)
            .order_by(games.c.id)
            .limit(BATCH)
        ).all()
        if not rows:
            return
        yield rows
        after = rows[-1].id


def upgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("log_length", sa.Integer(), server_default="0", nullable=False)
        )
    op.create_table(
        "log_entries",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("n", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("text", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_log_entries_game_id_games")
        ),
        sa.PrimaryKeyConstraint("game_id", "n", name=op.f("pk_log_entries")),
    )
    bind = op.get_bind()
    for rows in _batches(bind):
        for game_id, state in rows:
            log = state.pop("log", None) or []
            # The number of the next entry: the state counts its log, it does not hold it.
            state["logged"] = len(log)
            if log:
                bind.execute(
                    entries.insert(),
                    [
                        {"game_id": game_id, "n": n, "seat": e.get("seat"), "text": e["text"]}
                        for n, e in enumerate(log)
                    ],
                )
            bind.execute(
                games.update().where(games.c.id == game_id).values(state=state, log_length=len(log))
            )


def downgrade() -> None:
    bind = op.get_bind()
    for rows in _batches(bind):
        for game_id, state in rows:
            log = bind.execute(
                sa.select(entries.c.seat, entries.c.text)
                .where(entries.c.game_id == game_id)
                .order_by(entries.c.n)
            ).all()
            state.pop("logged", None)
            state["log"] = [{"text": text, "seat": seat} for seat, text in log]
            bind.execute(games.update().where(games.c.id == game_id).values(state=state))
    op.drop_table("log_entries")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("log_length")
