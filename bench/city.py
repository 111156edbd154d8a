"""A city on one machine (issue 26.4): ``make bench-city`` → bench/RESULTS.md, "## City (issue 26.4)".

The harness of tests/test_city.py (tests/city.py) at 1 000 tables: three gunicorn servers × 2
sync workers on one PostgreSQL schema, nginx in front (deploy/nginx-city.conf), 4 viewers per
table (one through nginx, one on each server directly) polling with ``If-None-Match`` every
``--interval`` seconds, and one hand recorded on each table during the run (the city's one
hand per table every ~4 minutes, compressed). A warm-up of ``--warm`` seconds comes first
(every viewer's first answer is a 200, a full read), then a quiet window of ``--quiet``
seconds (no write: the city's steady state, every answer a 304), then a write window of
``--seconds`` with one hand on each table. Reported, per window:

* poll latency p50/p99 as the client saw it (target p99 ≤ 50 ms), through nginx and direct;
* server CPU per poll: the six gunicorn workers' CPU (/proc, utime + stime) ÷ polls, and
  nginx's and the servers' PostgreSQL sessions' beside it;
* tables one core serves at 4 phones polling once a second: 1 / (4 × a 304's CPU), and with
  nginx, PostgreSQL and one hand per table every 4 minutes (its CPU from the write window);
* the probe's database look-ups (scans of ``ledger_editor``) against the polls;
* errors and writes answered stale at the next poll (both must be 0; the exit status says).

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
            res = drive(city, args.quiet + args.seconds, args.interval, warm=args.warm,
                        on_mark=mark, quiet=args.quiet)
            stale = res.stale(list(targets(city)))
            for proc in city.gunicorns:
                _stop(proc)
            time.sleep(1.0)
            lookups = city.probe_queries() - before
            access = (city.tmp / "access.log").read_text(encoding="utf-8")
            leaked = any(tok in access for pair in city.tokens for tok in pair)
        finally:
            city.stop()
    (w0, cpu0, ng0, pg0, load0), (wq, cpuq, ngq, pgq, loadq), (w1, cpu1, ng1, pg1, load1) = \
        res.marks
    return {"res": res, "stale": stale, "lookups": lookups, "started": started,
            "quiet": {"wall": wq - w0, "cpu": cpuq - cpu0, "nginx": ngq - ng0, "pg": pgq - pg0,
                      "polls": len(res.quiet_latencies)},
            "wall": w1 - wq, "cpu": cpu1 - cpuq, "nginx": ng1 - ngq, "pg": pg1 - pgq,
            "polls": res.measured - len(res.quiet_latencies),
            "pg_sessions": len(pids), "load": (load0, loadq, load1), "leaked": leaked}


def figures(r: dict) -> dict[str, float]:
    """The run's latencies in ms: quiet-window polls ``p50``/``p99``, write-window polls
    ``w50``/``w99``, writes ``r50``/``r99``; ``timeouts`` (client time-outs), ``errors``."""
    res = r["res"]
    lat_q = res.quiet_latencies
    lat_w = res.measured_latencies[:]
    for x in lat_q:
        lat_w.remove(x)
    return {"p50": pct(lat_q, 0.5) * 1000, "p99": pct(lat_q, 0.99) * 1000,
            "w50": pct(lat_w, 0.5) * 1000, "w99": pct(lat_w, 0.99) * 1000,
            "r50": pct(res.write_latencies, 0.5) * 1000,
            "r99": pct(res.write_latencies, 0.99) * 1000,
            "timeouts": sum(1 for e in res.errors if "Timeout" in e[2]),
            "errors": len(res.errors)}


def report(r: dict, args) -> str:
    res = r["res"]
    q = r["quiet"]
    nq, nw = q["polls"], r["polls"]
    f = figures(r)
    p50, p99, w50, w99, r50, r99 = (f[k] for k in ("p50", "p99", "w50", "w99", "r50", "r99"))
    timeouts = f["timeouts"]
    c304 = q["cpu"] / nq
    all304 = (q["cpu"] + q["nginx"] + q["pg"]) / nq
    cw = r["cpu"] / nw
    # a city table: 4 polls a second, and one hand every 240 s (the write and the 4 reads it
    # causes); the write window's extra CPU over its polls at the quiet rate, per write
    per_write = max(0.0, (r["cpu"] + r["nginx"] + r["pg"]) - all304 * nw) / max(len(res.writes), 1)
    per_table = 4 * all304 + per_write / 240
    tables_core = 1 / (4 * c304)
    tables_core_all = 1 / per_table
    now = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    cpu = platform.processor() or platform.machine()
    cmd = (f"python bench/city.py --tables {args.tables} --interval {args.interval:g} "
           f"--warm {args.warm:g} --quiet {args.quiet:g} --seconds {args.seconds:g}")
    seen_old = sum(1 for m in r["stale"] if m[4])
    no_poll = sum(1 for m in r["stale"] if not m[4])

    def verdict(ok):
        return "met" if ok else "**missed**"
    lines = [
        HEAD, "",
        f"`make bench-city` ({cmd}; {now}): {os.cpu_count()} cores ({cpu}, "
        f"{platform.python_implementation()} {platform.python_version()}), load average "
        f"{r['load'][0]:.2f} / {r['load'][1]:.2f} / {r['load'][2]:.2f} at the start of the "
        "quiet window, of the write window and at the end (other work on the machine "
        f"included). {args.servers} gunicorn servers × {args.workers} sync workers "
        "(gunicorn.conf.py, `max_requests` off), one PostgreSQL schema, nginx in front "
        f"(deploy/nginx-city.conf), {args.tables:,} tables × 4 viewers (one through nginx, "
        f"one on each server directly), each polling `GET /api/v1/tables/<view>` with its "
        f"ETag every {args.interval:g} s. Warm-up {args.warm:g} s (the viewers' first reads), "
        f"then a quiet window of {q['wall']:.0f} s (no write: every answer a 304), then a "
        f"write window of {r['wall']:.0f} s with one hand recorded on each table (through "
        f"nginx). The client: one asyncio process on the same machine. Servers up in "
        f"{r['started']:.0f} s.", "",
        "| figure | quiet window | write window |", "|---|---:|---:|",
        f"| polls | {nq:,} ({nq / q['wall']:.0f}/s) | {nw:,} ({nw / r['wall']:.0f}/s) |",
        f"| poll latency p50 / p99 | {p50:.1f} / {p99:.1f} ms | {w50:.1f} / {w99:.1f} ms |",
        f"| gunicorn workers' CPU per poll (all their CPU ÷ polls) | {c304 * 1000:.2f} ms | "
        f"{cw * 1000:.2f} ms |",
        f"| write latency p50 / p99 (`POST …/hands` through nginx) | — | {r50:.1f} / {r99:.1f} ms |",
        f"| nginx / PostgreSQL sessions' CPU per poll | {q['nginx'] / nq * 1000:.2f} / "
        f"{q['pg'] / nq * 1000:.2f} ms | {r['nginx'] / nw * 1000:.2f} / "
        f"{r['pg'] / nw * 1000:.2f} ms |", "",
        f"- Tables one core serves at 4 phones polling once a second: {tables_core:.0f} "
        f"(the workers' CPU of a 304 alone); {tables_core_all:.0f} with nginx, the PostgreSQL "
        f"sessions and one hand per table every 4 minutes ({per_write * 1000:.1f} ms of CPU "
        "per write with the reads it causes, from the write window).",
        f"- The probe's database look-ups in the whole run: {r['lookups']:,} for "
        f"{res.polls:,} polls ({res.not_modified:,} answered 304).",
        f"- Writes {len(res.writes):,}; (write, target) pairs whose next poll gave an older "
        f"version: {seen_old}; pairs with no poll after the write before the run ended: "
        f"{no_poll}.",
        f"- Errors (5xx, refused, dropped, timeouts, malformed): {len(res.errors)}. A token in "
        f"nginx's access log: {'yes' if r['leaked'] else 'no'}.",
        f"- Target p99 ≤ 50 ms (quiet window): {verdict(p99 <= 50)} ({p99:.1f} ms).",
        f"- Target write p99 ≤ 500 ms with 0 client time-outs (write window): "
        f"{verdict(r99 <= 500 and not timeouts)} ({r99:.1f} ms, {timeouts} time-outs).",
        f"- 0 errors and no write answered stale: {verdict(not res.errors and not seen_old)}.",
        ""]
    return "\n".join(lines)


def parser() -> argparse.ArgumentParser:
    """The command line (bench/issue38.py reads its city arguments with it too)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=1000)
    ap.add_argument("--interval", type=float, default=10.0,
                    help="seconds between one viewer's polls (what this machine sustains)")
    ap.add_argument("--warm", type=float, default=15.0)
    ap.add_argument("--quiet", type=float, default=45.0)
    ap.add_argument("--seconds", type=float, default=45.0)
    ap.add_argument("--servers", type=int, default=3)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", default=str(ROOT / "bench" / "RESULTS.md"))
    ap.add_argument("--no-write", action="store_true")
    return ap


def main() -> None:
    args = parser().parse_args()
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
    if r["res"].errors or any(m[4] for m in r["stale"]):
        raise SystemExit(1)


if __name__ == "__main__":
    main()
