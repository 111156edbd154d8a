"""Ledger fixtures: a fresh database per test, on SQLite and, for the tests marked
``both_dbs``, on a real PostgreSQL too.

PostgreSQL is ``WEBCALC_TEST_POSTGRES_URL``, else the local default :data:`PG_DEFAULT` (the
role and database ``.ci/run`` creates). Which tests run there: those whose code touches the
database (the service through the API, storage, limits, versions, durability, migrations,
circles) carry ``pytestmark = pytest.mark.both_dbs``; the pages and the browser run on SQLite
only, since they reach the database through the same service. ``WEBCALC_TEST_DBS=sqlite``
(``make test-fast``) runs even the ``both_dbs`` tests on SQLite alone.

The schema is made once per test process, not per test: a SQLite file migrated by the real
Alembic migrations is copied for each test, and a PostgreSQL test gets a new schema made from
the models' metadata (which tests/ledger/test_storage.py holds equal to the migrations on both
databases) and stamped at head. Tests marked ``empty_db`` (the migrations themselves) get an
empty database instead. When PostgreSQL cannot be reached the PostgreSQL half is skipped and
the run ends with a plain line saying the ledger tests ran on SQLite only; under ``CI=true``
an unreachable PostgreSQL fails those tests instead.
"""

from __future__ import annotations

import functools
import os
import secrets
import shutil
import tempfile

import pytest
from sqlalchemy.engine import make_url

from webcalc import create_app
from webcalc.ledger import Ledger

PG_DEFAULT = "postgresql://webcalc:webcalc@127.0.0.1:5432/webcalc_test"


def pg_url() -> str:
    return os.environ.get("WEBCALC_TEST_POSTGRES_URL") or PG_DEFAULT


def _shown(url: str) -> str:
    return make_url(url).render_as_string(hide_password=True)


@functools.cache
def pg_problem() -> str | None:
    """None when PostgreSQL answers, else why not."""
    import psycopg

    try:
        psycopg.connect(pg_url(), connect_timeout=3).close()
    except Exception as err:  # noqa: BLE001 - any failure means "not reachable"
        return (str(err).strip().splitlines() or [type(err).__name__])[0]
    return None


def need_postgres() -> None:
    problem = pg_problem()
    if problem is None:
        return
    message = f"PostgreSQL not reachable at {_shown(pg_url())}: {problem}"
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true needs PostgreSQL for the ledger tests. {message}")
    pytest.skip(f"{message} (ledger tests on SQLite only)")


def pytest_terminal_summary(terminalreporter):
    if test_dbs(True) == ["sqlite"]:
        terminalreporter.write_line("ledger tests: SQLite only (WEBCALC_TEST_DBS=sqlite)")
    elif pg_problem() is None:
        terminalreporter.write_line(
            f"ledger tests: SQLite and PostgreSQL ({_shown(pg_url())})", green=True)
    else:
        terminalreporter.write_line(
            f"ledger tests: SQLite ONLY. PostgreSQL not reachable at {_shown(pg_url())} "
            f"({pg_problem()}); set WEBCALC_TEST_POSTGRES_URL to test it too.",
            yellow=True, bold=True)


def test_dbs(marked_both: bool) -> list[str]:
    """The databases a test runs on: PostgreSQL too when it is marked ``both_dbs`` and
    ``WEBCALC_TEST_DBS`` does not say ``sqlite``."""
    if not marked_both or os.environ.get("WEBCALC_TEST_DBS", "").strip() == "sqlite":
        return ["sqlite"]
    return ["sqlite", "postgresql"]


def pytest_generate_tests(metafunc):
    if "db_url" in metafunc.fixturenames:
        marked = metafunc.definition.get_closest_marker("both_dbs") is not None
        metafunc.parametrize("db_url", test_dbs(marked), indirect=True)


@functools.cache
def _sqlite_template() -> str:
    """A SQLite file migrated to head by the real migrations, once per test process."""
    from webcalc.ledger import db

    folder = tempfile.mkdtemp(prefix="webcalc-template-")
    path = f"{folder}/ledger.sqlite3"
    engine = db.make_engine(f"sqlite:///{path}")
    try:
        db.upgrade(engine)
    finally:
        engine.dispose()
    return path


def _pg_schema_at_head(url: str) -> None:
    """The ledger's tables in the (empty) schema ``url`` points at, from the models' metadata,
    stamped at the migrations' head by Alembic (as :func:`webcalc.ledger.db.upgrade` would
    leave it)."""
    from alembic import command

    from webcalc.ledger import db
    from webcalc.ledger.models import Base

    engine = db.make_engine(url)
    try:
        with engine.begin() as conn:
            Base.metadata.create_all(conn)
            command.stamp(db.alembic_config(conn), "head")
    finally:
        engine.dispose()


@pytest.fixture()
def db_url(request, tmp_path):
    """A fresh database URL, its schema at head (empty for tests marked ``empty_db``): a SQLite
    file, or a new PostgreSQL schema (dropped after)."""
    empty = request.node.get_closest_marker("empty_db") is not None
    if request.param == "sqlite":
        path = tmp_path / "ledger.sqlite3"
        if not empty:
            shutil.copyfile(_sqlite_template(), path)
        yield f"sqlite:///{path}"
        return
    need_postgres()
    import psycopg

    schema = f"t_{secrets.token_hex(6)}"
    with psycopg.connect(pg_url(), autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    url = make_url(pg_url()).update_query_dict({"options": f"-csearch_path={schema}"})
    shown = url.render_as_string(hide_password=False)
    if not empty:
        _pg_schema_at_head(shown)
    yield shown
    with psycopg.connect(pg_url(), autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture()
def ledger(db_url):
    made = Ledger(db_url, migrate_lazily=True)
    yield made
    made.dispose()


@pytest.fixture()
def make_app(db_url):
    """``make_app(**config)``: the Flask app on this test's database."""
    apps = []

    def make(**config):
        app = create_app({"TESTING": True, "DATABASE_URL": db_url, **config})
        apps.append(app)
        return app
    yield make
    for app in apps:
        app.extensions["ledger"].dispose()


@pytest.fixture()
def api(make_app):
    return make_app().test_client()


@pytest.fixture()
def server(make_app):
    """The app on this test's database, served by werkzeug in a thread (for the browser):
    ``(base URL, app)``."""
    from tests.browsers import served

    app = make_app()
    with served(app) as base:
        yield base, app
