"""One test (at least) per rule id of RULES.md, the expected value derived from its text.

The rule id is in each test's name and docstring, so ``grep -n SMX-4 tests`` finds it.
"""

from __future__ import annotations

import pytest

from webcalc.analysis import analyze
from webcalc.errors import InputError

ZZ_PLAIN = {"variant": "zhengzhou", "options": {"wildcard": False}}
PJ_PLAIN = {"variant": "panjin", "options": {"wildcard_mode": "none"}}


def code_of(req):
    with pytest.raises(InputError) as err:
        analyze(req).to_json()
    return err.value.code


def waits(out):
    return {w["tile"]: w["remaining"] for w in out["waits"]}


def shapes(out):
    return {d["shape"] for d in out["decompositions"]}


def fan_keys(out):
    return {f["key"] for f in out.get("fan") or []}


# -- common ---------------------------------------------------------------------------

def test_C1_no_honors_in_108_tile_sanmenxia():
    """C-1: 三门峡 without 带风 has 108 tiles; an honor anywhere is bad_tile."""
    req = {"variant": "sanmenxia", "options": {"with_honors": False}}
    assert code_of({**req, "hand": "123m456p789s1112z"}) == "bad_tile"
    assert code_of({**req, "hand": "123m456p789s1112m", "visible": "1z"}) == "bad_tile"
    # and waits never name an honor: 123m456p789s 111m + 9p single → only 9p
    out = analyze({"variant": "sanmenxia", "options": {"with_honors": False, "wildcard": False},
                   "hand": "123m456p789s9p111m"}).to_json()
    assert waits(out) == {"9p": 3}


def test_C2_copies_at_most_four_and_three_of_the_indicator():
    """C-2: hand + melds + visible ≤ 4 of a kind; ≤ 3 of the indicator's kind."""
    assert code_of({**ZZ_PLAIN, "hand": "55m123p456p789s1z",
                    "melds": [{"type": "pong", "tiles": "555m"}]}) == "too_many_copies"
    assert code_of({"variant": "zhengzhou", "hand": "111m456p789s123s1z", "indicator": "1m",
                    "visible": "1m"}) == "too_many_copies"


def test_C3_tile_count_is_13_or_14():
    """C-3: concealed + 3 per meld (a kong counts 3) is 13 or 14."""
    assert code_of({**ZZ_PLAIN, "hand": "123m456p789s11z"}) == "wrong_tile_count"      # 11
    out = analyze({**ZZ_PLAIN, "hand": "123m456p789s1z", "melds": [
        {"type": "concealed_kong", "tiles": "2222z"}]}).to_json()
    assert out["tile_count"] == 13 and waits(out) == {"1z": 3}


def test_C4_any_pair_may_be_the_eyes():
    """C-4: 4 melds + 1 pair, no 2-5-8 rule; kongs only as declared melds."""
    assert analyze({**ZZ_PLAIN, "hand": "123m456p789s111z99m"}).to_json()["complete"] is True
    # four identical concealed tiles are not a kong: 1111m 234p 567p 789s 1z — not complete
    out = analyze({**ZZ_PLAIN, "hand": "1111m234p567p789s1z"}).to_json()
    assert out["complete"] is False


def test_C5_seven_pairs_four_of_a_kind_is_two_pairs():
    """C-5: 七对, four of a kind counts as two pairs."""
    out = analyze({**ZZ_PLAIN, "hand": "1111m3355p77s1122z"}).to_json()
    assert out["complete"] is True and "seven_pairs" in shapes(out)


def test_C6_best_reading_first_and_marked():
    """C-6: every legal reading listed, the most favourable first and marked (ZZ-4 七对加倍)."""
    req = {"variant": "zhengzhou", "hand": "112233m445566p77s",
           "options": {"wildcard": False, "seven_pairs_double": True}}
    out = analyze(req).to_json()
    assert out["decompositions"][0]["shape"] == "seven_pairs"
    assert out["decompositions"][0]["best"] is True
    assert "standard" in shapes(out) and out["decompositions_total"] >= 2


def test_C7_indicator_is_out_of_play():
    """C-7: only 3 of the indicator's kind are in play and waits count it as seen; no
    indicator, no wildcards; an indicator with wildcards off is bad_option."""
    out = analyze({"variant": "zhengzhou", "hand": "123m456p789s1112z", "indicator": "2z"}).to_json()
    assert out["wildcards"] == ["3z"] and waits(out)["2z"] == 2           # 4 − 1 held − 1
    assert analyze({"variant": "zhengzhou", "hand": "123m456p789s1112z"}).to_json()["wildcards"] == []
    assert code_of({**ZZ_PLAIN, "hand": "123m456p789s1112z", "indicator": "2z"}) == "bad_option"


