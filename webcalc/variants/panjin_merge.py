"""盘锦's drawn searches' merge step (:func:`_merge_drawn`, compiled
webcalc/variants/panjin_merge.c ``merge``), the last step of every discard's search
(:func:`_combine`, compiled in panjin_hand.c ``discards_drawn``), their dominance pruning, and
the lost sets of the restricted searches (:data:`SUB0`). Part of
:mod:`webcalc.variants.panjin_draws`, which runs them.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from ..compiled import pjunit as _pjunit
from .panjin_search import PRES, TRIP, YJ

# The restricted searches (unit_panjin_drawn_drops with ``restrict``, as
# panjin_discards_drawn and panjin_standard_drawn of panjin_draws.py ask them): a target
# that draws a joker where a real tile could stand, its flags and suit count kept, is as
# cheap as that target with the real tile drawn (the same cost, flags and kinds or more),
# so the searches leave it out; what it told, that a wildcard draw lowers the distance,
# is kept in a drawn mask's bits SUB0 + L instead: some cheapest path draws a real tile a
# drawn joker could stand for, and with the joker its flags would lack L (a subset of
# PRES | YJ | TRIP: those that tile alone gives). In the merges L becomes what the whole
# hand would lack (PRES: one suit fewer shown, where the unit's suit counts).
SUB0 = 50
SUBS = 0xFF << SUB0


def _sub_table() -> tuple[tuple[int, ...], ...]:
    """``[gone][F]``: the set of lost sets ``F`` (a bit per ``L``) once the flags
    ``gone`` (three bits) are given again: each ``L`` becomes ``L & ~gone``."""
    out = []
    for gone in range(8):
        row = []
        for F in range(256):
            bits = 0
            for L in range(8):
                if F >> L & 1:
                    bits |= 1 << (L & ~gone)
            row.append(bits)
        out.append(tuple(row))
    return tuple(out)


SUB_CLEAR = _sub_table()


def _sub_clear(m: int, gone: int) -> int:
    """``m`` with its lost sets cleared of the flags ``gone`` (:data:`SUB_CLEAR`)."""
    f = m >> SUB0 & 0xFF
    if not f:
        return m
    return (m & ~SUBS) | SUB_CLEAR[gone & 7][f] << SUB0


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


def _merge_drawn(acc: dict[Any, Any], table: tuple[tuple[int, ...], ...], groups: int,
                 max_x: int, jokers: int, limit: int, counts_suit: bool, want: int,
                 k_u: int) -> dict[Any, Any]:
    """One merge step of :func:`panjin_standard_drawn` (``k_u``: free fillers to come;
    every held joker must still find a place)."""
    if _pjunit is not None:
        try:
            merged: dict[Any, Any] = _pjunit.merge(acc, table, groups, max_x, jokers, limit,
                                                   counts_suit, want, k_u)
            return merged
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
            if m3 & SUBS:
                m3 = _sub_merge(m, m2, f, fl, counts_suit, want)
            old = new.get(key)
            if old is None or r3 < old[0]:
                new[key] = (r3, m3)
            elif r3 == old[0]:
                new[key] = (r3, m3 | old[1])
    return _prune_drawn(new)


def _sub_merge(m: int, m2: int, f: int, fl: int, counts_suit: bool, want: int) -> int:
    """``m | m2`` with their lost sets (:data:`SUB0`) as the merged state sees them:
    ``m``'s (the units merged before, flags ``f``) less the wanted 幺九 and 刻 that ``fl``
    (the unit's row) gives; ``m2``'s (the row's) only those the merged units do not give,
    and PRES only where the unit's suit counts (PJ-4: one suit fewer shown)."""
    keep = (PRES if counts_suit else 0) | (want & ~f & (YJ | TRIP))
    return ((m | m2) & ~SUBS | _sub_clear(m & SUBS, fl & want & (YJ | TRIP))
            | _sub_clear(m2 & SUBS, 7 & ~keep))


def _sub_meets(m: int, n: int, allowed_suits: Collection[int]) -> bool:
    """Whether a lost set of the merged mask ``m`` (:func:`_sub_merge`) leaves a hand of
    ``n`` suits shown within PJ-4..PJ-7: one that lacks nothing, or only one suit."""
    subs = m >> SUB0
    return bool(subs & 1 or subs & 2 and n - 1 in allowed_suits)


def _combine(acc: dict[Any, Any], tables: Sequence[tuple[tuple[int, ...], ...]], groups: int,
             max_x: int, min_jokers: int, allowed_suits: Collection[int], counts_suit: bool,
             want: int, jokers: int, need_real_draw: bool,
             limit: int, restricted: bool = False) -> list[tuple[int, int, bool] | None]:
    """The last step of :func:`panjin_discards_drawn`: ``acc`` (the other three units
    merged, :func:`_merge_drawn`) against each of ``tables`` (the rows of the unit a
    discard touches, one table per discard): per table ``(d, kinds bit set, a wildcard
    draw lowers it)`` of its cheapest complete targets within ``limit``, read as
    :func:`_drawn_best` reads them, or ``None``. ``restricted`` (the tables of restricted
    searches): a wildcard draw also lowers it when a cheapest target draws a real tile a
    drawn joker could stand for (:data:`SUB0`) and the hand with that joker is as cheap
    and still meets PJ-4..PJ-7. (Compiled within ``discards_drawn``,
    webcalc/variants/panjin_hand.c, with the searches and merges before it.)"""
    by_gp: dict[tuple[int, int], list[Any]] = {}
    for (g, p, x, n, f), v in acc.items():
        by_gp.setdefault((g, p), []).append((x, n, f) + v)
    out: list[tuple[int, int, bool] | None] = []
    for table in tables:
        best, mask, wild = None, 0, False
        for g2, p2, x2, fl, r2, m2 in table:
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
                # or a joker for a drawn real tile: as cheap when every held joker is
                # placed, one is left to draw, a real tile is still drawn for the
                # discard-win rule, and the hand still meets PJ-4..PJ-7
                wild_here = x3 > jokers or (
                    restricted and bool(m3 & SUBS) and jokers <= x3 < max_x
                    and (not need_real_draw or r + r2 >= 2)
                    and _sub_meets(_sub_merge(m, m2, f, fl, counts_suit, want), n + inc,
                                   allowed_suits))
                m3 &= ~SUBS
                if need_real_draw:              # as _drawn_best
                    if r + r2 < 2:
                        m3 = 0
                        if not r + r2:
                            cost += 1
                if cost > limit:
                    continue
                if best is None or cost < best:
                    best, mask, wild = cost, m3, wild_here
                elif cost == best:
                    mask |= m3
                    wild = wild or wild_here
        out.append(None if best is None else (best, mask, wild))
    return out
