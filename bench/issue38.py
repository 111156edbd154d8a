"""Issue 38's Done-when in one run: ``make bench-38`` → bench/RESULTS.md, "## Issue 38: the
targets in one run" (and the city's own section, "## City (issue 26.4)").

One command measures every figure the issue names, one part after the other on this
checkout, each part in its own fresh process(es) on inputs never seen before in that process,
each part's sides interleaved inside it (the parts' own scripts say how):

1. ``analyze()`` against riichienv, 13 and 14 tiles (bench/bench.py ``--peers-only --json``:
   the peers' job of bench/peers.py, the sides taking turns by batches of 10 fresh hands,
   CPU time; every answer compared, C-5 differences counted apart).
2. Each rule set against 晋城 at the same tile count, 0-2 wildcard tiles
   (bench/rule_sets.py ``--one``, one process per seed, the jobs taking turns by batches).
3. The calculator page against its API call, the live poll's and the table read's 304
   against a minimal Flask route (bench/page_cost.py: the page, its htmx fragment and the
   API alternating hand by hand; WSGI calls in alternating blocks).
4. The 2-worker 50/50 page/API mix against the minimal route, req/s (bench/pages.py's load
   windows: both servers under gunicorn, the windows alternating).
5. The city (bench/city.py: 3 servers × 2 workers, nginx, one PostgreSQL, 1 000 tables × 4
   viewers; a quiet window, then a write window). Needs nginx and PostgreSQL
   (tests/city.py ``problem()``); ``--no-city`` leaves it out.
6. The golden corpus replayed (``pytest -m refactor tests/test_golden.py``).

Each row of the section carries its command, the UTC time it ran, the commit and the load
average at its start and end. ``--no-write`` prints the section only.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(BENCH))

from soak import write_section  # noqa: E402

HEAD = "## Issue 38: the targets in one run"
PY = sys.executable
RULE_SETS = ("sanmenxia", "zhengzhou", "panjin")


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def commit() -> str:
    try:
        out = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                             capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--",
                                "webcalc", "templates", "bench", ":(exclude)bench/RESULTS.md"],
                               capture_output=True, text=True).stdout.strip()
        return out + ("+" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "?"


class Part:
    """One part's command, start time, commit and load average at its start and end."""

    def __init__(self, command: str) -> None:
        self.command = command
        self.when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        self.commit = commit()
        self.load0 = load()
        self.load1 = ""

    def done(self) -> Part:
        self.load1 = load()
        return self

    def cell(self) -> str:
        return (f"`{self.command}`; {self.when}, `{self.commit}`, load {self.load0} → "
                f"{self.load1}")