def test_C8_wildcard_stands_in_only_in_the_concealed_part():
    """C-8: a wildcard may play as itself or as any tile, even a fifth copy; never inside
    an exposed meld."""
    # 5555m + 6z(混 for indicator 7z) → 555m + 5m 5m(混)
    out = analyze({"variant": "zhengzhou", "hand": "5555m123p456p789s6z", "indicator": "7z"}).to_json()
    assert out["complete"] is True
    for d in out["decompositions"]:
        for g in d["groups"]:
            if g["exposed"]:
                assert not any(g["wild"])


def test_C9_waits_remaining_and_dead_waits():
    """C-9: remaining = 4 − held − indicator − visible, never below 0; dead waits listed."""
    out = analyze({**ZZ_PLAIN, "hand": "123m456p789s1112z", "visible": "2z2z2z"}).to_json()
    assert out["waits"] == [{"tile": "2z", "remaining": 0, "dead": True,
                            "win": {"fan": [], "amount": 3}}]   # ZZ-4: 1 from each


def test_C10_drawn_game_settles_without_a_winner():
    """C-10: 荒庄 has no winner: only kong payments and penalties (here: none at all)."""
    out = analyze({**ZZ_PLAIN, "hand": "123m456p789s1112z",
                   "settlement": {"dealer": 0, "winner": None}}).to_json()
    assert out["settlement"]["net"] == [0, 0, 0, 0]


def test_C11_payments_between_two_seats_and_zero_sum():
    """C-11: every payment is between two seats; the net sums to zero."""
    out = analyze({**ZZ_PLAIN, "hand": "123m456p789s11122z", "winning_tile": "2z",
                   "win_by": "self_draw",
                   "settlement": {"dealer": 1, "winner": 2, "pao": [0, 1, 2, 3]}}).to_json()
    for p in out["settlement"]["payments"]:
        assert p["from"] != p["to"] and {p["from"], p["to"]} <= {0, 1, 2, 3}
    assert sum(out["settlement"]["net"]) == 0


def test_C12_shanten_minus_one_zero_and_more():
    """C-12: −1 complete, 0 ready, n tiles from ready; all live copies held → not ready."""
    assert analyze({**ZZ_PLAIN, "hand": "123m456p789s11122z"}).to_json()["shanten"] == -1
    assert analyze({**ZZ_PLAIN, "hand": "123m456p789s1112z"}).to_json()["shanten"] == 0
    assert analyze({**ZZ_PLAIN, "hand": "1111m234p567p999s"}).to_json()["shanten"] == 1


def test_C13_free_groups_of_wildcards_only():
    """C-13: a group made only of wildcards is one `free` group (2: any pair, 3: any meld)."""
    out = analyze({"variant": "zhengzhou", "hand": "123m456p789s111z55m", "indicator": "4m"}).to_json()
    frees = [g for d in out["decompositions"] for g in d["groups"] if g["kind"] == "free"]
    assert any(len(g["tiles"]) == 2 and all(g["wild"]) for g in frees)


def test_C14_win_method_not_allowed():
    """C-14: 杠上开花 is a self-draw everywhere; a method the variant refuses → bad_win_by."""
    base = {**ZZ_PLAIN, "hand": "123m456p789s11122z", "winning_tile": "2z"}
    assert analyze({**base, "win_by": "kong_replacement"}).to_json()["complete"] is True
    assert code_of({**base, "win_by": "discard"}) == "bad_win_by"
    assert code_of({**base, "win_by": "robbing_kong"}) == "bad_win_by"


# -- 三门峡 --------------------------------------------------------------------------

def test_SMX1_wildcard_is_indicator_plus_one():
    """SMX-1: 9筒 → 1筒; 北 → 中 (东→南→西→北→中→发→白→东)."""
    for ind, wild in (("9p", "1p"), ("4z", "7z"), ("7z", "6z"), ("6z", "5z"), ("5z", "1z")):
        out = analyze({"variant": "sanmenxia", "hand": "123m456p789s1112z", "indicator": ind}).to_json()
        assert out["wildcards"] == [wild]


def test_SMX2_self_draw_only_no_chow():
    """SMX-2: only self-draw (and 杠上开花); no chow."""
    req = {"variant": "sanmenxia", "hand": "123m456p789s11122z", "winning_tile": "2z"}
    assert code_of({**req, "win_by": "discard"}) == "bad_win_by"
    assert code_of({"variant": "sanmenxia", "hand": "456p789s11122z",
                    "melds": [{"type": "chow", "tiles": "123m"}]}) == "bad_meld"


