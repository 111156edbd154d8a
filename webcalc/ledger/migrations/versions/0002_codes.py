"""Message codes in their own column (``codes``), out of ``result``, so that reading a table
never decodes them (they are about two thirds of a stored result, and no answer shows them).

Rows stored before keep their codes inside ``result`` (``messages``) and read as before.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    for table in ("ledger_hand", "ledger_revision"):
        op.add_column(table, sa.Column("codes", sa.JSON(), nullable=True))


def downgrade() -> None:
    for table in ("ledger_hand", "ledger_revision"):
        with op.batch_alter_table(table) as batch:
            batch.drop_column("codes")
