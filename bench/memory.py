"""Memory benchmark (issue 13.3): ``make memory`` → bench/RESULTS.md, "## Memory (issue 13.3)".

1. **In one process:** :func:`webcalc.warmup.warm_up` (what gunicorn's master runs before it
   forks), then 3,000 fresh analyses (bench/hands.py: every request distinct) through
   :func:`webcalc.analysis.analyze`; RSS (``/proc/self/status`` VmRSS, after ``gc.collect``)
   every 500 analyses. Target: growth ≤ 15 MB.
2. **Where a process's memory goes:** a child Python process loads what the gunicorn master
   loads, step by step (Python, gunicorn, the Flask stack, the engine, the ledger's SQLAlchemy
   and models, the rest of the app, the engine warm-up, the page warm-up, ``malloc_trim``),
   RSS after each step.
3. **Behind gunicorn:** ``gunicorn.conf.py`` (``preload_app``, both warm-ups, a SQLite ledger
   in a fresh temporary folder) with 2 sync workers and ``max_requests`` off, 10,000 fresh
   requests from 4 client threads, in two mixes, each on a new server: *analyser* (the
   issue's: half ``POST /api/v1/analyze``, half the page as an htmx fragment where the form
   can express the request) and *with the ledger* (10 % ledger requests, as an evening at a
   table mixes them: record a fresh hand, the table page by either token, the JSON table,
   the live poll, the chart; a new table every 100 entries; the rest as in the first mix).
   Each worker's RSS, PSS and USS (``/proc/PID/smaps_rollup``: PSS splits each shared page
   between the processes sharing it, USS = the pages only this process has) after its first
   requests and at the end, and the master's. Target (the issue's figure, on RSS): ≤ 50 MB
   per worker; when missed, the report names what the RSS is made of. Then 3 more batches
   of 1,000 fresh requests on the same server, each worker's USS after each: a worker's USS
   after 10,000 ≤ 40 MB and its growth ≤ 2 MB per further 1,000, with the split of its
   private pages by kind of mapping (:func:`private_split`).
"""

from __future__ import annotations

import argparse
import gc
import http.client
import itertools
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
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from hands import fresh_requests, page_query  # noqa: E402
from ledger import random_entry  # noqa: E402
from soak import (  # noqa: E402
    HOST,
    children,
    free_port,
    loadavg,
    machine,
    rss_mb,
    stop_server,
    wait_ready,
    write_section,
)


def self_rss() -> float:
    gc.collect()
    return rss_mb(os.getpid())


def smaps_mb(pid: int) -> dict | None:
    """``{"rss", "pss", "uss"}`` of a process in MB (``/proc/PID/smaps_rollup``; USS =
    Private_Clean + Private_Dirty), None when it is gone."""
    out = {"rss": 0.0, "pss": 0.0, "uss": 0.0}
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            key, _, rest = line.partition(":")
            kb = rest.split()[0] if rest.split() else "0"
            if key == "Rss":
                out["rss"] = int(kb) / 1024
            elif key == "Pss":
                out["pss"] = int(kb) / 1024
            elif key in ("Private_Clean", "Private_Dirty"):
                out["uss"] += int(kb) / 1024
    except (OSError, ValueError):
        return None
    return out


def private_split(pid: int) -> dict | None:
    """A process's private pages (USS) by kind of mapping, in MB (``/proc/PID/smaps``):
    ``heap`` (the C allocator's brk heap: large strings, SQLite's page cache…), ``anon``
    (anonymous maps: Python's small-object arenas and large malloc blocks) and ``other``
    (files, stacks). None when the process is gone."""
    out = {"heap": 0.0, "anon": 0.0, "other": 0.0}
    kind = "other"
    try:
        for line in Path(f"/proc/{pid}/smaps").read_text().splitlines():
            head = line.split(maxsplit=6)
            if head and "-" in head[0] and not head[0].endswith(":"):
                name = head[5] if len(head) > 5 else ""
                kind = "heap" if name == "[heap]" else "anon" if not name else "other"
            elif head and head[0] in ("Private_Clean:", "Private_Dirty:"):
                out[kind] += int(head[1]) / 1024
    except (OSError, ValueError, IndexError):
        return None
    return out


