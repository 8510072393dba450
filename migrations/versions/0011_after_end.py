"""a private table's host chooses who may watch it once it has ended

Revision ID: afterend
Revises: 0010
Create Date: 2026-12-04
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "afterend"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("lobbies", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("after_end", sa.String(length=16), server_default="private", nullable=False)
        )


def downgrade() -> None:
    with op.batch_alter_table("lobbies", schema=None) as batch_op:
        batch_op.drop_column("after_end")
