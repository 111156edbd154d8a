"""Ledger soak (issue 12): ``make soak-ledger`` → bench/RESULTS.md, "## Ledger soak (issue 12)".

For each database in turn — SQLite (the default file name ``ledger.sqlite3`` in a fresh
temporary instance folder, WAL, every commit fsynced) and PostgreSQL (``WEBCALC_BENCH_POSTGRES_URL``,
else ``WEBCALC_TEST_POSTGRES_URL``, else the tests' local default; a fresh schema, dropped
after) — starts gunicorn with ``gunicorn.conf.py`` on a free port of 127.0.0.1 with 2 sync
workers (``max_requests`` off) and for a fixed time (default 60 s) keeps client threads busy
with a mix of ledger reads and writes:

* ``POST /api/v1/tables`` — a new table (each thread opens its own; a new one after 150 entries),
* ``POST /api/v1/tables/<edit>/hands`` — a fresh entry (bench/ledger.py's generator: 郑州 wins
  with tiles never sent before, 荒庄, declared wins, adjustments) with a new
  ``idempotency_key`` and the right ``expected_number`` (201); now and then the same request
  again (the idempotent repeat: 200, nothing written),
* ``GET /api/v1/tables/<view>`` of any thread's table, with the ``ETag`` last seen (200 or 304),
* ``GET /t/<view>`` and ``GET /t/<edit>`` — the table page (HTML),
* ``GET /t/<view>/live`` with ``If-None-Match`` (the polling: 200 or 304).

Any other status, a connection failure or a traceback in the server's log is an error. Reports
requests, errors, p50/p99/max per kind and overall, and each worker's RSS at the start,
middle and end. Python stdlib + the project only; the server is stopped whatever happens.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import secrets
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from ledger import on_postgres, random_entry  # noqa: E402
from soak import (  # noqa: E402
    HOST,
    children,
    cpu_seconds,
    free_port,
    loadavg,
    machine,
    percentile,
    rss_mb,
    stop_server,
    wait_ready,
    write_section,
)

TABLE_ENTRIES = 150
MIX = (("record", 0.36), ("repeat", 0.04), ("read", 0.25), ("view_page", 0.12),
       ("edit_page", 0.08), ("live", 0.15))


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.latencies: dict[str, list[float]] = {}
        self.statuses: dict[int, int] = {}
        self.errors: dict[str, int] = {}

    def add(self, kind: str, latency: float, status: int | None, error: str | None):
        with self.lock:
            self.latencies.setdefault(kind, []).append(latency)
            if status is not None:
                self.statuses[status] = self.statuses.get(status, 0) + 1
            if error:
                self.errors[error] = self.errors.get(error, 0) + 1

    def count(self) -> int:
        with self.lock:
            return sum(len(v) for v in self.latencies.values())


class Shared:
    """Every thread's tables (view token → last ETag seen), for the reads."""

    def __init__(self):
        self.lock = threading.Lock()
        self.views: list[str] = []
        self.edits: list[str] = []

    def add(self, edit: str, view: str):
        with self.lock:
            self.edits.append(edit)
            self.views.append(view)

    def pick(self, rng: random.Random) -> tuple[str, str]:
        with self.lock:
            i = rng.randrange(len(self.views))
            return self.edits[i], self.views[i]


def call(port: int, method: str, path: str, body=None, headers=None):
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    try:
        data = json.dumps(body, ensure_ascii=False).encode() if body is not None else None
        hdrs = dict(headers or {})
        if data is not None:
            hdrs["Content-Type"] = "application/json"
        conn.request(method, path, body=data, headers=hdrs)
        resp = conn.getresponse()
        raw = resp.read()
        return resp.status, resp.getheader("ETag"), raw
    finally:
        conn.close()


