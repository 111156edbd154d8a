"""What the ledger's two caches buy (issue 37.2, "Machinery earns its keep or goes"):
``python bench/ledger_caches.py [--repeats 15] [--polls 40]``. Prints a Markdown report.

An A/B in one interleaved run, through the whole Flask app in-process (WSGI calls, no test
client), CPU time of this process (:func:`time.process_time`) per request, medians:

* **the snapshot cache** (``webcalc/ledger/snapshots.py``, ``LEDGER_CACHE_HANDS``): two apps
  on one database, one with the default cache and one with ``LEDGER_CACHE_HANDS=0`` (every
  read decodes every row and writes every entry's JSON). Each repeat, a third app (another
  worker) records one freshly generated entry on tables of 50 and 200 entries; then both apps,
  in random order, read each table as a client does after a write: ``GET /api/v1/tables/<view>``
  (the JSON, 200) and ``GET /t/<view>/live`` (the page's poll, 200: the new version). Each app
  also records a fresh entry on a table of its own of the same size (``POST …/hands``,
  answered with the whole table). SQLite and PostgreSQL.
* **the versions cache** (``webcalc/ledger/versions.py``, PostgreSQL only): two apps on one
  database, one with the LISTEN/NOTIFY versions and one without (``ledger._versions = None``:
  every probe asks the database). Each repeat, the third app records a fresh entry on a
  50-entry table; each app reads the new ETag (not timed), then both answer ``--polls`` polls
  of it each, alternating: ``GET /t/<view>/live`` and ``GET /api/v1/tables/<view>`` with
  ``If-None-Match`` (304). Besides this process's CPU, the PostgreSQL server processes of
  each app's probe and listening connections are read from ``/proc/<pid>/stat`` (user +
  system ticks) before and after: the database's CPU per poll.

The machine may be loaded: the arms are interleaved request by request, so load falls on both
alike; medians of every request. Python stdlib + the project only; PostgreSQL as
bench/ledger.py finds it (a fresh schema, dropped after).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))

from ledger import machine, on_postgres, random_entry  # noqa: E402
from werkzeug.test import EnvironBuilder  # noqa: E402

from webcalc import create_app  # noqa: E402

SIZES = (50, 200)


def _config(url: str, **extra) -> dict:
    return {"SECRET_KEY": "bench", "DATABASE_URL": url, "LEDGER_HANDS_MAX": 100000,
            "LEDGER_TABLES_PER_HOUR": 0, **extra}


def _call(app, method: str, path: str, body=None, headers=None) -> tuple[int, float]:
    """One request through ``app``'s WSGI callable: (status, this process's CPU seconds)."""
    environ = EnvironBuilder(path=path, method=method, json=body, headers=headers).get_environ()
    got = []

    def start(status, _headers, _exc=None):
        got.append(int(status.split()[0]))

    c0 = time.process_time()
    out = app.wsgi_app(environ, start)
    for _chunk in out:
        pass
    if hasattr(out, "close"):
        out.close()
    return got[0], time.process_time() - c0


def _table(client, rng: random.Random, entries: int) -> tuple[str, str]:
    """A 郑州 table of ``entries`` fresh entries: (edit token, view token)."""
    made = client.post("/api/v1/tables", json={"variant": "zhengzhou",
                                               "options": {"seven_pairs_double": True}}).json
    for _ in range(entries):
        r = client.post(f"/api/v1/tables/{made['edit_token']}/hands", json=random_entry(rng))
        assert r.status_code == 201, r.json
    return made["edit_token"], made["view_token"]


def _copy(client, edit: str) -> tuple[str, str]:
    """Another table holding the same entries (an import of ``edit``'s export)."""
    doc = client.get(f"/api/v1/tables/{edit}/export").json
    r = client.post("/api/v1/tables/import", json=doc)
    assert r.status_code == 201, r.json
    return r.json["edit_token"], r.json["view_token"]


def _ticks(pids) -> int:
    """User + system clock ticks of these (PostgreSQL server) processes so far."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total


def _backends(ledger) -> set[int]:
    """The server processes of ``ledger``'s probe and listening connections."""
    pids = {c.info.backend_pid for c in ledger._probes}
    versions = getattr(ledger, "_versions", None)
    if versions is not None and versions.conn is not None:
        pids.add(versions.conn.info.backend_pid)
    return pids


def snapshots(url: str, repeats: int, seed: int) -> dict:
    """The snapshot cache on vs off (module docstring): CPU seconds per request, by path."""
    rng = random.Random(seed)
    on, off = create_app(_config(url)), create_app(_config(url, LEDGER_CACHE_HANDS=0))
    writer = create_app(_config(url))
    arms = {"on": on, "off": off}
    cpu: dict = {}
    try:
        w = writer.test_client()
        shared = {n: _table(w, rng, n) for n in SIZES}
        own = {(arm, n): _copy(w, shared[n][0]) for arm in arms for n in SIZES}
        for app in (on, off):                         # warm: templates, the engine, a first read
            for n in SIZES:
                _call(app, "GET", f"/api/v1/tables/{shared[n][1]}")
        for _ in range(repeats):
            for n in SIZES:
                r = w.post(f"/api/v1/tables/{shared[n][0]}/hands", json=random_entry(rng))
                assert r.status_code == 201, r.json
            body = random_entry(rng)
            work = [(n, path) for n in SIZES for path in ("api", "live", "record")]
            rng.shuffle(work)
            for n, path in work:
                order = list(arms)
                rng.shuffle(order)
                for arm in order:
                    if path == "api":
                        status, c = _call(arms[arm], "GET", f"/api/v1/tables/{shared[n][1]}")
                    elif path == "live":
                        status, c = _call(arms[arm], "GET", f"/t/{shared[n][1]}/live")
                    else:
                        status, c = _call(arms[arm], "POST",
                                          f"/api/v1/tables/{own[(arm, n)][0]}/hands", body)
                    assert status in (200, 201), (arm, n, path, status)
                    cpu.setdefault((path, n, arm), []).append(c)
    finally:
        for app in (on, off, writer):
            app.extensions["ledger"].dispose()
    return cpu


def versions(url: str, repeats: int, polls: int, seed: int) -> tuple[dict, dict]:
    """The versions cache on vs off (module docstring): this process's CPU seconds per poll,
    and the database's (ticks of its server processes, per poll) by arm."""
    rng = random.Random(seed)
    on, off = create_app(_config(url)), create_app(_config(url))
    off.extensions["ledger"]._versions = None
    writer = create_app(_config(url))
    arms = {"on": on, "off": off}
    cpu: dict = {}
    server = {arm: 0 for arm in arms}
    count = {arm: 0 for arm in arms}
    try:
        w = writer.test_client()
        edit, view = _table(w, rng, 50)
        paths = {"live": f"/t/{view}/live", "api": f"/api/v1/tables/{view}"}
        for _ in range(repeats):
            r = w.post(f"/api/v1/tables/{edit}/hands", json=random_entry(rng))
            assert r.status_code == 201, r.json
            etags = {}
            for arm, app in arms.items():
                client = app.test_client()
                for path, p in paths.items():
                    etags[(arm, path)] = client.get(p).headers["ETag"]
                for path, p in paths.items():          # the probe connection open, not timed
                    _call(app, "GET", p, headers={"If-None-Match": etags[(arm, path)]})
            pids = {arm: _backends(app.extensions["ledger"]) for arm, app in arms.items()}
            before = {arm: _ticks(pids[arm]) for arm in arms}
            for i in range(polls):
                order = list(arms) if i % 2 == 0 else list(reversed(arms))
                for arm in order:
                    for path, p in paths.items():
                        status, c = _call(arms[arm], "GET", p,
                                          headers={"If-None-Match": etags[(arm, path)]})
                        assert status == 304, (arm, path, status)
                        cpu.setdefault((path, arm), []).append(c)
            for arm in arms:
                server[arm] += _ticks(pids[arm]) - before[arm]
                count[arm] += polls * len(paths)
    finally:
        for app in (on, off, writer):
            app.extensions["ledger"].dispose()
    tick = 1 / os.sysconf("SC_CLK_TCK")
    return cpu, {arm: server[arm] * tick / count[arm] for arm in arms}


def _ms(xs: list[float]) -> float:
    return statistics.median(xs) * 1000


def _row(name: str, on: list[float], off: list[float]) -> str:
    a, b = _ms(on), _ms(off)
    return (f"| {name} | {a:.2f} | {b:.2f} | {(b - a) / b * 100:.0f} % | "
            f"{len(on)} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--polls", type=int, default=40)
    parser.add_argument("--seed", type=int, default=37)
    args = parser.parse_args()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                            capture_output=True, text=True).stdout.strip()
    load = os.getloadavg()
    notes: list[str] = []
    out = [f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, commit {commit}, "
           f"`python bench/ledger_caches.py --repeats {args.repeats} --polls {args.polls}`, "
           f"{machine()}, load {load[0]:.1f}",
           "",
           "Snapshot cache: CPU ms per request (this process), median, cache on vs off "
           "(`LEDGER_CACHE_HANDS=0`); \"saves\": the share of the path's CPU off that the "
           "cache saves.",
           ""]
    with tempfile.TemporaryDirectory() as tmp:
        results = {"SQLite": snapshots(f"sqlite:///{tmp}/caches.sqlite3", args.repeats,
                                       args.seed)}
    pg = on_postgres(lambda url: snapshots(url, args.repeats, args.seed), notes)
    if pg is not None:
        results[f"PostgreSQL {pg[0]}"] = pg[1]
    out += ["| database, path, entries | on | off | saves | n |", "|---|---|---|---|---|"]
    names = {"api": "GET /api/v1/tables/<view> (200)", "live": "GET /t/<view>/live (200)",
             "record": "POST …/hands (201)"}
    for db, cpu in results.items():
        for path in ("api", "live", "record"):
            for n in SIZES:
                out.append(_row(f"{db}, {names[path]}, {n}", cpu[(path, n, "on")],
                                cpu[(path, n, "off")]))
    vs = on_postgres(lambda url: versions(url, args.repeats, args.polls, args.seed), notes)
    if vs is not None:
        cpu, server = vs[1]
        out += ["", f"Versions cache (PostgreSQL {vs[0]}): CPU ms per poll answered 304, "
                "median, LISTEN/NOTIFY versions on vs off (every probe a query).", "",
                "| path | on | off | saves | n |", "|---|---|---|---|---|"]
        for path, name in (("live", "GET /t/<view>/live (304)"),
                           ("api", "GET /api/v1/tables/<view> (304)")):
            out.append(_row(name, cpu[(path, "on")], cpu[(path, "off")]))
        out += ["", "PostgreSQL server CPU per poll (its processes for the app's probe and "
                f"listening connections, /proc ticks): on {server['on'] * 1000:.3f} ms, "
                f"off {server['off'] * 1000:.3f} ms."]
    out += [f"- {n}" for n in notes]
    print("\n".join(out))


if __name__ == "__main__":
    main()
