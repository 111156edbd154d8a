"""Memory benchmark (issue 13.3): ``make memory`` → bench/RESULTS.md, "## Memory (issue 13.3)".

1. **In one process:** :func:`webcalc.warmup.warm_up` (what gunicorn's master runs before it
   forks), then 3,000 fresh analyses (bench/hands.py: every request distinct) through
   :func:`webcalc.analysis.analyze`; RSS (``/proc/self/status`` VmRSS, after ``gc.collect``)
   every 500 analyses. Target: growth ≤ 15 MB.
2. **Behind gunicorn:** ``gunicorn.conf.py`` (``preload_app``, warm-up) with 2 sync workers and
   ``max_requests`` off, 10,000 fresh requests — half ``POST /api/v1/analyze``, half the page
   (htmx fragment) where the form can express the request — from 4 client threads; each
   worker's RSS and PSS (``/proc/PID/smaps_rollup``: shared pages split between the processes
   that share them) after its first requests and at the end. Target: ≤ 50 MB per worker.
"""

from __future__ import annotations

import argparse
import gc
import http.client
import itertools
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from hands import fresh_requests, page_query                       # noqa: E402
from soak import (HOST, children, free_port, loadavg, machine, rss_mb,  # noqa: E402
                  stop_server, wait_ready, write_section)


def self_rss() -> float:
    gc.collect()
    return rss_mb(os.getpid())