def worker(n: int, port: int, stop: threading.Event, stats: Stats, shared: Shared, seed: int):
    rng = random.Random(seed * 1000 + n)
    etags: dict[str, str] = {}
    edit = view = None
    number = 0
    last_body = None

    def timed(kind, method, path, expected, body=None, headers=None):
        t0 = time.perf_counter()
        status, etag, raw, error = None, None, b"", None
        try:
            status, etag, raw = call(port, method, path, body, headers)
            if status not in expected:
                error = f"{kind}: {method} {path.split('/')[1]}… → {status} {raw[:120]!r}"
        except (OSError, http.client.HTTPException) as exc:
            error = f"{kind}: {type(exc).__name__}: {exc}"
        stats.add(kind, time.perf_counter() - t0, status, error)
        return status, etag, raw

    while not stop.is_set():
        if edit is None or number >= TABLE_ENTRIES:
            status, _, raw = timed("create", "POST", "/api/v1/tables", {201},
                                   {"variant": "zhengzhou", "options": {"seven_pairs_double": True},
                                    "names": [f"甲{n}", f"乙{n}", f"丙{n}", f"丁{n}"]})
            if status != 201:
                time.sleep(0.2)
                continue
            made = json.loads(raw)
            edit, view, number, last_body = made["edit_token"], made["view_token"], 0, None
            shared.add(edit, view)
            continue
        roll, kind = rng.random(), MIX[-1][0]
        for k, share in MIX:
            if roll < share:
                kind = k
                break
            roll -= share
        if kind == "repeat" and last_body is None:
            kind = "record"
        if kind == "record":
            last_body = {**random_entry(rng), "expected_number": number + 1,
                         "idempotency_key": secrets.token_hex(8)}
            status, _, _ = timed("record", "POST", f"/api/v1/tables/{edit}/hands", {201},
                                 last_body)
            if status == 201:
                number += 1
        elif kind == "repeat":
            timed("repeat", "POST", f"/api/v1/tables/{edit}/hands", {200}, last_body)
        elif kind == "read":
            _, v = shared.pick(rng)
            hdrs = {"If-None-Match": etags[v]} if v in etags else {}
            status, etag, _ = timed("read", "GET", f"/api/v1/tables/{v}", {200, 304},
                                    headers=hdrs)
            if etag:
                etags[v] = etag
        elif kind == "view_page":
            _, v = shared.pick(rng)
            timed("view_page", "GET", f"/t/{v}", {200})
        elif kind == "edit_page":
            timed("edit_page", "GET", f"/t/{edit}", {200})
        else:
            _, v = shared.pick(rng)
            key = "live:" + v
            hdrs = {"If-None-Match": etags[key]} if key in etags else {}
            status, etag, _ = timed("live", "GET", f"/t/{v}/live", {200, 304}, headers=hdrs)
            if etag:
                etags[key] = etag


def soak(database_url: str, seconds: float, concurrency: int, seed: int) -> dict:
    port = free_port()
    cmd = [str(Path(sys.executable).with_name("gunicorn")), "-c", str(ROOT / "gunicorn.conf.py"),
           "--workers", "2", "--bind", f"{HOST}:{port}", "--max-requests", "0",
           "webcalc:create_app()"]
    env = {**os.environ, "WEBCALC_SECRET_KEY": "soak-" + os.urandom(8).hex(),
           "DATABASE_URL": database_url, "LEDGER_TABLES_PER_HOUR": "0"}
    env.pop("BIND", None)
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        wait_ready(port, proc, timeout=60)
        load_before = loadavg()
        stats, shared, stop = Stats(), Shared(), threading.Event()
        threads = [threading.Thread(target=worker, args=(i, port, stop, stats, shared, seed),
                                    daemon=True) for i in range(concurrency)]
        t0 = time.monotonic()
        for t in threads:
            t.start()
        time.sleep(1.0)
        workers = children(proc.pid)
        rss = {"start": {w: rss_mb(w) for w in workers}}
        cpu_start, n_start = sum(cpu_seconds(w) for w in workers), stats.count()
        time.sleep(max(0.0, seconds / 2 - (time.monotonic() - t0)))
        rss["middle"] = {w: rss_mb(w) for w in workers}
        time.sleep(max(0.0, seconds - (time.monotonic() - t0)))
        rss["end"] = {w: rss_mb(w) for w in workers}
        cpu_ms = ((sum(cpu_seconds(w) for w in workers) - cpu_start)
                  / max(1, stats.count() - n_start) * 1000)
        load_after = loadavg()
        stop.set()
        for t in threads:
            t.join(timeout=35)
        elapsed = time.monotonic() - t0
        after = children(proc.pid)
    finally:
        stderr = stop_server(proc)
    return {"stats": stats, "seconds": elapsed, "workers": workers, "after": after, "rss": rss,
            "cpu_ms": cpu_ms, "load": (load_before, load_after), "tables": len(shared.views),
            "tracebacks": stderr.count("Traceback"), "stderr": stderr}


