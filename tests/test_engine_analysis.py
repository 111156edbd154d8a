"""The analysis entry point: validation order, every error code, waits and readings
(RULES C-1..C-9, C-13, C-14; API.md)."""

from __future__ import annotations

import pytest

from webcalc.analysis import analyze
from webcalc.errors import InputError
from webcalc.variants import VARIANTS


def error_of(request):
    with pytest.raises(InputError) as err:
        analyze(request).to_json()
    return err.value


def waits_of(out):
    return {w["tile"]: w["remaining"] for w in out["waits"]}


ZZ_PLAIN = {"variant": "zhengzhou", "options": {"wildcard": False}}


@pytest.mark.parametrize("request_, code, field", [
    ([1, 2], "bad_json", None),
    ({"hand": "123m"}, "unknown_variant", "variant"),
    ({"variant": "tianjin", "hand": "123m"}, "unknown_variant", "variant"),
    ({"variant": "zhengzhou", "hand": "123m456p789s1134q"}, "bad_tile", "hand"),
    ({"variant": "zhengzhou", "hand": 5}, "bad_tile", "hand"),
    ({"variant": "zhengzhou"}, "bad_tile", "hand"),
    ({**ZZ_PLAIN, "hand": "55555m123p456p789s"}, "too_many_copies", "hand"),
    ({**ZZ_PLAIN, "hand": "5555m123p456p78s", "visible": "5m"}, "too_many_copies", "visible"),
    ({**ZZ_PLAIN, "hand": "123m456p"}, "wrong_tile_count", "hand"),
    ({**ZZ_PLAIN, "hand": "123m456p789s12345z5m"}, "wrong_tile_count", "hand"),
    ({**ZZ_PLAIN, "hand": "123m456p789s1z", "melds": [{"type": "pong", "tiles": "556m"}]},
     "bad_meld", "melds"),
    ({**ZZ_PLAIN, "hand": "123m456p789s1z", "melds": [{"type": "chow", "tiles": "567m"}]},
     "bad_meld", "melds"),                                   # ZZ-2: no chow
    ({**ZZ_PLAIN, "hand": "123m456p789s1z", "melds": "555m"}, "bad_meld", "melds"),
    ({"variant": "zhengzhou", "hand": "123m456p789s1134z", "options": {"colour": True}},
     "bad_option", "options.colour"),
    ({"variant": "zhengzhou", "hand": "123m456p789s1134z", "options": {"pao_max": "3"}},
     "bad_option", "options.pao_max"),
    ({"variant": "panjin", "hand": "123m456p789s1134z", "options": {"wildcard_mode": "all"}},
     "bad_option", "options.wildcard_mode"),
    ({**ZZ_PLAIN, "hand": "123m456p789s1134z", "indicator": "5m"}, "bad_option", "indicator"),
    ({"variant": "jincheng", "hand": "123m456p789s1134z", "indicator": "5m"}, "bad_option", "indicator"),
    ({**ZZ_PLAIN, "hand": "123m456p789s11122z", "winning_tile": "3z"}, "not_in_hand", "winning_tile"),
    ({**ZZ_PLAIN, "hand": "123m456p789s11122z", "winning_tile": "2z", "win_by": "discard"},
     "bad_win_by", "win_by"),                                 # ZZ-2
    ({**ZZ_PLAIN, "hand": "123m456p789s11122z", "win_by": "flying"}, "bad_win_by", "win_by"),
    ({**ZZ_PLAIN, "hand": "123m456p789s11122z", "indicatorr": "1m"}, "bad_request", "indicatorr"),
    ({"variant": "sanmenxia", "hand": "123m456p789s11122z", "options": {"with_honors": False}},
     "bad_tile", "hand"),                                     # C-1: 108 tiles
])
def test_every_error_code_names_its_field(request_, code, field):
    err = error_of(request_)
    assert (err.code, err.field) == (code, field)
    assert str(err.message) and not str(err.message).isascii()        # Chinese, for the user


