"""The polls' version probe (:meth:`Ledger.version`, :meth:`Ledger.access`) across processes, on
SQLite and PostgreSQL: two ``Ledger`` objects on one database stand for two server processes
(each with its own connections and what it keeps). Whatever one writes, the other's next probe
sees: a new version, a revoked link, a replaced link (404). On PostgreSQL the versions a
process read are kept until a write's NOTIFY names their table, so a poll answered 304 asks
the database nothing; there the other process's probe sees the write once the notice has
arrived (it is sent at commit: the loops below wait for that delivery, at most 10 s), and
this process's own writes at once. When the listening connection dies, the probe asks the
database again."""

from __future__ import annotations

import time

import pytest

from webcalc.ledger import Ledger, NotFound

WIN = {"hand": "123m456p789s11122z", "winning_tile": "2z", "win_by": "self_draw",
       "settlement": {"winner": 1}}


def eventually(probe, want, db_url: str):
    """``probe()`` once on SQLite (no notice to wait for); on PostgreSQL until it gives
    ``want`` (the other process's notice is on its way), at most 10 s."""
    deadline = time.monotonic() + (10 if db_url.startswith("postgresql") else 0)
    while True:
        try:
            got = probe()
        except NotFound:
            got = NotFound
        if got == want or time.monotonic() > deadline:
            return got
        time.sleep(0.01)


@pytest.fixture()
def two(db_url):
    a = Ledger(db_url, migrate_lazily=True, tables_per_hour=0)
    b = Ledger(db_url, migrate_lazily=True, tables_per_hour=0)
    yield a, b
    a.dispose()
    b.dispose()


def test_another_processes_write_is_seen_by_the_next_probe(two, db_url):
    a, b = two
    made = a.create_table({"variant": "zhengzhou"})
    v = a.version(made.view_token)
    assert a.version(made.view_token) == v
    if a._versions is not None:                                  # kept (PostgreSQL)
        from webcalc.ledger.service import token_hash

        assert token_hash(made.view_token) in a._versions.by_token
    b.record(made.edit_token, WIN)
    assert eventually(lambda: a.version(made.view_token), v + 1, db_url) == v + 1
    a.record(made.edit_token, WIN)                               # its own: seen at once
    assert a.version(made.view_token) == v + 2
    assert a.table(made.view_token)["version"] == v + 2


def test_a_revoked_or_replaced_link_is_gone_for_every_process(two, db_url):
    a, b = two
    made = a.create_table({"variant": "zhengzhou"})
    _, co = a.add_editor(made.edit_token)
    assert (a.access(co), a.access(made.view_token), a.editor_of(co)) == ("edit", "view", 1)
    b.revoke_editor(made.edit_token, 1)
    assert eventually(lambda: a.access(co), NotFound, db_url) is NotFound
    rot = b.rotate(made.edit_token, view=True)
    assert eventually(lambda: a.version(made.view_token), NotFound, db_url) is NotFound
    assert eventually(lambda: a.access(made.edit_token), NotFound, db_url) is NotFound
    assert a.access(rot.edit_token) == "edit" and a.access(rot.view_token) == "view"


def test_a_purge_is_seen_by_every_process(two, db_url):
    from sqlalchemy import text

    a, b = two
    made = a.create_table({"variant": "zhengzhou"})
    a.version(made.view_token)
    with b.engine.begin() as conn:
        conn.execute(text("UPDATE ledger_table SET updated_at = '2001-01-01'"))
    assert b.purge_idle(1) == 1
    assert eventually(lambda: a.version(made.view_token), NotFound, db_url) is NotFound


def test_without_its_listening_connection_the_probe_asks_the_database(db_url):
    if not db_url.startswith("postgresql"):
        pytest.skip("PostgreSQL's LISTEN/NOTIFY only")
    from sqlalchemy import text

    a = Ledger(db_url, migrate_lazily=True, tables_per_hour=0)
    b = Ledger(db_url, migrate_lazily=True, tables_per_hour=0)
    try:
        made = a.create_table({"variant": "zhengzhou"})
        v = a.version(made.view_token)
        pid = a._versions.conn.info.backend_pid
        with b.engine.begin() as conn:           # the listener's server process ends
            conn.execute(text("SELECT pg_terminate_backend(:p)"), {"p": pid})
        b.record(made.edit_token, WIN)           # its notice reaches no one in ``a``
        assert eventually(lambda: a.version(made.view_token), v + 1, db_url) == v + 1
        b.record(made.edit_token, WIN)           # listening again: the next notice arrives
        assert eventually(lambda: a.version(made.view_token), v + 2, db_url) == v + 2
    finally:
        a.dispose()
        b.dispose()
