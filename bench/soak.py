"""Soak test (issue 7): ``make soak`` → bench/RESULTS.md, section "## Soak (issue 7)".

Starts gunicorn with the project's ``gunicorn.conf.py`` on a free port of 127.0.0.1 (and only
there), then for a fixed time (default 60 s) keeps a fixed number of client threads busy with
requests for hands never sent before (issue 13.1: bench/hands.py generates them fresh, every
request distinct, all four variants, 0–8 wildcards, some with a settlement):

* ``POST /api/v1/analyze`` with a fresh request (a coded 400 such as ``not_complete`` is an
  expected answer: the generator does not know which random hands are complete),
* ``GET /`` with a fresh hand the page form can express, as an htmx fragment or a full page,
* ``GET /healthz`` now and then.

``--page-share`` sets the page's share of the analyses (default 0.5: the 50/50 page/API mix).
It records requests per second, p50/p99/max latency, errors (a connection failure, a 5xx, or
any status other than the ones expected) and each worker's RSS from ``/proc`` at the start,
middle and end. ``max_requests`` is switched off for the run, so a leak would show as growth
instead of being hidden by worker recycling. Python stdlib only (``http.client`` + threads);
the server is stopped at the end whatever happens.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import random
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
HEALTHZ_SHARE = 0.02


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


class FreshMix:
    """A thread-safe endless stream of (method, path, body, headers, expected statuses), each
    analysis a request never sent before (bench/hands.py)."""

    def __init__(self, seed: int = 7, page_share: float = 0.5):
        sys.path.insert(0, str(ROOT))
        sys.path.insert(0, str(ROOT / "bench"))
        from hands import fresh_requests, page_query

        self._requests = fresh_requests(seed)
        self._page_query = page_query
        self._rng = random.Random(seed)
        self._lock = threading.Lock()
        self.page_share = page_share
        self.sent = 0

    def next(self):
        with self._lock:
            self.sent += 1
            roll = self._rng.random()
            if roll < HEALTHZ_SHARE:
                return "GET", "/healthz", None, {}, {200}
            page = self._rng.random() < self.page_share
            while True:
                req = next(self._requests)
                query = self._page_query(req) if page else None
                if not page or query:
                    break
            full = self._rng.random() < 0.5
        if page:
            headers = {"HX-Request": "true"}
            if full:
                headers["HX-Request-Type"] = "full"
            return "GET", query, None, headers, {200, 422}
        return ("POST", "/api/v1/analyze", json.dumps(req, ensure_ascii=False).encode(),
                {"Content-Type": "application/json"}, {200, 400})


def children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(entry))
    return sorted(out)


def stop_server(proc: subprocess.Popen) -> str:
    """Stop a server started in its own session: SIGTERM to its process group, SIGKILL if it
    is still there after 30 s. Returns what it wrote to stderr."""
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        return proc.communicate(timeout=30)[1]
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        return proc.communicate()[1]


def rss_mb(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def cpu_seconds(pid: int) -> float:
    """utime + stime of one process, in seconds (/proc/PID/stat)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def loadavg() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def machine() -> dict:
    model = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        gunicorn = subprocess.run([str(Path(sys.executable).with_name("gunicorn")), "--version"],
                                  capture_output=True, text=True, timeout=10).stdout.strip()
    except OSError:
        gunicorn = "gunicorn ?"
    return {"nproc": os.cpu_count(), "cpu": model, "python": platform.python_version(),
            "kernel": platform.release(), "gunicorn": gunicorn}


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.latencies: list[float] = []
        self.errors: dict[str, int] = {}
        self.statuses: dict[int, int] = {}

    def add(self, latency: float, status: int | None, error: str | None):
        with self.lock:
            self.latencies.append(latency)
            if status is not None:
                self.statuses[status] = self.statuses.get(status, 0) + 1
            if error:
                self.errors[error] = self.errors.get(error, 0) + 1


