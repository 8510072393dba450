"""devices told apart (browser, system, last use); a key for device cookies

Revision ID: devices
Revises: speeds
Create Date: 2026-12-10
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "devices"
down_revision: str | None = "speeds"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("player_sessions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("browser", sa.String(length=40), nullable=True))
        batch_op.add_column(sa.Column("system", sa.String(length=40), nullable=True))
        batch_op.add_column(sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "server_keys",
        sa.Column("name", sa.String(length=32), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_server_keys")),
    )


def downgrade() -> None:
    op.drop_table("server_keys")
    with op.batch_alter_table("player_sessions", schema=None) as batch_op:
        batch_op.drop_column("last_used_at")
        batch_op.drop_column("system")
        batch_op.drop_column("browser")
