"""webcalc/_plain.c (issue 38, Build 1): a plain hand's advice — no wildcard in play, no meld,
no indicator, every kind in play — in one call from dense unit tables, against what it stands
in for: ``_pjunit.free_advice`` and ``free_draws`` (the same search on hashed tables), the
Python twin (:class:`webcalc.efficiency.FreeOracle`'s answer as
:func:`webcalc.advice_rows.advice_rows` writes it), and ``analyze()`` without it. Its unit
tables (the ones :func:`webcalc.warmup.warm_up` fills all at once, and the ones built when a
hand first needs them) against ``_pjunit.plain_unit`` and ``shanten._plain_rows``. With
wildcards in play (an indicator, webcalc/_plain_wild.c): the same against ``free_advice``,
``free_draws`` and the Python twin, its relaxed tables against ``_pjunit.free_unit`` without
caps."""

import itertools
import os
import random
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.compiled import require_compiled
from tests.scale import examples
from webcalc import analysis, compiled, draws
from webcalc.advice_rows import advice_rows
from webcalc.efficiency import free_oracle
from webcalc.errors import InputError
from webcalc.hand import Hand
from webcalc.options import parse_options
from webcalc.shanten import INF, _plain_rows
from webcalc.tiles import ALL_TILES
from webcalc.variants import VARIANTS, Situation
from webcalc.warmup import complete_tiles

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import answers  # noqa: E402

require_compiled()
if compiled.plain is None:
    if os.environ.get("CI"):
        raise AssertionError("webcalc._plain was not built: CI must test it")
    pytest.skip("webcalc._plain not built", allow_module_level=True)
P, C = compiled.plain, compiled.pjunit
JINCHENG_SHAPES = 9                    # 七对 and 十三幺 (draws.py _SHAPE_BITS)


def _counts(tiles):
    c = [0] * 34
    for t in tiles:
        c[t] += 1
    return c


@st.composite
def plain_hands(draw):
    """(counts, shapes, discards, visible): 13 or 14 tiles, at most four of a kind — random
    ones, or a complete hand (less a tile for 13) with 0-2 tiles swapped, where the suits
    hold 10-14 tiles; the discards (14 tiles) every kind held or some of them."""
    n = draw(st.sampled_from((13, 14)))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    if draw(st.booleans()):
        tiles = complete_tiles(rng)
        if n == 13:
            tiles.remove(rng.choice(tiles))
        for _ in range(draw(st.integers(0, 2))):
            tiles.remove(rng.choice(tiles))
            tiles.append(rng.choice([k for k in range(34) if tiles.count(k) < 4]))
    else:
        tiles = rng.sample([k for k in range(34) for _ in range(4)], n)
    counts = _counts(tiles)
    shapes = draw(st.integers(0, 15))
    visible = draw(st.one_of(st.just([]), st.lists(st.integers(0, 2), min_size=34,
                                                   max_size=34)))
    discards = None
    if n == 14:
        held = [k for k in range(34) if counts[k]]
        keep = draw(st.lists(st.booleans(), min_size=len(held), max_size=len(held)))
        discards = [k for k, on in zip(held, keep) if on or not any(keep)]
    return counts, shapes, discards, visible


@settings(max_examples=examples(500), deadline=None)
@given(plain_hands())
def test_plain_is_free_advice(case):
    counts, shapes, discards, visible = case
    assert P.draws(counts, shapes, discards) == C.free_draws(counts, (), -1, 34, 0, shapes, 0,
                                                             discards)
    assert P.advice(counts, shapes, discards, visible) == C.free_advice(
        counts, (), -1, 34, 0, shapes, 0, discards, visible)


def _python_answer(sit, counts, variant="jincheng"):
    """free_draws' triple of the 13-tile hand of ``sit``, from :class:`FreeOracle`."""
    oracle = free_oracle(VARIANTS[variant], sit, 34)
    d = min(oracle.distance(None), INF)
    lower = zero = 0
    for k in range(34):
        if counts[k] >= 4:
            continue
        if d < INF and oracle.lowers(k, d):
            lower |= 1 << k
        if oracle.distance(k) == 0:
            zero |= 1 << k
    return d, lower, zero


