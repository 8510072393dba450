"""sign-ins, devices, device codes, ratings; rated lobbies and games

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("rater", sa.String(length=48), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("game", "rater", name=op.f("pk_ratings")),
    )
    with op.batch_alter_table("ratings", schema=None) as batch_op:
        batch_op.create_index("ix_ratings_game_mu", ["game", "mu"], unique=False)

    op.create_table(
        "device_codes",
        sa.Column("code_hash", sa.String(length=64), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_device_codes_player_id_players")
        ),
        sa.PrimaryKeyConstraint("code_hash", name=op.f("pk_device_codes")),
    )
    with op.batch_alter_table("device_codes", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_device_codes_expires_at"), ["expires_at"], unique=False
        )
        batch_op.create_index(batch_op.f("ix_device_codes_player_id"), ["player_id"], unique=False)

    op.create_table(
        "player_sessions",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("how", sa.String(length=16), nullable=False),
        sa.Column("device", sa.String(length=100), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_player_sessions_player_id_players")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player_sessions")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_player_sessions_token_hash")),
    )
    with op.batch_alter_table("player_sessions", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_player_sessions_player_id"), ["player_id"], unique=False
        )

    op.create_table(
        "rating_changes",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("rater", sa.String(length=48), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("mu_after", sa.Float(), nullable=False),
        sa.Column("sigma_after", sa.Float(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_rating_changes_game_id_games")
        ),
        sa.PrimaryKeyConstraint("game_id", "seat", name=op.f("pk_rating_changes")),
    )
    with op.batch_alter_table("rating_changes", schema=None) as batch_op:
        batch_op.create_index(
            "ix_rating_changes_kind_created_at", ["kind", "created_at"], unique=False
        )
        batch_op.create_index(
            "ix_rating_changes_rater_created_at", ["rater", "created_at"], unique=False
        )

    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("rated", sa.Boolean(), server_default="0", nullable=False))

    with op.batch_alter_table("lobbies", schema=None) as batch_op:
        batch_op.add_column(sa.Column("rated", sa.Boolean(), server_default="0", nullable=False))

    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.add_column(sa.Column("handle", sa.String(length=24), nullable=True))
        batch_op.add_column(sa.Column("handle_key", sa.String(length=24), nullable=True))
        batch_op.add_column(sa.Column("password_hash", sa.String(length=128), nullable=True))
        batch_op.add_column(sa.Column("suspended_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.alter_column("token_hash", existing_type=sa.VARCHAR(length=64), nullable=True)
        batch_op.create_unique_constraint(batch_op.f("uq_players_handle_key"), ["handle_key"])


def downgrade() -> None:
    # A signed-in player's token lives in their sessions: one goes back to the player (any
    # other device is signed out); a player with none gets a hash no token has.
    op.execute(
        "UPDATE players SET token_hash = COALESCE((SELECT min(s.token_hash) FROM player_sessions s "
        "WHERE s.player_id = players.id), 'signed-out:' || id) WHERE token_hash IS NULL"
    )
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("uq_players_handle_key"), type_="unique")
        batch_op.alter_column("token_hash", existing_type=sa.VARCHAR(length=64), nullable=False)
        batch_op.drop_column("suspended_at")
        batch_op.drop_column("password_hash")
        batch_op.drop_column("handle_key")
        batch_op.drop_column("handle")

    with op.batch_alter_table("lobbies", schema=None) as batch_op:
        batch_op.drop_column("rated")

    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("rated")

    with op.batch_alter_table("rating_changes", schema=None) as batch_op:
        batch_op.drop_index("ix_rating_changes_rater_created_at")
        batch_op.drop_index("ix_rating_changes_kind_created_at")

    op.drop_table("rating_changes")
    with op.batch_alter_table("player_sessions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_player_sessions_player_id"))

    op.drop_table("player_sessions")
    with op.batch_alter_table("device_codes", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_device_codes_player_id"))
        batch_op.drop_index(batch_op.f("ix_device_codes_expires_at"))

    op.drop_table("device_codes")
    with op.batch_alter_table("ratings", schema=None) as batch_op:
        batch_op.drop_index("ix_ratings_game_mu")

    op.drop_table("ratings")
