"""Hand efficiency (牌理, API.md "Hand efficiency"): the draws that lower the
shanten (有效牌 / 进张), and for a 14-tile hand the same for every discard.

A draw ``k`` of a 13-tile hand H is *useful* when the 14-tile hand ``H + k`` is nearer to
ready than H: ``shanten(H + k) < shanten(H)`` (C-12, exact: :mod:`webcalc.shanten`; for a
ready hand that is a wait). Only kinds with a live copy are drawn (C-9); ``remaining`` is
counted as for waits (visible tiles and the indicator subtracted, never below 0; for a
14-tile hand's discards the discarded tile too, C-9 as amended).

In terms of distances (``d`` = tiles a nearest complete hand holds beyond the hand's,
shanten = ``d − 1``), ``k`` is useful exactly when ``d(H + k) < d(H)``. For the variants
whose wildcards may stand anywhere (``Variant.free_joker_search``) :class:`FreeOracle` answers it
for all 34 kinds at once, per unit: a draw changes one unit, and since ``d(H + k)`` is
``d(H)`` or ``d(H) − 1``, the question is only whether some target lies within
``d(H) − 1`` — one bounded fold of that unit (every draw into it together) against the
other units merged (:func:`webcalc.shanten.free_unit_draws`). For a 14-tile hand's
discards the merged units are the 14-tile hand's own, and the discard's distance is the
hand's ``d`` or ``d + 1`` (one more bounded fold), so no unit table is built per discard
or per draw. A ready hand's useful draws are its waits (C-12), taken from the caller when
it has them. A rule set with its own search keeps, in the search that finds a hand's
distance, the kinds its nearest targets draw, so it does not search per draw either: it is
asked once per hand (:meth:`~webcalc.variants.base.Variant.useful_search`, and for a
14-tile hand's discards :meth:`~webcalc.variants.base.Variant.discards_search`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import permutations
from typing import Any, NamedTuple

from .compiled import pjunit as _pjunit
from .decompose import KNITTED_RUNS, TERMINALS_AND_HONORS
from .draws import compiled_draws  # noqa: F401  (re-exported: efficiency.compiled_draws)
from .shanten import (
    INF,
    RELAXED_CAPS,
    UNITS,
    _finish_free,
    _merge_free,
    free_unit_draws,
    free_unit_states,
    hand_caps,
    unit_free,
)
from .tiles import ALL_TILES, CODES, Tile
from .variants.base import Situation, Variant
from .waits import Discard, Wait, river

_UNIT_OF = [0] * 9 + [1] * 9 + [2] * 9 + [3] * 7
SMALL_UNIT = 2            # units of fewer tiles: a draw's unit table is built (and cached)
_ORPHANS = frozenset(TERMINALS_AND_HONORS)


class Useful(NamedTuple):
    """The useful draws of a 13-tile hand: its ``shanten`` (``None``: never ready) and the
    ``useful`` kinds with their remaining copies."""

    shanten: int | None
    useful: tuple[Wait, ...]

    @property
    def total(self) -> int:
        return sum(w.remaining for w in self.useful)

    def to_dict(self) -> dict[Any, Any]:
        return {"shanten": self.shanten, "useful": [w.to_dict() for w in self.useful],
                "useful_total": self.total}


# -- a fast oracle for the free-joker variants -----------------------------------------------

def _slot_costs(c: int, cap: int) -> tuple[int, ...]:
    """七对 pair slots of one kind (as :func:`webcalc.shanten.seven_pairs_plain`)."""
    if cap < 2:
        return ()
    first = 2 - c if c < 2 else 0
    if cap >= 4:
        return first, (4 - c if c > 2 else 2)
    return (first,)


def _free_shapes(variant: Variant, sit: Situation, kinds: int) -> frozenset[str]:
    """The shapes beside the standard one that the variant's ``missing_by_shape`` counts
    (the shapes it opts into): :meth:`~webcalc.variants.base.Variant.distance_shapes`."""
    return variant.distance_shapes(sit, kinds) or frozenset()


# -- the same, compiled: :func:`webcalc.draws.compiled_draws` (its own module, so that
# waits.py can use it without importing this one)


class FreeOracle:
    """``d(H + k)`` for each kind ``k`` of a hand of the free-joker variants, built once.

    Knows the shapes the variant's :meth:`~webcalc.variants.base.Variant.missing_by_shape`
    counts: standard (per-suit tables), 七对 as themselves, 四混, 十三不靠, 十三幺.
    """

    parent: FreeOracle | None
    tables: list[tuple[tuple[int, int, int, int], ...]] | None
    rest: list[list[list[int]]] | None
    changed: int | None

    def __init__(self, variant: Variant, sit: Situation, kinds: int,
                 parent: FreeOracle | None = None, discard: int | None = None,
                 relaxed: bool = False):
        """``parent``, ``discard``: ``sit`` is the 14-tile hand of ``parent`` less a tile of
        kind ``discard``; the units it shares with that hand are not searched again (its
        standard distance is the parent's or one more, decided by one bounded search).
        ``relaxed`` (only with wildcards in play): the unit tables without caps
        (:data:`~webcalc.shanten.RELAXED_CAPS`), answers that :meth:`exact` says whether
        they stand for the hand's; a parent and its discards' oracles are both relaxed or
        both not. :func:`free_oracle` makes the oracle a hand is asked with."""
        self.sit = sit
        shapes = _free_shapes(variant, sit, kinds)
        self.shapes = shapes
        face, real, room = hand_caps(sit, kinds)
        counts = sit.real_counts
        self.jokers = len(sit.jokers)
        any_jokers = self.jokers + room > 0
        self.any_jokers = any_jokers
        self.relaxed = relaxed and any_jokers
        # the real tiles held beyond their caps (0 for a hand within the copy limits)
        self.excess = sum(c - cap for c, cap in zip(counts, real) if c > cap)
        if self.relaxed:
            real = list(RELAXED_CAPS)
        self.face, self.real_caps, self.room = face, real, room
        self.groups = 4 - len(sit.hand.melds)
        self.wild = frozenset(int(w) for w in sit.wildcards)
        self.units = [tuple(counts[a:b]) for a, b, _ in UNITS]
        self.kinds = kinds
        self._seeds: dict[tuple[int, int], dict[Any, Any]] = {}
        self._found: dict[tuple[int, int], set[int]] = {}
        # the unit that differs from the parent's (the discarded kind's), if any
        self.changed = None
        if parent is not None and discard is not None and discard not in self.wild:
            self.changed = _UNIT_OF[discard]
        if parent is not None:
            self.parent = parent
            self.tables = None
            self.simple = False
            self.base = self._base_from(parent)
        else:
            self.parent = None
            self.tables = [unit_free(self.units[i], tuple(real[a:b]), h, any_jokers)
                           if a < kinds else ((0, 0, 0, 0),)
                           for i, (a, b, h) in enumerate(UNITS)]
            # best of the other three units, by (most groups, most pairs) they may give:
            # min of D − 3g − 2p (fresh groups fill the rest at 3 and 2); only when no
            # place needs a joker (q = 0), else the exact merge is used
            self.simple = all(q == 0 for t in self.tables for _, _, q, _ in t)
            self.rest = [self._rest(i) for i in range(4)] if self.simple else None
            self.base = self.standard(None)
        if "seven_pairs" in shapes:
            self.slots = [_slot_costs(sit.counts[k], face[k]) for k in range(34)]
            hist = [0, 0, 0]
            for s in self.slots:
                for v in s:
                    hist[v] += 1
            self.hist = hist
        if "knitted" in shapes:
            c = sit.counts
            self.honors = sum(1 for k in range(27, 34) if c[k])
            self.perms = [frozenset(s * 9 + r for s, ranks in enumerate(p) for r in ranks)
                          for p in permutations(KNITTED_RUNS)]
            self.have = [sum(1 for k in p if c[k]) for p in self.perms]
        if "thirteen_orphans" in shapes:
            c = sit.counts
            self.orph_kinds = sum(1 for k in TERMINALS_AND_HONORS if c[k])
            self.orph_paired = any(c[k] >= 2 for k in TERMINALS_AND_HONORS)

    def _rest(self, skip: int) -> list[list[int]]:
        acc = {(0, 0): 0}
        assert self.tables is not None            # only without a parent
        for i, t in enumerate(self.tables):
            if i == skip:
                continue
            new: dict[tuple[int, int], int] = {}
            for (g, p), d in acc.items():
                for g2, p2, _, d2 in t:
                    g3 = g + g2
                    if g3 > self.groups or p + p2 > 1:
                        continue
                    key = (g3, p + p2)
                    d3 = d + d2
                    if d3 < new.get(key, INF):
                        new[key] = d3
            acc = new
        best = [[INF, INF] for _ in range(5)]
        for (g, p), d in acc.items():
            v = d - 3 * g - 2 * p
            for gg in range(g, 5):
                for pp in range(p, 2):
                    if v < best[gg][pp]:
                        best[gg][pp] = v
        return best

    def standard(self, k: int | None) -> int:
        """Standard-shape distance of H + k (``k`` None: of H)."""
        jokers, room = self.jokers, self.room
        tables = self.tables
        changed = None
        if k is not None:
            if k in self.wild:
                jokers += 1
                room -= 1
            else:
                u = _UNIT_OF[k]
                a, b, h = UNITS[u]
                unit = list(self.units[u])
                unit[k - a] += 1
                changed = u
                table = unit_free(tuple(unit), tuple(self.real_caps[a:b]), h, self.any_jokers)
        G = self.groups
        if self.simple and (changed is None or all(q == 0 for _, _, q, _ in table)):
            assert tables is not None and self.rest is not None      # simple: no parent
            if changed is None:
                u, table = 0, tables[0]
            else:
                u = changed
            rest = self.rest[u]
            best = INF
            for g2, p2, _, d2 in table:
                if g2 > G:
                    continue
                v = d2 - 3 * g2 - 2 * p2 + rest[G - g2][1 - p2]
                if v < best:
                    best = v
            if best >= INF // 2:
                return INF
            total = best + 3 * G + 2
            return total - jokers if total > jokers else 0
        # the other three units' merge is the same for every draw into a unit: made once
        if changed is None:
            acc, table = self._rest_acc(0), self._table(0)
        else:
            acc = self._rest_acc(changed)
        return _finish_last(acc, table, G, jokers, room)

    def _rest_acc(self, skip: int) -> dict[Any, Any]:
        """The merged tables of the units but ``skip`` (``(g, p, q) -> D``), cached."""
        cache: dict[int, dict[Any, Any]] = self.__dict__.setdefault("_rests", {})
        acc = cache.get(skip)
        if acc is None:
            acc = {(0, 0, 0): 0}
            for i in range(4):
                if i != skip:
                    acc = _merge_free(acc, self._table(i), self.groups)
            cache[skip] = acc
        return acc


    def _table(self, i: int) -> tuple[tuple[int, int, int, int], ...]:
        """Unit ``i``'s table (only for a unit the parent's hand shares, or any unit
        without a parent): cached by pattern."""
        if self.tables is not None:
            return self.tables[i]
        a, b, h = UNITS[i]
        if a >= self.kinds:
            return ((0, 0, 0, 0),)
        return unit_free(self.units[i], tuple(self.real_caps[a:b]), h, self.any_jokers)

    def _base_from(self, parent: FreeOracle) -> int:
        """The standard distance of this hand (the parent's less one tile): the parent's
        own ``S`` or ``S + 1`` (one tile more to find), never anything else."""
        s = parent.base
        if s >= INF:
            return INF
        u = self.changed
        if u is None:                   # a wildcard discarded: one joker fewer
            acc = parent._rest_acc(0)
            states = _merge_free(acc, parent._table(0), self.groups)
        else:
            a, b, h = UNITS[u]
            states = free_unit_states(parent._rest_acc(u), self.units[u],
                                      self.real_caps[a:b], h, self.any_jokers, self.groups,
                                      self.jokers, self.room, s)
        best = _finish_free(states, self.groups, self.jokers, self.room)
        return s if best is not None and best <= s else s + 1

    def _seed(self, v: int, limit: int) -> dict[Any, Any]:
        """Every unit but ``v`` merged (the changed one folded in within ``limit``)."""
        acc = self._seeds.get((v, limit))
        if acc is None:
            if self.parent is not None and self.changed is not None and self.changed != v:
                cu = self.changed
                acc = {(0, 0, 0): 0}
                for i in range(4):
                    if i != v and i != cu:
                        acc = _merge_free(acc, self._table(i), self.groups)
                a, b, h = UNITS[cu]
                acc = free_unit_states(acc, self.units[cu], self.real_caps[a:b], h,
                                       self.any_jokers, self.groups, self.jokers, self.room,
                                       limit, sum(self.units[v]) + 1)
            elif self.parent is not None:
                acc = self.parent._rest_acc(v)
            else:
                acc = self._rest_acc(v)
            self._seeds[(v, limit)] = acc
        return acc

    def standard_within(self, k: int, limit: int) -> bool:
        """Is the standard-shape distance of H + k at most ``limit``? (H's own distance is
        ``limit + 1`` or more: ``limit`` is fixed per hand, the bounded searches are cached
        per unit.)"""
        if limit < 0:
            return False
        if k in self.wild:
            # one more joker, one fewer to draw: every target one tile nearer (not below 0)
            return self.base < INF and max(self.base - 1, 0) <= limit
        v = _UNIT_OF[k]
        a, b, h = UNITS[v]
        key = (v, limit)
        found = self._found.get(key)
        if found is None:
            seeds = self._seed(v, limit)
            draws = [i - a for i in range(a, b) if i not in self.wild
                     and self.units[v][i - a] < 4]
            if not seeds:
                found = set()
            elif sum(self.units[v]) < SMALL_UNIT:
                # a unit of few tiles: each draw's table (cached by pattern, shared by
                # every hand and discard with that unit) against the merged others; draws
                # whose tables are equal answer alike
                found = set()
                caps = tuple(self.real_caps[a:b])
                seen: dict[tuple[Any, ...], bool] = {}
                for i in draws:
                    unit = list(self.units[v])
                    unit[i] += 1
                    table = unit_free(tuple(unit), caps, h, self.any_jokers)
                    ok = seen.get(table)
                    if ok is None:
                        ok = seen[table] = _finish_last(seeds, table, self.groups,
                                                        self.jokers, self.room) <= limit
                    if ok:
                        found.add(i)
            else:
                # every draw into unit v in one bounded fold (the others merged once)
                found = free_unit_draws(seeds, self.units[v], self.real_caps[a:b], h,
                                        self.any_jokers, self.groups, self.jokers,
                                        self.room, limit, draws)
            self._found[key] = found
        return k - a in found

    def exact(self) -> bool:
        """Whether this oracle's answers are the hand's: always without :attr:`relaxed`;
        with it (the caps dropped, every target allowed its joker-only places), when the
        relaxed standard distance ``S`` is finite and ``S`` + :attr:`excess` ≤ the wildcard
        tiles left to draw (a target within ``S`` then needs no more joker-only places than
        there are wildcards), or another shape is nearer than ``S`` (then no standard
        distance decides an answer: a draw lowers ``S`` by one at most). webcalc/
        _pjunit_draws.c ``relaxed_exact`` is the same test; its comment gives the proof."""
        if not self.relaxed:
            return True
        s = self.base
        return s < INF and (s + self.excess <= self.room or s > self.distance(None))

    def lowers(self, k: int, d0: int) -> bool:
        """``d(H + k) < d0``, where ``d0`` = ``distance(None)`` (the standard shape only
        searched when H's own standard distance is ``d0``: a draw lowers it by one at most)."""
        if self.base == d0 and self.standard_within(k, d0 - 1):
            return True
        return self._others(k, d0) < d0

    def distance(self, k: int | None) -> int:
        """``d(H + k)`` over the variant's shapes (``k`` None: ``d(H)``)."""
        best = self.base if k is None else self.standard(k)
        return self._others(k, best)

    def _others(self, k: int | None, best: int) -> int:
        """The least of ``best`` and the distances of H + k in the shapes beside the
        standard one."""
        shapes = self.shapes
        c = self.sit.counts
        if "seven_pairs" in shapes:
            hist = self.hist
            if k is not None:
                hist = list(hist)
                for v in self.slots[k]:
                    hist[v] -= 1
                for v in _slot_costs(c[k] + 1, self.face[k]):
                    hist[v] += 1
            need, total = 7, 0
            for v in (0, 1, 2):
                take = min(need, hist[v])
                total += take * v
                need -= take
            if not need and total < best:
                best = total
        if "four_wildcards" in shapes and len(self.sit.hand.melds) <= 3:
            for w in self.wild:
                if self.face[w] < 4:
                    continue
                n = c[w] + (1 if k == w else 0)
                d = max(4 - n, 14 - self.sit.hand.tile_count - (k is not None))
                best = min(best, d)
        if "knitted" in shapes:
            honors = self.honors + (1 if k is not None and k >= 27 and not c[k] else 0)
            have = self.have
            if k is not None and k < 27 and not c[k]:
                have = [h + (k in p) for h, p in zip(have, self.perms)]
            best = min(best, 14 - max(have) - min(5, honors))
        if "thirteen_orphans" in shapes:
            kinds, paired = self.orph_kinds, self.orph_paired
            if k is not None and k in _ORPHANS:
                kinds += not c[k]
                paired = paired or c[k] >= 1
            best = min(best, 14 - kinds - paired)
        return best


def _finish_last(acc: dict[Any, Any], table: tuple[tuple[int, int, int, int], ...],
                 groups: int, jokers: int, room: int) -> int:
    """What :func:`webcalc.shanten.free_standard` finishes with (``_finish_free``) for ``acc``
    (the other units merged) and one more unit ``table``, without building the last merge:
    the fewest tiles to add, or INF."""
    best = INF
    for (g, p, q), d in acc.items():
        for g2, p2, q2, d2 in table:
            g3 = g + g2
            if g3 > groups or p + p2 > 1 or q + q2 - jokers > room:
                continue
            total = d + d2 + 3 * (groups - g3) + 2 * (1 - p - p2)
            cost = total - jokers if total > jokers else 0
            if cost < best:
                best = cost
    return best


def free_oracle(variant: Variant, sit: Situation, kinds: int,
                parent: FreeOracle | None = None, discard: int | None = None) -> FreeOracle:
    """The :class:`FreeOracle` a hand is asked with: relaxed (unit tables keyed by the counts
    alone, shared by every room) when wildcards are in play and :meth:`FreeOracle.exact`
    holds, else one with the caps honoured. ``parent``: a 14-tile hand's oracle from
    :func:`free_oracle_14` (its discards' oracles share its tables)."""
    relaxed = parent.relaxed if parent is not None else True
    oracle = FreeOracle(variant, sit, kinds, parent, discard, relaxed)
    if oracle.exact():
        return oracle
    return FreeOracle(variant, sit, kinds)


def free_oracle_14(variant: Variant, sit: Situation, kinds: int) -> FreeOracle:
    """A 14-tile hand's oracle for its discards' (:func:`free_oracle` with ``parent``):
    relaxed when wildcards are in play (its own answers are not asked)."""
    return FreeOracle(variant, sit, kinds, relaxed=True)


# -- the public functions ----------------------------------------------------------------

def _drawable(kinds: Iterable[int], held: Sequence[int], indicator: Tile | None,
              visible: Sequence[int], kinds_in_play: int) -> tuple[Wait, ...]:
    """The useful draws among ``kinds`` (in the order given) that can still be drawn: a
    kind in play of which the hand and the indicator hold fewer than four, with its copies
    left less those ``visible``."""
    out = []
    for k in kinds:
        gone = held[k] + (k == indicator)
        if k < kinds_in_play and gone < 4:
            out.append(Wait(ALL_TILES[k], max(0, 4 - gone - (visible[k] if visible else 0))))
    return tuple(out)


def useful_draws(variant: Variant, sit: Situation, visible: Sequence[int] = (),
                 kinds_in_play: int = 34, bound: int | None = None,
                 parent: tuple[FreeOracle, int] | None = None,
                 waits: Sequence[int] | None = None,
                 standard: tuple[Any, ...] | None = None) -> Useful:
    """The useful draws of the 13-tile hand of ``sit``, in tile order.

    ``bound``: a distance the hand is known to be within (a rule set's own search: one
    search at it instead of bounded searches from a looser count up; its tables are shared
    by a hand's discards).
    ``parent``: (the free-joker oracle of a 14-tile hand, the kind discarded from it to
    make this one): the units the two share are not searched again. ``waits``: the hand's
    waits as :func:`webcalc.waits.find_waits` gives them (kinds), when the caller has them:
    the free-joker variants then read a ready hand's useful draws off them (C-12: a draw
    makes a ready hand complete exactly when it is a wait) instead of searching.
    ``standard``: ``(result,)`` of the rule set's own search at ``bound`` when the caller
    already has it (:meth:`~webcalc.variants.base.Variant.discards_search`: all of a hand's
    discards at once)."""
    held = sit.hand.held_counts()
    indicator = sit.indicator
    fast = compiled_draws(variant, sit, kinds_in_play) if variant.free_joker_search else None
    if fast is not None:
        # compiled: the kinds whose draw lowers the distance (a ready hand's: its waits)
        d0, mask, _ = fast
        if d0 >= INF:
            return Useful(None, ())
        if d0 == 1 and waits is not None:
            mask = 0
            for k in waits:
                mask |= 1 << k
        ks = []
        mask &= (1 << kinds_in_play) - 1
        while mask:
            low = mask & -mask
            ks.append(low.bit_length() - 1)
            mask ^= low
        return Useful(max(d0 - 1, 0), _drawable(ks, held, indicator, visible, kinds_in_play))
    jokers = len(sit.jokers)
    if not variant.free_joker_search and not (jokers and jokers == len(sit.hand.concealed)):
        # the rule set's own search: the distance and the kinds whose draw lowers it, those
        # with a copy left (in tile order, as from the live kinds below)
        d0, kinds = variant.useful_search(sit, bound, standard)
        if d0 >= INF:
            return Useful(None, ())
        return Useful(max(d0 - 1, 0),
                      _drawable(sorted(kinds), held, indicator, visible, kinds_in_play))
    live = []
    for k in range(kinds_in_play):
        used = held[k] + (1 if k == indicator else 0)
        if used < 4:
            live.append((k, max(0, 4 - used - (visible[k] if visible else 0))))
    oracle = None
    if variant.distance_shapes(sit, kinds_in_play) is not None:
        # (distance_shapes None: the variant counts the hand's shapes itself, below)
        if parent is not None:
            oracle = free_oracle(variant, sit, kinds_in_play, parent[0], parent[1])
        else:
            oracle = free_oracle(variant, sit, kinds_in_play)
        d0 = oracle.distance(None)
    else:
        d0 = min(variant.missing_by_shape(sit).values(), default=INF)
    if d0 >= INF:
        return Useful(None, ())
    if oracle is not None and d0 == 1 and waits is not None:
        ready = set(waits)
        return Useful(0, tuple(Wait(ALL_TILES[k], rem) for k, rem in live if k in ready))
    if oracle is None and d0 == 1 and sit.win_by == "discard":
        # ready for a win that must be a discard (as the own searches read it): its waits
        # (C-12)
        ready = {int(t) for t in variant.winning_kinds(sit)}
        return Useful(0, tuple(Wait(ALL_TILES[k], rem) for k, rem in live if k in ready))
    out = []
    for k, rem in live:
        if oracle is not None:
            better = oracle.lowers(k, d0)
        else:
            # an own search: is some complete hand one tile nearer? (bounded by d0 − 1)
            better = bool(variant.missing_by_shape(_with_tile(sit, k), d0 - 1))
        if better:
            out.append(Wait(ALL_TILES[k], rem))
    return Useful(max(d0 - 1, 0), tuple(out))


def _with_tile(sit: Situation, k: int) -> Situation:
    from .hand import Hand
    return Situation(Hand.of(sit.hand.concealed + (ALL_TILES[k],), sit.hand.melds),
                     sit.wildcards, sit.options, sit.win_by, None, sit.indicator,
                     sit.settlement)


def efficiency(variant: Variant, sit: Situation, visible: Sequence[int] = (),
               kinds_in_play: int = 34, discards: Sequence[Any] | None = None) -> list[dict[Any, Any]]:
    """For a 14-tile hand: one entry per distinct discard the variant allows (``can_discard``),
    ``{"discard", "shanten", "useful", "useful_total"}``, best first — lowest shanten
    (``None``, never ready, last), then most useful copies, then tile order. The copies
    are counted over the 14 tiles: the discarded tile is seen (C-9 as amended,
    :func:`webcalc.waits.river`).

    ``discards``: :func:`webcalc.waits.discard_advice` of the same hand, when the caller has
    it (every discard that leaves a ready hand, with its waits): the free-joker variants
    take a ready discard's useful draws from it."""
    entries = []
    # a rule set with its own search may search every discard at once: ``bound`` is a
    # distance every discard is within, ``pre`` each discard's result at it
    bound: int | None = None
    pre: dict[int, Any] = {}
    tiles = sorted(set(sit.hand.concealed))
    if not variant.free_joker_search:
        bound, pre = variant.discards_search(sit)
        own = None if bound is None else _own_draws(variant, sit, tiles, bound, pre)
        if own is not None:
            return _compiled_entries(variant, sit, visible, kinds_in_play, tiles, own, None)
    parent = None
    fast = compiled_draws(variant, sit, kinds_in_play, tuple(int(t) for t in tiles))
    if fast is None and variant.distance_shapes(sit, kinds_in_play) is not None:
        # the free-joker variants: each discard's hand shares three units with this one
        parent = free_oracle_14(variant, sit, kinds_in_play)
    ready = None
    if (parent is not None or fast is not None) and discards is not None:
        ready = {int(d.tile): [int(w.tile) for w in d.waits] for d in discards}
    if fast is not None:
        return _compiled_entries(variant, sit, visible, kinds_in_play, tiles, fast, ready)
    for t in tiles:
        if not variant.can_discard(sit, t):
            continue
        u = useful_draws(variant, sit.without_tile(t), river(visible, int(t)), kinds_in_play,
                         bound,
                         None if parent is None else (parent, int(t)),
                         None if ready is None else ready.get(int(t), ()),
                         (pre[int(t)],) if int(t) in pre else None)
        entries.append((t, u))
    entries.sort(key=lambda e: (INF if e[1].shanten is None else e[1].shanten,
                                -e[1].total, e[0]))
    return [{"discard": t.code, **u.to_dict()} for t, u in entries]


def _own_draws(variant: Variant, sit: Situation, tiles: list[Tile], bound: int,
               pre: dict[int, Any]) -> list[tuple[int, int, Any]] | None:
    """For a rule set with its own search: per discard in ``tiles`` ``(d, kinds bit set,
    None)`` as :func:`compiled_draws` gives them, from the rule set's ``useful_search`` of
    the discard's 13 tiles at ``bound`` with its result in ``pre`` — the same call
    :func:`useful_draws` makes for it, or its ``discards_useful`` of them all at once — so
    :func:`_compiled_entries` writes the rows without a :class:`Useful` per discard.
    ``None`` (the caller's loop instead) when some discard leaves only wildcards
    (:func:`useful_draws` searches those otherwise)."""
    out: list[tuple[int, int, Any]] = []
    every = variant.discards_useful(sit, bound, pre)
    for t in tiles:
        if not variant.can_discard(sit, t):
            out.append((INF, 0, None))
        elif every is not None and int(t) in every:
            out.append((*every[int(t)], None))
        else:
            break
    else:
        return out
    out = []
    for t in tiles:
        if not variant.can_discard(sit, t):
            out.append((INF, 0, None))
            continue
        rest = sit.without_tile(t)
        jokers = len(rest.jokers)
        if jokers and jokers == len(rest.hand.concealed):
            return None
        k = int(t)
        d, kinds = variant.useful_search(rest, bound, (pre[k],) if k in pre else None)
        mask = 0
        for w in kinds:
            mask |= 1 << w
        out.append((d, mask, None))
    return out


def _compiled_entries(variant: Variant, sit: Situation, visible: Sequence[int], kinds: int,
                      tiles: list[Tile], fast: list[tuple[int, int, Any]],
                      ready: dict[int, list[int]] | None) -> list[dict[str, Any]]:
    """:func:`efficiency`'s entries from :func:`compiled_draws` of every discard: as
    :func:`useful_draws` of each discard's 13 tiles gives them, written out directly. For
    the 13 tiles left by a discard ``t`` a kind is gone when the 14 tiles and the indicator
    hold four of it, ``t`` itself when they hold five; its copies left are the same as for
    the 14 tiles (the discard is seen: C-9 as amended, :func:`webcalc.waits.river`)."""
    discards = []
    for t, (d, mask, _) in zip(tiles, fast):
        if not variant.can_discard(sit, t):
            continue
        if d == 1 and ready is not None:
            mask = 0
            for k in ready.get(int(t), ()):
                mask |= 1 << k
        discards.append((int(t), d, mask))
    held = sit.hand.held_counts()
    indicator = -1 if sit.indicator is None else int(sit.indicator)
    vis = visible if visible else ()
    if _pjunit is not None:
        try:
            rows: list[dict[str, Any]] = _pjunit.own_rows(discards, held, indicator, vis, kinds)
            return rows
        except ValueError:        # counts it does not take: the twin answers
            pass
    return _entry_rows(discards, held, indicator, vis, kinds)


def _entry_rows(discards: list[tuple[int, int, int]], held: Sequence[int], indicator: int,
                visible: Sequence[int], kinds: int) -> list[dict[str, Any]]:
    """:func:`_compiled_entries`' rows from ``(t, d, kinds bit set)`` per discard allowed
    (``held``: the 14 tiles' counts, melds included; ``indicator``: its kind or -1;
    ``visible``: 34 counts or none). Compiled: webcalc/_pjunit_rows.c ``own_rows``;
    tests/test_pjunit_own_rows.py holds the two equal.

    Each discard's kinds narrowed to the live ones first; then one ``{"tile", "remaining",
    "dead"}`` dict per kind some row lists, shared by every row that lists it (as
    _pjunit_rows.c's rows: the API encodes the same JSON; read them, never change them)."""
    live = 0
    for k in range(kinds):
        if held[k] + (k == indicator) < 4:
            live |= 1 << k
    masks: list[int] = []
    union = 0
    for t, d, mask in discards:
        if d < INF:
            if t < kinds and held[t] + (t == indicator) < 5:
                mask &= live | 1 << t
            else:
                mask &= live
            union |= mask
        masks.append(mask)
    cells = []                    # per kind some row lists, in tile order: (bit, dict, left)
    k = 0
    while union >> k:
        if union >> k & 1:
            left = 4 - held[k] - (k == indicator) - (visible[k] if visible else 0)
            left = left if left > 0 else 0
            cells.append((1 << k, {"tile": CODES[k], "remaining": left, "dead": left == 0},
                          left))
        k += 1
    entries: list[tuple[int, int, int, dict[str, Any]]] = []
    for (t, d, _), mask in zip(discards, masks):
        if d >= INF:
            entries.append((INF, 0, t, {"discard": CODES[t], "shanten": None, "useful": [],
                                        "useful_total": 0}))
            continue
        useful = []
        total = 0
        for bit, cell, left in cells:
            if mask & bit:
                useful.append(cell)
                total += left
        shanten = d - 1 if d > 1 else 0
        entries.append((shanten, -total, t, {"discard": CODES[t], "shanten": shanten,
                                             "useful": useful, "useful_total": total}))
    entries.sort(key=lambda e: e[:3])
    return [e[3] for e in entries]


#: each tile by its canonical code (:data:`webcalc.tiles.CODES`), the form the rows hold
_TILE_OF_CODE: dict[str, Tile] = {CODES[k]: ALL_TILES[k] for k in range(len(CODES))}


def ready_discards(entries: list[dict[str, Any]]) -> list[Discard]:
    """:func:`webcalc.waits.discard_advice` read off :func:`efficiency`'s rows: each discard
    whose row is ready (shanten 0), its useful draws as its waits (C-12: a ready hand's
    useful draws are exactly its waits, the kinds with a live copy that complete it), in
    the same order (most unseen copies, then most kinds, then tile order)."""
    tile = _TILE_OF_CODE           # the rows' codes are canonical: no parsing them back
    out = [Discard(tile[e["discard"]],
                   tuple([Wait(tile[w["tile"]], w["remaining"]) for w in e["useful"]]))
           for e in entries if e["shanten"] == 0]
    out.sort(key=lambda d: (-d.remaining, -len(d.waits), d.tile))
    return out


def ready_discard_rows(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The API's ``discards`` rows of :func:`ready_discards` (``[d.to_dict() for d in
    ready_discards(entries)]``), written from :func:`efficiency`'s rows without a
    :class:`Discard` or :class:`Wait` between: a ready row's useful draws are its waits, the
    same ``{"tile", "remaining", "dead"}`` dicts (read them, never change them)."""
    tile = _TILE_OF_CODE
    out = []
    for e in entries:
        if e["shanten"] == 0:
            waits = list(e["useful"])
            remaining = sum([w["remaining"] for w in waits])
            out.append((-remaining, -len(waits), tile[e["discard"]],
                        {"discard": e["discard"], "waits": waits, "remaining": remaining}))
    out.sort(key=lambda r: r[:3])
    return [r[3] for r in out]
