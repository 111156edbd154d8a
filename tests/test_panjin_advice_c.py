"""盘锦's 13-tile advice in one compiled call (issue 38 round 7, webcalc/variants/
panjin_advice.c ``panjin_advice``): :func:`webcalc.variants.panjin_advice.own_advice`
answers the same tuple — shanten, the wait rows, the useful rows, their total, 混单吊 —
through the compiled call as through its Python path (the count, the searches, the waits'
candidates, filter and split search, the rows, in Python), and as the pure-Python twin
(every search in Python); the compiled call answers every hand it covers (``None`` only
for 七对 with its option and no melds), and refuses arguments it cannot read."""

from __future__ import annotations

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
from webcalc.tiles import counts_of, parse_tiles

from .compiled import COMPILED, compiled_only
from .test_engine_shanten_exact import situation_of
from .test_panjin_own_advice import _clear, _request

MODS = (S, PS, PD, PL, PA)


def _advice(req):
    """``own_advice`` of the request's 13 tiles (a 14-tile request: its waits before the
    winning tile, no useful draws), as :func:`webcalc.analysis.analyze` asks it."""
    v, sit = situation_of(req)
    useful = len(sit.hand.concealed) + 3 * len(sit.hand.melds) == 13
    if not useful:
        sit = sit.without_tile(parse_tiles(req["winning_tile"])[0])
    vis = counts_of(parse_tiles(req["visible"])) if req.get("visible") else ()
    return sit, v.own_advice(sit, v.kinds_in_play(sit.options), vis, useful)


def _python(req, searches_too):
    """:func:`_advice` through own_advice's Python path (the compiled searches below it,
    or, ``searches_too``, every search in Python)."""
    for m in (MODS if searches_too else (PA,)):
        m._pjunit = None
    if searches_too:
        _clear()
    try:
        return _advice(req)[1]
    finally:
        for m in MODS:
            m._pjunit = COMPILED
        if searches_too:
            _clear()


@compiled_only
@settings(max_examples=examples(300), deadline=None)
@given(seed=st.integers(0, 2**31))
def test_the_compiled_call_answers_as_the_python_path(seed):
    req = _request(seed)
    try:
        sit, got = _advice(req)
    except Exception as e:                                   # a refused request: the same
        with pytest.raises(type(e)):
            _python(req, False)
        return
    assert got == _python(req, False), req
    if seed % 8 == 0:                                        # every search in Python too
        assert got == _python(req, True), req
    if got is not None and not (sit.options.seven_pairs and not sit.hand.melds):
        # what the compiled call covers it answers itself (the Python path not asked)
        PA._pjunit = None
        try:
            calls = []
            real = COMPILED.panjin_advice

            class Spy:
                def __getattr__(self, name):
                    return getattr(COMPILED, name)

                def panjin_advice(self, *args):
                    calls.append(real(*args))
                    return calls[-1]
            PA._pjunit = Spy()
            _advice(req)
        finally:
            PA._pjunit = COMPILED
        assert calls and calls[0] is not None, req


@compiled_only
@settings(max_examples=examples(300), deadline=None)
@given(seed=st.integers(0, 2**31))
def test_caps_left_to_the_call_are_hand_caps(seed):
    """``caps`` None: the call works the caps and the joker room out itself (of the counts
    held and the indicator) and answers as with :func:`webcalc.shanten.hand_caps`' — both
    calls, melds (kongs, 混杠) and wildcards included."""
    req = _request(seed)
    try:
        v, sit = situation_of(req)
    except Exception:                                        # a refused request
        return
    face, real_caps, room = S.hand_caps(sit)
    allowed = v.allowed_suit_counts(sit)
    kinds = v.kinds_in_play(sit.options)
    given_caps = list(PA._compiled_args(sit, (face, real_caps, room), allowed, kinds, ()))
    left = list(PA._compiled_args(sit, None, allowed, kinds, ()))
    assert left[1] is None and left[3] == 0
    assert left[:1] + left[2:3] + left[4:] == given_caps[:1] + given_caps[2:3] + given_caps[4:]
    call = (COMPILED.panjin_advice if len(sit.hand.concealed) + 3 * len(sit.hand.melds) == 13
            else COMPILED.panjin_advice14)
    extra = (True,) if call is COMPILED.panjin_advice else ()
    try:
        want = call(*given_caps, *extra)
    except ValueError:                                       # arguments it refuses: the same
        with pytest.raises(ValueError):
            call(*left, *extra)
        return
    assert call(*left, *extra) == want, req


