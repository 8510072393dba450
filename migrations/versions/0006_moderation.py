"""moderation: the admin audit log and chat mutes

Revision ID: 0006
Revises: 0004
Create Date: 2026-12-02
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "0006"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "admin_actions",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor", sa.String(length=64), nullable=False),
        sa.Column("address", sa.String(length=64), nullable=False),
        sa.Column("request_id", sa.String(length=64), nullable=True),
        sa.Column("action", sa.String(length=32), nullable=False),
        sa.Column("target", sa.String(length=64), nullable=False),
        sa.Column("details", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_admin_actions")),
    )
    with op.batch_alter_table("admin_actions", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_admin_actions_action"), ["action"], unique=False)
        batch_op.create_index(batch_op.f("ix_admin_actions_at"), ["at"], unique=False)

    op.create_table(
        "chat_mutes",
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("until", sa.DateTime(timezone=True), nullable=False),
        sa.Column("reason", sa.String(length=200), nullable=True),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_chat_mutes_player_id_players")
        ),
        sa.PrimaryKeyConstraint("player_id", name=op.f("pk_chat_mutes")),
    )


def downgrade() -> None:
    op.drop_table("chat_mutes")
    with op.batch_alter_table("admin_actions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_admin_actions_at"))
        batch_op.drop_index(batch_op.f("ix_admin_actions_action"))
    op.drop_table("admin_actions")
