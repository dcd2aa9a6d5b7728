"""A round as a club plays it: cups, the clock, 韻牌, withdrawing, grade changes after publication, rematch.

Revision ID: 0004_club
Revises: 0003_declared_form
Create Date: 2026-12-01

New columns only (nullable, or with a server default), so rounds already stored keep working:
``rounds.cups`` (JSON {品: cups}), ``rounds.minutes`` (the clock), ``rounds.rhyme_draw`` and
``rounds.rhymes`` (JSON {seat: group}, drawn with the deal), ``rounds.previous_code`` / ``next_code``
(a rematch's series); ``seats.token_root`` (the hash of the token a rematch's seat shares with
the first round's); ``submissions.elapsed_seconds``; the table ``grade_changes`` logs every 品
changed after publication.
"""

import sqlalchemy as sa
from alembic import op

revision = "0004_club"
down_revision = "0003_declared_form"
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    with op.batch_alter_table("rounds") as batch:
        batch.add_column(sa.Column("cups", sa.Text))
        batch.add_column(sa.Column("minutes", sa.Float))
        batch.add_column(sa.Column("rhyme_draw", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("rhymes", sa.Text))
        batch.add_column(sa.Column("previous_code", sa.String(12)))
        batch.add_column(sa.Column("next_code", sa.String(12)))
    with op.batch_alter_table("submissions") as batch:
        batch.add_column(sa.Column("elapsed_seconds", sa.Float))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("token_root", sa.String(64)))
    op.create_index("ix_seats_token_root", "seats", ["token_root"])
    op.create_table(
        "grade_changes",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("round_id", sa.Integer, sa.ForeignKey("rounds.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("old_grade", sa.String(8)),
        sa.Column("new_grade", sa.String(8), nullable=False),
        sa.Column("changed_at", TZ, nullable=False),
    )
    op.create_index("ix_grade_changes_round_id", "grade_changes", ["round_id", "seat"])


def downgrade() -> None:
    op.drop_index("ix_grade_changes_round_id", table_name="grade_changes")
    op.drop_table("grade_changes")
    op.drop_index("ix_seats_token_root", table_name="seats")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("token_root")
    with op.batch_alter_table("submissions") as batch:
        batch.drop_column("elapsed_seconds")
    with op.batch_alter_table("rounds") as batch:
        for column in ("next_code", "previous_code", "rhymes", "rhyme_draw", "minutes", "cups"):
            batch.drop_column(column)
