"""notices off the site: the outbox, push subscriptions, mail addresses, reminders

Revision ID: notices
Revises: devices
Create Date: 2026-12-09
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "notices"
down_revision: str | None = "devices"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "mail_addresses",
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("address", sa.String(length=254), nullable=False),
        sa.Column("nonce", sa.String(length=32), nullable=True),
        sa.Column("confirmed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("digest", sa.Boolean(), server_default="0", nullable=False),
        sa.Column("last_digest_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_mail_addresses_player_id_players")
        ),
        sa.PrimaryKeyConstraint("player_id", name=op.f("pk_mail_addresses")),
    )
    with op.batch_alter_table("mail_addresses", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_mail_addresses_confirmed_at"), ["confirmed_at"], unique=False
        )

    op.create_table(
        "mails_sent",
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_mails_sent_player_id_players")
        ),
        sa.PrimaryKeyConstraint("player_id", "game_id", name=op.f("pk_mails_sent")),
    )
    op.create_table(
        "notices",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=True),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("detail", sa.String(length=300), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("next_try_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("tries", sa.Integer(), server_default="0", nullable=False),
        sa.Column("done", sa.JSON(), server_default="[]", nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_notices_player_id_players")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_notices")),
    )
    with op.batch_alter_table("notices", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_notices_next_try_at"), ["next_try_at"], unique=False)
        batch_op.create_index(batch_op.f("ix_notices_player_id"), ["player_id"], unique=False)

    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("endpoint", sa.String(length=1024), nullable=False),
        sa.Column("p256dh", sa.String(length=100), nullable=False),
        sa.Column("auth", sa.String(length=40), nullable=False),
        sa.Column("kinds", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_push_subscriptions_player_id_players")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_push_subscriptions")),
        sa.UniqueConstraint("endpoint", name=op.f("uq_push_subscriptions_endpoint")),
    )
    with op.batch_alter_table("push_subscriptions", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_push_subscriptions_player_id"), ["player_id"], unique=False
        )

    op.create_table(
        "reminders",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("deadline", sa.DateTime(timezone=True), nullable=False),
        sa.Column("which", sa.String(length=8), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_reminders_game_id_games")),
        sa.PrimaryKeyConstraint("game_id", "seat", "deadline", "which", name=op.f("pk_reminders")),
    )


def downgrade() -> None:
    op.drop_table("reminders")
    with op.batch_alter_table("push_subscriptions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_push_subscriptions_player_id"))

    op.drop_table("push_subscriptions")
    with op.batch_alter_table("notices", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_notices_player_id"))
        batch_op.drop_index(batch_op.f("ix_notices_next_try_at"))

    op.drop_table("notices")
    op.drop_table("mails_sent")
    with op.batch_alter_table("mail_addresses", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_mail_addresses_confirmed_at"))

    op.drop_table("mail_addresses")
