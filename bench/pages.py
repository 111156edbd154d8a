"""Page cost (issue 26.3): ``make pages`` → bench/RESULTS.md, "## Pages (issue 26.3)" and the
issue-26.3 rows of "## Targets (issues 6, 13 and 26)".

Three ratios, measured in one run, each against a yardstick measured the same way in the same
run (``--before REF`` adds the same figures for ``git archive REF``, unpacked in a temporary
folder, so before and after come from one run too):

1. **Page CPU ÷ API CPU, same hands.** In a fresh Python process: the Flask test client, 50
   warm-up requests, then for ``--hands`` (≥ 300) fresh hands (bench/hands.py, the same hands
   for every tree) the API call and the page (htmx fragment) for that hand, the order
   alternating hand by hand; CPU time (``time.process_time``) of each. Reported: the total
   page CPU ÷ the total API CPU, and the medians. Target: ≤ 1.5×.
2. **``/healthz`` ÷ a minimal Flask route.** In the same process, webcalc's ``/healthz`` and
   the one route of bench/minimal_app.py (a short text, nothing else), each called as a WSGI
   app (a prepared environ, the body read out; no client in the timing), in alternating
   blocks of ``--block`` requests; CPU per request of each, the ratio of the totals.
   Target: ≤ 1.15×. A plain ``GET /healthz`` is answered by webcalc/web/health.py's WSGI
   wrapper; ``/healthz?via=flask`` (the same answer through Flask and every hook) is timed
   beside it.
3. **The 2-worker 50/50 mix ÷ the minimal route, req/s.** webcalc (its gunicorn.conf.py) and
   the minimal app (the same gunicorn command line: 2 sync workers, the same logger and
   access-log format, ``max_requests`` off) served at once on 127.0.0.1; load windows of
   ``--window`` seconds alternate between them (only one loaded at a time), 4 client threads
   opening a connection per request: webcalc gets bench/soak.py's fresh mix (half page, half
   API, a few ``/healthz``), the minimal app ``GET /``. Reported: req/s per window, the ratio
   of the medians, and the workers' CPU per request (``/proc``). Target: ≥ 0.25×.
"""

from __future__ import annotations

import argparse
import http.client
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
BENCH = ROOT / "bench"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(BENCH))

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
    write_section,
)

HEAD = "## Pages (issue 26.3)"
TARGETS_HEAD = "## Targets (issues 6, 13 and 26)"
TARGET_PAGE, TARGET_HEALTHZ, TARGET_MIX = 1.5, 1.15, 0.25

CPU_SCRIPT = r"""
import itertools, json, statistics, sys, time
tree, bench, seed, n, blocks, block = sys.argv[1:7]
sys.path.insert(0, tree)
sys.path.insert(0, bench)
from hands import fresh_requests, page_query
import webcalc
assert webcalc.__file__.startswith(tree), webcalc.__file__
from webcalc import create_app
import minimal_app
from wsgi_calls import wsgi_caller
app = create_app({"TESTING": True})
c = app.test_client()
reqs = [r for r in itertools.islice(fresh_requests(int(seed)), 5000) if page_query(r)]
warm, timed = reqs[:50], reqs[50:50 + int(n)]
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

# /healthz against the minimal route: WSGI calls on a prepared environ, alternating blocks
calls = {"healthz": wsgi_caller(app, "/healthz"),
         "minimal": wsgi_caller(minimal_app.create_app(), "/"),
         "flask": wsgi_caller(app, "/healthz?via=flask")}
k = int(block)
for name, call in calls.items():        # warm up
    for _ in range(k):
        call()
per = {name: [] for name in calls}
for b in range(int(blocks)):
    for name in (("healthz", "minimal", "flask") if b % 2 == 0 else ("flask", "minimal", "healthz")):
        call = calls[name]
        t = time.process_time()
        for _ in range(k):
            call()
        per[name].append((time.process_time() - t) / k)
print(json.dumps({"api": api, "page": page, "healthz": per["healthz"],
                  "minimal": per["minimal"], "flask": per["flask"]}))
"""


def export(ref: str) -> Path:
    out = Path(tempfile.mkdtemp(prefix="webcalc-before-"))
    archive = subprocess.run(["git", "archive", ref], cwd=ROOT, capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(out)], input=archive.stdout, check=True)
    for so in (ROOT / "webcalc").glob("_pjunit*.so"):   # the compiled engine, if not rebuilt
        if not (out / "webcalc" / so.name).exists():
            shutil.copy2(so, out / "webcalc" / so.name)
    return out


