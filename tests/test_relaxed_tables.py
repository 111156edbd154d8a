"""The relaxed unit tables of the free-joker rule sets (issue 38): with wildcards in play a
hand is asked first with unit tables that drop the caps (keyed by the counts alone,
:func:`webcalc.efficiency.free_oracle`, webcalc/_pjunit_draws.c ``relaxed_exact``), and with
the caps honoured only when :meth:`FreeOracle.exact` cannot vouch for the relaxed answer.

The reference is :class:`FreeOracle` with the caps (the search as it was): the distance,
the kinds whose draw lowers it and the kinds that complete the hand must be its own, for
the Python twin and for the compiled search, 13 tiles and every discard of 14. Hands are
drawn around the wildcard kind (where its real cap 0 and the indicator's 3 bite), with
0-4 wildcards (every wildcard tile of the room; 0-8 with a second wildcard kind) and melds of
nearby kinds and of the wildcard kind itself (which leaves fewer wildcard tiles to draw than a
target may want)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.scale import examples
from webcalc import compiled
from webcalc import efficiency as E
from webcalc.hand import Hand, melds_from_api
from webcalc.shanten import INF
from webcalc.tiles import ALL_TILES, parse_tiles
from webcalc.variants import VARIANTS, Situation


@st.composite
def situations(draw):
    """(variant, situation) of a valid 三门峡 or 郑州 hand of 13 or 14 tiles; sometimes with a
    second wildcard kind beside the room's (no room of these rule sets has one, but the
    search takes any set of wildcard kinds: two kinds with cap 0, up to 8 wildcards)."""
    v = VARIANTS[draw(st.sampled_from(("sanmenxia", "zhengzhou")))]
    opts = v.Options()
    ind = ALL_TILES[draw(st.integers(0, 33))]
    wild = v.wildcards(opts, ind)
    w = int(wild[0])
    second = draw(st.one_of(st.none(), st.none(), st.none(), st.integers(0, 33)))
    if second is not None and second not in (w, int(ind)):
        wild = (*wild, ALL_TILES[second])
    near = [k for k in range(34) if k != w and (w // 9 == k // 9 < 3 and abs(k - w) <= 3
                                                or w >= 27 and k >= 27)]
    used = [0] * 34
    used[int(ind)] += 1
    melds = []
    # a pung of the wildcard kind first half the time: one wildcard tile left, so targets
    # that want two joker-only places are refused (where the relaxed tables alone err)
    pungs = [w] if draw(st.booleans()) else []
    for k in pungs + draw(st.lists(st.sampled_from(near), max_size=3 - len(pungs))):
        if used[k] + 3 <= 4:
            used[k] += 3
            melds.append({"type": "pong", "tiles": ALL_TILES[k].code * 3})
    n = draw(st.sampled_from((13, 14))) - 3 * len(melds)
    tiles = []
    for x in wild:
        jokers = min(draw(st.integers(0, 4)), 4 - used[int(x)], n - len(tiles))
        tiles += [int(x)] * jokers
        used[int(x)] += jokers
    kinds = {int(x) for x in wild}
    far = draw(st.integers(0, 2))               # tiles anywhere; the rest near the wildcard
    picks = draw(st.lists(st.sampled_from(near), min_size=n, max_size=4 * n))
    picks = draw(st.lists(st.integers(0, 33), min_size=far, max_size=far)) + picks
    for k in picks:
        if len(tiles) == n:
            break
        if k not in kinds and used[k] < 4:
            used[k] += 1
            tiles.append(k)
    k = 0
    while len(tiles) < n:                      # top up: any kind with a copy left
        if k not in kinds and used[k] < 4:
            used[k] += 1
            tiles.append(k)
        k += 1
    hand = Hand.of(tuple(ALL_TILES[t] for t in sorted(tiles)), melds_from_api(melds))
    return v, Situation(hand, wild, opts, indicator=ind)


def _answer(sit, oracle):
    """(d, lowering kinds, completing kinds) over the live kinds, from an oracle."""
    d = oracle.distance(None)
    held = sit.hand.held_counts()
    live = [k for k in range(34) if held[k] + (k == sit.indicator) < 4]
    if d >= INF:
        return INF, set(), set()
    return d, {k for k in live if oracle.lowers(k, d)}, \
        {k for k in live if oracle.distance(k) == 0}


def _compiled(sit, answer):
    d, lower, zero = answer
    held = sit.hand.held_counts()
    live = [k for k in range(34) if held[k] + (k == sit.indicator) < 4]
    if d >= INF:
        return INF, set(), set()
    return d, {k for k in live if lower >> k & 1}, {k for k in live if zero >> k & 1}


def _check(v, sit):
    if sit.hand.tile_count == 13:
        want = _answer(sit, E.FreeOracle(v, sit, 34))
        assert _answer(sit, E.free_oracle(v, sit, 34)) == want
        if compiled.pjunit is not None:
            assert _compiled(sit, E.compiled_draws(v, sit, 34)) == want
        return
    parent = E.free_oracle_14(v, sit, 34)
    tiles = sorted(set(sit.hand.concealed))
    fast = (E.compiled_draws(v, sit, 34, tuple(int(t) for t in tiles))
            if compiled.pjunit is not None else None)
    for i, t in enumerate(tiles):
        left = sit.without_tile(t)
        want = _answer(left, E.FreeOracle(v, left, 34))
        assert _answer(left, E.free_oracle(v, left, 34, parent, int(t))) == want, t
        if fast is not None:
            assert _compiled(left, fast[i]) == want, t


@settings(max_examples=examples(500), deadline=None)
@given(situations())
def test_relaxed_answers_are_the_capped_ones(case):
    _check(*case)


def test_a_hand_the_relaxed_tables_alone_would_get_wrong():
    """三门峡, indicator 6m (7m wild), 7m melded as a pung and one 7m held: no 7m left to
    draw, so at most one place a real tile cannot fill (the held 7m). 444557889m4s is two
    tiles from complete; with 6m drawn the relaxed tables find 444m 567m 789m 55m with both
    7m places jokers — two joker-only places for one joker, which the capped search refuses
    (6m is not useful). The check sends the hand to the capped tables: the Python twin and
    the compiled search give the capped answer."""
    v = VARIANTS["sanmenxia"]
    ind = parse_tiles("6m")[0]
    hand = Hand.of(parse_tiles("444557889m4s"),
                   melds_from_api([{"type": "pong", "tiles": "7m7m7m"}]))
    sit = Situation(hand, v.wildcards(v.Options(), ind), v.Options(), indicator=ind)
    raw = E.FreeOracle(v, sit, 34, relaxed=True)
    capped = E.FreeOracle(v, sit, 34)
    assert raw.relaxed and not raw.exact()
    d, lower, _ = _answer(sit, capped)
    d_raw, lower_raw, _ = _answer(sit, raw)
    assert d == d_raw == 2
    assert lower_raw - lower == {5}                     # 6m
    assert _answer(sit, E.free_oracle(v, sit, 34)) == _answer(sit, capped)
    if compiled.pjunit is not None:
        assert _compiled(sit, E.compiled_draws(v, sit, 34)) == _answer(sit, capped)
    _check(v, sit)


def test_a_hand_without_wildcards_in_play_is_never_relaxed():
    """晋城 (no wildcards): the plain tables, nothing relaxed to check."""
    v = VARIANTS["jincheng"]
    sit = Situation(Hand.of(parse_tiles("123m456p789s1122z")), (), v.Options())
    oracle = E.free_oracle(v, sit, 34)
    assert not oracle.relaxed and oracle.exact()
    assert _answer(sit, oracle)[:2] == (1, {27, 28})
