"""ratings ranked by their ordinal, the opponents each person has met, and why a game its
lobby rated is not

Revision ID: ordinal
Revises: afterend
Create Date: 2026-12-06

The leaderboard ranks by the conservative rating (mu - 3 sigma) and lists people who met
enough different opponents: both are filled in from the ratings and the rated games so far.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "ordinal"
down_revision: str | None = "afterend"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "rating_opponents",
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("rater", sa.String(length=48), nullable=False),
        sa.Column("opponent", sa.String(length=48), nullable=False),
        sa.PrimaryKeyConstraint("game", "rater", "opponent", name=op.f("pk_rating_opponents")),
    )
    op.execute(
        "INSERT INTO rating_opponents (game, rater, opponent) "
        "SELECT DISTINCT mine.kind, mine.rater, theirs.rater FROM rating_changes mine "
        "JOIN rating_changes theirs ON theirs.game_id = mine.game_id "
        "AND theirs.rater <> mine.rater WHERE mine.rater NOT LIKE 'bot:%'"
    )
    with op.batch_alter_table("ratings", schema=None) as batch_op:
        batch_op.add_column(sa.Column("ordinal", sa.Float(), nullable=True))
        batch_op.add_column(
            sa.Column("opponents", sa.Integer(), server_default="0", nullable=False)
        )
        batch_op.drop_index("ix_ratings_game_mu")
    op.execute(
        "UPDATE ratings SET ordinal = mu - 3 * sigma, opponents = (SELECT count(*) FROM "
        "rating_opponents o WHERE o.game = ratings.game AND o.rater = ratings.rater)"
    )
    with op.batch_alter_table("ratings", schema=None) as batch_op:
        batch_op.alter_column("ordinal", existing_type=sa.Float(), nullable=False)
        batch_op.create_index("ix_ratings_game_ordinal", ["game", "ordinal"], unique=False)
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("unrated_because", sa.String(length=200), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("unrated_because")
    with op.batch_alter_table("ratings", schema=None) as batch_op:
        batch_op.drop_index("ix_ratings_game_ordinal")
        batch_op.create_index("ix_ratings_game_mu", ["game", "mu"], unique=False)
        batch_op.drop_column("opponents")
        batch_op.drop_column("ordinal")
    op.drop_table("rating_opponents")
