"""The compiled reading of a hand field in the plain notation (webcalc/_pjunit_rows.c
``plain_hand``) against its Python twin (webcalc/analysis.py ``_plain_hand`` with the compiled
part ruled out: ``plain_kinds`` and ``counts_of``): the same tiles and counts, or the same
``None``, for hand texts written to hit every branch and for random ones."""

import os
import random

import pytest

import webcalc.analysis as A
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

