"""盘锦's count below which its searches need not run, seeing PJ-4..PJ-6 (issue 38): at most
the standard distance :mod:`webcalc.variants.panjin_draws`' searches find, and mostly equal
to it, so a search that starts there rarely ends in ``None`` (a whole search for nothing).

A 盘锦 standard target W (the hand's concealed groups and pair, jokers placed as PJ-2 lets
them) is a standard hand, so what :func:`webcalc.variants.panjin_search._relaxed_bounds`
says of it holds: of its places, ``U`` are not filled by a held real tile, each a drawn
real tile or a joker, and W costs ``r + max(0, x − jokers) ≥ U − jokers`` (``r`` real
tiles drawn, ``x`` jokers placed). More of W is known from the rules:

* PJ-4: W shows a set S of suits (with the melds', a count the room allows). Each suit of
  S that no meld shows holds a group or the pair of W (a real tile sits in a group of its
  suit's unit), so that unit's places are at least its relaxed minimum with ``(0, 0)``
  barred; a suit outside S holds only jokers, 3 places a group and 2 the pair, all
  unfilled; and a suit of S the hand holds no real tile of is a real tile W draws.
* PJ-5: with no 幺九 held or melded, W draws one.
* PJ-6: without a melded 刻, W holds a triplet of real tiles, or a real honor pair as the
  eyes, so draws ``3 − held`` (``2 − held``) real tiles of that kind, and jokers never
  stand in it.

So W costs at least ``max(U_S − jokers, the suits S draws)`` for its S, and at least the
PJ-5 and PJ-6 draws: the count is the least of the first over the allowed S, raised to
the others. Each is a lower bound of every target's cost, hence of the distance (the
searches' answers do not change; they only start higher). It replaces ``max(_lower,
panjin_count_lower)`` — what PJ-4/PJ-5 gave apart from the places — which it is never
below (S as :func:`panjin_count_lower` counts it, U_S at least the unbarred minimum).

Compiled: webcalc/variants/panjin_lower.c ``count_lower`` (the relaxed tables the free-joker
rule sets keep cached and warmed); :func:`_count_lower` is its twin
(tests/test_panjin_lower.py)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from ..compiled import pjunit as _pjunit
from ..shanten import INF, UNITS
from .panjin_search import RCAP, YAOJIU, _min_plus, _unit_free_min, panjin_meld_flags

if TYPE_CHECKING:
    from .base import Situation

#: the places of g groups and p pairs made of jokers only, ``[g * 2 + p]``
_JOKERS_ONLY = tuple(3 * (k >> 1) + 2 * (k & 1) for k in range(10))


def count_lower(sit: Situation, real_caps: Sequence[int], allowed: Collection[int]) -> int | None:
    """At most the 盘锦 standard distance of ``sit`` (see the module doc); ``None``: no
    standard target at all (the searches find none at any limit). ``real_caps``:
    :func:`webcalc.shanten.hand_caps`' real caps of ``sit``; ``allowed``: the suit counts
    PJ-4 allows (:meth:`Panjin.allowed_suit_counts`)."""
    suits0, yj0, trip0, _ = panjin_meld_flags(sit)
    groups = 4 - len(sit.hand.melds)
    mask = 0
    for a in allowed:
        if 0 <= a <= 3:
            mask |= 1 << a
    flags = suits0 | (8 if yj0 else 0) | (16 if trip0 else 0)
    real = sit.real_counts
    if _pjunit is not None and 0 <= groups <= 4:
        try:
            found: int | None = _pjunit.count_lower(real, real_caps, len(sit.jokers), groups,
                                                    mask, flags)
            return found
        except ValueError:            # counts it does not take: the twin answers
            pass
    return _count_lower(tuple(real), tuple(real_caps), len(sit.jokers), groups, mask, flags)


def _closure(m: tuple[int, ...]) -> tuple[int, ...]:
    """A unit's minima ``[g * 2 + p]`` with its own fresh groups (3 places) and pair (2)."""
    out = []
    for g in range(5):
        for p in range(2):
            best = INF
            for g1 in range(g + 1):
                for p1 in range(p + 1):
                    v = m[g1 * 2 + p1]
                    if v < INF:
                        best = min(best, v + 3 * (g - g1) + 2 * (p - p1))
            out.append(best)
    return tuple(out)


def _count_lower(real: tuple[int, ...], caps: tuple[int, ...], jokers: int, groups: int,
                 allowed: int, flags: int) -> int | None:
    """:func:`count_lower` from the counts: ``allowed`` the suit counts as a bit set,
    ``flags`` the melds' suits (bits 0-2), 幺九 (bit 3) and 刻 (bit 4)."""
    f = [_closure(_unit_free_min(real[a:b], (RCAP,) * (b - a), honors, True))
         for a, b, honors in UNITS]
    held = [any(real[a:b]) for a, b, _ in UNITS]
    suits0 = flags & 7
    best = INF
    for s in range(8):
        if not allowed >> bin(s | suits0).count("1") & 1:
            continue
        v = []
        draws = 0
        for u in range(3):
            if suits0 >> u & 1:
                v.append(f[u])                              # shown by a meld
            elif s >> u & 1:
                v.append((INF,) + f[u][1:])                 # a group or the pair there
                draws += not held[u]
            else:
                v.append(_JOKERS_ONLY)                      # jokers only
        places = _min_plus(_min_plus(v[0], v[1]), _min_plus(v[2], f[3]))[groups * 2 + 1]
        if places < INF:
            best = min(best, max(places - jokers, draws))
    if best >= INF:
        return None
    if not flags & 8 and not any(real[k] for k in YAOJIU):
        best = max(best, 1)                                 # PJ-5: a first 幺九 to draw
    if not flags & 16:                                      # PJ-6: the nearest real 刻
        trip = [3 - min(real[k], 3) for k in range(34) if caps[k] >= 3]
        trip += [2 - min(real[k], 2) for k in range(27, 34) if caps[k] >= 2]
        if trip:
            best = max(best, min(trip))
    return best
