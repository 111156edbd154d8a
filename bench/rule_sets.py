"""CPU per fresh ``analyze()`` per rule set against 晋城 (issue 38 part 1: "no rule set more
than 2× slower than 晋城 at the same tile count and wildcard count ≤ 2").

    python bench/rule_sets.py BEFORE_TREE AFTER_TREE [--seeds 51 52 53] [--hands 200]

For each seed, one process per tree, the two started together, each importing ``webcalc``
from its tree (its compiled part built in place), warming up as a worker does
(:func:`webcalc.warmup.warm_up`) and then analysing the same fresh requests: per job (晋城,
三门峡, 郑州, 盘锦 × 13/14 tiles × 0/1/2 wildcard tiles, 晋城 without) ``--hands`` hands never seen
in the process, half complete shapes (13: less one tile), half random from a wall, the
indicator random. The jobs take turns by batches of 10. The clock is CPU time
(``time.process_time_ns``). Prints per job the µs per hand and the ratio to 晋城 at the same
tile count in the same process, per seed, before and after.

``--one TREE SEED HANDS`` runs one tree and prints its JSON (what the two processes do).
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from typing import Any

JOBS = [(v, t, w) for v in ("jincheng", "sanmenxia", "zhengzhou", "panjin") for t in (13, 14)
        for w in ((0,) if v == "jincheng" else (0, 1, 2))]


def one(tree: str, seed: int, hands: int) -> dict[str, float]:
    sys.path.insert(0, tree)
    from hands import random_tiles, with_wildcards  # bench/hands.py (imports webcalc)

    from webcalc.analysis import analyze
    from webcalc.options import parse_options
    from webcalc.tiles import ALL_TILES, format_tiles
    from webcalc.variants import VARIANTS
    from webcalc.warmup import complete_tiles, warm_up

    warm_up()
    rng = random.Random(seed)
    seen: set[Any] = set()

    def request(variant: str, n: int, w: int) -> dict[str, Any]:
        v = VARIANTS[variant]
        while True:
            ind = None if variant == "jincheng" else rng.randrange(34)
            indicator = None if ind is None else ALL_TILES[ind]
            wild = [int(t) for t in v.wildcards(parse_options(v.Options, {}), indicator)]
            base = complete_tiles(rng) if rng.random() < 0.5 else random_tiles(rng, 14)
            if n == 13:
                base.remove(rng.choice(base))
            tiles = with_wildcards(rng, base, n, wild, w if wild else 0)
            vis = tiles + ([ind] if ind is not None else [])
            if any(vis.count(k) > 4 for k in vis):
                continue
            key = (variant, ind, tuple(tiles))
            if key in seen:
                continue
            seen.add(key)
            req: dict[str, Any] = {"variant": variant, "hand": format_tiles(tiles)}
            if indicator is not None:
                req["indicator"] = indicator.code
            return req

    reqs = {j: [request(*j) for _ in range(hands)] for j in JOBS}
    total = dict.fromkeys(JOBS, 0)
    for b in range(0, hands, 10):
        for j in JOBS:
            batch = reqs[j][b:b + 10]
            t0 = time.process_time_ns()
            for r in batch:
                analyze(r)
            total[j] += time.process_time_ns() - t0
    return {f"{v} {t} w{w}": round(total[(v, t, w)] / hands / 1000, 1) for v, t, w in JOBS}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("trees", nargs="*")
    ap.add_argument("--seeds", type=int, nargs="+", default=[51, 52, 53])
    ap.add_argument("--hands", type=int, default=200)
    ap.add_argument("--one", nargs=3)
    args = ap.parse_args()
    if args.one:
        print(json.dumps(one(args.one[0], int(args.one[1]), int(args.one[2]))))
        return
    before, after = args.trees
    rows: dict[str, list[tuple[float, float, float, float]]] = {}
    for seed in args.seeds:
        procs = [subprocess.Popen([sys.executable, __file__, "--one", tree, str(seed),
                                   str(args.hands)], stdout=subprocess.PIPE, text=True)
                 for tree in (before, after)]
        b, a = (json.loads(p.communicate()[0]) for p in procs)
        for k in a:
            jc = f"jincheng {k.split()[1]} w0"
            rows.setdefault(k, []).append((b[k], b[k] / b[jc], a[k], a[k] / a[jc]))
    print("| job | before: µs per seed; ÷ 晋城 | after: µs per seed; ÷ 晋城 |")
    print("|---|---:|---:|")
    for k, v in rows.items():
        cells = [" / ".join(f"{x[i]:.0f}" if i % 2 == 0 else f"{x[i]:.2f}×" for x in v)
                 for i in range(4)]
        print(f"| {k} | {cells[0]}; {cells[1]} | {cells[2]}; {cells[3]} |")


if __name__ == "__main__":
    main()
