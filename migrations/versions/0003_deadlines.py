"""clocks and deadlines: turn_seconds, the clock, away seats, due_at; lobbies close when idle

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("turn_seconds", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("clock", sa.JSON(), nullable=False, server_default="{}"))
        batch_op.add_column(sa.Column("away_since", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("due_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.create_index(batch_op.f("ix_games_due_at"), ["due_at"], unique=False)
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.alter_column("clock", server_default=None)
    # Every active game gets one look, so bots waiting since before the upgrade move.
    op.execute("UPDATE games SET due_at = updated_at WHERE status = 'active'")

    with op.batch_alter_table("lobbies", schema=None) as batch_op:
        batch_op.add_column(sa.Column("turn_seconds", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("closes_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.create_index(batch_op.f("ix_lobbies_closes_at"), ["closes_at"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("lobbies", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_lobbies_closes_at"))
        batch_op.drop_column("closes_at")
        batch_op.drop_column("turn_seconds")

    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_games_due_at"))
        batch_op.drop_column("due_at")
        batch_op.drop_column("away_since")
        batch_op.drop_column("clock")
        batch_op.drop_column("turn_seconds")
