"""webcalc micro-benchmark (issue 6): ``make bench`` → bench/RESULTS.md.

A fixed, seeded set of hands — complete, ready (13 tiles) and random — with 0, 1, 2, 4 and
8 wildcards. For each operation the median and p99 microseconds per hand:

* complete check of a 14-tile hand (``Variant.is_win``),
* waits of a 13-tile hand (``find_waits``),
* shanten (``waits.shanten``),
* discard advice of a 14-tile hand (``discard_advice``),
* the whole analysis with a settlement through the JSON API, in-process (Flask test client).

On the same wildcard-free hands it times the PyPI packages ``mahjong`` (pure Python) and
``riichienv`` (compiled) doing the same jobs, and prints the ratios. Timing is wall clock
(``time.perf_counter_ns``) on a warm process: each hand is run ``repeat`` times and its mean
is that hand's figure; median and p99 are taken over hands.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import random
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from webcalc import tables                                  # noqa: E402
from webcalc.hand import Hand                               # noqa: E402
from webcalc.options import parse_options                   # noqa: E402
from webcalc.tiles import ALL_TILES, format_tiles           # noqa: E402
from webcalc.variants import VARIANTS, Situation            # noqa: E402
from webcalc.waits import discard_advice, find_waits, shanten  # noqa: E402
from webcalc.wildcards import HENAN, PANJIN, step           # noqa: E402

WILD_COUNTS = (0, 1, 2, 4, 8)
HANDS_PER_CLASS = 100


# -- the hand set -----------------------------------------------------------------------

def _complete_tiles(rng: random.Random) -> list[int]:
    while True:
        tiles: list[int] = []
        for _ in range(4):
            if rng.random() < 0.6:
                s, r = rng.randrange(3), rng.randrange(7)
                a = s * 9 + r
                tiles += [a, a + 1, a + 2]
            else:
                tiles += [rng.randrange(34)] * 3
        tiles += [rng.randrange(34)] * 2
        if all(tiles.count(k) <= 4 for k in tiles):
            return tiles


def _with_wildcards(rng, tiles, w):
    """Replace ``w`` tiles by wildcards; returns (variant, options, indicator, tiles)."""
    if w == 0:
        return "zhengzhou", {"wildcard": False}, None, tiles
    if w <= 4:
        wild = rng.randrange(34)
        indicator = step(ALL_TILES[wild], HENAN, -1)
        kinds, variant, opts = [wild], "zhengzhou", {}
    else:                                                # 8: 盘锦 游戏混, two kinds × 4
        while True:
            indicator = ALL_TILES[rng.randrange(27)]
            kinds = [int(step(indicator, PANJIN, -1)), int(step(indicator, PANJIN, 1))]
            if len(set(kinds)) == 2:
                break
        variant, opts = "panjin", {"wildcard_mode": "both", "seven_pairs": True,
                                   "piaohu": True, "one_suit": True}
    rest = [t for t in tiles if t not in kinds and t != indicator]
    rng.shuffle(rest)
    rest = rest[: len(tiles) - w]
    wilds = [kinds[i % len(kinds)] for i in range(w)]
    out = rest + wilds
    while len(out) < len(tiles):                         # top up with plain tiles
        t = rng.randrange(34)
        if t not in kinds and t != indicator and out.count(t) < 4:
            out.append(t)
    return variant, opts, int(indicator), sorted(out)


def hand_set(seed: int = 2026):
    """``{(class, wildcards): [(variant, opts, indicator, tiles14, tiles13)]}``."""
    rng = random.Random(seed)
    out = {}
    for w in WILD_COUNTS:
        for cls in ("complete", "random"):
            hands = []
            while len(hands) < HANDS_PER_CLASS:
                base = _complete_tiles(rng) if cls == "complete" else [
                    rng.randrange(34) for _ in range(14)]
                if any(base.count(k) > 4 for k in base):
                    continue
                variant, opts, ind, t14 = _with_wildcards(rng, base, w)
                if ind is not None and t14.count(ind) > 3:
                    continue
                t13 = list(t14)
                t13.remove(rng.choice(t14))
                hands.append((variant, opts, ind, t14, t13))
            out[(cls, w)] = hands
    return out


def situation(variant, opts, ind, tiles):
    v = VARIANTS[variant]
    options = parse_options(v.Options, opts)
    indicator = None if ind is None else ALL_TILES[ind]
    return v, Situation(Hand.of(tiles), v.wildcards(options, indicator), options,
                        indicator=indicator)


# -- timing -----------------------------------------------------------------------------

def per_hand_us(fn, args_list, repeat):
    times = []
    for args in args_list:
        fn(*args)                                        # warm: tables, caches
        t0 = time.perf_counter_ns()
        for _ in range(repeat):
            fn(*args)
        times.append((time.perf_counter_ns() - t0) / repeat / 1000)
    return times


def summary(times):
    times = sorted(times)
    p99 = times[min(len(times) - 1, int(round(0.99 * (len(times) - 1))))]
    return statistics.median(times), p99


def bench_engine(hands, repeat_scale):
    rows = []
    for (cls, w), items in hands.items():
        sits14 = [situation(v, o, i, t14) for v, o, i, t14, _ in items]
        sits13 = [situation(v, o, i, t13) for v, o, i, _, t13 in items]
        label = f"{cls}, {w} wild"
        rows.append(("complete check", label,
                     summary(per_hand_us(lambda v, s: v.is_win(s), sits14, 50 * repeat_scale))))
        rows.append(("waits (13 tiles)", label,
                     summary(per_hand_us(lambda v, s: find_waits(v, s), sits13, 5 * repeat_scale))))
        rows.append(("shanten (13 tiles)", label,
                     summary(per_hand_us(lambda v, s: shanten(v, s), sits13, 5 * repeat_scale))))
        rows.append(("discard advice (14)", label,
                     summary(per_hand_us(lambda v, s: discard_advice(v, s), sits14, repeat_scale))))
    return rows


def bench_api(hands, repeat_scale):
    from webcalc import create_app
    client = create_app({"TESTING": True}).test_client()
    rows = []
    for (cls, w), items in hands.items():
        reqs = []
        for variant, opts, ind, t14, _ in items:
            req = {"variant": variant, "options": opts, "hand": format_tiles(t14)}
            if ind is not None:
                req["indicator"] = ALL_TILES[ind].code
            req["winning_tile"] = ALL_TILES[t14[-1]].code
            req["win_by"] = "self_draw"
            req["settlement"] = {"base": 1, "dealer": 0, "winner": None}
            reqs.append((req,))

        def call(req):
            resp = client.post("/api/v1/analyze", json=req)
            assert resp.status_code in (200, 400), resp.get_data(as_text=True)
        rows.append(("API analysis + settlement", f"{cls}, {w} wild",
                     summary(per_hand_us(call, reqs, max(1, repeat_scale)))))
    return rows


def bench_peers(hands, repeat_scale):
    """The same jobs by `mahjong` and `riichienv`, on the wildcard-free hands."""
    rows = []
    try:
        from mahjong.agari import Agari
        from mahjong.shanten import Shanten
    except ImportError:
        Agari = None
    try:
        import riichienv
    except ImportError:
        riichienv = None
    plain = [h for cls in ("complete", "random") for h in hands[(cls, 0)]]
    ours = [situation(v, o, i, t14) for v, o, i, t14, _ in plain]
    ours13 = [situation(v, o, i, t13) for v, o, i, _, t13 in plain]

    def c34(tiles):
        c = [0] * 34
        for t in tiles:
            c[t] += 1
        return c

    def t136(tiles):
        seen = [0] * 34
        out = []
        for t in tiles:
            out.append(t * 4 + seen[t])
            seen[t] += 1
        return out

    rows.append(("webcalc", "complete check", summary(per_hand_us(lambda v, s: v.is_win(s), ours, 50 * repeat_scale))))
    rows.append(("webcalc", "waits (13 tiles)", summary(per_hand_us(lambda v, s: find_waits(v, s), ours13, 5 * repeat_scale))))
    rows.append(("webcalc", "shanten (13 tiles)", summary(per_hand_us(lambda v, s: shanten(v, s), ours13, 5 * repeat_scale))))
    rows.append(("webcalc", "discard advice (14)", summary(per_hand_us(lambda v, s: discard_advice(v, s), ours, repeat_scale))))
    if Agari is not None:
        sh = Shanten()
        a14 = [(c34(h[3]),) for h in plain]
        a13 = [(c34(h[4]),) for h in plain]

        def m_waits(c):
            out = []
            for k in range(34):
                if c[k] < 4:
                    c[k] += 1
                    if Agari.is_agari(c):
                        out.append(k)
                    c[k] -= 1
            return out

        def m_discards(c):
            out = []
            for d in range(34):
                if c[d]:
                    c[d] -= 1
                    w = m_waits(c)
                    c[d] += 1
                    if w:
                        out.append((d, w))
            return out
        rows.append(("mahjong", "complete check", summary(per_hand_us(Agari.is_agari, a14, 50 * repeat_scale))))
        rows.append(("mahjong", "waits (13 tiles)", summary(per_hand_us(m_waits, a13, 5 * repeat_scale))))
        rows.append(("mahjong", "shanten (13 tiles)", summary(per_hand_us(sh.calculate_shanten, a13, 5 * repeat_scale))))
        rows.append(("mahjong", "discard advice (14)", summary(per_hand_us(m_discards, a14, repeat_scale))))
    if riichienv is not None:
        r14 = [(t136(h[3]),) for h in plain]
        r13 = [(t136(h[4]),) for h in plain]

        def r_complete(t):
            return riichienv.calculate_shanten(t) == -1

        def r_waits(t):
            return riichienv.HandEvaluator(t).get_waits()

        def r_discards(t):
            out = []
            for d in riichienv.check_riichi_candidates(t):
                rest = list(t)
                rest.remove(d)
                out.append((d, riichienv.HandEvaluator(rest).get_waits()))
            return out
        rows.append(("riichienv", "complete check", summary(per_hand_us(r_complete, r14, 50 * repeat_scale))))
        rows.append(("riichienv", "waits (13 tiles)", summary(per_hand_us(r_waits, r13, 5 * repeat_scale))))
        rows.append(("riichienv", "shanten (13 tiles)", summary(per_hand_us(riichienv.calculate_shanten, r13, 5 * repeat_scale))))
        rows.append(("riichienv", "discard advice (14)", summary(per_hand_us(r_discards, r14, repeat_scale))))
    return rows


def table_stats():
    """Build time and size of the per-suit tables, measured from empty caches."""
    for fn in (tables.unit_needs, tables.unit_additions, tables._need):
        fn.cache_clear()
    t0 = time.perf_counter()
    hands = hand_set(seed=7)
    for items in hands.values():
        for v, o, i, t14, t13 in items:
            var, sit = situation(v, o, i, t14)
            var.is_win(sit)
    dt = time.perf_counter() - t0
    return dt, tables.unit_needs.cache_info().currsize, tables._need.cache_info().currsize


def machine():
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (f"{os.cpu_count()} cores, {cpu}; Python {platform.python_version()} "
            f"({platform.python_implementation()}), {platform.system()} {platform.release()}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="fewer repeats (a smoke run)")
    ap.add_argument("--out", default=str(ROOT / "bench" / "RESULTS.md"))
    args = ap.parse_args(argv)
    scale = 1 if args.quick else 4
    gc.disable()
    t_start = time.perf_counter()
    build_s, entries, sub_entries = table_stats()
    hands = hand_set()
    engine = bench_engine(hands, scale)
    api = bench_api(hands, 1 if args.quick else 3)
    peers = bench_peers(hands, scale)
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    gc.enable()

    lines = ["# Benchmark results", "",
             f"Machine: {machine()}. Written by `make bench` (bench/bench.py) on "
             f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; run took "
             f"{time.perf_counter() - t_start:.0f} s.", "",
             f"{HANDS_PER_CLASS} seeded hands per class; per hand the mean of repeated calls, then "
             "median and p99 over hands, in microseconds (µs).", "",
             "## webcalc by operation, hand class and wildcard count", "",
             "| operation | hands | median µs | p99 µs |", "|---|---|---:|---:|"]
    for op, label, (med, p99) in engine + api:
        lines.append(f"| {op} | {label} | {med:,.1f} | {p99:,.1f} |")
    lines += ["", "## Against the peers (the same wildcard-free hands, complete + random)", "",
              "| operation | package | median µs | p99 µs | webcalc ÷ package (median) |",
              "|---|---|---:|---:|---:|"]
    ours = {op: s for who, op, s in peers if who == "webcalc"}
    for who, op, (med, p99) in peers:
        ratio = ours[op][0] / med if med else float("nan")
        lines.append(f"| {op} | {who} | {med:,.2f} | {p99:,.2f} | "
                     f"{'—' if who == 'webcalc' else f'{ratio:.2f}×'} |")
    # the targets, read off the rows above
    def rows_of(op):
        return [(label, stats) for o, label, stats in engine + api if o == op]
    worst_complete = max(med for _, (med, _) in rows_of("complete check"))
    waits_plain = ours["waits (13 tiles)"][0]
    hardest = [stats for label, stats in rows_of("API analysis + settlement")
               if label.endswith(("4 wild", "8 wild"))]
    api_p50 = max(med for med, _ in hardest)
    api_p99 = max(p99 for _, p99 in hardest)
    riichi = {op: s for who, op, s in peers if who == "riichienv"}
    far = (f"{waits_plain / riichi['waits (13 tiles)'][0]:.1f}× riichienv's"
           if "waits (13 tiles)" in riichi else "riichienv not installed")

    def verdict(ok):
        return "met" if ok else "**missed**"
    lines += ["", "## Targets (issue 6)", "",
              "| target | measured | |", "|---|---:|---|",
              f"| complete check ≤ 2 µs at any wildcard count (worst class median) | "
              f"{worst_complete:.1f} µs | {verdict(worst_complete <= 2)} |",
              f"| waits of a 13-tile hand ≤ 15 µs (wildcard-free median) | {waits_plain:.1f} µs "
              f"({far}) | {verdict(waits_plain <= 15)} |",
              f"| API analysis of the hardest hands (4 and 8 wildcards): p50 ≤ 5 ms | "
              f"{api_p50 / 1000:.1f} ms | {verdict(api_p50 <= 5000)} |",
              f"| the same: p99 ≤ 20 ms | {api_p99 / 1000:.1f} ms | {verdict(api_p99 <= 20000)} |",
              "| gunicorn, 2 workers: ≥ 300 req/s, zero errors; RSS ≤ 80 MB per worker | "
              "see \"Load (issue 6)\" below (`make load`) | |"]
    lines += ["", "## Tables and memory", "",
              f"- Per-suit tables (`tables.unit_needs`): filled lazily, one entry per distinct "
              f"unit pattern met ({entries:,} patterns, {sub_entries:,} sub-patterns solved) after "
              f"{sum(len(v) for v in hand_set(7).values())} hands; filling took "
              f"{build_s * 1000:.0f} ms of first calls.",
              f"- Peak RSS of this benchmark process: {rss_mb:.0f} MB.", ""]
    text = "\n".join(lines)
    out = Path(args.out)
    old = out.read_text(encoding="utf-8") if out.exists() else ""
    starts = [old.index(h) for h in ("\n## Soak", "\n## Load") if h in old]
    keep = old[min(starts):] if starts else ""          # soak.py's sections stay
    out.write_text(text + keep, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
