"""盘锦's own search (PJ-2, PJ-4..PJ-8): exact distances to ready under its joker and
whole-hand rules, owned by :mod:`webcalc.variants.panjin` (shared code reaches it only
through that variant's hooks).

The distance is the one :mod:`webcalc.shanten` defines (C-12: ``min over W of |W − H|``,
less one), with 盘锦's own targets. The only tiles H must keep are those a variant never lets
go: 盘锦's wildcards (PJ-2), so W must hold every wildcard tile of H. A ``discard`` win in
盘锦 cannot be on a wildcard (PJ-2, C-9): the tile W lacks last must be real, so a W whose
missing tiles are all wildcards costs one exchange more. When no W exists at all (every
concealed tile fixed by melds that can never meet PJ-4..PJ-7, too many wildcards to place,
…) the hand can never become ready: ``None``.

The four units meet, besides the group count, the pair and the jokers, through the
whole-hand flags (suit present, 幺九, 刻, 顺: PJ-4..PJ-7). Jokers stand only in sequences
and the pair (PJ-2): a unit table keeps, per ``(groups, pair, jokers placed x, flags)``,
the fewest real tiles drawn ``r``. Cost ``Σr + (X − J)`` with ``X ≥ J`` (every held joker
placed). :mod:`webcalc.variants.panjin_draws` runs the same searches keeping the kinds the
nearest targets draw (牌理).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from functools import lru_cache
from itertools import combinations
from typing import TYPE_CHECKING, Any

# The per-unit searches compiled (webcalc/variants/panjin_unit.c in webcalc._pjunit; None:
# not built): the same states, transitions, bounds and pruning as the Python functions
# below, which stay the reference (tests/test_pjunit.py) and run when it was not built — and
# for a call the module refuses (RuntimeError) because another thread is inside the same
# function (its tables are shared; only a thread switch in the middle can do that).
from ..compiled import pjunit as _pjunit
from ..shanten import (
    CACHE,
    INF,
    UNITS,
    _share,
    free_standard,
    hand_caps,
    seven_pairs_plain,
    unit_free,
)

if TYPE_CHECKING:
    from .base import Situation

YAOJIU = frozenset((0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33))

# unit flags
PRES, YJ, TRIP, SEQ, RD = 1, 2, 4, 8, 16


def _yj_flags(start: int, n: int) -> tuple[int, ...]:
    return tuple(1 if start + i in YAOJIU else 0 for i in range(n))


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
        held_i = _held_next(unit, i)
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
                            pend = _carried_bound(bound[groups - g2][1 - p - pr], b, s,
                                                  held_i) - jokers
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
                    melds: int, meld_flags: tuple[int, bool, bool, bool], allowed_suits: Collection[int],
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


def seven_pairs_panjin(real: Sequence[int], caps: Sequence[int], jokers: int, joker_room: int,
                       allowed_suits: Collection[int], need_real_draw: bool, min_jokers: int,
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


def panjin_meld_flags(sit: Situation) -> tuple[int, bool, bool, bool]:
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


def panjin_count_lower(sit: Situation, allowed_suits: Collection[int]) -> int:
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


def panjin_missing(sit: Situation, allowed_suits: Collection[int], limit: int = INF,
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


def panjin_rest_places(real: Sequence[int], caps: Sequence[int], skip: int,
                       any_jokers: bool) -> tuple[Any, ...]:
    """``rest[g][p]``: at least how many places of ``g`` groups and ``p`` pairs (0/1) the
    units other than ``skip`` leave unfilled by the real tiles they hold, jokers anywhere
    and no 盘锦 condition (:func:`unit_free` tables; fresh groups at 3 and 2 places)."""
    rest: tuple[Any, ...] = _rest_places_all(tuple(real), tuple(caps), any_jokers)[skip]
    return rest


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
        compiled: tuple[Any, ...] = _pjunit.rest_places(*m)
        return compiled
    m01 = _min_plus(m[0], m[1])
    m23 = _min_plus(m[2], m[3])
    without = (_min_plus(m[1], m23), _min_plus(m[0], m23),
               _min_plus(m01, m[3]), _min_plus(m01, m[2]))
    return tuple(_rest_of(acc) for acc in without)


RCAP = 31                     # a cap no place count reaches: the relaxed tables' (no cap)


@lru_cache(maxsize=64)        # 64 hands' bounds, about 0.1 MB: a hand asks them again and again
def _relaxed_bounds(real: tuple[int, ...]) -> tuple[Any, ...]:
    """``(whole, rest)``: the bounds 盘锦's draw searches (webcalc/variants/panjin_draws.py)
    prune with and start from, from the relaxed unit tables (jokers anywhere, no cap:
    :func:`unit_free` with every cap :data:`RCAP`, keyed by the unit's counts alone, so
    shared by every room and hand; the compiled ones are the free-joker rule sets' cached
    and warmed tables): ``rest`` as :func:`_rest_places_all` gives it, ``whole`` the same of
    all four units. A cap only removes targets, so each is at most its capped value: the
    searches' bounds stay bounds (their answers do not change, only what they prune), and
    ``whole[groups][1] − jokers`` is at most the hand's free-joker distance
    (:func:`webcalc.shanten.free_standard`), so at most its 盘锦 distance."""
    if _pjunit is not None:
        compiled: tuple[Any, ...] = _pjunit.relaxed_rest(real)
        return compiled
    m = [_unit_free_min(real[a:b], (RCAP,) * (b - a), honors, True) for a, b, honors in UNITS]
    m01 = _min_plus(m[0], m[1])
    m23 = _min_plus(m[2], m[3])
    without = (_min_plus(m[1], m23), _min_plus(m[0], m23),
               _min_plus(m01, m[3]), _min_plus(m01, m[2]))
    return _rest_of(_min_plus(m01, m23)), tuple(_rest_of(acc) for acc in without)


def _rest_of(acc: tuple[int, ...]) -> tuple[Any, ...]:
    """``rest[g][p]`` from the minima of the other units: their groups, and fresh groups
    (3 places) and pair (2) for the rest — ``min(acc[g][p], rest[g − 1][p] + 3,
    rest[g][p − 1] + 2)``."""
    rows: list[tuple[int, int]] = []
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


def _held_next(unit: tuple[int, ...], i: int) -> tuple[int, int, int]:
    """What :func:`_carried_bound` reads of ``unit`` after its kind ``i``: the real tiles
    held at ``i + 1``, at ``i + 2`` and after ``i`` in all (every table a search of the
    unit less one tile has started by then holds the same)."""
    n = len(unit)
    return (unit[i + 1] if i + 1 < n else 0, unit[i + 2] if i + 2 < n else 0,
            sum(unit[i + 1:]))


def _carried_bound(row: tuple[int, ...], b: int, s: int, held: tuple[int, int, int]) -> int:
    """At least how many places stay unfilled by held real tiles after a unit's kind
    ``i``, when a state leaves it with ``b`` sequences begun one kind back and ``s`` begun
    at ``i`` (``row``: :func:`_suffix_bound` at the groups and pair still to make;
    ``held``: :func:`_held_next` at ``i``). Those sequences' places at ``i + 1``
    (``b + s``) and ``i + 2`` (``s``) take only tiles held there: what the unit holds
    beside them is all that fills its new groups, the rest of the carried places take
    jokers or draws. At least ``row[b + 2 * s − h + 14]`` (``h`` the tiles after ``i``,
    counted wherever they are held), so a search that prunes with it keeps every target
    within its limit and drops more of the states that cannot reach one (the compiled
    search, webcalc/variants/panjin_unit.c, prunes with the same)."""
    u1 = min(b + s, held[0])
    u2 = min(s, held[1])
    return row[max(-14, u1 + u2 - held[2]) + 14] + b + 2 * s - u1 - u2


def _flat_rest(rest: tuple[Any, ...]) -> tuple[int, ...]:
    """``rest`` (:func:`panjin_rest_places`) as ten numbers, ``[g * 2 + p]``, for the C
    search (which derives :func:`_suffix_bound` from them itself)."""
    flat: tuple[int, ...] = rest[0] + rest[1] + rest[2] + rest[3] + rest[4]
    return flat




# -- PJ-4 in the drawn searches' bound (webcalc/variants/panjin_draws.py) ----------------

def _suit_rests(real: tuple[int, ...], suits0: int, allowed: int) -> tuple[tuple[int, ...], ...]:
    """Per unit ``u``, ``req0 + req1`` (twenty numbers ``[g * 2 + p]``): the rest tables
    (:func:`_relaxed_bounds`) of ``u``'s search that see PJ-4, ``allowed`` the suit counts
    as a bit set and ``suits0`` the melds' suits: the other units' places when ``u`` ends
    without a real tile of its suit (``req0``) or with one (``req1``). A suit the count
    needs shown takes a group or the pair in its unit with a real tile: that unit's minima
    with fresh groups (3 places) and pair (2) where it has none, and no ``(0, 0)``. At
    least ``k`` of the other counted suits are shown, ``k`` the fewest the allowed counts
    leave (``INF`` throughout when none): the least over every ``k`` of them shown. Needing
    a suit shown never costs fewer places, so each is at most what any target the count
    allows pays: a bound still (the compiled twin is panjin_hand.c ``suit_req``)."""
    m = [_unit_free_min(real[a:b], (RCAP,) * (b - a), honors, True) for a, b, honors in UNITS]
    shown = []
    for row in m:
        fresh = _rest_of(row)
        shown.append(tuple(INF if k == 0 else fresh[k // 2][k % 2] for k in range(10)))
    base = bin(suits0 & 7).count("1")
    out = []
    for u in range(4):
        others = [w for w in range(4) if w != u]
        counted = [w for w in others if w < 3 and not suits0 >> w & 1]
        own_counts = u < 3 and not suits0 >> u & 1
        req = []
        for own in (0, 1):
            best = [INF] * 10
            k_min = next((k for k in range(len(counted) + 1)
                          if allowed >> (base + (own if own_counts else 0) + k) & 1), None)
            if k_min is not None:
                for sset in combinations(counted, k_min):
                    acc = _min_plus(_min_plus(*[shown[w] if w in sset else m[w]
                                                for w in others[:2]]),
                                    shown[others[2]] if others[2] in sset else m[others[2]])
                    rows = _rest_of(acc)
                    best = [min(v, rows[k // 2][k % 2]) for k, v in enumerate(best)]
            req.append(best)
        if not own_counts:              # the unit's own suit counts for nothing here
            req = [[min(a, b) for a, b in zip(*req)]] * 2
        out.append(tuple(req[0] + req[1]))
    return tuple(out)


def _split_bound(rest: tuple[int, ...], one_own: bool) -> tuple[Any, ...]:
    """:func:`_suffix_bound` of ``rest`` (ten numbers); ``one_own``: only the splits
    whose searched unit's share makes a group or the pair."""
    return tuple(tuple(tuple(
        min((max(0, 3 * gs + 2 * ps + v) + rest[(g - gs) * 2 + p - ps]
             for gs in range(g + 1) for ps in range(p + 1) if gs or ps or not one_own),
            default=INF)
        for v in range(-14, 27)) for p in range(2)) for g in range(5))


