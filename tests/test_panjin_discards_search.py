"""盘锦's 14-tile searches, issue 38 round 3: what changed is held to what it replaced.

* :func:`webcalc.variants.panjin_draws._standard_distance` (the 14-tile hand's standard
  distance from :func:`panjin_standard_drawn`, merges compiled) equals
  :func:`webcalc.variants.panjin_search.panjin_missing`'s ``"standard"`` (the bounded
  search merged in Python, as :func:`discards_search` asked before), with and without the
  discard-win rule.
* ``_pjunit.discards_drawn`` (webcalc/variants/panjin_hand.c: every discard's search,
  merges and :func:`_combine` in one call) equals :func:`panjin_discards_drawn`'s Python
  body (the whole search in Python), and :func:`_combine`, its last step, reads values the
  rules fix (the discard-win rule with 0, 1 and 2 real tiles drawn, jokers beyond the held
  ones, suit counts PJ-4 refuses, missing flags).

Hands: Hypothesis draws the seed of tests/test_engine_panjin_discards.py's case maker
(random 盘锦 hands of 14 tiles, near-complete and random, with melds, 0-8 wildcards)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import webcalc.shanten as S
import webcalc.variants.panjin_draws as PD
import webcalc.variants.panjin_search as PS
from tests.scale import examples
from webcalc.shanten import hand_caps
from webcalc.variants import VARIANTS
from webcalc.variants.panjin_search import panjin_meld_flags, panjin_missing

from .test_engine_panjin_discards import _cases
from .test_engine_shanten_exact import situation_of

PANJIN = VARIANTS["panjin"]
COMPILED = PD._pjunit


def _situation(seed, win_by):
    req = _cases(seed, 1)[0]
    _, sit = situation_of({**req, "win_by": win_by} if win_by else req)
    return sit


@settings(max_examples=examples(300), deadline=None)
@given(st.integers(0, 2**31), st.sampled_from((None, "discard")))
def test_standard_distance_equals_panjin_missing(seed, win_by):
    sit = _situation(seed, win_by)
    if len(sit.jokers) >= len(sit.hand.concealed) - 1:
        return                                   # discards_search does not ask (one by one)
    allowed = PANJIN.allowed_suit_counts(sit)
    _, caps, room = hand_caps(sit)
    want = panjin_missing(sit, allowed, seven_pairs=False).get("standard")
    assert PD._standard_distance(sit, allowed, caps, room) == want


def _discards(sit, limit_above):
    allowed = PANJIN.allowed_suit_counts(sit)
    _, caps, room = hand_caps(sit)
    jokers = len(sit.jokers)
    d14 = PD._standard_distance(sit, allowed, caps, room)
    kinds = sorted({int(t) for t in sit.hand.concealed if t not in sit.wildcards})
    return PD.panjin_discards_drawn(
        sit.real_counts, caps, jokers, room, len(sit.hand.melds), panjin_meld_flags(sit),
        allowed, sit.options.piaohu, jokers, (d14 or 0) + limit_above, kinds,
        sit.win_by == "discard")


@pytest.mark.skipif(COMPILED is None, reason="webcalc._pjunit not built (or ruled out)")
@settings(max_examples=examples(150), deadline=None)
@given(st.integers(0, 2**31), st.sampled_from((None, "discard")), st.integers(0, 2))
def test_discards_at_once_same_compiled_and_in_python(seed, win_by, above):
    sit = _situation(seed, win_by)
    if len(sit.jokers) >= len(sit.hand.concealed) - 1:
        return
    compiled = _discards(sit, above)
    for m in (S, PS, PD):
        m._pjunit = None
    _clear()                                     # no table the compiled search made
    try:
        python = _discards(sit, above)
    finally:
        for m in (S, PS, PD):
            m._pjunit = COMPILED
        _clear()
    assert compiled == python


def _clear():
    for f in (PD.unit_panjin_drawn, PD.unit_panjin_drawn_drops, PS._rest_places_all,
              PS._unit_free_min, S.unit_free):
        f.cache_clear()


def test_combine_reads_the_discard_win_rule():
    """Values the rules fix: one target, 4 groups and the pair done, no joker: it costs its
    real draws r; with the discard-win rule (PJ-2, C-9) a target drawing nothing real costs
    one more and a target drawing one real tile lowers nothing by that tile alone
    (:func:`_drawn_best`)."""
    acc = {(4, 0, 0, 2, 14): (0, 0)}
    for r, need_real, want in ((0, False, (0, 0, False)), (0, True, (1, 0, False)),
                               (1, False, (1, 1 << 5, False)), (1, True, (1, 0, False)),
                               (2, True, (2, 1 << 5 | 1 << 6, False))):
        mask = 0 if r == 0 else (1 << 5 if r == 1 else 1 << 5 | 1 << 6)
        table = ((0, 1, 0, 1, r, mask),)
        assert PD._combine(acc, [table], 4, 4, 0, {2}, False, 14, 0, need_real,
                           5) == [want], (r, need_real)
    # a suit count PJ-4 refuses, a flag missing, over the limit: no target
    table = ((0, 1, 0, 1, 1, 1),)
    assert PD._combine(acc, [table], 4, 4, 0, {3}, False, 14, 0, False, 5) == [None]
    assert PD._combine({(4, 0, 0, 2, 6): (0, 0)}, [table], 4, 4, 0, {2}, False, 14, 0,
                       False, 5) == [None]
    assert PD._combine(acc, [table], 4, 4, 0, {2}, False, 14, 0, False, 0) == [None]
    # a joker beyond the one held costs one more and is a wildcard draw
    assert PD._combine({(4, 0, 1, 2, 14): (0, 0)}, [((0, 1, 1, 1, 0, 0),)], 4, 4, 1, {2},
                       False, 14, 1, False, 5) == [(1, 0, True)]



@settings(max_examples=examples(300), deadline=None)
@given(st.integers(0, 2**31), st.sampled_from((None, "discard")))
def test_discards_search_from_the_looser_count_equals_that_at_d14(seed, win_by):
    """Round 5: :func:`discards_search` first searches every discard one above the looser
    count (d14 unsearched) and keeps that when every discard has a result there: the bound
    it gives (d14 or d14 + 1) is one every discard is within, and each discard's result is
    the one at d14 + 1 (as it searched before); ``-1`` exactly when no standard target
    exists."""
    sit = _situation(seed, win_by)
    if len(sit.jokers) >= len(sit.hand.concealed) - 1:
        return
    bound, pre = PD.discards_search(sit, PANJIN.allowed_suit_counts(sit))
    allowed = PANJIN.allowed_suit_counts(sit)
    _, caps, room = hand_caps(sit)
    d14 = PD._standard_distance(sit, allowed, caps, room)
    if d14 is None:
        assert (bound, pre) == (-1, {})
        return
    assert bound is not None and d14 <= bound <= d14 + 1
    assert pre == _discards(sit, 1)
    assert all(v is not None and v[0] <= bound for v in pre.values())