def client(port: int, mix: FreshMix, stop: threading.Event, stats: Stats):
    while not stop.is_set():
        method, path, body, headers, expected = mix.next()
        start = time.perf_counter()
        status, error = None, None
        try:
            conn = http.client.HTTPConnection(HOST, port, timeout=30)
            conn.request(method, path, body=body, headers=headers)
            resp = conn.getresponse()
            resp.read()
            status = resp.status
            conn.close()
            if status not in expected:
                error = f"{method} {path[:60]} → {status}"
        except (OSError, http.client.HTTPException) as exc:
            error = f"{type(exc).__name__}: {exc}"
        stats.add(time.perf_counter() - start, status, error)


def wait_ready(port: int, proc: subprocess.Popen, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"gunicorn exited with {proc.returncode}")
        try:
            conn = http.client.HTTPConnection(HOST, port, timeout=2)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("gunicorn did not answer /healthz")


def percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--concurrency", type=int, default=8)
    ap.add_argument("--workers", type=int, default=None,
                    help="gunicorn workers (default: gunicorn.conf.py's, from the CPU count)")
    ap.add_argument("--out", default=str(ROOT / "bench" / "RESULTS.md"))
    ap.add_argument("--no-write", action="store_true")
    ap.add_argument("--title", default="Soak (issue 7)",
                    help='the RESULTS.md section this run writes, e.g. "Load (issue 6)"')
    ap.add_argument("--command", default="make soak", help="how the run was started, for the text")
    ap.add_argument("--page-share", type=float, default=0.5,
                    help="the page's share of the analyses (the rest go to the JSON API)")
    args = ap.parse_args()
    seconds = max(5.0, min(args.seconds, 600.0))        # bounded, whatever is asked

    port = free_port()
    cmd = [str(Path(sys.executable).with_name("gunicorn")), "-c", str(ROOT / "gunicorn.conf.py"),
           "--bind", f"{HOST}:{port}", "--max-requests", "0", "--access-logfile", "-",
           "webcalc:create_app()"]
    if args.workers:
        cmd[3:3] = ["--workers", str(args.workers)]
    env = {**os.environ, "WEBCALC_SECRET_KEY": "soak-" + os.urandom(8).hex()}
    env.pop("BIND", None)
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        wait_ready(port, proc)
        load_before = loadavg()
        mix = FreshMix(page_share=args.page_share)
        stats = Stats()
        stop = threading.Event()
        threads = [threading.Thread(target=client, args=(port, mix, stop, stats), daemon=True)
                   for i in range(args.concurrency)]
        t0 = time.monotonic()
        for t in threads:
            t.start()
        time.sleep(1.0)                                   # every worker has answered
        workers = children(proc.pid)
        rss = {"start": {w: rss_mb(w) for w in workers}}
        n_start = len(stats.latencies)
        cpu_start = sum(cpu_seconds(w) for w in workers)
        time.sleep(max(0.0, seconds / 2 - (time.monotonic() - t0)))
        rss["middle"] = {w: rss_mb(w) for w in workers}
        time.sleep(max(0.0, seconds - (time.monotonic() - t0)))
        rss["end"] = {w: rss_mb(w) for w in workers}
        cpu_per_request = ((sum(cpu_seconds(w) for w in workers) - cpu_start)
                           / max(1, len(stats.latencies) - n_start))
        load_after = loadavg()
        stop.set()
        for t in threads:
            t.join(timeout=35)
        elapsed = time.monotonic() - t0
        after = children(proc.pid)
    finally:
        stderr = stop_server(proc)

    lat = sorted(stats.latencies)
    n = len(lat)
    errors = sum(stats.errors.values())
    tracebacks = stderr.count("Traceback")
    info = machine()
    result = {
        "requests": n, "seconds": round(elapsed, 1), "rps": n / elapsed,
        "p50_ms": percentile(lat, 0.50) * 1000, "p99_ms": percentile(lat, 0.99) * 1000,
        "max_ms": lat[-1] * 1000 if lat else float("nan"),
        "mean_ms": statistics.fmean(lat) * 1000 if lat else float("nan"),
        "errors": errors, "error_kinds": stats.errors, "statuses": stats.statuses,
        "workers": workers, "workers_after": after, "rss": rss, "tracebacks": tracebacks,
        "page_share": args.page_share, "concurrency": args.concurrency,
        "cpu_ms": cpu_per_request * 1000, "load": (load_before, load_after),
        "title": args.title, "command": args.command,
    }
    text = report(result, info)
    print(text)
    if tracebacks:
        print(stderr[-4000:], file=sys.stderr)
    if not args.no_write:
        write_section(Path(args.out), text, "## " + args.title)
    if errors or tracebacks or set(workers) != set(after):
        raise SystemExit(1)


