"""webcalc micro-benchmark (issues 6, 13.1 and 26): ``make bench`` → bench/RESULTS.md.

**webcalc alone.** Every timed call is on a hand the process has not seen before: hands come
from seeded generators and a run-wide set refuses any hand already used (by any operation),
and each hand is timed once — no repeats, so no whole-hand cache is ever warm for it. The
per-suit tables are warm, as in a serving worker: :func:`webcalc.warmup.warm_up` and a pass
over other hands run first. Classes: complete, ready (13 tiles) and random hands with 0, 1,
2, 4 and 8 wildcards; for each operation the median and p99 microseconds per hand (wall
clock, the collector off):

* complete check of a 14-tile hand (``Variant.is_win``),
* waits of a 13-tile hand (``find_waits``),
* shanten (``waits.shanten``),
* discard advice of a 14-tile hand (``discard_advice``),
* the whole analysis with a settlement through the JSON API, in-process (Flask test client).

**Against the peers** (issue 26), the PyPI packages ``mahjong`` (pure Python) and
``riichienv`` (Rust): ``analyze()`` of a wildcard-free 晋城 hand (the riichi shapes) against
each peer's own fastest composite of the same job (bench/peers.py: for 13 tiles the shanten,
useful tiles and waits; for 14, the complete check, the shanten and every discard's shanten
and useful tiles). Fresh hands (bench/hands.py ``fresh_apart``: neither the hand nor any hand
one draw or discard from it used before in the process), the three sides interleaved by
small batches in rotating order, CPU time (``time.process_time_ns``, the collector on), 3
repeats on new hands each; ratios webcalc ÷ peer of the CPU per repeat, reported as median
and min–max. Every answer is compared with webcalc's (and differences against the peers'
rules with 七对 read as RULES C-5 reads it), on the timed hands and on untimed hands near
七对 and 十三幺.

Usage: ``.venv/bin/python bench/bench.py [--no-write] [--repeats 3] [--hands13 N]
[--hands14 N] [--peers-only]``.
"""

from __future__ import annotations

import argparse
import gc
import json
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
sys.path.insert(0, str(ROOT / "bench"))

import peers  # noqa: E402
from hands import fresh_apart, special_tiles  # noqa: E402

from webcalc import tables  # noqa: E402
from webcalc.analysis import analyze  # noqa: E402
from webcalc.hand import Hand  # noqa: E402
from webcalc.options import parse_options  # noqa: E402
from webcalc.tiles import ALL_TILES, CODES, format_tiles  # noqa: E402
from webcalc.variants import VARIANTS, Situation  # noqa: E402
from webcalc.waits import discard_advice, find_waits, shanten  # noqa: E402
from webcalc.warmup import complete_tiles, warm_up  # noqa: E402
from webcalc.wildcards import HENAN, PANJIN, step  # noqa: E402

WILD_COUNTS = (0, 1, 2, 4, 8)
HANDS_PER_CLASS = 100


# -- the hand set -----------------------------------------------------------------------

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


#: every hand handed out in this run, (indicator, tiles): no hand is timed twice
SEEN: set = set()


def _fresh(key) -> bool:
    if key in SEEN:
        return False
    SEEN.add(key)
    return True


def hand_set(seed: int = 2026, wild_counts=WILD_COUNTS, per_class=HANDS_PER_CLASS):
    """``{(class, wildcards): [(variant, opts, indicator, tiles14, tiles13)]}``, every 14-
    and 13-tile hand new to this run (:data:`SEEN`)."""
    rng = random.Random(seed)
    out = {}
    for w in wild_counts:
        for cls in ("complete", "random"):
            hands = []
            while len(hands) < per_class:
                base = complete_tiles(rng) if cls == "complete" else [
                    rng.randrange(34) for _ in range(14)]
                if any(base.count(k) > 4 for k in base):
                    continue
                variant, opts, ind, t14 = _with_wildcards(rng, base, w)
                if ind is not None and t14.count(ind) > 3:
                    continue
                t13 = list(t14)
                t13.remove(rng.choice(t14))
                if not (_fresh((ind, tuple(t14))) and _fresh((ind, tuple(t13)))):
                    continue
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

def per_hand_us(fn, args_list):
    """One timed call per hand (each hand is fresh: see :func:`hand_set`), in µs."""
    times = []
    for args in args_list:
        t0 = time.perf_counter_ns()
        fn(*args)
        times.append((time.perf_counter_ns() - t0) / 1000)
    return times


