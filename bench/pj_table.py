"""Issue 38, round 12: 盘锦's compiled calls with the rows table and without it, on fresh hands.

    python bench/pj_table.py [--hands 400] [--seed 61] [--repeats 5]

Fresh 盘锦 requests (bench/hands.py ``panjin_requests``: half complete shapes, half random, the
indicator random, 0-2 wildcard tiles, 30 % won on a discard), 13 and 14 tiles; each goes
once through ``analyze()`` with the compiled module spied on, which records the arguments of
its ``panjin_advice`` / ``panjin_advice14`` call. Those calls are then replayed in one
process with the table mapped and unmapped in turn (webcalc/variants/panjin_table.py
``load`` / ``unload``), ``--repeats`` times each, CPU time; printed: µs a call per wildcard
count (best of the repeats), the answers compared call by call, and the share of hands the
table covers (13 tiles: all four units; 14 tiles: every discard). Also the file's size and
what ``load`` costs (its checksum reads every page).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "bench"))

from hands import panjin_requests  # noqa: E402  (bench/hands.py)

import webcalc.variants.panjin_advice as PA  # noqa: E402
from webcalc.analysis import analyze  # noqa: E402
from webcalc.compiled import pjunit  # noqa: E402
from webcalc.tiles import ALL_TILES  # noqa: E402
from webcalc.variants import VARIANTS  # noqa: E402
from webcalc.variants import panjin_table as T  # noqa: E402
from webcalc.warmup import warm_up  # noqa: E402

PANJIN = VARIANTS["panjin"]


class Spy:
    """The compiled module as panjin_advice.py sees it, recording its two calls."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[Any, ...]]] = []

    def panjin_advice(self, *args: Any) -> Any:
        self.calls.append(("panjin_advice", args))
        return pjunit.panjin_advice(*args)

    def panjin_advice14(self, *args: Any) -> Any:
        self.calls.append(("panjin_advice14", args))
        return pjunit.panjin_advice14(*args)

    def __getattr__(self, name: str) -> Any:
        return getattr(pjunit, name)


def covered(req: dict[str, Any], tiles: int) -> bool:
    """Whether every unit (13 tiles) or every discard's units (14) are in the table."""
    wild = {int(t) for t in PANJIN.wildcards(PANJIN.Options(), ALL_TILES[
        next(i for i, t in enumerate(ALL_TILES) if t.code == req["indicator"])])}
    from webcalc.tiles import parse_tiles
    real = [int(t) for t in parse_tiles(req["hand"]) if int(t) not in wild]
    units = [sum(1 for t in real if a <= t < a + (7 if a == 27 else 9)) for a in (0, 9, 18, 27)]
    if tiles == 13:
        return max(units) <= T.TILES
    for k in set(real):
        left = list(units)
        left[min(k // 9, 3)] -= 1
        if max(left) > T.TILES:
            return False
    return True


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=400, help="per tile count and wildcard count")
    ap.add_argument("--seed", type=int, default=61)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    T.unload()
    start = time.process_time()
    info = T.load()
    loaded = time.process_time() - start
    if info is None:
        raise SystemExit("no rows table: make builds it (python -m webcalc.build_tables)")
    print(f"table {T.TABLE_PATH.stat().st_size / 1e6:.1f} MB, {info[0]:,} suit keys, "
          f"{info[1]:,} honours' keys, {info[2]:,} rows; load (map, checksum, 12 spot "
          f"checks) {loaded * 1e3:.0f} ms of CPU")
    warm_up()
    rng = random.Random(args.seed)
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for tiles in (13, 14):
        reqs = panjin_requests(rng, tiles, args.hands)
        spy = Spy()
        PA._pjunit = spy  # type: ignore[assignment]
        by_w: dict[int, list[tuple[str, tuple[Any, ...]]]] = {0: [], 1: [], 2: []}
        cover = 0
        for w, req in reqs:
            spy.calls.clear()
            analyze(req)
            by_w[w] += spy.calls[:1]
            cover += covered(req, tiles)
        PA._pjunit = pjunit
        print(f"{tiles} tiles: {len(reqs)} hands, {cover / len(reqs):.1%} covered")
        for w, calls in by_w.items():
            best = {True: float("inf"), False: float("inf")}
            answers: dict[bool, list[Any]] = {}
            for _ in range(args.repeats):
                for on in (True, False):
                    if on:
                        T.load()
                    else:
                        T.unload()
                    t = time.process_time()
                    out = [getattr(pjunit, name)(*call) for name, call in calls]
                    best[on] = min(best[on], time.process_time() - t)
                    answers[on] = out
            T.load()
            n = len(calls)
            same = sum(a == b for a, b in zip(answers[True], answers[False]))
            print(f"  w{w}: {n} calls; with the table {best[True] / n * 1e6:.1f} µs a call, "
                  f"without {best[False] / n * 1e6:.1f} µs "
                  f"({best[True] / best[False]:.2f}×); answers equal {same} of {n}")
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
