"""speeds: a lobby's and a game's named speed; tables made before keep their per-move clock

Revision ID: speeds
Revises: queue
Create Date: 2026-12-06
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "speeds"
down_revision: str | None = "queue"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Play now's speeds were per-move presets; a person waiting now waits for the nearest named
# speed. Ids kept ("3m", "10m", "1d", "untimed") now name the speed of that pace.
RENAMED = {"1m": "3m", "1h": "20m"}


def upgrade() -> None:
    # Every lobby and game stored before keeps speed NULL: its per-move clock, turn_seconds
    # seconds a decision (or none), runs as it always did.
    with op.batch_alter_table("games") as batch_op:
        batch_op.add_column(sa.Column("speed", sa.String(length=16), nullable=True))
    with op.batch_alter_table("lobbies") as batch_op:
        batch_op.add_column(sa.Column("speed", sa.String(length=16), nullable=True))
    entries = sa.table("queue_entries", sa.column("speed", sa.String))
    for old, new in RENAMED.items():
        op.execute(entries.update().where(entries.c.speed == old).values(speed=new))


def downgrade() -> None:
    with op.batch_alter_table("lobbies") as batch_op:
        batch_op.drop_column("speed")
    with op.batch_alter_table("games") as batch_op:
        batch_op.drop_column("speed")
