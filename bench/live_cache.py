"""What the table page's hand-list cache buys (issue 37): ``_live_rest`` in
webcalc/web/ledger_table.py keeps the rendered hand list per table version, token, language
and rights, so a second render of the same version reuses it.

``python bench/live_cache.py [--samples N] [--seed S] [--write]`` (SQLite in a temporary
file, the whole Flask app in-process). Each sample is a fresh table of 8-40 entries (郑州,
recorded through the API as bench/ledger.py generates them: wins with fresh tiles, 荒庄,
declared wins, adjustments), then, for cache on (A) and cache off (B) in an order that
alternates sample by sample, one more entry is recorded (not timed: every run sees a fresh
version) and the requests one version of a table gets at a table of four are timed:

* ``edit``: the scorer's table page after the write (``GET /t/<edit>``: the first render of
  this version, a miss either way);
* ``view 1`` … ``view 3``: three phones following the view link, each fetching the live
  region once for the new version (``GET /t/<view>/live``, totals and hand list; the first
  renders the list, the other two find it cached when the cache is on);
* ``edit again``: the scorer's page once more (a tap without JavaScript, a reload).

CPU time of this process per request (``time.process_time``: the app, the templates, SQLite;
the machine is shared, so CPU, not wall time), medians over the samples. "Buys" is B − A as a
share of B. Python stdlib + the project only.
"""

from __future__ import annotations

import argparse
import random
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))

from ledger import machine, random_entry  # noqa: E402
from soak import write_section  # noqa: E402

from webcalc import create_app  # noqa: E402

SECTION = "## The table page's hand-list cache (issue 37)"
KINDS = ("edit", "view 1", "view 2", "view 3", "edit again")
MIX = ("edit", "view 1", "view 2", "view 3")      # one version at a table of four


def _record(client, edit: str, n: int, rng: random.Random) -> None:
    body = {**random_entry(rng), "expected_number": n, "idempotency_key": secrets.token_hex(8)}
    r = client.post(f"/api/v1/tables/{edit}/hands", json=body)
    assert r.status_code == 201, (r.status_code, r.json)


def run(samples: int, seed: int) -> dict:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"SECRET_KEY": "bench", "DATABASE_URL": f"sqlite:///{tmp}/bench.db",
                          "LEDGER_TABLES_PER_HOUR": 0})
        client = app.test_client()
        cpu: dict[tuple[str, str], list[float]] = {}
        try:
            warm = client.post("/api/v1/tables", json={"variant": "zhengzhou"}).json
            _record(client, warm["edit_token"], 1, rng)
            for token in (warm["edit_token"], warm["view_token"]):
                assert client.get(f"/t/{token}").status_code == 200
                assert client.get(f"/t/{token}/live").status_code == 200
            for i in range(samples):
                made = client.post("/api/v1/tables", json={
                    "variant": "zhengzhou", "options": {"seven_pairs_double": True}}).json
                edit, view = made["edit_token"], made["view_token"]
                n = rng.randint(8, 40)
                for k in range(1, n + 1):
                    _record(client, edit, k, rng)
                for mode in (("on", "off") if i % 2 == 0 else ("off", "on")):
                    n += 1
                    _record(client, edit, n, rng)
                    cache = app.extensions.setdefault("ledger_live_cache", {})
                    for kind in KINDS:
                        path = f"/t/{edit}" if kind.startswith("edit") else f"/t/{view}/live"
                        if mode == "off":
                            cache.clear()
                        c0 = time.process_time()
                        r = client.get(path)
                        cpu.setdefault((mode, kind), []).append(time.process_time() - c0)
                        assert r.status_code == 200 and f'id="hand-{n}"'.encode() in r.data, \
                            (mode, kind, r.status_code)
        finally:
            app.extensions["ledger"].dispose()
    return {key: statistics.median(xs) * 1000 for key, xs in cpu.items()}


def report(med: dict, args, load: tuple[str, str]) -> str:
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                            capture_output=True, text=True).stdout.strip()
    rows = ["| request | cache on (A) | cache off (B) | buys (B − A) / B |", "|---|---|---|---|"]
    for kind in KINDS:
        a, b = med[("on", kind)], med[("off", kind)]
        rows.append(f"| {kind} | {a:.2f} | {b:.2f} | {(b - a) / b:+.0%} |")
    a = sum(med[("on", k)] for k in MIX)
    b = sum(med[("off", k)] for k in MIX)
    rows.append(f"| one version at a table of four ({' + '.join(MIX)}) | {a:.2f} | {b:.2f} "
                f"| {(b - a) / b:+.0%} |")
    return "\n".join([
        SECTION, "",
        f"`python bench/live_cache.py --samples {args.samples} --seed {args.seed}`, "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, commit {commit}; {machine()}; "
        f"load average {load[0]} at the start, {load[1]} at the end (the machine is shared). "
        "Fresh tables of 8-40 entries, one more entry recorded before each run; A and B "
        "interleaved sample by sample. Median CPU ms per request of this process.", "",
        *rows, ""])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--samples", type=int, default=30)
    p.add_argument("--seed", type=int, default=37)
    p.add_argument("--write", action="store_true", help="write the section to bench/RESULTS.md")
    args = p.parse_args()
    load0 = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    med = run(args.samples, args.seed)
    load1 = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    section = report(med, args, (load0, load1))
    print(section)
    if args.write:
        write_section(ROOT / "bench" / "RESULTS.md", section, SECTION)


if __name__ == "__main__":
    main()
