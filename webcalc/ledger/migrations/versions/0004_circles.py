"""Circles (牌友圈): the same players across evenings.

* ``ledger_circle``: a circle's name and the hashes of its edit and view tokens;
* ``ledger_circle_player``: its players, numbered from 1 within the circle;
* ``ledger_seat``: for a table in a circle, which player sat in each seat and that seat's kept
  figures (hands, wins, self-draws, deal-ins, net, biggest win), kept by every write;
* ``ledger_table``: ``circle_id`` (null for every existing table) and ``circle_seal``.

Only columns and new tables are added; ``ledger_table`` is not rebuilt (on SQLite a rebuild
would cascade-delete its hands), so ``circle_id`` has no foreign key.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

UTC = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "ledger_circle",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("edit_hash", sa.String(64), nullable=False),
        sa.Column("view_hash", sa.String(64), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", UTC, nullable=False),
        sa.Column("updated_at", UTC, nullable=False),
        sa.UniqueConstraint("edit_hash", name="uq_ledger_circle_edit_hash"),
        sa.UniqueConstraint("view_hash", name="uq_ledger_circle_view_hash"),
    )
    op.create_table(
        "ledger_circle_player",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("circle_id", sa.Integer(),
                  sa.ForeignKey("ledger_circle.id", ondelete="CASCADE"), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(16), nullable=False),
        sa.Column("created_at", UTC, nullable=False),
        sa.UniqueConstraint("circle_id", "number", name="uq_ledger_circle_player"),
        sa.UniqueConstraint("circle_id", "name", name="uq_ledger_circle_player_name"),
    )
    op.create_table(
        "ledger_seat",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("table_id", sa.Integer(),
                  sa.ForeignKey("ledger_table.id", ondelete="CASCADE"), nullable=False),
        sa.Column("circle_id", sa.Integer(),
                  sa.ForeignKey("ledger_circle.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player", sa.Integer(), nullable=False),
        sa.Column("hands", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("self_draws", sa.Integer(), nullable=False),
        sa.Column("dealt_in", sa.Integer(), nullable=False),
        sa.Column("net", sa.String(64), nullable=False),
        sa.Column("floats", sa.Integer(), nullable=False),
        sa.Column("biggest_win", sa.JSON(), nullable=True),
        sa.Column("entries", sa.JSON(), nullable=False),
        sa.UniqueConstraint("table_id", "seat", name="uq_ledger_seat"),
    )
    op.create_index("ix_ledger_seat_circle", "ledger_seat", ["circle_id"])
    op.add_column("ledger_table", sa.Column("circle_id", sa.Integer(), nullable=True))
    op.add_column("ledger_table", sa.Column("circle_seal", sa.String(64), nullable=True))
    op.create_index("ix_ledger_table_circle_id", "ledger_table", ["circle_id"])


def downgrade() -> None:
    op.drop_index("ix_ledger_table_circle_id", table_name="ledger_table")
    for column in ("circle_seal", "circle_id"):   # a plain DROP COLUMN: no table rebuilt
        op.execute(f"ALTER TABLE ledger_table DROP COLUMN {column}")
    op.drop_index("ix_ledger_seat_circle", table_name="ledger_seat")
    op.drop_table("ledger_seat")
    op.drop_table("ledger_circle_player")
    op.drop_table("ledger_circle")
