"""盘锦's drawn searches with a bound that sees PJ-4's suit count (issue 38 round 7,
:func:`webcalc.variants.panjin_search._suit_rests` / ``_suit_bounds``, compiled
``suit_req`` and the bounds of ``pj_search`` in webcalc/variants/panjin_hand.c and
panjin_unit.c):

- the rest tables that see the count are the same numbers compiled and in Python, and on a
  hand with a suit held nowhere they ask for that suit's group or pair;
- a unit's drawn tables (as held and less one tile) are the same compiled and in Python;
- ``standard_drawn`` (13 tiles, every limit from below the count to above the distance) and
  ``discards_drawn`` (every discard of 14) answer as without the new bound (the Python twin
  without it the reference), compiled and in Python, for every suit count PJ-4 can allow
  and the melds' suits as drawn."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import webcalc.shanten as S
import webcalc.variants.panjin_draws as PD
import webcalc.variants.panjin_search as PS
from webcalc.shanten import INF, UNITS, hand_caps
from webcalc.variants.panjin_search import _relaxed_bounds, _yj_flags

from .compiled import compiled_only
from .scale import examples
from .test_engine_panjin_discards import _cases
from .test_engine_shanten_exact import situation_of
from .test_panjin_relaxed_bounds import _args, _clear, _free, _hands, _lower_of

COMPILED = PD._pjunit

# the suit counts PJ-4 allows: three suits; 断门 (exactly two); 清一色 also (one or three);
# and two other sets the searches must take as well
ALLOWED = [None, (3,), (2,), (1, 3), (2, 3), (0, 1, 2, 3)]


def _bits(allowed):
    return sum(1 << s for s in set(allowed))


def _python(fn, *args):
    """``fn(*args)`` with the compiled part ruled out, from empty caches."""
    for m in (S, PS, PD):
        m._pjunit = None
    _clear()
    try:
        return fn(*args)
    finally:
        for m in (S, PS, PD):
            m._pjunit = COMPILED
        _clear()


def _allowing(base, allowed):
    """:func:`_args`' arguments with the suit counts ``allowed`` (None: the hand's own)."""
    return base if allowed is None else base[:6] + (allowed,) + base[7:]


def _run(fn, args, compiled, suit):
    """``fn(*args)`` compiled or in Python; ``suit`` false: the Python twin without the
    suit bound (no ``req``: the bound as before), the reference."""
    if not suit:
        saved = PD._suit_rests
        PD._suit_rests = lambda real, suits0, allowed: (None,) * 4
        try:
            return _python(fn, *args)
        finally:
            PD._suit_rests = saved
    if not compiled:
        return _python(fn, *args)
    _clear()
    try:
        return fn(*args)
    finally:
        _clear()


def test_suit_rests_of_a_hand_without_one_suit():
    """789p 334455s 9s 白白白 (no 万): with three suits to show, the other units of 筒 must
    show 万 as well as 索, so they make at least two groups or a group and the pair, and
    万's costs its two or three places; ending without 筒 is out (``INF``). For the
    honors, who count no suit, both halves are alike and every target pays 万's pair."""
    real = [0] * 34
    for k, c in ((15, 1), (16, 1), (17, 1), (20, 2), (21, 2), (22, 2), (26, 1), (33, 3)):
        real[k] = c
    reqs = PS._suit_rests(tuple(real), 0, _bits((3,)))
    pin0, pin1 = reqs[1][:10], reqs[1][10:]
    assert pin0 == (INF,) * 10
    # [g * 2 + p]: (0, 0), (0, 1), (1, 0) cannot show two suits; (1, 1): a fresh 万 pair
    # and 345s (2 places; a 万 group and 33s would be 3); (2, 0): a fresh 万 group, 345s
    assert pin1[:3] == (INF, INF, INF)
    assert pin1[3] == 2 and pin1[4] == 3
    honors0, honors1 = reqs[3][:10], reqs[3][10:]
    assert honors0 == honors1
    assert honors1[:5] == (INF,) * 5              # 万, 筒 and 索 shown: three at least
    assert honors1[5] == 2                        # (2, 1): 万 pair, 789p, 345s
    # without the count (any number of suits) the rests are the relaxed ones
    whole, rest = _relaxed_bounds(tuple(real))
    free = PS._suit_rests(tuple(real), 0, _bits((0, 1, 2, 3)))
    for u in range(4):
        flat = PS._flat_rest(rest[u])
        assert free[u][:10] == free[u][10:] == flat
        # the count only ever asks more
        for k in range(20):
            assert reqs[u][k] >= flat[k % 10]


@compiled_only
@settings(max_examples=examples(150), deadline=None)
@given(st.integers(0, 2**31), st.integers(0, 3), st.sampled_from(ALLOWED[1:]),
       st.integers(0, 7))
def test_suit_rests_compiled_equal_twin(seed, discard, allowed, suits0):
    case = _hands(seed, discard)
    if case is None:
        return
    _, sit14, sit = case
    for s in (sit14, sit):
        real = tuple(s.real_counts)
        got = COMPILED.suit_rests(real, suits0, _bits(allowed))
        assert got == PS._suit_rests(real, suits0, _bits(allowed)), (real, suits0, allowed)


