"""盘锦's 13-tile advice in one pass (issue 38 round 6, ``Panjin.own_advice``,
webcalc/variants/panjin_advice.py): :func:`webcalc.analysis.analyze` answers byte for byte
as it does through :func:`webcalc.waits.find_waits`, :func:`webcalc.waits.is_any_tile_wait`
and :func:`webcalc.efficiency.useful_draws` (the hook turned off), for 13-tile hands and
the waits of 14-tile hands with a winning tile — melds, wildcards, visible tiles, the
discard-win rule and the room options drawn as the engine tests draw them — in the compiled
part and the pure-Python twin."""

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
from webcalc.tiles import ALL_TILES, format_tiles, parse_tiles
from webcalc.variants import VARIANTS
from webcalc.variants.base import Variant

from .compiled import COMPILED, compiled_only
from .test_engine_shanten_exact import random_case

PANJIN = VARIANTS["panjin"]


def _request(seed):
    """A 盘锦 request of 13 tiles, or of 14 with a winning tile (its waits are asked), with
    visible tiles now and then."""
    rng = random.Random(seed)
    n = rng.choice((13, 13, 14))
    req = random_case(rng, "panjin", n)
    if n == 14:
        req["winning_tile"] = rng.choice(parse_tiles(req["hand"])).code
        if req.get("win_by") == "discard" and req["winning_tile"] in {
                t.code for t in PANJIN.wildcards(PANJIN.Options(**req["options"]),
                                                 None if req.get("indicator") is None
                                                 else parse_tiles(req["indicator"])[0])}:
            req.pop("win_by")
    return with_visible(rng, req)


def with_visible(rng, req):
    """``req`` with 1-11 of the copies it leaves ``visible``, two times in five."""
    if rng.random() < 0.4:
        held = parse_tiles(req["hand"]) + [t for m in req.get("melds", ())
                                           for t in parse_tiles(m["tiles"])]
        if req.get("indicator"):
            held += parse_tiles(req["indicator"])
        left = [k for k in range(34) for _ in range(4 - held.count(ALL_TILES[k]))]
        req["visible"] = format_tiles(sorted(rng.sample(left, rng.randrange(1, 12))))
    return req


def _answer(req, hook):
    """``analyze(req)`` as JSON, with ``Panjin.own_advice`` on or (``hook`` false) off."""
    if not hook:
        type(PANJIN).own_advice = Variant.own_advice          # type: ignore[method-assign]
    try:
        return json.dumps(analyze(req).to_json(), default=str, sort_keys=True,
                          ensure_ascii=False)
    finally:
        type(PANJIN).own_advice = _HOOK                       # type: ignore[method-assign]


_HOOK = type(PANJIN).own_advice


def _clear():
    for f in (PD.unit_panjin_drawn, PD.unit_panjin_drawn_drops, PD._standard_drawn_compiled,
              PS._rest_places_all, PS._relaxed_bounds, PS._unit_free_min, S.unit_free):
        f.cache_clear()


@pytest.mark.parametrize("compiled", [
    pytest.param(True, marks=compiled_only), False], ids=["compiled", "python"])
@settings(max_examples=examples(150), deadline=None)
@given(seed=st.integers(0, 2**31))
def test_own_advice_answers_as_the_calls_it_stands_in_for(compiled, seed):
    req = _request(seed)
    mods = (S, PS, PD, PL, PA)
    if not compiled:
        for m in mods:
            m._pjunit = None
        _clear()
    try:
        try:
            want = _answer(req, hook=False)
        except Exception as e:                               # a refused request: the same
            with pytest.raises(type(e)):
                _answer(req, hook=True)
            return
        assert _answer(req, hook=True) == want, req
    finally:
        for m in mods:
            m._pjunit = COMPILED
        _clear()


def test_own_advice_is_asked_and_answers_a_known_hand():
    """123m 456p 789s 11z 23z with 5m showing (6m wild): the hook answers (a tuple, not
    ``None``); the hand draws 1z/2z/3z, or a wildcard, to complete as 盘锦 allows, and the
    rows are the API's."""
    req = {"variant": "panjin", "hand": "123m456p789s1123z", "indicator": "5m"}
    from tests.test_engine_shanten_exact import situation_of
    _, sit = situation_of(req)
    got = PANJIN.own_advice(sit, 34, ())
    assert got is not None
    body = analyze(req).to_json()
    assert got[0] == body["shanten"]
    assert got[1] == [{k: w[k] for k in ("tile", "remaining", "dead")} for w in body["waits"]]
    assert got[2] == body["useful"] and got[3] == body["useful_total"]
    assert _answer(req, hook=True) == _answer(req, hook=False)


def test_own_advice_any_tile_wait():
    """111m 234p 567s 789s and a 6m (5m showing: a wildcard): every kind completes it —
    the joker pairs with any tile (PJ-2), and 111m, the sequences, three suits and a 1m
    meet PJ-4..PJ-7 — so it is 混单吊 (``any_tile_wait``), ready, with every copy useful."""
    req = {"variant": "panjin", "hand": "1116m234p567s789s", "indicator": "5m"}
    body = analyze(req).to_json()
    assert body["any_tile_wait"] is True and len(body["waits"]) == 34
    assert body["shanten"] == 0
    assert _answer(req, hook=True) == _answer(req, hook=False)