@settings(max_examples=examples(150), deadline=None)
@given(plain_hands())
def test_plain_is_the_python_twin(case):
    """晋城's shapes: the rows are advice_rows of FreeOracle's answer (per discard, of the 13
    tiles it leaves)."""
    counts, _, discards, visible = case
    variant = VARIANTS["jincheng"]
    opts = parse_options(variant.Options, None)
    tiles = [ALL_TILES[k] for k in range(34) for _ in range(counts[k])]
    sit = Situation(Hand.of(tiles, []), (), opts)
    if discards is None:
        answer = _python_answer(sit, counts)
    else:
        answer = [_python_answer(sit.without_tile(ALL_TILES[t]), _counts(
            [k for k in range(34) for _ in range(counts[k] - (k == t))])) for t in discards]
    want = advice_rows(answer, counts, (), -1, 34, visible, discards)
    assert P.advice(counts, JINCHENG_SHAPES, discards, visible) == tuple(want)


def test_known_hand():
    """123m456p789s1122z: ready on 1z and 2z, two of each left, one 2z visible; with 5z
    drawn, discarding 5z leaves that wait (free_advice's own known hand)."""
    counts = _counts((0, 1, 2, 12, 13, 14, 24, 25, 26, 27, 27, 28, 28))
    visible = [0] * 34
    visible[28] = 1
    waits = [{"tile": "1z", "remaining": 2, "dead": False},
             {"tile": "2z", "remaining": 1, "dead": False}]
    assert P.advice(counts, 1, None, visible) == (0, waits, waits, 3, False)
    counts[31] += 1
    eff, ready, best = P.advice(counts, 1, [31], visible)
    assert best == 0
    assert ready == [{"discard": "5z", "waits": waits, "remaining": 3}]
    assert eff == [{"discard": "5z", "shanten": 0, "useful": waits, "useful_total": 3}]
    # 11m 456m 789m 123p 5p 9s: 1-shanten; a third 1m, or a tile beside 5p or 9s (2p
    # makes 1223p: no fourth group) makes it ready
    counts = _counts((0, 0, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 26))
    sh, waits, useful, total, any_tile = P.advice(counts, 9, None, ())
    assert (sh, waits, any_tile) == (1, [], False)
    assert [u["tile"] for u in useful] == ["1m", "3p", "4p", "5p", "6p", "7p", "7s", "8s",
                                           "9s"]
    assert total == 2 + 3 + 4 + 3 + 4 + 4 + 4 + 4 + 3


def test_hands_it_does_not_take():
    """None (the caller asks free_advice, which says what is wrong), never an error."""
    c13 = _counts(range(13))
    c14 = _counts(range(14))
    assert P.advice(c14, 9, None, ()) is None                 # 14 tiles, no discards
    assert P.advice(c13, 9, [0], ()) is None                  # 13 tiles with discards
    assert P.advice(c14, 9, [20], ()) is None                 # a discard not held
    assert P.advice(c14, 9, [0, 40], ()) is None
    assert P.advice(c13[:33], 9, None, ()) is None            # 33 counts
    assert P.advice(c13, 9, None, [0] * 5) is None            # visible: 34 or none
    assert P.advice(c13, 9, None, [5] + [0] * 33) is None     # visible: 0-4
    assert P.advice(c13, 99, None, ()) is None                # shapes: 0-15
    five = _counts([0] * 5 + list(range(9, 17)))
    assert P.advice(five, 9, None, ()) is None                # five of a kind
    assert P.draws(five, 9, None) is None
    assert P.advice([2**70] + c13[1:], 9, None, ()) is None   # not a small int
    with pytest.raises(TypeError):
        P.advice(c13, 9, None)


