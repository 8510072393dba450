"""the host chooses the level of the bot standing in for away or conceded players

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-02
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("lobbies", schema=None) as batch_op:
        batch_op.add_column(sa.Column("stand_in_level", sa.String(length=16), nullable=True))
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("stand_in_level", sa.String(length=16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("stand_in_level")
    with op.batch_alter_table("lobbies", schema=None) as batch_op:
        batch_op.drop_column("stand_in_level")
