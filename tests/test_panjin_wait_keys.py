"""盘锦's waits priced without a win made per wait (issue 38 round 5): ``Panjin.
wait_score_keys`` (webcalc/variants/panjin_worth.py ``wait_keys``) gives, for a 13-tile hand
and each added tile, the :meth:`Panjin.score_key` of the 14-tile win (清一色, 鸡胡/群鸡, 穷胡 and
the best reading's 飘胡/七对, PJ-10) — for every kind, on hands with melds (kongs included),
0-4 wildcard tiles and every option that changes those 番 — and ``wait_values`` answers the
same with it as without it (one win judged per wait). With ``jiahu`` it answers ``None``
(夹胡 needs each wait's full judgement)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.scale import examples
from webcalc.tiles import ALL_TILES
from webcalc.variants import VARIANTS
from webcalc.worth import _won, hypothetical_settlement, score_key, wait_values

from .test_engine_shanten_exact import random_case, situation_of

PANJIN = VARIANTS["panjin"]


def _before(seed: int, jiahu: bool = False):
    rng = random.Random(seed)
    req = random_case(rng, "panjin", 13)
    req["options"] = {**req["options"], "jihu": rng.random() < 0.5,
                      "qionghu": rng.random() < 0.5, "jiahu": jiahu}
    return situation_of(req)[1], req


def _without_hook(sit, waits):
    cls = type(PANJIN)
    hook = cls.__dict__["wait_score_keys"]
    cls.wait_score_keys = lambda self, before, tiles: None
    try:
        return wait_values(PANJIN, sit, waits)
    finally:
        cls.wait_score_keys = hook


@settings(max_examples=examples(300), deadline=None)
@given(st.integers(0, 2**31))
def test_wait_keys_are_the_wins_score_keys(seed):
    sit, req = _before(seed)
    tiles = list(ALL_TILES)
    keys = PANJIN.wait_score_keys(sit, tiles)
    raw = hypothetical_settlement(sit.settlement, sit.win_by, PANJIN.discard_win_fields)
    assert keys == [score_key(PANJIN, _won(sit, t, raw)) for t in tiles], req


@settings(max_examples=examples(300), deadline=None)
@given(st.integers(0, 2**31))
def test_wait_values_with_the_keys_equal_those_judged_per_wait(seed):
    sit, req = _before(seed)
    waits = PANJIN.winning_kinds(sit)
    assert wait_values(PANJIN, sit, waits) == _without_hook(sit, waits), req


def test_wait_keys_none_with_jiahu():
    sit, _ = _before(1, jiahu=True)
    assert PANJIN.wait_score_keys(sit, list(ALL_TILES)) is None


def test_wait_keys_of_a_known_hand():
    """Values the rules fix (PJ-10): the 13-tile hand 1112345678999s (all 条, 1条 held
    three times) with 鸡胡 and 穷胡 on and wildcards
    1z/3z in play (indicator 2z, none held): on 1s the fourth 1条 makes 群鸡; on 5s 鸡胡;
    every 条 tile is 清一色 and 穷胡; a wildcard drawn (one joker more) loses 穷胡 and
    adds no suit; a 万 tile loses 清一色. No all-triplet or seven-pairs reading with these options off."""
    req = {"variant": "panjin", "hand": "1112345678999s", "indicator": "2z",
           "options": {"wildcard_mode": "both", "jihu": True, "qionghu": True,
                       "one_suit": True}}
    _, sit = situation_of(req)
    by = {t.code: k for t, k in zip(ALL_TILES, PANJIN.wait_score_keys(sit, list(ALL_TILES)))}
    assert by["1s"] == (("one_suit", "qunji", "qionghu"), "")
    assert by["5s"] == (("one_suit", "jihu", "qionghu"), "")
    assert by["1z"] == (("one_suit", "jihu"), "")
    assert by["5m"] == (("jihu", "qionghu"), "")
