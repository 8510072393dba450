"""a device code belongs to the device that made it, and ends with it

Revision ID: code_sessions
Revises: rematchix
Create Date: 2026-12-09
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "code_sessions"
down_revision: str | None = "rematchix"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # A code lives ten minutes and which device made one was not kept: codes made before the
    # upgrade end with it, and their makers show another.
    op.execute("DELETE FROM device_codes")
    with op.batch_alter_table("device_codes", schema=None) as batch_op:
        batch_op.add_column(sa.Column("session_id", sa.String(length=32), nullable=False))
        batch_op.create_index(
            batch_op.f("ix_device_codes_session_id"), ["session_id"], unique=False
        )
        batch_op.create_foreign_key(
            batch_op.f("fk_device_codes_session_id_player_sessions"),
            "player_sessions",
            ["session_id"],
            ["id"],
            ondelete="CASCADE",
        )


def downgrade() -> None:
    with op.batch_alter_table("device_codes", schema=None) as batch_op:
        batch_op.drop_constraint(
            batch_op.f("fk_device_codes_session_id_player_sessions"), type_="foreignkey"
        )
        batch_op.drop_index(batch_op.f("ix_device_codes_session_id"))
        batch_op.drop_column("session_id")