def test_every_unit_table_as_built_and_as_warmed():
    """After warm() (the suits' tables made by one walk over all count vectors), every honors
    table and a third of the suits' — each slot, and the table built anew — equal
    ``_pjunit.plain_unit``'s; a sample equals the Python ``_plain_rows``."""
    P.warm()
    size, suits, honors = P.info()[:3]
    assert (suits, honors) == (405_350, 43_130) and size == (405_350 + 78_125) * 8
    caps9, caps7 = (4,) * 9, (4,) * 7
    n = 0
    for cu in itertools.product(range(5), repeat=9):
        if sum(cu) > 14 or hash(cu) % 3:
            continue
        want = C.plain_unit(list(cu), caps9, False)
        assert P.unit(cu, False, True) == want, cu
        n += 1
        if n % 97 == 0:
            assert P.unit(cu, False, False) == want
            assert sorted(tuple(r) for r in _plain_rows(cu, caps9, False)) == want
    assert n > 100_000
    for cu in itertools.product(range(5), repeat=7):
        if sum(cu) <= 14:
            want = C.plain_unit(list(cu), caps7, True)
            assert P.unit(cu, True, True) == want == P.unit(cu, True, False), cu
    with pytest.raises(ValueError):
        P.unit([4, 4, 4, 3] + [0] * 5, False, True)            # 15 tiles


# -- wildcards in play: an indicator, its wildcard kinds, the relaxed tables (_plain_wild.c) --