def cpu_costs(tree: Path, n: int, seed: int, blocks: int, block: int) -> dict:
    out = subprocess.run([sys.executable, "-c", CPU_SCRIPT, str(tree), str(BENCH), str(seed),
                          str(n), str(blocks), str(block)],
                         capture_output=True, text=True, cwd=tree)
    if out.returncode:
        raise SystemExit(out.stderr)
    data = json.loads(out.stdout.strip().splitlines()[-1])
    api, page, hz, mini = data["api"], data["page"], data["healthz"], data["minimal"]
    flask = data["flask"]
    return {"n": len(api), "api_ms": statistics.median(api) * 1000,
            "page_ms": statistics.median(page) * 1000, "ratio_total": sum(page) / sum(api),
            "ratio_median": statistics.median(page) / statistics.median(api),
            "healthz_us": statistics.median(hz) * 1e6, "minimal_us": statistics.median(mini) * 1e6,
            "healthz_ratio": sum(hz) / sum(mini),
            "flask_us": statistics.median(flask) * 1e6, "flask_ratio": sum(flask) / sum(mini),
            "healthz_ratios": sorted(h / m for h, m in zip(hz, mini))}


def gunicorn_cmd(port: int) -> list[str]:
    return [str(Path(sys.executable).with_name("gunicorn")), "--bind", f"{HOST}:{port}",
            "--workers", "2", "--max-requests", "0", "--no-control-socket",
            "--access-logfile", "/dev/null"]


def start(tree: Path) -> tuple[subprocess.Popen, int]:
    port = free_port()
    cmd = gunicorn_cmd(port)
    cmd[1:1] = ["-c", str(tree / "gunicorn.conf.py")]
    cmd.append("webcalc:create_app()")
    return _spawn(cmd, tree, {"PYTHONPATH": str(tree)}, port)


def start_minimal() -> tuple[subprocess.Popen, int]:
    """bench/minimal_app.py on the same gunicorn command line as webcalc, with the settings of
    gunicorn.conf.py that act per request (sync workers, keep-alive, the redacting logger and
    its access-log format) given on it."""
    port = free_port()
    cmd = gunicorn_cmd(port) + [
        "--worker-class", "sync", "--keep-alive", "5", "--preload",
        "--logger-class", "webcalc.web.logs.RedactingLogger",
        "--access-logformat", '%(h)s "%(r)s" %(s)s %(b)s %(M)sms', "minimal_app:create_app()"]
    return _spawn(cmd, BENCH, {"PYTHONPATH": f"{BENCH}{os.pathsep}{ROOT}"}, port, "/")


def _spawn(cmd: list[str], cwd: Path, extra: dict, port: int,
           path: str = "/healthz") -> tuple[subprocess.Popen, int]:
    env = {**os.environ, "WEBCALC_SECRET_KEY": "pages-" + os.urandom(8).hex(), **extra}
    env.pop("BIND", None)
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    wait_ready(port, proc, path, timeout=60)
    return proc, port