def test_SMX3_shapes():
    """SMX-3: standard, 七对 (wildcards as themselves), 四混, 十三不靠."""
    assert "four_wildcards" in shapes(analyze({"variant": "sanmenxia", "indicator": "4z",
                                               "hand": "19m19p19s123z7777z5m"}).to_json())
    assert "knitted" in shapes(analyze({"variant": "sanmenxia", "hand": "147m258p369s12345z"}).to_json())
    # 七对 with the wildcard only as itself: 7z (wild for 北) pairs only with 7z
    assert analyze({"variant": "sanmenxia", "indicator": "4z",
                    "hand": "1133m5577p99s1177z"}).to_json()["complete"] is True
    assert analyze({"variant": "sanmenxia", "indicator": "4z",
                    "hand": "1133m5577p99s1167z"}).to_json()["complete"] is False


def test_SMX4_wildcard_pair_wait_and_counter_example():
    """SMX-4: 混单吊 when the 13 tiles less one wildcard are 4 melds; a wildcard used in a
    meld never makes it."""
    base = {"variant": "sanmenxia", "indicator": "4z", "win_by": "self_draw"}
    assert analyze({**base, "hand": "1111222233339m7z", "winning_tile": "9m"}).to_json()["biao"] == 1
    # the winning tile itself a wildcard, another wildcard held: 123m×4 + 中 + 中(drawn)
    assert analyze({**base, "hand": "111122223333m77z", "winning_tile": "7z"}).to_json()["biao"] == 1
    # the seed's counter-example: single wait on 1, draws the wildcard → 0
    assert analyze({**base, "hand": "123m123m123p123s1p7z", "winning_tile": "7z"}).to_json()["biao"] == 0


def test_SMX5_biao_adds_discards():
    """SMX-5: 表 = 1 + biao_discards for a 混单吊 win, else 0."""
    req = {"variant": "sanmenxia", "indicator": "4z", "hand": "1111222233339m7z",
           "winning_tile": "9m", "win_by": "self_draw"}
    assert analyze({**req, "settlement": {"dealer": 1, "winner": 0,
                                          "biao_discards": 2}}).to_json()["biao"] == 3


# -- 郑州 ----------------------------------------------------------------------------

def test_ZZ1_wildcard_cycle():
    """ZZ-1: 北→中, 中→发, 白→东, 9→1 (the seed's own examples)."""
    for ind, wild in (("4z", "7z"), ("7z", "6z"), ("5z", "1z"), ("9s", "1s")):
        assert analyze({"variant": "zhengzhou", "hand": "123m456p789s1112z",
                        "indicator": ind}).to_json()["wildcards"] == [wild]


def test_ZZ2_self_draw_or_kong_bloom_only():
    """ZZ-2: self-draw or 杠开 only; no chow."""
    assert code_of({"variant": "zhengzhou", "hand": "456p789s11122z",
                    "melds": [{"type": "chow", "tiles": "123m"}]}) == "bad_meld"
    assert code_of({**ZZ_PLAIN, "hand": "123m456p789s11122z", "winning_tile": "2z",
                    "win_by": "discard"}) == "bad_win_by"


def test_ZZ3_shapes_without_knitted():
    """ZZ-3: standard, 七对, 四混; no 十三不靠."""
    assert analyze({**ZZ_PLAIN, "hand": "147m258p369s12345z"}).to_json()["complete"] is False
    assert "four_wildcards" in shapes(analyze({"variant": "zhengzhou", "indicator": "4m",
                                               "hand": "5555m19p19s1234z19m"}).to_json())


# -- 盘锦 ----------------------------------------------------------------------------

def test_PJ1_panjin_cycles():
    """PJ-1: winds 东南西北东, dragons 中发白中; 游戏混 takes −1 and +1."""
    def wild(ind, mode):
        return analyze({"variant": "panjin", "options": {"wildcard_mode": mode},
                        "hand": "123m456p789s1112z", "indicator": ind}).to_json()["wildcards"]
    assert wild("4z", "next") == ["1z"] and wild("7z", "next") == ["6z"]
    assert wild("5z", "next") == ["7z"] and wild("9m", "both") == ["1m", "8m"]


def test_PJ2_wildcard_never_in_a_triplet():
    """PJ-2: wildcards only in sequences and the pair, never a triplet (not even as
    itself); never in a meld."""
    # 1m is the wildcard (indicator 9m): 234m 456p 567s 99s 11z + 1m. Either pair leaves
    # the other plus the wildcard as a triplet, which PJ-2 forbids.
    req = {"variant": "panjin", "indicator": "9m"}
    out = analyze({**req, "hand": "234m456p567s99s11z1m"}).to_json()
    assert out["complete"] is False
    assert [r["rule"] for r in out["reasons"]] == ["PJ-2"]
    # the same tiles in 郑州 (wildcards anywhere) win
    assert analyze({"variant": "zhengzhou", "indicator": "9m",
                    "hand": "234m456p567s99s11z1m"}).to_json()["complete"] is True
    assert code_of({**req, "hand": "234m456p789s1z",
                    "melds": [{"type": "pong", "tiles": "111m"}]}) == "bad_meld"