def report(results: dict, args, notes: list[str]) -> str:
    info = machine()
    lines = ["## Ledger soak (issue 12)", "",
             "`make soak-ledger` (bench/ledger_soak.py, "
             f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}): "
             f"gunicorn with `gunicorn.conf.py` on 127.0.0.1, 2 sync workers (`max_requests` "
             f"off), {args.concurrency} client threads in one process on the same machine, one "
             f"connection per request, {args.seconds:.0f} s per database. Mix: "
             + ", ".join(f"{k} {share:.0%}" for k, share in MIX)
             + " — record = a fresh entry (new tiles, new `idempotency_key`, right "
             "`expected_number`: 201), repeat = the last record again (200, nothing written), "
             "read = `GET /api/v1/tables/<view>` of any table with its last ETag (200/304), "
             "view/edit page = `GET /t/<token>` (HTML), live = the page's polling with ETag "
             f"(200/304); a thread opens a new table after {TABLE_ENTRIES} entries. SQLite: "
             "`ledger.sqlite3` in a fresh temporary instance folder (WAL, synchronous=FULL).", "",
             f"Machine: {info['nproc']} CPUs ({info['cpu']}), Linux {info['kernel']}, Python "
             f"{info['python']}, {info['gunicorn']}. Client and server share the CPUs, and other "
             "helpers' test runs were using them too (load average below), so these are "
             "floors, not capacity.", "",
             "| database | requests | req/s | errors | tracebacks | p50 | p99 | max | server CPU/req "
             "| tables | load avg before → after |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for name, r in results.items():
        lat = sorted(x for v in r["stats"].latencies.values() for x in v)
        errors = sum(r["stats"].errors.values())
        lines.append(
            f"| {name} | {len(lat):,} | {len(lat) / r['seconds']:.0f} | {errors} | "
            f"{r['tracebacks']} | {percentile(lat, .5) * 1000:.1f} | "
            f"{percentile(lat, .99) * 1000:.1f} | {lat[-1] * 1000:.1f} | {r['cpu_ms']:.1f} | "
            f"{r['tables']} | {r['load'][0]} → {r['load'][1]} |")
    lines += ["", "Per kind (ms):", "", "| database | kind | requests | p50 | p99 | max |",
              "|---|---|---:|---:|---:|---:|"]
    for name, r in results.items():
        for kind, _ in (("create", 0),) + MIX:
            xs = sorted(r["stats"].latencies.get(kind, []))
            if xs:
                lines.append(f"| {name} | {kind} | {len(xs):,} | {percentile(xs, .5) * 1000:.1f} "
                             f"| {percentile(xs, .99) * 1000:.1f} | {xs[-1] * 1000:.1f} |")
    lines += ["", "RSS per worker (MB, VmRSS):", "",
              "| database | worker | start (1 s) | middle | end | end − start |",
              "|---|---|---:|---:|---:|---:|"]
    for name, r in results.items():
        for i, w in enumerate(r["workers"]):
            s, m, e = (r["rss"][k].get(w) for k in ("start", "middle", "end"))
            f = lambda x: f"{x:.1f}" if x is not None else "—"  # noqa: E731
            d = f"{e - s:+.1f}" if s is not None and e is not None else "—"
            lines.append(f"| {name} | {i + 1} | {f(s)} | {f(m)} | {f(e)} | {d} |")
    for name, r in results.items():
        st = ", ".join(f"{k}: {v:,}" for k, v in sorted(r["stats"].statuses.items()))
        lines += ["", f"{name} statuses: {st}."]
        if r["stats"].errors:
            lines += [""] + [f"- error: {k} ×{v}" for k, v in r["stats"].errors.items()]
    total = sum(sum(r["stats"].errors.values()) + r["tracebacks"] for r in results.values())
    lines += ["", f"Target (issue 12): 0 errors on 2 workers: **{'met' if total == 0 else 'MISSED'}**."]
    lines += [""] + [f"- {n}" for n in notes]
    return "\n".join(lines).rstrip() + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--concurrency", type=int, default=4)
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--no-postgres", action="store_true")
    ap.add_argument("--out", default=str(ROOT / "bench" / "RESULTS.md"))
    args = ap.parse_args()
    args.seconds = max(5.0, min(args.seconds, 600.0))
    results, notes = {}, []
    with tempfile.TemporaryDirectory() as tmp:
        instance = Path(tmp) / "instance"
        instance.mkdir()
        results["SQLite"] = soak(f"sqlite:///{instance / 'ledger.sqlite3'}", args.seconds,
                                 args.concurrency, args.seed)
    if not args.no_postgres:
        pg = on_postgres(lambda url: soak(url, args.seconds, args.concurrency, args.seed + 1),
                         notes)
        if pg is not None:
            results[f"PostgreSQL {pg[0].split()[0]}"] = pg[1]
    text = report(results, args, notes)
    print(text)
    for name, r in results.items():
        if r["tracebacks"]:
            print(f"--- {name} server log ---\n{r['stderr'][-4000:]}", file=sys.stderr)
    write_section(Path(args.out), text, "## Ledger soak (issue 12)")
    bad = any(r["stats"].errors or r["tracebacks"] or set(r["workers"]) != set(r["after"])
              for r in results.values())
    if bad:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
