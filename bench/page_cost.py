"""Issue 38 parts 2 and 3: a calculator page against its API call, and an unchanged answer
(a 304) against a minimal Flask route, CPU time, interleaved in one process.

``python bench/page_cost.py [--hands N] [--rounds R] [--seed S] [--profile page|poll|api]``

* **page ÷ API**: for ``--hands`` fresh requests (bench/hands.py, a new seed; none the
  warm-up's) the full calculator page as a browser asks for it (``GET /?…`` from
  :func:`hands.page_query`, a 303 to the canonical URL followed) and ``POST
  /api/v1/analyze`` for the same hand, the order alternating hand by hand, through Flask's
  test client; and the htmx fragment of the same query (what a tap or a change asks for).
* **304 ÷ minimal route**: webcalc's live poll (``GET /t/<view>/live``), its JSON read
  (``GET /api/v1/tables/<token>``), each with the ``If-None-Match`` of the table's current
  version (a 304), ``/healthz?via=flask`` and bench/minimal_app.py's one route, each called as
  a WSGI app on a prepared environ (no client in the timing), in alternating blocks.

CPU is ``time.process_time``; ratios are of totals measured in the same run (the machine is
shared: report the load average printed with them). ``--profile`` prints a cProfile of one
path instead (cumulative, top 40).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import itertools
import json
import os
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: ``--tree DIR`` (before the other arguments): measure the webcalc of another checkout (its
#: compiled part built in place), with this file's inputs; two trees run at once, started
#: together (``--gun``), give a before and after from one moment of the machine
TREE = Path(sys.argv[sys.argv.index("--tree") + 1]).resolve() if "--tree" in sys.argv else ROOT
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(TREE))

import minimal_app  # noqa: E402
from hands import fresh_requests, page_query  # noqa: E402
from wsgi_calls import wsgi_caller  # noqa: E402

from webcalc import create_app  # noqa: E402

assert Path(sys.modules["webcalc"].__file__ or "").resolve().is_relative_to(TREE)


def setup(tmp: str):
    app = create_app({"TESTING": True, "SECRET_KEY": "bench",
                      "DATABASE_URL": f"sqlite:///{tmp}/bench.db", "LEDGER_TABLES_PER_HOUR": 0})
    client = app.test_client()
    made = client.post("/api/v1/tables", json={"variant": "zhengzhou"}).json
    edit, view = made["edit_token"], made["view_token"]
    r = client.post(f"/api/v1/tables/{edit}/hands", json={
        "settlement": {"winner": None}, "expected_number": 1, "idempotency_key": "bench-1"})
    assert r.status_code == 201, r.json
    live = client.get(f"/t/{view}/live")
    read = client.get(f"/api/v1/tables/{view}")
    return app, client, edit, view, live.headers["ETag"], read.headers["ETag"]


def page_requests(seed: int, n: int) -> list[dict]:
    return [r for r in itertools.islice(fresh_requests(seed), n * 20) if page_query(r)][:n]


def run(hands: int, rounds: int, block: int, seed: int, gun: str | None = None) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        app, c, edit, view, live_etag, read_etag = setup(tmp)
        for r in page_requests(seed + 1_000_003, 60):            # warm-up, other hands
            c.post("/api/v1/analyze", json=r)
            c.get(page_query(r), follow_redirects=True)
            c.get(page_query(r), headers={"HX-Request": "true"})
        reqs = page_requests(seed, hands)
        while gun and not os.path.exists(gun):
            time.sleep(0.01)
        cpu: dict[str, list[float]] = {k: [] for k in ("api", "page", "fragment")}
        redirects = 0
        for i, r in enumerate(reqs):
            q = page_query(r)
            order = ("api", "page", "fragment") if i % 2 else ("page", "fragment", "api")
            for kind in order:
                t = time.process_time()
                if kind == "api":
                    c.post("/api/v1/analyze", json=r)
                elif kind == "page":
                    resp = c.get(q, follow_redirects=True)
                    redirects += len(resp.history)
                else:
                    c.get(q, headers={"HX-Request": "true"})
                cpu[kind].append(time.process_time() - t)
        calls = {
            "minimal": wsgi_caller(minimal_app.create_app(), "/"),
            "healthz_flask": wsgi_caller(app, "/healthz?via=flask"),
            "live_304": wsgi_caller(app, f"/t/{view}/live", {"If-None-Match": live_etag}, "304"),
            "read_304": wsgi_caller(app, f"/api/v1/tables/{view}",
                                    {"If-None-Match": read_etag}, "304"),
        }
        per: dict[str, list[float]] = {k: [] for k in calls}
        names = list(calls)
        for b in range(rounds):
            for name in (names if b % 2 == 0 else names[::-1]):
                call = calls[name]
                t = time.process_time()
                for _ in range(block):
                    call()
                per[name].append((time.process_time() - t) / block)
        app.extensions["ledger"].dispose()
    out = {"hands": len(reqs), "redirects": redirects, "load": os.getloadavg()}
    for k, xs in {**cpu, **per}.items():
        out[k + "_median_us"] = statistics.median(xs) * 1e6
        out[k + "_total"] = sum(xs)
    for k in ("page", "fragment"):
        out[k + "/api"] = sum(cpu[k]) / sum(cpu["api"])
    for k in ("healthz_flask", "live_304", "read_304"):
        out[k + "/minimal"] = sum(per[k]) / sum(per["minimal"])
        out[k + "/minimal range"] = (min(a / b for a, b in zip(per[k], per["minimal"])),
                                     max(a / b for a, b in zip(per[k], per["minimal"])))
    return out


def profile(path: str, hands: int, seed: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        app, c, edit, view, live_etag, read_etag = setup(tmp)
        for r in page_requests(seed + 1_000_003, 40):
            c.post("/api/v1/analyze", json=r)
            c.get(page_query(r), follow_redirects=True)
        reqs = page_requests(seed, hands)
        call = wsgi_caller(app, f"/t/{view}/live", {"If-None-Match": live_etag}, "304")
        prof = cProfile.Profile()
        prof.enable()
        if path == "page":
            for r in reqs:
                c.get(page_query(r), follow_redirects=True)
        elif path == "api":
            for r in reqs:
                c.post("/api/v1/analyze", json=r)
        else:
            for _ in range(hands * 20):
                call()
        prof.disable()
        app.extensions["ledger"].dispose()
    s = io.StringIO()
    pstats.Stats(prof, stream=s).sort_stats(os.environ.get("SORT", "cumulative")).print_stats(45)
    print(s.getvalue())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=150)
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--block", type=int, default=300)
    ap.add_argument("--seed", type=int, default=int(time.time()) % 100_000)
    ap.add_argument("--profile", choices=("page", "api", "poll"))
    ap.add_argument("--tree", default=str(ROOT), help="the checkout to measure")
    ap.add_argument("--gun", default=None, help="wait for this file before timing")
    args = ap.parse_args()
    if args.profile:
        profile(args.profile, args.hands, args.seed)
        return
    out = run(args.hands, args.rounds, args.block, args.seed, args.gun)
    print(json.dumps({"tree": str(TREE), **out}, indent=1))


if __name__ == "__main__":
    main()
