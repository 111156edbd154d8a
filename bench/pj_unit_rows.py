"""Issue 38, round 11: 盘锦's 13-tile answer from each unit's *unbounded* rows, measured.

    python bench/pj_unit_rows.py [--hands 1000] [--seed 51] [--no-check] [--no-time]

The design under test (bench/RESULTS.md, "Issue 38, round 11"): a unit's rows ``(g, p, x,
flags) → (r, drawn kinds)`` computed with no bound from the other units (the searches of
webcalc/variants/panjin_draws.py with ``limit`` infinite and no ``rest``:
:func:`unit_panjin_drawn`, compiled ``pj_search`` when built), then the hand as a merge of
the four units' rows (:func:`_merge_drawn`) read by :func:`_drawn_best`. Fresh 13-tile
hands as bench/rule_sets.py makes them (half complete less one tile, half random, the
indicator random, 0-2 wildcard tiles), 30 % of them won on a discard (PJ-2's rule).

1. ``check``: the prototype's distance and useful draws against ``analyze()``'s (the same
   hands; the useful rows and the shanten of the API).
2. counts: rows a unit, rows that are in some target within the hand's distance ``d`` (the
   least any bounded merge of such rows must touch), rows a cheaper bound keeps (the other
   units merged without their jokers placed: :func:`within` not ``exact``), the merge's
   pairs with all rows and with each of those.
3. time (one process, CPU time, best of 5 passes): the present compiled call
   (``panjin_advice``, the arguments ``analyze()`` gave it, replayed) against the four
   unbounded unit searches of the same hands (compiled ``pj_search``, no merge).
4. ``--dump FILE``: each hand's four units' rows and the prototype's answer, for
   bench/pj_table_merge.c (the hand from rows a table would give: a bound, then the merge).
5. ``--table-size TILES MAX_X``: a table of suit units' rows (no melds, the wildcard mode
   ``next``, 0-2 jokers held, at most TILES real tiles a unit): its keys, and from 4,000 of
   them sampled the rows a key, the bytes at 4 a row and the minutes to build on one core.
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import sys
import time
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "bench"))

from hands import panjin_requests  # noqa: E402  (bench/hands.py)

from webcalc.analysis import analyze  # noqa: E402
from webcalc.compiled import pjunit  # noqa: E402
from webcalc.shanten import INF, UNITS, hand_caps  # noqa: E402
from webcalc.tiles import ALL_TILES  # noqa: E402
from webcalc.variants import VARIANTS  # noqa: E402
from webcalc.variants import panjin_advice as PA  # noqa: E402
from webcalc.variants.panjin_draws import _drawn_best, unit_panjin_drawn  # noqa: E402
from webcalc.variants.panjin_merge import _merge_drawn  # noqa: E402
from webcalc.variants.panjin_search import (  # noqa: E402
    PRES,
    SEQ,
    TRIP,
    YJ,
    _yj_flags,
    panjin_meld_flags,
)
from webcalc.warmup import warm_up  # noqa: E402

PANJIN = VARIANTS["panjin"]


def unit_rows(real: Any, caps: Any, jokers: int, max_x: int) -> list[tuple[Any, ...]]:
    """The four units' unbounded rows ``(g, p, x, flags, r, drawn)``."""
    return [unit_panjin_drawn(tuple(real[a:b]), tuple(caps[a:b]), a, honors, max_x, INF, jokers)
            for a, b, honors in UNITS]


def merged(rows: list[tuple[Any, ...]], groups: int, suits0: int, want: int, jokers: int,
           max_x: int) -> tuple[dict[Any, Any], int]:
    """The hand's states after merging the four units' rows, and the pairs the merge tried."""
    acc: dict[Any, Any] = {(0, 0, 0, bin(suits0).count("1"), 0): (0, 0)}
    pairs = 0
    for ui, (_, _, honors) in enumerate(UNITS):
        pairs += len(acc) * len(rows[ui])
        acc = _merge_drawn(acc, rows[ui], groups, max_x, jokers, INF,
                           not honors and not suits0 >> ui & 1, want, 0)
    return acc, pairs