def test_PJ3_chow_allowed_open_or_closed():
    """PJ-3: chows may be exposed; open hands win."""
    out = analyze({**PJ_PLAIN, "hand": "456p789s111z55m", "melds": [
        {"type": "chow", "tiles": "123m", "from": 3}]}).to_json()
    assert out["complete"] is True


def test_PJ4_three_suits_duanmen_one_suit():
    """PJ-4: all three suits; exactly two after 断门; one with 清一色."""
    hand = "123m456m789m123p11z"
    assert analyze({**PJ_PLAIN, "hand": hand}).to_json()["complete"] is False
    out = analyze({**PJ_PLAIN, "hand": "123m456m789m11122z", "options": {
        "wildcard_mode": "none", "one_suit": True}}).to_json()
    assert out["complete"] is True and "one_suit" in fan_keys(out)
    assert analyze({**PJ_PLAIN, "hand": "123m456m789m11122z"}).to_json()["complete"] is False


def test_PJ5_terminal_or_honor_needed():
    """PJ-5: a real 1/9 or honor; wildcards never count, even by their own face."""
    assert analyze({**PJ_PLAIN, "hand": "234m456m345p678s55m"}).to_json()["complete"] is False
    out = analyze({**PJ_PLAIN, "hand": "234m456m345p678s55m"}).to_json()
    assert {r["rule"] for r in out["reasons"]} >= {"PJ-5"}
    # 9s as a wildcard (indicator 8s) is no 幺九: 234m 456m 345p 678s 55m + 9s? use pair 99s
    out = analyze({"variant": "panjin", "indicator": "8s", "hand": "234m456m345p678s99s"}).to_json()
    assert out["complete"] is False and "PJ-5" in {r["rule"] for r in out["reasons"]}


def test_PJ6_triplet_or_honor_pair():
    """PJ-6: a real pong/kong/triplet, or a real honor pair as the eyes."""
    assert analyze({**PJ_PLAIN, "hand": "234m456m345p678s11z"}).to_json()["complete"] is True
    out = analyze({**PJ_PLAIN, "hand": "123m456m345p678s99m"}).to_json()
    assert out["complete"] is False and "PJ-6" in {r["rule"] for r in out["reasons"]}


def test_PJ7_sequence_needed_unless_piaohu():
    """PJ-7: a sequence is needed unless 飘胡; 手把一 only as 飘胡."""
    assert analyze({**PJ_PLAIN, "hand": "111m222p333s999m11z"}).to_json()["complete"] is False
    out = analyze({"variant": "panjin", "options": {"wildcard_mode": "none", "piaohu": True},
                   "hand": "111m222p333s999m11z"}).to_json()
    assert out["complete"] is True and "piaohu" in fan_keys(out)
    # 手把一 with a chow among the four melds is refused
    melds = [{"type": "chow", "tiles": "123m"}, {"type": "pong", "tiles": "222p"},
             {"type": "pong", "tiles": "999s"}, {"type": "pong", "tiles": "111z"}]
    out = analyze({"variant": "panjin", "options": {"wildcard_mode": "none", "piaohu": True},
                   "hand": "55m", "melds": melds}).to_json()
    assert out["complete"] is False


def test_PJ8_seven_pairs_only_with_option():
    """PJ-8: 七对 only with `seven_pairs`; exempt from PJ-6/7, bound by PJ-4/5."""
    hand = "1133m5577p99s1122z"
    assert analyze({**PJ_PLAIN, "hand": hand}).to_json()["complete"] is False
    out = analyze({"variant": "panjin", "options": {"wildcard_mode": "none", "seven_pairs": True},
                   "hand": hand}).to_json()
    assert out["complete"] is True and "seven_pairs" in fan_keys(out)


def test_PJ9_no_robbing_the_kong():
    """PJ-9: self-draw, discard, 杠上开花 — no 抢杠."""
    req = {**PJ_PLAIN, "hand": "234m456p789s11z567s", "winning_tile": "7s"}
    assert analyze({**req, "win_by": "discard"}).to_json()["complete"] is True
    assert code_of({**req, "win_by": "robbing_kong"}) == "bad_win_by"


