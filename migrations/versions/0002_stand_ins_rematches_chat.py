"""stand-ins, rematches, seat reservations and chat

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=True),
        sa.Column("lobby_id", sa.String(length=32), nullable=True),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=32), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_chat_messages_game_id_games")
        ),
        sa.ForeignKeyConstraint(
            ["lobby_id"], ["lobbies.id"], name=op.f("fk_chat_messages_lobby_id_lobbies")
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_chat_messages_player_id_players")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chat_messages")),
    )
    with op.batch_alter_table("chat_messages", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_chat_messages_game_id"), ["game_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_chat_messages_lobby_id"), ["lobby_id"], unique=False)
        batch_op.create_index(
            "ix_chat_messages_player_id_created_at", ["player_id", "created_at"], unique=False
        )

    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("stand_ins", sa.JSON(), server_default="{}", nullable=False))
        batch_op.add_column(
            sa.Column("seats_version", sa.Integer(), server_default="0", nullable=False)
        )
        batch_op.add_column(sa.Column("rematch_lobby_id", sa.String(length=32), nullable=True))

    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.add_column(sa.Column("reserved_for", sa.String(length=32), nullable=True))
        batch_op.add_column(sa.Column("reserved_until", sa.DateTime(timezone=True), nullable=True))
        batch_op.create_foreign_key(
            batch_op.f("fk_seats_reserved_for_players"), "players", ["reserved_for"], ["id"]
        )


def downgrade() -> None:
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("fk_seats_reserved_for_players"), type_="foreignkey")
        batch_op.drop_column("reserved_until")
        batch_op.drop_column("reserved_for")

    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("rematch_lobby_id")
        batch_op.drop_column("seats_version")
        batch_op.drop_column("stand_ins")

    with op.batch_alter_table("chat_messages", schema=None) as batch_op:
        batch_op.drop_index("ix_chat_messages_player_id_created_at")
        batch_op.drop_index(batch_op.f("ix_chat_messages_lobby_id"))
        batch_op.drop_index(batch_op.f("ix_chat_messages_game_id"))

    op.drop_table("chat_messages")