def test_too_many_copies_names_the_tile():
    err = error_of({**ZZ_PLAIN, "hand": "55555m123p456p789s"})
    assert "五万" in str(err.message) and "5m" in str(err.message)


def test_indicator_counts_against_copies():
    # C-2, C-7: with 1万 as the indicator only three 1万 are in play
    err = error_of({"variant": "sanmenxia", "hand": "1111m456p789s1234z", "indicator": "1m"})
    assert err.code == "too_many_copies" and "混皮" in str(err.message)


def test_thirteen_tile_hand_waits_and_remaining():
    # 123m 456p 789s 111z + 2z single: waits on 2z only, 3 left (C-9)
    out = analyze({**ZZ_PLAIN, "hand": "123m456p789s1112z"}).to_json()
    assert out["complete"] is False and out["tile_count"] == 13
    assert waits_of(out) == {"2z": 3}
    # seen elsewhere: subtracted; a wait with none left stays listed as dead (空听)
    out = analyze({**ZZ_PLAIN, "hand": "123m456p789s1112z", "visible": "222z"}).to_json()
    assert out["waits"] == [{"tile": "2z", "remaining": 0, "dead": True,
                            "win": {"fan": [], "amount": 3}}]   # ZZ-4: 1 from each


def test_two_sided_and_pair_waits():
    # 23m + 11z 22z pairs… 23m456p789s 111z 22z: 14 − 1 = 13 tiles waiting 1m/4m
    out = analyze({**ZZ_PLAIN, "hand": "23m456p789s11122z"}).to_json()
    assert waits_of(out) == {"1m": 4, "4m": 4}


def test_kind_held_four_times_is_not_a_wait():
    # C-9: 111m 123m 456p 789s + 东: only 东 completes; all four 1万 are in the hand
    out = analyze({**ZZ_PLAIN, "hand": "111123m456p789s1z"}).to_json()
    assert waits_of(out) == {"1z": 3}


def test_fourteen_tiles_minus_winning_tile_gives_waits():
    out = analyze({**ZZ_PLAIN, "hand": "123m456p789s11122z", "winning_tile": "2z"}).to_json()
    assert out["complete"] is True
    # before the 南: 123m 456p 789s 111z + 南 → a pair wait on 南, 3 unseen
    assert waits_of(out) == {"2z": 3}


def test_readings_with_exposed_melds():
    out = analyze({**ZZ_PLAIN, "hand": "123m456p11z", "melds": [
        {"type": "pong", "tiles": "999s", "from": 1},
        {"type": "concealed_kong", "tiles": "7777z"}]}).to_json()
    assert out["tile_count"] == 14 and out["complete"] is True
    (reading,) = out["decompositions"]
    kinds = [(g["kind"], g["exposed"]) for g in reading["groups"]]
    assert kinds == [("pair", False), ("sequence", False), ("sequence", False),
                     ("triplet", True), ("kong", True)]


def test_wildcard_stand_in_is_marked():
    # ZZ-1: indicator 3z → 4z wildcard; 123m 456p 789s 111z + 3z 4z: 4z makes 3z a pair
    out = analyze({"variant": "zhengzhou", "hand": "123m456p789s11134z", "indicator": "3z"}).to_json()
    assert out["wildcards"] == ["4z"] and out["complete"] is True
    pairs = [g for d in out["decompositions"] for g in d["groups"] if g["kind"] == "pair"]
    assert any(p["tiles"] == ["3z", "3z"] and p["wild"] == [False, True]
               and p["faces"] == ["3z", "4z"] for p in pairs)


def test_free_group_listed_once():
    # C-13: three wildcards beside a complete hand → one `free` meld, not one per tile
    out = analyze({"variant": "zhengzhou", "hand": "123m456p789s11z555m", "indicator": "4m"}).to_json()
    free3 = [d for d in out["decompositions"]
             if any(g["kind"] == "free" and len(g["tiles"]) == 3 for g in d["groups"])]
    assert len(free3) == 1
    groups = free3[0]["groups"]
    assert [g["kind"] for g in groups] == ["pair", "sequence", "sequence", "sequence", "free"]
    assert groups[-1]["tiles"] == ["5m", "5m", "5m"] and groups[-1]["wild"] == [True] * 3
    assert not any(any(g["wild"]) for g in groups[:-1])