def pss_mb(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def in_process(n: int, seed: int) -> dict:
    from webcalc import decompose, tables
    from webcalc.analysis import analyze
    from webcalc.errors import InputError
    from webcalc.warmup import warm_up

    before_warm = self_rss()
    warm = warm_up()
    start = self_rss()
    gen = fresh_requests(seed)
    points = [(0, start)]
    t0 = time.perf_counter()
    for i, req in enumerate(itertools.islice(gen, n), 1):
        try:
            analyze(req)
        except InputError:
            pass
        if i % 500 == 0:
            points.append((i, self_rss()))
    seconds = time.perf_counter() - t0
    sizes = {f"tables.{f.__name__}": (f.cache_info().currsize, f.cache_info().maxsize)
             for f in tables.TABLES}
    for name in ("_missing", "achievable_flags"):
        f = getattr(decompose, name, None)
        if f is not None and hasattr(f, "cache_info"):
            sizes[f"decompose.{name}"] = (f.cache_info().currsize, f.cache_info().maxsize)
    return {"before_warm": before_warm, "warm": warm, "points": points, "seconds": seconds,
            "sizes": sizes}


def _send(port, reqs, lock, counts):
    while True:
        with lock:
            item = next(reqs, None)
        if item is None:
            return
        method, path, body, headers = item
        try:
            conn = http.client.HTTPConnection(HOST, port, timeout=30)
            conn.request(method, path, body=body, headers=headers)
            status = conn.getresponse()
            status.read()
            conn.close()
            key = status.status
        except (OSError, http.client.HTTPException) as exc:
            key = type(exc).__name__
        with lock:
            counts[key] = counts.get(key, 0) + 1


def request_stream(n: int, seed: int):
    """n requests: alternately the API and (where the form expresses it) the page."""
    gen = fresh_requests(seed)
    made = 0
    while made < n:
        req = next(gen)
        query = page_query(req) if made % 2 else None
        if query:
            yield "GET", query, None, {"HX-Request": "true"}
        else:
            yield ("POST", "/api/v1/analyze", json.dumps(req, ensure_ascii=False).encode(),
                   {"Content-Type": "application/json"})
        made += 1


def behind_gunicorn(n: int, seed: int, workers: int = 2, concurrency: int = 4) -> dict:
    port = free_port()
    cmd = [str(Path(sys.executable).with_name("gunicorn")), "-c", str(ROOT / "gunicorn.conf.py"),
           "--bind", f"{HOST}:{port}", "--workers", str(workers), "--max-requests", "0",
           "--access-logfile", "/dev/null", "webcalc:create_app()"]
    env = {**os.environ, "WEBCALC_SECRET_KEY": "memory-" + os.urandom(8).hex()}
    env.pop("BIND", None)
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    counts: dict = {}
    try:
        wait_ready(port, proc)
        pids = children(proc.pid)
        master = {"rss": rss_mb(proc.pid), "pss": pss_mb(proc.pid)}
        stream = request_stream(n, seed)
        lock = threading.Lock()
        first = list(itertools.islice(stream, 50))       # a few requests each, then measure
        _send(port, iter(first), lock, counts)
        start = {w: (rss_mb(w), pss_mb(w)) for w in pids}
        t0 = time.monotonic()
        threads = [threading.Thread(target=_send, args=(port, stream, lock, counts))
                   for _ in range(concurrency)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        seconds = time.monotonic() - t0
        end = {w: (rss_mb(w), pss_mb(w)) for w in pids}
        after = children(proc.pid)
    finally:
        stderr = stop_server(proc)
    return {"pids": pids, "after": after, "start": start, "end": end, "counts": counts,
            "seconds": seconds, "master": master, "tracebacks": stderr.count("Traceback"),
            "workers": workers, "concurrency": concurrency, "n": n}


def report(a: dict, b: dict, args) -> str:
    info = machine()
    growth = a["points"][-1][1] - a["points"][0][1]
    lines = [
        "## Memory (issue 13.3)", "",
        f"`{args.command}` (bench/memory.py), {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}. "
        f"Machine: {info['nproc']} CPUs ({info['cpu']}), Linux {info['kernel']}, Python "
        f"{info['python']}, {info['gunicorn']}; load average at the end {loadavg()}.", "",
        f"**In one process:** warm-up ({a['warm']['hands']} seeded hands, "
        f"{a['warm']['seconds']:.2f} s; RSS {a['before_warm']:.1f} → {a['points'][0][1]:.1f} MB), "
        f"then {a['points'][-1][0]:,} fresh analyses (every request distinct, bench/hands.py) "
        f"in {a['seconds']:.1f} s. RSS after `gc.collect()`:", "",
        "| analyses after warm-up | RSS MB | growth MB |", "|---:|---:|---:|"]
    for i, r in a["points"]:
        lines.append(f"| {i:,} | {r:.1f} | {r - a['points'][0][1]:+.1f} |")
    lines += ["", f"Growth over {a['points'][-1][0]:,} fresh analyses: **{growth:.1f} MB** "
              f"(target ≤ 15 MB: {'met' if growth <= 15 else '**missed**'}). "
              "The engine's memo tables at the end (entries / bound):", "",
              "| table | entries | bound |", "|---|---:|---:|"]
    for name, (cur, mx) in a["sizes"].items():
        lines.append(f"| `{name}` | {cur:,} | {mx if mx is not None else 'none'} |")
    ok = sum(v for k, v in b["counts"].items() if isinstance(k, int) and k < 500)
    worst = max(r for r, _ in b["end"].values())
    lines += ["", f"**Behind gunicorn:** {b['workers']} sync workers, `preload_app`, "
              f"`max_requests` off; {b['n']:,} fresh requests (half API, half the page as an "
              f"htmx fragment where the form expresses the request) from {b['concurrency']} "
              f"client threads in {b['seconds']:.0f} s; statuses "
              + ", ".join(f"{k}: {v:,}" for k, v in sorted(b["counts"].items(), key=str))
              + f"; tracebacks in the log: {b['tracebacks']}; workers replaced: "
              f"{len(set(b['pids']) - set(b['after']))}. Master after warm-up: RSS "
              f"{b['master']['rss']:.1f} MB.", "",
              "| worker | RSS after 50 requests | RSS at the end | PSS at the end |",
              "|---|---:|---:|---:|"]
    for i, w in enumerate(b["pids"], 1):
        (rs, _), (re_, pe) = b["start"][w], b["end"][w]
        lines.append(f"| {i} | {rs:.1f} MB | {re_:.1f} MB | {pe:.1f} MB |")
    lines += ["", f"Largest worker RSS after {b['n']:,} requests: **{worst:.1f} MB** "
              f"(target ≤ 50 MB: {'met' if worst <= 50 else '**missed**'}); {ok:,} answered "
              "below 500.", ""]
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--analyses", type=int, default=3000)
    ap.add_argument("--requests", type=int, default=10000)
    ap.add_argument("--out", default=str(ROOT / "bench" / "RESULTS.md"))
    ap.add_argument("--no-write", action="store_true")
    ap.add_argument("--command", default="make memory")
    args = ap.parse_args(argv)
    a = in_process(args.analyses, seed=31)
    b = behind_gunicorn(args.requests, seed=32)
    text = report(a, b, args)
    print(text)
    if not args.no_write:
        write_section(Path(args.out), text, "## Memory (issue 13.3)")


if __name__ == "__main__":
    main()
