"""Storage: migrations up and down on both databases, several processes migrating at once,
the models matching the migrations, and SQLite lock contention answered without a crash."""

from __future__ import annotations

import sqlite3
import threading
import time

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect

from webcalc.ledger import Busy, Ledger, db
from webcalc.ledger.models import Base

pytestmark = [pytest.mark.both_dbs, pytest.mark.empty_db]

LEDGER_TABLES = {"ledger_table", "ledger_hand", "ledger_revision", "ledger_creation"}

WIN = {"hand": "123m456p789s11122z", "winning_tile": "2z", "win_by": "self_draw",
       "settlement": {"winner": 1}}


def _tables(engine) -> set[str]:
    return set(inspect(engine).get_table_names())


def test_migrate_an_empty_database_to_head_and_back(db_url):
    engine = db.make_engine(db_url)
    try:
        assert _tables(engine) == set()
        db.upgrade(engine)
        assert LEDGER_TABLES <= _tables(engine)
        assert db.current_revision(engine) == db.head_revision()
        with engine.connect() as conn:            # the models say what the migrations made
            diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
        assert diff == []
        db.downgrade(engine, "base")
        assert _tables(engine) & LEDGER_TABLES == set()
        assert db.current_revision(engine) is None
        db.upgrade(engine)                          # and up again, on the emptied database
        assert LEDGER_TABLES <= _tables(engine)
    finally:
        engine.dispose()


def test_several_processes_migrate_at_once(db_url):
    """Each gunicorn worker migrates on start-up: the lock lets one do it, the rest wait."""
    ledgers = [Ledger(db_url) for _ in range(4)]
    errors = []

    def go(ledger):
        try:
            ledger.migrate()
        except Exception as err:  # noqa: BLE001 - collected and asserted below
            errors.append(err)
    threads = [threading.Thread(target=go, args=(lg,)) for lg in ledgers]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    try:
        assert errors == []
        made = ledgers[0].create_table({"variant": "zhengzhou"})
        assert ledgers[3].table(made.view_token)["next_number"] == 1
    finally:
        for lg in ledgers:
            lg.dispose()


