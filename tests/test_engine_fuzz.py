"""Issue 7: the engine under junk. The tile parser, the meld notation and ``analyze`` raise
nothing but :class:`~webcalc.errors.InputError` (with a known code, a Chinese message and the
field at fault) on any input, and every random hand gets a well-formed analysis (its speed
is measured in bench/worst.py, never here: the team brief forbids timed tests)."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tests.scale import examples
from webcalc.analysis import analyze
from webcalc.errors import CODES, InputError
from webcalc.hand import melds_from_api
from webcalc.notation import melds_from_text
from webcalc.tiles import Tile, format_tiles, parse_tiles
from webcalc.variants import VARIANTS

CHINESE = re.compile(r"[\u4e00-\u9fff]")
TILE_CHARS = ("0123456789mpsz 东南西北中发白红万筒饼条索一二三四五六七八九风财板, 、@:碰吃杠暗补"
              "幺鸡两个张对刻到至和还有加。")   # and the spoken words (API.md)
KINDS = [f"{r}{s}" for s in "mps" for r in range(1, 10)] + [f"{r}z" for r in range(1, 8)]

# st.text() never makes a lone surrogate (JSON's "\ud800"): mix them in, and full-width forms
SURROGATES = st.characters(categories=["Cs"])
tile_text = (st.text(alphabet=TILE_CHARS, max_size=60) | st.text(max_size=60)
             | st.text(alphabet=st.sampled_from(TILE_CHARS + "１２ｍｚ　，＠") | SURROGATES,
                       max_size=30))
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20)
    | st.text(alphabet=st.characters() | SURROGATES, max_size=20),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner,
                                                                max_size=5),
    max_leaves=15,
)


def assert_input_error(err: InputError) -> None:
    assert err.code in CODES
    assert CHINESE.search(str(err.message)), str(err.message)
    if err.position is not None:
        assert err.position >= 0


@settings(max_examples=examples(500), deadline=None)
@given(text=tile_text)
def test_parse_tiles_any_text(text):
    try:
        tiles = parse_tiles(text)
    except InputError as err:
        assert_input_error(err)
        assert err.position is None or err.position < max(len(text), 1)
        return
    assert all(isinstance(t, Tile) and 0 <= t < 34 for t in tiles)
    assert parse_tiles(format_tiles(tiles)) == sorted(tiles)        # canonical round trip


@settings(max_examples=examples(300), deadline=None)
@given(text=tile_text)
def test_tile_parse_any_code(text):
    try:
        t = Tile.parse(text)
    except InputError as err:
        assert_input_error(err)
    else:
        assert Tile.parse(t.code) == t


@settings(max_examples=examples(300), deadline=None)
@given(text=tile_text)
def test_melds_from_text_any_text(text):
    try:
        melds = melds_from_text(text)
    except InputError as err:
        assert_input_error(err)
        assert err.field and err.field.startswith("melds")
        return
    try:
        melds_from_api(melds)
    except InputError as err:
        assert_input_error(err)


@settings(max_examples=examples(300), deadline=None)
@given(raw=json_values)
def test_melds_from_api_any_value(raw):
    try:
        melds_from_api(raw)
    except InputError as err:
        assert_input_error(err)


request_like = st.fixed_dictionaries(
    {"variant": st.sampled_from(list(VARIANTS)) | json_values,
     "hand": st.text(alphabet=TILE_CHARS, max_size=30) | json_values},
    optional={key: json_values | st.text(alphabet=TILE_CHARS, max_size=12)
              for key in ("options", "melds", "indicator", "winning_tile", "win_by", "visible",
                          "settlement")},
)


@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(req=json_values | request_like)
def test_analyze_any_value_raises_only_input_error(req):
    try:
        out = analyze(req).to_json()
    except InputError as err:
        assert_input_error(err)
        return
    assert isinstance(out, dict) and out["tile_count"] in (13, 14)


random_hand = st.builds(
    lambda variant, picks, n, indicator, winning: {
        "variant": variant,
        "hand": "".join(KINDS[i] for i in sorted(picks)[:n]),
        **({"indicator": KINDS[indicator]} if indicator is not None else {}),
        **({"winning_tile": KINDS[sorted(picks)[0]]} if winning and n == 14 else {}),
    },
    st.sampled_from(list(VARIANTS)),
    st.lists(st.integers(0, 33), min_size=14, max_size=14).filter(
        lambda p: max(p.count(i) for i in p) <= 3),
    st.sampled_from([13, 14]),
    st.none() | st.integers(0, 33),
    st.booleans(),
)


def assert_well_formed(req: dict, out: dict) -> None:
    """What any analysis must hold (API.md): counts, shanten, the 牌理 fields."""
    n = out["tile_count"]
    assert n == len(parse_tiles(req["hand"])) and n in (13, 14)
    shanten = out["shanten"]
    assert shanten is None or isinstance(shanten, int) and shanten >= -1
    assert out["decompositions_total"] >= len(out["decompositions"])
    assert (shanten == -1) == out["complete"]
    if n == 13:
        assert out["useful_total"] == sum(u["remaining"] for u in out["useful"])
        assert all(0 <= u["remaining"] <= 4 for u in out["useful"])
        if shanten is None:
            assert out["useful"] == []
        return
    held = {t.code for t in parse_tiles(req["hand"])}
    effs = out["efficiency"]
    assert len({e["discard"] for e in effs}) == len(effs)
    assert all(e["discard"] in held for e in effs)
    for e in effs:
        assert e["useful_total"] == sum(u["remaining"] for u in e["useful"])
    keys = [(99 if e["shanten"] is None else e["shanten"], -e["useful_total"]) for e in effs]
    assert keys == sorted(keys)                                       # best first
    if not out["complete"]:
        assert shanten == min((e["shanten"] for e in effs if e["shanten"] is not None),
                              default=None)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.filter_too_much])
@given(req=random_hand)
def test_random_hands_get_a_well_formed_analysis(req):
    """Random hands of every variant, with an indicator or not: an InputError with its
    message, or an analysis that holds together (no speed assertion: bench/worst.py)."""
    try:
        out = analyze(req).to_json()
    except InputError as err:
        assert_input_error(err)
        return
    assert_well_formed(req, out)


@st.composite
def wild_hand(draw):
    """A hand with 0-8 wildcard tiles (盘锦 游戏混 has two wildcard kinds), 13 or 14 tiles."""
    from webcalc.options import parse_options
    from webcalc.variants import VARIANTS
    variant = draw(st.sampled_from(["sanmenxia", "zhengzhou", "panjin"]))
    options = ({"wildcard_mode": draw(st.sampled_from(["next", "both"]))}
               if variant == "panjin" else {})
    indicator = draw(st.integers(0, 33))
    v = VARIANTS[variant]
    wild = [int(t) for t in v.wildcards(parse_options(v.Options, options),
                                        Tile(indicator))]
    n = draw(st.sampled_from([13, 14]))
    w = draw(st.integers(0, min(8, 3 * len(wild))))
    tiles = [wild[i % len(wild)] for i in range(w)]
    rest = draw(st.lists(st.integers(0, 33).filter(lambda k: k not in wild),
                         min_size=n - w, max_size=n - w))
    tiles += rest
    shown = tiles + [indicator]
    assume(all(shown.count(k) <= 4 for k in shown))
    return {"variant": variant, "options": options, "indicator": KINDS[indicator],
            "hand": "".join(KINDS[k] for k in sorted(tiles))}


@settings(max_examples=examples(150), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                 HealthCheck.filter_too_much])
@given(req=wild_hand())
def test_wildcard_hands_through_the_api_never_500(client, req):
    """The hardest class bench/worst.py times (hands with wildcards, 盘锦 游戏混): through
    the JSON API, 200 with a well-formed analysis or 400 with the error's field."""
    resp = client.post("/api/v1/analyze", json=req)
    assert resp.status_code in (200, 400), (resp.status_code, req)
    body = resp.get_json()
    if resp.status_code == 400:
        assert body["error"]["field"], body
        return
    assert_well_formed(req, body)
