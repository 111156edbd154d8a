"""Round two of the ledger: co-scorers, undo, the carried-bets setting, and derived state kept
by the writes (so that recording, correcting, voiding and undoing never read the table's other
entries).

* ``ledger_editor``: co-scorers' edit links (editor 1, 2, …); the creator's stays on the table
  row (``edit_hash``, editor 0), so every old link keeps working.
* ``ledger_table``: ``carry_bets`` ("keep" for every old table), ``view_seal`` (null: the view
  token is derived from the creator's token, as before), ``derived`` (the counted entries'
  totals, who deals next, the last counted entry, the corrections so far).
* ``ledger_hand``: ``editor`` (0 for every old row), ``voided_by``, ``void_code`` (``undone``),
  ``next_dealer`` (the result's, copied out), ``dealer_flag`` and ``seq`` (the table version
  at which the row last changed); ``ledger_revision``: ``editor``.

The upgrade fills ``derived``, ``next_dealer``, ``dealer_flag`` and ``seq`` from the stored
rows (decoding each result once, here and never again). Only columns are added, no table is
rebuilt (on SQLite a rebuild of ``ledger_table`` would cascade-delete its hands).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02
"""

from __future__ import annotations

import json
from fractions import Fraction

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

UTC = sa.DateTime(timezone=True)

# frozen here: the shapes this migration reads and writes
_table = sa.table("ledger_table", sa.column("id", sa.Integer), sa.column("first_dealer", sa.Integer),
                  sa.column("version", sa.Integer), sa.column("derived", sa.JSON))
_hand = sa.table("ledger_hand", sa.column("id", sa.Integer), sa.column("table_id", sa.Integer),
                 sa.column("number", sa.Integer), sa.column("kind", sa.String),
                 sa.column("status", sa.String), sa.column("dealer", sa.Integer),
                 sa.column("revision", sa.Integer), sa.column("result", sa.JSON),
                 sa.column("next_dealer", sa.Integer), sa.column("dealer_flag", sa.Boolean),
                 sa.column("seq", sa.Integer))


def _exact(x) -> Fraction:
    return Fraction(repr(x)) if isinstance(x, float) else Fraction(x)


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def derive(first_dealer: int, rows) -> tuple[dict, list[tuple[int, int | None, bool]]]:
    """The table's derived state and each row's ``(id, next_dealer, dealer_flag)`` from its
    rows in number order, as :class:`webcalc.ledger.entries._Derived` keeps them."""
    totals = [Fraction(0)] * 4
    floats = counted = corrections = 0
    expected: int | None = first_dealer
    last = None
    out = []
    for r in rows:
        result = r.result if isinstance(r.result, dict) else json.loads(r.result)
        settlement = result["settlement"]
        nxt = settlement["next_dealer"]["seat"] if r.kind == "hand" else None
        flag = False
        corrections += r.revision - 1
        if r.status == "recorded":
            net = settlement["net"]
            for i, x in enumerate(net):
                totals[i] += _exact(x)
            floats += not all(_is_int(x) for x in net)
            counted += 1
            last = r.number
            if r.kind == "hand":
                flag = r.dealer != expected
                expected = nxt
        out.append((r.id, nxt, flag))
    return ({"totals": [str(x) for x in totals], "floats": floats, "counted": counted,
             "dealer": expected, "last": last, "corrections": corrections}, out)


def upgrade() -> None:
    op.create_table(
        "ledger_editor",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("table_id", sa.Integer(),
                  sa.ForeignKey("ledger_table.id", ondelete="CASCADE"), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("edit_hash", sa.String(64), nullable=False),
        sa.Column("view_seal", sa.String(64), nullable=True),
        sa.Column("created_at", UTC, nullable=False),
        sa.Column("revoked_at", UTC, nullable=True),
        sa.UniqueConstraint("edit_hash", name="uq_ledger_editor_edit_hash"),
        sa.UniqueConstraint("table_id", "number", name="uq_ledger_editor_number"),
    )
    op.add_column("ledger_table", sa.Column("carry_bets", sa.String(8), nullable=False,
                                            server_default="keep"))
    op.add_column("ledger_table", sa.Column("view_seal", sa.String(64), nullable=True))
    op.add_column("ledger_table", sa.Column("derived", sa.JSON(), nullable=True))
    for _name, col in (("editor", sa.Column("editor", sa.Integer(), nullable=False,
                                            server_default="0")),
                       ("voided_by", sa.Column("voided_by", sa.Integer(), nullable=True)),
                       ("void_code", sa.Column("void_code", sa.String(16), nullable=True)),
                       ("next_dealer", sa.Column("next_dealer", sa.Integer(), nullable=True)),
                       ("dealer_flag", sa.Column("dealer_flag", sa.Boolean(), nullable=False,
                                                 server_default="0")),
                       ("seq", sa.Column("seq", sa.Integer(), nullable=False,
                                         server_default="0"))):
        op.add_column("ledger_hand", col)
    op.add_column("ledger_revision", sa.Column("editor", sa.Integer(), nullable=False,
                                               server_default="0"))
    op.create_index("ix_ledger_hand_seq", "ledger_hand", ["table_id", "seq"])

    conn = op.get_bind()
    tables = conn.execute(sa.select(_table.c.id, _table.c.first_dealer, _table.c.version)).all()
    for t in tables:
        rows = conn.execute(sa.select(_hand.c.id, _hand.c.number, _hand.c.kind, _hand.c.status,
                                      _hand.c.dealer, _hand.c.revision, _hand.c.result)
                            .where(_hand.c.table_id == t.id).order_by(_hand.c.number)).all()
        derived, per_row = derive(t.first_dealer, rows)
        if per_row:
            conn.execute(_hand.update().where(_hand.c.id == sa.bindparam("row_id"))
                         .values(next_dealer=sa.bindparam("nd"), dealer_flag=sa.bindparam("fl"),
                                 seq=t.version),
                         [{"row_id": i, "nd": nd, "fl": fl} for i, nd, fl in per_row])
        conn.execute(_table.update().where(_table.c.id == t.id).values(derived=derived))


def downgrade() -> None:
    # an undone entry reads as voided with a reason, its code, as a void did before this
    # revision
    op.execute("UPDATE ledger_hand SET void_reason = 'undone' "
               "WHERE void_code = 'undone' AND void_reason IS NULL")
    op.drop_index("ix_ledger_hand_seq", table_name="ledger_hand")
    for table, columns in (("ledger_revision", ("editor",)),
                           ("ledger_hand", ("seq", "dealer_flag", "next_dealer", "void_code",
                                            "voided_by", "editor")),
                           ("ledger_table", ("derived", "view_seal", "carry_bets"))):
        for column in columns:       # a plain DROP COLUMN (SQLite ≥ 3.35): no table rebuilt
            op.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
    op.drop_table("ledger_editor")
