"""The compiled distance search of the free-joker variants (webcalc/_pjunit.c ``free_draws``,
:func:`webcalc.efficiency.compiled_draws`) against the Python it stands in for: for random
三门峡, 郑州 and 晋城 hands (wildcards, melds, indicators, honors out of play), 13 tiles and
every discard of 14, the distance and the draws that lower it are :class:`FreeOracle`'s, and
the kinds that complete the hand are :meth:`Variant.winning_kinds`' (liveness applied as
:func:`webcalc.waits.find_waits` applies it)."""

import os
import sys
from pathlib import Path

import pytest

from webcalc import compiled
from webcalc import efficiency as E
from webcalc.errors import InputError
from webcalc.hand import Hand, melds_from_api
from webcalc.options import parse_options
from webcalc.shanten import INF
from webcalc.tiles import parse_tiles
from webcalc.variants import VARIANTS, Situation

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import answers  # noqa: E402

if compiled.pjunit is None:
    if os.environ.get("CI") and not os.environ.get("WEBCALC_PURE_PYTHON"):
        raise AssertionError("webcalc._pjunit was not built")
    pytest.skip("webcalc._pjunit not built: nothing compiled to compare", allow_module_level=True)


def _situations(seed, count):
    """(variant, situation, kinds) of valid free-joker hands from bench/answers.py's requests
    (no 拾/搶, within the copy limits), 13 and 14 tiles."""
    out = []
    for req in answers.requests(seed, count):
        v = VARIANTS[req["variant"]]
        if not v.policy.in_triplet:
            continue
        try:
            opts = parse_options(v.Options, req.get("options"))
            kinds = v.kinds_in_play(opts)
            ind = parse_tiles(req["indicator"])[0] if req.get("indicator") else None
            wild = v.wildcards(opts, ind)
            melds = melds_from_api(req.get("melds"))
            hand = Hand.of(parse_tiles(req["hand"]), melds)
        except InputError:
            continue
        held = hand.held_counts()
        if ind is not None:
            held[ind] += 1
        if (any(m.is_taken for m in melds) or hand.tile_count not in (13, 14) or max(held) > 4
                or any(t >= kinds for t in hand.all_tiles())):
            continue
        out.append((v, Situation(hand, wild, opts, indicator=ind), kinds))
    return out


def _reference(variant, sit, kinds, oracle):
    """(d, lowering kinds, completing live kinds) of a 13-tile hand, in Python."""
    d = oracle.distance(None)
    held = sit.hand.held_counts()
    live = [k for k in range(kinds) if held[k] + (k == sit.indicator) < 4]
    lower = {k for k in live if d < INF and oracle.lowers(k, d)}
    waits = [int(t) for t in variant.winning_kinds(sit) if int(t) in live]
    return min(d, INF), lower, waits


def _compiled(sit, kinds, answer):
    d, lower, zero = answer
    held = sit.hand.held_counts()
    live = [k for k in range(kinds) if held[k] + (k == sit.indicator) < 4]
    return d, ({k for k in live if lower >> k & 1} if d < INF else set()), \
        [k for k in live if zero >> k & 1]


@pytest.mark.parametrize("seed", range(3))
def test_compiled_draws_as_the_oracle_and_the_waits(seed):
    n13 = n14 = 0
    for variant, sit, kinds in _situations(100 + seed, 1500):
        if sit.hand.tile_count == 13:
            n13 += 1
            want = _reference(variant, sit, kinds, E.FreeOracle(variant, sit, kinds))
            got = _compiled(sit, kinds, E.compiled_draws(variant, sit, kinds))
            assert got == want, (variant.name, sit)
            continue
        n14 += 1
        parent = E.FreeOracle(variant, sit, kinds)
        tiles = sorted(set(sit.hand.concealed))
        answers_ = E.compiled_draws(variant, sit, kinds, tuple(int(t) for t in tiles))
        for t, answer in zip(tiles, answers_):
            left = sit.without_tile(t)
            want = _reference(variant, left, kinds, E.FreeOracle(variant, left, kinds, parent,
                                                                  int(t)))
            assert _compiled(left, kinds, answer) == want, (variant.name, sit, t)
    assert n13 > 300 and n14 > 300


def test_not_for_panjin_nor_taken_tiles():
    """盘锦 (its conditions) and 晋城 hands with 拾/搶 (十三幺 only) have their own searches."""
    pj = VARIANTS["panjin"]
    sit = Situation(Hand.of(parse_tiles("123456789m1234p")), (), pj.Options())
    assert E.compiled_draws(pj, sit) is None
    jc = VARIANTS["jincheng"]
    taken = melds_from_api([{"type": "shi", "tiles": "1m"}])
    sit = Situation(Hand.of(parse_tiles("9m1p9p1s9s1z2z3z4z5z6z7z"), taken), (), jc.Options())
    assert E.compiled_draws(jc, sit) is None
