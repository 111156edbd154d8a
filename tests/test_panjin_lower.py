"""盘锦's count its searches start from, seeing PJ-4..PJ-6 (issue 38 round 6,
:func:`webcalc.variants.panjin_lower.count_lower`, compiled ``_pjunit.count_lower``):

- at most the hand's standard distance (the searches' answers cannot change: they only
  start nearer it), ``None`` exactly where no standard target exists;
- never below the count it replaces (``max(_lower, panjin_count_lower)``);
- the compiled count and its Python twin the same number;
- a hand's advice (14 tiles: every discard's 牌理 row, from ``discards_search``; 13: the
  waits, the limit-1 search and the useful draws) the same as from the count it replaces
  (put back), in the compiled part and the pure-Python twin."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import webcalc.shanten as S
import webcalc.variants.panjin as P
import webcalc.variants.panjin_advice as PA
import webcalc.variants.panjin_draws as PD
import webcalc.variants.panjin_lower as PL
import webcalc.variants.panjin_search as PS
from tests.scale import examples
from webcalc.efficiency import efficiency, useful_draws
from webcalc.shanten import hand_caps
from webcalc.variants import VARIANTS
from webcalc.variants.panjin_search import panjin_count_lower, panjin_meld_flags, panjin_missing

from .compiled import COMPILED, compiled_only
from .test_engine_panjin_discards import _cases
from .test_engine_shanten_exact import random_case, situation_of

PANJIN = VARIANTS["panjin"]


def _situations(seed):
    """A 14-tile case and the 13 tiles left by each of two of its discards, and a 13-tile
    case of its own (melds, options and wildcards as the engine tests draw them)."""
    req = _cases(seed, 1)[0]
    _, sit14 = situation_of(req)
    out = [(req, sit14)]
    real = sorted({int(t) for t in sit14.hand.concealed if t not in sit14.wildcards})
    for k in real[:1] + real[-1:]:
        out.append((req, sit14.without_tile(k)))
    req13 = random_case(random.Random(seed), "panjin", 13)
    out.append((req13, situation_of(req13)[1]))
    return out


def _twin(sit, caps, allowed):
    """:func:`PL._count_lower` (the Python twin) with the arguments count_lower gives."""
    suits0, yj0, trip0, _ = panjin_meld_flags(sit)
    mask = sum(1 << a for a in allowed)
    flags = suits0 | (8 if yj0 else 0) | (16 if trip0 else 0)
    return PL._count_lower(tuple(sit.real_counts), tuple(caps), len(sit.jokers),
                           4 - len(sit.hand.melds), mask, flags)


@settings(max_examples=examples(150), deadline=None)
@given(st.integers(0, 2**31))
def test_count_at_most_the_distance_and_never_below_the_old(seed):
    for req, sit in _situations(seed):
        _, caps, room = hand_caps(sit)
        allowed = PANJIN.allowed_suit_counts(sit)
        got = PL.count_lower(sit, caps, allowed)
        assert got == _twin(sit, caps, allowed), req              # compiled == twin
        d = panjin_missing(sit, allowed, seven_pairs=False).get("standard")
        if got is None:
            assert d is None, req
            continue
        old = _old_count(sit, caps, allowed)
        assert old is not None and got >= old, req
        if d is not None:
            assert got <= d, (req, got, d)


def _old_count(sit, caps, allowed):
    """The count the searches started from before: the places (jokers anywhere, no
    PJ-4..PJ-7) or PJ-4/PJ-5's draws, whichever is more."""
    lower = PD._lower(tuple(sit.real_counts), len(sit.jokers), 4 - len(sit.hand.melds))
    return None if lower is None else max(lower, panjin_count_lower(sit, allowed))


def _with_old_count(fn):
    saved = PD.count_lower, P.count_lower, PA.count_lower
    PD.count_lower = P.count_lower = PA.count_lower = _old_count
    try:
        return fn()
    finally:
        PD.count_lower, P.count_lower, PA.count_lower = saved


def _pure(fn, compiled):
    """``fn()`` with the compiled part (``compiled``) or its Python twins only."""
    mods = (S, PS, PD, PL)
    if compiled:
        return fn()
    for m in mods:
        m._pjunit = None
    _clear()
    try:
        return fn()
    finally:
        for m in mods:
            m._pjunit = COMPILED
        _clear()


def _clear():
    for f in (PD.unit_panjin_drawn, PD.unit_panjin_drawn_drops, PD._standard_drawn_compiled,
              PS._rest_places_all, PS._relaxed_bounds, PS._unit_free_min, S.unit_free):
        f.cache_clear()


def _answers(sit):
    """What the hand's advice reads off the searches: 14 tiles, every discard's 牌理 row;
    13, the waits (the limit-1 search) and the useful draws."""
    if sit.hand.tile_count == 14:
        return efficiency(PANJIN, sit)
    return ([int(t) for t in PANJIN.winning_kinds(sit)], PANJIN._ready_search(sit),
            useful_draws(PANJIN, sit), PANJIN.own_advice(sit, 34, ()))


@pytest.mark.parametrize("compiled", [
    pytest.param(True, marks=compiled_only), False], ids=["compiled", "python"])
@settings(max_examples=examples(50), deadline=None)
@given(seed=st.integers(0, 2**31), discard_win=st.booleans())
def test_answers_as_from_the_old_count(compiled, seed, discard_win):
    for req, sit in _situations(seed):
        if discard_win:
            sit = dataclasses.replace(sit, win_by="discard")
        new = _pure(lambda s=sit: _answers(s), compiled)
        old = _pure(lambda s=sit: _with_old_count(lambda: _answers(s)), compiled)
        assert new == old, (req, discard_win)


def test_count_of_known_hands():
    """Values the rules fix. 123456789m 1178p (13 tiles): the relaxed places see one
    missing (123 456 789m 11p 78p+), but PJ-4 wants a bamboo, so a bamboo group (3 places)
    or pair (2) beside three man groups: three, the distance; the old count said 1.
    123456789m 11789p (14): a bamboo pair beside four groups is 2 places (PJ-4), but that
    target has no 刻 (PJ-6): the nearest, 111p, draws one 1p and leaves three groups
    (123 456 789m) and a pair to make of the rest, the bamboo pair's 2 places: 3, the
    distance (the old count 1). 111m 234m 567p 78s 99s has all it needs: the one tile."""
    for hand, old, new, d in (("123456789m1178p", 1, 3, 3), ("123456789m11789p", 1, 3, 3),
                              ("111234m567p7899s", 1, 1, 1)):
        _, sit = situation_of({"variant": "panjin", "hand": hand})
        _, caps, _ = hand_caps(sit)
        allowed = PANJIN.allowed_suit_counts(sit)
        assert _old_count(sit, caps, allowed) == old, hand
        assert PL.count_lower(sit, caps, allowed) == new, hand
        assert _twin(sit, caps, allowed) == new, hand
        assert panjin_missing(sit, allowed)["standard"] == d, hand
