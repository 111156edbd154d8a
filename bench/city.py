"""A city on one machine (issue 26.4): ``make bench-city`` → bench/RESULTS.md, "## City (issue 26.4)".

The harness of tests/test_city.py (tests/city.py) at 1 000 tables: three gunicorn servers × 2
sync workers on one PostgreSQL schema, nginx in front (deploy/nginx-city.conf), 4 viewers per
table (one through nginx, one on each server directly) polling with ``If-None-Match`` every
``--interval`` seconds, and one hand recorded on each table during the run (the city's one
hand per table every ~4 minutes, compressed). A warm-up of ``--warm`` seconds comes first
(every viewer's first answer is a 200, a full read); then for ``--seconds``:

* poll latency p50/p99 as the client saw it (target p99 ≤ 50 ms), through nginx and direct;
* server CPU per poll: the six gunicorn workers' CPU (/proc, utime + stime) ÷ polls, and
  nginx's and the servers' PostgreSQL sessions' beside it;
* tables one core serves at 4 phones polling once a second: 1 / (4 × CPU per poll);
* the probe's database look-ups (scans of ``ledger_editor``) against the polls;
* errors and writes not seen at the next poll (both must be 0).

The client is one asyncio process on the same machine; say what else ran (load average).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from soak import write_section  # noqa: E402

from tests.city import City, drive, problem, targets  # noqa: E402
from tests.test_proxy import _stop  # noqa: E402

HEAD = "## City (issue 26.4)"


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def run(args) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        city = City(Path(tmp), args.tables, args.servers, args.workers)
        try:
            t0 = time.monotonic()
            city.start()
            started = time.monotonic() - t0
            pids: list[int] = []

            def mark():
                if not pids:        # the servers' sessions, open by the end of the warm-up
                    pids.extend(city.pg_backends())
                return (time.monotonic(), city.worker_cpu(), city.nginx_cpu(),
                        city.pg_cpu(pids), os.getloadavg()[0])
            before = city.probe_queries()
            res = drive(city, args.seconds, args.interval, warm=args.warm, on_mark=mark)
            stale = res.stale(list(targets(city)))
            for proc in city.gunicorns:
                _stop(proc)
            time.sleep(1.0)
            lookups = city.probe_queries() - before
            access = (city.tmp / "access.log").read_text(encoding="utf-8")
            leaked = any(tok in access for pair in city.tokens for tok in pair)
        finally:
            city.stop()
    (w0, cpu0, ng0, pg0, load0), (w1, cpu1, ng1, pg1, load1) = res.marks
    return {"res": res, "stale": stale, "lookups": lookups, "started": started,
            "wall": w1 - w0, "cpu": cpu1 - cpu0, "nginx": ng1 - ng0, "pg": pg1 - pg0,
            "pg_sessions": len(pids), "load": (load0, load1), "leaked": leaked}


def report(r: dict, args) -> str:
    res = r["res"]
    n = res.measured
    lat = res.measured_latencies
    p50, p99 = pct(lat, 0.5) * 1000, pct(lat, 0.99) * 1000
    per_poll = r["cpu"] / n if n else float("nan")
    with_proxy = (r["cpu"] + r["nginx"] + r["pg"]) / n if n else float("nan")
    tables_core = 1 / (4 * per_poll)
    tables_core_all = 1 / (4 * with_proxy)
    now = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    cpu = platform.processor() or platform.machine()
    cmd = (f"python bench/city.py --tables {args.tables} --interval {args.interval:g} "
           f"--warm {args.warm:g} --seconds {args.seconds:g}")

    def verdict(ok):
        return "met" if ok else "**missed**"
    lines = [
        HEAD, "",
        f"`make bench-city` ({cmd}; {now}): {os.cpu_count()} cores ({cpu}, "
        f"{platform.python_implementation()} {platform.python_version()}), load average "
        f"{r['load'][0]:.2f} at the start of the measured run and {r['load'][1]:.2f} at its end "
        "(other work on the machine included). "
        f"{args.servers} gunicorn servers × {args.workers} sync workers (gunicorn.conf.py, "
        "`max_requests` off), one PostgreSQL schema, nginx in front (deploy/nginx-city.conf), "
        f"{args.tables:,} tables × 4 viewers (one through nginx, one on each server directly), "
        f"each polling `GET /api/v1/tables/<view>` with its ETag every {args.interval:g} s; one "
        f"hand recorded on each table in the run (through nginx). Warm-up {args.warm:g} s "
        f"(the viewers' first reads), then {r['wall']:.1f} s measured. The client: one asyncio "
        f"process on the same machine. Servers up in {r['started']:.0f} s.", "",
        "| figure | value |", "|---|---:|",
        f"| polls measured | {n:,} ({n / r['wall']:.0f}/s; {res.not_modified:,} of all "
        f"{res.polls:,} answered 304) |",
        f"| poll latency p50 / p99 | {p50:.1f} / {p99:.1f} ms |",
        f"| gunicorn workers' CPU per poll (all their CPU, writes and reads included, "
        f"÷ polls) | {per_poll * 1000:.2f} ms |",
        f"| nginx / PostgreSQL sessions' CPU per poll | {r['nginx'] / n * 1000:.2f} / "
        f"{r['pg'] / n * 1000:.2f} ms ({r['pg_sessions']} sessions) |",
        f"| tables one core serves (4 phones, 1 poll/s): app only / app + nginx + PostgreSQL | "
        f"{tables_core:.0f} / {tables_core_all:.0f} |",
        f"| the probe's database look-ups in the whole run | {r['lookups']:,} for "
        f"{res.polls:,} polls ({r['lookups'] / max(res.polls, 1):.3f} per poll) |",
        f"| writes; not seen at the next poll of a server | {len(res.writes):,}; "
        f"{len(r['stale'])} |",
        f"| errors (5xx, refused, dropped, timeouts, malformed) | {len(res.errors)} |",
        f"| a token in nginx's access log | {'yes' if r['leaked'] else 'no'} |", "",
        f"- Target p99 ≤ 50 ms: {verdict(p99 <= 50)} ({p99:.1f} ms).",
        f"- 0 errors and every write seen at the next poll on every server: "
        f"{verdict(not res.errors and not r['stale'])}.", ""]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=1000)
    ap.add_argument("--interval", type=float, default=10.0,
                    help="seconds between one viewer's polls (what this machine sustains)")
    ap.add_argument("--warm", type=float, default=15.0)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--servers", type=int, default=3)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", default=str(ROOT / "bench" / "RESULTS.md"))
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args()
    why = problem()
    if why is not None:
        raise SystemExit(f"bench/city.py: {why}")
    r = run(args)
    text = report(r, args)
    print(text)
    if r["res"].errors:
        print("errors (first 10):", r["res"].errors[:10], file=sys.stderr)
    if not args.no_write:
        write_section(Path(args.out), text, HEAD)
    if r["res"].errors or r["stale"]:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
