"""The table ledger: tables, hands (current revision), superseded revisions, creations.

Revision ID: 0001
Revises:
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

# frozen here: a later change to the models must not change what this migration made
UTC = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "ledger_table",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("edit_hash", sa.String(64), nullable=False),
        sa.Column("view_hash", sa.String(64), nullable=False),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("base", sa.JSON(), nullable=False),
        sa.Column("names", sa.JSON(), nullable=False),
        sa.Column("first_dealer", sa.Integer(), nullable=False),
        sa.Column("next_number", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", UTC, nullable=False),
        sa.Column("updated_at", UTC, nullable=False),
        sa.UniqueConstraint("edit_hash", name="uq_ledger_table_edit_hash"),
        sa.UniqueConstraint("view_hash", name="uq_ledger_table_view_hash"),
    )
    op.create_index("ix_ledger_table_updated_at", "ledger_table", ["updated_at"])
    op.create_table(
        "ledger_hand",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("table_id", sa.Integer(),
                  sa.ForeignKey("ledger_table.id", ondelete="CASCADE"), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("idempotency_key", sa.String(128), nullable=True),
        sa.Column("revision", sa.Integer(), nullable=False),
        sa.Column("request", sa.JSON(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=False),
        sa.Column("dealer", sa.Integer(), nullable=False),
        sa.Column("verified", sa.Boolean(), nullable=False),
        sa.Column("recorded_at", UTC, nullable=False),
        sa.Column("revised_at", UTC, nullable=True),
        sa.Column("void_reason", sa.Text(), nullable=True),
        sa.Column("voided_at", UTC, nullable=True),
        sa.UniqueConstraint("table_id", "number", name="uq_ledger_hand_number"),
        sa.UniqueConstraint("table_id", "idempotency_key", name="uq_ledger_hand_idempotency"),
    )
    op.create_table(
        "ledger_revision",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("hand_id", sa.Integer(),
                  sa.ForeignKey("ledger_hand.id", ondelete="CASCADE"), nullable=False),
        sa.Column("revision", sa.Integer(), nullable=False),
        sa.Column("request", sa.JSON(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=False),
        sa.Column("dealer", sa.Integer(), nullable=False),
        sa.Column("verified", sa.Boolean(), nullable=False),
        sa.Column("recorded_at", UTC, nullable=False),
        sa.Column("replaced_at", UTC, nullable=False),
        sa.UniqueConstraint("hand_id", "revision", name="uq_ledger_revision"),
    )
    op.create_index("ix_ledger_revision_hand_id", "ledger_revision", ["hand_id"])
    op.create_table(
        "ledger_creation",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("address_hash", sa.String(64), nullable=False),
        sa.Column("created_at", UTC, nullable=False),
    )
    op.create_index("ix_ledger_creation_address", "ledger_creation",
                    ["address_hash", "created_at"])
    op.create_index("ix_ledger_creation_created_at", "ledger_creation", ["created_at"])


def downgrade() -> None:
    op.drop_table("ledger_creation")
    op.drop_table("ledger_revision")
    op.drop_table("ledger_hand")
    op.drop_table("ledger_table")