def answer(sit: Any) -> tuple[tuple[int, int, bool] | None, dict[str, Any]]:
    """The prototype's ``(d, drawn kinds, a wildcard draw lowers it)`` of a 13-tile hand
    (PJ-2, PJ-4..PJ-7; 七对 off) and what it counted."""
    _, caps, room = hand_caps(sit)
    jokers, melds = len(sit.jokers), len(sit.hand.melds)
    groups, max_x = 4 - melds, jokers + room
    suits0, yj0, trip0, seq0 = panjin_meld_flags(sit)
    want = (0 if yj0 else YJ) | (0 if trip0 else TRIP)
    if not sit.options.piaohu and not seq0 and groups:
        want |= SEQ
    allowed = PANJIN.allowed_suit_counts(sit)
    rows = unit_rows(sit.real_counts, caps, jokers, max_x)
    acc, pairs = merged(rows, groups, suits0, want, jokers, max_x)
    found = _drawn_best([(r, x, m, False) for (g, p, x, n, f), (r, m) in acc.items()
                         if g == groups and p == 1 and x >= jokers and n in allowed
                         and f & want == want], jokers, sit.win_by == "discard", INF)
    info = {"rows": [len(t) for t in rows], "pairs": pairs}
    if found is not None:
        kept = within(rows, found[0], groups, suits0, want, jokers, max_x, allowed)
        info["kept"] = [len(t) for t in kept]
        info["kept_pairs"] = merged(kept, groups, suits0, want, jokers, max_x)[1]
        bound = within(rows, found[0], groups, suits0, want, jokers, max_x, allowed, False)
        info["bound"] = [len(t) for t in bound]
        info["bound_pairs"] = merged(bound, groups, suits0, want, jokers, max_x)[1]
    return found, info


def within(rows: list[tuple[Any, ...]], d: int, groups: int, suits0: int, want: int,
           jokers: int, max_x: int, allowed: Any, exact: bool = True) -> list[tuple[Any, ...]]:
    """Each unit's rows that are in some complete target costing at most ``d``; not
    ``exact``: the rows a bound keeps that ignores the jokers (x) and the other units'
    masks, the other units' rows merged by (groups, pair, suits shown, wanted flags) only."""
    out = []
    for u in range(4):
        others = [t if i != u else ((0, 0, 0, 0, 0, 0),) for i, t in enumerate(rows)]
        acc, _ = merged(others, groups, suits0, want, jokers, max_x)
        honors = UNITS[u][2]
        keep = []
        for row in rows[u]:
            g, p, x, fl, r = row[:5]
            inc = 1 if not honors and not suits0 >> u & 1 and fl & PRES else 0
            if any(g + g2 == groups and p + p2 == 1
                   and (not exact or jokers <= x + x2 <= max_x)
                   and n + inc in allowed and (f | fl & want) == want
                   and r + r2 + max(0, x + (x2 if exact else 0) - jokers) <= d
                   for (g2, p2, x2, n, f), (r2, _) in acc.items()):
                keep.append(row)
        out.append(tuple(keep))
    return out


def hands(seed: int, count: int) -> list[tuple[int, dict[str, Any]]]:
    """``count`` fresh 13-tile 盘锦 requests per wildcard count 0-2 (bench/hands.py)."""
    return panjin_requests(random.Random(seed), 13, count)


