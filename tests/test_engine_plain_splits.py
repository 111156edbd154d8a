"""The splits of a hand without wildcards (webcalc/decompose.py ``_plain_splits``, what
``standard_readings`` lists such a hand's readings from) are those of the general search
with jokers (``_splits``, which stays the reference): the same set of group multisets, for
complete hands built from random groups and for random tiles, with 0-3 melds declared."""

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.scale import examples
from webcalc.decompose import (
    _PLAIN_GROUPS,
    Reading,
    _plain_splits,
    _splits,
    listed_dicts,
    standard_readings,
)

GROUPS = ([("pair", k) for k in range(34)] + [("trip", k) for k in range(34)]
          + [("seq", s * 9 + r) for s in range(3) for r in range(7)])


def _counts(tiles):
    c = [0] * 34
    for k in tiles:
        c[k] += 1
    return c


@st.composite
def hands(draw):
    """(counts, melds still to find): a complete concealed part (groups drawn at random, at
    most four of a kind), or as many random tiles."""
    melds = draw(st.integers(1, 4))
    if draw(st.booleans()):
        tiles = []
        for kind, k in [draw(st.sampled_from([g for g in GROUPS if g[0] == "pair"]))] + [
                draw(st.sampled_from([g for g in GROUPS if g[0] != "pair"]))
                for _ in range(melds)]:
            tiles += {"pair": [k, k], "trip": [k, k, k], "seq": [k, k + 1, k + 2]}[kind]
    else:
        tiles = draw(st.lists(st.integers(0, 33), min_size=3 * melds + 2,
                              max_size=3 * melds + 2))
    c = _counts(tiles)
    if max(c) > 4:
        c = [min(x, 4) for x in c]
    return c, melds


def _as_set(splits):
    return {tuple(sorted(s)) for s in splits}


@settings(max_examples=examples(600), deadline=None)
@given(hands())
def test_plain_splits_are_the_general_ones(case):
    counts, melds = case
    want = _as_set(_splits(tuple(counts), 0, melds, 1, True, None, {}))
    got = _as_set(_plain_splits(list(counts), 0, melds, 1, 0))
    assert got == want


def test_a_hand_with_two_readings():
    """111222333m 456p 77s: three triplets or three sequences 123m beside 456p and the pair
    77s: the two readings the rules list (C-4), each once."""
    tiles = [0, 0, 0, 1, 1, 1, 2, 2, 2, 12, 13, 14, 24, 24]
    readings = standard_readings(_counts(tiles), (), ())
    shapes = sorted(tuple(g.kind for g in r.groups) for r in readings)
    assert shapes == [("pair", "sequence", "sequence", "sequence", "sequence"),
                      ("pair", "sequence", "triplet", "triplet", "triplet")]


def test_listed_groups_without_wildcards_are_their_to_dict():
    """listed_dicts builds a group without wildcards' API dict from its stored parts: the
    same dict as ``Group.to_dict`` for each of the 89 (the order of keys included), one new
    dict per call (a caller that changes it changes no other answer)."""
    for g in _PLAIN_GROUPS.values():
        reading = Reading("standard", (g,))
        got = listed_dicts([reading], ())[0]["groups"][0]
        assert list(got.items()) == list(g.to_dict().items())
        assert got["faces"] == got["tiles"] and got["wild"] == [False] * len(g.tiles)
        again = listed_dicts([reading], ())[0]["groups"][0]
        assert again == got and again is not got and again["tiles"] is not got["tiles"]
    pair = _PLAIN_GROUPS[(0, ((27, False), (27, False)))]
    assert listed_dicts([Reading("standard", (pair,))], ())[0]["groups"] == [
        {"kind": "pair", "tiles": ["1z", "1z"], "wild": [False, False], "exposed": False,
         "faces": ["1z", "1z"]}]
