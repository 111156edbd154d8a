"""盘锦's discard searches without the drawn jokers a real tile could stand for (issue 38
round 9: ``restrict`` of :func:`webcalc.variants.panjin_draws.unit_panjin_drawn_drops`,
its bits :data:`webcalc.variants.panjin_merge.SUB0`; compiled in ``pj_search``,
``merge_rows`` and ``discards_drawn`` of webcalc/variants/panjin_unit.c and
panjin_hand.c):

- a unit's restricted tables (as held and less one tile, the bits of their drawn masks
  included) are the same compiled and in Python;
- ``discards_drawn`` (every discard of 14) answers as the Python twin searching every target
  (``restrict=False``, the reference), compiled and in Python, for every suit count PJ-4
  can allow, at the distance and one and two above it; so does ``standard_drawn`` (13
  tiles, every limit from below the count to above the distance);
- a hand whose wildcard draw helps only as a joker for a drawn real tile (the 2s of
  1s-2s-3s) still says so."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import webcalc.variants.panjin_draws as PD
from webcalc.shanten import UNITS, hand_caps
from webcalc.variants.panjin_search import _relaxed_bounds, _suit_rests

from .compiled import compiled_only
from .scale import examples
from .test_engine_panjin_discards import _cases
from .test_engine_shanten_exact import situation_of
from .test_panjin_relaxed_bounds import _args, _free
from .test_panjin_suit_bound import (
    ALLOWED,
    _allowing,
    _bits,
    _python,
    discards_case,
    standard_cases,
)


def _run(fn, args, compiled, restrict):
    """``fn(*args)`` compiled (restricted) or in Python, with ``restrict``."""
    if compiled:
        PD.unit_panjin_drawn_drops.cache_clear()
        PD._standard_drawn_compiled.cache_clear()
        return fn(*args, restrict=restrict)
    return _python(lambda *a: fn(*a, restrict=restrict), *args)


@pytest.mark.parametrize("compiled", [
    pytest.param(True, marks=compiled_only), False], ids=["compiled", "python"])
@settings(max_examples=examples(60), deadline=None)
@given(seed=st.integers(0, 2**31), need_real=st.booleans(), above=st.integers(0, 2),
       allowed=st.sampled_from(ALLOWED))
def test_discards_drawn_as_without_the_restriction(compiled, seed, need_real, above,
                                                    allowed):
    case = discards_case(seed, need_real, above, allowed)
    if case is None:
        return
    req, args = case
    want = _run(PD.panjin_discards_drawn, args, False, restrict=False)
    got = _run(PD.panjin_discards_drawn, args, compiled, restrict=True)
    assert got == want, (req, allowed, args[9])


@pytest.mark.parametrize("compiled", [
    pytest.param(True, marks=compiled_only), False], ids=["compiled", "python"])
@settings(max_examples=examples(60), deadline=None)
@given(seed=st.integers(0, 2**31), discard=st.integers(0, 3), need_real=st.booleans(),
       allowed=st.sampled_from(ALLOWED))
def test_standard_drawn_as_without_the_restriction(compiled, seed, discard, need_real,
                                                   allowed):
    for req, args in standard_cases(seed, discard, need_real, allowed):
        want = _run(PD.panjin_standard_drawn, args, False, restrict=False)
        got = _run(PD.panjin_standard_drawn, args, compiled, restrict=True)
        assert got == want, (req, allowed, args[9])


@compiled_only
@settings(max_examples=examples(40), deadline=None)
@given(seed=st.integers(0, 2**31), above=st.integers(0, 2), restrict=st.integers(1, 2),
       allowed=st.sampled_from(ALLOWED))
def test_restricted_tables_compiled_as_python(seed, above, restrict, allowed):
    req = _cases(seed, 1)[0]
    _, sit = situation_of(req)
    if len(sit.jokers) >= len(sit.hand.concealed) - 1:
        return
    base = _allowing(_args(sit, 0, False), allowed)
    free = _free(sit, base)
    if free is None:
        return
    _, caps, room = hand_caps(sit)
    real = tuple(sit.real_counts)
    jokers = len(sit.jokers)
    groups = 4 - len(sit.hand.melds)
    reqs = _suit_rests(real, 0, _bits(base[6]))
    held = [sum(real[a:b]) for a, b, _ in UNITS]
    for u, (a, b, honors) in enumerate(UNITS):
        which = tuple(i for i in range(b - a) if real[a + i])
        args = (real[a:b], tuple(caps[a:b]), a, honors, jokers + room, free + above, jokers,
                groups, sum(held) - 1 - held[u], _relaxed_bounds(real)[1][u], which, reqs[u],
                restrict)
        PD.unit_panjin_drawn_drops.cache_clear()
        got = PD.unit_panjin_drawn_drops(*args)
        want = _python(PD.unit_panjin_drawn_drops, *args)
        assert sorted(got[0]) == sorted(want[0]), (req, u)
        assert ([(i, sorted(t)) for i, t in got[1]]
                == [(i, sorted(t)) for i, t in want[1]]), (req, u)


@pytest.mark.parametrize("compiled", [
    pytest.param(True, marks=compiled_only), False], ids=["compiled", "python"])
def test_a_wildcard_draw_as_a_joker_for_a_drawn_tile(compiled):
    # 456m 123p 13s 666s 78s + 2s held, 7m the wildcard (its real copies capped at 0),
    # no joker held: after the 2s, 123s with a drawn 2s (or a drawn joker) 666s 88s and
    # 456m 123p are two tiles away, and the restricted search never draws that joker
    real = [0] * 34
    for k in (3, 4, 5, 9, 10, 11, 18, 19, 20, 23, 23, 23, 24, 25):
        real[k] += 1
    caps = [4] * 34
    caps[5], caps[6] = 3, 0
    args = (tuple(real), tuple(caps), 0, 4, 0, (0, False, False, False), {3}, False, 0, 2,
            [18, 19, 20, 23, 24, 25], False)
    want = _run(PD.panjin_discards_drawn, args, False, restrict=False)
    got = _run(PD.panjin_discards_drawn, args, compiled, restrict=True)
    assert got == want
    assert want[19] == (2, want[19][1], True)          # a wildcard draw helps
