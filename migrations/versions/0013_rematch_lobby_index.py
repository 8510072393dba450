"""games are found by their rematch's lobby, once it starts or closes

Revision ID: rematchix
Revises: ordinal
Create Date: 2026-12-09
"""

from collections.abc import Sequence

from alembic import op


revision: str = "rematchix"
down_revision: str | None = "ordinal"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_games_rematch_lobby_id"), ["rematch_lobby_id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_games_rematch_lobby_id"))
