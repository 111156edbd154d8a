"""The hand review's cost (POST /api/v1/review): CPU per 20-turn review on fresh random logs.

Each log is a legal hand of one player, played here from a shuffled wall: 13 dealt tiles
(with a wildcard where the room has them), 20 turns of draws and discards, with a pong
claimed and a kong made (added to the pong, or concealed) when the tiles allow. Every log is
new (its seed never repeats and no two logs are equal), and each is timed once
(``time.process_time``, the collector on) through one path: the engine's
:func:`webcalc.story.review` or the JSON API through the Flask app (parsing, the review, the
rendering in the reader's language, JSON). The engine is warmed as a gunicorn worker is
before the fork (:func:`webcalc.warmup.warm_up`). Target (issue 25): p99 ≤ 150 ms.

Usage: ``.venv/bin/python bench/review.py [--logs 60] [--turns 20] [--no-write]``
(``make bench-review``); appends or replaces the section "Review" of bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from webcalc import create_app  # noqa: E402
from webcalc.hand import Hand  # noqa: E402
from webcalc.options import parse_options  # noqa: E402
from webcalc.story import review  # noqa: E402
from webcalc.tiles import ALL_TILES, format_tiles  # noqa: E402
from webcalc.variants import VARIANTS  # noqa: E402
from webcalc.variants.base import Situation  # noqa: E402
from webcalc.warmup import warm_up  # noqa: E402

TARGET_MS = 150.0
SECTION = "## Review (issue 25)"
ROOMS = (("zhengzhou", {}), ("sanmenxia", {}), ("panjin", {}), ("jincheng", {}))


def random_log(rng: random.Random, name: str, options: dict, turns: int) -> dict:
    """One legal log of ``turns`` turns (see the module docstring)."""
    variant = VARIANTS[name]
    opts = parse_options(variant.Options, options)
    kinds = variant.kinds_in_play(opts)
    indicator = rng.randrange(kinds) if variant.wildcards_on(opts) else None
    wild = {int(t) for t in variant.wildcards(opts, None if indicator is None
                                              else ALL_TILES[indicator])}
    sit = Situation(Hand.of([]), tuple(ALL_TILES[k] for k in sorted(wild)), opts)
    wall = [k for k in range(kinds) for _ in range(4)]
    if indicator is not None:
        wall.remove(indicator)
    rng.shuffle(wall)
    hand = [0] * 34
    if wild:
        w = next(iter(wild))
        wall.remove(w)
        hand[w] += 1
    while sum(hand) < 13:
        hand[wall.pop()] += 1
    start = format_tiles([k for k in range(34) for _ in range(hand[k])])
    pong = None                              # the kind ponged, once
    konged = False
    log = []
    for i in range(turns):
        t: dict = {}
        pairs = [k for k in range(34) if hand[k] == 2 and k not in wild and k in wall]
        if pong is None and pairs and i >= 2 and rng.random() < 0.3:
            pong = rng.choice(pairs)
            wall.remove(pong)
            hand[pong] -= 2
            t = {"claim": "pong", "tiles": format_tiles([pong] * 3), "from": rng.randrange(1, 4)}
        else:
            d = wall.pop()
            hand[d] += 1
            t = {"draw": ALL_TILES[d].code}
            fours = [k for k in range(34) if hand[k] == 4 and k not in wild]
            if not konged and (fours or (pong is not None and hand[pong] == 1)):
                k = fours[0] if fours else pong
                hand[k] -= 4 if fours else 1
                r = wall.pop()
                hand[r] += 1
                t.update(kong=ALL_TILES[k].code, replacement=ALL_TILES[r].code)
                konged = True
        now = Situation(Hand.of([k for k in range(34) for _ in range(hand[k])]), sit.wildcards,
                        opts)
        held = [k for k in range(34) if hand[k] and variant.can_discard(now, ALL_TILES[k])]
        d = rng.choice(held)
        hand[d] -= 1
        t["discard"] = ALL_TILES[d].code
        log.append(t)
    req = {"variant": name, "start": start, "turns": log}
    if options:
        req["options"] = options
    if indicator is not None:
        req["indicator"] = ALL_TILES[indicator].code
    return req


def stats(ms: list[float]):
    s = sorted(ms)
    p99 = s[min(len(s) - 1, int(round(0.99 * (len(s) - 1))))]
    return statistics.median(s), p99, s[-1]


def machine() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpus = Path("/proc/cpuinfo").read_text().count("model name")
                return f"{line.split(':', 1)[1].strip()}, {cpus} CPUs"
    except OSError:
        pass
    return "unknown machine"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--logs", type=int, default=60, help="logs per room and path")
    ap.add_argument("--turns", type=int, default=20)
    ap.add_argument("--seed", type=int, default=int(time.time()))
    ap.add_argument("--out", default=str(ROOT / "bench" / "RESULTS.md"))
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args(argv)

    app = create_app({"TESTING": True})
    client = app.test_client()
    warm_up()
    rng = random.Random(args.seed)
    seen: set = set()

    def fresh(name, options):
        while True:
            req = random_log(rng, name, options, args.turns)
            key = repr(req)
            if key not in seen:
                seen.add(key)
                return req

    def engine(req):
        return review(req)

    def api(req):
        resp = client.post("/api/v1/review", json=req)
        assert resp.status_code == 200, resp.get_data(as_text=True)[:300]

    paths = {"engine": engine, "api": api}
    load_start = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    results: dict[tuple[str, str], list[float]] = {}
    kongs = pongs = 0
    for _ in range(args.logs):                  # interleaved: load changes hit all alike
        for name, options in ROOMS:
            for path, run in paths.items():
                req = fresh(name, options)
                pongs += any("claim" in t for t in req["turns"])
                kongs += any("kong" in t for t in req["turns"])
                t0 = time.process_time()
                run(req)
                ms = (time.process_time() - t0) * 1000
                results.setdefault((name, path), []).append(ms)
                results.setdefault(("all", path), []).append(ms)
    load_end = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    total = args.logs * len(ROOMS) * len(paths)
    lines = [SECTION, "",
             f"`make bench-review` (`bench/review.py --logs {args.logs} --turns {args.turns} "
             f"--seed {args.seed}`), {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; "
             f"{machine()}; load average {load_start} at the start, {load_end} at the end "
             "(other work on the machine shows in it). CPU per review (`time.process_time`, "
             f"collector on) of fresh random {args.turns}-turn logs, each timed once through "
             "one path, after the workers' warm-up; "
             f"{pongs} of the {total} logs claim a pong, {kongs} make a kong. A review is one "
             "`analyze()` per discard plus one for the final hand. Target: p99 ≤ 150 ms.", "",
             "| room | path | logs | p50 ms | p99 ms | max ms | p99 ≤ 150 ms |",
             "|---|---|---:|---:|---:|---:|---|"]
    for name in [n for n, _ in ROOMS] + ["all"]:
        for path in paths:
            ms = results[(name, path)]
            p50, p99, mx = stats(ms)
            lines.append(f"| {name} | {path} | {len(ms)} | {p50:.1f} | {p99:.1f} | {mx:.1f} | "
                         f"{'met' if p99 <= TARGET_MS else 'MISSED'} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if not args.no_write:
        path = Path(args.out)
        old = path.read_text() if path.exists() else ""
        pat = re.compile(re.escape(SECTION) + r".*?(?=\n## |\Z)", re.S)
        new = pat.sub(lambda m: text.rstrip("\n") + "\n", old) if pat.search(old) else (
            old.rstrip("\n") + "\n\n" + text)
        path.write_text(new)


if __name__ == "__main__":
    main()
