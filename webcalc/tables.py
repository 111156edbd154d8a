"""Per-suit lookup tables: the fast path of the complete check and the waits.

A hand splits into four *units* that do not interact in the standard shape: the three
suits (9 counts each) and the honors (7 counts, no sequences). For each unit pattern
:func:`unit_needs` gives ``(n0, n1)``: the fewest jokers (wildcard tiles) that complete it
into melds only, and into melds plus one pair. A whole hand is complete when
``Σ n0 + min(n1 − n0 over units, 2)`` jokers (2: a pair of jokers as the eyes) do not
exceed the jokers held (RULES C-4, C-8): jokers left over always form whole melds. The
tables are filled lazily, each distinct pattern solved once and kept while it is among the
most recently used, so a check costs four look-ups whatever the wildcard count.
:func:`unit_additions` stores, per pattern, the needs after adding each tile — the waits in
one pass.

Memory: a suit has 405,350 patterns of at most 14 tiles — too many to hold them
all — so each table is an LRU cache of at most ``*_MAX`` entries (:data:`TABLE_SIZES`);
together they stay under about 10 MB. :func:`webcalc.warmup.warm_up` fills them with the
patterns of ordinary hands before gunicorn forks its workers.

``in_triplet=False``: jokers only in sequences and the pair (a variant's
:class:`~webcalc.decompose.JokerPolicy`).

What the tables buy now (issue 37.2; ``python bench/machinery.py --hands 60 --repeats 7``,
2026-12-06, commit f324730, load 12-16; bench/RESULTS.md "Machinery (issue 37.2)"): with
the compiled part, 1.8 % of ``analyze()`` CPU on fresh requests with no cache at all (range
-12.2-4.8 % over 7 repeats), 0.0 % at half the sizes. An analysis asks :func:`unit_needs`
some 35 times (about 6 of them misses on fresh hands) and ``_pjunit.needs`` answers a miss
in about 3 µs; :func:`_need` runs only without the compiled part. By issue 37.2's
rule (under 10 % of its path) they would go with the compiled part; they stay for the
engine without it (no C compiler at install, ``WEBCALC_PURE_PYTHON``: ``make test-pure``),
where every miss is a Python search of the pattern.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

# unit_needs from a DP in C when it was built (webcalc/_pjunit_free.c ``needs``; None: not);
# the recursive _need below stays the reference (tests/test_pjunit.py)
from .compiled import pjunit as _pjunit

INF = 99
NUM_KINDS = 34
UNITS = ((0, 9, False), (9, 18, False), (18, 27, False), (27, 34, True))   # start, end, honors

#: the bound of each table (entries; an LRU cache: the least recently used pattern goes)
NEEDS_MAX = 1 << 13
ADDITIONS_MAX = 1 << 12
SUB_MAX = 1 << 12
WAITS_MAX = 1 << 11


@lru_cache(maxsize=NEEDS_MAX)
def unit_needs(unit: tuple[int, ...], honors: bool, in_triplet: bool) -> tuple[int, int]:
    """``(n0, n1)`` for one unit pattern: jokers needed for melds only / melds + a pair
    (``INF`` when impossible)."""
    unit = _canonical(unit, honors)
    if _pjunit is not None:
        needs: tuple[int, int] = _pjunit.needs(unit, honors, in_triplet)
        return needs
    return _need(unit, 0, honors, in_triplet), _need(unit, 1, honors, in_triplet)


def _canonical(unit: tuple[int, ...], honors: bool) -> tuple[int, ...]:
    """The representative of ``unit``'s patterns that need the same jokers: a suit's tiles
    moved down to rank 1 (a sequence is three places in a row wherever it lies: every
    group a rank could be in fits the nine ranks after the move), the honors sorted (no
    honor group holds two kinds). More sub-patterns are shared, fewer solved afresh."""
    if honors:
        return tuple(sorted(unit, reverse=True))
    if unit[0]:
        return unit
    for i, c in enumerate(unit):
        if c:
            return unit[i:] + (0,) * i
    return unit


@lru_cache(maxsize=ADDITIONS_MAX)
def unit_additions(unit: tuple[int, ...], honors: bool,
                   in_triplet: bool) -> tuple[tuple[int, int], ...]:
    """For each position of the unit, :func:`unit_needs` of the pattern with one more
    tile there."""
    out = []
    for k in range(len(unit)):
        bigger = list(unit)
        bigger[k] += 1
        out.append(unit_needs(tuple(bigger), honors, in_triplet))
    return tuple(out)


@lru_cache(maxsize=SUB_MAX)
def _need(unit: tuple[int, ...], pair: int, honors: bool, in_triplet: bool) -> int:
    i = next((k for k, c in enumerate(unit) if c), -1)
    if i < 0:
        return 2 * pair                                    # a pair of jokers
    c = unit[i]
    best = INF
    options: list[tuple[tuple[int, ...], int, int]] = []   # (real places, jokers, pairs used)
    if pair:
        options.append(((i, i), 0, 1) if c >= 2 else ((i,), 1, 1))
    if c >= 3:
        options.append(((i, i, i), 0, 0))
    if in_triplet and c < 3:
        options.append(((i,) * c, 3 - c, 0))
    if in_triplet and c >= 2:
        options.append(((i, i), 1, 0))
    if in_triplet:
        options.append(((i,), 2, 0))
    if not honors:
        for a in (i - 2, i - 1, i):
            if a < 0 or a + 2 > 8:
                continue
            # places below i are jokers (lower real tiles are used up); a place above i
            # takes a real tile or a joker — both are tried (with jokers kept out of
            # triplets, the real tile may be needed elsewhere)
            fills: list[tuple[list[int], int]] = [([i], 0)]
            for k in (a, a + 1, a + 2):
                if k == i:
                    continue
                nxt = [(taken, jokers + 1) for taken, jokers in fills]
                if k > i and unit[k] > 0:
                    nxt += [(taken + [k], jokers) for taken, jokers in fills]
                fills = nxt
            options += [(tuple(taken), jokers, 0) for taken, jokers in fills]
    for taken, jokers, used in options:
        if jokers >= best:
            continue
        rest = list(unit)
        for k in taken:
            rest[k] -= 1
        best = min(best, jokers + _need(_canonical(tuple(rest), honors), pair - used, honors,
                                        in_triplet))
    return best


@lru_cache(maxsize=WAITS_MAX)
def unit_wait_positions(unit: tuple[int, ...], honors: bool, in_triplet: bool, slack: int,
                        other: int) -> tuple[int, ...]:
    """Positions of the unit where one more tile completes the hand, given ``slack`` (the
    jokers left for this unit once the other units have theirs) and ``other`` (the cheapest
    pair elsewhere, 2 for a pair of jokers)."""
    return tuple(pos for pos, (a0, a1) in enumerate(unit_additions(unit, honors, in_triplet))
                 if a0 + min(other, a1 - a0) <= slack)


#: every bounded table of this module, for :mod:`webcalc.warmup` and the memory benchmark
TABLES = (unit_needs, unit_additions, _need, unit_wait_positions)


def split_units(counts: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """The four unit patterns of a 34-count vector."""
    return tuple(tuple(counts[a:b]) for a, b, _ in UNITS)


def jokers_needed(counts: Sequence[int], pair: int, in_triplet: bool = True) -> int:
    """Fewest jokers completing ``counts`` into melds plus ``pair`` (0/1) pairs."""
    m0, m1 = unit_needs(tuple(counts[0:9]), False, in_triplet)
    p0, p1 = unit_needs(tuple(counts[9:18]), False, in_triplet)
    s0, s1 = unit_needs(tuple(counts[18:27]), False, in_triplet)
    z0, z1 = unit_needs(tuple(counts[27:34]), True, in_triplet)
    total = m0 + p0 + s0 + z0
    if pair:
        total += min(2, m1 - m0, p1 - p0, s1 - s0, z1 - z0)
    return total


def fits_standard(counts: Sequence[int], jokers: int, melds: int) -> bool:
    """Whether ``counts`` (34 real tiles) plus ``jokers`` (free to stand in any group)
    plus ``melds`` declared melds make 4 melds and a pair, asked of the compiled split
    search where it was built: it refuses a hand that does not fit at once, where the
    per-unit look-ups of :func:`can_complete` miss on fresh hands (it lists a hand that
    fits: for hands seldom expected to)."""
    need = 4 - melds
    if need < 0 or sum(counts) + jokers != 3 * need + 2:
        return False
    if _pjunit is not None and jokers:
        codes = _pjunit.joker_readings(tuple(counts), jokers, need, True)
        if codes is not None:
            return bool(codes)
    return can_complete(counts, jokers, need, 1, True)


def can_complete(counts: Sequence[int], jokers: int, melds: int, pair: int,
                 in_triplet: bool = True) -> bool:
    """Whether ``counts`` (34 real tiles) plus ``jokers`` split into exactly ``melds``
    sequences/triplets and ``pair`` (0 or 1) pairs, every joker used."""
    if sum(counts) + jokers != 3 * melds + 2 * pair:
        return False
    return jokers_needed(counts, pair, in_triplet) <= jokers


def standard_waits(counts: Sequence[int], jokers: int, melds: int, wildcards: Sequence[int],
                   in_triplet: bool = True) -> list[int]:
    """Kinds whose addition makes a 13-tile concealed part (``counts`` real + ``jokers``,
    beside ``melds`` declared melds) a standard win: one pass over the unit tables.
    A wildcard kind added is one joker more. Liveness (C-9) is the caller's business."""
    need = 4 - melds
    if sum(counts) + jokers + 1 != 3 * need + 2:
        return []
    units = split_units(counts)
    needs = [unit_needs(u, h, in_triplet) for u, (_, _, h) in zip(units, UNITS)]
    total0 = sum(n0 for n0, _ in needs)
    deltas = [n1 - n0 for n0, n1 in needs]
    wild = set(wildcards)
    out: list[int] = []
    for ui, (unit, (start, _, honors)) in enumerate(zip(units, UNITS)):
        other = min([2] + [d for j, d in enumerate(deltas) if j != ui])
        slack = jokers - (total0 - needs[ui][0])
        for pos in unit_wait_positions(unit, honors, in_triplet, slack, other):
            if start + pos not in wild:
                out.append(start + pos)
    if wild and total0 + min([2] + deltas) <= jokers + 1:
        out.extend(sorted(wild))
        out.sort()
    return out
