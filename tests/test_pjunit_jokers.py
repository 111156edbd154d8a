"""``joker_readings`` (webcalc/_pjunit_jokers.c): the standard readings of a complete hand with
jokers as group codes, against its Python twin webcalc/decompose.py ``_joker_reading_codes``
(``_splits`` read to codes): the same readings in the same order over hands of 0-8 jokers,
0-4 groups, every joker policy, tiles of one suit up to all kinds, complete or not; and
``standard_readings`` gives the same readings with the compiled part ruled out."""

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import webcalc.decompose as D
from tests.compiled import require_compiled
from tests.scale import examples
from webcalc.tables import can_complete, fits_standard
from webcalc.tiles import ALL_TILES, CODES

COMPILED = D._pjunit
require_compiled()


@st.composite
def hands(draw, complete: bool, groups: int | None = None):
    """(34 counts, jokers, groups, in_triplet): ``groups`` melds and a pair of real tiles and
    jokers, kinds below a cap (one suit .. all), no kind past four; complete when asked;
    ``groups`` fixed when given (then one joker or more)."""
    melds = draw(st.integers(0, 4)) if groups is None else groups
    jokers = draw(st.integers(0 if groups is None else 1, min(8, 3 * melds + 2)))
    kinds = draw(st.sampled_from([9, 18, 27, 34, 7]))
    offset = 27 if kinds == 7 else 0
    wall = [offset + k for k in range(kinds) for _ in range(4)]
    real = draw(st.lists(st.sampled_from(range(len(wall))), min_size=3 * melds + 2 - jokers,
                         max_size=3 * melds + 2 - jokers, unique=True))
    counts = [0] * 34
    for r in real:
        counts[wall[r]] += 1
    in_triplet = draw(st.booleans())
    if complete:
        assume(can_complete(tuple(counts), jokers, melds, 1, in_triplet))
    return counts, jokers, melds, in_triplet


def _twins(counts, jokers, melds, in_triplet):
    return (D._joker_reading_codes(counts, jokers, melds, in_triplet),
            COMPILED.joker_readings(tuple(counts), jokers, melds, in_triplet))


@settings(max_examples=examples(400))
@given(hands(complete=True))
def test_joker_readings_equal_the_twin_on_complete_hands(hand):
    python, compiled = _twins(*hand)
    assert python, "a complete hand has a reading"
    assert compiled == python


@settings(max_examples=examples(200))
@given(hands(complete=False))
def test_joker_readings_equal_the_twin_on_any_hand(hand):
    python, compiled = _twins(*hand)
    assert compiled == python


@settings(max_examples=examples(300))
@given(hands(complete=False, groups=4), st.sampled_from([27, 31, 33, 0, 4]))
def test_standard_readings_the_same_without_the_compiled_part_on_any_hand(hand, wild):
    """Four groups' worth of tiles, complete or not: the compiled search is asked first
    and answers [] for a hand that does not fit, as can_complete and the twin do."""
    counts, jokers, melds, in_triplet = hand
    policy = D.JokerPolicy(in_triplet)
    joker_tiles = [ALL_TILES[wild]] * jokers
    fast = D.standard_readings(counts, joker_tiles, (), policy)
    saved, D._pjunit = D._pjunit, None
    try:
        slow = D.standard_readings(counts, joker_tiles, (), policy)
    finally:
        D._pjunit = saved
    assert fast == slow
    assert bool(fast) == can_complete(tuple(counts), jokers, 4, 1, in_triplet)


@settings(max_examples=examples(200))
@given(hands(complete=True), st.sampled_from([27, 31, 33, 0, 4]))
def test_standard_readings_the_same_without_the_compiled_part(hand, wild):
    counts, jokers, melds, in_triplet = hand
    policy = D.JokerPolicy(in_triplet)
    joker_tiles = [ALL_TILES[wild]] * jokers
    fast = D.standard_readings(counts, joker_tiles, (), policy)
    saved, D._pjunit = D._pjunit, None
    try:
        slow = D.standard_readings(counts, joker_tiles, (), policy)
    finally:
        D._pjunit = saved
    assert fast == slow
    assert D.listed_dicts(fast, joker_tiles) == D.listed_dicts(slow, joker_tiles)


