"""Ledger fixtures: every ledger test runs on SQLite and on a real PostgreSQL.

PostgreSQL is ``WEBCALC_TEST_POSTGRES_URL``, else the local default :data:`PG_DEFAULT` (the
role and database ``.ci/run`` creates). Each test gets a fresh schema there (dropped after),
and a fresh SQLite file in its ``tmp_path``. When PostgreSQL cannot be reached the
PostgreSQL half is skipped and the run ends with a plain line saying the ledger tests ran on
SQLite only; under ``CI=true`` an unreachable PostgreSQL fails those tests instead.
"""

from __future__ import annotations

import functools
import os
import secrets

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
    if pg_problem() is None:
        terminalreporter.write_line(
            f"ledger tests: SQLite and PostgreSQL ({_shown(pg_url())})", green=True)
    else:
        terminalreporter.write_line(
            f"ledger tests: SQLite ONLY. PostgreSQL not reachable at {_shown(pg_url())} "
            f"({pg_problem()}); set WEBCALC_TEST_POSTGRES_URL to test it too.",
            yellow=True, bold=True)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    """A fresh, empty database URL: a SQLite file, or a new PostgreSQL schema."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path}/ledger.sqlite3"
        return
    need_postgres()
    import psycopg

    schema = f"t_{secrets.token_hex(6)}"
    with psycopg.connect(pg_url(), autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    url = make_url(pg_url()).update_query_dict({"options": f"-csearch_path={schema}"})
    yield url.render_as_string(hide_password=False)
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
    import threading

    from werkzeug.serving import make_server

    app = make_app()
    srv = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{srv.server_port}", app
    finally:
        srv.shutdown()
        thread.join(timeout=5)
