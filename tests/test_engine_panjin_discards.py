"""盘锦's shared searches give what the one-hand searches give.

* :func:`webcalc.variants.panjin_draws.panjin_discards_drawn` (every discard of a 14-tile hand from one
  table pass per unit) returns, for each discard, exactly what
  :func:`webcalc.variants.panjin_draws.panjin_standard_drawn` returns for the 13 tiles left: the distance,
  the kinds the nearest targets draw, and whether one draws a wildcard.
* ``judge()`` of a hand failing PJ-4/PJ-5 gives the same reasons from the reachable
  ``(刻, 顺)`` flags as from listing every reading (the closest reading's PJ-6/PJ-7).

Hands: seeded random 盘锦 hands with 0–8 wildcards (游戏混), near-complete and random, with
and without melds, under random room options (tests/test_engine_shanten_exact.py).
"""

from __future__ import annotations

import random

import pytest

from webcalc.shanten import hand_caps
from webcalc.variants import VARIANTS
from webcalc.variants.base import Judgement
from webcalc.variants.panjin_draws import panjin_discards_drawn, panjin_standard_drawn
from webcalc.variants.panjin_search import panjin_meld_flags, panjin_missing

from .scale import scaled
from .test_engine_shanten_exact import random_case, situation_of

PANJIN = VARIANTS["panjin"]


def _many_wildcards(rng, req):
    """The request with up to 8 of its concealed tiles made wildcards (游戏混: two kinds)."""
    v, sit = situation_of(req)
    wild = sorted(int(w) for w in sit.wildcards)
    if not wild:
        return req
    from webcalc.tiles import format_tiles, parse_tiles
    tiles = [int(t) for t in parse_tiles(req["hand"])]
    n = rng.randint(0, min(8, len(tiles)))
    for i in rng.sample(range(len(tiles)), n):
        tiles[i] = rng.choice(wild)
    counts = [tiles.count(k) for k in range(34)]
    ind = [int(t) for t in parse_tiles(req["indicator"])][0]
    meld_tiles = [int(t) for m in req.get("melds", []) for t in parse_tiles(m["tiles"])]
    for k in range(34):
        if counts[k] + meld_tiles.count(k) + (k == ind) > 4:
            return req
    return {**req, "hand": format_tiles(tiles)}


def _cases(seed, n):
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        req = random_case(rng, "panjin", 14)
        req = {**req, "options": {**req["options"], "wildcard_mode": "both"}}
        if req.get("indicator") is None:
            continue
        _, sit = situation_of(req)
        if any(t in sit.wildcards for m in sit.hand.melds for t in m.tiles):
            continue                                     # PJ-2: no wildcard in a meld
        if rng.random() < 0.6:
            req = _many_wildcards(rng, req)
        req.pop("win_by", None)
        out.append(req)
    return out


def check_discards_at_once(req, sit, above_d14=(0, 1), need_real=False) -> int:
    """Assert that :func:`panjin_discards_drawn` of the 14-tile ``sit`` gives, per discard,
    what :func:`panjin_standard_drawn` gives for the 13 tiles left, at each limit
    ``d14 + a`` for ``a`` in ``above_d14`` (``need_real``: the discard-win rule). Returns
    how many (discard, limit) pairs were checked: 0 for a hand the search is not used on
    (one real tile or fewer, or no standard target)."""
    jokers = len(sit.jokers)
    if jokers >= len(sit.hand.concealed) - 1:
        return 0
    allowed = PANJIN.allowed_suit_counts(sit)
    d14 = panjin_missing(sit, allowed).get("standard")
    if d14 is None:
        return 0
    _, caps, room = hand_caps(sit)
    args = (caps, jokers, room, len(sit.hand.melds), panjin_meld_flags(sit), allowed,
            sit.options.piaohu, jokers)
    kinds = sorted({int(t) for t in sit.hand.concealed if t not in sit.wildcards})
    checked = 0
    for limit in (d14 + a for a in above_d14):
        together = panjin_discards_drawn(sit.real_counts, *args, limit, kinds, need_real)
        for k in kinds:
            alone = panjin_standard_drawn(sit.without_tile(k).real_counts, *args, limit,
                                          need_real)
            assert together[k] == alone, (req, k, limit)
            checked += 1
    return checked


@pytest.mark.parametrize("seed", range(4))
def test_discards_at_once_equal_one_search_per_discard(seed):
    checked = 0
    for req in _cases(100 + seed, 40):
        _, sit = situation_of(req)
        checked += check_discards_at_once(req, sit)
    assert checked > 100


@pytest.mark.parametrize("seed", range(3))
def test_compiled_discards_equal_the_python_reference(seed, monkeypatch):
    """The compiled ``discards_drawn`` (webcalc/variants/panjin_hand.c: the other units
    merged from the other pair's merge; panjin_unit.c: steps over a state's slack skipped
    unevaluated) gives, per discard and at limits from d14 to d14 + 2, what the Python
    reference gives (it merges the other units one by one, in order, and tests each
    step)."""
    from webcalc.variants import panjin_draws

    if panjin_draws._pjunit is None:
        pytest.skip("the compiled part is not built")
    checked = 0
    for req in _cases(400 + seed, scaled(25)):
        _, sit = situation_of(req)
        jokers = len(sit.jokers)
        if jokers >= len(sit.hand.concealed) - 1:
            continue
        allowed = PANJIN.allowed_suit_counts(sit)
        d14 = panjin_missing(sit, allowed).get("standard")
        if d14 is None:
            continue
        _, caps, room = hand_caps(sit)
        kinds = sorted({int(t) for t in sit.hand.concealed if t not in sit.wildcards})
        for limit in (d14, d14 + 1, d14 + 2):
            args = (sit.real_counts, caps, jokers, room, len(sit.hand.melds),
                    panjin_meld_flags(sit), allowed, sit.options.piaohu, jokers, limit, kinds,
                    sit.win_by == "discard")
            compiled = panjin_draws.panjin_discards_drawn(*args)
            with monkeypatch.context() as m:
                m.setattr(panjin_draws, "_pjunit", None)
                # its unit tables computed by the Python, not read from a compiled call's
                panjin_draws.unit_panjin_drawn_drops.cache_clear()
                assert panjin_draws.panjin_discards_drawn(*args) == compiled, (req, limit)
            checked += 1
    assert checked >= 6                       # at least two hands, each at three limits


def _judge_by_listing(sit) -> Judgement:
    """What judge() reported before the shared 盘锦 search: the closest of every listed reading."""
    structural = PANJIN.structural_readings(sit)
    hand_reasons = PANJIN.hand_reasons(sit)
    assert hand_reasons
    if structural:
        closest = min((PANJIN.reading_reasons(sit, r) for r in structural), key=len)
        return Judgement([], hand_reasons + closest)
    return None


@pytest.mark.parametrize("seed", range(4))
def test_reasons_without_listing_equal_those_from_the_readings(seed):
    checked = 0
    rng = random.Random(200 + seed)
    for req in _cases(200 + seed, 150):
        opts = dict(req["options"])
        opts["one_suit"] = rng.random() < 0.3             # PJ-4 fails often
        req = {**req, "options": opts}
        _, sit = situation_of(req)
        if not PANJIN.hand_reasons(sit):
            continue
        expected = _judge_by_listing(sit)
        if expected is None:
            continue
        got = PANJIN.judge(sit)
        assert got.readings == [] and got.reasons == expected.reasons, req
        checked += 1
    assert checked > 20