def summary(times):
    times = sorted(times)
    p99 = times[min(len(times) - 1, int(round(0.99 * (len(times) - 1))))]
    return statistics.median(times), p99


OPS = (("complete check", 14, lambda v, s: v.is_win(s)),
       ("waits (13 tiles)", 13, lambda v, s: find_waits(v, s)),
       ("shanten (13 tiles)", 13, lambda v, s: shanten(v, s)),
       ("discard advice (14)", 14, lambda v, s: discard_advice(v, s)))


def bench_engine(seed):
    """Each operation on its own fresh hands (a hand set per operation)."""
    rows = []
    for k, (op, n, fn) in enumerate(OPS):
        for (cls, w), items in hand_set(seed + k).items():
            sits = [situation(v, o, i, t14 if n == 14 else t13) for v, o, i, t14, t13 in items]
            rows.append((op, f"{cls}, {w} wild", summary(per_hand_us(fn, sits))))
    order = {op: k for k, (op, _, _) in enumerate(OPS)}
    rows.sort(key=lambda r: (int(r[1].split(", ")[1].split()[0]), r[1].split(",")[0],
                             order[r[0]]))
    return rows


def bench_api(hands):
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
                     summary(per_hand_us(call, reqs))))
    return rows


# -- against the peers: the same job, fresh hands, interleaved ---------------------------

#: our side of the comparison: 晋城 (JC-2) has the riichi shapes — standard, 七对, 十三幺 —
#: and no wildcards; its options only touch the settlement, which is not asked for
PEER_VARIANT = "jincheng"
JOBS = (13, 14)
PEER_HANDS = {13: 1000, 14: 200}    # timed hands per job and repeat (half complete/ready)
REPEATS = 3
BATCH = 10                          # hands per side before the next side takes its turn
SPECIAL_HANDS = 300                 # untimed hands per job near 七对 / 十三幺 (shape check)
_KIND = {code: k for k, code in enumerate(CODES)}


def ours_answer(a):
    """The peers' answer read off an ``analyze()`` result (see bench/peers.py)."""
    if a.tile_count == 13:
        return (a.shanten, sorted(_KIND[u["tile"]] for u in a.useful),
                sorted(_KIND[w["tile"]] for w in a.waits))
    return (a.complete, a.shanten,
            {_KIND[e["discard"]]: (e["shanten"], sorted(_KIND[u["tile"]] for u in e["useful"]))
             for e in a.efficiency})


def peer_answer(ans):
    if len(ans) == 3 and isinstance(ans[2], dict):
        return ans[0], ans[1], {d: (s, sorted(u)) for d, (s, u) in ans[2].items()}
    return ans[0], sorted(ans[1]), sorted(ans[2])


def peer_sides():
    """``{name: {13: (fn, input builder), 14: ...}}``: webcalc and each installed peer."""
    sides = {"webcalc": {n: (analyze, lambda t: {"variant": PEER_VARIANT,
                                                   "hand": format_tiles(t)}) for n in JOBS}}
    mj = peers.mahjong_composites()
    if mj is not None:
        sides["mahjong"] = {13: (mj[0], peers.counts), 14: (mj[1], peers.counts)}
    ri = peers.riichienv_composites()
    if ri is not None:
        sides["riichienv"] = {13: (ri[0], peers.ids136), 14: (ri[1], peers.ids136)}
    return sides


def time_job(sides, n, hands):
    """Every side on every hand of ``hands`` (``n`` tiles), interleaved by batches of
    :data:`BATCH` hands, the side order rotating batch by batch; CPU time
    (``time.process_time_ns``) per side. ``({side: ns}, {side: [answers]})``."""
    names = list(sides)
    inputs = {name: [sides[name][n][1](t) for t in hands] for name in names}
    cpu = dict.fromkeys(names, 0)
    answers: dict = {name: [] for name in names}
    clock = time.process_time_ns
    for b, start in enumerate(range(0, len(hands), BATCH)):
        k = b % len(names)
        for name in names[k:] + names[:k]:
            fn = sides[name][n][0]
            chunk = inputs[name][start:start + BATCH]
            t0 = clock()
            out = [fn(x) for x in chunk]
            cpu[name] += clock() - t0
            # read off outside the clock (the responses are dropped)
            answers[name] += [ours_answer(r) if name == "webcalc" else peer_answer(r)
                              for r in out]
    return cpu, answers