# the pure-Python path only (the compiled search builds its own grids): 64 hands' grids;
# without it a fresh 盘锦 analyze() costs 1.14× (160 fresh hands, WEBCALC_PURE_PYTHON=1,
# /tmp/sb.py of stop 46, alternating; docs/ARCHITECTURE.md "Caches and fast paths")
@lru_cache(maxsize=64)
def _suit_bounds(req: tuple[int, ...]) -> tuple[Any, ...]:
    """``(shows, lacks, carries)``, :func:`_suffix_bound`-shaped, from :func:`_suit_rests`'
    ``req0 + req1`` of the searched unit: for a state that shows its unit's suit (the rest
    at ``req1``); one that does not (the unit's own share makes a group or the pair, rest
    ``req1``, or the unit ends without it, ``req0``); one that does not but carries a
    sequence on (either rest, any split)."""
    req0, req1 = req[:10], req[10:]
    shows = _split_bound(req1, False)
    if req0 == req1:                # the honors, or a suit the melds show: all alike
        return shows, shows, shows
    carries = _split_bound(tuple(min(a, b) for a, b in zip(req0, req1)), False)
    lacks = _split_bound(req1, True)
    if any(v < INF for v in req0):  # (at INF throughout the count needs the unit's suit)
        none = _split_bound(req0, False)
        lacks = tuple(tuple(tuple(min(a, b) for a, b in zip(x, y)) for x, y in zip(gx, gy))
                      for gx, gy in zip(lacks, none))
    return shows, lacks, carries
