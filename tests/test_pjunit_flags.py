"""``achievable_flags`` (webcalc/_pjunit_flags.c): the ``(刻, 顺)`` flags a hand's standard
splits reach, against its Python twin webcalc/decompose.py ``_achievable_flags``: the same set
over hands of 0-8 jokers, 0-4 melds, with or without the pair, both joker policies, tiles of
one suit up to all kinds, complete or not; a few hands whose flags the rules fix; and the
calls outside its domain answered by the twin."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import webcalc.decompose as D
from tests.compiled import require_compiled
from tests.scale import examples
from webcalc.tiles import parse_tiles

COMPILED = D._pjunit
require_compiled()


@st.composite
def hands(draw, sized: bool):
    """(34 counts, jokers, melds, pair, in_triplet): when ``sized``, as many real tiles as
    ``melds`` groups and ``pair`` pairs hold beside the jokers (the calls the engine makes);
    else any number up to 14. Kinds below a cap (one suit .. all, or the honors), no kind
    past four."""
    melds = draw(st.integers(0, 4))
    pair = draw(st.integers(0, 1))
    jokers = draw(st.integers(0, 8))
    size = (3 * melds + 2 * pair - jokers) if sized else draw(st.integers(0, 14))
    kinds = draw(st.sampled_from([9, 18, 27, 34, 7]))
    offset = 27 if kinds == 7 else 0
    wall = [offset + k for k in range(kinds) for _ in range(4)]
    size = max(0, min(size, len(wall)))
    real = draw(st.lists(st.sampled_from(range(len(wall))), min_size=size, max_size=size,
                         unique=True))
    counts = [0] * 34
    for r in real:
        counts[wall[r]] += 1
    return tuple(counts), jokers, melds, pair, draw(st.booleans())


def _compiled(counts, jokers, melds, pair, in_triplet):
    mask = COMPILED.achievable_flags(counts, jokers, melds, pair, in_triplet)
    assert mask is not None
    return D._FLAG_SETS[mask]


@settings(max_examples=examples(600))
@given(hands(sized=True))
def test_flags_equal_the_twin_on_sized_hands(hand):
    assert _compiled(*hand) == D._achievable_flags(*hand)


@settings(max_examples=examples(300))
@given(hands(sized=False))
def test_flags_equal_the_twin_on_any_hand(hand):
    assert _compiled(*hand) == D._achievable_flags(*hand)


def _counts(text):
    counts = [0] * 34
    for t in parse_tiles(text):
        counts[int(t)] += 1
    return tuple(counts)


@pytest.mark.parametrize("text, jokers, in_triplet, flags", [
    # 123m 456m 789m 111p 22p is the only split: a sequence and a real triplet
    ("123456789m11122p", 0, False, {(True, True)}),
    # 111m 222m 333m as three triplets or three sequences, or 111m 234m×3; 444m 55p
    ("111222333444m55p", 0, False, {(True, False), (True, True)}),
    # honors' triplets and an honor pair (a real pair of honors counts as the 刻)
    ("111z222z333z444z55z", 0, False, {(True, False)}),
    # 12m and the joker are a sequence; 33p 444p 555p 666p as triplets or 456p×3
    ("12m33444555666p", 1, False, {(False, True), (True, True)}),
    # no split at all
    ("1357m2468p1357s99s", 0, False, set()),
    # three jokers with no real 刻: a meld of jokers only, or a joker sequence
    ("123m456m789m11p", 3, False, {(False, True)}),
    # the honor pair, and twelve jokers: four joker melds are sequences only when jokers
    # cannot make triplets; with triplets a joker may stand beside the honor instead
    ("44z", 12, False, {(True, True)}),
    ("44z", 12, True, {(True, False), (False, False)}),
])
def test_flags_the_rules_fix(text, jokers, in_triplet, flags):
    counts = _counts(text)
    melds = (sum(counts) + jokers - 2) // 3
    assert D._achievable_flags(counts, jokers, melds, 1, in_triplet) == flags
    assert D.achievable_flags(counts, jokers, melds, 1, in_triplet) == flags


def test_outside_its_domain_the_twin_answers():
    five = (5,) + (0,) * 33
    assert COMPILED.achievable_flags(five, 0, 1, 1, False) is None
    assert COMPILED.achievable_flags((0,) * 34, 15, 4, 1, False) is None
    assert COMPILED.achievable_flags((0,) * 34, 2, 0, 2, False) is None
    assert D.achievable_flags(five, 0, 1, 1, False) == D._achievable_flags(five, 0, 1, 1, False)