class Agreement:
    """Per job and peer: hands compared, equal to webcalc's answer, differing only by C-5
    (webcalc equals the riichi shapes with 七对 read as C-5 reads it: four of a kind is two
    pairs), and other differences (with a few hands for the record)."""

    def __init__(self):
        self.rows: dict = {}
        self.reference = peers.mahjong_composites(c5=True)

    def add(self, n, peer, hands, ours, theirs):
        row = self.rows.setdefault((n, peer), {"hands": 0, "equal": 0, "c5": 0, "other": 0,
                                               "examples": []})
        for tiles, a, b in zip(hands, ours, theirs):
            row["hands"] += 1
            if a == b:
                row["equal"] += 1
            elif self.reference is not None and a == peer_answer(
                    self.reference[0 if n == 13 else 1](peers.counts(tiles))):
                row["c5"] += 1
            else:
                row["other"] += 1
                if len(row["examples"]) < 5:
                    row["examples"].append(format_tiles(tiles))


def bench_peers(seed, repeats=REPEATS, sizes=PEER_HANDS):
    """The job of bench/peers.py by ``analyze()`` and each installed peer, on fresh hands
    (:func:`bench.hands.fresh_apart`: neither the hand nor one a tile from it used before
    in this run), interleaved, :data:`REPEATS` times on new hands each time. Returns
    ``(sides, {(n, repeat): ({side: ns}, hands)}, Agreement, special Agreement)``."""
    rng = random.Random(seed)
    sides = peer_sides()
    agree, special = Agreement(), Agreement()
    # warm every side's code paths on hands never timed (the same rule: fresh, apart)
    for n in JOBS:
        time_job(sides, n, [fresh_apart(rng, n, SEEN) for _ in range(2 * BATCH)])
    runs = {}
    for rep in range(repeats):
        for n in JOBS:
            hands = [fresh_apart(rng, n, SEEN) for _ in range(sizes[n])]
            gc.collect()
            cpu, answers = time_job(sides, n, hands)
            runs[(n, rep)] = (cpu, len(hands))
            for peer in sides:
                if peer != "webcalc":
                    agree.add(n, peer, hands, answers["webcalc"], answers[peer])
    # the shapes the timed hands rarely meet: near 七对 (some with four of a kind) and 十三幺
    for n in JOBS:
        hands = [special_tiles(rng, n) for _ in range(SPECIAL_HANDS)]
        _, answers = time_job(sides, n, hands)
        for peer in sides:
            if peer != "webcalc":
                special.add(n, peer, hands, answers["webcalc"], answers[peer])
    return sides, runs, agree, special


def ratio_stats(runs, peer, n, repeats):
    """webcalc ÷ ``peer`` CPU per repeat (same hands): ``(median, min, max, [ratios])``."""
    rs = [runs[(n, r)][0]["webcalc"] / runs[(n, r)][0][peer] for r in range(repeats)]
    return statistics.median(rs), min(rs), max(rs), rs


def table_stats():
    """Build time and size of the per-suit tables, measured from empty caches (its hands are
    then used up: :data:`SEEN`)."""
    for fn in tables.TABLES:
        fn.cache_clear()
    t0 = time.perf_counter()
    hands = hand_set(seed=7)
    for items in hands.values():
        for v, o, i, t14, _t13 in items:
            var, sit = situation(v, o, i, t14)
            var.is_win(sit)
    dt = time.perf_counter() - t0
    return dt, tables.unit_needs.cache_info().currsize, tables._need.cache_info().currsize


def peer_figures(sides, runs, agree, special, repeats, sizes) -> dict:
    """The peers' figures as data: per job and peer, µs per hand of each side per repeat,
    webcalc ÷ peer per repeat, and the answers compared (timed and 七对/十三幺 hands)."""
    out: dict = {"repeats": repeats, "hands": sizes, "jobs": {}}
    for n in JOBS:
        us = {name: [runs[(n, r)][0][name] / runs[(n, r)][1] / 1000 for r in range(repeats)]
              for name in sides}
        ratios = {peer: ratio_stats(runs, peer, n, repeats)[3] for peer in sides
                  if peer != "webcalc"}
        compared = {peer: {kind: {k: v for k, v in rows.rows[(n, peer)].items()}
                           for kind, rows in (("timed", agree), ("special", special))}
                    for peer in ratios}
        out["jobs"][str(n)] = {"us": us, "ratio": ratios, "compared": compared}
    return out


def _loadavg() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


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


def _ratio_cell(stats):
    med, lo, hi, _ = stats
    return f"{med:.2f}× ({lo:.2f}–{hi:.2f})"