@compiled_only
@settings(max_examples=examples(60), deadline=None)
@given(st.integers(0, 2**31), st.integers(0, 3), st.sampled_from(ALLOWED[1:]),
       st.integers(0, 3))
def test_unit_tables_compiled_equal_twin(seed, discard, allowed, above):
    """A unit's drawn tables with the suit bound: the compiled search and the Python twin
    give the same rows (as held, and less one tile at each kind it holds)."""
    case = _hands(seed, discard)
    if case is None:
        return
    _, sit14, _ = case
    _, caps, room = hand_caps(sit14)
    real = tuple(sit14.real_counts)
    jokers = len(sit14.jokers)
    groups = 4 - len(sit14.hand.melds)
    reqs = PS._suit_rests(real, 0, _bits(allowed))
    lower = PD._lower(real, jokers, groups)
    if lower is None:
        return
    limit = lower + above
    held = [sum(real[a:b]) for a, b, _ in UNITS]
    for u, (a, b, honors) in enumerate(UNITS):
        args = (real[a:b], tuple(caps[a:b]), a, honors, jokers + room, limit, jokers, groups,
                sum(held) - held[u], _relaxed_bounds(real)[1][u])
        got = PD.unit_panjin_drawn(*args, reqs[u])
        want = _python(PD.unit_panjin_drawn, *args, reqs[u])
        assert sorted(got) == sorted(want), (real, u, limit)
        which = tuple(i for i in range(b - a) if real[a + i])
        got2 = PD.unit_panjin_drawn_drops(*args, which, reqs[u])
        want2 = _python(PD.unit_panjin_drawn_drops, *args, which, reqs[u])
        assert sorted(got2[0]) == sorted(want2[0]), (real, u, limit)
        assert ([(i, sorted(t)) for i, t in got2[1]]
                == [(i, sorted(t)) for i, t in want2[1]]), (real, u, limit)
        # the search's own yaojiu flags are those of its kinds
        assert len(_yj_flags(a, b - a)) == b - a


@pytest.mark.parametrize("compiled", [
    pytest.param(True, marks=compiled_only), False], ids=["compiled", "python"])
@settings(max_examples=examples(80), deadline=None)
@given(seed=st.integers(0, 2**31), discard=st.integers(0, 3), need_real=st.booleans(),
       allowed=st.sampled_from(ALLOWED))
def test_standard_drawn_as_without_the_suit_bound(compiled, seed, discard, need_real,
                                                   allowed):
    for req, args in standard_cases(seed, discard, need_real, allowed):
        want = _run(PD.panjin_standard_drawn, args, compiled, suit=False)
        got = _run(PD.panjin_standard_drawn, args, compiled, suit=True)
        assert got == want, (req, allowed, args[9])


def standard_cases(seed, discard, need_real, allowed):
    """A fresh 13-tile 盘锦 hand of ``seed`` (:func:`_hands`, less the tile ``discard``
    picks) as ``(request, panjin_standard_drawn's arguments)`` at every limit from one
    below its count to two above its free-joker count, the suit counts ``allowed``; none
    for a hand without a standard target."""
    case = _hands(seed, discard)
    if case is None:
        return
    req, _, sit = case
    base = _allowing(_args(sit, 0, need_real), allowed)
    free = _free(sit, base)
    if free is None:
        return
    lower = _lower_of(sit, base)
    assert lower is not None
    for limit in range(max(0, lower - 1), free + 3):
        yield req, base[:9] + (limit, need_real)


@pytest.mark.parametrize("compiled", [
    pytest.param(True, marks=compiled_only), False], ids=["compiled", "python"])
@settings(max_examples=examples(40), deadline=None)
@given(seed=st.integers(0, 2**31), need_real=st.booleans(), above=st.integers(0, 2),
       allowed=st.sampled_from(ALLOWED))
def test_discards_drawn_as_without_the_suit_bound(compiled, seed, need_real, above, allowed):
    case = discards_case(seed, need_real, above, allowed)
    if case is None:
        return
    req, args = case
    want = _run(PD.panjin_discards_drawn, args, compiled, suit=False)
    got = _run(PD.panjin_discards_drawn, args, compiled, suit=True)
    assert got == want, (req, allowed, args[9])
    assert len(got) == len(args[10])


def discards_case(seed, need_real, above, allowed):
    """A fresh 14-tile 盘锦 hand of ``seed`` (:func:`_cases`) as ``(request,
    panjin_discards_drawn's arguments)``: every real kind it holds, the limit ``above`` its
    free-joker count, the suit counts ``allowed``; ``None`` for a hand of (nearly) only
    wildcards or without a standard target."""
    req = _cases(seed, 1)[0]
    _, sit = situation_of(req)
    if len(sit.jokers) >= len(sit.hand.concealed) - 1:
        return None
    kinds = sorted({int(t) for t in sit.hand.concealed if t not in sit.wildcards})
    base = _allowing(_args(sit, 0, need_real), allowed)
    free = _free(sit, base)
    if free is None:
        return None
    return req, base[:9] + (free + above, kinds, need_real)
