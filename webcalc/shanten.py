"""Exact shanten (向听, RULES C-12) from per-unit tables, in every variant.

**What is computed.** A hand H (13 or 14 tiles, melds fixed) is *n* exchanges from ready
when some *n* exchanges (draw a live tile, discard one the variant lets go) leave a ready
13-tile hand and no *n − 1* do. For a target complete hand W (the same melds, a concealed
part the variant accepts, at most the live copies of each kind) write ``d(W) = |W − H|``,
the tiles W has that H lacks. Then

    shanten(H) = min over W of d(W) − 1            (−1: H itself is complete)

because one exchange lowers ``d`` by at most one, and the ``d − 1`` exchanges that throw
the tiles of ``H − W`` and draw those of ``W − H`` leave W less one tile, ready on a live
kind (W holds at most the live copies). The only tiles H must keep are those a variant
never lets go: 盘锦's wildcards (PJ-2), so there W must hold every wildcard tile of H. A
``discard`` win in 盘锦 cannot be on a wildcard (PJ-2, C-9): the tile W lacks last must be
real, so a W whose missing tiles are all wildcards costs one exchange more. When no W
exists at all (盘锦: every concealed tile fixed by melds that can never meet PJ-4..PJ-7,
too many wildcards to place, …) the hand can never become ready: ``None``.

**How.** The standard shape splits into four *units* (three suits, the honors) that only
meet through the group count, the pair, the wildcards (*jokers*) and — in 盘锦 — the
whole-hand flags (suit present, 幺九, 刻, 顺). For each unit pattern a table gives, per
``(groups, pair, …)``, the fewest tiles to add; the hand combines four tables by a small
DP. Tables are filled once per distinct pattern and kept in bounded LRU caches.

* Free jokers (三门峡, 郑州; 晋城 has none): a joker fills any place, so a unit needs
  only ``D`` — the places its held real tiles do not fill — and ``q``, the places that
  can only be a joker because the kind's live copies are used up (C-8: a fifth copy).
  Groups made only of drawn tiles or jokers ("fresh" groups) are counted at the hand
  level: 3 for a meld, 2 for the pair (a hand touches at most 18 of the 27+ kinds, so
  untouched kinds always have room). Cost ``max(0, ΣD − J)``.
* 盘锦 (PJ-2: jokers only in sequences and the pair; PJ-4..PJ-7 flags): a unit table keeps,
  per ``(groups, pair, jokers placed x, flags)``, the fewest real tiles drawn ``r``. Cost
  ``Σr + (X − J)`` with ``X ≥ J`` (every held joker placed).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

# The per-unit searches compiled (webcalc/_pjunit.c; None: not built): the same states,
# transitions, bounds and pruning as the Python functions below, which stay the reference
# (tests/test_pjunit.py) and run when it was not built — and for a call the module refuses
# (RuntimeError) because another thread is inside the same function (its tables are
# shared; only a thread switch in the middle can do that).
from .compiled import pjunit as _pjunit

INF = 99
UNITS = ((0, 9, False), (9, 18, False), (18, 27, False), (27, 34, True))
YAOJIU = frozenset((0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33))
CACHE = 1 << 13                     # unit patterns kept per table (bounded)
# table rows are few distinct small tuples: one copy each
_SHARED: dict[tuple[Any, ...], tuple[Any, ...]] = {}


def _share(row: tuple[Any, ...]) -> tuple[Any, ...]:
    """One stored copy per distinct table row (keeps the cached tables small)."""
    return _SHARED.setdefault(row, row)


# 盘锦 unit flags
PRES, YJ, TRIP, SEQ, RD = 1, 2, 4, 8, 16


def _yj_flags(start: int, n: int) -> tuple[int, ...]:
    return tuple(1 if start + i in YAOJIU else 0 for i in range(n))


# -- free jokers (三门峡, 郑州, 晋城) -----------------------------------------------------

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
            return _pjunit.fold(states, unit, caps, honors, any_jokers, groups, jokers,
                                joker_room, limit, after)
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
            return _pjunit.fold_draws(states, unit, caps, honors, any_jokers, groups, jokers,
                                      joker_room, limit, draws)
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


# -- 盘锦: jokers only in sequences and the pair, with the whole-hand flags --------------

def _joker_room(beside: int, held_left: int) -> int:
    """The most jokers a kind's places may take in the 盘锦 searches: ``beside`` those the
    held real tiles of the kind leave open, and more — each displacing a held real tile of
    the kind, thrown away — only up to ``held_left``, the held jokers not yet placed.

    A joker in place of a held tile of its own kind is needed under PJ-2 (docs/RULES.md:
    a held wildcard is never discarded and sits only in a sequence or the pair): with
    78m 33p 2s 44s + two pongs and 2s the wildcard, the nearest targets after a 3p draw
    are 789m 333p and the pair 2s 4s, one 4s thrown (C-12: one exchange from ready). It
    is never needed for a drawn joker: a target that places more jokers than the hand
    holds and displaces a held tile is one tile farther than the same target keeping
    that tile (C-12's distance), so no nearest target does — which keeps the searches of
    hands without wildcards as small as before."""
    return beside if beside >= held_left else held_left


@lru_cache(maxsize=CACHE // 8)
def unit_panjin(unit: tuple[int, ...], caps: tuple[int, ...], start: int, honors: bool,
                max_x: int, track_rd: bool, limit: int = INF, jokers: int = INF,
                groups: int = 4, others: int = INF,
                rest: tuple[Any, ...] | None = None) -> tuple[tuple[int, int, int, int, int], ...]:
    """Per-unit table under PJ-2: ``((g, p, x, flags, r), …)`` — ``x`` jokers placed (in
    sequences or the pair), ``r`` real tiles drawn, ``flags`` of :data:`PRES` (a real tile
    of the unit is used), :data:`YJ` (a real 1/9/honor used), :data:`TRIP` (a triplet of
    real tiles, or a real honor pair as the eyes), :data:`SEQ` (a sequence, jokers only
    included), and with ``track_rd`` :data:`RD` (a real tile is drawn). Every group is
    built here, fresh ones included, since they can bring flags. Rows drawing more than
    ``limit`` real tiles are left out (a bounded search builds far fewer), and with
    ``jokers`` (held), ``groups`` (the hand's concealed groups) and ``others`` (real tiles
    held outside the unit) so is a state whose :func:`_bound` exceeds ``limit`` (with
    ``rest``, :func:`panjin_rest_places` of the other units, a stronger bound)."""
    n = len(unit)
    if _pjunit is not None and (rest is not None or limit >= INF):
        try:
            rows = _pjunit.search(unit, caps, _yj_flags(start, n), start, honors, max_x,
                                  min(limit, INF), min(jokers, INF), 0, groups,
                                  None if rest is None else _flat_rest(rest), (), track_rd,
                                  False)[0]
            return tuple(_share(row[:5]) for row in rows)
        except RuntimeError:          # already running in another thread: Python below
            pass
    held_after = [sum(unit[i + 1:]) for i in range(n)]
    bound = _suffix_bound(rest) if rest is not None else None
    states: dict[tuple[Any, ...], int] = {(0, 0, 0, 0, 0, 0): 0}       # (a, b, g, p, x, fl) -> r
    for i in range(n):
        k_i = held_after[i] + others + jokers           # free fillers still to come
        h_i = held_after[i]
        c = unit[i]
        cap = caps[i]
        yj = (start + i) in YAOJIU
        seq_ok = not honors and i <= n - 3
        # sequences starting here: those using held tiles at i..i+2, plus one made of
        # draws and jokers only (more such ones are the same at another start)
        s_max = min(4, c + unit[i + 1] + unit[i + 2] + 1) if seq_ok else 0
        real_bits = PRES | YJ if yj else PRES
        trips = (0, 1) if cap >= 3 else (0,)
        new: dict[tuple[Any, ...], int] = {}
        get = new.get
        for (a, b, g, p, x, fl), r in states.items():
            room = max_x - x
            open_ = a + b
            if open_ > cap + room:
                continue
            for s in range(min(s_max, 4 - g) + 1):
                f_s = fl | SEQ if s else fl
                for t in trips:
                    g2 = g + s + t
                    if g2 > 4 or g2 > groups:
                        break
                    f_t = f_s | TRIP if t else f_s
                    for pr in ((0, 1) if not p else (0,)):
                        free = open_ + s + 2 * pr          # places a joker may take
                        places = free + 3 * t
                        lo = places - cap if places > cap else 0
                        # a joker displaces a held real tile of its own kind only
                        # while every joker placed is a held one (_joker_room)
                        held = c if c < places else places
                        hi = min(free, room, _joker_room(places - held, jokers - x))
                        pend = 3 * (groups - g2) + 2 * (1 - p - pr) + b + 2 * s - k_i
                        if bound is not None:
                            pend = bound[groups - g2][1 - p - pr][b + 2 * s - h_i + 14] - jokers
                        for y in range(lo, hi + 1):
                            real = places - y
                            d = real - c if real > c else 0
                            r2 = r + d
                            if r2 > limit:
                                continue
                            x2 = x + y
                            if r2 + max(x2 - jokers, pend + x2) > limit:
                                continue
                            f = f_t | real_bits if real else f_t
                            if honors and pr and not y:
                                f |= TRIP
                            if d and track_rd:
                                f |= RD
                            key = (b, s, g2, p + pr, x + y, f)
                            old = get(key)
                            if old is None or r2 < old:
                                new[key] = r2
        states = _prune_flags(new) if len(new) > 24 else new
    return tuple(_share((g, p, x, fl, r)) for (_, _, g, p, x, fl), r in states.items())


def _prune_flags(states: dict[tuple[Any, ...], int]) -> dict[tuple[Any, ...], int]:
    """Drop a state another beats: same key but for flags, a superset of its YJ/TRIP/SEQ/RD
    flags with the same PRES bit, and no more draws (PRES is not better or worse: PJ-4
    may want a suit absent)."""
    groups: dict[tuple[Any, ...], list[tuple[int, int]]] = {}
    for key, r in states.items():
        groups.setdefault(key[:-1], []).append((key[-1], r))
    out = {}
    for head, lst in groups.items():
        if len(lst) == 1:
            out[head + (lst[0][0],)] = lst[0][1]
            continue
        for fl, r in lst:
            if not any(f2 != fl and (f2 & PRES) == (fl & PRES) and (f2 | fl) == f2 and r2 <= r
                       for f2, r2 in lst):
                out[head + (fl,)] = r
    return out


def panjin_standard(real: Sequence[int], caps: Sequence[int], jokers: int, joker_room: int,
                    melds: int, meld_flags: tuple[int, bool, bool, bool], allowed_suits,
                    piaohu: bool, need_real_draw: bool, min_jokers: int,
                    limit: int = INF) -> int | None:
    """Fewest tiles to add (``d``) for a 盘锦 standard win (PJ-2, PJ-4..PJ-7), or ``None``
    (also when it exceeds ``limit``: partial targets costing more are dropped early).

    ``meld_flags`` = (suit mask, 幺九, 刻, 顺) the declared melds already give;
    ``min_jokers``: how many held jokers the target must place (all of them, PJ-2, or one
    fewer when the all-wildcard hand may discard one)."""
    groups = 4 - melds
    max_x = jokers + joker_room
    suits0, yj0, trip0, seq0 = meld_flags
    # the flags still wanted: what the melds give is met already; with 飘胡 a sequence is
    # not needed, and a hand of four melds has no concealed sequence to forbid
    want = (0 if yj0 else YJ) | (0 if trip0 else TRIP) | (RD if need_real_draw else 0)
    if not piaohu and not seq0 and groups:
        want |= SEQ
    if groups == 0 and seq0:
        return None                                                     # 手把一: 飘胡 only
    if groups == 0 and not piaohu:
        return None                                                     # PJ-7
    base_suits = bin(suits0).count("1")
    acc: dict[tuple[Any, ...], int] = {(0, 0, 0, base_suits, 0): 0}  # (g, p, x, suits, flags) -> r
    held = [sum(real[a:b]) for a, b, _ in UNITS]
    total = sum(held)
    bounded = limit < INF
    for ui, (a, b, honors) in enumerate(UNITS):
        table = unit_panjin(tuple(real[a:b]), tuple(caps[a:b]), a, honors, max_x,
                            need_real_draw, limit, *((jokers, groups, total - held[ui],
                                                      panjin_rest_places(real, caps, ui,
                                                                         max_x > 0))
                                                     if bounded else ()))
        counts_suit = not honors and not suits0 >> ui & 1
        k_u = sum(held[ui + 1:]) + jokers            # free fillers still to come (_bound)
        new: dict[tuple[Any, ...], int] = {}
        for (g, p, x, n, f), r in acc.items():
            for g2, p2, x2, fl, r2 in table:
                g3 = g + g2
                x3 = x + x2
                if g3 > groups or p + p2 > 1 or x3 > max_x:
                    continue
                key = (g3, p + p2, x3, n + 1 if counts_suit and fl & PRES else n,
                       f | (fl & want))
                r3 = r + r2
                if r3 + max(x3 - jokers, 3 * (groups - g3) + 2 * (1 - p - p2) + x3 - k_u,
                            0) > limit:
                    continue
                old = new.get(key)
                if old is None or r3 < old:
                    new[key] = r3
        acc = _prune_flags(new)
    best = None
    for (g, p, x, n, f), r in acc.items():
        if g != groups or p != 1 or x < min_jokers or n not in allowed_suits:
            continue                                                    # PJ-4
        if f & want & (YJ | TRIP | SEQ) != want & (YJ | TRIP | SEQ):
            continue                                                    # PJ-5..PJ-7
        cost = r + (x - jokers if x > jokers else 0)
        if need_real_draw and not f & RD:
            cost += 1
        if best is None or cost < best:
            best = cost
    return best if best is None or best <= limit else None


# -- the other shapes ---------------------------------------------------------------------

def seven_pairs_plain(counts: Sequence[int], caps: Sequence[int]) -> int | None:
    """Tiles to add for 七对 with every tile as itself (C-5, SMX-3, ZZ-3, JC-2): seven pair
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


def seven_pairs_panjin(real: Sequence[int], caps: Sequence[int], jokers: int, joker_room: int,
                       allowed_suits, need_real_draw: bool, min_jokers: int,
                       limit: int = INF) -> int | None:
    """Tiles to add for 盘锦 七对 (PJ-8: jokers stand in, PJ-4 and PJ-5 still apply, every
    held joker kept), or ``None``. Held kinds are taken one by one; a kind not held matters
    only by its class (suit, 幺九), so one untouched kind per class stands for all, and the
    remaining pairs are "plain" ones — two jokers, or two drawn tiles of an untouched kind
    whose suit is already counted — that change no flag."""
    max_x = jokers + joker_room
    kinds = [k for k in range(34) if real[k]]
    classes: dict[tuple[int, bool], int] = {}
    for k in range(34):
        if not real[k] and caps[k] >= 2:
            classes.setdefault((k // 9 if k < 27 else 3, k in YAOJIU), k)
    kinds += sorted(classes.values())
    # (pairs, x, suit mask, yj, rd) -> r
    acc: dict[tuple[Any, ...], int] = {(0, 0, 0, False, False): 0}
    for k in kinds:
        c, cap = real[k], caps[k]
        suit_bit = 1 << (k // 9) if k < 27 else 0
        yj = k in YAOJIU
        opts = []                     # (pairs, jokers, reals drawn, real used)
        for q in (1, 2):
            places = 2 * q
            for y in range(0, places + 1):
                rl = places - y
                if rl > cap or (not c and y == places):
                    continue          # (a pair of jokers is a plain pair, below)
                opts.append((q, y, max(0, rl - c), rl > 0))
        new = dict(acc)
        for (pairs, x, m, j, rd), r in acc.items():
            for q, y, d, used in opts:
                if pairs + q > 7 or x + y > max_x:
                    continue
                key = (pairs + q, x + y, m | (suit_bit if used else 0), j or (used and yj),
                       rd or (d > 0 and need_real_draw))
                r2 = r + d
                if r2 + (x + y - jokers if x + y > jokers else 0) > limit:
                    continue
                old = new.get(key)
                if old is None or r2 < old:
                    new[key] = r2
        acc = new
    best = None
    for (pairs, x, m, j, rd), r in acc.items():
        if not j or bin(m).count("1") not in allowed_suits:
            continue
        plain = 7 - pairs                 # each: 2 jokers, or 2 drawn tiles of a counted suit
        for jj in range(plain + 1):       # pairs of jokers among them
            xx = x + 2 * jj
            drawn = 2 * (plain - jj)
            if xx > max_x or xx < min_jokers:
                continue
            if drawn and not m and not any(caps[k] >= 2 and not real[k] for k in range(27, 34)):
                continue
            cost = r + drawn + (xx - jokers if xx > jokers else 0)
            if need_real_draw and not (rd or drawn):
                cost += 1
            if best is None or cost < best:
                best = cost
    return best if best is None or best <= limit else None


def seven_pairs_panjin_drawn(real: Sequence[int], caps: Sequence[int], jokers: int,
                             joker_room: int, allowed_suits, need_real_draw: bool,
                             min_jokers: int, limit: int = INF) -> tuple[int, int, bool] | None:
    """:func:`seven_pairs_panjin` that also says which draws lower the distance, as
    :func:`panjin_standard_drawn` does: ``(d, kinds bit set, a wildcard draw lowers it)``
    (:func:`_drawn_best`), or ``None``. The same search, each state keeping the kinds its
    cheapest partial targets draw. An untouched kind standing for its class draws, when it
    draws, every untouched kind of that class (a nearest target may take any of them
    instead, or split four of it into two pairs); a plain pair of drawn tiles may be of
    any untouched kind of a counted suit or an honor (the stand-in of its class finds it
    too). A kind takes at most one joker here: a pair of two jokers within its places is
    a plain pair (the same target, the same cost). With ``limit``, a state is dropped when
    even the places left, less the real tiles still to come and the unplaced held jokers,
    drawn, exceed it."""
    max_x = jokers + joker_room
    kinds = [k for k in range(34) if real[k]]
    classes: dict[tuple[int, bool], int] = {}
    class_bits: dict[tuple[int, bool], int] = {}
    plain_bits = [0, 0, 0, 0]                     # untouched kinds a pair fits, per suit
    for k in range(34):
        if not real[k] and caps[k] >= 2:
            cls = (k // 9 if k < 27 else 3, k in YAOJIU)
            classes.setdefault(cls, k)
            class_bits[cls] = class_bits.get(cls, 0) | 1 << k
            plain_bits[cls[0]] |= 1 << k
    bits_of = {k: class_bits[cls] for cls, k in classes.items()}
    kinds += sorted(classes.values())
    later = sum(real)                             # real tiles of the kinds still to come
    # (pairs, x, suit mask, yj) -> (r, drawn)
    acc: dict[tuple[Any, ...], tuple[int, int]] = {(0, 0, 0, False): (0, 0)}
    for k in kinds:
        c, cap = real[k], caps[k]
        later -= c
        suit_bit = 1 << (k // 9) if k < 27 else 0
        yj = k in YAOJIU
        bits = bits_of.get(k, 1 << k)
        opts = []                     # (pairs, jokers, reals drawn): a real tile is used
        for q in (1, 2):
            for y in (0, 1):
                rl = 2 * q - y
                if rl <= cap:
                    opts.append((q, y, rl - c if rl > c else 0))
        new = dict(acc)
        for (pairs, x, m, j), (r, mask) in acc.items():
            for q, y, d in opts:
                x2 = x + y
                if pairs + q > 7 or x2 > max_x:
                    continue
                key = (pairs + q, x2, m | suit_bit, j or yj)
                r2 = r + d
                # the cost so far, and the places left that neither the real tiles still
                # to come nor the held jokers not yet placed can fill (each a draw)
                left = 14 - 2 * (pairs + q) - later - (jokers - x2 if jokers > x2 else 0)
                if r2 + (x2 - jokers if x2 > jokers else 0) + (left if left > 0 else 0) > limit:
                    continue
                m2 = mask | bits if d else mask
                old = new.get(key)
                if old is None or r2 < old[0]:
                    new[key] = (r2, m2)
                elif r2 == old[0] and m2 | old[1] != old[1]:
                    new[key] = (r2, m2 | old[1])
        acc = new
    honors_free = any(caps[k] >= 2 and not real[k] for k in range(27, 34))
    targets = []
    for (pairs, x, m, j), (r, mask) in acc.items():
        if not j or bin(m).count("1") not in allowed_suits:
            continue
        plain = 7 - pairs                 # each: 2 jokers, or 2 drawn tiles of a counted suit
        free = plain_bits[3] | (plain_bits[0] if m & 1 else 0) | (
            plain_bits[1] if m & 2 else 0) | (plain_bits[2] if m & 4 else 0)
        for jj in range(plain + 1):       # pairs of jokers among them
            xx = x + 2 * jj
            drawn = 2 * (plain - jj)
            if xx > max_x or xx < min_jokers:
                continue
            if drawn and not m and not honors_free:
                continue
            targets.append((r + drawn, xx, mask | free if drawn else mask))
    return _drawn_best(targets, jokers, need_real_draw, limit)


def free_standard(real: Sequence[int], caps: Sequence[int], jokers: int, joker_room: int,
                  melds: int, kinds: int = 34) -> int | None:
    """Fewest tiles to add for the standard shape with free jokers, or ``None``."""
    groups = 4 - melds
    if groups < 0:
        return None
    any_jokers = jokers + joker_room > 0
    acc: dict[tuple[int, int, int], int] = {(0, 0, 0): 0}
    for a, b, honors in UNITS:
        if a >= kinds:
            continue
        acc = _merge_free(acc, unit_free(tuple(real[a:b]), tuple(caps[a:b]), honors,
                                         any_jokers), groups)
    return _finish_free(acc, groups, jokers, joker_room)


# -- what a hand may still hold ---------------------------------------------------------

def hand_caps(sit, kinds_in_play: int = 34) -> tuple[list[int], list[int], int]:
    """``(caps_face, caps_real, joker_room)`` of a situation: per kind the copies a complete
    hand may hold concealed (4, 3 for the indicator's kind (C-7), less the melds' copies;
    0 for kinds out of play, C-1), the same for real tiles (0 for wildcard kinds: their
    tiles are jokers), and how many wildcard tiles are still there to draw."""
    face = [4 if k < kinds_in_play else 0 for k in range(34)]
    if sit.indicator is not None:
        face[sit.indicator] -= 1
    for m in sit.hand.melds:
        for t in m.tiles:
            face[t] -= 1
    face = [f if f > 0 else 0 for f in face]
    real = list(face)
    room = 0
    for w in sit.wildcards:
        real[w] = 0
        room += max(0, face[w] - sit.counts[w])
    return face, real, room


def four_wildcards_missing(sit, caps_face: Sequence[int]) -> int | None:
    """四混 (SMX-3, ZZ-3): tiles to add so the concealed part holds the four tiles of one
    wildcard kind; ``None`` when no kind can (a meld holds one, or too few concealed)."""
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


def panjin_meld_flags(sit) -> tuple[int, bool, bool, bool]:
    """What 盘锦's declared melds already give: (suit mask, 幺九, 刻, 顺) (PJ-4..PJ-7)."""
    wild = set(sit.wildcards)
    suits = 0
    yj = trip = seq = False
    for m in sit.hand.melds:
        reals = [t for t in m.tiles if t not in wild]
        for t in reals:
            if t < 27:
                suits |= 1 << (t // 9)
            if t in YAOJIU:
                yj = True
        if m.kind == "chow":
            seq = True
        elif len(reals) == len(m.tiles):
            trip = True
    return suits, yj, trip, seq


def panjin_count_lower(sit, allowed_suits) -> int:
    """PJ-4/PJ-5 from the counts: a standard target is at least this far — each suit PJ-4
    still wants, or a first 幺九 (PJ-5), is a real tile to draw."""
    suits, yj, _, _ = panjin_meld_flags(sit)
    real = sit.real_counts
    mask = suits | (1 if any(real[0:9]) else 0) | (2 if any(real[9:18]) else 0) | (
        4 if any(real[18:27]) else 0)
    have = bin(mask).count("1")
    need = min(max(0, a - have) for a in allowed_suits)
    if not yj and not any(real[k] for k in YAOJIU):
        need = max(need, 1)
    return need


def panjin_missing(sit, allowed_suits, limit: int = INF,
                   seven_pairs: bool = True) -> dict[str, int]:
    """盘锦's exact distances: standard (PJ-2, PJ-4..PJ-7) and 七对 with its option (PJ-8;
    not searched when ``seven_pairs`` is false). With ``limit``, shapes farther than it are
    left out (a cheaper search)."""
    face, real_caps, room = hand_caps(sit)
    jokers = len(sit.jokers)
    concealed = sit.hand.concealed
    # PJ-2: wildcard tiles are never discarded, except one from a hand of nothing else
    min_jokers = jokers - 1 if (jokers and jokers == len(concealed)
                                and sit.hand.tile_count == 14) else jokers
    need_real = sit.win_by == "discard"          # C-9: no discard win on a wildcard
    suits, yj, trip, seq = panjin_meld_flags(sit)
    out = {}
    # with a limit, a shape is searched only when a looser count (jokers anywhere, no
    # PJ-4..PJ-7: never more than the true one) does not already exceed it
    lower = free_standard(sit.real_counts, real_caps, jokers, room, len(sit.hand.melds))
    if lower is not None:
        lower = max(lower, panjin_count_lower(sit, allowed_suits))
    if lower is not None and lower <= limit:
        args = (sit.real_counts, real_caps, jokers, room, len(sit.hand.melds),
                (suits, yj, trip, seq), allowed_suits, sit.options.piaohu, need_real,
                min_jokers)
        # bounded searches from the lower count up (small tables: a bound prunes states
        # that cannot end within it), up to the farthest any target can be: its concealed
        # tiles, and one for the discard-win rule
        top = 15 - 3 * len(sit.hand.melds)
        d = None
        for bound in range(lower, min(limit, top) + 1):
            d = panjin_standard(*args, bound)
            if d is not None:
                break
        if d is not None:
            out["standard"] = d
    if seven_pairs and sit.options.seven_pairs and not sit.hand.melds:
        lower = INF if limit >= INF else seven_pairs_plain(sit.real_counts, [4] * 34)
        if lower is None or lower - jokers <= limit:
            d = seven_pairs_panjin(sit.real_counts, real_caps, jokers, room, allowed_suits,
                                   need_real, min_jokers, limit)
            if d is not None:
                out["seven_pairs"] = d
    return out


# -- 盘锦 useful draws in one search (hand efficiency) ----------------------------------------
# A draw k lowers the distance of H exactly when some nearest complete hand W holds more k
# than H (|W − (H + k)| = |W − H| − 1, and no W gets nearer than that). So the same search,
# keeping for each state the union of the kinds drawn by its cheapest partial targets, gives
# every useful draw at once.

@lru_cache(maxsize=CACHE // 8)
def unit_panjin_drawn(unit: tuple[int, ...], caps: tuple[int, ...], start: int, honors: bool,
                      max_x: int, limit: int, jokers: int = INF, groups: int = 4,
                      others: int = INF,
                      rest: tuple[Any, ...] | None = None) -> tuple[tuple[int, int, int, int, int, int], ...]:
    """:func:`unit_panjin` rows ``(g, p, x, flags, r, drawn)``: ``drawn`` is the bit set of
    the kinds some cheapest way to reach the row draws. With ``jokers`` (the jokers held),
    a row whose own cost ``r + max(0, x − jokers)`` exceeds ``limit`` is left out too: the
    hand's cost is never below one unit's. With ``groups`` (the hand's concealed groups)
    and ``others`` (the real tiles the hand holds outside the unit), a state is left out
    when even :func:`_bound` of the hand's cost exceeds ``limit`` (with ``rest``,
    :func:`panjin_rest_places` of the other units, a stronger bound)."""
    n = len(unit)
    if jokers + limit < max_x:
        max_x = jokers + limit
    if _pjunit is not None and rest is not None:
        try:
            return tuple(_pjunit.search(unit, caps, _yj_flags(start, n), start, honors, max_x,
                                        limit, jokers, jokers, groups, _flat_rest(rest), (),
                                        False, True)[0])
        except RuntimeError:          # already running in another thread: Python below
            pass
    held_after = [sum(unit[i + 1:]) for i in range(n)]
    bound = _suffix_bound(rest) if rest is not None else None
    states: dict[tuple[Any, ...], tuple[int, int]] = {(0, 0, 0, 0, 0, 0): (0, 0)}
    for i in range(n):
        # the places still open after this kind, less what may fill them for free (the
        # real tiles held further on and the unplaced jokers): see _bound
        k_i = held_after[i] + others + jokers
        h_i = held_after[i]
        c = unit[i]
        cap = caps[i]
        yj = (start + i) in YAOJIU
        bit = 1 << (start + i)
        seq_ok = not honors and i <= n - 3
        s_max = min(4, c + unit[i + 1] + unit[i + 2] + 1) if seq_ok else 0
        real_bits = PRES | YJ if yj else PRES
        trips = (0, 1) if cap >= 3 else (0,)
        new: dict[tuple[Any, ...], tuple[int, int]] = {}
        for (a, b, g, p, x, fl), (r, mask) in states.items():
            room = max_x - x
            open_ = a + b
            if open_ > cap + room:
                continue
            for s in range(min(s_max, 4 - g) + 1):
                f_s = fl | SEQ if s else fl
                for t in trips:
                    g2 = g + s + t
                    if g2 > 4:
                        break
                    if g2 > groups:
                        break                                   # more than the hand needs
                    f_t = f_s | TRIP if t else f_s
                    for pr in ((0, 1) if not p else (0,)):
                        free = open_ + s + 2 * pr
                        places = free + 3 * t
                        lo = places - cap if places > cap else 0
                        held = c if c < places else places
                        hi = min(free, room, _joker_room(places - held, jokers - x))
                        pend = 3 * (groups - g2) + 2 * (1 - p - pr) + b + 2 * s - k_i
                        if bound is not None:
                            pend = bound[groups - g2][1 - p - pr][b + 2 * s - h_i + 14] - jokers
                            # every held joker must find a place (PJ-2)
                            low = jokers - x - (3 * (groups - g2) + 2 * (1 - p - pr) + b
                                                + 2 * s)
                            if low > lo:
                                lo = low
                        for y in range(lo, hi + 1):
                            real = places - y
                            d = real - c if real > c else 0
                            r2 = r + d
                            x2 = x + y
                            if r2 + max(x2 - jokers, pend + x2, 0) > limit:
                                continue
                            f = f_t | real_bits if real else f_t
                            if honors and pr and not y:
                                f |= TRIP
                            key = (b, s, g2, p + pr, x2, f)
                            m2 = mask | bit if d else mask
                            old = new.get(key)
                            if old is None or r2 < old[0]:
                                new[key] = (r2, m2)
                            elif r2 == old[0] and m2 | old[1] != old[1]:
                                new[key] = (r2, m2 | old[1])
        states = _prune_drawn(new) if len(new) > 48 or i == n - 1 else new
    return tuple((g, p, x, fl, r, m) for (_, _, g, p, x, fl), (r, m) in states.items())


def _bound(r: int, x: int, pending: int, free_reals: int, jokers: int) -> int:
    """A lower bound of the cost ``Σr + max(0, X − jokers)`` of every complete hand that
    extends a partial target (the 盘锦 searches drop a state whose bound exceeds their
    limit): ``r`` real tiles drawn and ``x`` jokers placed so far, ``pending`` places still
    to fill (groups and pair not begun, the open places of sequences begun), and
    ``free_reals`` real tiles the hand holds that the partial target has not yet looked at.
    Each pending place takes a held real tile, an unplaced held joker (``jokers − x``) or a
    drawn tile (real, or a joker beyond the held ones): so the cost is at least
    ``r + max(0, x − jokers, pending − free_reals − jokers + x)``; the searches inline it."""
    return r + max(0, x - jokers, pending - free_reals - jokers + x)


def _prune_drawn(states: dict[tuple[Any, ...], tuple[int, int]]) -> dict[tuple[Any, ...], tuple[int, int]]:
    """:func:`_prune_flags` for rows with drawn sets: a row is dropped only for one that
    is cheaper, or as cheap with every kind it draws."""
    groups: dict[tuple[Any, ...], list[Any]] = {}
    for key, v in states.items():
        groups.setdefault(key[:-1], []).append((key[-1], v))
    out = {}
    for head, lst in groups.items():
        if len(lst) == 1:
            out[head + (lst[0][0],)] = lst[0][1]
            continue
        for fl, (r, m) in lst:
            if not any(f2 != fl and (f2 & PRES) == (fl & PRES) and (f2 | fl) == f2
                       and (r2 < r or (r2 == r and m2 | m == m2))
                       for f2, (r2, m2) in lst):
                out[head + (fl,)] = (r, m)
    return out


def panjin_standard_drawn(real: Sequence[int], caps: Sequence[int], jokers: int,
                          joker_room: int, melds: int, meld_flags, allowed_suits, piaohu: bool,
                          min_jokers: int, limit: int,
                          need_real_draw: bool = False) -> tuple[int, int, bool] | None:
    """:func:`panjin_standard` that also says which draws lower the distance: ``(d, kinds
    bit set, a wildcard draw lowers it)``, or ``None`` when no target is within ``limit``.
    Without the discard-win rule the kinds are those the nearest targets draw; with it
    (``need_real_draw``) ``d`` counts the rule and the kinds are as :func:`_drawn_best`
    says (a ``None`` there may also mean ``d`` is ``limit + 1``: search again one higher)."""
    groups = 4 - melds
    max_x = jokers + joker_room
    suits0, yj0, trip0, seq0 = meld_flags
    want = (0 if yj0 else YJ) | (0 if trip0 else TRIP)
    if not piaohu and not seq0 and groups:
        want |= SEQ
    if groups == 0 and (seq0 or not piaohu):
        return None
    acc: dict[tuple[Any, ...], tuple[int, int]] = {(0, 0, 0, bin(suits0).count("1"), 0): (0, 0)}
    held = [sum(real[a:b]) for a, b, _ in UNITS]
    total = sum(held)
    for ui, (a, b, honors) in enumerate(UNITS):
        table = unit_panjin_drawn(tuple(real[a:b]), tuple(caps[a:b]), a, honors, max_x, limit,
                                  jokers, groups, total - held[ui],
                                  panjin_rest_places(real, caps, ui, max_x > 0))
        k_u = sum(held[ui + 1:]) + jokers            # free fillers still to come (_bound)
        acc = _merge_drawn(acc, table, groups, max_x, jokers, limit,
                           not honors and not suits0 >> ui & 1, want, k_u)
    return _drawn_best([(r, x, m) for (g, p, x, n, f), (r, m) in acc.items()
                        if g == groups and p == 1 and x >= min_jokers and n in allowed_suits
                        and f & want == want], jokers, need_real_draw, limit)


def _drawn_best(targets: Iterable[tuple[int, int, int]], jokers: int, need_real_draw: bool,
                limit: int) -> tuple[int, int, bool] | None:
    """The distance of a hand and the draws that lower it, from its targets within
    ``limit``, each ``(r, x, drawn)`` (the fewest real tiles ``r`` drawn for a target state,
    its ``x`` jokers placed, the real kinds its cheapest targets draw): ``(d, kinds bit
    set, a wildcard draw lowers it)``, or ``None`` when ``d`` > ``limit``.

    A target W costs ``c = r + max(0, x − jokers)``; a draw k lowers ``d = min c`` exactly
    when a nearest W draws k. With the discard-win rule (PJ-2, C-9: the tile W lacks last
    must be real) W costs ``c + 1`` when it draws no real tile, and then a real k lowers
    ``d`` exactly when a nearest W draws k and at least one other real tile (W less k
    must still lack a real one; a W that draws only k costs ``d − 1`` + 1 after k as
    before it), and a wildcard draw exactly when a nearest W draws a wildcard. (A target
    with ``r ≥ 2`` and cost ``d`` is always one of the cheapest of its state: a cheaper
    one would cost ``d − 1`` without the rule, so draw nothing real, so ``r`` = 1.)"""
    best, mask, wild = None, 0, False
    for r, x, m in targets:
        cost = r + (x - jokers if x > jokers else 0)
        if need_real_draw:
            if not r:
                cost += 1
            if r < 2:
                m = 0
        if best is None or cost < best:
            best, mask, wild = cost, m, x > jokers
        elif cost == best:
            mask |= m
            wild = wild or x > jokers
    if best is None or best > limit:
        return None
    return best, mask, wild


# -- 盘锦 every discard of a 14-tile hand at once (hand efficiency) ---------------------
# A discard t changes one unit, by one tile. The unit's table and the tables of "the unit
# less one tile" for each kind it holds are built in one pass (the kinds before t see the
# same counts, the kinds after it too: only the values differ, so every state carries one
# value per table), and the three units a discard leaves alone are merged once per unit.

@lru_cache(maxsize=16)             # a hand needs its four units' (bounded)
def unit_panjin_drawn_drops(unit: tuple[int, ...], caps: tuple[int, ...], start: int,
                            honors: bool, max_x: int, limit: int, jokers: int, groups: int,
                            others: int, rest: tuple[Any, ...] | None = None,
                            which: tuple[int, ...] | None = None
                            ) -> tuple[tuple[Any, ...], tuple[tuple[int, tuple[Any, ...]], ...]]:
    """``(table, ((i, table_i), …))``: :func:`unit_panjin_drawn` of ``unit`` (``others``
    real tiles held outside it) and, for each position ``i`` the unit holds, of the unit
    less one tile at ``i`` (``others + 1`` outside it, the hand's count unchanged), all from
    one search whose states carry a value ``(r, drawn)`` per table. Each table searches the
    same targets as its own :func:`unit_panjin_drawn` would. ``rest`` (from
    :func:`panjin_rest_places`): a stronger bound than the count of the tiles outside;
    ``which``: only these positions' tables (default: every position held)."""
    n = len(unit)
    if jokers + limit < max_x:
        max_x = jokers + limit
    drops = [i for i in range(n) if unit[i] and (which is None or i in which)]
    # entry 0: the unit as held; entry e ≥ 1: less one tile at drops[e - 1]
    cnt = [list(unit)] + [[c - (i == j) for i, c in enumerate(unit)] for j in drops]
    start_at = {j: e + 1 for e, j in enumerate(drops)}
    if rest is None:        # the count bound: places the other units' tiles cannot fill
        rest = tuple(tuple(max(0, 3 * g + 2 * p - others - 1) for p in range(2))
                     for g in range(5))
    if _pjunit is not None:
        try:
            tables = _pjunit.search(unit, caps, _yj_flags(start, n), start, honors, max_x,
                                    limit, jokers, jokers, groups, _flat_rest(rest),
                                    tuple(drops), False, True)
            return (tuple(tables[0]),
                    tuple((j, tuple(tables[e + 1])) for e, j in enumerate(drops)))
        except RuntimeError:          # already running in another thread: Python below
            pass
    bound = _suffix_bound(rest)
    states: dict[tuple[Any, ...], dict[int, tuple[int, int]]] = {(0, 0, 0, 0, 0, 0): {0: (0, 0)}}
    entries = [0]
    for i in range(n):
        e_new = start_at.get(i)
        if e_new is not None:                   # this table starts from the shared prefix
            entries.append(e_new)
            for vals in states.values():
                v = vals.get(0)
                if v is not None:
                    vals[e_new] = v
        cap = caps[i]
        yj = (start + i) in YAOJIU
        bit = 1 << (start + i)
        seq_ok = not honors and i <= n - 3
        real_bits = PRES | YJ if yj else PRES
        trips = (0, 1) if cap >= 3 else (0,)
        # per table: count here, most sequences starting here
        ce = {}
        for e in entries:
            u = cnt[e]
            c = u[i]
            s_max = min(4, c + u[i + 1] + u[i + 2] + 1) if seq_ok else 0
            ce[e] = (c, s_max)
        s_top = max(v[1] for v in ce.values())
        h_i = sum(unit[i + 1:])         # the same in every table started by now
        c_low = min(v[0] for v in ce.values())
        new: dict[tuple[Any, ...], dict[int, tuple[int, int]]] = {}
        for (a, b, g, p, x, fl), vals in states.items():
            room = max_x - x
            open_ = a + b
            if open_ > cap + room:
                continue
            items = [(e, r, mask) + ce[e] for e, (r, mask) in vals.items()]
            for s in range(min(s_top, 4 - g) + 1):
                f_s = fl | SEQ if s else fl
                for t in trips:
                    g2 = g + s + t
                    if g2 > 4 or g2 > groups:
                        break
                    f_t = f_s | TRIP if t else f_s
                    for pr in ((0, 1) if not p else (0,)):
                        free = open_ + s + 2 * pr
                        places = free + 3 * t
                        lo = places - cap if places > cap else 0
                        held = c_low if c_low < places else places
                        hi = min(free, room, _joker_room(places - held, jokers - x))
                        # unfilled places still to come, at least (_suffix_bound)
                        lb = bound[groups - g2][1 - p - pr][b + 2 * s - h_i + 14] - jokers
                        # every held joker must find a place (PJ-2): the places still to
                        # come hold at most that many
                        low = jokers - x - (3 * (groups - g2) + 2 * (1 - p - pr) + b + 2 * s)
                        if low > lo:
                            lo = low
                        for y in range(lo, hi + 1):
                            x2 = x + y
                            # the cost a state may have here and still end within limit
                            ex = x2 - jokers if x2 > jokers else 0
                            thr = limit - (lb + x2 if lb + x2 > ex else ex)
                            if thr < 0:
                                continue
                            real = places - y
                            f = f_t | real_bits if real else f_t
                            if honors and pr and not y:
                                f |= TRIP
                            key = (b, s, g2, p + pr, x2, f)
                            out = None
                            for e, r, mask, c, s_max in items:
                                if s > s_max or y > _joker_room(
                                        places - (c if c < places else places), jokers - x):
                                    continue
                                d = real - c if real > c else 0
                                r2 = r + d
                                if r2 > thr:
                                    continue
                                m2 = mask | bit if d else mask
                                if out is None:
                                    out = new.get(key)
                                    if out is None:
                                        out = new[key] = {}
                                old = out.get(e)
                                if old is None or r2 < old[0]:
                                    out[e] = (r2, m2)
                                elif r2 == old[0] and m2 | old[1] != old[1]:
                                    out[e] = (r2, m2 | old[1])
        states = _prune_drops(new) if len(new) > 48 or i == n - 1 else new
    tables: list[list[Any]] = [[] for _ in range(len(drops) + 1)]
    for (_, _, g, p, x, fl), vals in states.items():
        for e, (r, m) in vals.items():
            tables[e].append((g, p, x, fl, r, m))
    return tuple(tables[0]), tuple((j, tuple(tables[e + 1])) for e, j in enumerate(drops))


def panjin_rest_places(real: Sequence[int], caps: Sequence[int], skip: int,
                       any_jokers: bool) -> tuple[Any, ...]:
    """``rest[g][p]``: at least how many places of ``g`` groups and ``p`` pairs (0/1) the
    units other than ``skip`` leave unfilled by the real tiles they hold, jokers anywhere
    and no 盘锦 condition (:func:`unit_free` tables; fresh groups at 3 and 2 places)."""
    return _rest_places_all(tuple(real), tuple(caps), any_jokers)[skip]


@lru_cache(maxsize=512)
def _unit_free_min(unit: tuple[int, ...], caps: tuple[int, ...], honors: bool,
                   any_jokers: bool) -> tuple[int, ...]:
    """:func:`unit_free` reduced to the fewest draws ``D`` per ``(g, p)``, as ten numbers
    ``[g * 2 + p]`` (``INF`` where the unit has no row)."""
    out = [INF] * 10
    for g, p, _, d in unit_free(unit, caps, honors, any_jokers):
        if d < out[g * 2 + p]:
            out[g * 2 + p] = d
    return tuple(out)


def _min_plus(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """Two units' minima together (``[g * 2 + p]``, groups up to four, one pair)."""
    out = [INF] * 10
    bs = [(j, bj) for j, bj in enumerate(b) if bj < INF]
    for i, ai in enumerate(a):
        if ai >= INF:
            continue
        for j, bj in bs:
            k = i + j                       # (g1 + g2) * 2 + p1 + p2
            if k >= 10 or (i & 1 and j & 1):
                continue
            if ai + bj < out[k]:
                out[k] = ai + bj
    return tuple(out)


@lru_cache(maxsize=256)
def _rest_places_all(real: tuple[int, ...], caps: tuple[int, ...], any_jokers: bool) -> tuple[Any, ...]:
    """:func:`panjin_rest_places` for each unit left out in turn (a hand's searches ask for
    all four, again and again): the units before and after the one left out, combined."""
    m = [_unit_free_min(real[a:b], caps[a:b], honors, any_jokers) for a, b, honors in UNITS]
    if _pjunit is not None:
        return _pjunit.rest_places(*m)
    m01 = _min_plus(m[0], m[1])
    m23 = _min_plus(m[2], m[3])
    without = (_min_plus(m[1], m23), _min_plus(m[0], m23),
               _min_plus(m01, m[3]), _min_plus(m01, m[2]))
    return tuple(_rest_of(acc) for acc in without)


def _rest_of(acc: tuple[int, ...]) -> tuple[Any, ...]:
    """``rest[g][p]`` from the minima of the other units: their groups, and fresh groups
    (3 places) and pair (2) for the rest — ``min(acc[g][p], rest[g − 1][p] + 3,
    rest[g][p − 1] + 2)``."""
    rows = []
    for g in range(5):
        r0 = acc[g * 2]
        r1 = acc[g * 2 + 1]
        if g:
            r0 = min(r0, rows[-1][0] + 3)
            r1 = min(r1, rows[-1][1] + 3)
        r1 = min(r1, r0 + 2, INF)
        rows.append((min(r0, INF), r1))
    return tuple(rows)


@lru_cache(maxsize=64)
def _suffix_bound(rest: tuple[Any, ...]) -> tuple[Any, ...]:
    """``bound[g][p][v + 14]``: at least how many places stay unfilled by held real tiles
    when ``g`` groups and ``p`` pairs are still to make and the open places of the unit
    searched exceed its real tiles still to come by ``v``: the groups split between that
    unit's rest (``max(0, places + v)``) and the other units (``rest``)."""
    out = []
    for g in range(5):
        row = []
        for p in range(2):
            row.append(tuple(
                min(max(0, 3 * gs + 2 * ps + v) + rest[g - gs][p - ps]
                    for gs in range(g + 1) for ps in range(p + 1))
                for v in range(-14, 27)))
        out.append(tuple(row))
    return tuple(out)


def _flat_rest(rest: tuple[Any, ...]) -> tuple[int, ...]:
    """``rest`` (:func:`panjin_rest_places`) as ten numbers, ``[g * 2 + p]``, for the C
    search (which derives :func:`_suffix_bound` from them itself)."""
    return rest[0] + rest[1] + rest[2] + rest[3] + rest[4]


def _prune_drops(states: dict[tuple[Any, ...], dict[int, tuple[int, int]]]) -> dict[Any, Any]:
    """:func:`_prune_drawn` for each table of :func:`unit_panjin_drawn_drops` apart."""
    groups: dict[tuple[Any, ...], list[Any]] = {}
    for key, vals in states.items():
        groups.setdefault(key[:-1], []).append((key[-1], vals))
    out = {}
    for head, lst in groups.items():
        if len(lst) == 1:
            out[head + (lst[0][0],)] = lst[0][1]
            continue
        for fl, vals in lst:
            kept = {}
            for e, (r, m) in vals.items():
                for f2, vals2 in lst:
                    if f2 == fl or (f2 & PRES) != (fl & PRES) or (f2 | fl) != f2:
                        continue
                    v2 = vals2.get(e)
                    if v2 is not None and (v2[0] < r or (v2[0] == r and v2[1] | m == v2[1])):
                        break
                else:
                    kept[e] = (r, m)
            if kept:
                out[head + (fl,)] = kept
    return out


def _merge_drawn(acc: dict[Any, Any], table, groups: int, max_x: int, jokers: int, limit: int,
                 counts_suit: bool, want: int, k_u: int) -> dict[Any, Any]:
    """One merge step of :func:`panjin_standard_drawn` (``k_u``: free fillers to come;
    every held joker must still find a place)."""
    if _pjunit is not None:
        try:
            return _pjunit.merge(acc, table, groups, max_x, jokers, limit, counts_suit, want,
                                 k_u)
        except RuntimeError:          # already running in another thread: Python below
            pass
    new: dict[tuple[Any, ...], tuple[int, int]] = {}
    for (g, p, x, n, f), (r, m) in acc.items():
        for g2, p2, x2, fl, r2, m2 in table:
            g3 = g + g2
            x3 = x + x2
            if g3 > groups or p + p2 > 1 or x3 > max_x:
                continue
            if x3 + 3 * (groups - g3) + 2 * (1 - p - p2) < jokers:
                continue
            r3 = r + r2
            if r3 + max(x3 - jokers, 3 * (groups - g3) + 2 * (1 - p - p2) + x3 - k_u,
                        0) > limit:
                continue
            key = (g3, p + p2, x3, n + 1 if counts_suit and fl & PRES else n,
                   f | (fl & want))
            m3 = m | m2
            old = new.get(key)
            if old is None or r3 < old[0]:
                new[key] = (r3, m3)
            elif r3 == old[0]:
                new[key] = (r3, m3 | old[1])
    return _prune_drawn(new)


def panjin_discards_drawn(real: Sequence[int], caps: Sequence[int], jokers: int,
                          joker_room: int, melds: int, meld_flags, allowed_suits,
                          piaohu: bool, min_jokers: int, limit: int,
                          discards: Iterable[int], need_real_draw: bool = False
                          ) -> dict[int, tuple[int, int, bool] | None]:
    """:func:`panjin_standard_drawn` of the hand less one tile, for each real kind in
    ``discards`` (``real``: the 14-tile hand's real counts): ``{kind: result}``, the same
    results, from one table pass per unit and one merge of the other units per unit."""
    discards = list(discards)
    groups = 4 - melds
    max_x = jokers + joker_room
    suits0, yj0, trip0, seq0 = meld_flags
    want = (0 if yj0 else YJ) | (0 if trip0 else TRIP)
    if not piaohu and not seq0 and groups:
        want |= SEQ
    if groups == 0 and (seq0 or not piaohu):
        return {k: None for k in discards}
    held = [sum(real[a:b]) for a, b, _ in UNITS]
    total = sum(held) - 1                       # real tiles of the 13-tile hands
    multi = [unit_panjin_drawn_drops(tuple(real[a:b]), tuple(caps[a:b]), a, honors, max_x,
                                     limit, jokers, groups, total - held[ui],
                                     panjin_rest_places(real, caps, ui, max_x > 0),
                                     tuple(k - a for k in discards if a <= k < b))
             for ui, (a, b, honors) in enumerate(UNITS)]
    out: dict[int, tuple[int, int, bool] | None] = {}
    start = {(0, 0, 0, bin(suits0).count("1"), 0): (0, 0)}
    for u, (a, b, honors) in enumerate(UNITS):
        mine = [k for k in discards if a <= k < b]
        if not mine:
            continue
        # the other three units merged (their tables as held; this unit holds one less)
        acc = start
        rest = [w for w in range(4) if w != u]
        for pos, w in enumerate(rest):
            k_u = sum(held[v] for v in rest[pos + 1:]) + held[u] - 1 + jokers
            acc = _merge_drawn(acc, multi[w][0], groups, max_x, jokers, limit,
                               not UNITS[w][2] and not suits0 >> w & 1, want, k_u)
        by_gp: dict[tuple[int, int], list[Any]] = {}
        for (g, p, x, n, f), v in acc.items():
            by_gp.setdefault((g, p), []).append((x, n, f) + v)
        counts_suit = not honors and not suits0 >> u & 1
        tables = dict(multi[u][1])
        for k in mine:
            best, mask, wild = None, 0, False
            for g2, p2, x2, fl, r2, m2 in tables[k - a]:
                lst = by_gp.get((groups - g2, 1 - p2))
                if not lst:
                    continue
                inc = 1 if counts_suit and fl & PRES else 0
                fw = fl & want
                for x, n, f, r, m in lst:
                    x3 = x + x2
                    if x3 > max_x or x3 < min_jokers or n + inc not in allowed_suits:
                        continue
                    if (f | fw) != want:
                        continue
                    cost = r + r2 + (x3 - jokers if x3 > jokers else 0)
                    m3 = m | m2
                    if need_real_draw:              # as _drawn_best
                        if r + r2 < 2:
                            m3 = 0
                            if not r + r2:
                                cost += 1
                    if cost > limit:
                        continue
                    if best is None or cost < best:
                        best, mask, wild = cost, m3, x3 > jokers
                    elif cost == best:
                        mask |= m3
                        wild = wild or x3 > jokers
            out[k] = None if best is None else (best, mask, wild)
    return out