def _next(k, step):
    """The kind ``step`` after ``k`` in its suit or among the honors (a wildcard rule's)."""
    return (k // 9) * 9 + (k % 9 + step) % 9 if k < 27 else 27 + (k - 27 + step) % 7


@st.composite
def wild_hands(draw):
    """(counts, shapes, discards, visible, wild, indicator): as :func:`plain_hands`, with an
    indicator, one or two wildcard kinds (the indicator's own, the next, or the next two) and
    0-3 wildcard tiles put in; the indicator's copies held at most three."""
    counts, _, discards, visible = draw(plain_hands())
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    ind = draw(st.integers(0, 33))
    wild = draw(st.sampled_from([(ind,), (_next(ind, 1),), (_next(ind, 1), _next(ind, 2))]))
    tiles = [k for k in range(34) for _ in range(counts[k])]
    for _ in range(draw(st.integers(0, 3))):
        w = rng.choice(wild)
        if tiles.count(w) < 4 - (w == ind):
            tiles[rng.randrange(len(tiles))] = w
    counts = _counts(tiles)
    if counts[ind] > 3:
        counts[ind] -= 1
        counts[next(k for k in range(34) if k != ind and counts[k] < 4)] += 1
    if discards is not None:
        held = [k for k in range(34) if counts[k]]
        discards = [k for k in held if k in discards] or held
    if visible:
        visible = [min(v, max(0, 4 - counts[k] - (k == ind))) for k, v in enumerate(visible)]
    shapes = draw(st.sampled_from((0, 1, 2, 3, 6, 7, 9, 15)))
    return counts, shapes, discards, visible, sum(1 << w for w in wild), ind


@settings(max_examples=examples(500), deadline=None)
@given(wild_hands())
def test_wild_is_free_advice(case):
    """With wildcards in play: the answer free_advice / free_draws give, or None (a hand
    whose relaxed tables do not settle it: free_draws' capped tables answer)."""
    counts, shapes, discards, visible, wild, ind = case
    got = P.advice(counts, shapes, discards, visible, wild, ind)
    assert got is None or got == C.free_advice(counts, (), ind, 34, wild, shapes, 0,
                                               discards, visible)
    drawn = P.draws(counts, shapes, discards, wild, ind)
    assert (drawn is None) == (got is None)
    assert drawn is None or drawn == C.free_draws(counts, (), ind, 34, wild, shapes, 0,
                                                  discards)


@st.composite
def melded_hands(draw):
    """(counts, shapes, discards, visible, wild, indicator, meld_tiles, melds): 1-3 melds
    (pongs, kongs, chows), the concealed tiles random with 0-2 wildcard tiles put in, 13
    or 14 tiles in all; at most four of a kind with the melds and the indicator."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    while True:
        n, m, ind = rng.choice((13, 14)), rng.choice((1, 1, 2, 3)), rng.randrange(34)
        wild = rng.choice([(ind,), (_next(ind, 1),), (_next(ind, 1), _next(ind, 2))])
        meld_tiles = []
        for _ in range(m):
            if rng.random() < 0.5:
                meld_tiles += [rng.randrange(34)] * rng.choice((3, 3, 4))
            else:
                k = rng.randrange(3) * 9 + rng.randrange(7)
                meld_tiles += [k, k + 1, k + 2]
        tiles = [rng.randrange(34) for _ in range(n - 3 * m)]
        for _ in range(rng.choice((0, 1, 2))):
            tiles[rng.randrange(len(tiles))] = rng.choice(wild)
        counts = _counts(tiles)
        seen = _counts(tiles + meld_tiles + [ind])
        if max(seen) <= 4:
            break
    visible = draw(st.one_of(st.just([]), st.lists(st.integers(0, 1), min_size=34,
                                                   max_size=34)))
    visible = [min(v, 4 - seen[k]) for k, v in enumerate(visible)]
    discards = [k for k in range(34) if counts[k]] if n == 14 else None
    shapes = draw(st.sampled_from((0, 1, 2, 3)))
    return (counts, shapes, discards, visible, sum(1 << w for w in wild), ind, meld_tiles,
            m)


@settings(max_examples=examples(300), deadline=None)
@given(melded_hands())
def test_melds_is_free_advice(case):
    """With melds and wildcards in play: free_advice's / free_draws' answer, or None."""
    counts, shapes, discards, visible, wild, ind, meld_tiles, m = case
    got = P.advice(counts, shapes, discards, visible, wild, ind, meld_tiles, m)
    assert got is None or got == C.free_advice(counts, meld_tiles, ind, 34, wild, shapes, m,
                                               discards, visible)
    drawn = P.draws(counts, shapes, discards, wild, ind, meld_tiles, m)
    assert (drawn is None) == (got is None)
    assert drawn is None or drawn == C.free_draws(counts, meld_tiles, ind, 34, wild, shapes,
                                                  m, discards)


@settings(max_examples=examples(150), deadline=None)
@given(wild_hands(), st.sampled_from(("sanmenxia", "zhengzhou")))
def test_wild_is_the_python_twin(case, name):
    """三门峡's and 郑州's shapes with their wildcards: the rows are advice_rows of
    FreeOracle's answer (per discard, of the 13 tiles it leaves)."""
    counts, _, discards, visible, _, ind = case
    variant = VARIANTS[name]
    opts = parse_options(variant.Options, None)
    indicator = ALL_TILES[ind]
    wildcards = variant.wildcards(opts, indicator)
    tiles = [ALL_TILES[k] for k in range(34) for _ in range(counts[k])]
    sit = Situation(Hand.of(tiles, []), wildcards, opts, indicator=indicator)
    shapes = draws._bits_of(variant.distance_shapes(sit, 34))
    got = P.advice(counts, shapes, discards, visible, sum(1 << w for w in wildcards), ind)
    if got is None:
        return
    if discards is None:
        answer = _python_answer(sit, counts, name)
    else:
        answer = [_python_answer(sit.without_tile(ALL_TILES[t]), _counts(
            [k for k in range(34) for _ in range(counts[k] - (k == t))]), name)
            for t in discards]
    assert got == tuple(advice_rows(answer, counts, (), ind, 34, visible, discards))


def test_wild_known_hand():
    """三门峡's shapes, indicator 1z, the wildcard 2z: 1234m 456p 789s 11z and one 2z is ready
    (123m, 456p, 789s and the 2z beside 4m or 11z); it wins on 1m-6m (1m, 4m: a pair of
    them and 11z + 2z a triplet; 2m, 3m, 5m, 6m: the 2z in a second sequence), on 1z (111z,
    4m + 2z the pair) and on a second 2z, never on 7m or anything else."""
    counts = _counts((0, 1, 2, 3, 12, 13, 14, 24, 25, 26, 27, 27, 28))
    wild = 1 << 28
    sh, waits, useful, total, any_tile = P.advice(counts, 3, None, (), wild, 27)
    assert (sh, any_tile) == (0, False)
    assert [w["tile"] for w in waits] == ["1m", "2m", "3m", "4m", "5m", "6m", "1z", "2z"]
    assert total == 3 + 3 + 3 + 3 + 4 + 4 + 1 + 3   # 1z: 2 held and the indicator; 2z: 1 held
    assert (sh, waits, useful, total, any_tile) == C.free_advice(counts, (), 27, 34, wild, 3,
                                                                 0, None, ())


def test_relaxed_unit_tables():
    """The relaxed tables (every cap RCAP: _pjunit.free_unit with caps 31, one D per
    (g, p)): every honors table, a sample of the suits', in their slots and built anew."""
    P.warm(True)
    assert P.info()[3:] == ((405_350 + 78_125) * 8, 405_350, 43_130)
    n = 0
    for cu in itertools.product(range(5), repeat=9):
        if sum(cu) > 14 or hash(cu) % 11:
            continue
        want = C.free_unit(list(cu), (31,) * 9, False)
        assert all(r[2] == 0 for r in want)
        assert P.unit(cu, False, True, True) == [tuple(r) for r in want], cu
        n += 1
        if n % 97 == 0:
            assert P.unit(cu, False, False, True) == [tuple(r) for r in want]
    assert n > 30_000
    for cu in itertools.product(range(5), repeat=7):
        if sum(cu) <= 14:
            want = [tuple(r) for r in C.free_unit(list(cu), (31,) * 7, True)]
            assert P.unit(cu, True, True, True) == want == P.unit(cu, True, False, True), cu


def test_wild_hands_it_does_not_take():
    """None with wildcards in play too: no joker and no room (free_draws' plain tables with
    the indicator's cap 3), a wildcard discarded that is not held, a bad indicator; melds
    without wildcards (the plain tables with the melds' caps), bad meld tiles, a tile count
    that the melds do not make 13 or 14."""
    c13 = _counts(range(13))
    c10 = _counts(range(10))
    assert P.advice(c10, 0, None, (), 0, -1, [30, 30, 30], 1) is None
    assert P.advice(c10, 0, None, (), 1 << 20, 19, [40, 30, 30], 1) is None
    assert P.advice(c10, 0, None, (), 1 << 20, 19, [30, 30, 30], 2) is None
    assert P.advice(c10, 0, None, (), 1 << 20, 19, [30, 30, 30], 1) is not None
    assert P.advice(c13, 1, None, (), 0, 5) is None          # an indicator, no wildcard
    c14 = _counts(range(14))
    assert P.advice(c14, 1, [20], (), 1 << 20, 19) is None   # 2s not held
    assert P.advice(c13, 1, None, (), 1 << 20, 40) is None   # indicator 0-33
    assert P.advice(c13, 1, None, (), 1 << 40, 5) is None    # wild below 2**34
    assert P.advice(c13, 1, None, (), 1 << 20, 19) is not None


def _json(req):
    try:
        return analysis.analyze(req).to_json()
    except InputError as e:
        return type(e).__name__


@pytest.mark.parametrize("seed", range(2))
def test_analyze_same_without_it(seed, monkeypatch):
    """bench/answers.py's requests (every rule set, options, wildcards, melds, visible
    tiles), fresh 晋城 hands and fresh 三门峡 / 郑州 hands with 0-2 wildcard tiles: analyze()
    with webcalc/_plain.c and without (free_advice) gives the same answers."""
    rng = random.Random(seed)
    reqs = list(answers.requests(4600 + seed, 300))
    for _ in range(300):
        n = rng.choice((13, 14))
        tiles = complete_tiles(rng) if rng.random() < 0.5 else rng.sample(
            [k for k in range(34) for _ in range(4)], 14)
        reqs.append({"variant": "jincheng",
                     "hand": "".join(ALL_TILES[t].code for t in sorted(tiles[:n]))})
    for _ in range(300):
        name = rng.choice(("sanmenxia", "zhengzhou"))
        n = rng.choice((13, 14))
        ind = rng.randrange(34)
        wild = list(VARIANTS[name].wildcards(parse_options(VARIANTS[name].Options, None),
                                             ALL_TILES[ind]))
        tiles = complete_tiles(rng) if rng.random() < 0.5 else rng.sample(
            [k for k in range(34) for _ in range(4)], 14)
        for _ in range(rng.randrange(3)):
            tiles[rng.randrange(14)] = int(rng.choice(wild))
        reqs.append({"variant": name, "indicator": ALL_TILES[ind].code,
                     "hand": "".join(ALL_TILES[t].code for t in sorted(tiles[:n]))})
    fast = [_json(r) for r in reqs]
    monkeypatch.setattr(draws, "_plain", None)
    slow = [_json(r) for r in reqs]
    for req, a, b in zip(reqs, fast, slow):
        assert a == b, req
