"""Issue 37's "not worse than before by more than 5 %": ``analyze()`` CPU and a calculator
page's CPU on fresh hands, before and after, side by side in one run.

Each side is a separate process importing the webcalc of its own tree (``--tree``: a checkout
with its compiled part built in place), started together (a file is the starting gun), on the
same fresh requests (bench/hands.py ``fresh_requests`` from one seed, none of them the
warm-up's). Per repeat, a batch of ``--hands`` requests: every one through ``analyze()``,
then every one whose room the page form can say through the calculator page (Flask's test
client, the 303 to the canonical URL followed as a browser would). CPU is
``time.process_time``; the medians per request over the repeats are printed as JSON, and
``--compare`` puts two of them side by side::

    python bench/house_cpu.py --tree /path/before --seed 8 --gun /tmp/go > before.json &
    python bench/house_cpu.py --tree /path/after --seed 8 --gun /tmp/go > after.json &
    touch /tmp/go; wait
    python bench/house_cpu.py --compare before.json after.json
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time


def measure(tree: str, seed: int, hands: int, repeats: int, gun: str | None) -> dict:
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [tree] + [p for p in sys.path if os.path.abspath(p or ".") != here]
    os.chdir(tree)
    import importlib.util

    spec = importlib.util.spec_from_file_location("tree_hands", f"{tree}/bench/hands.py")
    assert spec and spec.loader
    hands_mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hands_mod)
    fresh_requests, page_query = hands_mod.fresh_requests, hands_mod.page_query
    from webcalc import create_app
    from webcalc.analysis import analyze
    from webcalc.errors import InputError

    app = create_app({"TESTING": True})
    client = app.test_client()
    warm = fresh_requests(seed + 1_000_003)
    for _ in range(100):                               # warm-up: other hands
        req = next(warm)
        try:
            analyze(req)
        except InputError:
            pass
        q = page_query(req)
        if q:
            client.get(q, follow_redirects=True)
    fresh = fresh_requests(seed)
    batches = [[next(fresh) for _ in range(hands)] for _ in range(repeats)]
    if gun:
        while not os.path.exists(gun):
            time.sleep(0.01)
    per_analyze, per_page = [], []
    for batch in batches:
        t = time.process_time()
        for req in batch:
            try:
                analyze(req)
            except InputError:
                pass
        per_analyze.append((time.process_time() - t) / len(batch) * 1000)
        queries = [q for q in map(page_query, batch) if q]
        t = time.process_time()
        for q in queries:
            r = client.get(q, follow_redirects=True)
            assert r.status_code < 500, (q, r.status_code)
        per_page.append((time.process_time() - t) / max(1, len(queries)) * 1000)
    return {"tree": tree, "seed": seed, "hands": hands, "repeats": repeats,
            "analyze_ms": per_analyze, "page_ms": per_page,
            "analyze_median": statistics.median(per_analyze),
            "page_median": statistics.median(per_page),
            "load": os.getloadavg()}


def compare(before: dict, after: dict) -> str:
    lines = []
    for key, name in (("analyze", "analyze()"), ("page", "calculator page")):
        b, a = before[f"{key}_median"], after[f"{key}_median"]
        ratios = [y / x for x, y in zip(before[f"{key}_ms"], after[f"{key}_ms"])]
        lines.append(f"{name}: {b:.3f} -> {a:.3f} ms per request, after / before "
                     f"{a / b:.3f}x (per repeat {min(ratios):.3f}-{max(ratios):.3f}x)")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tree", default=".")
    ap.add_argument("--seed", type=int, default=int(time.time()) % 100_000)
    ap.add_argument("--hands", type=int, default=60)
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--gun", default=None, help="wait for this file before timing")
    ap.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"))
    args = ap.parse_args()
    if args.compare:
        with open(args.compare[0]) as b, open(args.compare[1]) as a:
            print(compare(json.load(b), json.load(a)))
        return
    print(json.dumps(measure(os.path.abspath(args.tree), args.seed, args.hands,
                             args.repeats, args.gun)))


if __name__ == "__main__":
    main()
