"""Rounds, seats, hands, drafts, submissions, grades, join attempts and the event log.

Revision ID: 0001_rounds
Revises:
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0001_rounds"
down_revision = None
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "rounds",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("code", sa.String(12), nullable=False, unique=True),
        sa.Column("title", sa.Text, nullable=False),
        sa.Column("rhyme_book", sa.String(16), nullable=False),
        sa.Column("penalty", sa.Text, nullable=False),
        sa.Column("composition", sa.String(16), nullable=False),
        sa.Column("wildcards", sa.Integer, nullable=False),
        sa.Column("host_plays", sa.Boolean, nullable=False),
        sa.Column("phase", sa.String(16), nullable=False),
        sa.Column("tile_set", sa.Text),
        sa.Column("commitment", sa.String(64)),
        sa.Column("salt", sa.String(64)),
        sa.Column("stack", sa.Text),
        sa.Column("count_char", sa.String(4)),
        sa.Column("count_strokes", sa.Integer),
        sa.Column("first_seat", sa.Integer),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("dealt_at", TZ),
        sa.Column("published_at", TZ),
    )
    op.create_table(
        "seats",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("round_id", sa.Integer, sa.ForeignKey("rounds.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("is_host", sa.Boolean, nullable=False),
        sa.Column("joined_at", TZ, nullable=False),
        sa.UniqueConstraint("round_id", "seat", name="uq_seats_round_seat"),
    )
    op.create_table(
        "hands",
        sa.Column("round_id", sa.Integer, sa.ForeignKey("rounds.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("tiles", sa.Text, nullable=False),
    )
    op.create_table(
        "drafts",
        sa.Column("round_id", sa.Integer, sa.ForeignKey("rounds.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("title", sa.Text, nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("revision", sa.Integer, nullable=False),
        sa.Column("updated_at", TZ),
    )
    op.create_table(
        "submissions",
        sa.Column("round_id", sa.Integer, sa.ForeignKey("rounds.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("title", sa.Text, nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("report", sa.Text),
        sa.Column("locked", sa.Boolean, nullable=False),
        sa.Column("submitted_at", TZ, nullable=False),
        sa.Column("reopened_at", TZ),
    )
    op.create_table(
        "grades",
        sa.Column("round_id", sa.Integer, sa.ForeignKey("rounds.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("grade", sa.String(8), nullable=False),
        sa.Column("comment", sa.Text, nullable=False),
        sa.Column("graded_at", TZ, nullable=False),
    )
    op.create_table(
        "join_attempts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("client", sa.String(64), nullable=False),
        sa.Column("code", sa.String(12), nullable=False),
        sa.Column("attempted_at", TZ, nullable=False),
    )
    op.create_index("ix_join_attempts_client_time", "join_attempts", ["client", "attempted_at"])
    op.create_table(
        "events",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("round_id", sa.Integer, sa.ForeignKey("rounds.id", ondelete="CASCADE"), nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("payload", sa.Text, nullable=False),
        sa.Column("created_at", TZ, nullable=False),
    )
    op.create_index("ix_events_round_id", "events", ["round_id", "id"])


def downgrade() -> None:
    op.drop_index("ix_events_round_id", table_name="events")
    op.drop_table("events")
    op.drop_index("ix_join_attempts_client_time", table_name="join_attempts")
    op.drop_table("join_attempts")
    for name in ("grades", "submissions", "drafts", "hands", "seats", "rounds"):
        op.drop_table(name)
