"""game states compressed with lz4 on PostgreSQL

Every move writes the game's whole state (mostly its log, 10-20 kB late in a game), which
PostgreSQL compresses when storing it; lz4 costs a fraction of the default pglz's time.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30
"""

from collections.abc import Sequence

from alembic import op


revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# PostgreSQL 14 and later, when built with lz4 (as Debian's and the official images are).
HAS_LZ4 = (
    "SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals)"
)


def _compress_states_with(method: str) -> None:
    bind = op.get_bind()
    if bind.dialect.name != "postgresql" or bind.exec_driver_sql(HAS_LZ4).first() is None:
        return
    op.execute(f"ALTER TABLE games ALTER COLUMN state SET COMPRESSION {method}")


def upgrade() -> None:
    _compress_states_with("lz4")


def downgrade() -> None:
    _compress_states_with("pglz")
