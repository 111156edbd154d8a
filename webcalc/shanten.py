"""Exact shanten (向听, RULES C-12) from per-unit tables: the shared machinery.

**What is computed.** A hand H (13 or 14 tiles, melds fixed) is *n* exchanges from ready
when some *n* exchanges (draw a live tile, discard one the variant lets go) leave a ready
13-tile hand and no *n − 1* do. For a target complete hand W (the same melds, a concealed
part the variant accepts, at most the live copies of each kind) write ``d(W) = |W − H|``,
the tiles W has that H lacks. Then

    shanten(H) = min over W of d(W) − 1            (−1: H itself is complete)

because one exchange lowers ``d`` by at most one, and the ``d − 1`` exchanges that throw
the tiles of ``H − W`` and draw those of ``W − H`` leave W less one tile, ready on a live
kind (W holds at most the live copies). When no W exists at all the hand can never become
ready: ``None``.

**How.** The standard shape splits into four *units* (three suits, the honors) that only
meet through the group count, the pair and the wildcards (*jokers*). For each unit pattern
a table gives, per ``(groups, pair, …)``, the fewest tiles to add; the hand combines four
tables by a small DP. Tables are filled once per distinct pattern and kept in bounded LRU
caches.

This module is the search of the rule sets whose jokers are *free* (``Variant.
free_joker_search``): a joker fills any place, so a unit needs only ``D`` — the places its
held real tiles do not fill — and ``q``, the places that can only be a joker because the
kind's live copies are used up (C-8: a fifth copy). Groups made only of drawn tiles or
jokers ("fresh" groups) are counted at the hand level: 3 for a meld, 2 for the pair (a hand
touches at most 18 of the 27+ kinds, so untouched kinds always have room). Cost
``max(0, ΣD − J)``. A rule set whose jokers are bound to places, or whose hands carry
whole-hand conditions, keeps its own search in its variant (docs/ARCHITECTURE.md "Where a
rule lives"); it may build on the pieces here (:func:`unit_free`, :func:`hand_caps`,
:func:`free_standard` as a lower bound).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

# The per-unit searches compiled (webcalc/_pjunit_free.c; None: not built): the same states,
# transitions, bounds and pruning as the Python functions below, which stay the reference
# (tests/test_pjunit.py) and run when it was not built — and for a call the module refuses
# (RuntimeError) because another thread is inside the same function (its tables are
# shared; only a thread switch in the middle can do that).
from .compiled import pjunit as _pjunit

if TYPE_CHECKING:
    from .variants.base import Situation

INF = 99
UNITS = ((0, 9, False), (9, 18, False), (18, 27, False), (27, 34, True))
CACHE = 1 << 13                     # unit patterns kept per table (bounded)
#: caps no place count of a unit reaches (at most 20 places at a kind): :func:`unit_free`
#: with these never counts a joker-only place, and its table depends on the counts alone
#: (the relaxed tables of :func:`webcalc.efficiency.free_oracle`, webcalc/_pjunit_draws.c)
RELAXED_CAPS = (31,) * 34
# table rows are few distinct small tuples: one copy each
_SHARED: dict[tuple[Any, ...], tuple[Any, ...]] = {}


def _share(row: tuple[Any, ...]) -> tuple[Any, ...]:
    """One stored copy per distinct table row (keeps the cached tables small)."""
    return _SHARED.setdefault(row, row)


# -- free jokers ---------------------------------------------------------------------

def _plain_rows(unit: tuple[int, ...], caps: tuple[int, ...],
                honors: bool) -> tuple[tuple[int, int, int, int], ...]:
    """:func:`unit_free` without jokers (``q`` is always 0): the same DP, unrolled."""
    n = len(unit)
    states: dict[tuple[int, int, int, int], int] = {(0, 0, 0, 0): 0}
    for i in range(n):
        c = unit[i]
        cap = caps[i]
        s_max = (min(4, c + unit[i + 1] + unit[i + 2])
                 if not honors and i <= n - 3 else 0)
        new: dict[tuple[int, int, int, int], int] = {}
        get = new.get
        for (a, b, g, p), d in states.items():
            base = a + b
            top = min(s_max, 4 - g, cap - base)
            for s in range(top + 1):
                pl = base + s
                g1 = g + s
                # no triplet, no pair here
                d1 = d + pl - c if pl > c else d
                key = (b, s, g1, p)
                old = get(key)
                if old is None or d1 < old:
                    new[key] = d1
                if not c:
                    continue
                if not p and pl + 2 <= cap:                    # the pair here
                    d1 = d + pl + 2 - c if pl + 2 > c else d
                    key = (b, s, g1, 1)
                    old = get(key)
                    if old is None or d1 < old:
                        new[key] = d1
                if g1 < 4 and pl + 3 <= cap:                   # a triplet here
                    d1 = d + pl + 3 - c if pl + 3 > c else d
                    key = (b, s, g1 + 1, p)
                    old = get(key)
                    if old is None or d1 < old:
                        new[key] = d1
                    if not p and pl + 5 <= cap:               # a triplet and the pair
                        d1 = d + pl + 5 - c if pl + 5 > c else d
                        key = (b, s, g1 + 1, 1)
                        old = get(key)
                        if old is None or d1 < old:
                            new[key] = d1
        states = new
    best: dict[tuple[int, int], int] = {}
    for (_, _, g, p), d in states.items():
        if d < best.get((g, p), INF):
            best[(g, p)] = d
    return tuple(_share((g, p, 0, d)) for (g, p), d in best.items())


@lru_cache(maxsize=CACHE)
def unit_free(unit: tuple[int, ...], caps: tuple[int, ...], honors: bool,
              jokers: bool) -> tuple[tuple[int, int, int, int], ...]:
    """Per-unit table, jokers free: ``((g, p, q, D), …)`` Pareto-minimal in ``(q, D)`` for
    each ``(g, p)``. Only groups touching a held tile of the unit are built here; fresh
    groups are the caller's (3 or 2 places each). ``caps[k]``: real copies of kind k a
    complete hand may hold (live copies less the melds'); ``jokers``: jokers exist, so a
    place beyond the cap (``q``) is allowed."""
    if not jokers:
        if _pjunit is not None:
            return tuple(_share(row) for row in _pjunit.plain_unit(unit, caps, honors))
        return _plain_rows(unit, caps, honors)
    if _pjunit is not None:
        return tuple(_share(row) for row in _pjunit.free_unit(unit, caps, honors))
    n = len(unit)
    states: dict[tuple[int, int, int, int, int], int] = {(0, 0, 0, 0, 0): 0}
    for i in range(n):
        c = unit[i]
        cap = caps[i]
        seq_ok = not honors and i <= n - 3 and (c or unit[i + 1] or unit[i + 2])
        trips = (0, 1, 2) if (c and jokers) else ((0, 1) if c else (0,))
        new: dict[tuple[int, int, int, int, int], int] = {}
        get = new.get
        # each group here uses a held tile: at most as many sequences start at i as
        # there are held tiles at i..i+2 (the others would be fresh groups)
        s_max = min(4, c + unit[i + 1] + unit[i + 2]) if seq_ok else 0
        for (a, b, g, p, q), d in states.items():
            base = a + b
            pair_ok = c and not p
            for s in range(min(s_max, 4 - g) + 1):
                pl0 = base + s
                g1 = g + s
                for t in trips:
                    g2 = g1 + t
                    if g2 > 4:
                        break
                    places = pl0 + 3 * t
                    q2 = q + places - cap if places > cap else q
                    d2 = d + places - c if places > c else d
                    key = (b, s, g2, p, q2)
                    old = get(key)
                    if old is None or d2 < old:
                        new[key] = d2
                    if pair_ok:
                        places += 2
                        q2 = q + places - cap if places > cap else q
                        d2 = d + places - c if places > c else d
                        key = (b, s, g2, 1, q2)
                        old = get(key)
                        if old is None or d2 < old:
                            new[key] = d2
        states = new
    best: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for (_, _, g, p, q), d in states.items():
        best.setdefault((g, p), []).append((q, d))
    out = []
    for (g, p), lst in best.items():
        lst.sort()
        low = INF
        for q, d in lst:
            if d < low:
                out.append(_share((g, p, q, d)))
                low = d
    return tuple(out)


def _merge_free(acc: dict[Any, Any], table: Iterable[tuple[int, int, int, int]],
                groups: int) -> dict[Any, Any]:
    new: dict[tuple[int, int, int], int] = {}
    for (g, p, q), d in acc.items():
        for g2, p2, q2, d2 in table:
            g3 = g + g2
            if g3 > groups or p + p2 > 1:
                continue
            key = (g3, p + p2, q + q2)
            d3 = d + d2
            old = new.get(key)
            if old is None or d3 < old:
                new[key] = d3
    return new


def _finish_free(acc: dict[Any, Any], groups: int, jokers: int, joker_room: int) -> int | None:
    best = None
    for (g, p, q), d in acc.items():
        if q - jokers > joker_room:
            continue
        total = d + 3 * (groups - g) + 2 * (1 - p)
        cost = total - jokers if total > jokers else 0
        if best is None or cost < best:
            best = cost
    return best


def free_unit_states(states: dict[Any, Any], unit: Sequence[int], caps: Sequence[int], honors: bool,
                     any_jokers: bool, groups: int, jokers: int, joker_room: int, limit: int,
                     after: int = 0) -> dict[Any, Any]:
    """Fold one more unit into merged states ``{(g, p, q): D}`` (as :func:`_merge_free` of
    :func:`unit_free`'s table, the same transitions), kind by kind, keeping only the partial
    targets whose cost can still be at most ``limit``: a partial target is dropped when the
    places it already lacks, plus the places its open sequences, the groups and the pair
    still to come need beyond the held tiles left (this unit's later kinds and ``after``
    more in units not folded in yet), exceed the jokers and ``limit``, or when its
    joker-only places ``q`` exceed the wildcard tiles there are. Exact for every target
    within ``limit``; a hand's distance is within it iff :func:`_finish_free` of the result
    is. Nothing is cached: a bounded fold is cheap where a whole table is not."""
    if _pjunit is not None and type(states) is dict and jokers + joker_room < 64:
        try:
            folded: dict[Any, Any] = _pjunit.fold(states, unit, caps, honors, any_jokers,
                                                  groups, jokers, joker_room, limit, after)
            return folded
        except RuntimeError:          # already running in another thread: Python below
            pass
    budget = jokers + limit
    if limit < 0:
        return {}
    n = len(unit)
    rem = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        rem[i] = rem[i + 1] + unit[i]
    cur: dict[tuple[int, int, int, int, int], int] = {}
    have = rem[0] + after
    for (g, p, q), d in states.items():
        if q - jokers > joker_room:
            continue
        need = 3 * (groups - g) + 2 * (1 - p) - have
        if d + (need if need > 0 else 0) > budget:
            continue
        cur[(0, 0, g, p, q)] = d
    for i in range(n):
        if not cur:
            return {}
        c = unit[i]
        cap = caps[i]
        seq_ok = not honors and i <= n - 3 and (c or unit[i + 1] or unit[i + 2])
        s_max = min(4, c + unit[i + 1] + unit[i + 2]) if seq_ok else 0
        trips = (0, 1, 2) if (c and any_jokers) else ((0, 1) if c else (0,))
        left = rem[i + 1] + after             # held tiles after kind i
        qmax = jokers + joker_room
        new: dict[tuple[int, int, int, int, int], int] = {}
        get = new.get
        for (a, b, g, p, q), d in cur.items():
            base = a + b
            pair_ok = c and not p
            for s in range(min(s_max, groups - g) + 1):
                pl0 = base + s
                g1 = g + s
                open_ = b + 2 * s                   # places the open sequences still need
                for t in trips:
                    g2 = g1 + t
                    if g2 > groups:
                        break
                    places = pl0 + 3 * t
                    q2 = q + places - cap if places > cap else q
                    if q2 > qmax:
                        break
                    d2 = d + places - c if places > c else d
                    need = open_ + 3 * (groups - g2) + 2 * (1 - p) - left
                    if d2 + (need if need > 0 else 0) <= budget:
                        key = (b, s, g2, p, q2)
                        old = get(key)
                        if old is None or d2 < old:
                            new[key] = d2
                    if pair_ok:
                        places += 2
                        q2 = q + places - cap if places > cap else q
                        if q2 > qmax:
                            continue
                        d2 = d + places - c if places > c else d
                        need -= 2
                        if d2 + (need if need > 0 else 0) <= budget:
                            key = (b, s, g2, 1, q2)
                            old = get(key)
                            if old is None or d2 < old:
                                new[key] = d2
        cur = new
    out: dict[tuple[int, int, int], int] = {}
    for (_, _, g, p, q), d in cur.items():
        gpq = (g, p, q)
        if d < out.get(gpq, INF):
            out[gpq] = d
    return out


def free_unit_draws(states: dict[Any, Any], unit: Sequence[int], caps: Sequence[int], honors: bool,
                    any_jokers: bool, groups: int, jokers: int, joker_room: int, limit: int,
                    draws: Iterable[int]) -> set[int]:
    """The kinds ``i`` of ``draws`` (indexes into ``unit``) for which the hand — the merged
    ``states`` of the other units, and this unit with one more tile of kind ``i`` — is
    within ``limit``: :func:`free_unit_states` for every such unit in one fold, each
    partial target carrying the kind its extra tile went to (``-1``: not placed yet).
    Where the extra tile may still come, sequences are allowed one place more than the
    held tiles give (any sequence is a real target; only fewer would lose one)."""
    if _pjunit is not None and type(states) is dict and jokers + joker_room < 64:
        try:
            found: set[int] = _pjunit.fold_draws(states, unit, caps, honors, any_jokers,
                                                 groups, jokers, joker_room, limit, draws)
            return found
        except RuntimeError:          # already running in another thread: Python below
            pass
    if limit < 0:
        return set()
    budget = jokers + limit
    n = len(unit)
    rem = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        rem[i] = rem[i + 1] + unit[i]
    allowed = [False] * n
    for i in draws:
        allowed[i] = True
    if not any(allowed):
        return set()
    qmax = jokers + joker_room
    cur: dict[tuple[int, int, int, int, int, int], int] = {}
    for (g, p, q), d in states.items():
        if q > qmax:
            continue
        need = 3 * (groups - g) + 2 * (1 - p) - rem[0] - 1
        if d + (need if need > 0 else 0) > budget:
            continue
        cur[(0, 0, g, p, q, -1)] = d
    for i in range(n):
        if not cur:
            return set()
        c0 = unit[i]
        cap = caps[i]
        seqs = not honors and i <= n - 3
        ahead = unit[i + 1] + unit[i + 2] if seqs else 0
        later = rem[i + 1]
        new: dict[tuple[int, int, int, int, int, int], int] = {}
        get = new.get
        for (a, b, g, p, q, f), d in cur.items():
            base = a + b
            for extra in ((0, 1) if f < 0 and allowed[i] else (0,)):
                c = c0 + extra
                f2 = i if extra else f
                pending = f2 < 0                    # the extra tile may still come later
                s_max = min(4, c + ahead + pending) if seqs else 0
                trips = (0, 1, 2) if (c and any_jokers) else ((0, 1) if c else (0,))
                left = later + pending
                pair_ok = c and not p
                for s in range(min(s_max, groups - g) + 1):
                    pl0 = base + s
                    g1 = g + s
                    open_ = b + 2 * s
                    for t in trips:
                        g2 = g1 + t
                        if g2 > groups:
                            break
                        places = pl0 + 3 * t
                        q2 = q + places - cap if places > cap else q
                        if q2 > qmax:
                            break
                        d2 = d + places - c if places > c else d
                        need = open_ + 3 * (groups - g2) + 2 * (1 - p) - left
                        if d2 + (need if need > 0 else 0) <= budget:
                            key = (b, s, g2, p, q2, f2)
                            old = get(key)
                            if old is None or d2 < old:
                                new[key] = d2
                        if pair_ok:
                            places += 2
                            q2 = q + places - cap if places > cap else q
                            if q2 > qmax:
                                continue
                            d2 = d + places - c if places > c else d
                            need -= 2
                            if d2 + (need if need > 0 else 0) <= budget:
                                key = (b, s, g2, 1, q2, f2)
                                old = get(key)
                                if old is None or d2 < old:
                                    new[key] = d2
        cur = new
    out = set()
    for (_, _, g, p, _q, f), d in cur.items():
        if f < 0 or f in out:
            continue
        total = d + 3 * (groups - g) + 2 * (1 - p)
        if total - jokers <= limit:
            out.add(f)
    return out


# -- the other shapes ---------------------------------------------------------------------

def seven_pairs_plain(counts: Sequence[int], caps: Sequence[int]) -> int | None:
    """Tiles to add for 七对 with every tile as itself (C-5): seven pair
    slots, a kind giving a second one when four of it fit (``caps``: copies of each kind a
    complete hand may hold); the cheapest slots first. ``None`` when seven do not fit."""
    slots = []
    for k in range(34):
        c, cap = counts[k], caps[k]
        if cap < 2:
            continue
        slots.append(2 - c if c < 2 else 0)
        if cap >= 4:
            slots.append(4 - c if c > 2 else 2)
    if len(slots) < 7:
        return None
    slots.sort()
    return sum(slots[:7])


def free_standard(real: Sequence[int], caps: Sequence[int], jokers: int, joker_room: int,
                  melds: int, kinds: int = 34) -> int | None:
    """Fewest tiles to add for the standard shape with free jokers, or ``None``."""
    groups = 4 - melds
    if groups < 0:
        return None
    any_jokers = jokers + joker_room > 0
    if _pjunit is not None:
        # the same merge and finish compiled (webcalc/_pjunit_free.c free_merge)
        merged: int | None = _pjunit.free_merge(
            [unit_free(tuple(real[a:b]), tuple(caps[a:b]), honors, any_jokers)
             for a, b, honors in UNITS if a < kinds], groups, jokers, joker_room)
        return merged
    acc: dict[tuple[int, int, int], int] = {(0, 0, 0): 0}
    for a, b, honors in UNITS:
        if a >= kinds:
            continue
        acc = _merge_free(acc, unit_free(tuple(real[a:b]), tuple(caps[a:b]), honors,
                                         any_jokers), groups)
    return _finish_free(acc, groups, jokers, joker_room)


# -- what a hand may still hold ---------------------------------------------------------

def hand_caps(sit: Situation, kinds_in_play: int = 34) -> tuple[list[int], list[int], int]:
    """``(caps_face, caps_real, joker_room)`` of a situation: per kind the copies a complete
    hand may hold concealed (4, 3 for the indicator's kind (C-7), less the melds' copies;
    0 for kinds out of play, C-1), the same for real tiles (0 for wildcard kinds: their
    tiles are jokers), and how many wildcard tiles are still there to draw."""
    full = _FULL_FACE.get(kinds_in_play)
    face = list(full) if full is not None else [4 if k < kinds_in_play else 0
                                                for k in range(34)]
    indicator, melds = sit.indicator, sit.hand.melds
    if indicator is not None or melds:
        short = False               # a cap below 0 (only a meld or a kind out of play)
        if indicator is not None:
            face[indicator] -= 1
            short = face[indicator] < 0
        for m in melds:
            for t in m.tiles:
                face[t] -= 1
            short = True
        if short and min(face) < 0:
            face = [f if f > 0 else 0 for f in face]
    real = list(face)
    room = 0
    if sit.wildcards:
        counts = sit.counts
        for w in sit.wildcards:
            real[w] = 0
            left = face[w] - counts[w]
            if left > 0:
                room += left
    return face, real, room


#: :func:`hand_caps`' caps before the indicator and the melds, for the rooms' kinds in play
_FULL_FACE = {34: (4,) * 34, 27: (4,) * 27 + (0,) * 7}


def four_wildcards_missing(sit: Situation, caps_face: Sequence[int]) -> int | None:
    """四混, a shape the variants that play it opt into (``Variant.four_wildcards``): tiles
    to add so the concealed part holds the four tiles of one wildcard kind; ``None`` when no
    kind can (a meld holds one, or too few concealed)."""
    concealed = 14 - 3 * len(sit.hand.melds)
    if concealed < 4:
        return None
    best = None
    for w in sit.wildcards:
        if caps_face[w] < 4:
            continue
        d = max(4 - sit.counts[w], 14 - sit.hand.tile_count)
        if best is None or d < best:
            best = d
    return best