def test_a_hand_with_one_joker_reads_as_the_rules_say():
    # 1z1z1z 2z2z2z 3z3z3z 1m 2m 5z 5z and a joker (7z): 1m cannot pair (a joker pairing it
    # leaves 2m alone), 5z5z with the joker a triplet leaves 1m 2m no pair: so 5z5z is the
    # pair, 1m 2m and the joker as 3m a sequence, the honors triplets; one reading
    counts = [0] * 34
    counts[0] = counts[1] = 1
    counts[31] = 2
    counts[27] = counts[28] = counts[29] = 3
    for in_triplet in (True, False):
        readings = D.standard_readings(counts, [ALL_TILES[33]], (), D.JokerPolicy(in_triplet))
        assert [[(g.kind, _codes(g.tiles), g.wild) for g in r.groups] for r in readings] == [
            [("pair", ["5z", "5z"], (False, False)),
             ("sequence", ["1m", "2m", "3m"], (False, False, True)),
             ("triplet", ["1z"] * 3, (False,) * 3), ("triplet", ["2z"] * 3, (False,) * 3),
             ("triplet", ["3z"] * 3, (False,) * 3)]]


def test_only_jokers_left_make_free_groups():
    # 11m and three jokers as one meld and a pair: among them 11m the pair and the three
    # jokers a free meld; where jokers stand in no triplet, no triplet holds one
    counts = [0] * 34
    counts[0] = 2
    python, compiled = _twins(counts, 3, 1, True)
    assert compiled == python
    free_meld = D._group_code((3, ((-1, True),) * 3))
    pair_11 = D._group_code((0, ((0, False), (0, False))))
    assert (pair_11, free_meld) in compiled
    assert any(c >> 21 == 2 for r in compiled for c in r), "11m and a joker a triplet"
    python, compiled = _twins(counts, 3, 1, False)
    assert compiled == python
    assert (pair_11, free_meld) in compiled
    assert not any(c >> 21 == 2 for r in compiled for c in r), "no triplet holds a joker"


def _codes(tiles):
    return [CODES[t] for t in tiles]


def test_five_of_a_kind_with_a_joker_as_the_python_twin(monkeypatch):
    # 11111m 234m 999p 78s and a joker: 111m 11m 234m 999p and 678s or 789s. Five of a kind never
    # comes from a request (C-2), but standard_readings takes any counts and its Python twin
    # lists them: the compiled step must leave them to the twin, not raise (as plain_readings)
    c = [0] * 34
    c[0], c[1], c[2], c[3], c[17], c[24], c[25] = 5, 1, 1, 1, 3, 1, 1
    assert COMPILED.joker_readings(tuple(c), 1, 4, True) is None    # the twin's to list
    compiled = D.standard_readings(c, [ALL_TILES[33]], (), D.JokerPolicy(True))
    monkeypatch.setattr(D, "_pjunit", None)
    python = D.standard_readings(c, [ALL_TILES[33]], (), D.JokerPolicy(True))
    assert compiled == python
    # the joker is 6s or 9s beside 78s; 1m is a pair and a triplet in both
    assert [[(g.kind, _codes(g.tiles), g.wild) for g in r.groups][2] for r in python] == [
        ("sequence", ["6s", "7s", "8s"], (True, False, False)),
        ("sequence", ["7s", "8s", "9s"], (False, False, True))]


def _python_coded(codes, placeholder, melds):
    """decompose._coded_readings with the compiled part ruled out."""
    saved = D._pjunit
    D._pjunit = None
    try:
        return D._coded_readings(codes, placeholder, melds)
    finally:
        D._pjunit = saved


@settings(max_examples=examples(300))
@given(hands(complete=True), st.sampled_from([27, 31, 33, 0, 4]),
       st.sampled_from([(), ("碰555m",), ("吃123p", "明杠4444s")]))
def test_coded_readings_are_the_twins_groups(hand, wild, meld_texts):
    # webcalc/_pjunit_listing.c coded_readings against the Python loop: the same Reading
    # values, in the same order, holding the very same group objects (listing and the
    # variants look groups up by identity), the melds last
    from webcalc.hand import Meld

    counts, jokers, melds, in_triplet = hand
    assume(jokers > 0)
    groups = [D.meld_group(Meld.parse(m)) for m in meld_texts][:4 - melds]
    codes = COMPILED.joker_readings(tuple(counts), jokers, melds, in_triplet)
    want = _python_coded(codes, ALL_TILES[wild], tuple(groups))     # makes the groups met
    got = COMPILED.coded_readings(codes, D._CODED, wild, tuple(groups), D.Reading, "standard")
    assert got is not None
    assert got == want and all(type(r) is D.Reading for r in got)
    assert all(a is b for r, s in zip(got, want) for a, b in zip(r.groups, s.groups))
    assert D._coded_readings(codes, ALL_TILES[wild], tuple(groups)) == want