def test_PJ10_hand_fan():
    """PJ-10: 鸡胡 (a 1条, a wildcard 1条 too) or 群鸡 ×4; 穷胡 without a wildcard tile;
    夹胡 only for a pure closed wait."""
    opts = {"wildcard_mode": "none", "jihu": True}
    out = analyze({"variant": "panjin", "options": opts, "hand": "123s456p789m11z567m"}).to_json()
    assert "jihu" in fan_keys(out)
    out = analyze({"variant": "panjin", "options": opts, "hand": "111123s456p789m11z"}).to_json()
    assert {f["key"]: f["multiplier"] for f in out["fan"]}.get("qunji") == 4
    assert "jihu" not in fan_keys(out)
    out = analyze({"variant": "panjin", "options": {"qionghu": True}, "indicator": "1p",
                   "hand": "123s456p789m11z567m"}).to_json()
    assert "qionghu" in fan_keys(out)
    # 夹胡: 13m waiting on 2m only → 纯夹; 12m waiting on 3m (边) is not
    jia = {"variant": "panjin", "options": {"wildcard_mode": "none", "jiahu": True}}
    out = analyze({**jia, "hand": "123m456p789s11z567s", "winning_tile": "2m"}).to_json()
    assert "jiahu" in fan_keys(out)
    out = analyze({**jia, "hand": "123m456p789s11z567s", "winning_tile": "3m"}).to_json()
    assert "jiahu" not in fan_keys(out)


# -- 晋城 ----------------------------------------------------------------------------

def test_JC1_no_wildcards():
    """JC-1: no wildcards; an indicator is bad_option."""
    assert code_of({"variant": "jincheng", "hand": "123m456p789s1112z", "indicator": "1m"}) == "bad_option"


def test_JC2_shapes_concealed_only_specials():
    """JC-2: standard; 七对 and 十三幺 concealed only."""
    assert "thirteen_orphans" in shapes(analyze({"variant": "jincheng",
                                                 "hand": "19m19p19s12345677z"}).to_json())
    assert analyze({"variant": "jincheng", "hand": "1133m5577p99s1122z"}).to_json()["complete"] is True


def test_JC3_ready_declaration_required():
    """JC-3: a winner who has not declared 上架 → bad_settlement."""
    req = {"variant": "jincheng", "hand": "123m456p789s11122z", "winning_tile": "2z",
           "win_by": "self_draw",
           "settlement": {"dealer": 0, "winner": 0, "ready": [False, True, True, True]}}
    assert code_of(req) == "bad_settlement"


def test_JC4_win_methods_robbing_and_kong_bloom():
    """JC-4: self-draw, discard, robbing a kong (the konger pays as the discarder) and
    杠上开花 (a self-draw, C-14)."""
    base = {"variant": "jincheng", "hand": "123m456p789s11122z", "winning_tile": "2z"}
    robbed = analyze({**base, "win_by": "robbing_kong", "settlement": {
        "dealer": 0, "winner": 1, "discarder": 2, "ready": [True, True, False, True]}}).to_json()
    # JC-5 like jc-3: the robbed konger (not 上架) pays 1 ×2 (未上架点胡) = 2, the dealer 2
    assert robbed["settlement"]["net"] == [-2, 5, -2, -1]
    bloom = analyze({**base, "win_by": "kong_replacement",
                     "settlement": {"dealer": 0, "winner": 1}}).to_json()
    assert bloom["settlement"]["net"] == [-4, 8, -2, -2]       # as jc-8, a self-draw


def test_JC7_follow_dealer():
    """JC-7: 前包 — the dealer pays each other player 1 底, here on a 荒庄 beside 后包 (JC-8)."""
    out = analyze({"variant": "jincheng", "hand": "123m456p789s1235m",
                   "settlement": {"dealer": 2, "winner": None, "follow_dealer": True}}).to_json()
    # 前包 1 + 后包 2 to each of the three others
    assert out["settlement"]["net"] == [3, 3, -9, 3]


# -- found by review ------------------------------------------------------------------------

def test_PJ10_jiahu_with_wildcards_in_force():
    """PJ-10 夹胡: drawing a wildcard completes any ready hand, so it is not a second wait;
    a closed wait on 5万 still counts as 纯夹 in a 混牌 room (indicator 北 → 东 wild)."""
    out = analyze({"variant": "panjin", "options": {"jiahu": True}, "indicator": "4z",
                   "hand": "123m456m789p111s99s", "winning_tile": "5m"}).to_json()
    assert out["complete"] is True and "jiahu" in fan_keys(out)


def test_SMX4_best_reading_is_the_wildcard_pair_when_the_wildcard_wins():
    """SMX-4, C-6: 混单吊 won on a drawn wildcard — the reading shown first has the two
    wildcards (the held one and the drawn one) as the eyes, every other group real."""
    out = analyze({"variant": "sanmenxia", "indicator": "4m", "winning_tile": "5m",
                   "hand": "123m456m789p111s55m"}).to_json()
    assert out["biao"] == 1
    best = out["decompositions"][0]
    assert best["best"] is True
    assert [g["kind"] for g in best["groups"]][-1] == "free"
    assert best["groups"][-1]["faces"] == ["5m", "5m"]


