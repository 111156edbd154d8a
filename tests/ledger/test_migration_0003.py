"""Migration 0003 (co-scorers, undo, carried bets, the kept totals) on SQLite and PostgreSQL:
tables stored by the schema before it (0002) read the same after it, with editor 0 for every
old revision and ``carry_bets`` ``keep``; their totals, dealer and flags, computed by the
migration from the stored results, are the ones a full reading gives; their links keep
working; and the downgrade keeps what it can (an undo as a void with a reason)."""

from __future__ import annotations

import random

import pytest
from sqlalchemy import inspect, text

from webcalc.ledger import Ledger, db

from .test_derived import derived, from_scratch, random_entry, random_win

pytestmark = [pytest.mark.both_dbs, pytest.mark.empty_db]

WIN = {"hand": "123m456p789s11122z", "winning_tile": "2z", "win_by": "self_draw"}


def _evening(ledger: Ledger, seed: int) -> tuple[str, str]:
    """A table with flagged dealers, voids, corrections and decimal fees, by its creator."""
    rng = random.Random(seed)
    made = ledger.create_table({"variant": "zhengzhou", "dealer": 1,
                                "options": {"seven_pairs_double": True}})
    e = made.edit_token
    for _ in range(25):
        ledger.record(e, random_entry(rng))
    ledger.record(e, {**WIN, "settlement": {"winner": 1, "dealer": 3}})      # flagged
    ledger.void(e, 4, "记错了")
    ledger.correct(e, 2, random_win(rng))
    ledger.record(e, {"adjustment": {"fee": 2.5, "paid_by": 2, "note": "茶水"}})
    return e, made.view_token


def _columns(engine, table: str) -> set[str]:
    return {c["name"] for c in inspect(engine).get_columns(table)}


def test_tables_from_0002_read_the_same_and_keep_working(db_url):
    ledger = Ledger(db_url, migrate_lazily=True, tables_per_hour=0)
    try:
        edit, view = _evening(ledger, 3)
        empty = ledger.create_table({"variant": "panjin"})
        before = ledger.table(view)
        before_empty = ledger.table(empty.view_token)
        db.downgrade(ledger.engine, "0002")
        assert "ledger_editor" not in inspect(ledger.engine).get_table_names()
        assert "derived" not in _columns(ledger.engine, "ledger_table")
        assert "seq" not in _columns(ledger.engine, "ledger_hand")
        db.upgrade(ledger.engine)
        assert db.current_revision(ledger.engine) == db.head_revision()
        fresh = Ledger(db_url, tables_per_hour=0)
        try:
            after = fresh.table(view)
            # who voided is not known of a void stored before 0003
            assert after == {**before, "hands": [
                {**h, "voided_by": None} if h["status"] == "voided" else h
                for h in before["hands"]]}
            assert derived(after) == from_scratch(after)
            assert any(h["dealer_flag"] for h in after["hands"])
            assert {h["editor"] for h in after["hands"]} == {0}
            assert after["carry_bets"] == "keep"
            assert fresh.table(empty.view_token) == before_empty
            assert fresh.table(edit)["access"] == "edit"         # the old links open it
            assert fresh.view_token(edit) == view
            rec = fresh.record(edit, {**WIN, "settlement": {"winner": 2}})
            assert rec.hand["dealer"] == before["dealer"] and rec.hand["editor"] == 0
            assert derived(rec.table) == from_scratch(rec.table)
            t = fresh.undo(edit, rec.hand["number"])
            assert t["totals"] == before["totals"] and t["dealer"] == before["dealer"]
            n, co = fresh.add_editor(edit)
            assert fresh.record(co, {"settlement": {"winner": None}}).hand["editor"] == n == 1
        finally:
            fresh.dispose()
    finally:
        ledger.dispose()


def test_the_downgrade_keeps_an_undo_as_a_void_with_its_reason(db_url):
    ledger = Ledger(db_url, migrate_lazily=True, tables_per_hour=0)
    try:
        made = ledger.create_table({"variant": "zhengzhou"})
        ledger.record(made.edit_token, {**WIN, "settlement": {"winner": 1}})
        ledger.record(made.edit_token, {**WIN, "settlement": {"winner": 2}})
        ledger.undo(made.edit_token, 2)
        db.downgrade(ledger.engine, "0002")
        with ledger.engine.connect() as conn:
            rows = conn.execute(text("SELECT number, status, void_reason FROM ledger_hand "
                                     "ORDER BY number")).all()
        assert [tuple(r) for r in rows] == [(1, "recorded", None), (2, "voided", "undone")]
        db.upgrade(ledger.engine)
        fresh = Ledger(db_url, tables_per_hour=0)
        try:
            t = fresh.table(made.view_token)
            assert t["hands"][1]["void_reason"] == "undone"
            assert t["totals"] == [-1, 3, -1, -1] and t["last_counted"] == 1
        finally:
            fresh.dispose()
    finally:
        ledger.dispose()
