"""Fresh-hand benchmark of ``analyze()`` against the PyPI ``mahjong`` composite (issue 13.2).

Every timed hand is new (never timed twice, never seen in the warm-up); the per-suit tables
are warm (a warm-up of other random hands first). For each hand, in one process and
interleaved, it times:

* webcalc: ``analyze()`` of a wildcard-free 郑州 hand (waits, shanten, discards, and the
  hand efficiency fields ``useful`` / ``efficiency``);
* mahjong A: ``Shanten.calculate_shanten`` + waits by ``Agari.is_agari`` (13 tiles), or
  shanten + every ready discard with its waits (14 tiles) — the outputs analyze() had
  before hand efficiency;
* mahjong B: A plus the useful tiles (13 tiles: each draw's shanten; 14 tiles: for each
  discard its shanten and useful draws) — the same outputs as analyze() now.

It prints medians, p99 and the ratios webcalc ÷ mahjong, and the RSS growth over the
timed hands. Usage: ``.venv/bin/python bench/fresh.py [--hands 1000] [--warm 3000]``.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mahjong.agari import Agari                               # noqa: E402
from mahjong.shanten import Shanten                           # noqa: E402

from webcalc.analysis import analyze                          # noqa: E402
from webcalc.tiles import format_tiles                        # noqa: E402


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2 ** 20


def random_hand(rng: random.Random, n: int, near: bool) -> list[int]:
    while True:
        if near:                       # a complete hand with one or two tiles changed
            tiles = []
            for _ in range(4):
                if rng.random() < 0.6:
                    a = rng.randrange(3) * 9 + rng.randrange(7)
                    tiles += [a, a + 1, a + 2]
                else:
                    tiles += [rng.randrange(34)] * 3
            tiles += [rng.randrange(34)] * 2
            for _ in range(rng.choice([1, 2])):
                tiles[rng.randrange(14)] = rng.randrange(34)
            tiles = tiles[:n]
        else:
            tiles = [rng.randrange(34) for _ in range(n)]
        if all(tiles.count(k) <= 4 for k in tiles):
            return sorted(tiles)


def c34(tiles):
    c = [0] * 34
    for t in tiles:
        c[t] += 1
    return c


AGARI = Agari()


def m_shanten(c):
    # 郑州 (ZZ-3): standard and 七对; no 十三幺
    return Shanten.calculate_shanten(c, use_chiitoitsu=True, use_kokushi=False)


def m_waits(c):
    out = []
    for k in range(34):
        if c[k] < 4:
            c[k] += 1
            if AGARI.is_agari(c):
                out.append(k)
            c[k] -= 1
    return out


def m_useful(c, base):
    out = []
    for k in range(34):
        if c[k] < 4:
            c[k] += 1
            if m_shanten(c) < base:
                out.append(k)
            c[k] -= 1
    return out


def mahjong_a(tiles):
    c = c34(tiles)
    s = m_shanten(c)
    if len(tiles) == 13:
        return s, m_waits(c)
    ready = []
    for d in range(34):
        if c[d]:
            c[d] -= 1
            w = m_waits(c)
            c[d] += 1
            if w:
                ready.append((d, w))
    return s, ready


def mahjong_b(tiles):
    c = c34(tiles)
    s = m_shanten(c)
    if len(tiles) == 13:
        return s, m_waits(c), m_useful(c, s)
    per = []
    for d in range(34):
        if c[d]:
            c[d] -= 1
            sd = m_shanten(c)
            per.append((d, sd, m_useful(c, sd), m_waits(c) if sd == 0 else []))
            c[d] += 1
    return s, per


def ours(tiles):
    return analyze({"variant": "zhengzhou", "options": {"wildcard": False},
                    "hand": format_tiles(tiles)})


def timed(fn, arg):
    t0 = time.perf_counter_ns()
    fn(arg)
    return (time.perf_counter_ns() - t0) / 1000


def p99(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.99 * (len(xs) - 1))))]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=1000, help="timed hands per class")
    ap.add_argument("--warm", type=int, default=3000, help="warm-up hands per tile count")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--out", help="also write the report (markdown) to this file")
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    seen: set[tuple[int, ...]] = set()

    def fresh(n, near):
        while True:
            h = tuple(random_hand(rng, n, near))
            if h not in seen:
                seen.add(h)
                return list(h)

    t0 = time.perf_counter()
    for n in (13, 14):
        for i in range(args.warm):
            ours(fresh(n, i % 2 == 0))
    warm_s = time.perf_counter() - t0
    print(f"machine: {os.cpu_count()} cores, Python {platform.python_version()}; "
          f"warm-up {2 * args.warm} hands in {warm_s:.0f} s; RSS {rss_mb():.0f} MB")
    gc.collect()
    rss0 = rss_mb()
    rows = []
    for n in (13, 14):
        for near in (False, True):
            w, a, b = [], [], []
            for i in range(args.hands):
                tiles = fresh(n, near)
                order = [(w, ours), (a, mahjong_a), (b, mahjong_b)]
                if i % 2:
                    order.reverse()
                for sink, fn in order:
                    sink.append(timed(fn, tiles))
            rows.append((n, "near-complete" if near else "random", w, a, b))
    rss1 = rss_mb()
    lines = ["# Fresh hands: analyze() beside the mahjong composite (issue 13.2, 14.1)", "",
             f"Machine: {os.cpu_count()} cores, {platform.processor() or platform.machine()}, "
             f"Python {platform.python_version()}. Command: `.venv/bin/python bench/fresh.py "
             f"--hands {args.hands} --warm {args.warm}`; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}.",
             f"Warm-up: {2 * args.warm} other random hands ({warm_s:.0f} s). Each timed hand is "
             "new; webcalc and mahjong are timed on it one after the other, order alternating.",
             "Wildcard-free 郑州; A = mahjong shanten + waits (13) / + ready discards with waits "
             "(14); B = A + the useful tiles (13) / every discard's shanten and useful tiles (14), "
             "the outputs analyze() now gives.", "",
             "| tiles | hands | webcalc analyze() µs (median / p99) | mahjong A µs | mahjong B µs "
             "| ÷ A (median) | ÷ B (median) |",
             "|---:|---|---:|---:|---:|---:|---:|"]
    for n, cls, w, a, b in rows:
        mw, ma, mb = statistics.median(w), statistics.median(a), statistics.median(b)
        lines.append(f"| {n} | {cls} | {mw:,.0f} / {p99(w):,.0f} | {ma:,.0f} / {p99(a):,.0f} | "
                     f"{mb:,.0f} / {p99(b):,.0f} | {mw / ma:.2f}× | {mw / mb:.2f}× |")
    lines += ["", f"RSS after warm-up {rss0:.0f} MB, after {4 * args.hands} fresh timed hands "
              f"{rss1:.0f} MB (growth {rss1 - rss0:+.1f} MB).", ""]
    text = "\n".join(lines)
    print(text)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
