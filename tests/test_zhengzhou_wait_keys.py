"""郑州's waits priced without a win made per wait (issue 38 round 6): ``Zhengzhou.
wait_score_keys`` gives, for a 13-tile hand and each added tile, the
:meth:`Zhengzhou.score_key` of the 14-tile win (ZZ-4's 七对 and 四混 doubles, each where the
room has it on) — for every kind, on hands with melds (kongs included), 0-4 wildcard tiles,
hands one tile from 七对 and from 四混 — and ``wait_values`` answers the same with it as
without it (one win made and keyed per wait)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.scale import examples
from webcalc.hand import Hand
from webcalc.options import parse_options
from webcalc.tiles import ALL_TILES, format_tiles, parse_tiles
from webcalc.variants import VARIANTS, Situation
from webcalc.worth import _won, hypothetical_settlement, score_key, wait_values

from .test_engine_shanten_exact import random_case, situation_of

ZZ = VARIANTS["zhengzhou"]


def _before(seed: int):
    """A 13-tile 郑州 hand: a random case, or (a third each) six pairs and a single, or
    three or four of a wildcard kind among random tiles; the doubles on or off at random."""
    rng = random.Random(seed)
    req = random_case(rng, "zhengzhou", 13)
    req["options"] = {**req.get("options", {}), "seven_pairs_double": rng.random() < 0.7,
                      "four_wildcards_double": rng.random() < 0.7}
    style = rng.random()
    if style < 0.6 and req.get("indicator"):
        v, sit = situation_of(req)
        w = int(rng.choice(sit.wildcards)) if sit.wildcards else rng.randrange(34)
        while True:
            if style < 0.3:                           # six pairs and a single
                kinds = rng.sample(range(34), 7)
                tiles = [k for k in kinds[:6] for _ in (0, 1)] + [kinds[6]]
                if rng.random() < 0.3:               # four of a kind as two pairs
                    tiles[2:4] = [kinds[0]] * 2
            else:                                     # 3-4 of a wildcard kind
                tiles = [w] * rng.choice((3, 3, 4)) + [rng.randrange(34) for _ in range(9)]
                tiles = tiles[:13]
            if all(tiles.count(k) <= 4 for k in tiles):
                break
        req = {k: v for k, v in req.items() if k != "melds"}
        req["hand"] = format_tiles([ALL_TILES[t] for t in sorted(tiles)])
    return situation_of(req)[1], req


def _without_hook(sit, waits):
    cls = type(ZZ)
    hook = cls.__dict__["wait_score_keys"]
    cls.wait_score_keys = lambda self, before, tiles: None
    try:
        return wait_values(ZZ, sit, waits)
    finally:
        cls.wait_score_keys = hook


@settings(max_examples=examples(400), deadline=None)
@given(st.integers(0, 2**31))
def test_wait_keys_are_the_wins_score_keys(seed):
    sit, req = _before(seed)
    tiles = list(ALL_TILES)
    keys = ZZ.wait_score_keys(sit, tiles)
    raw = hypothetical_settlement(sit.settlement, sit.win_by, ZZ.discard_win_fields)
    assert keys == [score_key(ZZ, _won(sit, t, raw)) for t in tiles], req


@settings(max_examples=examples(300), deadline=None)
@given(st.integers(0, 2**31))
def test_wait_values_with_the_keys_equal_those_keyed_per_wait(seed):
    sit, req = _before(seed)
    waits = list(ALL_TILES)
    assert wait_values(ZZ, sit, waits) == _without_hook(sit, waits), req


def test_wait_keys_of_known_hands():
    """Values the rules fix (ZZ-3, ZZ-4): 11223344m5566p7s with both doubles on waits 七对
    on 7s only; 4z held three times with 4z the wildcard (indicator 3z) makes 四混 on 4z
    only; a hand with a meld is never 七对; with the doubles off every key is (False,
    False)."""
    opts = parse_options(ZZ.Options, {"seven_pairs_double": True,
                                      "four_wildcards_double": True})
    seven = Situation(Hand.of(parse_tiles("11223344m5566p7s")), (), opts)
    by = {t.code: k for t, k in zip(ALL_TILES, ZZ.wait_score_keys(seven, list(ALL_TILES)))}
    assert by["7s"] == (True, False)
    assert {c for c, k in by.items() if k != (False, False)} == {"7s"}
    ind = parse_tiles("3z")[0]
    four = Situation(Hand.of(parse_tiles("123m456p789s4441z")), ZZ.wildcards(opts, ind),
                     opts, "self_draw", None, ind)
    assert [int(w) for w in four.wildcards] == [int(parse_tiles("4z")[0])]
    by = {t.code: k for t, k in zip(ALL_TILES, ZZ.wait_score_keys(four, list(ALL_TILES)))}
    assert {c for c, k in by.items() if k != (False, False)} == {"4z"}
    assert by["4z"] == (False, True)
    off = parse_options(ZZ.Options, {})
    plain = Situation(Hand.of(parse_tiles("11223344m5566p7s")), (), off)
    assert ZZ.wait_score_keys(plain, list(ALL_TILES)) == [(False, False)] * 34
