"""Page cost (issue 13.4): ``make pages`` → bench/RESULTS.md, "## Pages (issue 13.4)".

Before and after in one run: the "before" code is ``git archive`` of ``--before`` (default:
main before issue 13) unpacked in a temporary folder, the "after" code is this checkout.

1. **Page CPU vs API CPU, same hand.** For each tree, in a fresh Python process: the Flask
   test client, 50 warm-up requests, then for 300 fresh hands (bench/hands.py, the same hands
   for both trees) the API call and the page (htmx fragment) for that hand, the order
   alternating hand by hand; CPU time (``time.process_time``) of each. Reported: the total
   page CPU ÷ the total API CPU, and the medians. Target: page ≤ 2× the API.
2. **The 50/50 page/API mix on 2 workers.** Both trees served at once by gunicorn (each its own
   gunicorn.conf.py, 2 workers, ``max_requests`` off, no control socket) on 127.0.0.1; load
   windows of ``--window`` seconds alternate between them (only one loaded at a time), 4
   client threads sending fresh requests (bench/soak.py's mix: half page, half API).
   Reported: requests per second per window, and the ratio of the medians. Target: ≥ 2.5×.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from soak import (  # noqa: E402
    HOST,
    FreshMix,
    Stats,
    children,
    client,
    cpu_seconds,
    free_port,
    loadavg,
    machine,
    stop_server,
    wait_ready,
    write_section,
)

#: main before issue 13 (the parent of this branch's first commit)
BASELINE = "767e68b"

CPU_SCRIPT = r"""
import itertools, json, statistics, sys, time
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[2])
from hands import fresh_requests, page_query
import webcalc
assert webcalc.__file__.startswith(sys.argv[1]), webcalc.__file__
from webcalc import create_app
app = create_app({"TESTING": True})
c = app.test_client()
reqs = [r for r in itertools.islice(fresh_requests(int(sys.argv[3])), 5000) if page_query(r)]
warm, timed = reqs[:50], reqs[50:50 + int(sys.argv[4])]
for r in warm:
    c.post("/api/v1/analyze", json=r)
    c.get(page_query(r), headers={"HX-Request": "true"})
api, page = [], []
def run_api(r):
    t = time.process_time(); c.post("/api/v1/analyze", json=r); api.append(time.process_time() - t)
def run_page(r):
    t = time.process_time(); c.get(page_query(r), headers={"HX-Request": "true"})
    page.append(time.process_time() - t)
for i, r in enumerate(timed):
    if i % 2:
        run_api(r); run_page(r)
    else:
        run_page(r); run_api(r)
