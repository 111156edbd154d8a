"""The polls' version probe (:meth:`Ledger.version`, :meth:`Ledger.access`) across processes, on
SQLite and PostgreSQL: two ``Ledger`` objects on one database stand for two server processes
(each with its own connections and what it keeps). Whatever one writes, the other's next probe
sees: a new version, a revoked link, a replaced link (404). On PostgreSQL the versions a
process read are kept until a write's NOTIFY names their table, so a poll answered 304 asks
the database nothing; there too the other process's very next probe sees the write (no
waiting for the notice: the probe's ``Sync`` on the listening connection brings every notice
of a committed write in first), and this process's own writes at once. When the listening
connection dies, the probe asks the database again."""

from __future__ import annotations

import pytest

from webcalc.ledger import Ledger, NotFound

pytestmark = pytest.mark.both_dbs

WIN = {"hand": "123m456p789s11122z", "winning_tile": "2z", "win_by": "self_draw",
       "settlement": {"winner": 1}}


def next_probe(probe):
    """``probe()`` once, as the next poll would: what it gives (NotFound for a 404)."""
    try:
        return probe()
    except NotFound:
        return NotFound


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
    assert next_probe(lambda: a.version(made.view_token)) == v + 1
    a.record(made.edit_token, WIN)                               # its own: seen at once
    assert a.version(made.view_token) == v + 2
    assert a.table(made.view_token)["version"] == v + 2


def test_a_revoked_or_replaced_link_is_gone_for_every_process(two, db_url):
    a, b = two
    made = a.create_table({"variant": "zhengzhou"})
    _, co = a.add_editor(made.edit_token)
    assert (a.access(co), a.access(made.view_token), a.editor_of(co)) == ("edit", "view", 1)
    b.revoke_editor(made.edit_token, 1)
    assert next_probe(lambda: a.access(co)) is NotFound
    rot = b.rotate(made.edit_token, view=True)
    assert next_probe(lambda: a.version(made.view_token)) is NotFound
    assert next_probe(lambda: a.access(made.edit_token)) is NotFound
    assert a.access(rot.edit_token) == "edit" and a.access(rot.view_token) == "view"


def test_a_purge_is_seen_by_every_process(two, db_url):
    from sqlalchemy import text

    a, b = two
    made = a.create_table({"variant": "zhengzhou"})
    a.version(made.view_token)
    with b.engine.begin() as conn:
        conn.execute(text("UPDATE ledger_table SET updated_at = '2001-01-01'"))
    assert b.purge_idle(1) == 1
    assert next_probe(lambda: a.version(made.view_token)) is NotFound


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
        assert next_probe(lambda: a.version(made.view_token)) == v + 1
        b.record(made.edit_token, WIN)           # listening again: the next notice arrives
        assert next_probe(lambda: a.version(made.view_token)) == v + 2
    finally:
        a.dispose()
        b.dispose()


def test_a_write_just_committed_elsewhere_is_seen_by_the_next_probe(db_url):
    """The notice of a write is sent by the listener's server process when it next runs,
    which may be after the writer's commit returned; the probe must not answer from what it
    keeps before that notice is in (before the ``Sync`` barrier, 50 of 300 such probes gave
    the old version). A raw write (one UPDATE, its NOTIFY, commit) right before each probe,
    200 times: every probe gives the new version."""
    if not db_url.startswith("postgresql"):
        pytest.skip("PostgreSQL's LISTEN/NOTIFY only")
    import psycopg
    from sqlalchemy.engine import make_url

    from webcalc.ledger.versions import NOTIFY_CHANNEL

    a = Ledger(db_url, migrate_lazily=True, tables_per_hour=0)
    made = a.create_table({"variant": "zhengzhou"})
    url = make_url(db_url)
    writer = psycopg.connect(url.set(drivername="postgresql").render_as_string(
        hide_password=False))
    try:
        v = a.version(made.view_token)
        listener = a._versions.conn
        stale = []
        for i in range(200):
            assert a.version(made.view_token) == v              # kept: asks nothing
            writer.execute("UPDATE ledger_table SET version = version + 1")
            writer.execute("SELECT pg_notify(%s, id::text) FROM ledger_table",
                           (NOTIFY_CHANNEL,))
            writer.commit()
            v += 1
            got = a.version(made.view_token)
            if got != v:
                stale.append((i, got, v))
        assert stale == []
        assert a._versions.conn is listener      # the barrier never failed over to the database
    finally:
        writer.close()
        a.dispose()


def test_a_probe_that_raced_a_write_is_not_kept(db_url):
    """A probe's database read that a notice for its table overtook (the read may predate
    the write) is not kept: the next probe asks again."""
    if not db_url.startswith("postgresql"):
        pytest.skip("PostgreSQL's LISTEN/NOTIFY only")
    from webcalc.ledger.service import token_hash

    a = Ledger(db_url, migrate_lazily=True, tables_per_hour=0)
    b = Ledger(db_url, migrate_lazily=True, tables_per_hour=0)
    try:
        made = a.create_table({"variant": "zhengzhou"})
        v = a.version(made.view_token)
        h = token_hash(made.view_token)
        tid = a._versions.by_token[h][2]
        a._versions.drop([tid])                                 # as if never read
        known, ticket = a._versions.get(h)
        assert known is None and ticket is not None
        b.record(made.edit_token, WIN)                          # commits after the "read"
        a._versions._barrier()                                  # its notice is in
        a._versions.put(h, tid, v, None, ticket)                # the read's (old) answer
        assert h not in a._versions.by_token
        assert a.version(made.view_token) == v + 1
    finally:
        a.dispose()
        b.dispose()
