"""Real gunicorn workers: they migrate a fresh database together on start-up, an
acknowledged hand survives ``kill -9`` of the workers right after the answer (and of the
master), and the access log never shows a token."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from webcalc.ledger import Ledger

pytestmark = [pytest.mark.both_dbs, pytest.mark.empty_db, pytest.mark.serial, pytest.mark.server]

ROOT = Path(__file__).resolve().parents[2]
WIN = {"hand": "123m456p789s11122z", "winning_tile": "2z", "win_by": "self_draw",
       "settlement": {"winner": 1}}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _call(base: str, method: str, path: str, body=None) -> tuple[int, dict]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def _workers(master: int) -> list[int]:
    path = Path(f"/proc/{master}/task/{master}/children")
    return [int(p) for p in path.read_text().split()] if path.exists() else []


def _wait_until(check, seconds: float = 60.0):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            out = check()
            if out:
                return out
        except OSError:
            pass
        time.sleep(0.1)
    raise AssertionError("timed out")


@pytest.fixture()
def server(db_url, tmp_path):
    port = _free_port()
    log = open(tmp_path / "gunicorn.log", "w+b")
    env = {**os.environ, "BIND": f"127.0.0.1:{port}", "WEB_CONCURRENCY": "2",
           "DATABASE_URL": db_url, "WEBCALC_SECRET_KEY": "test-durability"}
    proc = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py",
                             "webcalc:create_app()"], cwd=ROOT, env=env, stdout=log,
                            stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_until(lambda: len(_workers(proc.pid)) == 2 and
                    urllib.request.urlopen(base + "/healthz", timeout=2).status == 200)
        yield proc, base, log
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        for pid in _workers(proc.pid):
            os.kill(pid, signal.SIGKILL)
        log.close()


def test_an_acknowledged_hand_survives_kill_9(server, db_url):
    proc, base, log = server
    status, made = _call(base, "POST", "/api/v1/tables", {"variant": "zhengzhou"})
    assert status == 201
    edit, view = made["edit_token"], made["view_token"]
    status, out = _call(base, "POST", f"/api/v1/tables/{edit}/hands", WIN)
    assert status == 201
    for pid in _workers(proc.pid):                 # right after the answer: no clean exit
        os.kill(pid, signal.SIGKILL)
    status, t = _wait_until(lambda: _call(base, "GET", f"/api/v1/tables/{view}"))
    assert status == 200 and [h["number"] for h in t["hands"]] == [1]
    assert t["totals"] == [-1, 3, -1, -1]

    status, _ = _call(base, "POST", f"/api/v1/tables/{edit}/hands", {**WIN, "expected_number": 2})
    assert status == 201
    workers = _workers(proc.pid)
    os.kill(proc.pid, signal.SIGKILL)              # the whole server, master included
    for pid in workers:
        os.kill(pid, signal.SIGKILL)
    proc.wait()
    fresh = Ledger(db_url)
    try:
        t = fresh.table(view)
    finally:
        fresh.dispose()
    assert [h["number"] for h in t["hands"]] == [1, 2]

    log.seek(0)
    access = log.read().decode("utf-8", "replace")
    assert '"GET /api/v1/tables/[redacted] HTTP/1.1" 200' in access
    assert edit not in access and view not in access


def test_the_access_log_hides_encoded_and_repeated_tokens(server):
    """A token percent-encoded in the path (``%55`` for ``U``) opens the table, and was
    logged as sent; so were ``/t%2F<token>``, a repeated ``table=`` and ``tab%6Ce=``."""
    from urllib.parse import unquote

    proc, base, log = server
    status, made = _call(base, "POST", "/api/v1/tables", {"variant": "zhengzhou"})
    assert status == 201
    edit, view = made["edit_token"], made["view_token"]
    one = edit[:5] + f"%{ord(edit[5]):02X}" + edit[6:]
    every = "".join(f"%{ord(c):02x}" for c in view)
    for path in (f"/api/v1/tables/{one}", f"/api/v1/tables/{every}", f"/t/{one}",
                 f"/t%2F{view}"):
        with urllib.request.urlopen(base + path, timeout=10) as r:
            assert r.status == 200, path
    link = f"http%3A%2F%2F127.0.0.1%2Ft%2F{edit}"
    for query in (f"table={view}&table={link}", f"hand=1m&tab%6Ce={link}&%74able={one}"):
        req = urllib.request.Request(base + "/t/send?" + query)
        try:
            urllib.request.urlopen(req, timeout=10).close()
        except urllib.error.HTTPError:
            pass                                  # the redirect or the page: either is logged
    time.sleep(0.5)                               # the access log is written after the answer
    log.seek(0)
    access = log.read().decode("utf-8", "replace")
    assert access.count("[redacted]") >= 8, access
    for text in (access, unquote(access), unquote(unquote(access))):
        assert edit not in text and view not in text
    assert one not in access and every not in access.lower()