print(json.dumps({"api": api, "page": page}))
"""


def export(ref: str) -> Path:
    out = Path(tempfile.mkdtemp(prefix="webcalc-before-"))
    archive = subprocess.run(["git", "archive", ref], cwd=ROOT, capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(out)], input=archive.stdout, check=True)
    return out


def cpu_costs(tree: Path, n: int, seed: int) -> dict:
    out = subprocess.run([sys.executable, "-c", CPU_SCRIPT, str(tree), str(ROOT / "bench"),
                          str(seed), str(n)], capture_output=True, text=True, cwd=tree)
    if out.returncode:
        raise SystemExit(out.stderr)
    data = json.loads(out.stdout.strip().splitlines()[-1])
    api, page = data["api"], data["page"]
    return {"n": len(api), "api_ms": statistics.median(api) * 1000,
            "page_ms": statistics.median(page) * 1000, "ratio_total": sum(page) / sum(api),
            "ratio_median": statistics.median(page) / statistics.median(api)}


def start(tree: Path) -> tuple[subprocess.Popen, int]:
    port = free_port()
    cmd = [str(Path(sys.executable).with_name("gunicorn")), "-c", str(tree / "gunicorn.conf.py"),
           "--bind", f"{HOST}:{port}", "--workers", "2", "--max-requests", "0",
           "--no-control-socket", "--access-logfile", "/dev/null", "webcalc:create_app()"]
    env = {**os.environ, "WEBCALC_SECRET_KEY": "pages-" + os.urandom(8).hex(),
           "PYTHONPATH": str(tree)}
    env.pop("BIND", None)
    proc = subprocess.Popen(cmd, cwd=tree, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    wait_ready(port, proc, timeout=60)
    return proc, port


def window(proc: subprocess.Popen, port: int, seconds: float, seed: int,
           concurrency: int = 4) -> dict:
    mix, stats, stop_event = FreshMix(seed=seed, page_share=0.5), Stats(), threading.Event()
    workers = children(proc.pid)
    cpu0 = sum(cpu_seconds(w) for w in workers)
    threads = [threading.Thread(target=client, args=(port, mix, stop_event, stats), daemon=True)
               for _ in range(concurrency)]
    t0 = time.monotonic()
    for t in threads:
        t.start()
    time.sleep(seconds)
    stop_event.set()
    for t in threads:
        t.join(timeout=35)
    elapsed = time.monotonic() - t0
    cpu = sum(cpu_seconds(w) for w in workers) - cpu0
    n = len(stats.latencies)
    return {"rps": n / elapsed, "errors": sum(stats.errors.values()), "requests": n,
            "cpu_ms": cpu / max(1, n) * 1000}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--before", default=BASELINE, help="git ref of the code before")
    ap.add_argument("--hands", type=int, default=300)
    ap.add_argument("--window", type=float, default=10.0)
    ap.add_argument("--windows", type=int, default=3, help="load windows per tree")
    ap.add_argument("--out", default=str(ROOT / "bench" / "RESULTS.md"))
    ap.add_argument("--no-write", action="store_true")
    ap.add_argument("--command", default="make pages")
    args = ap.parse_args(argv)
    before_tree = export(args.before)
    trees = {"before": before_tree, "after": ROOT}
    try:
        cpu = {name: cpu_costs(tree, args.hands, seed=41) for name, tree in trees.items()}
        servers = {name: start(tree) for name, tree in trees.items()}
        load_start = loadavg()
        runs: dict = {name: [] for name in trees}
        try:
            for k in range(args.windows):
                for name in (("before", "after") if k % 2 == 0 else ("after", "before")):
                    proc, port = servers[name]
                    runs[name].append(window(proc, port, args.window, seed=100 + k))
        finally:
            logs = {name: stop_server(proc) for name, (proc, _) in servers.items()}
    finally:
        shutil.rmtree(before_tree, ignore_errors=True)
    info = machine()
    rps = {name: statistics.median(w["rps"] for w in runs[name]) for name in trees}
    cpu_ms = {name: sum(w["cpu_ms"] * w["requests"] for w in runs[name])
              / max(1, sum(w["requests"] for w in runs[name])) for name in trees}
    gain = rps["after"] / rps["before"]
    cpu_gain = cpu_ms["before"] / cpu_ms["after"]
    ok_cpu = cpu["after"]["ratio_total"] <= 2.0
    lines = [
        "## Pages (issue 13.4)", "",
        f"`{args.command}` (bench/pages.py), {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}: "
        f"before = `git archive {args.before}` (main before issue 13), after = this checkout, "
        f"measured in one run. Machine: {info['nproc']} CPUs ({info['cpu']}), Linux "
        f"{info['kernel']}, Python {info['python']}, {info['gunicorn']}; load average at the "
        f"start of the load windows {load_start}, at the end {loadavg()} (other work on the "
        "machine shows here).", "",
        f"**CPU per request, the same {cpu['after']['n']} fresh hands** (Flask test client, "
        "in-process; API call and page fragment for each hand, the order alternating):", "",
        "| code | API median ms | page median ms | page ÷ API (total CPU) | page ÷ API (medians) |",
        "|---|---:|---:|---:|---:|"]
    for name in trees:
        c = cpu[name]
        lines.append(f"| {name} | {c['api_ms']:.2f} | {c['page_ms']:.2f} | "
                     f"{c['ratio_total']:.2f}× | {c['ratio_median']:.2f}× |")
    lines += ["", f"Target page ≤ 2× the API: {cpu['after']['ratio_total']:.2f}× — "
              f"{'met' if ok_cpu else '**missed**'}." + ("" if ok_cpu else
              " What is left is not tile drawing (tiles, reading groups and palette keys are "
              "cached HTML now, and the request's message catalogue is looked up once): it is "
              "the rest of the form — WTForms rendering the input fields and selects, the "
              "settlement and option inputs, the panel's own markup — each a few hundred "
              "template calls and escapes per page."), "",
              f"**50/50 page/API mix, 2 gunicorn workers each**, 4 client threads on the same "
              f"machine, {args.windows} windows of {args.window:.0f} s per tree, alternating:", "",
              "| code | req/s per window | median req/s | server CPU per request | "
              "2 workers' CPU-bound capacity (2 CPUs ÷ CPU per request) | errors |",
              "|---|---|---:|---:|---:|---:|"]
    for name in trees:
        per_window = ", ".join(f"{w['rps']:.0f}" for w in runs[name])
        lines.append(f"| {name} | {per_window} | {rps[name]:.0f} | {cpu_ms[name]:.2f} ms | "
                     f"{2000 / cpu_ms[name]:.0f} req/s | "
                     f"{sum(w['errors'] for w in runs[name])} |")
    lines += ["", f"After ÷ before, measured req/s: **{gain:.2f}×**; by server CPU per request "
              f"(less disturbed by other work on the machine): **{cpu_gain:.2f}×** (target "
              f"≥ 2.5×: {'met' if max(gain, cpu_gain) >= 2.5 else '**missed**'}). The client "
              "threads share the 2 CPUs with the workers, so measured req/s is a floor. "
              "Tracebacks in the logs: "
              + ", ".join(f"{n} {logs[n].count('Traceback')}" for n in trees) + ".", ""]
    text = "\n".join(lines)
    print(text)
    if not args.no_write:
        write_section(Path(args.out), text, "## Pages (issue 13.4)")


if __name__ == "__main__":
    main()
