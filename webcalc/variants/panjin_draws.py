"""盘锦's useful draws (牌理) in one search: :mod:`webcalc.variants.panjin_search` keeping,
per state, the kinds its cheapest partial targets draw (standard and 七对 alike, with the
discard-win rule of PJ-2 / C-9 too), and every discard of a 14-tile hand at once. Owned by
:mod:`webcalc.variants.panjin`, whose hooks :mod:`webcalc.efficiency` calls.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..compiled import pjunit as _pjunit
from ..shanten import CACHE, INF, UNITS, hand_caps
from .panjin_lower import count_lower
from .panjin_merge import (
    SUB0,
    SUBS,
    _combine,
    _merge_drawn,
    _prune_drawn,
    _sub_clear,
    _sub_meets,
)
from .panjin_search import (
    PRES,
    SEQ,
    TRIP,
    YAOJIU,
    YJ,
    _carried_bound,
    _flat_rest,
    _held_next,
    _joker_room,
    _relaxed_bounds,
    _suffix_bound,
    _suit_bounds,
    _suit_rests,
    _yj_flags,
    panjin_meld_flags,
)

if TYPE_CHECKING:
    from .base import Situation

def seven_pairs_panjin_drawn(real: Sequence[int], caps: Sequence[int], jokers: int,
                             joker_room: int, allowed_suits: Collection[int],
                             need_real_draw: bool,
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
            targets.append((r + drawn, xx, mask | free if drawn else mask, False))
    return _drawn_best(targets, jokers, need_real_draw, limit)


# -- 盘锦 useful draws in one search (hand efficiency) ----------------------------------------
# A draw k lowers the distance of H exactly when some nearest complete hand W holds more k
# than H (|W − (H + k)| = |W − H| − 1, and no W gets nearer than that). So the same search,
# keeping for each state the union of the kinds drawn by its cheapest partial targets, gives
# every useful draw at once.

@lru_cache(maxsize=CACHE // 8)
def unit_panjin_drawn(unit: tuple[int, ...], caps: tuple[int, ...], start: int, honors: bool,
                      max_x: int, limit: int, jokers: int = INF, groups: int = 4,
                      others: int = INF, rest: tuple[Any, ...] | None = None,
                      req: tuple[int, ...] | None = None
                      ) -> tuple[tuple[int, int, int, int, int, int], ...]:
    """:func:`unit_panjin` rows ``(g, p, x, flags, r, drawn)``: ``drawn`` is the bit set of
    the kinds some cheapest way to reach the row draws. With ``jokers`` (the jokers held),
    a row whose own cost ``r + max(0, x − jokers)`` exceeds ``limit`` is left out too: the
    hand's cost is never below one unit's. With ``groups`` (the hand's concealed groups)
    and ``others`` (the real tiles the hand holds outside the unit), a state is left out
    when even :func:`_bound` of the hand's cost exceeds ``limit`` (with ``rest``,
    :func:`panjin_rest_places` of the other units, a stronger bound; with ``req`` too,
    :func:`_suit_rests` of the unit: the bound sees PJ-4, see :func:`_suit_lb`)."""
    n = len(unit)
    if jokers + limit < max_x:
        max_x = jokers + limit
    if _pjunit is not None and rest is not None:
        try:
            return tuple(_pjunit.search(unit, caps, _yj_flags(start, n), start, honors, max_x,
                                        limit, jokers, jokers, groups, _flat_rest(rest), (),
                                        False, True, req)[0])
        except RuntimeError:          # already running in another thread: Python below
            pass
    held_after = [sum(unit[i + 1:]) for i in range(n)]
    bound = _suffix_bound(rest) if rest is not None else None
    suit = (_suit_bounds(_with_rest(req, rest)) if rest is not None and req is not None
            else None)
    if suit is not None:
        bound = suit[0]
    states: dict[tuple[Any, ...], tuple[int, int]] = {(0, 0, 0, 0, 0, 0): (0, 0)}
    for i in range(n):
        # the places still open after this kind, less what may fill them for free (the
        # real tiles held further on and the unplaced jokers): see _bound
        k_i = held_after[i] + others + jokers
        hn = _held_next(unit, i)        # held next: _carried_bound
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
                    if g2 > 4 or g2 > groups:           # (more than the hand needs)
                        break
                    f_t = f_s | TRIP if t else f_s
                    for pr in ((0, 1) if not p else (0,)):
                        free = open_ + s + 2 * pr
                        places = free + 3 * t
                        lo = places - cap if places > cap else 0
                        held = c if c < places else places
                        hi = min(free, room, _joker_room(places - held, jokers - x))
                        pend = 3 * (groups - g2) + 2 * (1 - p - pr) + b + 2 * s - k_i
                        pend_lack = pend
                        if bound is not None:
                            pend = _carried_bound(bound[groups - g2][1 - p - pr], b, s, hn) - jokers
                            pend_lack = _suit_lb(suit, fl, groups - g2, 1 - p - pr, b, s, hn,
                                                 jokers, pend)
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
                            if r2 + max(x2 - jokers, (pend if real else pend_lack) + x2,
                                        0) > limit:
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
        states = _prune_drawn(new) if len(new) > 256 or i == n - 1 else new
    return tuple((g, p, x, fl, r, m) for (_, _, g, p, x, fl), (r, m) in states.items())


def panjin_standard_drawn(real: Sequence[int], caps: Sequence[int], jokers: int,
                          joker_room: int, melds: int, meld_flags: tuple[int, bool, bool, bool],
                          allowed_suits: Collection[int], piaohu: bool,
                          min_jokers: int, limit: int,
                          need_real_draw: bool = False,
                          restrict: bool = True) -> tuple[int, int, bool] | None:
    """:func:`panjin_standard` that also says which draws lower the distance: ``(d, kinds
    bit set, a wildcard draw lowers it)``, or ``None`` when no target is within ``limit``.
    Without the discard-win rule the kinds are those the nearest targets draw; with it
    (``need_real_draw``) ``d`` counts the rule and the kinds are as :func:`_drawn_best`
    says (a ``None`` there may also mean ``d`` is ``limit + 1``: search again one higher).
    ``restrict``: as :func:`panjin_discards_drawn`'s (false: the tests' reference)."""
    groups = 4 - melds
    max_x = jokers + joker_room
    suits0, yj0, trip0, seq0 = meld_flags
    want = (0 if yj0 else YJ) | (0 if trip0 else TRIP)
    if not piaohu and not seq0 and groups:
        want |= SEQ
    if groups == 0 and (seq0 or not piaohu):
        return None
    lower = _lower(tuple(real), jokers, groups)
    if lower is None or lower > limit:
        # no target is within limit: the limit-1 search of a hand's waits, for about one
        # 13-tile hand in three
        return None
    if _pjunit is not None and restrict and max_x < 32 and jokers < 32 and 0 <= limit <= 99:
        try:
            return _standard_drawn_compiled(
                tuple(real), tuple(caps), jokers, max_x, groups, suits0, want,
                sum(1 << s for s in set(allowed_suits) if 0 <= s <= 4), min_jokers, limit,
                need_real_draw)
        except RuntimeError:          # already running in another thread: Python below
            pass
    acc: dict[tuple[Any, ...], tuple[int, int]] = {(0, 0, 0, bin(suits0).count("1"), 0): (0, 0)}
    held = [sum(real[a:b]) for a, b, _ in UNITS]
    total = sum(held)
    reqs = _suit_rests(tuple(real), suits0, sum(1 << s for s in set(allowed_suits) if 0 <= s <= 4))
    levels = _restrict_levels(suits0, allowed_suits) if restrict else (0,) * 4
    for ui, (a, b, honors) in enumerate(UNITS):
        # the unit's restricted table: unit_panjin_drawn's rows, restricted (no drop)
        table = (unit_panjin_drawn_drops(tuple(real[a:b]), tuple(caps[a:b]), a, honors, max_x,
                                         limit, jokers, groups, total - held[ui],
                                         _relaxed_bounds(tuple(real))[1][ui], (), reqs[ui],
                                         levels[ui])[0] if restrict else
                 unit_panjin_drawn(tuple(real[a:b]), tuple(caps[a:b]), a, honors, max_x, limit,
                                   jokers, groups, total - held[ui],
                                   _relaxed_bounds(tuple(real))[1][ui], reqs[ui]))
        k_u = sum(held[ui + 1:]) + jokers            # free fillers still to come (_bound)
        acc = _merge_drawn(acc, table, groups, max_x, jokers, limit,
                           not honors and not suits0 >> ui & 1, want, k_u)
    return _drawn_best([(r, x, m & ~SUBS, restrict and _sub_wild(m, n, r, x, jokers, max_x,
                                                                  need_real_draw, allowed_suits))
                        for (g, p, x, n, f), (r, m) in acc.items()
                        if g == groups and p == 1 and x >= min_jokers and n in allowed_suits
                        and f & want == want], jokers, need_real_draw, limit)


def _restrict_levels(suits0: int, allowed_suits: Collection[int]) -> tuple[int, ...]:
    """Per unit, the ``restrict`` of its restricted search: 2 where one suit more shown
    could break PJ-4 (the unit's suit counts and an allowed count's next one is not
    allowed, up to three), else 1."""
    up_closed = all(c + 1 in allowed_suits for c in allowed_suits if c < 3)
    return tuple(1 if u == 3 or suits0 >> u & 1 or up_closed else 2 for u in range(4))


def _sub_wild(m: int, n: int, r: int, x: int, jokers: int, max_x: int, need_real_draw: bool,
              allowed_suits: Collection[int]) -> bool:
    """Whether a target of a restricted search (``m`` its merged drawn mask, ``n`` suits
    shown, ``r`` real tiles drawn, ``x`` jokers placed) says a wildcard draw lowers the
    distance through a joker for a drawn real tile (:data:`SUB0`): as cheap when every held
    joker is placed, one more fits ``max_x``, a real tile is still drawn for the
    discard-win rule, and the hand still meets PJ-4..PJ-7."""
    return bool(m & SUBS) and jokers <= x < max_x and (not need_real_draw or r >= 2) and (
        _sub_meets(m, n, allowed_suits))


def _lower(real: tuple[int, ...], jokers: int, groups: int) -> int | None:
    """At most the 盘锦 standard distance of a hand (``None``: no standard hand at all):
    ``whole[groups][1] − jokers`` of :func:`_relaxed_bounds` (every 盘锦 standard target is
    a standard hand, its jokers placed as PJ-2 lets them, so it costs at least that). The
    count the bounded searches start from, and below which they need not run."""
    places = _relaxed_bounds(real)[0][groups][1]
    return None if places >= INF else max(0, places - jokers)


@lru_cache(maxsize=64)                 # a hand asks one bound twice (its waits, its draws)
def _standard_drawn_compiled(real: tuple[int, ...], caps: tuple[int, ...], jokers: int,
                             max_x: int, groups: int, suits0: int, want: int, allowed: int,
                             min_jokers: int, limit: int,
                             need_real_draw: bool) -> tuple[int, int, bool] | None:
    """:func:`panjin_standard_drawn` (below its first checks) in one call of the compiled
    part (webcalc/variants/panjin_unit.c ``standard_drawn``: the same four searches, merges
    and :func:`_drawn_best`; ``allowed``: the suit counts as a bit set)."""
    rest: tuple[int, ...] = ()
    for r in _relaxed_bounds(real)[1]:
        rest += _flat_rest(r)
    found: tuple[int, int, bool] | None = _pjunit.standard_drawn(
        real, caps, jokers, max_x, groups, suits0, want, allowed, min_jokers, limit,
        need_real_draw, rest)
    return found


def _drawn_best(targets: Iterable[tuple[int, int, int, bool]], jokers: int, need_real_draw: bool,
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
    for r, x, m, sub in targets:
        cost = r + (x - jokers if x > jokers else 0)
        if need_real_draw:
            if not r:
                cost += 1
            if r < 2:
                m = 0
        if best is None or cost < best:
            best, mask, wild = cost, m, x > jokers or sub
        elif cost == best:
            mask |= m
            wild = wild or x > jokers or sub
    if best is None or best > limit:
        return None
    return best, mask, wild


# -- 盘锦 every discard of a 14-tile hand at once (hand efficiency) ---------------------
# A discard t changes one unit, by one tile. The unit's table and the tables of "the unit
# less one tile" for each kind it holds are built in one pass (the kinds before t see the
# same counts, the kinds after it too: only the values differ, so every state carries one
# value per table), and the three units a discard leaves alone are merged once per unit.

def _with_rest(req: tuple[int, ...], rest: tuple[Any, ...]) -> tuple[int, ...]:
    """``req`` (:func:`_suit_rests`) no lower than ``rest``: each bounds the other units'
    places, so their greater does too (the compiled search takes the same)."""
    flat = _flat_rest(rest)
    return tuple(max(a, b) for a, b in zip(req, flat + flat))


def _suit_lb(suit: tuple[Any, ...] | None, fl: int, g: int, p: int, b: int, s: int,
             hn: tuple[int, int, int], jokers: int, lb: int) -> int:
    """The bound of a step that places no real tile (``lb``: one that does), with
    :func:`_suit_bounds` ``suit`` (``g``, ``p``: the groups and pair still to make): a state
    that does not show its unit's suit either makes a group or the pair of it later, or
    ends without it (PJ-4's count then asks more of the other units); one that carries a
    sequence on may still show it. Without ``suit``, or when the state shows it, ``lb``."""
    if suit is None or fl & PRES:
        return lb
    return _carried_bound((suit[2] if b + s else suit[1])[g][p], b, s, hn) - jokers


@lru_cache(maxsize=16)             # a hand needs its four units' (bounded)
def unit_panjin_drawn_drops(unit: tuple[int, ...], caps: tuple[int, ...], start: int,
                            honors: bool, max_x: int, limit: int, jokers: int, groups: int,
                            others: int, rest: tuple[Any, ...] | None = None,
                            which: tuple[int, ...] | None = None,
                            req: tuple[int, ...] | None = None, restrict: int = 0
                            ) -> tuple[tuple[Any, ...], tuple[tuple[int, tuple[Any, ...]], ...]]:
    """``(table, ((i, table_i), …))``: :func:`unit_panjin_drawn` of ``unit`` (``others``
    real tiles held outside it) and, for each position ``i`` the unit holds, of the unit
    less one tile at ``i`` (``others + 1`` outside it, the hand's count unchanged), all from
    one search whose states carry a value ``(r, drawn)`` per table. Each table searches the
    same targets as its own :func:`unit_panjin_drawn` would. ``rest`` (from
    :func:`panjin_rest_places`): a stronger bound than the count of the tiles outside;
    ``which``: only these positions' tables (default: every position held); ``req``: as
    :func:`unit_panjin_drawn`'s (the other units as held: a unit less a tile never needs
    fewer places, so a bound for every table). ``restrict`` 1 (2: where one suit more
    shown could break PJ-4, a place of no real tile keeps its joker while the state shows
    no real tile of its suit): no drawn joker a real tile could stand for, the bits
    :data:`SUB0` in the drawn masks instead (the searches of :func:`panjin_discards_drawn`
    and :func:`panjin_standard_drawn`)."""
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
            found = _pjunit.search(unit, caps, _yj_flags(start, n), start, honors, max_x,
                                   limit, jokers, jokers, groups, _flat_rest(rest),
                                   tuple(drops), False, True, req, restrict)
            return (tuple(found[0]),
                    tuple((j, tuple(found[e + 1])) for e, j in enumerate(drops)))
        except RuntimeError:          # already running in another thread: Python below
            pass
    suit = _suit_bounds(_with_rest(req, rest)) if req is not None else None
    bound = suit[0] if suit is not None else _suffix_bound(rest)
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
        hn = _held_next(unit, i)        # the same in every table started by now
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
                        lb = _carried_bound(bound[groups - g2][1 - p - pr], b, s, hn) - jokers
                        lb_lack = _suit_lb(suit, fl, groups - g2, 1 - p - pr, b, s, hn, jokers,
                                           lb)
                        # every held joker must find a place (PJ-2): the places still to
                        # come hold at most that many
                        low = jokers - x - (3 * (groups - g2) + 2 * (1 - p - pr) + b + 2 * s)
                        if low > lo:
                            lo = low
                        # restricted: no drawn joker where a real tile could stand, but
                        # for a place of no real tile where its suit would count (PJ-4)
                        y_top = jokers - x if jokers - x > lo else lo
                        step = (SEQ if s else 0) | (TRIP if t else 0)
                        for y in range(lo, hi + 1):
                            if restrict and y > y_top and not (
                                    restrict == 2 and y == places and not fl & PRES):
                                continue
                            x2 = x + y
                            real = places - y
                            # the cost a state may have here and still end within limit
                            ex = x2 - jokers if x2 > jokers else 0
                            lb_y = lb if real else lb_lack
                            thr = limit - (lb_y + x2 if lb_y + x2 > ex else ex)
                            if thr < 0:
                                continue
                            f = f_t | real_bits if real else f_t
                            if honors and pr and not y:
                                f |= TRIP
                            key = (b, s, g2, p + pr, x2, f)
                            # the flags this step gives (a sub path too), and those a
                            # joker for one of its drawn real tiles would lose
                            gives = f & (step | (real_bits if real else 0) | (
                                TRIP if honors and pr and not y else 0))
                            lost = f & ~(fl | step | (real_bits if real > 1 else 0)) & 7
                            out = None
                            for e, r, mask, c, s_max in items:
                                beside = places - (c if c < places else places)
                                if s > s_max or y > _joker_room(beside, jokers - x):
                                    continue
                                d = real - c if real > c else 0
                                r2 = r + d
                                if r2 > thr:
                                    continue
                                m2 = mask
                                if restrict:
                                    if m2 & SUBS:
                                        # a sub path holds one joker less for this step
                                        m2 = (m2 & ~SUBS if y > _joker_room(beside,
                                                                            jokers - x - 1)
                                              else _sub_clear(m2, gives))
                                    if d and y < free:
                                        m2 |= 1 << (SUB0 + lost)
                                if d:
                                    m2 |= bit
                                if out is None:
                                    out = new.get(key)
                                    if out is None:
                                        out = new[key] = {}
                                old = out.get(e)
                                if old is None or r2 < old[0]:
                                    out[e] = (r2, m2)
                                elif r2 == old[0] and m2 | old[1] != old[1]:
                                    out[e] = (r2, m2 | old[1])
        states = _prune_drops(new) if len(new) > 256 or i == n - 1 else new
    tables: list[list[Any]] = [[] for _ in range(len(drops) + 1)]
    for (_, _, g, p, x, fl), vals in states.items():
        for e, (r, m) in vals.items():
            tables[e].append((g, p, x, fl, r, m))
    return tuple(tables[0]), tuple((j, tuple(tables[e + 1])) for e, j in enumerate(drops))


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


def panjin_discards_drawn(real: Sequence[int], caps: Sequence[int], jokers: int,
                          joker_room: int, melds: int,
                          meld_flags: tuple[int, bool, bool, bool],
                          allowed_suits: Collection[int], piaohu: bool, min_jokers: int,
                          limit: int,
                          discards: Iterable[int], need_real_draw: bool = False,
                          restrict: bool = True
                          ) -> dict[int, tuple[int, int, bool] | None]:
    """:func:`panjin_standard_drawn` of the hand less one tile, for each real kind in
    ``discards`` (``real``: the 14-tile hand's real counts): ``{kind: result}``, the same
    results, from one table pass per unit and one merge of the other units per unit.
    ``restrict`` (the searches leave out a drawn joker a real tile could stand for:
    :data:`SUB0`) false: the same results from every target searched (the tests' reference;
    the compiled call restricts)."""
    discards = list(discards)
    groups = 4 - melds
    max_x = jokers + joker_room
    suits0, yj0, trip0, seq0 = meld_flags
    want = (0 if yj0 else YJ) | (0 if trip0 else TRIP)
    if not piaohu and not seq0 and groups:
        want |= SEQ
    if groups == 0 and (seq0 or not piaohu):
        return {k: None for k in discards}
    if _pjunit is not None and restrict and max_x < 32 and jokers < 32 and 0 <= limit <= 99:
        # the same searches, merges and combine in one call (webcalc/variants/panjin_hand.c)
        try:
            flat: tuple[int, ...] = ()
            for r in _relaxed_bounds(tuple(real))[1]:
                flat += _flat_rest(r)
            found = _pjunit.discards_drawn(
                real, caps, jokers, max_x, groups, suits0, want,
                sum(1 << s for s in set(allowed_suits) if 0 <= s <= 4), min_jokers, limit,
                need_real_draw, flat, discards)
            return dict(zip(discards, found))
        except RuntimeError:          # already running in another thread: Python below
            pass
    held = [sum(real[a:b]) for a, b, _ in UNITS]
    total = sum(held) - 1                       # real tiles of the 13-tile hands
    reqs = _suit_rests(tuple(real), suits0, sum(1 << s for s in set(allowed_suits) if 0 <= s <= 4))
    levels = _restrict_levels(suits0, allowed_suits) if restrict else (0,) * 4
    multi = [unit_panjin_drawn_drops(tuple(real[a:b]), tuple(caps[a:b]), a, honors, max_x,
                                     limit, jokers, groups, total - held[ui],
                                     _relaxed_bounds(tuple(real))[1][ui],
                                     tuple(k - a for k in discards if a <= k < b), reqs[ui],
                                     levels[ui])
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
        tables = dict(multi[u][1])
        found = _combine(acc, [tables[k - a] for k in mine], groups, max_x, min_jokers,
                         allowed_suits, not honors and not suits0 >> u & 1, want, jokers,
                         need_real_draw, limit, restrict)
        out.update(zip(mine, found))
    return out



# -- the 牌理 hooks of :class:`webcalc.variants.panjin.Panjin` ----------------------------------

def discards_useful(sit: Situation, allowed: set[int],
                    winning_of: Callable[[Situation], Iterable[int]], bound: int,
                    pre: dict[int, Any]) -> dict[int, tuple[int, int]] | None:
    """:func:`useful_search` of every discard's 13 tiles at once, at ``bound`` with its
    standard result in ``pre`` (:func:`discards_search`): ``{kind: (d, kinds bit set)}``
    per real kind held, or ``None`` (one search per discard) when one is not in ``pre``.
    A real discard changes neither the caps nor the wildcard room of :func:`hand_caps`, so
    they are the 14 tiles' and only the discarded kind's real count differs."""
    face, real_caps, room = hand_caps(sit)
    jokers = len(sit.jokers)
    need_real = sit.win_by == "discard"
    seven_ok = sit.options.seven_pairs and not sit.hand.melds
    wild = 0
    for w in sit.wildcards:
        wild |= 1 << int(w)
    real = list(sit.real_counts)
    out: dict[int, tuple[int, int]] = {}
    for t in sorted({t for t in sit.hand.concealed if t not in sit.wildcards}):
        k = int(t)
        found = pre[k] if k in pre else None
        if found is None and k not in pre and bound >= 0:
            return None
        seven = None
        if seven_ok:
            real[k] -= 1
            seven = seven_pairs_panjin_drawn(tuple(real), real_caps, jokers, room, allowed,
                                             need_real, jokers,
                                             INF if found is None else found[0])
            real[k] += 1
        d0 = min(INF if found is None else found[0], INF if seven is None else seven[0])
        mask = 0
        if d0 >= INF:
            d0 = INF
        elif need_real and d0 == 1:                      # as useful_search: its waits
            for kind in winning_of(sit.without_tile(t)):
                mask |= 1 << kind
        else:
            for res in (found, seven):
                if res is not None and res[0] == d0:
                    mask |= res[1] | (wild if res[2] else 0)
        out[k] = (d0, mask & (1 << 34) - 1)
    return out


def discards_search(sit: Situation, allowed: set[int]) -> tuple[int | None, dict[int, Any]]:
    """Every discard of a 14-tile hand searched at once: ``(bound, pre)`` as
    :meth:`webcalc.variants.base.Variant.discards_search` says.

    A discard's standard distance is the 14-tile hand's d14 or d14 + 1 (the same targets,
    less or not the discarded tile; with the discard-win rule too), so all are searched at
    once one above a count at most d14 (:func:`count_lower`; d14 unsearched), and at d14 + 1
    when one has no result
    there (d14 searched from that limit up when none had one). ``bound`` -1: no standard
    target; ``None``: a hand of (nearly) only wildcards, searched discard by discard."""
    jokers = len(sit.jokers)
    if jokers >= len(sit.hand.concealed) - 1:
        return None, {}
    face, real_caps, room = hand_caps(sit)
    kinds = sorted({int(t) for t in sit.hand.concealed if t not in sit.wildcards})
    if (lower := count_lower(sit, real_caps, allowed)) is None:      # PJ-4..PJ-6 seen
        return -1, {}
    bound = lower + 1
    pre = _discards_at(sit, allowed, real_caps, room, bound, kinds)
    if all(pre.get(k) is not None for k in kinds):
        return bound, pre
    # (a result does not depend on the limit); with none there, d14 is at least bound
    d14 = _standard_distance(sit, allowed, real_caps, room, 0 if any(pre.values()) else bound)
    if d14 is None:
        return -1, {}
    return d14 + 1, _discards_at(sit, allowed, real_caps, room, d14 + 1, kinds)


def _discards_at(sit: Situation, allowed: Collection[int], real_caps: Sequence[int], room: int,
                 bound: int, kinds: list[int]) -> dict[int, tuple[int, int, bool] | None]:
    """:func:`panjin_discards_drawn` of ``sit`` at ``bound``: every discard at once."""
    return panjin_discards_drawn(
        sit.real_counts, real_caps, len(sit.jokers), room, len(sit.hand.melds),
        panjin_meld_flags(sit), allowed, sit.options.piaohu,
        len(sit.jokers), bound, kinds, sit.win_by == "discard")


def _standard_distance(sit: Situation, allowed: Collection[int], real_caps: Sequence[int],
                       room: int, start: int = 0) -> int | None:
    """The standard distance of ``sit`` (every held joker placed, the discard-win rule
    counted): :func:`webcalc.variants.panjin_search.panjin_missing`'s ``"standard"``, by
    bounded searches from a count at most it up (:func:`count_lower`, PJ-4..PJ-6 seen),
    each :func:`panjin_standard_drawn` (its
    merges compiled) instead of :func:`panjin_standard` (merged in Python). For a hand that
    need not give up a joker (``min_jokers`` = ``jokers``), from at least ``start``."""
    jokers = len(sit.jokers)
    melds = len(sit.hand.melds)
    lower = count_lower(sit, real_caps, allowed)                   # PJ-4..PJ-6 seen
    if lower is None:
        return None
    lower = max(lower, start)
    flags = panjin_meld_flags(sit)
    for b in range(lower, 15 - 3 * melds + 1):
        found = panjin_standard_drawn(sit.real_counts, real_caps, jokers, room, melds, flags,
                                      allowed, sit.options.piaohu, jokers, b,
                                      sit.win_by == "discard")
        if found is not None:
            return found[0]
    return None
