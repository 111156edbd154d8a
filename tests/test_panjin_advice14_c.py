"""盘锦's 14-tile advice in one compiled call (issue 38, webcalc/variants/panjin_advice14.c
``panjin_advice14``): :func:`webcalc.variants.panjin_advice.discards_advice` answers the
rows :func:`webcalc.efficiency.efficiency` and :func:`webcalc.efficiency.ready_discard_rows`
give — every discard's shanten, useful draws and their total, the ready discards with their
waits — and their least shanten, and :func:`webcalc.analysis.analyze` answers byte for byte
as through those calls (the hook turned off), with the searches compiled and every search
in Python; the compiled call answers every hand it covers (``None`` for 七对 with its option
and no melds, and for a hand of nearly only wildcards), and refuses arguments it cannot
read."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import webcalc.shanten as S
import webcalc.variants.panjin_advice as PA
import webcalc.variants.panjin_draws as PD
import webcalc.variants.panjin_lower as PL
import webcalc.variants.panjin_search as PS
from tests.scale import examples
from webcalc.analysis import analyze
from webcalc.efficiency import efficiency, ready_discard_rows
from webcalc.tiles import counts_of, parse_tiles

from .compiled import COMPILED, compiled_only
from .test_engine_shanten_exact import random_case, situation_of
from .test_panjin_advice_c import REFUSED
from .test_panjin_own_advice import _clear, with_visible

MODS = (S, PS, PD, PL, PA)


def _request(seed):
    """A 盘锦 request of 14 tiles (melds, wildcards, options and the discard-win rule as
    the engine tests draw them), with visible tiles now and then."""
    rng = random.Random(seed)
    return with_visible(rng, random_case(rng, "panjin", 14))


def _of(req):
    v, sit = situation_of(req)
    vis = counts_of(parse_tiles(req["visible"])) if req.get("visible") else ()
    return v, sit, v.kinds_in_play(sit.options), vis


def _reference(req):
    """What analyze() reads a 14-tile hand's advice off without the call: efficiency()'s
    rows, ready_discard_rows() of them and their least shanten."""
    v, sit, kinds, vis = _of(req)
    eff = efficiency(v, sit, vis or [0] * 34, kinds)
    best = min((e["shanten"] for e in eff if e["shanten"] is not None), default=None)
    return eff, ready_discard_rows(eff), best


def _python(f, req, searches_too):
    """``f(req)`` with the compiled call off (and, ``searches_too``, every search in
    Python)."""
    for m in (MODS if searches_too else (PA,)):
        m._pjunit = None
    if searches_too:
        _clear()
    try:
        return f(req)
    finally:
        for m in MODS:
            m._pjunit = COMPILED
        if searches_too:
            _clear()


def _covered(sit):
    """The hands the compiled call answers (the others: None, the Python path)."""
    return (not (sit.options.seven_pairs and not sit.hand.melds)
            and len(sit.jokers) < len(sit.hand.concealed) - 1)


def _body(req):
    return json.dumps(analyze(req).to_json(), default=str, ensure_ascii=False)


@compiled_only
@settings(max_examples=examples(300), deadline=None)
@given(seed=st.integers(0, 2**31))
def test_the_compiled_call_answers_as_the_python_path(seed):
    req = _request(seed)
    v, sit, kinds, vis = _of(req)
    got = PA.discards_advice(v, sit, kinds, vis)
    assert (got is not None) == _covered(sit), req
    if got is not None:
        want = _reference(req)
        assert tuple(got) == want, req
        if seed % 8 == 0:                                    # every search in Python too
            assert want == _python(_reference, req, True), req
    try:
        body = _body(req)
    except Exception as e:                                   # a refused request: the same
        with pytest.raises(type(e)):
            _python(_body, req, False)
        return
    assert body == _python(_body, req, False), req


def test_analyze_answers_as_the_python_path_without_the_compiled_part():
    """With or without the compiled part (WEBCALC_PURE_PYTHON=1 runs this file too), the
    hook answers what the general path does: None without it."""
    for seed in range(examples(40)):
        req = _request(seed)
        v, sit, kinds, vis = _of(req)
        if COMPILED is None:
            assert PA.discards_advice(v, sit, kinds, vis) is None
        assert _body(req) == _python(_body, req, False), req


@compiled_only
def test_a_known_hand_through_the_compiled_call():
    """123m 456p 789s 11z 23z and a 4z, 5m showing (6m wild, none held): dropping 2z, 3z
    or 4z leaves 123m 456p 789s 11z and two honors (shanten 1: no honor run, the pair
    and a 刻 still to make); every discard's row and analyze()'s body as the Python
    path's."""
    req = {"variant": "panjin", "hand": "123m456p789s11234z", "indicator": "5m"}
    v, sit, kinds, vis = _of(req)
    got = PA.discards_advice(v, sit, kinds, vis)
    assert got is not None and tuple(got) == _reference(req)
    eff, discards, best = got
    body = analyze(req).to_json()
    assert body["efficiency"] == eff and body["discards"] == discards
    assert body["shanten"] == best == 1
    assert {e["discard"] for e in eff if e["shanten"] == 1} >= {"2z", "3z", "4z"}