def test_ZZ4_seven_pairs_and_four_wildcards_both_double():
    """ZZ-4: d counts every enabled double that applies; 七对 made with the four wildcards
    (as themselves) is also 四混, so d = 2: each pays 1 × 2² = 4."""
    out = analyze({"variant": "zhengzhou", "indicator": "1z", "hand": "2222z11m33m55p77p99s",
                   "winning_tile": "9s", "win_by": "self_draw",
                   "options": {"seven_pairs_double": True, "four_wildcards_double": True},
                   "settlement": {"dealer": 0, "winner": 0}}).to_json()
    assert out["settlement"]["net"] == [12, -4, -4, -4]


def test_ZZ4_four_wildcards_is_a_property_of_the_tiles():
    """ZZ-4 (third round): 四混 is a property of the tiles, not a reading — whichever reading
    is shown, a 七对 holding the four wildcards takes both doubles (×4). The wait values say
    the same: 2222z 11m 33m 55p 77p 9s (indicator 东 → 南 wild) waits on every kind (四混
    wins at once); 9s also makes 七对, so it is worth 3 × 1 × 2² = 12, every other wait 6."""
    opts = {"seven_pairs_double": True, "four_wildcards_double": True}
    out = analyze({"variant": "zhengzhou", "indicator": "1z", "hand": "2222z11m33m55p77p9s",
                   "options": opts}).to_json()
    wins = {w["tile"]: w["win"] for w in out["waits"]}
    assert wins["9s"] == {"fan": ["seven_pairs", "four_wildcards"], "amount": 12}
    assert wins["5m"] == {"fan": ["four_wildcards"], "amount": 6}
    out = analyze({"variant": "zhengzhou", "indicator": "1z", "hand": "2222z11m33m55p77p99s",
                   "winning_tile": "9s", "win_by": "self_draw", "options": opts,
                   "settlement": {"dealer": 0, "winner": 1}}).to_json()
    assert {d["shape"] for d in out["decompositions"]} >= {"seven_pairs", "four_wildcards"}
    assert out["settlement"]["net"] == [-4, 12, -4, -4]


# -- the second pass over 盘锦 and 晋城 against RULES.md -------------------------------

def test_PJ10_jiahu_counts_waits_as_C9_does():
    """PJ-10 as amended: the 13 tiles 789m 3333p 555p 678s wait on 4p and on 3p, but 3p is
    held four times, so by C-9 it is no wait: the hand waited on 4p only, 纯夹 345p."""
    jia = {"variant": "panjin", "options": {"wildcard_mode": "none", "jiahu": True}}
    out = analyze({**jia, "hand": "789m33334555p678s", "winning_tile": "4p"}).to_json()
    assert out["complete"] is True
    assert [w["tile"] for w in out["waits"]] == ["4p"]
    assert "jiahu" in fan_keys(out)


def test_PJ2_C9_no_wildcard_wait_for_a_discard_win():
    """PJ-2, C-9: a wildcard is never discarded, so no wildcard kind is a wait for a
    ``discard`` win (indicator 北 → 东 wild; 123m 456m 789p 111s 9s waits on 9s, and on 东
    only by self-draw)."""
    req = {"variant": "panjin", "indicator": "4z", "hand": "123m456m789p111s9s"}
    assert set(waits(analyze(req).to_json())) == {"9s", "1z"}
    assert set(waits(analyze({**req, "win_by": "self_draw"}).to_json())) == {"9s", "1z"}
    assert set(waits(analyze({**req, "win_by": "discard"}).to_json())) == {"9s"}
    # discard advice for the 14 tiles reports the waits a discard win has
    out = analyze({**req, "hand": "123m456m789p111s9s5z", "win_by": "discard"}).to_json()
    assert {d["discard"]: [w["tile"] for w in d["waits"]] for d in out["discards"]}["5z"] == ["9s"]


def test_PJ2_C14_discard_win_on_a_wildcard_is_bad_win_by():
    """C-14, PJ-2: a ``discard`` win whose winning tile is a 盘锦 wildcard → bad_win_by;
    the same tiles won by self-draw are a win."""
    req = {"variant": "panjin", "indicator": "4z", "hand": "123m456m789p111s9s1z",
           "winning_tile": "1z"}
    assert analyze({**req, "win_by": "self_draw"}).to_json()["complete"] is True
    with pytest.raises(InputError) as err:
        analyze({**req, "win_by": "discard"}).to_json()
    assert err.value.code == "bad_win_by" and err.value.field == "win_by"
    assert "PJ-2" in str(err.value.message)
    # a real winning tile may be won on a discard
    assert analyze({**req, "winning_tile": "9s", "win_by": "discard"}).to_json()["complete"] is True


