"""盘锦's search bounds from the relaxed unit tables (issue 38 round 4): the rest tables its
draw searches prune with, and the count they start from, come from the unit tables with
jokers anywhere and no cap, keyed by the unit's counts alone
(:func:`webcalc.variants.panjin_search._relaxed_bounds`, compiled ``_pjunit.relaxed_rest``)
instead of the tables with the hand's caps. The claims, held against the capped bounds the
searches used before (the existing bounded search), in the compiled part and in the
pure-Python twin alike:

- each relaxed value is at most its capped value (a cap only removes targets), and the
  relaxed count ``whole[groups][1] − jokers`` at most ``free_standard`` and the distance;
- the compiled and the Python relaxed bounds are the same numbers;
- ``standard_drawn`` (13 tiles) and ``discards_drawn`` (every discard of 14) answer the same
  with either bound, at every limit from below the count to above the distance — also
  where :func:`panjin_standard_drawn` now answers ``None`` without searching."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import webcalc.shanten as S
import webcalc.variants.panjin_draws as PD
import webcalc.variants.panjin_search as PS
from tests.scale import examples
from webcalc.shanten import INF, hand_caps
from webcalc.variants import VARIANTS
from webcalc.variants.panjin_search import _flat_rest, panjin_meld_flags

from .compiled import compiled_only
from .test_engine_panjin_discards import _cases
from .test_engine_shanten_exact import situation_of

PANJIN = VARIANTS["panjin"]
COMPILED = PD._pjunit


def _clear():
    for f in (PD.unit_panjin_drawn, PD.unit_panjin_drawn_drops, PD._standard_drawn_compiled,
              PS._rest_places_all, PS._relaxed_bounds, PS._unit_free_min, S.unit_free):
        f.cache_clear()


def _capped(real, caps, any_jokers):
    """The bounds as the searches had them: rest from the capped tables, the count from
    free_standard (``whole`` rebuilt so that ``whole[groups][1] − jokers`` is it)."""
    return PS._rest_places_all(tuple(real), tuple(caps), any_jokers)


def _hands(seed, discard):
    """A 14-tile case and the 13 tiles left by one of its real discards."""
    req = _cases(seed, 1)[0]
    _, sit14 = situation_of(req)
    real = sorted({int(t) for t in sit14.hand.concealed if t not in sit14.wildcards})
    if not real:
        return None
    return req, sit14, sit14.without_tile(real[discard % len(real)])


def _args(sit, limit, need_real):
    _, caps, room = hand_caps(sit)
    jokers = len(sit.jokers)
    return (sit.real_counts, caps, jokers, room, len(sit.hand.melds), panjin_meld_flags(sit),
            PANJIN.allowed_suit_counts(sit), sit.options.piaohu, jokers, limit, need_real)


def _free(sit, base):
    """free_standard of the hand ``base`` (:func:`_args`) describes: None, or the distance
    without 盘锦's flags, which a limit sweep starts below."""
    return S.free_standard(sit.real_counts, base[1], base[2], base[3], base[4])


def _lower_of(sit, base):
    """盘锦's count (PD._lower) of the hand ``base`` (:func:`_args`) describes."""
    return PD._lower(tuple(sit.real_counts), base[2], 4 - base[4])


def _old_bounds(args):
    """Run with the bounds the searches used before: capped rest, no early None."""
    real, caps, jokers, room = args[0], args[1], args[2], args[3]
    rest = _capped(real, caps, jokers + room > 0)
    relaxed, lower = PD._relaxed_bounds, PD._lower
    PD._relaxed_bounds = lambda r: (None, rest)
    PD._lower = lambda r, j, g: 0
    return relaxed, lower


def _restore(saved):
    PD._relaxed_bounds, PD._lower = saved


def _run(fn, args, compiled, old):
    """``fn(*args)`` compiled or in Python, with the relaxed or (``old``) the capped bounds,
    from empty caches."""
    if not compiled:
        for m in (S, PS, PD):
            m._pjunit = None
    _clear()
    saved = _old_bounds(args) if old else None
    try:
        return fn(*args)
    finally:
        if saved:
            _restore(saved)
        for m in (S, PS, PD):
            m._pjunit = COMPILED
        _clear()