@compiled_only
def test_ready_discards_for_a_discard_win():
    """111m 234p 567s 789s 1z 2z under the discard-win rule: dropping either honor leaves a
    hand waiting on the other's pair, its waits read as the 13-tile hand's (C-12); the
    ready rows list them."""
    req = {"variant": "panjin", "hand": "111m234p567s789s12z", "win_by": "discard",
           "options": {"wildcard_mode": "none"}}
    v, sit, kinds, vis = _of(req)
    got = PA.discards_advice(v, sit, kinds, vis)
    assert got is not None and tuple(got) == _reference(req) == _python(_reference, req, True)
    eff, discards, best = got
    assert best == 0
    assert {d["discard"]: [w["tile"] for w in d["waits"]] for d in discards} == {
        "1z": ["2z"], "2z": ["1z"]}


@compiled_only
def test_seven_pairs_and_a_hand_of_wildcards_are_left_to_the_python_path():
    """七对 with its option and no melds (PJ-8), and 13 wildcards and one tile: None, and
    analyze() answers through the general path."""
    for req in ({"variant": "panjin", "hand": "1133m5577p99s1122z", "indicator": "5m",
                 "options": {"seven_pairs": True}},
                {"variant": "panjin", "hand": "1m" + "6666m", "indicator": "5m",
                 "melds": [{"type": "pong", "tiles": "222p"}, {"type": "pong",
                                                               "tiles": "333p"},
                           {"type": "pong", "tiles": "444s"}]}):
        v, sit, kinds, vis = _of(req)
        assert PA.discards_advice(v, sit, kinds, vis) is None
        assert _body(req) == _python(_body, req, False)


def _args():
    rng = random.Random(5)
    real = [0] * 34
    for k in rng.sample(range(27), 11):
        real[k] = 1
    real[27] = 3
    return [tuple(real), (4,) * 34, 0, 0, 4, 0, 8, False, False, False, (), real, -1, (), 34]


@compiled_only
@pytest.mark.parametrize("bad, error", REFUSED)
def test_arguments_it_cannot_read_are_refused(bad, error):
    args = _args()
    assert COMPILED.panjin_advice14(*args) is not None
    for i, v in bad.items():
        args[i] = v
    with pytest.raises(error):
        COMPILED.panjin_advice14(*args)


@compiled_only
def test_a_call_made_while_it_runs_is_refused():
    """The call runs discards_drawn's tables: a call back into the module while it reads
    its arguments (an item's ``__index__``) gets RuntimeError, as discards_drawn's does."""
    seen = []

    class Sneaky:
        def __index__(self):
            try:
                COMPILED.discards_drawn((0,) * 34, (4,) * 34, 0, 0, 4, 0, 14, 8, 0, 1,
                                        False, (0,) * 40, ())
            except RuntimeError as e:
                seen.append(str(e))
            return 0
    args = _args()
    args[0] = [Sneaky()] + list(args[0][1:])
    COMPILED.panjin_advice14(*args)
    assert seen and "called while running" in seen[0]
