"""盘锦's 14-tile searches, issue 38 round 3: what changed is held to what it replaced.

* :func:`webcalc.variants.panjin_draws._standard_distance` (the 14-tile hand's standard
  distance from :func:`panjin_standard_drawn`, merges compiled) equals
  :func:`webcalc.variants.panjin_search.panjin_missing`'s ``"standard"`` (the bounded
  search merged in Python, as :func:`discards_search` asked before), with and without the
  discard-win rule.

Hands: Hypothesis draws the seed of tests/test_engine_panjin_discards.py's case maker
(random 盘锦 hands of 14 tiles, near-complete and random, with melds, 0-8 wildcards)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import webcalc.variants.panjin_draws as PD
from webcalc.shanten import hand_caps
from webcalc.variants import VARIANTS
from webcalc.variants.panjin_search import panjin_missing

from .test_engine_panjin_discards import _cases
from .test_engine_shanten_exact import situation_of

PANJIN = VARIANTS["panjin"]


def _situation(seed, win_by):
    req = _cases(seed, 1)[0]
    _, sit = situation_of({**req, "win_by": win_by} if win_by else req)
    return sit


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**31), st.sampled_from((None, "discard")))
def test_standard_distance_equals_panjin_missing(seed, win_by):
    sit = _situation(seed, win_by)
    if len(sit.jokers) >= len(sit.hand.concealed) - 1:
        return                                   # discards_search does not ask (one by one)
    allowed = PANJIN.allowed_suit_counts(sit)
    _, caps, room = hand_caps(sit)
    want = panjin_missing(sit, allowed, seven_pairs=False).get("standard")
    assert PD._standard_distance(sit, allowed, caps, room) == want

