"""Circle benchmark: ``make bench-circle`` → bench/RESULTS.md "## Circles (issue 24)".

On SQLite (a fresh file, WAL, ``synchronous=FULL``), through the whole Flask app in-process:
a circle of 8 players and 100 tables × 16 entries (郑州, freshly generated entries as in
bench/ledger.py: 80 % wins with tiles, 8 % 荒庄, 6 % wins without tiles, 6 % adjustments;
each table seats 4 of the 8 at random), built first and not timed. Then ``--samples`` times:
one write to a random table of the circle (alternately a fresh entry recorded, and that entry
undone, so each table stays at 16 counted entries), then, timed, the circle's page (``GET
/c/<view>``: standings, 100 evenings, QR code), its JSON (``GET /api/v1/circles/<view>``) and
a player's page (``GET /c/<view>/p/<id>``). Every read after a write: nothing is cached
between writes, the standings are summed from the kept per-seat rows (docs/LEDGER.md
"Circles"). Target: the circle page's p99 ≤ 50 ms.

Python stdlib + the project only.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))

from ledger import machine, pct, random_entry  # noqa: E402
from soak import write_section  # noqa: E402

from webcalc import create_app  # noqa: E402

TARGET_MS = 50.0


def build(app, tables: int, entries: int, rng: random.Random):
    ledger = app.extensions["ledger"]
    made = ledger.create_circle({"name": "周五牌友",
                                 "players": [f"牌友{i + 1}" for i in range(8)]})
    edits = []
    for _ in range(tables):
        seats = rng.sample(range(1, 9), 4)
        t = ledger.create_table({"variant": "zhengzhou", "circle": made.edit_token,
                                 "players": seats,
                                 "options": {"seven_pairs_double": True}})
        for _n in range(entries):
            ledger.record(t.edit_token, random_entry(rng))
        edits.append(t.edit_token)
    return made, edits


CPU: dict[str, list[float]] = {}


def timed(client, path: str, key: str | None = None) -> float:
    """Wall ms of one GET; its CPU ms (this process: the app and SQLite) go in CPU[key]."""
    t0, c0 = time.perf_counter(), time.process_time()
    r = client.get(path)
    dt = time.perf_counter() - t0
    if key is not None:
        CPU.setdefault(key, []).append((time.process_time() - c0) * 1000)
    assert r.status_code == 200, (path, r.status_code)
    return dt * 1000


def run(samples: int, tables: int, entries: int, seed: int) -> dict:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"TESTING": True, "LEDGER_TABLES_PER_HOUR": 0,
                          "DATABASE_URL": f"sqlite:///{folder}/bench.sqlite3"})
        t0 = time.perf_counter()
        made, edits = build(app, tables, entries, rng)
        built = time.perf_counter() - t0
        client = app.test_client()
        view = made.view_token
        ledger = app.extensions["ledger"]
        for _ in range(3):                                  # warm-up: templates, imports
            timed(client, f"/c/{view}")
            timed(client, f"/api/v1/circles/{view}")
            timed(client, f"/c/{view}/p/1")
        out: dict[str, list[float]] = {"write": [], "page": [], "json": [], "player": []}
        pending = None
        for i in range(samples):
            w0 = time.perf_counter()
            if pending is None:
                token = rng.choice(edits)
                r = client.post(f"/api/v1/tables/{token}/hands", json=random_entry(rng))
                assert r.status_code == 201, r.json
                pending = (token, r.json["hand"]["number"])
            else:
                r = client.post(f"/api/v1/tables/{pending[0]}/undo",
                                json={"number": pending[1]})
                assert r.status_code == 200, r.json
                pending = None
            out["write"].append((time.perf_counter() - w0) * 1000)
            out["page"].append(timed(client, f"/c/{view}", "page"))
            out["json"].append(timed(client, f"/api/v1/circles/{view}", "json"))
            out["player"].append(timed(client, f"/c/{view}/p/{1 + i % 8}", "player"))
        c = ledger.circle(view)
        assert len(c["tables"]) == tables
        hands = sum(t["hands"] for t in c["tables"])
        app.extensions["ledger"].dispose()
    return {"times": out, "built_s": built, "hands": hands}


def section(res: dict, args, load0, load1) -> str:
    now = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    rows = [("circle page `GET /c/<view>`", "page"), ("circle JSON `GET /api/v1/circles/<view>`",
                                                     "json"),
            ("a player's page `GET /c/<view>/p/<id>`", "player"),
            ("the write before (record / undo)", "write")]
    lines = [
        "## Circles (issue 24)", "",
        f"`make bench-circle` (`bench/circle.py --samples {args.samples} --tables {args.tables} "
        f"--entries {args.entries} --seed {args.seed}`), {now}; {machine()}; load average "
        f"{load0[0]:.2f} {load0[1]:.2f} {load0[2]:.2f} at the start, {load1[0]:.2f} "
        f"{load1[1]:.2f} {load1[2]:.2f} at the end (other work on the machine shows in it). "
        f"SQLite, a fresh file; a circle of 8 players and {args.tables} 郑州 tables × "
        f"{args.entries} fresh entries ({res['hands']} counted hands; built in "
        f"{res['built_s']:.0f} s, not timed). Each sample: one write to a random table of the "
        "circle (a fresh entry, then its undo), then the reads below, wall time through the "
        f"whole app in-process; CPU is this process's time per request (with {os.cpu_count()} "
        "cores shared, wall time includes waiting for one). The standings sum the kept "
        f"per-seat rows ({4 * args.tables} here); no hand "
        f"is read. Target: the circle page's p99 ≤ {TARGET_MS:.0f} ms.", "",
        "| request | samples | p50 ms | p99 ms | max ms | CPU p50 / p99 ms | p99 ≤ 50 ms |",
        "|---|---:|---:|---:|---:|---:|---|"]
    for label, key in rows:
        xs = res["times"][key]
        cpu = CPU.get(key)
        cpu_text = f"{pct(cpu, .5):.1f} / {pct(cpu, .99):.1f}" if cpu else ""
        target = ("met" if pct(xs, .99) <= TARGET_MS else "missed") if key == "page" else ""
        lines.append(f"| {label} | {len(xs)} | {pct(xs, .5):.1f} | {pct(xs, .99):.1f} | "
                     f"{max(xs):.1f} | {cpu_text} | {target} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--samples", type=int, default=200)
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--entries", type=int, default=16)
    ap.add_argument("--seed", type=int, default=int.from_bytes(os.urandom(4), "big"))
    ap.add_argument("--no-write", action="store_true", help="print, leave RESULTS.md alone")
    args = ap.parse_args()
    load0 = os.getloadavg()
    res = run(args.samples, args.tables, args.entries, args.seed)
    text = section(res, args, load0, os.getloadavg())
    print(text)
    if not args.no_write:
        write_section(ROOT / "bench" / "RESULTS.md", text, "## Circles (issue 24)")


if __name__ == "__main__":
    main()