def mapped_file_mb(pid: int, suffix: str) -> tuple[float, float] | None:
    """``(rss, private)`` in MB of a process's mappings of the file whose path ends with
    ``suffix`` (``/proc/PID/smaps``; 盘锦's rows table: webcalc/variants/panjin_table.py), or
    None when the process maps no such file."""
    rss = private = 0.0
    inside = found = False
    try:
        for line in Path(f"/proc/{pid}/smaps").read_text().splitlines():
            head = line.split(maxsplit=6)
            if head and "-" in head[0] and not head[0].endswith(":"):
                inside = len(head) > 5 and head[5].endswith(suffix)
                found = found or inside
            elif inside and head and head[0] == "Rss:":
                rss += int(head[1]) / 1024
            elif inside and head and head[0] in ("Private_Clean:", "Private_Dirty:"):
                private += int(head[1]) / 1024
    except (OSError, ValueError, IndexError):
        return None
    return (rss, private) if found else None


#: the steps of :func:`breakdown`: (label, code run in the child after the previous steps)
STEPS = (
    ("Python (interpreter, site)", "pass"),
    ("gunicorn", "import gunicorn.app.wsgiapp, gunicorn.arbiter, gunicorn.workers.sync"),
    ("Flask, Jinja2, Werkzeug, WTForms, Flask-WTF, Flask-Babel",
     "import flask, flask_wtf, flask_babel, wtforms"),
    ("the engine (webcalc.analysis, efficiency)", "import webcalc.analysis, webcalc.efficiency"),
    ("the ledger: SQLAlchemy (core, ORM, SQLite dialect) and its models",
     "import webcalc.ledger, sqlalchemy.dialects.sqlite\n"
     "from sqlalchemy.orm import configure_mappers; configure_mappers()"),
    ("the rest of the app (create_app: blueprints, forms, catalogues; migration in a child)",
     "from webcalc import create_app; app = create_app()"),
    ("engine warm-up (webcalc.warmup.warm_up, the per-suit tables)",
     "from webcalc.warmup import warm_up; warm_up()"),
    ("page warm-up (webcalc.web.warmup: templates compiled)",
     "from webcalc.web.warmup import warm_pages; warm_pages(app)"),
    ("gc.collect + malloc_trim (what the master does before it forks)",
     "import gc, ctypes; gc.collect(); ctypes.CDLL(None).malloc_trim(0)"),
)


def breakdown() -> list[tuple[str, float]]:
    """RSS after each of :data:`STEPS`, in a fresh child process (a SQLite ledger in a
    temporary folder)."""
    lines = ["import sys", "def rss():",
             "    for l in open('/proc/self/status'):",
             "        if l.startswith('VmRSS'): return int(l.split()[1]) / 1024"]
    for i, (_, code) in enumerate(STEPS):
        lines += [code, f"print({i}, rss(), flush=True)"]
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp}/ledger.sqlite3",
               "WEBCALC_SECRET_KEY": "memory"}
        out = subprocess.run([sys.executable, "-c", "\n".join(lines)], cwd=tmp, env=env,
                             capture_output=True, text=True, timeout=300, check=True).stdout
    values = [float(line.split()[1]) for line in out.splitlines() if line.strip()]
    return [(label, v) for (label, _), v in zip(STEPS, values)]


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


