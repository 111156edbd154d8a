"""Issue 38's one compiled call per hand (webcalc/_pjunit_rows.c ``free_advice``) against its
Python twin (:func:`webcalc.advice_rows.advice_rows` of ``free_draws``' answer), and
``analyze()`` with it against ``analyze()`` building the same rows row by row from the
compiled draws (the path it replaced, still there for the rule sets it does not serve):
every field of every answer equal."""

import os
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.scale import examples
from webcalc import analysis, compiled
from webcalc.advice_rows import advice_rows
from webcalc.errors import InputError

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import answers  # noqa: E402

if compiled.pjunit is None:
    if os.environ.get("CI") and not os.environ.get("WEBCALC_PURE_PYTHON"):
        raise AssertionError("webcalc._pjunit was not built")
    pytest.skip("webcalc._pjunit not built: nothing compiled to compare", allow_module_level=True)
C = compiled.pjunit


@st.composite
def hands(draw):
    """free_draws' arguments of a hand of 13 or 14 tiles (0-2 pungs melded), at most four of
    a kind with the indicator; a wildcard kind or two, visible counts or none, honors in
    play or not, and the discards (14 tiles: every kind held, or some of them)."""
    n = draw(st.sampled_from((13, 14)))
    pungs = draw(st.lists(st.integers(0, 33), max_size=2, unique=True))
    concealed = draw(st.lists(st.integers(0, 33), min_size=n - 3 * len(pungs),
                              max_size=n - 3 * len(pungs)))
    counts = [0] * 34
    for k in concealed:
        counts[k] += 1
    indicator = draw(st.integers(-1, 33))
    total = list(counts)
    for k in pungs:
        total[k] += 3
    if indicator >= 0:
        total[indicator] += 1
    if max(total) > 4:
        indicator = -1
        total = [c + 3 * (k in pungs) for k, c in enumerate(counts)]
    if max(total) > 4:
        pungs = []
        concealed = sorted(k % 34 for k in range(n))       # a hand that fits: 1m..
        counts = [0] * 34
        for k in concealed:
            counts[k] += 1
    kinds = 34 if draw(st.booleans()) or max(concealed + pungs) >= 27 else 27
    wild = 0
    for k in draw(st.lists(st.integers(0, kinds - 1), max_size=2, unique=True)):
        wild |= 1 << k
    shapes = draw(st.integers(0, 15))
    visible = draw(st.one_of(st.just([]), st.lists(st.integers(0, 2), min_size=34,
                                                   max_size=34)))
    meld_tiles = [k for k in pungs for _ in range(3)]
    discards = None
    if n == 14:
        held = [k for k in range(34) if counts[k]]
        keep = draw(st.lists(st.booleans(), min_size=len(held), max_size=len(held)))
        discards = [k for k, on in zip(held, keep) if on or not any(keep)]
    return (counts, meld_tiles, indicator, kinds, wild, shapes, len(pungs)), discards, visible


@settings(max_examples=examples(400), deadline=None)
@given(hands())
def test_free_advice_is_its_python_twin(case):
    args, discards, visible = case
    answer = C.free_draws(*args, discards)
    want = advice_rows(answer, args[0], args[1], args[2], args[3], visible, discards)
    assert C.free_advice(*args, discards, visible) == want


def test_free_advice_known_hand():
    """123m456p789s1122z: ready on 1z and 2z (a pair each way), two of each left; with
    one 2z visible, 2z has one left. 14 tiles with 5z: discarding 5z leaves that wait."""
    counts = [0] * 34
    for k in (0, 1, 2, 12, 13, 14, 24, 25, 26, 27, 27, 28, 28):
        counts[k] += 1
    visible = [0] * 34
    visible[28] = 1
    shanten, waits, useful, total, any_tile = C.free_advice(counts, (), -1, 34, 0, 1, 0,
                                                            None, visible)
    assert shanten == 0 and not any_tile
    assert waits == [{"tile": "1z", "remaining": 2, "dead": False},
                     {"tile": "2z", "remaining": 1, "dead": False}]
    assert useful == waits and total == 3
    counts[31] += 1
    eff, discards, best = C.free_advice(counts, (), -1, 34, 0, 1, 0, [31], visible)
    assert best == 0
    assert discards == [{"discard": "5z", "waits": waits, "remaining": 3}]
    assert eff == [{"discard": "5z", "shanten": 0, "useful": waits, "useful_total": 3}]


def test_free_advice_bad_arguments():
    counts = [1] * 13 + [0] * 21
    with pytest.raises(ValueError):
        C.free_advice(counts, (), -1, 34, 0, 1, 0, None, [0] * 5)     # visible: 34 or none
    with pytest.raises(ValueError):
        C.free_advice(counts, (), 40, 34, 0, 1, 0, None, ())          # free_draws' checks
    with pytest.raises(TypeError):
        C.free_advice(counts, (), -1, 34, 0, 1, 0, None)              # nine arguments
    for bad in (2**40, 2**32 + 1, -1, 5):   # 2**40 was read as 0 copies seen: 3 left, not 0
        visible = [0] * 34
        visible[13] = bad
        with pytest.raises(ValueError):
            C.free_advice(counts, (), -1, 34, 0, 1, 0, None, visible)
        with pytest.raises(ValueError):
            advice_rows(C.free_draws(counts, (), -1, 34, 0, 1, 0, None), counts, (), -1, 34,
                        visible, None)
    # counts an iterator: free_draws reads it up, free_advice found none left and returned
    # NULL with no exception set (SystemError)
    with pytest.raises(ValueError):
        C.free_advice(iter(counts), (), -1, 34, 0, 1, 0, None, ())


def _json(req):
    try:
        return analysis.analyze(req).to_json()
    except InputError as e:
        return type(e).__name__


@pytest.mark.parametrize("seed", range(2))
def test_analyze_same_as_the_rows_built_one_by_one(seed, monkeypatch):
    """bench/answers.py's requests (all rule sets, options, wildcards, melds, visible tiles,
    winning tiles, settlements): the one-call rows and the row-by-row ones are equal."""
    reqs = list(answers.requests(3800 + seed, 400))
    fast = [_json(r) for r in reqs]
    monkeypatch.setattr(analysis, "compiled_advice", lambda *a, **k: None)
    slow = [_json(r) for r in reqs]
    assert sum(1 for r in reqs if r["variant"] != "panjin") > 200
    for req, a, b in zip(reqs, fast, slow):
        assert a == b, req
