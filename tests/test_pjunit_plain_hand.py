"""Two compiled steps of a hand without wildcards (webcalc/_pjunit_rows.c) against their
Python twins: ``plain_hand``, the hand field in the plain notation read to tiles and counts
(webcalc/analysis.py ``_plain_hand`` with the compiled part ruled out: ``plain_kinds`` and
``counts_of``), the same tiles and counts, or the same ``None``, for hand texts written to hit
every branch and for random ones; and ``plain_readings``, the standard readings as group ids
(webcalc/decompose.py ``_plain_reading_ids``), the same readings in the same order as the twin
and as standard_readings listed them before ids."""

import os
import random

import pytest

import webcalc.analysis as A
import webcalc.decompose as D
from webcalc.tiles import ALL_TILES

COMPILED = A._read_plain
if COMPILED is None:
    if os.environ.get("CI") and not os.environ.get("WEBCALC_PURE_PYTHON"):
        raise AssertionError("webcalc._pjunit was not built: CI must test it")
    pytest.skip("the compiled part is ruled out or not built: the Python reading is the only "
                "one", allow_module_level=True)

def _python(text, kinds):
    saved, A._read_plain = A._read_plain, None
    try:
        return A._plain_hand(text, kinds)
    finally:
        A._read_plain = saved


def _kinds(answer):
    return None if answer is None else ([int(t) for t in answer[0]], answer[1])


CASES = [
    # (text, kinds, the kinds held or None)
    ("1230m11z", 34, [0, 1, 2, 4, 27, 27]),
    ("123m456p789s1122z", 34, [0, 1, 2, 12, 13, 14, 24, 25, 26, 27, 27, 28, 28]),
    ("11Z999S", 34, [26, 26, 26, 27, 27]),
    ("05m", 34, [4, 4]),
    ("55555m", 34, None),           # five of a kind: the general path words C-2
    ("0555m", 34, [4, 4, 4, 4]),
    ("00555m", 34, None),
    ("1z", 27, None),               # an honor where the room has none (C-1)
    ("9s", 27, [26]),
    ("0z", 34, None), ("8z", 34, None), ("18z", 34, None),
    ("", 34, None), ("m", 34, None), ("123", 34, None), ("123m4", 34, None),
    ("123m 456p", 34, None), ("123x", 34, None), ("１m", 34, None), ("一万", 34, None),
    ("5mm", 34, None), ("5m5", 34, None),
]


@pytest.mark.parametrize(("text", "kinds", "held"), CASES)
def test_plain_hand_reads_as_the_python_twin(text, kinds, held):
    compiled = COMPILED(text, ALL_TILES, kinds)
    assert _kinds(compiled) == _kinds(_python(text, kinds))
    assert (None if compiled is None else [int(t) for t in compiled[0]]) == held
    if compiled is not None:
        assert all(type(t) is type(ALL_TILES[0]) for t in compiled[0])
        assert compiled[1] == [held.count(k) for k in range(34)]


def test_plain_hand_random_texts_as_the_python_twin():
    rng = random.Random(38)
    alphabet = "0123456789mpszMPSZx "
    for _ in range(5000):
        if rng.random() < 0.5:           # plain groups, some over four of a kind
            text = "".join("".join(rng.choice("0123456789") for _ in range(rng.randrange(1, 6)))
                           + rng.choice("mpszMPSZ") for _ in range(rng.randrange(1, 5)))
        else:
            text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 16)))
        kinds = rng.choice((27, 34))
        assert _kinds(COMPILED(text, ALL_TILES, kinds)) == _kinds(_python(text, kinds)), text


def test_plain_hand_refuses_bad_arguments():
    with pytest.raises(TypeError):
        COMPILED("1m", list(ALL_TILES), 34)
    with pytest.raises(TypeError):
        COMPILED("1m", ALL_TILES)


def _hands(rng, n):
    """Random concealed counts of 3n + 2 tiles (at most four of a kind), a third of them
    built of groups so that they have readings, some several."""
    while True:
        c = [0] * 34
        left = n
        if n >= 3 and rng.random() < 0.3:   # 111222333: three triplets or three sequences
            k = rng.randrange(27)
            k -= max(0, k % 9 - 6)
            for j in (k, k + 1, k + 2):
                c[j] += 3
            left = n - 3
        if left < n or rng.random() < 0.6:
            for _ in range(left):
                k = rng.randrange(34)
                if k < 27 and k % 9 < 7 and rng.random() < 0.6:
                    for j in (k, k + 1, k + 2):
                        c[j] += 1
                else:
                    c[k] += 3
            c[rng.randrange(34)] += 2
        else:
            suits = rng.sample(range(34), rng.randrange(4, 12))
            for _ in range(3 * n + 2):
                c[rng.choice(suits)] += 1
        if max(c) <= 4:
            return c


def _old_plain_readings(counts, melds):
    """standard_readings' readings of a hand without jokers as they were listed before the
    ids: the splits' distinct groups ranked, each reading its ranks sorted, the set sorted."""
    splits = D._plain_splits(list(counts), 0, melds, 1, 0)
    distinct = sorted({g for groups in splits for g in groups})
    rank = {g: r for r, g in enumerate(distinct)}
    seen = {tuple(sorted([rank[g] for g in groups])) for groups in splits}
    return [tuple([D._PLAIN_GROUPS[distinct[r]] for r in ranks]) for ranks in sorted(seen)]


def test_plain_readings_as_the_python_twin_and_the_old_listing():
    rng = random.Random(3814)
    several = 0
    for i in range(4000):
        melds = i % 5
        counts = _hands(rng, melds)
        compiled = D._pjunit.plain_readings(counts, melds)
        assert compiled == D._plain_reading_ids(counts, melds), counts
        old = _old_plain_readings(counts, melds)
        assert [tuple(D._PLAIN_BY_ID[g] for g in r) for r in compiled] == old, counts
        several += len(compiled) > 1
    assert several > 100                 # the order of several readings is held too


def test_plain_readings_known_hands():
    # 111222333m 456p 77s: three triplets or three sequences (two readings), 123m first
    c = [0] * 34
    for k in (0, 1, 2):
        c[k] = 3
    for k in (12, 13, 14):
        c[k] = 1
    c[24] = 2
    assert D._pjunit.plain_readings(c, 4) == [(24, 34, 34, 34, 46), (24, 46, 68, 69, 70)]
    c[24] = 1
    c[25] = 1                           # no pair left: no reading
    assert D._pjunit.plain_readings(c, 4) == []
    with pytest.raises(ValueError):
        D._pjunit.plain_readings(c[:33], 4)
    with pytest.raises(ValueError):
        D._pjunit.plain_readings(c, 5)


def test_standard_readings_of_five_of_a_kind_as_the_python_twin(monkeypatch):
    # 11111m234m 999p 789s: 111m 11m 234m 999p 789s. Five of a kind never comes from a
    # request (C-2), but standard_readings took such counts before plain_readings (the
    # Python twin lists them): the compiled step must leave them to the twin, not raise
    c = [0] * 34
    c[0], c[1], c[2], c[3], c[17], c[24], c[25], c[26] = 5, 1, 1, 1, 3, 1, 1, 1
    assert D._pjunit.plain_readings(c, 4) is None      # the twin's to list
    compiled = D.standard_readings(c, (), ())
    monkeypatch.setattr(D, "_pjunit", None)
    python = D.standard_readings(c, (), ())
    assert compiled == python
    assert len(python) == 1 and len(python[0].groups) == 5
