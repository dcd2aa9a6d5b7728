"""The form a poet declares (五言絕句 … 古體), kept with the draft and the submission (issue 9).

Revision ID: 0003_declared_form
Revises: 0002_harden
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0003_declared_form"
down_revision = "0002_harden"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # NULL: no form declared (the checker judges the poem by its shape)
    op.add_column("drafts", sa.Column("form", sa.String(8), nullable=True))
    op.add_column("submissions", sa.Column("form", sa.String(8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("submissions") as batch:
        batch.drop_column("form")
    with op.batch_alter_table("drafts") as batch:
        batch.drop_column("form")
