"""Shanten (C-12) and discard advice of every variant."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.scale import examples
from webcalc.analysis import analyze
from webcalc.tiles import ALL_TILES, format_tiles
from webcalc.variants import VARIANTS

ZZ_PLAIN = {"variant": "zhengzhou", "options": {"wildcard": False}}


def _unpriced(waits):
    """Discard advice lists the waits of each remainder without their value (``win``)."""
    return [{k: v for k, v in w.items() if k != "win"} for w in waits]


def shanten_of(**req):
    return analyze(req).to_json()["shanten"]


@pytest.mark.parametrize("hand, expected", [
    ("123m456p789s11122z", -1),          # complete
    ("123m456p789s1112z", 0),            # ready on 南
    ("13m456p789s11123z", 1),            # needs 2万 and a pair
    ("19m19p19s1234567z", 6),            # 13 singles: 七对 is 6 away (standard 8)
    ("1357m2468p13579s", 4),
    ("11223344556677m", -1),             # standard (and 七对)
])
def test_shanten_zhengzhou_without_wildcards(hand, expected):
    assert shanten_of(**ZZ_PLAIN, hand=hand) == expected


def test_shanten_counts_wildcards():
    # ZZ-1: indicator 3z → 4z is the wildcard; 13m 456p 789s 111z 西 + 北: the 北 plays
    # 2万, so the hand is ready on 西: shanten 0
    assert shanten_of(variant="zhengzhou", hand="13m456p789s11134z", indicator="3z") == 0
    # without the wildcard the same tiles lack 2万 and a pair: 1 away
    assert shanten_of(**ZZ_PLAIN, hand="13m456p789s11134z") == 1


def test_special_shapes_count():
    # JC-2 十三幺: 13 different orphans are ready on all 13 (waits everywhere)
    out = analyze({"variant": "jincheng", "hand": "19m19p19s1234567z"}).to_json()
    assert out["shanten"] == 0 and len(out["waits"]) == 13
    # SMX-3 十三不靠 with four honors is ready on the three missing ones
    out = analyze({"variant": "sanmenxia", "hand": "147m258p369s1234z"}).to_json()
    assert out["shanten"] == 0 and [w["tile"] for w in out["waits"]] == ["5z", "6z", "7z"]
    # ZZ-3 四混: three wildcards are ready on the fourth (whatever else is held)
    out = analyze({"variant": "zhengzhou", "hand": "19m19p19s1357z555m", "indicator": "4m"}).to_json()
    assert out["shanten"] == 0 and "5m" in {w["tile"] for w in out["waits"]}


def test_all_live_copies_held_is_not_ready():
    # C-12 / C-9: 1111m 234p 567p 999s: 111m + a lone 1万 waits only on 1万 — all four
    # are held, so the hand is not ready
    out = analyze({**ZZ_PLAIN, "hand": "1111m234p567p999s"}).to_json()
    assert out["waits"] == [] and out["shanten"] == 1


def test_discards_best_first_and_match_waits():
    out = analyze({**ZZ_PLAIN, "hand": "123m456p789s11123z"}).to_json()
    assert out["shanten"] == 0
    # 111z + 南 + 西: drop either single and wait on the other (3 unseen)
    assert [(d["discard"], d["remaining"]) for d in out["discards"]] == [("2z", 3), ("3z", 3)]
    advice = {d["discard"]: d for d in out["discards"]}
    for tile, entry in advice.items():
        rest = analyze({**ZZ_PLAIN, "hand": format_tiles(
            [t for t in _remove("123m456p789s11123z", tile)])}).to_json()
        assert entry["waits"] == _unpriced(rest["waits"])
        assert entry["remaining"] == sum(w["remaining"] for w in rest["waits"])
    totals = [d["remaining"] for d in out["discards"]]
    assert totals == sorted(totals, reverse=True)


def test_panjin_never_advises_discarding_a_wildcard():
    # PJ-2: 混牌只能在手牌里不能打出去
    # indicator 1万 → 2万 wildcards; dropping 白 leaves 11z + 2万2万 ready on many tiles
    out = analyze({"variant": "panjin", "hand": "123m22m456p789s115z", "indicator": "1m"}).to_json()
    advised = {d["discard"] for d in out["discards"]}
    assert "5z" in advised and "2m" not in advised


def _remove(hand, tile):
    from webcalc.tiles import Tile, parse_tiles
    tiles = parse_tiles(hand)
    tiles.remove(Tile.parse(tile))
    return tiles


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.filter_too_much])
@given(st.lists(st.integers(0, 33), min_size=14, max_size=14).filter(
    lambda ts: all(ts.count(k) <= 4 for k in ts)),
    st.sampled_from(list(VARIANTS)),
    st.one_of(st.none(), st.integers(0, 33)))
# four copies of a kind whose discard leaves it a wait (1111m2222m3333m44m, discard 1m)
@example([0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3], "sanmenxia", None)
def test_discards_and_shanten_are_consistent(tiles, variant, indicator):
    req = {"variant": variant, "hand": format_tiles(tiles)}
    if variant == "panjin":
        req["options"] = {"seven_pairs": True, "piaohu": True}
    if indicator is not None and variant != "jincheng" and tiles.count(indicator) <= 3:
        req["indicator"] = ALL_TILES[indicator].code
    out = analyze(req).to_json()
    # discard advice = the waits of each 13-tile remainder
    for d in out["discards"]:
        rest = list(tiles)
        rest.remove(next(t for t in ALL_TILES if t.code == d["discard"]))
        after = analyze({**req, "hand": format_tiles(rest)}).to_json()
        # counted from the 14 tiles, the discard included, as Tenhou's 牌理 counts: a wait
        # on the kind discarded has one copy fewer live than the 13 tiles alone say
        want = [{**w, "remaining": w["remaining"] - (w["tile"] == d["discard"]),
                 "dead": w["dead"] or w["remaining"] - (w["tile"] == d["discard"]) == 0}
                for w in _unpriced(after["waits"])]
        assert d["waits"] == want and after["shanten"] == 0
    # C-12: a 14-tile hand is ready (0) exactly when some discard leaves waits
    if out["complete"]:
        assert out["shanten"] == -1
    else:
        assert (out["shanten"] == 0) == bool(out["discards"])
        assert out["shanten"] >= 0