def run_json(args: list[str]) -> dict:
    out = subprocess.run([PY, *args], cwd=ROOT, capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(f"{' '.join(args)} failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout[out.stdout.index("{"):])


def spread(xs: list[float]) -> str:
    return f"{statistics.median(xs):.2f}× ({min(xs):.2f}–{max(xs):.2f})"


def verdict(ok: bool) -> str:
    return "met" if ok else "**missed**"


def peers(seed: int, repeats: int, h13: int, h14: int) -> list[str]:
    args = ["bench/bench.py", "--peers-only", "--json", "--seed", str(seed), "--repeats",
            str(repeats), "--hands13", str(h13), "--hands14", str(h14)]
    part = Part("python " + " ".join(args))
    f = run_json(args)
    part.done()
    rows = []
    for n, limit in (("13", 2.0), ("14", 1.0)):
        job = f["jobs"][n]
        ratios = job["ratio"]["riichienv"]
        ours = " / ".join(f"{x:.1f}" for x in job["us"]["webcalc"])
        theirs = " / ".join(f"{x:.1f}" for x in job["us"]["riichienv"])
        cmp = job["compared"]["riichienv"]
        other = cmp["timed"]["other"] + cmp["special"]["other"]
        rows.append(
            f"| `analyze()` ÷ riichienv, {n} tiles, same job and hands (≤ {limit:.1f}×) | "
            f"{spread(ratios)}; µs per hand {ours} against {theirs}; answers: "
            f"{cmp['timed']['equal']:,} equal and {cmp['timed']['c5']:,} C-5 only of "
            f"{cmp['timed']['hands']:,} timed, {cmp['special']['equal']} and "
            f"{cmp['special']['c5']} of {cmp['special']['hands']} 七对/十三幺, other {other} | "
            f"{verdict(max(ratios) <= limit and other == 0)} | {part.cell()} |")
    return rows


def rule_sets(seeds: list[int], hands: int) -> list[str]:
    runs, parts = [], []
    for seed in seeds:
        args = ["bench/rule_sets.py", "--one", str(ROOT), str(seed), str(hands)]
        part = Part("python " + " ".join(args))
        runs.append(run_json(args))
        parts.append(part.done())
    rows = []
    for v in RULE_SETS:
        for n in (13, 14):
            ratios = {w: [r[f"{v} {n} w{w}"] / r[f"jincheng {n} w0"] for r in runs]
                      for w in (0, 1, 2)}
            worst = max(max(x) for x in ratios.values())
            cells = "; ".join(f"w{w} {spread(x)}" for w, x in ratios.items())
            us = " / ".join(f"{statistics.median(r[f'{v} {n} w{w}'] for r in runs):.0f}"
                            for w in (0, 1, 2))
            base = statistics.median(r[f"jincheng {n} w0"] for r in runs)
            rows.append(f"| {v} ÷ 晋城, {n} tiles, 0-2 wildcard tiles (≤ 2×) | {cells} "
                        f"(µs {us} against {base:.0f}; per seed, median (min–max)) | "
                        f"{verdict(worst <= 2.0)} | {parts[0].cell()}; seeds "
                        f"{', '.join(map(str, seeds))} |")
    return rows


def pages(seed: int, hands: int) -> list[str]:
    args = ["bench/page_cost.py", "--hands", str(hands), "--rounds", "20", "--block", "300",
            "--seed", str(seed)]
    part = Part("python " + " ".join(args))
    f = run_json(args)
    part.done()
    lo, hi = f["live_304/minimal range"]
    return [
        f"| calculator page ÷ its API call, CPU, the same fresh hands (≤ 1.5×) | "
        f"{f['page/api']:.2f}× (totals; medians {f['page_median_us'] / 1000:.2f} / "
        f"{f['api_median_us'] / 1000:.2f} ms; the htmx fragment {f['fragment/api']:.2f}×) | "
        f"{verdict(f['page/api'] <= 1.5)} | {part.cell()} |",
        f"| an unchanged live poll (304) ÷ a minimal Flask route, CPU (≤ 1.5×) | "
        f"{f['live_304/minimal']:.2f}× ({lo:.2f}–{hi:.2f} per block pair; the table read's "
        f"304 {f['read_304/minimal']:.2f}×) | {verdict(f['live_304/minimal'] <= 1.5)} | "
        f"{part.cell()} |"]


def mix(windows: int, seconds: float) -> list[str]:
    import pages as pages_bench

    part = Part(f"bench/pages.py load windows: {windows} × {seconds:g} s per server")
    runs, _logs, _l0, _l1 = pages_bench.load_runs({"webcalc": ROOT}, windows, seconds)
    part.done()
    ours = [w["rps"] for w in runs["webcalc"]]
    base = [w["rps"] for w in runs["minimal"]]
    per = [a / b for a, b in zip(ours, base, strict=True)]
    ratio = statistics.median(ours) / statistics.median(base)
    errors = sum(w["errors"] for ws in runs.values() for w in ws)
    cpu = statistics.median(w["cpu_ms"] for w in runs["webcalc"])
    cpu_min = statistics.median(w["cpu_ms"] for w in runs["minimal"])
    return [f"| 2-worker 50/50 page/API mix ÷ a minimal Flask route, req/s (≥ 0.35×) | "
            f"{ratio:.3f}× ({statistics.median(ours):.0f} ÷ {statistics.median(base):.0f} "
            f"req/s; per window pair {min(per):.2f}–{max(per):.2f}; server CPU per request "
            f"{cpu:.2f} against {cpu_min:.2f} ms; errors {errors}) | "
            f"{verdict(ratio >= 0.35 and not errors)} | {part.cell()} |"]


def city(out: Path, write: bool) -> list[str]:
    import city as city_bench

    why = city_bench.problem()
    if why is not None:
        return [f"| the city | not run: {why} | — | — |"]
    args = ["--tables", "1000", "--interval", "30", "--warm", "75", "--quiet", "40",
            "--seconds", "40"]
    ns = city_bench.parser().parse_args(args)
    part = Part("python bench/city.py " + " ".join(args))
    r = city_bench.run(ns)
    part.done()
    if write:
        write_section(out, city_bench.report(r, ns), city_bench.HEAD)
    f = city_bench.figures(r)
    return [f"| the city, quiet window: poll p99 (≤ 50 ms) | {f['p99']:.1f} ms (p50 "
            f"{f['p50']:.1f}) | {verdict(f['p99'] <= 50)} | {part.cell()} |",
            f"| the city, write window: write p99 (≤ 500 ms), client time-outs (0) | "
            f"{f['r99']:.1f} ms (p50 {f['r50']:.1f}; polls p99 {f['w99']:.1f}), "
            f"{f['timeouts']} time-outs, {f['errors']} errors | "
            f"{verdict(f['r99'] <= 500 and not f['timeouts'])} | {part.cell()} |"]


def golden() -> list[str]:
    args = ["-m", "pytest", "-q", "-p", "no:xdist", "-p", "no:cacheprovider", "-m",
            "refactor", "tests/test_golden.py"]
    part = Part("python " + " ".join(args))
    out = subprocess.run([PY, *args], cwd=ROOT, capture_output=True, text=True)
    part.done()
    last = (out.stdout.strip().splitlines() or ["no output"])[-1].strip("= ")
    return [f"| the golden corpus replays byte-identically | {last} | "
            f"{verdict(out.returncode == 0)} | {part.cell()} |"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=int(time.time()) % 100_000,
                    help="the run's seed (every part's inputs derive from it)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--hands13", type=int, default=600)
    ap.add_argument("--hands14", type=int, default=150)
    ap.add_argument("--rule-hands", type=int, default=200)
    ap.add_argument("--page-hands", type=int, default=300)
    ap.add_argument("--windows", type=int, default=3)
    ap.add_argument("--window", type=float, default=10.0)
    ap.add_argument("--no-city", action="store_true")
    ap.add_argument("--no-golden", action="store_true")
    ap.add_argument("--out", default=str(BENCH / "RESULTS.md"))
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args()
    t0 = time.monotonic()
    start, load0 = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), load()
    s = args.seed
    rows = peers(s, args.repeats, args.hands13, args.hands14)
    rows += rule_sets([s + 1, s + 2, s + 3], args.rule_hands)
    rows += pages(s + 4, args.page_hands)
    rows += mix(args.windows, args.window)
    if not args.no_city:
        rows += city(Path(args.out), not args.no_write)
    if not args.no_golden:
        rows += golden()
    missed = sum("**missed**" in r for r in rows)
    text = "\n".join([
        HEAD, "",
        f"`make bench-38` (`python bench/issue38.py --seed {s}`), {start}, commit "
        f"`{commit()}`, {time.monotonic() - t0:.0f} s; load average {load0} at the start, "
        f"{load()} at the end. Machine: {os.cpu_count()} CPUs, Python "
        f"{sys.version.split()[0]}. CPU time wherever a ratio is of CPU; each part's sides "
        "interleaved in one process (or, for the req/s, in alternating windows), on inputs "
        "that part never saw before (bench/issue38.py says how each part runs).", "",
        "| target | measured | verdict | command; when, commit, load average start → end |",
        "|---|---|---|---|", *rows, "",
        f"{len(rows) - missed} of {len(rows)} rows met, {missed} missed.", ""])
    print(text)
    if not args.no_write:
        write_section(Path(args.out), text, HEAD)


if __name__ == "__main__":
    main()