class Spy:
    """The compiled module as panjin_advice.py sees it, recording what ``analyze()`` asks."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    def panjin_advice(self, *args: Any) -> Any:
        self.calls.append(args)
        return pjunit.panjin_advice(*args)

    def __getattr__(self, name: str) -> Any:
        return getattr(pjunit, name)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=1000, help="per wildcard count")
    ap.add_argument("--seed", type=int, default=51)
    ap.add_argument("--no-check", action="store_true")
    ap.add_argument("--no-time", action="store_true")
    ap.add_argument("--table-size", nargs=2, type=int, metavar=("TILES", "MAX_X"))
    ap.add_argument("--dump", metavar="FILE",
                    help="write each hand's four units' rows and answer for bench/pj_table_merge.c")
    args = ap.parse_args()
    if args.table_size:
        table_size(*args.table_size)
        return
    dump = open(args.dump, "w", encoding="ascii") if args.dump else None
    warm_up()
    own = PANJIN.own_advice
    seen: list[tuple[Any, ...]] = []

    def spy(sit: Any, kinds: int, visible: Any, useful: bool = True) -> Any:
        res = own(sit, kinds, visible, useful)
        seen.append((sit, kinds, res))
        return res

    spy_module = Spy()
    PA._pjunit = spy_module  # type: ignore[assignment]
    PANJIN.own_advice = spy  # type: ignore[method-assign]
    todo = hands(args.seed, args.hands)
    recorded: dict[int, list[tuple[tuple[Any, ...], Any]]] = {0: [], 1: [], 2: []}
    stats: dict[int, dict[str, float]] = {w: {} for w in (0, 1, 2)}
    differ = checked = 0
    for w, req in todo:
        seen.clear()
        spy_module.calls.clear()
        analyze(req)
        if not seen or seen[0][2] is None:
            continue
        sit, kinds, res = seen[0]
        _, caps, room = hand_caps(sit)
        if spy_module.calls:
            recorded[w].append((spy_module.calls[0], (sit.real_counts, caps, len(sit.jokers),
                                                       len(sit.jokers) + room)))
        if dump is not None and not sit.hand.melds:
            dump_hand(dump, w, sit)
        if args.no_check:
            continue
        found, info = answer(sit)
        s = stats[w]
        s["n"] = s.get("n", 0) + 1
        for key in ("rows", "kept", "bound"):
            for u, n in enumerate(info.get(key, ())):
                s[f"{key}{u}"] = s.get(f"{key}{u}", 0) + n
        s["pairs"] = s.get("pairs", 0) + info["pairs"]
        for key in ("kept_pairs", "bound_pairs"):
            s[key] = s.get(key, 0) + info.get(key, 0)
        checked += 1
        if mine(found, sit, kinds, res) != theirs(res):
            differ += 1
            if differ <= 5:
                print("differs:", req, mine(found, sit, kinds, res), theirs(res))
    PANJIN.own_advice = own  # type: ignore[method-assign]
    PA._pjunit = pjunit
    if dump is not None:
        dump.close()
    if not args.no_check:
        print(f"checked {checked} hands against analyze(): {differ} differ")
        for w, s in stats.items():
            n = s["n"]
            print(f"w{w}: rows a unit " + " / ".join(f"{s[f'rows{u}'] / n:.1f}" for u in range(4))
                  + "; in a target within d " + " / ".join(f"{s[f'kept{u}'] / n:.1f}" for u in range(4))
                  + "; kept by a bound without x " + " / ".join(f"{s[f'bound{u}'] / n:.1f}"
                                                             for u in range(4))
                  + f"; merge pairs {s['pairs'] / n:.0f} (the rows within d only: "
                  f"{s['kept_pairs'] / n:.0f}, those the bound keeps: {s['bound_pairs'] / n:.0f})")
    if not args.no_time:
        timing(recorded)


def table_size(tiles: int, max_x: int) -> None:
    """The keys of a suit unit's rows table and, sampled, its rows, bytes and build time."""
    keys = []
    for jokers in (0, 1, 2):
        for pattern in itertools.product(range(5), repeat=9):
            if sum(pattern) > min(tiles, 13 - jokers):
                continue
            keys.append((pattern, (4,) * 9, jokers))    # the indicator's suit is another
            for i in range(9):                          # the indicator i, its wildcard i + 1
                w = (i + 1) % 9
                if pattern[w] == 0 and pattern[i] <= 3:
                    caps = [4] * 9
                    caps[i], caps[w] = 3, 0
                    keys.append((pattern, tuple(caps), jokers))
    sample = random.Random(1).sample(keys, min(4000, len(keys)))
    rows = 0
    start = time.process_time()
    for pattern, caps, jokers in sample:
        rows += len(pjunit.search(pattern, caps, _yj_flags(0, 9), 0, False, max_x, 99, jokers,
                                  jokers, 4, None, (), False, True, None)[0])
    spent = time.process_time() - start
    per_key = rows / len(sample)
    print(f"{len(keys)} keys; {per_key:.1f} rows a key; {len(keys) * per_key * 4 / 1e6:.0f} MB "
          f"at 4 bytes a row; {spent / len(sample) * 1e6:.0f} µs a key, "
          f"{len(keys) * spent / len(sample) / 60:.1f} min on one core "
          f"(load {os.getloadavg()[0]:.1f})")