def test_concurrent_writers_all_land(ledger):
    """Eight writers on one table at once: every entry is recorded once, numbered 1..N."""
    made = ledger.create_table({"variant": "zhengzhou"})
    errors = []

    def go():
        try:
            for _ in range(4):
                ledger.record(made.edit_token, {"adjustment": {"fee": 4, "paid_by": 0}})
        except Exception as err:  # noqa: BLE001
            errors.append(err)
    threads = [threading.Thread(target=go) for _ in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    t = ledger.table(made.view_token)
    assert errors == []
    assert [h["number"] for h in t["hands"]] == list(range(1, 33))
    assert t["totals"] == [96, -32, -32, -32]


@pytest.fixture()
def sqlite_file(tmp_path):
    return tmp_path / "ledger.sqlite3"


def test_sqlite_is_wal_with_foreign_keys_and_durable_commits(sqlite_file):
    ledger = Ledger(f"sqlite:///{sqlite_file}", migrate_lazily=True)
    try:
        ledger.create_table({"variant": "zhengzhou"})
        with ledger.engine.connect() as conn:
            pragmas = {p: conn.exec_driver_sql(f"PRAGMA {p}").scalar()
                       for p in ("journal_mode", "foreign_keys", "synchronous", "busy_timeout")}
    finally:
        ledger.dispose()
    assert pragmas == {"journal_mode": "wal", "foreign_keys": 1, "synchronous": 2,
                       "busy_timeout": db.BUSY_TIMEOUT_MS}            # put back after a write


def _hold_write_lock(path, seconds: float, started: threading.Event):
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN IMMEDIATE")
    started.set()
    time.sleep(seconds)
    conn.execute("COMMIT")
    conn.close()


@pytest.mark.serial
def test_sqlite_lock_held_too_long_is_busy_not_a_crash(sqlite_file):
    ledger = Ledger(f"sqlite:///{sqlite_file}", migrate_lazily=True, busy_timeout_ms=50)
    try:
        made = ledger.create_table({"variant": "zhengzhou"})
        started = threading.Event()
        holder = threading.Thread(target=_hold_write_lock, args=(sqlite_file, 1.5, started))
        holder.start()
        started.wait()
        with pytest.raises(Busy):
            ledger.record(made.edit_token, WIN)
        holder.join()
        assert ledger.table(made.view_token)["hands"] == []        # nothing half-written
        assert ledger.record(made.edit_token, WIN).created
    finally:
        ledger.dispose()


@pytest.mark.serial
def test_sqlite_lock_held_briefly_just_waits(sqlite_file):
    ledger = Ledger(f"sqlite:///{sqlite_file}", migrate_lazily=True)
    try:
        made = ledger.create_table({"variant": "zhengzhou"})
        started = threading.Event()
        holder = threading.Thread(target=_hold_write_lock, args=(sqlite_file, 0.3, started))
        holder.start()
        started.wait()
        assert ledger.record(made.edit_token, WIN).hand["number"] == 1
        holder.join()
    finally:
        ledger.dispose()


@pytest.mark.serial
def test_api_answers_503_busy_with_retry_after(tmp_path):
    from webcalc import create_app

    path = tmp_path / "ledger.sqlite3"
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{path}",
                      "LEDGER_BUSY_TIMEOUT_MS": 50})
    api = app.test_client()
    try:
        edit = api.post("/api/v1/tables", json={"variant": "zhengzhou"}).json["edit_token"]
        started = threading.Event()
        holder = threading.Thread(target=_hold_write_lock, args=(path, 1.5, started))
        holder.start()
        started.wait()
        r = api.post(f"/api/v1/tables/{edit}/hands", json=WIN)
        holder.join()
        assert r.status_code == 503 and r.json["error"]["code"] == "busy"
        assert r.headers["Retry-After"] == "1"
        assert api.post(f"/api/v1/tables/{edit}/hands", json=WIN).status_code == 201
    finally:
        app.extensions["ledger"].dispose()


def _hold_write_lock_until(path, release: threading.Event, started: threading.Event):
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN IMMEDIATE")
    started.set()
    release.wait(60)
    conn.execute("COMMIT")
    conn.close()


#: how soon a locked database answers 503 (the shared API.md, fourth round; docs/LEDGER.md
#: "Storage"): every wait for the lock and every retry of one request together
LOCKED_ANSWER_S = 5.0


@pytest.mark.serial
def test_a_locked_database_answers_503_within_5_seconds(tmp_path):
    """The default settings, a table made, then the write lock held by another connection: a
    record, an import and a new table each answer 503 ``busy`` with ``Retry-After`` within
    5 s (they took 16.8 s and 17.5 s: a 5 s busy timeout waited out on each of three
    attempts), with connections made while the lock is held (the pool emptied first)."""
    from webcalc import create_app

    path = tmp_path / "ledger.sqlite3"
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{path}"})
    api = app.test_client()
    release, started = threading.Event(), threading.Event()
    holder = threading.Thread(target=_hold_write_lock_until, args=(path, release, started))
    try:
        edit = api.post("/api/v1/tables", json={"variant": "zhengzhou"}).json["edit_token"]
        doc = api.get(f"/api/v1/tables/{edit}/export").json
        app.extensions["ledger"].dispose()              # new connections, made under the lock
        holder.start()
        started.wait()
        for method, path_, body in (("post", f"/api/v1/tables/{edit}/hands", WIN),
                                    ("post", "/api/v1/tables/import", doc),
                                    ("post", "/api/v1/tables", {"variant": "zhengzhou"})):
            t0 = time.monotonic()
            r = getattr(api, method)(path_, json=body)
            took = time.monotonic() - t0
            assert (r.status_code, r.json["error"]["code"]) == (503, "busy"), path_
            assert r.headers["Retry-After"] == "1"
            assert took < LOCKED_ANSWER_S, (path_, took)
        assert api.get(f"/api/v1/tables/{edit}").status_code == 200     # reads go on (WAL)
    finally:
        release.set()
        if holder.is_alive():
            holder.join()
        app.extensions["ledger"].dispose()
    assert api.post(f"/api/v1/tables/{edit}/hands", json=WIN).status_code == 201


