"""盘锦's searches prune with the places the sequences carry (issue 38 round 6): after a unit's
kind ``i``, the sequences begun at ``i − 1`` and ``i`` have places at ``i + 1`` and ``i + 2``
that only the tiles held there fill
(:func:`webcalc.variants.panjin_search._carried_bound`, the same in the compiled search,
webcalc/variants/panjin_unit.c). The bound the searches had counted the tiles held after
``i`` wherever they are. The claims:

- the new bound is at least the old one, and is what the tiles determine on known states;
- ``standard_drawn`` (13 tiles), ``discards_drawn`` (every discard of 14) and
  ``panjin_standard`` answer the same as with the old bound, compiled and in Python, at
  every limit from below the count to above the distance (the old bound in the Python twin
  is the reference: the compiled part has only the new one; the unit tables of both are
  held equal by tests/test_pjunit.py). The tables themselves may differ from the old
  bound's: a stronger bound also drops some paths to rows that no completion within the
  limit goes through (a row's other paths, or the row itself; a path to a row some
  completion within the limit does go through is never dropped, the bound being a lower
  bound of every completion's cost), so the answers are what is held equal."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import webcalc.shanten as S
import webcalc.variants.panjin_draws as PD
import webcalc.variants.panjin_search as PS
from tests.scale import examples

from .compiled import compiled_only
from .test_engine_panjin_discards import _cases
from .test_engine_shanten_exact import situation_of
from .test_panjin_relaxed_bounds import _args, _clear, _free, _hands, _lower_of

COMPILED = PD._pjunit


def _old_carried(row, b, s, held):
    """The bound before: the tiles after ``i`` counted wherever they are held."""
    return row[b + 2 * s - held[2] + 14]


def _run(fn, args, compiled, old):
    """``fn(*args)`` compiled or in Python (``old``: Python with the old bound), from empty
    caches."""
    if old or not compiled:
        for m in (S, PS, PD):
            m._pjunit = None
    _clear()
    PS.unit_panjin.cache_clear()
    PD.unit_panjin_drawn.cache_clear()
    PD.unit_panjin_drawn_drops.cache_clear()
    if old:
        PS._carried_bound = PD._carried_bound = _old_carried
    try:
        return fn(*args)
    finally:
        PS._carried_bound = PD._carried_bound = _NEW
        for m in (S, PS, PD):
            m._pjunit = COMPILED
        _clear()
        PS.unit_panjin.cache_clear()


_NEW = PS._carried_bound


def test_carried_bound_of_known_states():
    """With no other unit to fill anything (rest all 0, so the count-only bound is
    max(0, open − held)): one 1m held and a sequence begun there (s = 1) needs 2m and 3m;
    two 4m held after it fill neither, so two places stay unfilled, where counting the
    tiles wherever they are said none. Held at 2m and 3m, they fill both."""
    row = PS._suffix_bound(((0, 0),) * 5)[0][0]
    far = (1, 0, 0, 2, 0, 0, 0, 0, 0)
    near = (1, 1, 1, 0, 0, 0, 0, 0, 0)
    assert PS._held_next(far, 0) == (0, 0, 2)
    assert PS._carried_bound(row, 0, 1, PS._held_next(far, 0)) == 2
    assert _old_carried(row, 0, 1, PS._held_next(far, 0)) == 0
    assert PS._carried_bound(row, 0, 1, PS._held_next(near, 0)) == 0
    # a sequence begun one kind back (b = 1) and one here: 3m then 4m and 5m open, one 3m
    # held fills one of the two places at 3m
    mid = (1, 1, 1, 0, 0, 0, 0, 0, 0)
    assert PS._held_next(mid, 1) == (1, 0, 1)
    assert PS._carried_bound(row, 1, 1, PS._held_next(mid, 1)) == 2
    # the last kinds: nothing past the unit's end
    assert PS._held_next(mid, 8) == (0, 0, 0)
    assert PS._held_next(mid, 7) == (0, 0, 0)


@settings(max_examples=examples(300), deadline=None)
@given(st.integers(0, 2**31))
def test_carried_bound_at_least_the_old(seed):
    rng = random.Random(seed)
    rest = tuple((rng.randint(0, 9), rng.randint(0, 9)) for _ in range(5))
    bound = PS._suffix_bound(rest)
    n = rng.choice((7, 9))
    unit = tuple(rng.choice((0, 0, 1, 1, 2, 3, 4)) for _ in range(n))
    while sum(unit) > 14:                             # a hand holds at most 14 tiles
        unit = tuple(max(0, c - 1) for c in unit)
    i = rng.randrange(n)
    held = PS._held_next(unit, i)
    assert held == (unit[i + 1] if i + 1 < n else 0, unit[i + 2] if i + 2 < n else 0,
                    sum(unit[i + 1:]))
    for g in range(5):
        for p in range(2):
            for b in range(5):
                for s in range(5):
                    if b + 2 * s - held[2] > 26:
                        continue
                    assert (PS._carried_bound(bound[g][p], b, s, held)
                            >= _old_carried(bound[g][p], b, s, held)), (unit, i, g, p, b, s)


@pytest.mark.parametrize("compiled", [
    pytest.param(True, marks=compiled_only), False], ids=["compiled", "python"])
@settings(max_examples=examples(60), deadline=None)
@given(seed=st.integers(0, 2**31), discard=st.integers(0, 3), need_real=st.booleans())
def test_standard_drawn_same_with_the_old_bound(compiled, seed, discard, need_real):
    case = _hands(seed, discard)
    if case is None:
        return
    req, _, sit = case
    base = _args(sit, 0, need_real)
    free = _free(sit, base)
    if free is None:
        return
    lower = _lower_of(sit, base)
    assert lower is not None
    for limit in range(max(0, lower - 1), free + 3):
        args = _args(sit, limit, need_real)
        want = _run(PD.panjin_standard_drawn, args, compiled, old=True)
        got = _run(PD.panjin_standard_drawn, args, compiled, old=False)
        assert got == want, (req, limit)
        # panjin_standard (unit_panjin's bounded tables) at the same limit
        std = args[:8] + (need_real, args[8], limit)
        assert (_run(PS.panjin_standard, std, compiled, old=False)
                == _run(PS.panjin_standard, std, compiled, old=True)), (req, limit)


@pytest.mark.parametrize("compiled", [
    pytest.param(True, marks=compiled_only), False], ids=["compiled", "python"])
@settings(max_examples=examples(50), deadline=None)
@given(seed=st.integers(0, 2**31), need_real=st.booleans(), above=st.integers(0, 2))
def test_discards_drawn_same_with_the_old_bound(compiled, seed, need_real, above):
    req = _cases(seed, 1)[0]
    _, sit = situation_of(req)
    if len(sit.jokers) >= len(sit.hand.concealed) - 1:
        return
    kinds = sorted({int(t) for t in sit.hand.concealed if t not in sit.wildcards})
    base = _args(sit, 0, need_real)
    free = _free(sit, base)
    if free is None:
        return
    args = base[:9] + (free + above, kinds, need_real)
    want = _run(PD.panjin_discards_drawn, args, compiled, old=True)
    got = _run(PD.panjin_discards_drawn, args, compiled, old=False)
    assert got == want, (req, free + above)
    assert len(got) == len(kinds)