def dump_hand(out: Any, w: int, sit: Any) -> None:
    """One line: the wildcard count, jokers held, ``max_x``, a discard win, the prototype's
    ``d`` (-1: never ready), drawn mask and wildcard bit, then per unit its row count and
    rows ``g p x flags r drawn`` (bench/pj_table_merge.c reads it; no melds: PJ-4's three
    suits all to show)."""
    _, caps, room = hand_caps(sit)
    jokers = len(sit.jokers)
    want = YJ | TRIP | SEQ
    rows = unit_rows(sit.real_counts, caps, jokers, jokers + room)
    acc, _ = merged(rows, 4, 0, want, jokers, jokers + room)
    found = _drawn_best([(r, x, m, False) for (g, p, x, n, f), (r, m) in acc.items()
                         if g == 4 and p == 1 and x >= jokers and n == 3 and f & want == want],
                        jokers, sit.win_by == "discard", INF)
    d, mask, wild = found if found is not None else (-1, 0, False)
    line = [w, jokers, jokers + room, int(sit.win_by == "discard"), d, mask, int(wild)]
    for table in rows:
        line.append(len(table))
        for row in table:
            line += row
    out.write(" ".join(map(str, line)) + "\n")


def _codes(rows: Any) -> list[str]:
    return sorted(str(c["tile"]) for c in rows)


def mine(found: tuple[int, int, bool] | None, sit: Any, kinds: int,
         res: tuple[Any, ...]) -> tuple[int | None, list[str]]:
    """The prototype's (shanten, useful kinds) as the API rows list them (C-12: a hand ready
    for a discard win has its waits as its useful draws)."""
    if found is None:
        return None, []
    d0, mask, wild = found
    if sit.win_by == "discard" and d0 == 1:
        return 0, _codes(res[1])
    gone = sit.hand.held_counts()
    gone[sit.indicator] += 1
    drawn = {k for k in range(34) if mask >> k & 1} | (set(map(int, sit.wildcards)) if wild else set())
    return d0 - 1 if d0 > 1 else 0, sorted(ALL_TILES[k].code for k in drawn
                                           if k < kinds and gone[k] < 4)


def theirs(res: tuple[Any, ...]) -> tuple[int | None, list[str]]:
    return res[0], _codes(res[2]) if res[0] is not None else []


def timing(recorded: dict[int, list[tuple[tuple[Any, ...], Any]]]) -> None:
    """The present call against the four unbounded unit searches, the same hands."""
    print(f"load average {os.getloadavg()[0]:.2f}")
    for w, calls in recorded.items():
        units = []
        for _, (real, caps, jokers, max_x) in calls:
            for a, b, honors in UNITS:
                units.append((tuple(real[a:b]), tuple(caps[a:b]), _yj_flags(a, b - a), a, honors,
                              max_x, 99, jokers, jokers, 4, None, (), False, True, None))
        best_call = best_units = INF
        for _ in range(5):
            t = time.process_time()
            for call, _ in calls:
                pjunit.panjin_advice(*call)
            best_call = min(best_call, time.process_time() - t)
            t = time.process_time()
            for unit in units:
                pjunit.search(*unit)
            best_units = min(best_units, time.process_time() - t)
        n = len(calls)
        print(f"w{w}: {n} hands; panjin_advice {best_call / n * 1e6:.1f} µs a call; the four "
              f"unbounded unit searches {best_units / n * 1e6:.1f} µs a hand")


if __name__ == "__main__":
    main()
