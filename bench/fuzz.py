"""The fuzz runner: ``make fuzz`` → bench/RESULTS.md, "## Fuzz (issue 20)".

Sends ``--requests`` (default 100,000) seeded hostile requests per database through the whole
Flask app (the test client: every request is parsed, routed, validated, computed, stored and
answered as under gunicorn, without the sockets) with the fuzzer of tests/ledger/fuzzing.py,
which the test suite runs a few thousand times. The mix (requests, the invariants' reads
included): about 70 % the ledger (its JSON API: create, record, correct, void, adjust,
import, read; its forms; ``/api/v1/analyze``) and 30 % the rest: circles (牌友圈: the JSON
API, tables in a circle, re-imports of real exports, the ``/c/`` pages and forms), the hand
review (``POST /api/v1/review`` with legal logs of every rule set, the ``/review`` page and
its taps), the daily 何切 (``GET /api/v1/quiz``, ``/quiz``) and the 三门峡 history (表:
analysed, recorded and corrected at a table, the entry form, the calculator page). Valid
bodies are sent as they are or mutated with lone surrogates, NUL, control characters, huge
integers, extreme floats, deep nesting and wrong types; every 40 steps each live table is
read, exported and imported again, and one live circle read, its export imported again with
the same standings. Counts the statuses and each area's requests, and fails (exit status 1)
on any 500 or any answer that breaks the rules (tests/ledger/fuzzing.py ``check``).

SQLite is a fresh file; PostgreSQL is ``WEBCALC_BENCH_POSTGRES_URL``, else
``WEBCALC_TEST_POSTGRES_URL``, else the tests' local default, in a fresh schema dropped after.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))

from ledger import PG_DEFAULT, drop_schema, machine, pg_schema_url  # noqa: E402
from soak import write_section  # noqa: E402

from tests.ledger.fuzzing import MIX, Fuzzer  # noqa: E402
from webcalc import create_app  # noqa: E402

HEAD = "## Fuzz (issue 20)"


def run(url: str, requests: int, seed: int, label: str) -> dict:
    app = create_app({"SECRET_KEY": "fuzz", "DATABASE_URL": url, "WTF_CSRF_ENABLED": False,
                      "LEDGER_TABLES_PER_HOUR": 0, "PROPAGATE_EXCEPTIONS": False})
    logging.getLogger(app.name).setLevel(logging.CRITICAL)   # failures are collected below
    fuzzer = Fuzzer(app.test_client(), random.Random(seed))
    t0, c0 = time.perf_counter(), time.process_time()
    step = max(requests // 20, 1)
    report = [step]

    def progress(n: int) -> None:
        if n >= report[0]:
            report[0] += step
            print(f"  {label}: {n:,} requests, {time.perf_counter() - t0:.0f} s, "
                  f"500s {fuzzer.statuses[500]}, failures {len(fuzzer.failures)}", flush=True)
    try:
        fuzzer.run(requests, progress)
    finally:
        app.extensions["ledger"].dispose()
    return {"requests": fuzzer.requests, "statuses": dict(sorted(fuzzer.statuses.items())),
            "areas": dict(fuzzer.areas),
            "seconds": time.perf_counter() - t0, "cpu": time.process_time() - c0,
            "failures": fuzzer.failures, "seed": seed}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=100_000, help="per database")
    ap.add_argument("--seed", type=int, default=2020)
    ap.add_argument("--db", choices=("sqlite", "postgresql", "both"), default="both")
    ap.add_argument("--out", default=str(ROOT / "bench" / "RESULTS.md"))
    ap.add_argument("--failures", default=None,
                    help="write every failing request here (JSON), when there are any")
    args = ap.parse_args()
    results, notes = {}, []
    load_before = os.getloadavg()[0]
    if args.db in ("sqlite", "both"):
        with tempfile.TemporaryDirectory() as tmp:
            results["SQLite"] = run(f"sqlite:///{tmp}/ledger.sqlite3", args.requests,
                                    args.seed, "SQLite")
    if args.db in ("postgresql", "both"):
        base = (os.environ.get("WEBCALC_BENCH_POSTGRES_URL")
                or os.environ.get("WEBCALC_TEST_POSTGRES_URL") or PG_DEFAULT)
        try:
            url, schema, version = pg_schema_url(base)
        except Exception as err:  # noqa: BLE001
            notes.append(f"PostgreSQL not reachable ({str(err).splitlines()[0]}): not fuzzed.")
        else:
            try:
                results[f"PostgreSQL {version.split()[0]}"] = run(
                    url, args.requests, args.seed + 1, "PostgreSQL")
            finally:
                drop_schema(base, schema)
    codes = sorted({s for r in results.values() for s in r["statuses"]})
    lines = [HEAD, "",
             f"`make fuzz` ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {machine()}; "
             f"load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after): "
             f"{args.requests:,} seeded requests per database through the whole app "
             "(bench/fuzz.py with the fuzzer of tests/ledger/fuzzing.py: the ledger's API "
             "and forms and /api/v1/analyze, circles (API and pages), the hand review (API "
             "and page), the daily quiz (API and page) and the 三门峡 history (analyze, ledger, "
             "forms), bodies valid or mutated with lone surrogates, NUL, control "
             "characters, integers past 2^63, 1e-300, 5e-324, 1.8e308, nesting to 400 levels and "
             "wrong types; each live table read, exported and imported again every 40 "
             "steps, and a live circle read and imported again). Requests counted include "
             "those reads.", "",
             "| database | seed | requests | " + " | ".join(str(c) for c in codes)
             + " | 500s | rule breaks | time | requests/s |",
             "|---|---|---|" + "---|" * len(codes) + "---|---|---|---|"]
    for name, r in results.items():
        lines.append(f"| {name} | {r['seed']} | {r['requests']:,} | "
                     + " | ".join(f"{r['statuses'].get(c, 0):,}" for c in codes)
                     + f" | **{r['statuses'].get(500, 0)}** | {len(r['failures'])} | "
                     f"{r['seconds'] / 60:.1f} min | {r['requests'] / r['seconds']:.0f} |")
    if results:                     # each area's share of the requests (tests/ledger/fuzzing.py)
        lines += ["", "Requests by area: " + "; ".join(
            f"{name}: " + ", ".join(f"{a} {r['areas'].get(a, 0) / r['requests']:.0%}"
                                    for a, _share in MIX)
            for name, r in results.items()) + "."]
    lines += notes
    section = "\n".join(lines) + "\n"
    print(section)
    failures = [f for r in results.values() for f in r["failures"]]
    if failures and args.failures:
        Path(args.failures).write_text(json.dumps(failures, ensure_ascii=False, indent=1))
    if failures:
        print(json.dumps(failures[:5], ensure_ascii=False, indent=1)[:5000])
        sys.exit(1)
    write_section(Path(args.out), section, HEAD)


if __name__ == "__main__":
    main()