@pytest.mark.serial
def test_the_busy_timeout_is_all_a_write_waits_its_retries_included(sqlite_file):
    """``busy_timeout_ms`` bounds the whole wait of a write for the lock, every attempt and
    the pauses between them together, and of an import's two writes (its count towards the
    hourly cap, then its rows), not each attempt's."""
    ledger = Ledger(f"sqlite:///{sqlite_file}", migrate_lazily=True, busy_timeout_ms=400)
    release, started = threading.Event(), threading.Event()
    holder = threading.Thread(target=_hold_write_lock_until,
                              args=(sqlite_file, release, started))
    try:
        made = ledger.create_table({"variant": "zhengzhou"})
        doc = ledger.export_table(made.edit_token)
        holder.start()
        started.wait()
        for name, call in (("record", lambda: ledger.record(made.edit_token, WIN)),
                           ("import", lambda: ledger.import_table(doc, address="192.0.2.7")),
                           ("create", lambda: ledger.create_table({"variant": "zhengzhou"}))):
            t0 = time.monotonic()
            with pytest.raises(Busy):
                call()
            assert time.monotonic() - t0 < 0.75, name         # 3 × 0.4 s and pauses before
    finally:
        release.set()
        if holder.is_alive():
            holder.join()
        ledger.dispose()


def test_an_unreachable_database_is_busy_and_the_pages_still_work(tmp_path):
    """A server that cannot reach its database at start-up still serves the analyser, and
    the ledger answers 503 busy (never a 500) until the database is back."""
    from webcalc import create_app

    app = create_app({"SECRET_KEY": "x",
                      "DATABASE_URL": "postgresql://nobody:x@127.0.0.1:9/none?connect_timeout=2"})
    api = app.test_client()
    try:
        r = api.post("/api/v1/tables", json={"variant": "zhengzhou"})
        assert r.status_code == 503 and r.json["error"]["code"] == "busy"
        assert api.post("/api/v1/analyze", json={"variant": "zhengzhou",
                                                 "hand": "123m456p789s1112z"}).status_code == 200
    finally:
        app.extensions["ledger"].dispose()


def test_rows_stored_before_the_codes_column_read_and_correct_as_before(db_url):
    """Migration 0002 moved the message codes out of ``result`` for new rows; a row stored
    before (codes inside ``result``, no ``codes`` column) survives the migration both ways and
    reads, exports and corrects as before."""
    import json

    from sqlalchemy import text

    ledger = Ledger(db_url, migrate_lazily=True)
    try:
        made = ledger.create_table({"variant": "zhengzhou"})
        ledger.record(made.edit_token, WIN)
        with ledger.engine.begin() as conn:           # as 0001 stored it: codes in the result
            row = conn.execute(text("SELECT id, result, codes FROM ledger_hand")).one()
            result = row.result if isinstance(row.result, dict) else json.loads(row.result)
            codes = row.codes if isinstance(row.codes, dict) else json.loads(row.codes)
            conn.execute(text("UPDATE ledger_hand SET result = :r, codes = NULL WHERE id = :i"),
                         {"r": json.dumps({**result, "messages": codes}), "i": row.id})
        before = ledger.table(made.view_token)
        db.downgrade(ledger.engine, "0001")
        db.upgrade(ledger.engine)
        assert ledger.table(made.view_token) == before
        assert before["hands"][0]["settlement"]["net"] == [-1, 3, -1, -1]
        fixed = ledger.correct(made.edit_token, 1, {**WIN, "settlement": {"winner": 2}})
        assert fixed.hand["revision"] == 2 and fixed.hand["revisions"][0]["settlement"] == \
            before["hands"][0]["settlement"]
        assert "messages" not in fixed.hand and "codes" not in fixed.hand
    finally:
        ledger.dispose()