@pytest.fixture
def groups_as_they_were():
    """Puts :data:`decompose._CODED` and ``_LIST_STATIC`` back after a test that takes a
    group out: listing reads ``_LIST_STATIC`` by a group's id, which is safe only while every
    group it names lives (as the module's own do). A group taken out of ``_CODED`` and left
    to die gave its id to another object, which then listed as the dead group, wildcard
    places and all (a later test in the same process failed with ``pop from empty list``)."""
    coded, free, static = dict(D._CODED), dict(D._FREE), dict(D._LIST_STATIC)   # kept alive
    yield
    for table, was in ((D._CODED, coded), (D._FREE, free), (D._LIST_STATIC, static)):
        table.clear()
        table.update(was)
    living = {id(g) for g in (*D._CODED.values(), *D._FREE.values())}
    assert set(D._LIST_STATIC) <= living


def test_coded_readings_leave_a_group_not_met_to_the_twin(groups_as_they_were):
    # a code whose group was never made: None, and the twin makes it (then the compiled
    # call finds it); a free pair of another placeholder is another group
    code = 1 << 21 | (2 * 2 + 2) << 14 | (3 * 2 + 1) << 7 | (4 * 2 + 2)      # 2m*3m4m*
    D._CODED.pop(code, None)
    assert COMPILED.coded_readings([(code,)], D._CODED, 0, (), D.Reading, "standard") is None
    made = D._coded_readings([(code,)], ALL_TILES[0], ())
    assert made[0].groups[0] == D.Group("sequence", tuple(ALL_TILES[1:4]), (True, False, True))
    assert COMPILED.coded_readings([(code,)], D._CODED, 0, (), D.Reading, "standard") == made
    free2 = 3 << 21 | 2 << 14 | 2 << 7
    one = D._coded_readings([(free2,)], ALL_TILES[5], ())
    other = D._coded_readings([(free2,)], ALL_TILES[6], ())
    assert one[0].groups[0].tiles == (ALL_TILES[5],) * 2
    assert other[0].groups[0].tiles == (ALL_TILES[6],) * 2


def test_coded_readings_refuse_what_is_not_codes():
    import pytest

    good = ([(1 << 21,)], {}, 0, (), D.Reading, "standard")
    for bad in (("x",) + good[1:], ([("x",)],) + good[1:], ([1],) + good[1:],
                good[:1] + ([],) + good[2:], good[:2] + (34,) + good[3:],
                good[:2] + (-1,) + good[3:], good[:3] + ([],) + good[4:],
                good[:4] + (dict,) + good[5:], good[:4] + (3,) + good[5:],
                good[:5] + (None,), ([(2**70,)],) + good[1:]):
        with pytest.raises((TypeError, ValueError, OverflowError)):
            COMPILED.coded_readings(*bad)
    assert COMPILED.coded_readings(*good) is None           # an empty dict: none made


@settings(max_examples=examples(300))
@given(hands(complete=False))
def test_fits_standard_answers_as_can_complete(hand):
    """``fits_standard`` (the compiled search's answer for hands with jokers, free to stand
    in a triplet) says what the per-unit tables say, for 4 - ``melds`` declared melds."""
    counts, jokers, groups, _ = hand
    expected = can_complete(tuple(counts), jokers, groups, 1, True)
    assert fits_standard(counts, jokers, 4 - groups) is expected


def test_fits_standard_on_known_hands():
    """Hands whose answer the shape decides: PJ-2's case (fits only with jokers in
    triplets), a complete one, one of the wrong count and one with no shape."""
    def counts_of(codes):
        counts = [0] * 34
        for c in codes.split():
            counts[CODES.index(c)] += 1
        return counts
    # 11m+J and 55p+J as triplets, 123s 456s, 99s the pair: not with sequences alone
    pj2 = counts_of("1m 1m 5p 5p 1s 2s 3s 4s 5s 6s 9s 9s")
    assert fits_standard(pj2, 2, 0) is True
    assert can_complete(tuple(pj2), 2, 4, 1, False) is False
    assert fits_standard(pj2, 1, 0) is False                 # 13 tiles
    done = counts_of("1m 1m 1m 2m 3m 4m 5p 5p 5p 7s 8s 9s")
    assert fits_standard(done, 2, 0) is True                 # + two jokers as the pair
    lone = counts_of("1m 4m 7m 1p 4p 7p 1s 4s 7s 1z 2z 3z")
    assert fits_standard(lone, 2, 0) is False
    assert fits_standard(counts_of("1m 1m 1m 2m 3m 4m 5p 5p 5p"), 2, 1) is True  # a meld