@compiled_only
def test_a_known_hand_through_the_compiled_call():
    """123m 456p 789s 11z 2z 3z, 5m showing (6m wild, none held): the compiled call
    answers; a 2z or 3z and then its pair or a wildcard are two draws (shanten 1: no
    honor run, and 2z 3z cannot both be the eyes), and the rows are analyze()'s and the
    Python path's."""
    req = {"variant": "panjin", "hand": "123m456p789s1123z", "indicator": "5m"}
    sit, got = _advice(req)
    assert got is not None
    body = analyze(req).to_json()
    assert got[0] == body["shanten"] == 1
    assert got[1] == [{k: w[k] for k in ("tile", "remaining", "dead")} for w in body["waits"]]
    assert got[2] == body["useful"] and got[3] == body["useful_total"]
    assert got == _python(req, False) == _python(req, True)


@compiled_only
def test_any_tile_wait_through_the_compiled_call():
    """111m 234p 567s 789s and a 6m (5m showing: a wildcard): every kind completes it, the
    wildcard kinds by the split search with one joker more — 混单吊, every kind a wait."""
    req = {"variant": "panjin", "hand": "1116m234p567s789s", "indicator": "5m"}
    sit, got = _advice(req)
    assert got is not None and got[4] is True and len(got[1]) == 34 and got[0] == 0
    assert {"tile": "6m", "remaining": 3, "dead": False} in got[1]   # a wildcard kind
    assert got == _python(req, False)


@compiled_only
def test_seven_pairs_is_left_to_the_python_path():
    """七对 with its option and no melds (PJ-8): the compiled call answers None, and
    own_advice answers through its Python path as before."""
    req = {"variant": "panjin", "hand": "1133m5577p99s112z", "indicator": "5m",
           "options": {"seven_pairs": True}}
    v, sit = situation_of(req)
    args = (sit.real_counts, [4] * 34, len(sit.jokers), 0, 4, 0, 8, False, False, True, (),
            sit.hand.held_counts(), 4, (), 34, True)
    assert COMPILED.panjin_advice(*args) is None
    assert COMPILED.panjin_advice(*args[:9], False, *args[10:]) is not None
    got = _advice(req)[1]
    assert got is not None and got[0] == 0 and got == _python(req, False)


#: arguments panjin_advice (and panjin_advice14, the same but its last) cannot read: the
#: argument's place, what is put there, the error
REFUSED = [
    ({0: (0,) * 33}, ValueError),                     # real: 34 numbers
    ({11: (0,) * 10}, ValueError),                    # held: 34 numbers
    ({13: (0,) * 5}, ValueError),                     # visible: 34 or none
    ({12: 34}, ValueError),                           # indicator -1..33
    ({14: 35}, ValueError),                           # kinds 0..34
    ({4: 5}, ValueError),                             # groups 0..4
    ({10: (34,)}, ValueError),                        # wild: kinds 0..33
    ({1: (99,) * 34}, ValueError),                    # caps -64..64 (standard_drawn's)
    ({0: "x"}, TypeError),
]


@compiled_only
@pytest.mark.parametrize("bad, error", REFUSED)
def test_arguments_it_cannot_read_are_refused(bad, error):
    rng = random.Random(5)
    real = [0] * 34
    for k in rng.sample(range(27), 10):
        real[k] = 1
    real[27] = 3
    args = [tuple(real), (4,) * 34, 0, 0, 4, 0, 8, False, False, False, (), real, -1, (),
            34, True]
    assert COMPILED.panjin_advice(*args) is not None
    for i, v in bad.items():
        args[i] = v
    with pytest.raises(error):
        COMPILED.panjin_advice(*args)


@compiled_only
def test_a_call_made_while_it_runs_is_refused():
    """The call runs standard_drawn's tables: a call back into the module while it reads
    its arguments (an item's ``__index__``) gets RuntimeError, as standard_drawn's does;
    own_advice answers such a refusal through its Python path."""
    seen = []

    class Sneaky:
        def __index__(self):
            try:
                COMPILED.standard_drawn((0,) * 34, (4,) * 34, 0, 0, 4, 0, 14, 8, 0, 1,
                                        False, (0,) * 40)
            except RuntimeError as e:
                seen.append(str(e))
            return 0
    real = [Sneaky()] + [0] * 33
    COMPILED.panjin_advice(real, (4,) * 34, 0, 0, 4, 0, 8, False, False, False, (), [0] * 34,
                           -1, (), 34, True)
    assert seen and "called while running" in seen[0]