def wait_ready(port: int, proc: subprocess.Popen, path: str, timeout: float) -> None:
    """Until ``GET path`` answers 200 (soak.wait_ready asks for /healthz, which the minimal
    app does not have)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"gunicorn exited with {proc.returncode}: {proc.stderr.read()}")
        try:
            conn = http.client.HTTPConnection(HOST, port, timeout=2)
            conn.request("GET", path)
            if conn.getresponse().status == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise SystemExit(f"gunicorn did not answer {path} within {timeout:.0f} s")


class MinimalMix:
    """``GET /`` of the minimal app, forever (the interface of soak.FreshMix)."""

    def next(self):
        return "GET", "/", None, {}, {200}


def window(proc: subprocess.Popen, port: int, seconds: float, mix, concurrency: int = 4) -> dict:
    stats, stop_event = Stats(), threading.Event()
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
            "cpu_ms": cpu / max(1, n) * 1000, "error_kinds": dict(stats.errors)}


def load_runs(trees: dict, windows: int, seconds: float) -> tuple[dict, dict, str, str]:
    servers = {name: start(tree) for name, tree in trees.items()}
    servers["minimal"] = start_minimal()
    load_start = loadavg()
    runs: dict = {name: [] for name in servers}
    order = list(servers)
    try:
        for k in range(windows):
            for name in (order if k % 2 == 0 else order[::-1]):
                proc, port = servers[name]
                mix = MinimalMix() if name == "minimal" else FreshMix(seed=100 + k,
                                                                      page_share=0.5)
                runs[name].append(window(proc, port, seconds, mix))
    finally:
        logs = {name: stop_server(proc) for name, (proc, _) in servers.items()}
    return runs, logs, load_start, loadavg()


def verdict(ok: bool) -> str:
    return "met" if ok else "**missed**"


def update_targets(path: Path, rows: list[str]) -> None:
    """Put ``rows`` (the issue-26.3 rows) in the targets table, replacing the old ones."""
    if not path.exists():
        return
    text = path.read_text(encoding="utf-8")
    start = text.find(TARGETS_HEAD)
    if start == -1:
        return
    end = text.find("\n## ", start + len(TARGETS_HEAD))
    end = len(text) if end == -1 else end
    lines = text[start:end].split("\n")
    lines = [ln for ln in lines if not ln.startswith("| issue 26.3:")]
    last = max((i for i, ln in enumerate(lines) if ln.startswith("|")), default=None)
    if last is None:
        return
    lines[last + 1:last + 1] = rows
    path.write_text(text[:start] + "\n".join(lines) + text[end:], encoding="utf-8")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--before", default=None, help="git ref of the code before (optional)")
    ap.add_argument("--hands", type=int, default=300)
    ap.add_argument("--blocks", type=int, default=20, help="/healthz blocks per app")
    ap.add_argument("--block", type=int, default=500, help="requests per /healthz block")
    ap.add_argument("--window", type=float, default=10.0)
    ap.add_argument("--windows", type=int, default=3, help="load windows per server")
    ap.add_argument("--out", default=str(BENCH / "RESULTS.md"))
    ap.add_argument("--no-write", action="store_true")
    ap.add_argument("--command", default="make pages")
    args = ap.parse_args(argv)
    trees: dict = {}
    if args.before:
        trees["before"] = export(args.before)
    trees["after"] = ROOT
    try:
        cpu = {name: cpu_costs(tree, args.hands, 41, args.blocks, args.block)
               for name, tree in trees.items()}
        runs, logs, load_start, load_end = load_runs(trees, args.windows, args.window)
    finally:
        if args.before:
            shutil.rmtree(trees["before"], ignore_errors=True)
    info = machine()
    rps = {name: statistics.median(w["rps"] for w in runs[name]) for name in runs}
    cpu_ms = {name: sum(w["cpu_ms"] * w["requests"] for w in runs[name])
              / max(1, sum(w["requests"] for w in runs[name])) for name in runs}
    mix = {name: rps[name] / rps["minimal"] for name in trees}
    after = cpu["after"]
    ok = {"page": after["ratio_total"] <= TARGET_PAGE,
          "healthz": after["healthz_ratio"] <= TARGET_HEALTHZ,
          "mix": mix["after"] >= TARGET_MIX}
    before_note = (f"before = `git archive {args.before}`, after = this checkout"
                   if args.before else "this checkout")
    lines = [
        HEAD, "",
        f"`{args.command}` (bench/pages.py), {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}: "
        f"{before_note}, every figure from one run. Machine: {info['nproc']} CPUs "
        f"({info['cpu']}), Linux {info['kernel']}, Python {info['python']}, {info['gunicorn']}; "
        f"load average at the start of the load windows {load_start}, at the end {load_end} "
        "(other work on the machine shows here).", "",
        f"**1. CPU per request, the same {after['n']} fresh hands** (Flask test client, "
        "in-process; API call and page fragment for each hand, the order alternating):", "",
        "| code | API median ms | page median ms | page ÷ API (total CPU) | page ÷ API (medians) |",
        "|---|---:|---:|---:|---:|"]
    for name in trees:
        c = cpu[name]
        lines.append(f"| {name} | {c['api_ms']:.2f} | {c['page_ms']:.2f} | "
                     f"{c['ratio_total']:.2f}× | {c['ratio_median']:.2f}× |")
    lines += ["", f"**2. `/healthz` against a minimal Flask route** (bench/minimal_app.py), "
              f"each called as a WSGI app in-process, {args.blocks} alternating blocks of "
              f"{args.block} requests each:", "",
              "| code | `/healthz` µs (median block) | minimal route µs | ratio (totals) | "
              "ratio per block pair (min–max) | `/healthz?via=flask` µs (through Flask and "
              "every hook) | its ratio |", "|---|---:|---:|---:|---:|---:|---:|"]
    for name in trees:
        c = cpu[name]
        lines.append(f"| {name} | {c['healthz_us']:.0f} | {c['minimal_us']:.0f} | "
                     f"{c['healthz_ratio']:.2f}× | {c['healthz_ratios'][0]:.2f}–"
                     f"{c['healthz_ratios'][-1]:.2f}× | {c['flask_us']:.0f} | "
                     f"{c['flask_ratio']:.2f}× |")
    lines += ["", f"**3. 50/50 page/API mix against the minimal route, 2 gunicorn workers each**, "
              f"4 client threads on the same machine (a connection per request), "
              f"{args.windows} windows of {args.window:.0f} s per server, alternating:", "",
              "| server | req/s per window | median req/s | ÷ minimal route | server CPU per "
              "request | errors |", "|---|---|---:|---:|---:|---:|"]
    for name in runs:
        per_window = ", ".join(f"{w['rps']:.0f}" for w in runs[name])
        label = "minimal route" if name == "minimal" else f"{name}: the mix"
        ratio = "1" if name == "minimal" else f"{mix[name]:.3f}×"
        lines.append(f"| {label} | {per_window} | {rps[name]:.0f} | {ratio} | "
                     f"{cpu_ms[name]:.3f} ms | {sum(w['errors'] for w in runs[name])} |")
    lines += ["", "The client threads share the 2 CPUs with the workers (the minimal route's "
              "req/s is bounded by the client more than by its server), so the req/s ratio is "
              f"what this machine measures; by server CPU per request the mix costs "
              f"{cpu_ms['after'] / cpu_ms['minimal']:.1f}× the minimal route. Tracebacks in the "
              "logs: " + ", ".join(f"{n} {logs[n].count('Traceback')}" for n in logs) + ".", ""]
    lines += ["Targets (after): page ÷ API ≤ 1.5×: "
              f"{after['ratio_total']:.2f}× — {verdict(ok['page'])}; `/healthz` ÷ minimal route "
              f"≤ 1.15×: {after['healthz_ratio']:.2f}× — {verdict(ok['healthz'])}; mix ÷ minimal "
              f"route ≥ 0.25×: {mix['after']:.3f}× — {verdict(ok['mix'])}.", ""]
    lines += [
        f"`/healthz` is met by its fast path (webcalc/web/health.py: a plain `GET /healthz` "
        f"replays the app's first answer, same bytes). Through Flask, with every hook, the same "
        f"answer costs {after['flask_ratio']:.2f}× the minimal route: Flask's request context "
        "(the session opened, the URL adapter bound, routing), `jsonify`, and the hooks (limits, "
        "CSRF, validators; page caching, security headers, compression), each list merged into "
        "one call.", ""]
    if not ok["page"]:
        lines += [
            "**Why the page misses (cProfile of 400 fresh page fragments, and the phases timed "
            "without the profiler):** about a quarter of a page is the engine call the API makes "
            "too (with 0.4 ms more to put its messages in the page's language); over a third is "
            "the templates (`_panel.html`, `_result.html`: the 牌理 rows, waits and readings, "
            "whose per-tile and per-group HTML caches still miss on fresh hands — about one "
            "group and one tile a page — and some 70 translated strings); about a sixth is "
            "reading the room from the query (WTForms building 8 fields, the room's options, the "
            "tap state, the canonical URL: `webcalc/web/room.py`, `tap.py`, `forms.py`); the "
            "rest is the rest of `render_room` (language links, the kinds in play) and Flask. "
            "The API is the engine plus JSON, so the page costs the API plus all of that. "
            "What would close it: the result's rows drawn by Python string building instead "
            "of Jinja macros on a miss, the room read once per variant-and-options state "
            "instead of per request (after the room/tap split), the form's inputs drawn without "
            "constructing WTForms fields.", ""]
    if not ok["mix"]:
        lines += [
            "**Why the mix misses:** the minimal route costs its server "
            f"{cpu_ms['minimal']:.2f} ms of CPU a request (mostly gunicorn's own work), the mix "
            f"{cpu_ms['after']:.2f} ms: half of it pages (half of those whole pages with the "
            "layout), each several times an API call. The ratio follows the page's cost: it "
            "closes with the page target above.", ""]
    rows = [f"| issue 26.3: page CPU ≤ 1.5× the API's on the same fresh hands (total) | "
            f"{after['ratio_total']:.2f}× (medians {after['ratio_median']:.2f}×) | "
            f"{verdict(ok['page'])} |",
            f"| issue 26.3: `/healthz` CPU ≤ 1.15× a minimal Flask route | "
            f"{after['healthz_ratio']:.2f}× ({after['healthz_ratios'][0]:.2f}–"
            f"{after['healthz_ratios'][-1]:.2f}; through Flask and every hook, "
            f"`/healthz?via=flask`: {after['flask_ratio']:.2f}×) | {verdict(ok['healthz'])} |",
            f"| issue 26.3: 2-worker 50/50 page/API mix ≥ 0.25× the minimal route's req/s | "
            f"{mix['after']:.3f}× ({rps['after']:.0f} ÷ {rps['minimal']:.0f} req/s) | "
            f"{verdict(ok['mix'])} |"]
    text = "\n".join(lines)
    print(text)
    print("\n".join(rows))
    if not args.no_write:
        write_section(Path(args.out), text, HEAD)
        update_targets(Path(args.out), rows)


if __name__ == "__main__":
    main()