@settings(max_examples=examples(150), deadline=None)
@given(st.integers(0, 2**31), st.integers(0, 3))
def test_relaxed_bounds_at_most_the_capped(seed, discard):
    case = _hands(seed, discard)
    if case is None:
        return
    req, sit14, sit = case
    for s in (sit14, sit):
        _, caps, room = hand_caps(s)
        jokers = len(s.jokers)
        real = tuple(s.real_counts)
        whole, rest = PS._relaxed_bounds(real)
        capped = _capped(real, caps, jokers + room > 0)
        for u in range(4):
            for g in range(5):
                for p in range(2):
                    assert rest[u][g][p] <= capped[u][g][p], (req, u, g, p)
        groups = 4 - len(s.hand.melds)
        free = S.free_standard(real, caps, jokers, room, len(s.hand.melds))
        lower = PD._lower(real, jokers, groups)
        if free is not None:
            assert lower is not None and lower <= free, req
        if COMPILED is not None:                        # the twin: the same numbers
            for m in (S, PS, PD):
                m._pjunit = None
            _clear()
            try:
                assert PS._relaxed_bounds(real) == (whole, rest), req
            finally:
                for m in (S, PS, PD):
                    m._pjunit = COMPILED
                _clear()


@pytest.mark.parametrize("compiled", [
    pytest.param(True, marks=compiled_only), False], ids=["compiled", "python"])
@settings(max_examples=examples(60), deadline=None)
@given(seed=st.integers(0, 2**31), discard=st.integers(0, 3), need_real=st.booleans())
def test_standard_drawn_same_with_relaxed_and_capped_bounds(compiled, seed, discard,
                                                            need_real):
    case = _hands(seed, discard)
    if case is None:
        return
    req, _, sit = case
    base = _args(sit, 0, need_real)
    free = _free(sit, base)
    if free is None:
        return
    lower = _lower_of(sit, base)
    assert lower is not None and lower <= free
    found_d = None
    for limit in range(max(0, lower - 1), free + 4):
        args = _args(sit, limit, need_real)
        want = _run(PD.panjin_standard_drawn, args, compiled, old=True)
        got = _run(PD.panjin_standard_drawn, args, compiled, old=False)
        assert got == want, (req, limit)
        if want is not None and found_d is None:
            found_d = want[0]
    if found_d is not None:                          # the count is below the distance
        assert lower <= found_d, req


@pytest.mark.parametrize("compiled", [
    pytest.param(True, marks=compiled_only), False], ids=["compiled", "python"])
@settings(max_examples=examples(60), deadline=None)
@given(seed=st.integers(0, 2**31), need_real=st.booleans(), above=st.integers(0, 2))
def test_discards_drawn_same_with_relaxed_and_capped_bounds(compiled, seed, need_real, above):
    req = _cases(seed, 1)[0]
    _, sit = situation_of(req)
    jokers = len(sit.jokers)
    if jokers >= len(sit.hand.concealed) - 1:
        return
    kinds = sorted({int(t) for t in sit.hand.concealed if t not in sit.wildcards})
    base = _args(sit, 0, need_real)
    free = _free(sit, base)
    if free is None:
        return
    limit = free + above
    args = base[:9] + (limit, kinds, need_real)
    want = _run(PD.panjin_discards_drawn, args, compiled, old=True)
    got = _run(PD.panjin_discards_drawn, args, compiled, old=False)
    assert got == want, (req, limit)
    assert len(got) == len(kinds)


def test_relaxed_bounds_of_a_known_hand():
    """Values the tables fix, for 111m 234m 567p 78s 99s (a cap never binds here): with all
    four units, four groups need no place (111m 234m 567p 789s) and the pair one more 9s;
    without the characters, 567p and 789s need none, the pair one 9s, a third group two
    (the other 9s and two more: 999s) and each fresh group or pair beyond that its places.
    The count the searches start from is that one place (no joker held)."""
    _, sit = situation_of({"variant": "panjin", "hand": "111234m567p7899s"})
    real = tuple(sit.real_counts)
    whole, rest = PS._relaxed_bounds(real)
    assert whole == ((0, 0), (0, 0), (0, 0), (0, 0), (0, 1))
    assert rest[0] == ((0, 0), (0, 0), (0, 1), (2, 4), (5, 7))
    assert rest[3] == whole                          # no honor held: nothing left out
    assert PD._lower(real, 0, 4) == 1
    assert PD._lower(real, 2, 4) == 0                # two jokers would fill that place
    assert whole[4][1] < INF
    assert _flat_rest(rest[0]) == (0, 0, 0, 0, 0, 1, 2, 4, 5, 7)