class LedgerClient:
    """One client thread's ledger requests: its own table (a new one every
    :data:`TABLE_ENTRIES` entries), fresh hands (bench/ledger.py), reads of any table."""

    TABLE_ENTRIES = 100
    KINDS = (("record", 0.45), ("view_page", 0.20), ("edit_page", 0.10), ("read", 0.10),
             ("live", 0.10), ("chart", 0.05))
    views: list[str] = []                       # every thread's view tokens

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.edit = self.view = None
        self.entries = 0

    def next_request(self):
        """``(method, path, body, headers, kind)``; creates the table first when needed."""
        rng = self.rng
        if self.edit is None or self.entries >= self.TABLE_ENTRIES:
            body = {"variant": "zhengzhou", "names": ["甲", "乙", "丙", "丁"]}
            return "POST", "/api/v1/tables", body, {}, "create"
        roll, kind = rng.random(), "record"
        for k, share in self.KINDS:
            if roll < share:
                kind = k
                break
            roll -= share
        view = rng.choice(self.views) if self.views else self.view
        if kind == "record":
            body = {**random_entry(rng), "expected_number": self.entries + 1,
                    "idempotency_key": secrets.token_hex(8)}
            return "POST", f"/api/v1/tables/{self.edit}/hands", body, {}, kind
        path = {"view_page": f"/t/{view}", "edit_page": f"/t/{self.edit}",
                "read": f"/api/v1/tables/{view}", "live": f"/t/{view}/live",
                "chart": f"/t/{view}/chart.svg"}[kind]
        return "GET", path, None, {}, kind

    def answered(self, kind: str, status: int, raw: bytes) -> None:
        if kind == "create" and status == 201:
            made = json.loads(raw)
            self.edit, self.view, self.entries = made["edit_token"], made["view_token"], 0
            LedgerClient.views.append(self.view)
        elif kind == "record" and status == 201:
            self.entries += 1


def _run(port, reqs, lock, counts, clients) -> None:
    """Send ``reqs`` from one thread per client in ``clients`` (each keeps its ledger table
    across calls) until ``reqs`` is used up."""
    threads = [threading.Thread(target=_send, args=(port, reqs, lock, counts),
                                kwargs={"ledger": c}) for c in clients]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def _send(port, reqs, lock, counts, seed=0, times=None, ledger=None):
    """Send ``reqs`` one at a time; ``times``: a list to append ``(is_page, seconds)`` to;
    ``ledger``: the :class:`LedgerClient` to use (a new one from ``seed`` when None)."""
    ledger = ledger or LedgerClient(seed)
    while True:
        with lock:
            item = next(reqs, None)
        if item is None:
            return
        kind = None
        if item == LEDGER:
            method, path, body, headers, kind = ledger.next_request()
            headers = {"Content-Type": "application/json"} if body is not None else headers
            body = json.dumps(body, ensure_ascii=False).encode() if body is not None else None
        else:
            method, path, body, headers = item
        try:
            t0 = time.perf_counter()
            conn = http.client.HTTPConnection(HOST, port, timeout=30)
            conn.request(method, path, body=body, headers=headers)
            resp = conn.getresponse()
            raw = resp.read()
            conn.close()
            if times is not None:
                times.append((kind is None and method == "GET", time.perf_counter() - t0))
            key = resp.status
            if kind:
                ledger.answered(kind, resp.status, raw)
        except (OSError, http.client.HTTPException) as exc:
            key = type(exc).__name__
        with lock:
            counts[key] = counts.get(key, 0) + 1
            if kind:
                counts["ledger"] = counts.get("ledger", 0) + 1


#: a ledger request in the stream (the client thread makes it: it needs its table's tokens)
LEDGER = ("ledger",)


def request_stream(n: int, seed: int, ledger_share: float = 0.0):
    """n requests: a share ``ledger_share`` of ledger requests (:data:`LEDGER`), the rest
    alternately the API and (where the form expresses it) the page."""
    gen = fresh_requests(seed)
    rng = random.Random(seed)
    made = analyses = 0
    while made < n:
        made += 1
        if ledger_share and rng.random() < ledger_share:
            yield LEDGER
            continue
        req = next(gen)
        query = page_query(req) if analyses % 2 else None
        analyses += 1
        if query:
            yield "GET", query, None, {"HX-Request": "true"}
        else:
            yield ("POST", "/api/v1/analyze", json.dumps(req, ensure_ascii=False).encode(),
                   {"Content-Type": "application/json"})


