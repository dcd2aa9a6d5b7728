"""Rate limits in the database (Flask-Limiter's windows) instead of join_attempts; one name per round.

Revision ID: 0002_harden
Revises: 0001_rounds
Create Date: 2026-12-02

Names are normalised on the way in (poetry.store.fields.clean_name), so a unique index on
(round_id, name) refuses look-alikes at the database too.
"""

import sqlalchemy as sa
from alembic import op

revision = "0002_harden"
down_revision = "0001_rounds"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rate_limits",
        sa.Column("key", sa.String(255), primary_key=True),
        sa.Column("count", sa.Integer, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.drop_index("ix_join_attempts_client_time", table_name="join_attempts")
    op.drop_table("join_attempts")
    op.create_index("uq_seats_round_name", "seats", ["round_id", "name"], unique=True)


def downgrade() -> None:
    op.drop_index("uq_seats_round_name", table_name="seats")
    op.create_table(
        "join_attempts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("client", sa.String(64), nullable=False),
        sa.Column("code", sa.String(12), nullable=False),
        sa.Column("attempted_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_join_attempts_client_time", "join_attempts", ["client", "attempted_at"])
    op.drop_table("rate_limits")
