"""Wins recorded without tiles (the ledger's quick entry): the declared factors settle exactly
as the tiles would (SMX-5, ZZ-4, PJ-10), and a factor the room does not have is refused."""

from __future__ import annotations

import pytest

from webcalc.analysis import analyze, settle_without_tiles
from webcalc.errors import InputError


def _same(with_tiles: dict, declared: dict) -> None:
    full = analyze(with_tiles)
    bare = {k: with_tiles[k] for k in ("variant", "options", "win_by", "settlement")
            if k in with_tiles}
    out = settle_without_tiles({**bare, "declared": declared})
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
    full = analyze(req)
    assert full["biao"] == 2
    out = settle_without_tiles({"variant": "sanmenxia", "win_by": "self_draw",
                                "settlement": {"dealer": 0, "winner": 0},
                                "declared": {"biao": 2}})
    assert out["settlement"] == full["settlement"] and out["biao"] == 2


def test_panjin_fan_declared_like_the_tiles():
    _same({"variant": "panjin", "options": {"wildcard_mode": "none", "one_suit": True},
           "hand": "11123456789m999m", "winning_tile": "9m", "win_by": "discard",
           "settlement": {"dealer": 1, "winner": 0, "discarder": 3}},
          {"fan": ["one_suit"]})


def test_jincheng_needs_no_declaration_and_a_draw_needs_no_hand():
    out = settle_without_tiles({"variant": "jincheng", "settlement": {"dealer": 1, "winner": None}})
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
                              "settlement": {"dealer": 0, "winner": 1}, **req})
    assert e.value.code == "bad_settlement" and e.value.field == field


def test_a_win_without_tiles_needs_its_method_and_a_draw_declares_nothing():
    with pytest.raises(InputError) as e:
        settle_without_tiles({"variant": "zhengzhou", "settlement": {"dealer": 0, "winner": 1}})
    assert e.value.code == "bad_win_by"
    with pytest.raises(InputError) as e:
        settle_without_tiles({"variant": "sanmenxia", "settlement": {"dealer": 0, "winner": None},
                              "declared": {"biao": 1}})
    assert e.value.field == "declared"