def behind_gunicorn(n: int, seed: int, ledger_share: float = 0.0, workers: int = 2,
                    concurrency: int = 4, further: int = 3, batch: int = 1000) -> dict:
    port = free_port()
    cmd = [str(Path(sys.executable).with_name("gunicorn")), "-c", str(ROOT / "gunicorn.conf.py"),
           "--bind", f"{HOST}:{port}", "--workers", str(workers), "--max-requests", "0",
           "--access-logfile", "/dev/null", "webcalc:create_app()"]
    tmp = tempfile.TemporaryDirectory()
    env = {**os.environ, "WEBCALC_SECRET_KEY": "memory-" + os.urandom(8).hex(),
           "DATABASE_URL": f"sqlite:///{tmp.name}/ledger.sqlite3", "LEDGER_TABLES_PER_HOUR": "0"}
    env.pop("BIND", None)
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    counts: dict = {}
    LedgerClient.views = []
    try:
        wait_ready(port, proc, timeout=60)
        deadline = time.monotonic() + 30
        while len(children(proc.pid)) < workers and time.monotonic() < deadline:
            time.sleep(0.1)                              # every worker booted
        pids = children(proc.pid)
        master = smaps_mb(proc.pid)
        stream = request_stream(n + further * batch, seed, ledger_share)
        lock = threading.Lock()
        first = list(itertools.islice(stream, 50))       # a few requests each, then measure
        times: list = []
        _send(port, iter(first), lock, counts, seed, times)
        start = {w: smaps_mb(w) for w in pids}
        t0 = time.monotonic()
        main_part = itertools.islice(stream, n - len(first))
        clients = [LedgerClient(seed + i + 1) for i in range(concurrency)]
        _run(port, main_part, lock, counts, clients)
        seconds = time.monotonic() - t0
        end = {w: smaps_mb(w) for w in pids}
        split = {w: private_split(w) for w in pids}
        rows_table = {w: mapped_file_mb(w, "_pjunit_rows.bin") for w in pids}
        # then ``further`` batches of ``batch`` fresh requests, each worker's USS after each:
        # the growth per 1,000 once a worker is past its first 10,000
        steps = [end]
        for _ in range(further):
            _run(port, itertools.islice(stream, batch), lock, counts, clients)
            steps.append({w: smaps_mb(w) for w in pids})
        master_end = smaps_mb(proc.pid)
        after = children(proc.pid)
    finally:
        stderr = stop_server(proc)
        tmp.cleanup()
    return {"pids": pids, "after": after, "start": start, "end": end, "counts": counts,
            "seconds": seconds, "master": master, "master_end": master_end,
            "steps": steps, "batch": batch, "split": split, "rows_table": rows_table,
            "tracebacks": stderr.count("Traceback"), "workers": workers,
            "concurrency": concurrency, "n": n, "ledger_share": ledger_share,
            "pages": [t for is_page, t in times if is_page],
            "load": loadavg()}


def report(a: dict, parts: list, mixes: list[dict], args) -> str:
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
    steps = parts
    lines += ["", "**Where a process's memory goes** (a child process loading what the master "
              "loads, step by step; bench/memory.py `breakdown`):", "",
              "| step | RSS after MB | step adds MB |", "|---|---:|---:|"]
    prev = None
    for label, rss in steps:
        lines.append(f"| {label} | {rss:.1f} | "
                     + (f"{rss - prev:+.1f}" if prev is not None else "") + " |")
        prev = rss
    for b in mixes:
        lines += [""] + mix_report(b, steps)
    return "\n".join(lines)


def _add(steps, word: str) -> float:
    """The MB the step whose label starts with ``word`` adds (0 when absent)."""
    for i, (label, rss) in enumerate(steps):
        if label.startswith(word) and i:
            return rss - steps[i - 1][1]
    return 0.0


