"""The app migrates the ledger at start-up in a child process: the database is
at head afterwards, the server's own process never loads Alembic, and psycopg only when the
database is PostgreSQL."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from webcalc.ledger import db

pytestmark = [pytest.mark.both_dbs, pytest.mark.empty_db]

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, sys
from webcalc import create_app
app = create_app({"SECRET_KEY": "x"})
made = app.test_client().post("/api/v1/tables", json={"variant": "zhengzhou"})
print(json.dumps({"status": made.status_code,
                  "loaded": sorted(m for m in ("alembic", "mako", "psycopg") if m in sys.modules)}))
"""


def test_create_app_migrates_in_a_child_and_never_loads_alembic(db_url, tmp_path):
    env = {**os.environ, "DATABASE_URL": db_url}
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    loaded = ["psycopg"] if db_url.startswith("postgresql") else []
    assert json.loads(out.stdout.splitlines()[-1]) == {"status": 201, "loaded": loaded}
    engine = db.make_engine(db_url)
    try:
        assert db.current_revision(engine) == db.head_revision()
    finally:
        engine.dispose()


def test_a_failed_migration_child_is_reported_with_its_error(tmp_path):
    engine = db.make_engine(f"sqlite:///{tmp_path}/ledger.sqlite3")
    (tmp_path / "ledger.sqlite3").write_bytes(b"not a database" * 100)
    try:
        with pytest.raises(RuntimeError, match="file is not a database"):
            db.upgrade_in_subprocess(engine)
    finally:
        engine.dispose()