def peer_lines(sides, runs, agree, special, repeats, sizes, t_peers, load):
    """The "Against the peers" section (and the figures the targets read)."""
    names = list(sides)
    lines = ["", "## Against the peers: the same job on fresh hands, interleaved (issue 26)", "",
             "*What changed:* this replaces the earlier per-operation and \"analysis\" "
             "tables. Their `mahjong` composite tried all 34 draws twice (each draw's shanten, "
             "then each draw again with `Agari.is_agari` for the waits). Their riichienv rows "
             "listed no useful tiles at all. Neither was the job `analyze()` does, so neither "
             "was a yardstick.", "",
             "**The job**, on a hand of 13 tiles: the complete check (never true for 13 tiles; "
             "no side computes anything for it), the shanten, the useful tiles (every kind a "
             "draw of which lowers the shanten and of which a copy is left) and the waits. On a "
             "hand of 14 tiles: the complete check, the shanten, and for every distinct discard "
             "the shanten after it and its useful tiles (`efficiency`).", "",
             f"- **webcalc**: `analyze({{\"variant\": \"{PEER_VARIANT}\", \"hand\": …}})` "
             "from the request dict (parsing and validation included). 晋城 (JC-2) has "
             "exactly the riichi shapes (standard, 七对, 十三幺) and no wildcards. It does a "
             "little more than the peers: for 14 tiles it lists the readings (≤ 200) and every "
             "ready discard's waits; for 13 tiles, what each wait is worth (`waits[].win`). It "
             "counts live copies (C-2: `remaining`) and reads 七对 as C-5 does: four of a kind "
             "is two pairs. Riichi's chiitoitsu wants seven distinct kinds.",
             "- **mahjong** (pure Python) and **riichienv** (Rust): each in its own fastest "
             "way, in bench/peers.py. `Shanten.calculate_shanten` on a 34-count array, changed "
             "in place, or `riichienv.calculate_shanten` on 136-tile ids, one id appended and "
             "popped per draw. Neither package has a call that lists useful tiles (riichienv's "
             "`get_waits` gives only what the ready hands' useful tiles already are). So each "
             "draw that can matter is tried: every held kind and every suited kind within two "
             "of a held tile of its suit. Each other kind is \"far\", and one far terminal or "
             "honor and one far simple tile answer for their classes. For 14 tiles, drawing "
             "back the discarded kind needs no call. A ready hand's waits are its useful tiles.",
             "",
             f"**How it is timed.** {repeats} repeats, each on new hands: per job "
             f"{sizes[13]} hands of 13 tiles and {sizes[14]} of 14, half complete (13: less one "
             "tile), half random from a wall (bench/hands.py `fresh_apart`). No hand, and no "
             "hand one draw or one discard from it, was used before in the process, so no "
             "whole-hand result can be warm. The per-suit tables are warm, as in a serving "
             "worker. The three sides take turns by batches of "
             f"{BATCH} hands, the order rotating batch by batch. The clock is CPU time "
             "(`time.process_time_ns`, the whole process), with the collector on as in a "
             "worker. Inputs are in each package's own form, built before the clock starts. "
             f"This part took {t_peers:.0f} s; load average at its start {load}.", "",
             "| job | package | µs per hand, repeat " + " / ".join(str(r + 1) for r in range(repeats))
             + " | webcalc ÷ package: median (min–max) |", "|---|---|---:|---:|"]
    for n in JOBS:
        for name in names:
            per = " / ".join(f"{runs[(n, r)][0][name] / runs[(n, r)][1] / 1000:,.1f}"
                             for r in range(repeats))
            cell = "—" if name == "webcalc" else _ratio_cell(ratio_stats(runs, name, n, repeats))
            lines.append(f"| {n} tiles | {name} | {per} | {cell} |")
    lines += ["", "**Same answers?** Checked on every timed hand and on "
              f"{SPECIAL_HANDS} untimed hands per job near 七对 (a third of them with four of a "
              "kind) or 十三幺, with 0–2 tiles swapped (bench/hands.py `special_tiles`). For 13 "
              "tiles the check covers the shanten, useful tiles and waits; for 14, the complete "
              "check, the shanten, and every discard's shanten and useful tiles. Answers that "
              "differ are checked against the peers' rules with 七对 read as C-5 reads it "
              "(`mahjong`'s regular and 十三幺 shanten with `peers.seven_pairs_c5`). "
              "\"C-5 only\" means webcalc's answer matches that; \"other\" means it does not.",
              "", "| hands | job | package | compared | equal | C-5 only | other |",
              "|---|---|---|---:|---:|---:|---:|"]
    others = []
    for label, ag in (("timed", agree), ("七对/十三幺", special)):
        for (n, peer), row in sorted(ag.rows.items()):
            lines.append(f"| {label} | {n} tiles | {peer} | {row['hands']:,} | {row['equal']:,} "
                         f"| {row['c5']:,} | {row['other']:,} |")
            if row["other"]:
                others.append(f"- {label}, {n} tiles, {peer}: " + ", ".join(row["examples"]))
    if others:
        lines += ["", "**Other differences** (first hands):"] + others
    return lines


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=str(ROOT / "bench" / "RESULTS.md"))
    ap.add_argument("--no-write", action="store_true")
    ap.add_argument("--repeats", type=int, default=REPEATS)
    ap.add_argument("--hands13", type=int, default=PEER_HANDS[13],
                    help="timed 13-tile hands per repeat against the peers")
    ap.add_argument("--hands14", type=int, default=PEER_HANDS[14])
    ap.add_argument("--peers-only", action="store_true",
                    help="only the comparison with the peers (prints, writes nothing)")
    ap.add_argument("--json", action="store_true",
                    help="with --peers-only: print the figures as JSON (bench/issue38.py)")
    ap.add_argument("--seed", type=int, default=4026, help="the peers' hands' seed")
    args = ap.parse_args(argv)
    sizes = {13: args.hands13, 14: args.hands14}
    t_start = time.perf_counter()
    load_start = _loadavg()
    if args.peers_only:
        warm_up()
        t0 = time.perf_counter()
        sides, runs, agree, special = bench_peers(args.seed, args.repeats, sizes)
        if args.json:
            print(json.dumps(peer_figures(sides, runs, agree, special, args.repeats, sizes)))
            return
        print("\n".join(peer_lines(sides, runs, agree, special, args.repeats, sizes,
                                   time.perf_counter() - t0, load_start)))
        return
    build_s, entries, sub_entries = table_stats()
    # warm the per-suit tables as a serving worker has them (gunicorn's master runs warm_up)
    # and the interpreter; the hands used here are never timed (SEEN)
    warm_up()
    for items in hand_set(seed=8).values():
        for v, o, i, t14, _t13 in items:
            var, sit = situation(v, o, i, t14)
            discard_advice(var, sit)
            shanten(var, sit)
    gc.collect()
    gc.disable()
    engine = bench_engine(2026)
    api = bench_api(hand_set(3026))
    gc.enable()
    engine_hands = len(SEEN)
    load_peers = _loadavg()
    t0 = time.perf_counter()
    sides, runs, agree, special = bench_peers(args.seed, args.repeats, sizes)
    t_peers = time.perf_counter() - t0
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    lines = ["# Benchmark results", "",
             f"Machine: {machine()}; {cpus} CPUs usable (nproc). Written by `make bench` "
             f"(`.venv/bin/python bench/bench.py`) on "
             f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; run took "
             f"{time.perf_counter() - t_start:.0f} s. Load average (1, 5, 15 min) at the start "
             f"{load_start}, at the end {_loadavg()}: other work on the machine shows here, and "
             "a single timed call that is preempted lands in the p99.", "",
             f"{HANDS_PER_CLASS} fresh hands per class and operation, each timed once (no hand "
             f"is timed twice, nor used by two operations: {engine_hands:,} distinct hands), "
             "per-suit tables warm; median and p99 over hands, in microseconds (µs), wall "
             "clock, the collector off.", "",
             "## webcalc by operation, hand class and wildcard count", "",
             "| operation | hands | median µs | p99 µs |", "|---|---|---:|---:|"]
    for op, label, (med, p99) in engine + api:
        lines.append(f"| {op} | {label} | {med:,.1f} | {p99:,.1f} |")
    lines += peer_lines(sides, runs, agree, special, args.repeats, sizes, t_peers, load_peers)

    # the issues' targets, read off the rows above
    def rows_of(op):
        return [(label, stats) for o, label, stats in engine + api if o == op]
    worst_complete = max(med for _, (med, _) in rows_of("complete check"))
    waits_plain = max(med for label, (med, _) in rows_of("waits (13 tiles)")
                      if label.endswith(" 0 wild"))
    hardest = [stats for label, stats in rows_of("API analysis + settlement")
               if label.endswith(("4 wild", "8 wild"))]
    api_p50 = max(med for med, _ in hardest)
    api_p99 = max(p99 for _, p99 in hardest)

    def verdict(ok):
        return "met" if ok else "**missed**"

    def vs(peer, n, limit):
        if peer not in sides:
            return f"{peer} not installed", "—"
        stats = ratio_stats(runs, peer, n, args.repeats)
        return _ratio_cell(stats), verdict(stats[2] <= limit)
    target_rows = [
        ("issue 26: `analyze()` on 13 tiles ≤ 5× riichienv doing the same job", "riichienv",
         13, 5.0),
        ("issue 26: the same, 14 tiles ≤ 3×", "riichienv", 14, 3.0),
        ("issue 13.2: `analyze()` on 13 tiles ≤ 1.0× the `mahjong` composite of the same job",
         "mahjong", 13, 1.0),
        ("issue 13.2: the same, 14 tiles", "mahjong", 14, 1.0)]
    lines += ["", "## Targets (issues 6, 13 and 26)", "",
              "Peer ratios: median of the repeats (min–max); met when the worst repeat is.", "",
              "| target | measured | |", "|---|---:|---|"]
    for text, peer, n, limit in target_rows:
        cell, v = vs(peer, n, limit)
        lines.append(f"| {text} | {cell} | {v} |")
    lines += [f"| complete check ≤ 2 µs at any wildcard count (worst class median) | "
              f"{worst_complete:.1f} µs | {verdict(worst_complete <= 2)} |",
              f"| waits of a 13-tile hand ≤ 15 µs (wildcard-free, worst class median) | {waits_plain:.1f} µs "
              f"| {verdict(waits_plain <= 15)} |",
              f"| API analysis of the hardest hands (4 and 8 wildcards): p50 ≤ 5 ms | "
              f"{api_p50 / 1000:.1f} ms | {verdict(api_p50 <= 5000)} |",
              f"| the same: p99 ≤ 20 ms | {api_p99 / 1000:.1f} ms | {verdict(api_p99 <= 20000)} |",
              "| gunicorn, 2 workers: ≥ 300 req/s, zero errors; RSS ≤ 80 MB per worker | "
              "see \"Load (issue 6)\" below (`make load`) | |"]
    own = {line.split(" | ")[0] for line in lines if line.startswith("| ")}
    lines += kept_targets(args.out, own)
    lines += ["", "## Tables and memory", "",
              f"- Per-suit tables (`tables.unit_needs`): filled lazily, one entry per distinct "
              f"unit pattern met ({entries:,} patterns, {sub_entries:,} sub-patterns solved) after "
              f"{len(WILD_COUNTS) * 2 * HANDS_PER_CLASS} hands; filling took "
              f"{build_s * 1000:.0f} ms of first calls.",
              f"- Peak RSS of this benchmark process: {rss_mb:.0f} MB.", ""]
    text = "\n".join(lines)
    print(text)
    if args.no_write:
        return
    out = Path(args.out)
    old = out.read_text(encoding="utf-8") if out.exists() else ""
    starts = [old.index(h) for h in ("\n## Soak", "\n## Load", "\n## Memory", "\n## Pages",
                                      "\n## Worst cases", "\n## Targets of issues 6, 13 and 14")
              if h in old]
    keep = old[min(starts):] if starts else ""          # the other scripts' sections stay
    out.write_text(text + keep, encoding="utf-8")


TARGETS_HEADING = "## Targets (issues 6, 13 and 26)"


def kept_targets(path: str, own: set[str]) -> list[str]:
    """What the other scripts and the hand-written notes put in the Targets section of the
    results file at ``path`` (``make worst``'s, ``make pages``' and ``make bench-city``'s rows,
    the memory rows, the paragraphs under the table): the rows whose first cell is not one of
    ``own`` (the rows this script writes), then every line after the table, so that a new
    ``make bench`` replaces only its own figures."""
    try:
        old = Path(path).read_text(encoding="utf-8")
    except OSError:
        return []
    at = old.find("\n" + TARGETS_HEADING + "\n")
    if at < 0:
        return []
    end = old.find("\n## ", at + 1)
    section = old[at + 1:end if end >= 0 else len(old)].split("\n")[1:]
    rows, after, in_table = [], [], False
    for line in section:
        if line.startswith("|") and not after:
            in_table = True
            if line.startswith("| ") and line.split(" | ")[0] not in own \
                    and not line.startswith("| target |"):
                rows.append(line)
        elif in_table or after:
            after.append(line)
    while after and not after[-1].strip():
        after.pop()
    return rows + after


if __name__ == "__main__":
    main()
