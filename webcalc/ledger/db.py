"""The ledger's database: engine set-up for SQLite and PostgreSQL, and migrations.

* **SQLite** (the default, a file in the Flask instance folder): WAL journal, foreign keys on,
  a busy timeout, ``synchronous=FULL`` (a commit is on disk before the answer leaves, so an
  acknowledged hand survives a killed worker and a power cut). Python's sqlite3 module is put
  in autocommit mode and the transactions are begun here: ``BEGIN IMMEDIATE`` for writes
  (the write lock is taken up front, so two writers queue on the busy timeout instead of one
  failing when it upgrades a read lock), a plain ``BEGIN`` for reads.
* **PostgreSQL** (``DATABASE_URL=postgresql://…``) through psycopg 3; a write locks its
  table's row (``SELECT … FOR UPDATE``), so concurrent writes to one table queue.
* **Migrations** (Alembic, shipped in :mod:`webcalc.ledger.migrations`) run with
  :func:`upgrade`, under a lock that several processes can take at once without harm: a
  PostgreSQL advisory lock, or an exclusive ``flock`` on ``<database file>.migrate-lock`` for
  SQLite. The first process upgrades; the others wait, then find the schema at head.
  :func:`upgrade_in_subprocess` runs the same upgrade in a child Python process
  (``python -m webcalc.ledger.migrate``): the app does that at start-up, so Alembic, its Mako
  templates and the SQL dialects it loads (about 10 MB) never enter the gunicorn master and
  its workers.
"""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import Connection, Dialect, Engine, make_url

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
#: the PostgreSQL advisory lock key the migration holds ("webcalc" in ASCII, as an int)
ADVISORY_KEY = 0x77656263616C63
#: how long a SQLite write waits for the write lock before giving up, in milliseconds: all of
#: it, every attempt and the pauses between them together, so that a locked database answers
#: 503 within 5 s (docs/LEDGER.md "Storage")
BUSY_TIMEOUT_MS = 4000
#: the execution option that makes a transaction a write (``BEGIN IMMEDIATE`` on SQLite)
WRITE = "webcalc_write"
#: the execution option that says how long (ms) this write's ``BEGIN IMMEDIATE`` may wait for
#: SQLite's lock: what is left of the write's :data:`BUSY_TIMEOUT_MS`
LOCK_WAIT_MS = "webcalc_lock_wait_ms"
#: the exit status of ``python -m webcalc.ledger.migrate`` when the database cannot be reached
UNREACHABLE = 3
#: the longest a migration subprocess may take (seconds)
MIGRATE_TIMEOUT = 300


#: connections a forked child inherited (the probe's and the listener's: :mod:`.storage`,
#: :mod:`.versions`): kept, never closed, so that closing them cannot end the parent's session
#: (PostgreSQL) or release its locks (SQLite)
ABANDONED: list = []


def close_quietly(conn: Any) -> None:
    """Close a DBAPI connection that may be broken already."""
    try:
        conn.close()
    except Exception:  # noqa: BLE001 - closing a broken connection
        pass


class Unreachable(Exception):
    """:func:`upgrade_in_subprocess` could not reach the database (the child's
    ``OperationalError``; its message is the exception's)."""


