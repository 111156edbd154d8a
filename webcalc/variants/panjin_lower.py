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
* PJ-6: without a melded 刻, W holds a triplet of real tiles of some kind k, or a real
  honor pair as the eyes: ``t = 3 − held`` (``2 − held``) real tiles of k drawn, no joker
  among them (PJ-2), and the rest of W — one group fewer, or no pair — is a standard
  target of the hand less those held tiles, its places unfilled at least the relaxed
  minimum ``U_k`` of that hand: W costs at least ``t + max(0, U_k − jokers)``.

So W, with its suits S, costs at least ``U_S − jokers``, the suits S draws, and the
least over the kinds k its 刻 may be of (in a suit S shows, or an honor) of ``t +
max(0, U_k − jokers)``, ``U_k`` with the other suits of S still shown; and at least PJ-5's
draw. The count is the least over the allowed S of the most of the first three, raised to
the fourth. Each is a lower bound of every target's cost, hence of the distance (the
searches' answers do not change; they only start higher). It replaces ``max(_lower,
panjin_count_lower)`` — what PJ-4/PJ-5 gave apart from the places — which it is never
below (S as :func:`panjin_count_lower` counts it, U_S at least the unbarred minimum).

Compiled: webcalc/variants/panjin_lower.c ``count_lower`` (the relaxed tables the free-joker
rule sets keep cached and warmed); :func:`_count_lower` is its twin
(tests/test_panjin_lower.py)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Any

from ..compiled import pjunit as _pjunit
from ..shanten import INF, UNITS
from .panjin_search import RCAP, YAOJIU, _min_plus, _unit_free_min, panjin_meld_flags

if TYPE_CHECKING:
    from .base import Situation

#: :meth:`Panjin.allowed_suit_counts`' answers as bit sets
_MASKS = {frozenset(a): sum(1 << n for n in a) for a in ({3}, {2}, {1, 3}, {1, 2})}
#: the places of g groups and p pairs made of jokers only, ``[g * 2 + p]``
_JOKERS_ONLY = tuple(3 * (k >> 1) + 2 * (k & 1) for k in range(10))


def count_lower(sit: Situation, real_caps: Sequence[int], allowed: Collection[int]) -> int | None:
    """At most the 盘锦 standard distance of ``sit`` (see the module doc); ``None``: no
    standard target at all (the searches find none at any limit). ``real_caps``:
    :func:`webcalc.shanten.hand_caps`' real caps of ``sit``; ``allowed``: the suit counts
    PJ-4 allows (:meth:`Panjin.allowed_suit_counts`)."""
    melds = sit.hand.melds
    flags = 0
    if melds:
        suits0, yj0, trip0, _ = panjin_meld_flags(sit)
        flags = suits0 | (8 if yj0 else 0) | (16 if trip0 else 0)
    groups = 4 - len(melds)
    mask = _MASKS.get(frozenset(allowed)) if type(allowed) is set else None
    if mask is None:
        mask = sum(1 << a for a in set(allowed) if 0 <= a <= 3)
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
    f = [_unit_closure(real, u) for u in range(4)]
    held = [any(real[a:b]) for a, b, _ in UNITS]
    cands = _trip_candidates(real, caps) if not flags & 16 and groups else []
    suits0 = flags & 7
    best = INF
    for s in range(8):
        shown = s | suits0
        if not allowed >> bin(shown).count("1") & 1:
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
        v.append(f[3])
        places = _min_plus(_min_plus(v[0], v[1]), _min_plus(v[2], v[3]))[groups * 2 + 1]
        if places >= INF:
            continue
        c = max(places - jokers, draws)
        if cands:
            c = max(c, _trip_cost(cands, v, shown, groups, jokers))
        best = min(best, c)
    if best >= INF:
        return None
    if not flags & 8 and not any(real[k] for k in YAOJIU):
        best = max(best, 1)                                 # PJ-5: a first 幺九 to draw
    return best


def _trip_candidates(real: tuple[int, ...], caps: tuple[int, ...]) -> list[Any]:
    """PJ-6's candidates ``(unit, size, t, the unit's minima less the held tiles it
    takes)``: a real triplet of each kind that may hold three, a real pair of each honor
    that may hold two (the eyes), ``t`` the real tiles it draws."""
    cands = []
    for k in range(34):
        for size in ((3, 2) if k >= 27 else (3,)):
            if caps[k] < size:
                continue
            used = min(real[k], size)
            less = list(real)
            less[k] -= used
            u = k // 9 if k < 27 else 3
            cands.append((u, size, size - used, _unit_closure(tuple(less), u)))
    return cands


def _trip_cost(cands: list[Any], v: list[tuple[int, ...]], shown: int, groups: int,
               jokers: int) -> int:
    """The least ``t + max(0, U_k − jokers)`` of :func:`_trip_candidates` (``INF``: none):
    the 刻 in a unit the suits ``shown`` show, or the honors; ``v`` the units' minima as the
    suits ask them, its own unit's replaced by the candidate's (shown by the 刻 itself)."""
    trip = INF
    for u, size, t, g in cands:
        if t >= trip or (u < 3 and not shown >> u & 1):
            continue
        w = list(v)
        w[u] = g
        rest = _min_plus(_min_plus(w[0], w[1]), _min_plus(w[2], w[3]))[
            (groups - 1) * 2 + 1 if size == 3 else groups * 2]
        if rest < INF:
            trip = min(trip, t + max(0, rest - jokers))
    return trip


def _unit_closure(real: tuple[int, ...], u: int) -> tuple[int, ...]:
    """Unit ``u``'s relaxed minima of the counts ``real`` (34), with its own fresh groups."""
    a, b, honors = UNITS[u]
    return _closure(_unit_free_min(real[a:b], (RCAP,) * (b - a), honors, True))