def test_PJ4_no_reasons_without_a_winning_shape():
    """API ``reasons``: only for a hand that fails *only* because of a variant rule. 11m 33m
    55m 77m 9m 2468p 东 has no winning shape at all, so it gets no PJ-4 reason though it lacks
    条; the same lack in a hand that has the shape is reported (PJ-4)."""
    out = analyze({**PJ_PLAIN, "hand": "113355779m2468p1z"}).to_json()
    assert out["complete"] is False and "reasons" not in out
    out = analyze({**PJ_PLAIN, "hand": "123m456m789m123p11z"}).to_json()
    assert [r["rule"] for r in out["reasons"]] == ["PJ-4"]


def test_PJ8_seven_pairs_without_the_option_is_explained():
    """PJ-8: 七对 without ``seven_pairs`` has a winning shape the room does not allow: the
    reason names PJ-8 (and the other rules it breaks, here none)."""
    out = analyze({**PJ_PLAIN, "hand": "1133m5577p99s1122z"}).to_json()
    assert out["complete"] is False
    assert [r["rule"] for r in out["reasons"]] == ["PJ-8"]


# -- 晋城 JC-2 (no chow) and JC-10 (拾/搶) ----------------------------------------------

JC = {"variant": "jincheng"}


def taken(*metas):
    """``taken("shi:1m", "qiang:9p")`` → the API melds."""
    return [{"type": m.split(":")[0], "tiles": m.split(":")[1]} for m in metas]


def test_JC2_no_chow():
    """JC-2 as amended: a ``chow`` meld in 晋城 → bad_meld (a discard is taken only as 拾)."""
    req = {**JC, "hand": "456p789s11122z", "melds": [{"type": "chow", "tiles": "123m"}]}
    with pytest.raises(InputError) as err:
        analyze(req).to_json()
    assert err.value.code == "bad_meld" and "JC-2" in str(err.value.message)
    # a pong is still a meld
    assert analyze({**req, "melds": [{"type": "pong", "tiles": "111m"}]}).to_json()["complete"] is True


def test_JC10_taken_tiles_count_one_each():
    """JC-10, C-3: a 拾/搶 tile counts 1 toward the 13/14 tiles, not 3."""
    out = analyze({**JC, "hand": "9m19p19s1234567z", "melds": taken("shi:1m")}).to_json()
    assert out["tile_count"] == 13
    out = analyze({**JC, "hand": "9p19s1234567z", "melds": taken("shi:1m", "shi:9m", "qiang:1p")}).to_json()
    assert out["tile_count"] == 13
    assert code_of({**JC, "hand": "1p19s1234567z", "melds": taken("shi:1m", "shi:9m")}) \
        == "wrong_tile_count"


@pytest.mark.parametrize("melds, why", [
    (taken("shi:5m"), "non-幺 tile"),
    (taken("qiang:1m", "qiang:9m"), "two 搶"),
    (taken("shi:1m", "qiang:1m"), "two taken tiles of one kind"),
    (taken("shi:1m") + [{"type": "pong", "tiles": "999m"}], "pong beside a taken tile"),
    (taken("shi:1m") + [{"type": "kong", "tiles": "1111z"}], "kong beside a taken tile"),
])
def test_JC10_bad_taken_melds(melds, why):
    """JC-10: a non-幺 tile, more than one 搶, two taken tiles of one kind, or a pong, kong or
    chow beside a taken tile → bad_meld."""
    with pytest.raises(InputError) as err:
        analyze({**JC, "hand": "19p19s1234567z", "melds": melds}).to_json()
    assert err.value.code == "bad_meld", why
    assert err.value.field == "melds"


def test_JC10_taken_tiles_only_in_jincheng():
    """JC-10: 拾/搶 are 晋城's; another variant refuses them (bad_meld)."""
    for variant in ("sanmenxia", "zhengzhou", "panjin"):
        assert code_of({"variant": variant, "hand": "9m19p19s1234567z",
                        "melds": taken("shi:1m")}) == "bad_meld"


def test_JC10_thirteen_orphans_with_frozen_tiles():
    """JC-10: taken tiles count toward the thirteen kinds; the pair is concealed."""
    out = analyze({**JC, "hand": "9m19p19s12345677z", "melds": taken("shi:1m"),
                   "winning_tile": "7z"}).to_json()
    assert out["complete"] is True and shapes(out) == {"thirteen_orphans"}
    groups = out["decompositions"][0]["groups"]
    assert groups[0]["kind"] == "pair" and groups[0]["tiles"] == ["7z", "7z"]
    assert [g["tiles"] for g in groups if g["exposed"]] == [["1m"]]
    # the frozen 1m is never the pair: concealed 1m beside it does not make the eyes
    out = analyze({**JC, "hand": "19m19p19s1234567z", "melds": taken("shi:1m")}).to_json()
    assert out["complete"] is False
    # a hand holding a taken tile wins only as 十三幺, not as a standard hand or 七对
    out = analyze({**JC, "hand": "1122m3344p5566s7z", "melds": taken("qiang:7z")}).to_json()
    assert out["complete"] is False and out["decompositions"] == []