def test_fifth_copy_stand_in():
    # C-8: four 5万 and a wildcard make 555万 + 5万 5万(混)
    out = analyze({"variant": "zhengzhou", "hand": "5555m123p456p789s6z", "indicator": "7z"}).to_json()
    assert out["complete"] is True
    assert any(g["kind"] == "pair" and g["tiles"] == ["5m", "5m"] and g["wild"] == [False, True]
               for d in out["decompositions"] for g in d["groups"])


def test_decomposition_list_is_capped_and_total_kept():
    # 盘锦 游戏混 with eight wildcards is the widest hand there is
    out = analyze({"variant": "panjin", "options": {"wildcard_mode": "both"}, "indicator": "9m",
                   "hand": "11118888m19p19s1z"}).to_json()
    assert out["decompositions_total"] >= len(out["decompositions"])
    assert len(out["decompositions"]) <= 200
    if out["decompositions"]:
        assert out["decompositions"][0]["best"] is True


def test_settlement_must_be_an_object_in_every_variant():
    # found by review: 盘锦 read settlement.duanmen before the settlement was validated
    for variant in VARIANTS:
        err = error_of({"variant": variant, "hand": "123m456p789s11122z", "settlement": [1]})
        assert (err.code, err.field) == ("bad_settlement", "settlement")


def test_without_advice_the_judgement_and_settlement_are_the_same():
    """``advice=False`` (the ledger's call) skips waits, discards and efficiency only: the
    readings, 表 and the payments are those of the full analysis."""
    req = {"variant": "zhengzhou", "hand": "123m456p789s11122z", "winning_tile": "2z",
           "win_by": "self_draw", "settlement": {"winner": 1, "dealer": 0, "pao": [1, 0, 0, 0]}}
    full, bare = analyze(req).to_json(), analyze(req, advice=False).to_json()
    assert full["complete"] and bare["complete"]
    assert bare["settlement"] == full["settlement"]
    assert bare["decompositions"] == full["decompositions"]
    assert bare["waits"] == [] and "efficiency" not in bare and "discards" not in bare
    assert full["efficiency"] and full["shanten"] == -1


def _spaced(hand: str) -> str:
    """The same tiles one by one, space-separated: the general notation path."""
    from webcalc.tiles import format_tiles, parse_tiles
    return " ".join(format_tiles([t]) for t in parse_tiles(hand))


@pytest.mark.parametrize("variant,extra", [
    ("jincheng", {}), ("zhengzhou", {"indicator": "5p"}), ("sanmenxia", {"indicator": "2z"}),
    ("sanmenxia", {"options": {"with_honors": False}, "indicator": "9s"}),
    ("panjin", {"indicator": "3m"})])
def test_a_plain_hand_answers_as_the_same_hand_spelled_out(variant, extra):
    """The plain notation (``123m…``, read straight to counts by the analysis) and the same
    tiles written one by one (the general path) give the same answer, or the same error
    with the same field and words: complete, ready and far hands, five of a kind, honors
    in a room without them, a wrong count, the red five."""
    import random

    from webcalc.tiles import format_tiles
    from webcalc.warmup import complete_tiles
    rng = random.Random(38)
    hands = ["11112345678999m", "1111m", "11111m23456p88s99s", "123456789m1234p7z", "0m23456789m11p22s5s"]
    for _ in range(40):
        tiles = complete_tiles(rng)
        if rng.random() < 0.5:
            tiles.remove(rng.choice(tiles))
        hands.append(format_tiles(tiles))
    for hand in hands:
        plain = {"variant": variant, "hand": hand, **extra}
        spelled = {**plain, "hand": _spaced(hand)}
        try:
            expected = analyze(spelled).to_json()
        except InputError as err:
            got = error_of(plain)
            assert (got.code, got.field, got.message) == (err.code, err.field, err.message)
            continue
        assert analyze(plain).to_json() == expected, hand
