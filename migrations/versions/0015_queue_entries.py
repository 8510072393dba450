"""the "Play now" queue: who waits for which game, with which choices

Revision ID: queue
Revises: code_sessions
Create Date: 2026-12-08
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "queue"
down_revision: str | None = "code_sessions"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "queue_entries",
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("speed", sa.String(length=16), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("fewest", sa.Integer(), nullable=False),
        sa.Column("most", sa.Integer(), nullable=False),
        sa.Column("bots_after", sa.Integer(), nullable=True),
        sa.Column("bot_level", sa.String(length=16), nullable=True),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("alive_until", sa.DateTime(timezone=True), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_queue_entries_game_id_games")
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_queue_entries_player_id_players")
        ),
        sa.PrimaryKeyConstraint("player_id", name=op.f("pk_queue_entries")),
    )
    with op.batch_alter_table("queue_entries", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_queue_entries_game"), ["game"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("queue_entries", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_queue_entries_game"))
    op.drop_table("queue_entries")