def normalise_url(url: str) -> str:
    """``postgres://`` and ``postgresql://`` (psycopg2 in SQLAlchemy's default) → psycopg 3."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def make_engine(url: str, busy_timeout_ms: int = BUSY_TIMEOUT_MS) -> Engine:
    """An engine for ``url`` set up as this module describes; ``busy_timeout_ms``: how long a
    SQLite writer waits for the lock."""
    url = normalise_url(url)
    u = make_url(url)
    if u.get_backend_name() == "sqlite":
        engine = create_engine(url, connect_args={"timeout": busy_timeout_ms / 1000,
                                                  "check_same_thread": False})
        _sqlite_events(engine, busy_timeout_ms)
        if u.database and u.database != ":memory:":
            folder = Path(u.database).parent

            @event.listens_for(engine, "do_connect")
            def _make_folder(*_args):         # the instance folder, on first use only
                folder.mkdir(parents=True, exist_ok=True)
        return engine
    return create_engine(url, pool_pre_ping=True, pool_size=5, max_overflow=5)


def is_sqlite(bind: Engine | Connection | Dialect) -> bool:
    """Whether ``bind`` (an engine, a connection or their dialect) talks to SQLite."""
    dialect = bind if isinstance(bind, Dialect) else bind.dialect
    backend: str = dialect.name
    return backend == "sqlite"


def _set_wal(cur, busy_timeout_ms: int) -> None:
    """Switch the file to WAL. The switch needs the file to itself and SQLite may answer
    "database is locked" at once, without waiting on the busy timeout, while another
    connection (a second worker migrating at start-up) has it open: retry until the busy
    timeout has passed, then let the error through."""
    import sqlite3

    deadline = time.monotonic() + busy_timeout_ms / 1000
    delay = 0.01
    while True:
        try:
            cur.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as err:
            if "locked" not in str(err) or time.monotonic() > deadline:
                raise
            time.sleep(delay)
            delay = min(delay * 2, 0.2)


def _sqlite_events(engine: Engine, busy_timeout_ms: int) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection, _record):
        dbapi_connection.isolation_level = None        # we say BEGIN ourselves (below)
        cur = dbapi_connection.cursor()
        cur.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
        _set_wal(cur, busy_timeout_ms)
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA synchronous=FULL")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection):
        options = conn.get_execution_options()
        if not options.get(WRITE, False):
            conn.exec_driver_sql("BEGIN")
            return
        wait = options.get(LOCK_WAIT_MS)
        if wait is None:
            conn.exec_driver_sql("BEGIN IMMEDIATE")
            return
        # this attempt waits only what is left of the write's time (the connection's own
        # busy timeout is put back after, for the next use of the pooled connection)
        conn.exec_driver_sql(f"PRAGMA busy_timeout={max(int(wait), 0)}")
        try:
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        finally:
            conn.exec_driver_sql(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")


# -- migrations -----------------------------------------------------------------------------

def alembic_config(connection: Connection | None = None):
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = connection
    return cfg


def head_revision() -> str | None:
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def current_revision(engine: Engine) -> str | None:
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


@contextmanager
def migration_lock(engine: Engine) -> Iterator[Connection]:
    """A connection that holds the migration lock (see the module docstring)."""
    if is_sqlite(engine):
        database = engine.url.database
        fd = None
        if database and database != ":memory:":
            fd = os.open(f"{database}.migrate-lock", os.O_RDWR | os.O_CREAT, 0o600)
            fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            with engine.connect() as conn:
                yield conn
        finally:
            if fd is not None:
                fcntl.flock(fd, fcntl.LOCK_UN)
                os.close(fd)
        return
    with engine.connect() as conn:
        conn.execute(text("SELECT pg_advisory_lock(:k)"), {"k": ADVISORY_KEY})
        conn.commit()
        try:
            yield conn
        finally:
            conn.rollback()
            conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": ADVISORY_KEY})
            conn.commit()


def upgrade(engine: Engine, target: str = "head") -> None:
    """Migrate the database to ``target`` (default: head), safely from several processes."""
    from alembic import command

    if target == "head" and current_revision(engine) == head_revision():
        return                                          # the common case: nothing to do
    with migration_lock(engine) as conn:
        command.upgrade(alembic_config(conn), target)
        conn.commit()


def upgrade_in_subprocess(engine: Engine, busy_timeout_ms: int = BUSY_TIMEOUT_MS) -> None:
    """:func:`upgrade` to head in a child process (``python -m webcalc.ledger.migrate``), so
    that Alembic never loads in this one. The URL goes to the child in its environment
    (``WEBCALC_MIGRATE_URL``), not on its command line, where ``ps`` would show a password.
    Raises :class:`Unreachable` when the child could not reach the database, and
    ``RuntimeError`` (with the child's last error lines) when it failed otherwise."""
    package_root = str(Path(__file__).resolve().parents[2])
    path = os.environ.get("PYTHONPATH")
    env = {**os.environ, "WEBCALC_MIGRATE_URL": engine.url.render_as_string(hide_password=False),
           "WEBCALC_MIGRATE_BUSY_MS": str(int(busy_timeout_ms)),
           "PYTHONPATH": package_root + (os.pathsep + path if path else "")}
    done = subprocess.run([sys.executable, "-m", "webcalc.ledger.migrate"], env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=MIGRATE_TIMEOUT)
    if done.returncode == 0:
        return
    tail = "\n".join(done.stderr.strip().splitlines()[-5:])
    if done.returncode == UNREACHABLE:
        raise Unreachable(tail)
    raise RuntimeError(f"ledger migration failed (exit status {done.returncode}):\n{tail}")


def downgrade(engine: Engine, target: str = "base") -> None:
    """Migrate the database down to ``target`` (default: an empty schema)."""
    from alembic import command

    with migration_lock(engine) as conn:
        command.downgrade(alembic_config(conn), target)
        conn.commit()
