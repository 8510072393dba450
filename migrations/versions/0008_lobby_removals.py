"""lobbies remember the players the host removed; replaced invite codes

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("lobbies", schema=None) as batch_op:
        batch_op.add_column(sa.Column("removed", sa.JSON(), server_default="[]", nullable=False))
    op.create_table(
        "replaced_invite_codes",
        sa.Column("code", sa.String(length=16), nullable=False),
        sa.Column("lobby_id", sa.String(length=32), nullable=False),
        sa.ForeignKeyConstraint(
            ["lobby_id"], ["lobbies.id"], name=op.f("fk_replaced_invite_codes_lobby_id_lobbies")
        ),
        sa.PrimaryKeyConstraint("code", name=op.f("pk_replaced_invite_codes")),
    )
    with op.batch_alter_table("replaced_invite_codes", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_replaced_invite_codes_lobby_id"), ["lobby_id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("replaced_invite_codes", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_replaced_invite_codes_lobby_id"))
    op.drop_table("replaced_invite_codes")
    with op.batch_alter_table("lobbies", schema=None) as batch_op:
        batch_op.drop_column("removed")