def report(r: dict, info: dict) -> str:
    statuses = ", ".join(f"{k}: {v:,}" for k, v in sorted(r["statuses"].items()))
    lines = [
        "## " + r["title"], "",
        f"`{r['command']}` (bench/soak.py): gunicorn with `gunicorn.conf.py` on 127.0.0.1 "
        f"({len(r['workers'])} sync workers, `max_requests` off for the run so a leak would "
        f"show), {r['concurrency']} client threads in one Python process on the same machine, "
        f"one connection per request, for {r['seconds']} s. Every analysis is a hand never sent "
        f"before (bench/hands.py: all four variants, 0–8 wildcards, 13 and 14 tiles, some "
        f"with a settlement): {r['page_share']:.0%} the page (htmx fragment or full page), the "
        f"rest `POST /api/v1/analyze` (a coded 400 such as `not_complete` is expected for "
        f"some random hands); {HEALTHZ_SHARE:.0%} `/healthz`.", "",
        f"Machine: {info['nproc']} CPUs ({info['cpu']}), Linux {info['kernel']}, Python "
        f"{info['python']}, {info['gunicorn']}. Client and server share the CPUs, so the "
        f"figures are a floor, not a capacity. Load average (1, 5, 15 min) before: "
        f"{r['load'][0]}; at the end: {r['load'][1]} (other work on the machine shows here).",
        "",
        "| figure | value |", "|---|---:|",
        f"| requests | {r['requests']:,} |",
        f"| throughput | {r['rps']:,.0f} req/s |",
        f"| latency p50 | {r['p50_ms']:.1f} ms |",
        f"| latency p99 | {r['p99_ms']:.1f} ms |",
        f"| latency max | {r['max_ms']:.1f} ms |",
        f"| server CPU per request (workers' utime + stime ÷ requests) | {r['cpu_ms']:.1f} ms |",
        f"| errors (connection failures, 5xx, unexpected status) | {r['errors']} |",
        f"| tracebacks in the server log | {r['tracebacks']} |",
        f"| workers replaced during the run | {len(set(r['workers']) - set(r['workers_after']))} |",
        "", f"Statuses: {statuses}.", "",
        "RSS per worker (MB, from /proc/PID/status VmRSS):", "",
        "| worker | start (1 s) | middle | end | end − start | end − middle |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for i, w in enumerate(r["workers"]):
        s, m, e = (r["rss"][k].get(w) for k in ("start", "middle", "end"))
        fmt = lambda x: f"{x:.1f}" if x is not None else "—"  # noqa: E731
        diff = lambda a, b: f"{a - b:+.1f}" if a is not None and b is not None else "—"  # noqa: E731
        lines.append(f"| {i + 1} | {fmt(s)} | {fmt(m)} | {fmt(e)} | {diff(e, s)} | {diff(e, m)} |")
    if r["error_kinds"]:
        lines += ["", "Errors:", ""] + [f"- {k}: {v}" for k, v in r["error_kinds"].items()]
    return "\n".join(lines) + "\n"


def write_section(path: Path, section: str, head: str = "## Soak (issue 7)") -> None:
    """Replace the ``head`` section (to the next "## " heading or the end); append it when
    missing. bench/bench.py keeps the "## Soak" and "## Load" sections when it rewrites."""
    old = path.read_text(encoding="utf-8") if path.exists() else "# Benchmarks\n"
    if head in old:
        start = old.index(head)
        nxt = old.find("\n## ", start + len(head))
        old = old[:start].rstrip("\n") + ("\n\n" + old[nxt + 1:] if nxt != -1 else "")
    path.write_text(old.rstrip("\n") + "\n\n" + section, encoding="utf-8")


if __name__ == "__main__":
    main()