def test_JC10_waits_leave_out_a_kind_held_only_as_a_taken_tile():
    """JC-10: the thirteen-sided wait of 12 concealed kinds + 拾1m waits on the twelve
    concealed kinds, not on 1m (it could only pair with the frozen tile)."""
    out = analyze({**JC, "hand": "9m19p19s1234567z", "melds": taken("shi:1m")}).to_json()
    assert set(waits(out)) == {"9m", "1p", "9p", "1s", "9s", "1z", "2z", "3z", "4z",
                               "5z", "6z", "7z"}
    assert out["shanten"] == 0
    # a pair already held: waits on the one kind missing
    out = analyze({**JC, "hand": "9m1p19s12345677z", "melds": taken("shi:1m")}).to_json()
    assert waits(out) == {"9p": 4}


def test_JC10_shanten_counts_taken_tiles_toward_the_kinds():
    """JC-10, C-12: 5m 9m 19p 19s 东…发 + 拾1m holds twelve kinds and no pair: one exchange
    (5m for 中) makes the thirteen-sided wait, so shanten 1; with 中 drawn too, 0."""
    melds = taken("shi:1m")
    assert analyze({**JC, "hand": "5m9m19p19s123456z", "melds": melds}).to_json()["shanten"] == 1
    assert analyze({**JC, "hand": "5m9m19p19s1234567z", "melds": melds}).to_json()["shanten"] == 0


# -- what RULES.md now says where it was silent (docs/decisions.md, "Written into RULES.md")

@pytest.mark.parametrize("variant, rule", [("sanmenxia", "SMX-3"), ("zhengzhou", "ZZ-3")])
def test_SMX3_ZZ3_four_wildcards_declared_as_a_kong_are_not_four_wildcards(variant, rule):
    """SMX-3, ZZ-3 as amended: four wildcards declared as a concealed kong are a kong, not
    四混 (indicator 4万 → 5万 wild). Held concealed, the same four are 四混."""
    kong = [{"type": "concealed_kong", "tiles": "5555m"}]
    out = analyze({"variant": variant, "indicator": "4m", "hand": "123p456s789m12z",
                   "melds": kong}).to_json()
    assert out["complete"] is False, rule
    assert "four_wildcards" not in shapes(out)
    out = analyze({"variant": variant, "indicator": "4m", "hand": "5555m123p456s789m1z"}).to_json()
    assert out["complete"] is True and "four_wildcards" in shapes(out)
    # and the 13 tiles beside the kong wait on the 东 pair only, not on any tile as 四混 does
    out = analyze({"variant": variant, "indicator": "4m", "hand": "123p456s789m1z",
                   "melds": kong}).to_json()
    assert waits(out) == {"1z": 3}
    out = analyze({"variant": variant, "indicator": "4m", "hand": "555m123p456s789m1z"}).to_json()
    assert len(waits(out)) > 1 and "5m" in waits(out)


def test_PJ5_PJ6_wildcard_kong_is_not_a_triplet_nor_a_terminal():
    """PJ-5, PJ-6 as amended: a 混杠 (``wildcard_kong``) is not a 刻 and its tiles are no 幺九.
    Indicator 9万 → 1万 wild: 混杠 1111m + 234m 456p 345s 55p has neither."""
    req = {"variant": "panjin", "options": {"wildcard_kong": True}, "indicator": "9m",
           "melds": [{"type": "concealed_kong", "tiles": "1111m"}]}
    out = analyze({**req, "hand": "234m456p345s55p"}).to_json()
    assert out["complete"] is False
    assert [r["rule"] for r in out["reasons"]] == ["PJ-5", "PJ-6"]
    # the same hand with a real 刻 and 幺九 (999p for 456p) wins
    out = analyze({**req, "hand": "234m999p345s55p"}).to_json()
    assert out["complete"] is True


def test_PJ2_all_wildcard_hand_may_discard_one():
    """PJ-2's exception: a hand made only of wildcard tiles (here four pongs beside two 5万,
    indicator 4万, 飘胡 on) may discard one; otherwise a wildcard is never advised."""
    req = {"variant": "panjin", "options": {"piaohu": True}, "indicator": "4m",
           "melds": [{"type": "pong", "tiles": t} for t in ("111m", "999p", "999s", "111z")]}
    out = analyze({**req, "hand": "55m"}).to_json()
    assert out["complete"] is True and "piaohu" in fan_keys(out)
    assert [d["discard"] for d in out["discards"]] == ["5m"]
    # with a real tile beside the wildcard, the wildcard is never the advised discard
    out = analyze({**req, "hand": "5m9m"}).to_json()
    assert "5m" not in [d["discard"] for d in out["discards"]]