def mix_report(b: dict, steps) -> list[str]:
    ok = sum(v for k, v in b["counts"].items() if isinstance(k, int) and k < 500)
    worst = max(b["end"].values(), key=lambda m: m["rss"])
    name = (f"with the ledger ({b['ledger_share']:.0%} ledger requests)" if b["ledger_share"]
            else "analyser (the issue's mix)")
    what = ("half API, half the page as an htmx fragment where the form expresses the request"
            if not b["ledger_share"] else
            f"{b['ledger_share']:.0%} ledger requests (a fresh hand recorded 45 %, table page "
            "by view token 20 % and by edit token 10 %, JSON table 10 %, live poll 10 %, chart "
            "5 %; a new table every 100 entries), the rest half API, half the page")
    statuses = ", ".join(f"{k}: {v:,}" for k, v in sorted(b["counts"].items(), key=str)
                         if k != "ledger")
    m, me = b["master"], b["master_end"] or b["master"]
    lines = [f"**Behind gunicorn, {name}:** {b['workers']} sync workers, `preload_app`, "
             f"`max_requests` off; {b['n']:,} fresh requests ({what}; "
             f"{b['counts'].get('ledger', 0):,} ledger requests) from {b['concurrency']} client "
             f"threads in {b['seconds']:.0f} s (load average at the end {b['load']}); statuses "
             f"{statuses}; tracebacks in the log: {b['tracebacks']}; workers replaced: "
             f"{len(set(b['pids']) - set(b['after']))}. Master after its warm-ups: RSS "
             f"{m['rss']:.1f} MB, PSS {m['pss']:.1f} MB, USS {m['uss']:.1f} MB "
             f"(at the end: PSS {me['pss']:.1f}, USS {me['uss']:.1f}).", "",
             "| worker | RSS after 50 requests | RSS at the end | PSS at the end "
             "| USS at the end |", "|---|---:|---:|---:|---:|"]
    for i, w in enumerate(b["pids"], 1):
        st, en = b["start"][w], b["end"][w]
        lines.append(f"| {i} | {st['rss']:.1f} MB | {en['rss']:.1f} MB | {en['pss']:.1f} MB "
                     f"| {en['uss']:.1f} MB |")
    verdict = "met" if worst["rss"] <= 50 else "**missed**"
    lines += ["", f"Largest worker RSS after {b['n']:,} requests: **{worst['rss']:.1f} MB** "
              f"(target ≤ 50 MB RSS: {verdict}); PSS {worst['pss']:.1f} MB, USS "
              f"{worst['uss']:.1f} MB; {ok:,} answered below 500."]
    steps_uss = b.get("steps") or []
    if len(steps_uss) > 1:
        k = len(steps_uss) - 1
        head = " | ".join(f"USS after {b['n'] + i * b['batch']:,}" for i in range(k + 1))
        lines += ["", f"USS over {k} further batches of {b['batch']:,} fresh requests "
                  "(the same mix, the same server):", "",
                  f"| worker | {head} | growth per 1,000 |",
                  "|---|" + "---:|" * (k + 2)]
        growths = []
        for i, w in enumerate(b["pids"], 1):
            row = [st[w]["uss"] for st in steps_uss if st.get(w)]
            per = (row[-1] - row[0]) / (k * b["batch"] / 1000) if len(row) == k + 1 else None
            if per is not None:
                growths.append(per)
            lines.append(f"| {i} | " + " | ".join(f"{u:.1f} MB" for u in row)
                         + (f" | {per:+.2f} MB |" if per is not None else " | |"))
        worst_uss = max(b["end"][w]["uss"] for w in b["pids"])
        worst_growth = max(growths) if growths else float("nan")
        ok_uss, ok_growth = worst_uss <= 40, worst_growth <= 2
        lines += ["", f"Target (a worker's USS after {b['n']:,} fresh requests ≤ 40 MB, "
                  "growth ≤ 2 MB per further 1,000): largest USS "
                  f"**{worst_uss:.1f} MB** ({'met' if ok_uss else '**missed**'}), largest "
                  f"growth **{worst_growth:+.2f} MB per 1,000** "
                  f"({'met' if ok_growth else '**missed**'})."]
        worst_w = max(b["pids"], key=lambda w: b["end"][w]["uss"])
        sp = (b.get("split") or {}).get(worst_w)
        if sp:
            lines += ["", f"That worker's private pages after {b['n']:,} requests, by mapping "
                      f"(`/proc/PID/smaps`): anonymous maps (Python's object arenas, large "
                      f"blocks) {sp['anon']:.1f} MB, the C heap {sp['heap']:.1f} MB, files "
                      f"and stacks {sp['other']:.1f} MB."]
    pages = b["pages"]
    if len(pages) >= 3:
        rest = sorted(pages[2:])
        lines += ["", f"First pages (the first requests, one at a time, before the load): the "
                  f"first two page requests (the first is a worker's first page; with "
                  f"{b['workers']} workers the second most likely the other's) took "
                  f"{pages[0] * 1000:.0f} and {pages[1] * 1000:.0f} ms; the median of the next {len(rest)} "
                  f"{rest[len(rest) // 2] * 1000:.0f} ms, the slowest {rest[-1] * 1000:.0f} ms "
                  "(wall time on the client, fresh hands)."]
    if worst["rss"] > 50:
        shared = worst["rss"] - worst["uss"]
        worst_w = max(b["pids"], key=lambda w: b["end"][w]["rss"])
        table = (b.get("rows_table") or {}).get(worst_w)
        table_part = ("" if table is None else
                      f", 盘锦's rows table {table[0]:.0f} MB of it (a file the master maps "
                      f"read-only and read whole before the fork; {table[1]:.1f} MB of it "
                      "private to the worker)")
        sqla = _add(steps, "the ledger")
        flask = _add(steps, "Flask")
        base = steps[0][1] + _add(steps, "gunicorn")
        lines += ["", f"Why missed: {shared:.1f} MB of that RSS are pages the worker still "
                  "shares with the master (RSS counts them whole in every worker; PSS counts "
                  f"a share): Python and gunicorn about {base:.0f} MB, the Flask stack "
                  f"{flask:.0f} MB, SQLAlchemy and the ledger's models {sqla:.0f} MB (loaded "
                  "in the master for every worker: the ledger is part of the app, and loading "
                  "it per worker on its first ledger request would cost each worker the same "
                  "RSS, as private memory, and that request about 0.2 s)" + table_part
                  + ", the engine with its warmed tables and the compiled templates the rest. "
                  "The other "
                  f"{worst['uss']:.1f} MB (USS) are the worker's own: the engine's bounded "
                  "memo tables filling up with fresh hands (see the growth in one process "
                  "above), pages of the master's it wrote to, and the allocator's free lists"
                  + ("; with the ledger also pygal and segno (imported on a worker's first "
                     "chart and QR code, about 4 MB), the SQLite connection's page cache, the "
                     "ledger's bounded page and QR caches, and the SQLAlchemy pages its "
                     "requests write to." if b["ledger_share"] else ".")]
    return lines


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--analyses", type=int, default=3000)
    ap.add_argument("--requests", type=int, default=10000)
    ap.add_argument("--ledger-share", type=float, nargs="+", default=[0.0, 0.1],
                    help="one server per value: the share of ledger requests in its mix")
    ap.add_argument("--out", default=str(ROOT / "bench" / "RESULTS.md"))
    ap.add_argument("--no-write", action="store_true")
    ap.add_argument("--command", default="make memory")
    args = ap.parse_args(argv)
    a = in_process(args.analyses, seed=31)
    parts = breakdown()
    mixes = [behind_gunicorn(args.requests, seed=32 + i, ledger_share=share)
             for i, share in enumerate(args.ledger_share)]
    text = report(a, parts, mixes, args)
    print(text)
    if not args.no_write:
        write_section(Path(args.out), text, "## Memory (issue 13.3)")


if __name__ == "__main__":
    main()
