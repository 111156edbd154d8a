"""Wins recorded without tiles (the ledger's quick entry): the declared factors settle exactly
as the tiles would (SMX-5, ZZ-4, PJ-10), and a factor the room does not have is refused."""

from __future__ import annotations

import pytest

from webcalc.analysis import analyze, settle_without_tiles
from webcalc.errors import InputError
from webcalc.variants import VARIANTS


def _same(with_tiles: dict, declared: dict) -> None:
    full = analyze(with_tiles).to_json()
    bare = {k: with_tiles[k] for k in ("variant", "options", "win_by", "settlement")
            if k in with_tiles}
    out = settle_without_tiles({**bare, "declared": declared}).to_json()
    assert out["settlement"] == full["settlement"]
    for key in ("biao", "fan"):
        assert out.get(key) == full.get(key)


def test_zhengzhou_seven_pairs_declared_doubles_like_the_tiles():
    _same({"variant": "zhengzhou", "options": {"seven_pairs_double": True, "wildcard": False},
           "hand": "1122m3344p5566s77z", "winning_tile": "7z", "win_by": "self_draw",
           "settlement": {"dealer": 0, "winner": 2, "pao": [1, 0, 2, 0]}},
          {"doubles": ["seven_pairs"]})


def test_sanmenxia_biao_declared_like_the_tiles():
    # 混单吊 with the 混 (indicator 1z → 2z wild): 1 表 + 1 discarded wildcard = 2 (SMX-5)
    req = {"variant": "sanmenxia", "hand": "123m456p789s111z2z3z", "indicator": "1z",
           "winning_tile": "3z", "win_by": "self_draw",
           "settlement": {"dealer": 0, "winner": 0, "biao_discards": 1}}
    full = analyze(req).to_json()
    assert full["biao"] == 2
    out = settle_without_tiles({"variant": "sanmenxia", "win_by": "self_draw",
                                "settlement": {"dealer": 0, "winner": 0},
                                "declared": {"biao": 2}}).to_json()
    assert out["settlement"] == full["settlement"] and out["biao"] == 2


def test_panjin_fan_declared_like_the_tiles():
    _same({"variant": "panjin", "options": {"wildcard_mode": "none", "one_suit": True},
           "hand": "11123456789m999m", "winning_tile": "9m", "win_by": "discard",
           "settlement": {"dealer": 1, "winner": 0, "discarder": 3}},
          {"fan": ["one_suit"]})


def test_jincheng_needs_no_declaration_and_a_draw_needs_no_hand():
    out = settle_without_tiles({"variant": "jincheng", "settlement": {"dealer": 1, "winner": None}}).to_json()
    assert out["settlement"]["net"] == [2, -6, 2, 2]          # JC-8 后包 ×2
    assert out["settlement"]["next_dealer"] == {"seat": 2, "rule": "JC-9"}


@pytest.mark.parametrize("req, field", [
    ({"variant": "zhengzhou", "declared": {"doubles": ["seven_pairs"]}}, "declared.doubles"),
    ({"variant": "zhengzhou", "declared": {"fan": []}}, "declared.fan"),
    ({"variant": "zhengzhou", "options": {"kong_bloom_double": True},
      "declared": {"doubles": ["kong_bloom"]}}, "declared.doubles"),
    ({"variant": "panjin", "declared": {"fan": ["jihu"]}}, "declared.fan"),
    ({"variant": "panjin", "options": {"jihu": True},
      "declared": {"fan": ["jihu", "qunji"]}}, "declared.fan"),
    ({"variant": "sanmenxia", "options": {"wildcard": False}, "declared": {"biao": 1}},
     "declared.biao"),
    ({"variant": "sanmenxia", "declared": {"biao": 9}}, "declared.biao"),
    ({"variant": "jincheng", "declared": {"biao": 1}}, "declared.biao"),
])
def test_a_factor_the_room_does_not_have_is_refused(req, field):
    with pytest.raises(InputError) as e:
        settle_without_tiles({"win_by": "self_draw",
                              "settlement": {"dealer": 0, "winner": 1}, **req}).to_json()
    assert e.value.code == "bad_settlement" and e.value.field == field


def test_a_win_without_tiles_needs_its_method_and_a_draw_declares_nothing():
    with pytest.raises(InputError) as e:
        settle_without_tiles({"variant": "zhengzhou", "settlement": {"dealer": 0, "winner": 1}}).to_json()
    assert e.value.code == "bad_win_by"
    with pytest.raises(InputError) as e:
        settle_without_tiles({"variant": "sanmenxia", "settlement": {"dealer": 0, "winner": None},
                              "declared": {"biao": 1}}).to_json()
    assert e.value.field == "declared"


def _option_rooms(variant):
    """Every room of ``variant`` over the options that govern its declared factors."""
    import itertools

    names = {"zhengzhou": ("wildcard", "seven_pairs_double", "kong_bloom_double",
                           "four_wildcards_double"),
             "panjin": ("piaohu", "one_suit", "seven_pairs", "jihu", "qionghu", "jiahu"),
             "sanmenxia": ("wildcard",), "jincheng": ()}[variant]
    for values in itertools.product((False, True), repeat=len(names)):
        opts = dict(zip(names, values))
        if variant == "panjin":
            for mode in ("none", "next"):
                yield {**opts, "wildcard_mode": mode}
        else:
            yield opts


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_declarable_offers_exactly_what_a_self_drawn_win_may_declare(variant):
    """``Variant.declarable`` (what the quick entry offers) against the settlement's own
    check: in every room over the governing options, each offered factor settles alone, and
    each factor not offered is refused (ZZ-4: 七对 by ``seven_pairs_double``, 四混 by
    ``four_wildcards_double`` and wildcards; 杠上花 is the win method's, never declared on a
    self-draw; PJ-10: each 番 by its option, 群鸡 with 鸡胡, 穷胡 needing wildcards; SMX-5:
    表 with wildcards; 晋城 nothing)."""
    from webcalc.options import parse_options
    from webcalc.variants import VARIANTS
    from webcalc.variants.panjin import HAND_FAN_OPTION
    from webcalc.variants.zhengzhou import DECLARED_DOUBLES as DOUBLES

    v = VARIANTS[variant]
    every = {"zhengzhou": ("doubles", list(DOUBLES)), "panjin": ("fan", list(HAND_FAN_OPTION)),
             "sanmenxia": ("biao", [1]), "jincheng": (None, [])}[variant]
    for opts in _option_rooms(variant):
        d = v.declarable(parse_options(v.Options, opts))
        offered = set() if d is None else ({k for k, _name in d.keys} if d.keys else {1})
        if d is not None:
            assert d.field == every[0] and str(d.label) and "·" not in str(d.label)
            assert d.keys or d.maximum == 4                        # 表 = 1 + up to 3
        for key in every[1]:
            body = {"variant": variant, "options": opts, "win_by": "self_draw",
                    "settlement": {"dealer": 0, "winner": 1},
                    "declared": {every[0]: key if every[0] == "biao" else [key]}}
            try:
                settle_without_tiles(body).to_json()
                accepted = True
            except InputError as err:
                assert err.field == f"declared.{every[0]}", err
                accepted = False
            assert accepted == (key in offered), (opts, key)
        if d is None and variant == "jincheng":
            assert settle_without_tiles({"variant": variant, "win_by": "self_draw",
                                         "settlement": {"dealer": 0, "winner": 1}}).to_json()
