"""Settlement engine: payments per RULES.md, every option that moves money shown
on and off, every C-15 validation error, and properties (zero-sum nets, details that state
their amounts, house options that change exactly the payments their rule names).

Every figure below is derived by hand from RULES.md; the arithmetic is in the comment.
Seats: 0 东, 1 南, 2 西, 3 北.
"""

from __future__ import annotations

import math
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.scale import examples
from webcalc.analysis import analyze
from webcalc.errors import InputError
from webcalc.options import option_specs, parse_options
from webcalc.settlement import Payment, Settlement, fmt, settlement_fields
from webcalc.variants import VARIANTS

# complete hands, one per variant (no wildcards unless stated)
SMX_PLAIN = dict(variant="sanmenxia", hand="123m456p789s11122z", winning_tile="2z",
                 win_by="self_draw")
# 123 123 123 123 of 万 + 红中 (the wildcard of indicator 北) + the drawn 9万: 混单吊 (SMX-4)
SMX_BIAO = dict(variant="sanmenxia", hand="1111222233339m7z", indicator="4z",
                winning_tile="9m", win_by="self_draw")
ZZ_PLAIN = dict(variant="zhengzhou", hand="123m456p789s111z22z", winning_tile="2z",
                win_by="self_draw", options={"wildcard": False})
ZZ_PAIRS = dict(variant="zhengzhou", hand="1122m3344p5566s77z", winning_tile="7z",
                win_by="self_draw", options={"wildcard": False})
ZZ_FOUR = dict(variant="zhengzhou", hand="1111p234m567m789s1z", indicator="9p",
               winning_tile="1z", win_by="self_draw")
PJ_PLAIN = dict(variant="panjin", hand="12355m456p789s111z", winning_tile="5m",
                win_by="self_draw", options={"wildcard_mode": "none"})
JC_PLAIN = dict(variant="jincheng", hand="123m456p789s111z22z", winning_tile="2z",
                win_by="self_draw")


def run(case: dict, settlement: dict, options: dict | None = None, **over) -> dict:
    req = {**case, **over, "settlement": settlement}
    if options is not None:
        req["options"] = {**case.get("options", {}), **options}
    return analyze(req).to_json()


def net(case, settlement, options=None, **over):
    return run(case, settlement, options, **over)["settlement"]["net"]


def payments(case, settlement, options=None, **over):
    return run(case, settlement, options, **over)["settlement"]["payments"]


def error(case, settlement, options=None, **over) -> InputError:
    with pytest.raises(InputError) as e:
        run(case, settlement, options, **over)
    return e.value


# -- core types ---------------------------------------------------------------------------

def test_settlement_net_is_zero_sum_and_to_dict_shape():
    """C-11: payments between two seats, net per seat summing to zero."""
    s = Settlement.of([Payment(1, 0, 2, "win", "SMX-6", "x = 2（SMX-6）"),
                       Payment(2, 3, 1, "kong", "SMX-7", "y = 1（SMX-7）")])
    assert s.net == (2, -2, -1, 1)
    d = s.to_dict()
    assert d["net"] == [2, -2, -1, 1]
    assert d["payments"][0] == {"from": 1, "to": 0, "amount": 2, "item": "win",
                                "detail": "x = 2（SMX-6）", "rule": "SMX-6"}


def test_payment_refuses_self_payment_and_unknown_item():
    with pytest.raises(AssertionError):
        Payment(1, 1, 2, "win", "SMX-6", "")
    with pytest.raises(AssertionError):
        Payment(1, 0, 2, "tip", "SMX-6", "")


def test_float_base_gives_float_amounts_int_base_ints():
    """API: base may be a float (0.5); amounts keep the base's type."""
    # 盘锦 南家 self-draw, 东 deals: share 0.5 ×2(自摸) ×2(庄) = 2 from 东, 1 from 西/北
    assert net(PJ_PLAIN, {"base": 0.5, "dealer": 0, "winner": 1}) == [-2.0, 4.0, -1.0, -1.0]
    out = payments(PJ_PLAIN, {"base": 0.5, "dealer": 0, "winner": 1})
    assert all(isinstance(p["amount"], float) for p in out)
    out = payments(PJ_PLAIN, {"base": 3, "dealer": 0, "winner": 1})
    assert all(type(p["amount"]) is int for p in out)


def test_detail_cites_rule_and_arithmetic_smx6_example():
    """Issue 4's example detail: 底1 ×(1+跑1+跑0) ×2^1表 = 4（SMX-6）."""
    out = payments(SMX_BIAO, {"dealer": 0, "winner": 0, "pao": [1, 0, 0, 0]})
    assert all("底1 ×(1+跑1+跑0) ×2^1表 = 4（SMX-6）" in str(p["detail"]) for p in out)
    assert {p["rule"] for p in out} == {"SMX-6"}


# -- 三门峡 SMX-5, SMX-6, SMX-7 ----------------------------------------------------------

def test_smx6_plain_self_draw_no_dealer_factor():
    # 0 表, no 跑: 底1 ×1 from each; the dealer (1) pays the same (SMX-6: no dealer factor)
    assert net(SMX_PLAIN, {"dealer": 1, "winner": 0}) == [3, -1, -1, -1]


def test_smx5_biao_count_and_biao_discards():
    """SMX-5: 混单吊 → 1 + biao_discards; SMX-6 examples 2表 → 4, 4表 → 16."""
    out = run(SMX_BIAO, {"dealer": 0, "winner": 0, "biao_discards": 3})
    assert out["biao"] == 4 and out["settlement"]["net"] == [48, -16, -16, -16]  # 2^4
    out = run(SMX_BIAO, {"dealer": 0, "winner": 0, "biao_discards": 1})
    assert out["biao"] == 2 and out["settlement"]["net"] == [12, -4, -4, -4]     # 2^2


def test_smx5_biao_discards_ignored_without_wildcard_pair_wait():
    """SMX-5: 0 表 unless 混单吊 (docs/settlement.md: biao_discards then counts nothing)."""
    out = run(SMX_PLAIN, {"dealer": 0, "winner": 0, "biao_discards": 2})
    assert out["biao"] == 0 and out["settlement"]["net"] == [3, -1, -1, -1]


def test_smx6_pao_doubles_with_biao_on_and_off():
    # 1 表, 跑 [1,0,0,0], 东 wins. on: 底 ×(1+1+0) ×2 = 4 each → 12
    assert net(SMX_BIAO, {"dealer": 2, "winner": 0, "pao": [1, 0, 0, 0]}) == [12, -4, -4, -4]
    # off: 底 ×2 + 底 ×(1+0) = 3 each → 9
    assert net(SMX_BIAO, {"dealer": 2, "winner": 0, "pao": [1, 0, 0, 0]},
               {"pao_doubles_with_biao": False}) == [9, -3, -3, -3]


def test_smx6_pao_option_on_and_off():
    # 带跑 on, 跑 [1,1,0,0]: 南 pays 1+1+1 = 3, 西/北 1+1+0 = 2 → 东 +7
    assert net(SMX_PLAIN, {"dealer": 0, "winner": 0, "pao": [1, 1, 0, 0]}) == [7, -3, -2, -2]
    # 带跑 off: only zeros are accepted, 1 each
    assert net(SMX_PLAIN, {"dealer": 0, "winner": 0, "pao": [0, 0, 0, 0]},
               {"pao": False}) == [3, -1, -1, -1]
    assert error(SMX_PLAIN, {"dealer": 0, "winner": 0, "pao": [0, 1, 0, 0]},
                 {"pao": False}).field == "settlement.pao"


def test_smx6_pao_max():
    # pao_max 2: 跑 [2,0,0,0] → 1+2+0 = 3 each; with the default pao_max 1 it is refused
    assert net(SMX_PLAIN, {"dealer": 0, "winner": 0, "pao": [2, 0, 0, 0]},
               {"pao_max": 2}) == [9, -3, -3, -3]
    e = error(SMX_PLAIN, {"dealer": 0, "winner": 0, "pao": [2, 0, 0, 0]})
    assert (e.code, e.field) == ("bad_settlement", "settlement.pao")


def test_smx7_kongs_and_kong_pao_on_off():
    s = {"dealer": 0, "winner": 0, "pao": [1, 0, 0, 1],
         "kongs": [{"seat": 3, "type": "concealed"}]}
    # off: win 南 1+1+0=2, 西 2, 北 1+1+1=3 (东 +7); 暗杠 北: 东南西 pay 1 each
    assert net(SMX_PLAIN, s) == [6, -3, -3, 0]
    # kong_pao on: 暗杠 from 东 1+1+1 = 3, 南 1+1+0 = 2, 西 2 → 北 +7
    assert net(SMX_PLAIN, s, {"kong_pao": True}) == [4, -4, -4, 4]


def test_smx7_exposed_and_added_kongs_paid_by_supplier():
    s = {"dealer": 0, "winner": 0, "kongs": [{"seat": 1, "type": "exposed", "from": 2},
                                              {"seat": 3, "type": "added", "from": 0}]}
    # win 1 each → 东 +3; 明杠 南 ← 西 1; 绕杠 北 ← 东 1
    assert net(SMX_PLAIN, s) == [2, 0, -2, 0]


@pytest.mark.parametrize("kong_pao", [False, True])
def test_smx7_c10_draw_pays_no_kongs(kong_pao):
    """荒庄荒杠: with or without 杠带跑."""
    s = {"dealer": 0, "winner": None, "pao": [1, 1, 1, 1],
         "kongs": [{"seat": 3, "type": "concealed"}]}
    out = run(SMX_PLAIN, s, {"kong_pao": kong_pao})["settlement"]
    assert out["payments"] == [] and out["net"] == [0, 0, 0, 0]


def test_c14_smx_kong_replacement_is_self_draw():
    assert net(SMX_PLAIN, {"dealer": 0, "winner": 0}, win_by="kong_replacement") == \
        [3, -1, -1, -1]


# -- 郑州 ZZ-4, ZZ-5, ZZ-6 ----------------------------------------------------------------

def test_zz6_seed_error_three_not_two():
    """ZZ-6: A 跑1, B 跑2, B wins: each 跑0 player pays 1+2+0 = 3 底, A pays 1+2+1 = 4."""
    assert net(ZZ_PLAIN, {"base": 1, "dealer": 2, "winner": 1, "pao": [1, 2, 0, 0]}) == \
        [-4, 10, -3, -3]


def test_zz6_big_example_kong_pao_on_off():
    """ZZ-6: A 跑3 + 暗杠, B 跑2, A wins: C, D 8 底, B 12 底 (5/5/7 without kong_pao)."""
    s = {"dealer": 2, "winner": 0, "pao": [3, 2, 0, 0], "kongs": [{"seat": 0, "type": "concealed"}]}
    # win: B 1+3+2 = 6, C/D 1+3 = 4; kong with 杠跑 the same again → B 12, C/D 8
    assert net(ZZ_PLAIN, s) == [28, -12, -8, -8]
    # without: kong 1 each → B 7, C/D 5
    assert net(ZZ_PLAIN, s, {"kong_pao": False}) == [17, -7, -5, -5]


def _zz6_notes(settlement, options=None):
    out = run(ZZ_PLAIN, settlement, options)["settlement"]
    assert not [p for p in out["payments"] if "ZZ-6" in str(p["detail"])
                or "种子" in str(p["detail"])], "no payment carries the seed note"
    return [(n["rule"], [m.code for m in n["message"].params["examples"].items])
            for n in out.get("notes", [])]


def test_zz6_note_once_where_the_seeds_examples_differ():
    """ZZ-6 is noted once per settlement (``settlement.notes``), naming the seed's
    miscounted example(s) that would give another number here; the payment lines no
    longer end with the note (seven times on one hand before)."""
    pao_ex, kong_ex = "zz.seed_example_pao", "zz.seed_example_kong"
    # the seed's first example: A 跑1, B 跑2, B wins → the seed's 2 for a 跑0 seat, not 3
    assert _zz6_notes({"dealer": 2, "winner": 1, "pao": [1, 2, 0, 0]}) == [("ZZ-6", [pao_ex])]
    # ... A wins there: the seed says 2 for a 跑0 seat and 4 for B, as the formula does
    assert _zz6_notes({"dealer": 2, "winner": 0, "pao": [1, 2, 0, 0]}) == []
    # one 跑 seat, or no seat without 跑 among the payers: the seed agrees
    assert _zz6_notes({"dealer": 2, "winner": 0, "pao": [2, 0, 0, 0]}) == []
    assert _zz6_notes({"dealer": 2, "winner": 0, "pao": [3, 1, 2, 1]}) == []
    assert _zz6_notes({"dealer": 2, "winner": 0, "pao": [0, 0, 0, 0]}) == []
    # the second example (A 跑3 + 暗杠, B 跑2): both examples apply, one note
    big = {"dealer": 2, "winner": 0, "pao": [3, 2, 0, 0],
           "kongs": [{"seat": 0, "type": "concealed"}]}
    assert _zz6_notes(big) == [("ZZ-6", [pao_ex, kong_ex])]
    assert _zz6_notes(big, {"kong_pao": False}) == [("ZZ-6", [pao_ex, kong_ex])]
    # the winner's kong with 跑 1: the seed's 1+2+p equals the formula's 2+p+1 without 杠跑
    one = {"dealer": 2, "winner": 0, "pao": [1, 0, 0, 0],
           "kongs": [{"seat": 0, "type": "concealed"}]}
    assert _zz6_notes(one) == [("ZZ-6", [kong_ex])]
    assert _zz6_notes(one, {"kong_pao": False}) == []
    # another seat's kong, or a winner without 跑: the seed's kong example does not apply
    assert _zz6_notes({"dealer": 2, "winner": 0, "pao": [1, 0, 0, 0],
                       "kongs": [{"seat": 1, "type": "concealed"}]}) == []
    assert _zz6_notes({"dealer": 2, "winner": 0, "pao": [0, 2, 0, 0],
                       "kongs": [{"seat": 0, "type": "concealed"}]}) == []
    # a drawn game has no winner: nothing of the seed's win examples applies
    out = analyze({"variant": "zhengzhou", "settlement": {
        "dealer": 0, "winner": None, "pao": [3, 2, 0, 0],
        "kongs": [{"seat": 0, "type": "concealed"}]}}).to_json()
    assert "notes" not in out["settlement"]


def test_zz6_note_exactly_where_the_seeds_reckoning_gives_another_number():
    """Every 跑 at the table (0-3 each; the seats are alike, so 东家 wins and deals), with and
    without a concealed kong of the winner's, 杠跑 on and off: the note is there exactly when
    the seed's examples, read as docs/decisions.md reads them, give a number the engine's payments do not:

    * a seat without 跑 pays the winner 1 + the smallest 跑 at the table (example 1);
    * a seat paying the winner's kong pays 1 + 2 × 跑_winner + its own 跑 for the win and the
      kong together (example 2: 7 and 9)."""
    from itertools import product

    checked = noted = 0
    for pao in product(range(4), repeat=4):
        for winner in (0,):
            for kong, kong_pao in ((False, True), (True, True), (True, False)):
                s = {"dealer": winner, "winner": winner, "pao": list(pao)}
                if kong:
                    s["kongs"] = [{"seat": winner, "type": "concealed"}]
                out = run(ZZ_PLAIN, s, {"kong_pao": kong_pao})["settlement"]
                paid = {q: sum(p["amount"] for p in out["payments"] if p["from"] == q)
                        for q in range(4) if q != winner}
                win = {p["from"]: p["amount"] for p in out["payments"] if p["item"] == "win"}
                w = pao[winner]
                differs = False
                if w > 0:
                    smallest = min(x for x in pao if x > 0)
                    differs |= any(pao[q] == 0 and win[q] != 1 + smallest for q in paid)
                    if kong:
                        differs |= any(paid[q] != 1 + 2 * w + pao[q] for q in paid)
                assert ("notes" in out) is differs, (pao, winner, kong, kong_pao, out)
                checked += 1
                noted += differs
    assert checked == 256 * 3 and 0 < noted < checked


def test_zz4_pao_max():
    # default pao_max 3: 跑 4 refused; with pao_max 4: 1+4 = 5 each
    assert error(ZZ_PLAIN, {"dealer": 0, "winner": 0, "pao": [4, 0, 0, 0]}).field == \
        "settlement.pao"
    assert net(ZZ_PLAIN, {"dealer": 0, "winner": 0, "pao": [4, 0, 0, 0]},
               {"pao_max": 4}) == [15, -5, -5, -5]


def test_zz4_pao_max_zero_refuses_any_pao():
    """pao_max 0 is a cap like any other: 跑 1 → bad_settlement under settlement.pao (it was
    an AttributeError, a 500, reading the rule id as a message)."""
    e = error(ZZ_PLAIN, {"dealer": 0, "winner": 0, "pao": [1, 0, 0, 0]}, {"pao_max": 0})
    assert (e.code, e.field) == ("bad_settlement", "settlement.pao")
    assert "0" in str(e.message) and "ZZ-4" in str(e.message)


def test_zz5_draw_settles_kongs_on_off():
    s = {"dealer": 0, "winner": None, "pao": [2, 1, 0, 0],
         "kongs": [{"seat": 0, "type": "exposed", "from": 1}]}
    # 荒庄, 明杠 东 ← 南: 底 ×(1+跑2+跑1) = 4
    assert net(ZZ_PLAIN, s) == [4, -4, 0, 0]
    assert net(ZZ_PLAIN, s, {"kong_pao": False}) == [1, -1, 0, 0]
    assert net(ZZ_PLAIN, s, {"draw_settles_kongs": False}) == [0, 0, 0, 0]


def test_zz5_added_kong_paid_by_pong_supplier():
    s = {"dealer": 0, "winner": 0, "kongs": [{"seat": 2, "type": "added", "from": 3}]}
    # win 1 each → 东 +3; 补杠 西 ← 北 1
    assert net(ZZ_PLAIN, s) == [3, -1, 0, -2]


def test_zz4_seven_pairs_double_on_off():
    assert net(ZZ_PAIRS, {"dealer": 1, "winner": 0}) == [3, -1, -1, -1]
    # ×2^1
    assert net(ZZ_PAIRS, {"dealer": 1, "winner": 0}, {"seven_pairs_double": True}) == \
        [6, -2, -2, -2]


def test_zz4_four_wildcards_double_on_off():
    assert net(ZZ_FOUR, {"dealer": 1, "winner": 0}) == [3, -1, -1, -1]
    assert net(ZZ_FOUR, {"dealer": 1, "winner": 0}, {"four_wildcards_double": True}) == \
        [6, -2, -2, -2]


def test_zz4_kong_bloom_double_on_off_c14():
    s = {"dealer": 1, "winner": 0}
    assert net(ZZ_PLAIN, s, win_by="kong_replacement") == [3, -1, -1, -1]
    assert net(ZZ_PLAIN, s, {"kong_bloom_double": True}, win_by="kong_replacement") == \
        [6, -2, -2, -2]
    # a plain self-draw is not 杠上花
    assert net(ZZ_PLAIN, s, {"kong_bloom_double": True}) == [3, -1, -1, -1]


def test_zz4_doubles_multiply():
    # 七对 + 杠上花 with 跑 [1,0,0,0]: (1+1) ×2^2 = 8 each
    assert net(ZZ_PAIRS, {"dealer": 1, "winner": 0, "pao": [1, 0, 0, 0]},
               {"seven_pairs_double": True, "kong_bloom_double": True},
               win_by="kong_replacement") == [24, -8, -8, -8]


def test_zz4_zz5_kong_never_doubled():
    s = {"dealer": 1, "winner": 0, "kongs": [{"seat": 0, "type": "concealed"}]}
    # 七对加倍: win 2 each, kong 1 each → 3 each
    assert net(ZZ_PAIRS, s, {"seven_pairs_double": True}) == [9, -3, -3, -3]


def test_zz4_zz5_dealer_plus_base_on_off():
    s = {"dealer": 1, "winner": 0, "kongs": [{"seat": 2, "type": "concealed"}]}
    # off: win 1 each; 暗杠 西 1 each → [3-1, -1-1, -1+3, -1-1]
    assert net(ZZ_PLAIN, s, {"kong_pao": False}) == [2, -2, 2, -2]
    # on: win from 南 (dealer) 1+1 = 2; 暗杠 from 南 1+1 = 2
    #  东 +4-1 = 3; 南 -2-2 = -4; 西 -1+4 = 3; 北 -1-1 = -2
    assert net(ZZ_PLAIN, s, {"kong_pao": False, "dealer_plus_base": True}) == [3, -4, 3, -2]
    # the dealer winning: +1 in every one of its payments
    assert net(ZZ_PLAIN, {"dealer": 0, "winner": 0}, {"dealer_plus_base": True}) == \
        [6, -2, -2, -2]


# -- 盘锦 PJ-10 .. PJ-13 -----------------------------------------------------------------

def test_pj10_fan_list_with_settlement():
    out = run(PJ_PLAIN, {"dealer": 0, "winner": 1})
    assert [f["key"] for f in out["fan"]] == ["self_draw"]
    out = run(PJ_PLAIN, {"dealer": 0, "winner": 1, "discarder": 2}, win_by="discard")
    assert [f["key"] for f in out["fan"]] == ["discard"]
    out = run(PJ_PLAIN, {"dealer": 0, "winner": None})
    assert "fan" not in out or all(f["key"] not in ("self_draw", "discard") for f in out["fan"])


def test_pj11_dealer_factor_never_four():
    # dealer wins by self-draw: 1 ×2(自摸) ×2(庄) = 4 each (not ×4 for both)
    assert net(PJ_PLAIN, {"dealer": 0, "winner": 0}) == [12, -4, -4, -4]


def test_pj11_jiagang_on_off():
    s = {"dealer": 0, "winner": 1, "jiagang": [False, True, True, False]}
    # 东 2×2(庄)×2(胡家钢) = 8, 西 2×2×2(输家钢) = 8, 北 2×2 = 4
    assert net(PJ_PLAIN, s, {"jiagang": True}) == [-8, 20, -8, -4]
    assert error(PJ_PLAIN, s).field == "settlement.jiagang"          # option off
    assert net(PJ_PLAIN, {"dealer": 0, "winner": 1}, {"jiagang": True}) == [-4, 8, -2, -2]


def test_pj11_all_jiagang_refuses_a_partial_list():
    # 死钢 means everyone has 加钢: a list naming only some seats contradicts the room
    assert error(PJ_PLAIN, {"dealer": 0, "winner": 1, "jiagang": [True, False, False, False]},
                 {"all_jiagang": True}).field == "settlement.jiagang"


def test_pj11_all_jiagang():
    # 死钢: everyone ×2 ×2; 东 2×2×4 = 16, 西/北 2×4 = 8
    assert net(PJ_PLAIN, {"dealer": 0, "winner": 1}, {"all_jiagang": True}) == \
        [-16, 32, -8, -8]


def test_pj12_discard_doubles_all_on_off():
    s = {"dealer": 0, "winner": 1, "discarder": 2}
    # off: 东 share 2(庄), 西 own 2(点炮), 北 1 → 西 pays 5
    assert net(PJ_PLAIN, s, win_by="discard") == [0, 5, -5, 0]
    # on: 东 4, 西 2, 北 2 → 8
    assert net(PJ_PLAIN, s, {"discard_doubles_all": True}, win_by="discard") == [0, 8, -8, 0]
    out = payments(PJ_PLAIN, s, win_by="discard")
    assert {p["from"] for p in out} == {2} and len(out) == 3


def test_pj10_kong_bloom_on_off_c14():
    s = {"dealer": 0, "winner": 1}
    # C-14: 自摸 ×2 even on 杠上开花; 东 1×2×2 = 4
    assert net(PJ_PLAIN, s, win_by="kong_replacement") == [-4, 8, -2, -2]
    # kong_bloom: ×2 more
    out = run(PJ_PLAIN, s, {"kong_bloom": True}, win_by="kong_replacement")
    assert out["settlement"]["net"] == [-8, 16, -4, -4]
    assert [f["key"] for f in out["fan"]] == ["self_draw", "kong_bloom"]


def test_pj10_kong_discard_on_off():
    s = {"dealer": 0, "winner": 1, "discarder": 2, "kong_discard": True}
    # 杠流泪 ×2 on every share: 东 1×2×2 = 4, 西 1×2(点炮)×2 = 4, 北 2 → 10
    assert net(PJ_PLAIN, s, {"kong_discard": True}, win_by="discard") == [0, 10, -10, 0]
    s2 = {**s, "kong_discard": False}
    assert net(PJ_PLAIN, s2, {"kong_discard": True}, win_by="discard") == [0, 5, -5, 0]
    assert error(PJ_PLAIN, s, win_by="discard").field == "settlement.kong_discard"


# hand 番 options, each ×2: 南 self-draw, 东 deals → 东 1×2×2×2 = 8, 西/北 4
PJ_FAN_CASES = [
    ("jihu", dict(PJ_PLAIN, hand="12355m456p123s111z")),
    ("piaohu", dict(PJ_PLAIN, hand="111m222p333s444m55z", winning_tile="5z")),
    ("jiahu", dict(PJ_PLAIN, hand="123m456p789s111z55m", winning_tile="2m")),
    ("qionghu", dict(PJ_PLAIN, indicator="9p", options={})),
    ("one_suit", dict(PJ_PLAIN, hand="111m234m567m789m55m")),
    ("seven_pairs", dict(PJ_PLAIN, hand="1122m3344p5566s11z", winning_tile="1z")),
]


@pytest.mark.parametrize("option,case", PJ_FAN_CASES)
def test_pj10_hand_fan_option_on_off(option, case):
    s = {"dealer": 0, "winner": 1}
    assert net(case, s, {option: True}) == [-8, 16, -4, -4]
    try:
        off = net(case, s, {option: False})
    except InputError as e:       # 飘胡/清一色/七对: the hand is no win without the option
        assert e.code == "not_complete"
        assert e.reasons or option == "seven_pairs"    # no shape at all: no rule to cite
    else:
        assert off == [-4, 8, -2, -2]


def test_pj10_qunji_times_four():
    case = dict(PJ_PLAIN, hand="1111s23s456m789p11z", winning_tile="1z")
    # 群鸡 ×4 ×2(自摸): 东 1×4×2×2 = 16, 西/北 8
    out = run(case, {"dealer": 0, "winner": 1}, {"jihu": True})
    assert out["settlement"]["net"] == [-16, 32, -8, -8]


def test_pj13_kongs_flat_on_draw_and_win():
    s = {"dealer": 0, "winner": None,
         "kongs": [{"seat": 2, "type": "exposed", "from": 1}, {"seat": 3, "type": "concealed"},
                   {"seat": 1, "type": "added"}]}
    # 明杠 西 1 ×3, 暗杠 北 2 ×3, 补杠 南 1 ×3
    #  东 -1-2-1 = -4; 南 -1-2+3 = 0; 西 +3-2-1 = 0; 北 -1+6-1 = 4
    assert net(PJ_PLAIN, s) == [-4, 0, 0, 4]
    # with a win and jiagang everywhere, the kongs stay flat
    win = {**s, "winner": 1}
    out = payments(PJ_PLAIN, win, {"all_jiagang": True})
    assert sorted(p["amount"] for p in out if p["item"] == "kong") == [1] * 6 + [2] * 3


def test_pj13_kong_option_off_refuses_kongs():
    s = {"dealer": 0, "winner": None, "kongs": [{"seat": 3, "type": "concealed"}]}
    assert error(PJ_PLAIN, s, {"kong": False}).field == "settlement.kongs"
    assert net(PJ_PLAIN, {"dealer": 0, "winner": None}, {"kong": False}) == [0, 0, 0, 0]


def test_pj13_wildcard_kong_64():
    s = {"dealer": 0, "winner": None, "kongs": [{"seat": 2, "type": "wildcard"}]}
    assert net(PJ_PLAIN, s, {"wildcard_kong": True}) == [-64, -64, 192, -64]
    assert error(PJ_PLAIN, s).field == "settlement.kongs"


@pytest.mark.parametrize("option", ["no_dealer_repeat", "no_pass_win"])
def test_pj_options_that_do_not_move_money(option):
    """RULES 盘锦: 禁止顺胡 and 不连庄 change play and rotation, not a hand's score."""
    s = {"dealer": 0, "winner": 1, "discarder": 3}
    assert payments(PJ_PLAIN, s, {option: True}, win_by="discard") == \
        payments(PJ_PLAIN, s, win_by="discard")


def test_pj4_duanmen_needs_option():
    case = dict(PJ_PLAIN, hand="123m456m789m123p11z", winning_tile="1z")
    s = {"dealer": 0, "winner": 0, "duanmen": True}
    assert net(case, s, {"duanmen": True}) == [12, -4, -4, -4]
    assert error(case, s).field == "settlement.duanmen"


# -- 晋城 JC-3 .. JC-8 --------------------------------------------------------------------

JC_TABLE = [  # the seed's 8 cases (JC-5): ready, winner, win_by, discarder → net
    ([1, 1, 0, 1], 0, "discard", 2, [8, -2, -4, -2]),   # 西 not 上架: 2×2
    ([1, 1, 1, 1], 0, "discard", 2, [6, -2, -2, -2]),
    ([1, 1, 0, 1], 1, "discard", 2, [-2, 5, -2, -1]),
    ([1, 1, 1, 1], 1, "discard", 2, [-2, 4, -1, -1]),
    ([0, 1, 1, 1], 1, "discard", 0, [-4, 6, -1, -1]),   # dealer not 上架: 2×2
    ([1, 1, 1, 1], 1, "discard", 0, [-2, 4, -1, -1]),
    ([1, 1, 1, 1], 0, "self_draw", None, [12, -4, -4, -4]),
    ([1, 1, 1, 1], 1, "self_draw", None, [-4, 8, -2, -2]),
]


@pytest.mark.parametrize("ready,winner,win_by,discarder,expected", JC_TABLE)
def test_jc5_seed_table(ready, winner, win_by, discarder, expected):
    s = {"dealer": 0, "ready": [bool(r) for r in ready], "winner": winner,
         "discarder": discarder}
    assert net(JC_PLAIN, s, win_by=win_by) == expected


def test_jc4_robbing_kong_konger_counts_as_discarder():
    s = {"dealer": 0, "ready": [True, True, False, True], "winner": 1, "discarder": 2}
    # as jc-3: 东 2, 西 1×2(未上架), 北 1
    assert net(JC_PLAIN, s, win_by="robbing_kong") == [-2, 5, -2, -1]


def test_jc5_c14_kong_replacement_is_self_draw():
    assert net(JC_PLAIN, {"dealer": 0, "winner": 1}, win_by="kong_replacement") == \
        [-4, 8, -2, -2]


def test_jc6_kongs_paid_on_win():
    s = {"dealer": 0, "winner": 0, "kongs": [{"seat": 1, "type": "exposed", "from": 0},
                                              {"seat": 2, "type": "concealed"}]}
    # win 4 each (庄 自摸) → 东 +12; 明杠 南 +1×3; 暗杠 西 +2×3
    #  东 12-1-2 = 9; 南 -4+3-2 = -3; 西 -4-1+6 = 1; 北 -4-1-2 = -7
    assert net(JC_PLAIN, s) == [9, -3, 1, -7]


def test_jc8_draw_penalty_option_and_no_kongs():
    s = {"dealer": 1, "winner": None, "kongs": [{"seat": 2, "type": "concealed"}]}
    assert net(JC_PLAIN, s) == [2, -6, 2, 2]                       # 后包 2 each
    assert net(JC_PLAIN, s, {"draw_penalty": 1}) == [1, -3, 1, 1]
    quiet = run(JC_PLAIN, s, {"draw_penalty": 0})["settlement"]
    assert quiet["payments"] == [] and quiet["net"] == [0, 0, 0, 0]


def test_jc7_follow_dealer_on_off():
    s = {"dealer": 0, "winner": 1}
    assert net(JC_PLAIN, s) == [-4, 8, -2, -2]
    # 前包: 东 pays 1 to each → [-7, 9, -1, -1]
    assert net(JC_PLAIN, {**s, "follow_dealer": True}) == [-7, 9, -1, -1]
    # on 荒庄 too (docs/settlement.md): 1 + 后包 2 to each
    assert net(JC_PLAIN, {"dealer": 0, "winner": None, "follow_dealer": True}) == \
        [-9, 3, 3, 3]
    items = {p["item"] for p in payments(JC_PLAIN, {**s, "follow_dealer": True})}
    assert items == {"win", "follow_dealer"}


# -- C-15 validation -------------------------------------------------------------------

BAD = [  # (case, settlement, options, over, field)
    (SMX_PLAIN, [1, 2], None, {}, "settlement"),
    (PJ_PLAIN, {"dealer": 0, "foo": 1}, None, {}, "settlement.foo"),
    (PJ_PLAIN, {"dealer": 0, "base": "1"}, None, {}, "settlement.base"),
    (PJ_PLAIN, {"dealer": 0, "base": True}, None, {}, "settlement.base"),
    (PJ_PLAIN, {"dealer": 0, "base": 0}, None, {}, "settlement.base"),
    (PJ_PLAIN, {"dealer": 0, "base": -1}, None, {}, "settlement.base"),
    (PJ_PLAIN, {"dealer": 0, "base": float("nan")}, None, {}, "settlement.base"),
    (PJ_PLAIN, {"dealer": 0, "base": float("inf")}, None, {}, "settlement.base"),
    (PJ_PLAIN, {"winner": None}, None, {}, "settlement.dealer"),
    (PJ_PLAIN, {"dealer": 4}, None, {}, "settlement.dealer"),
    (PJ_PLAIN, {"dealer": -1}, None, {}, "settlement.dealer"),
    (PJ_PLAIN, {"dealer": True}, None, {}, "settlement.dealer"),
    (PJ_PLAIN, {"dealer": 1.0}, None, {}, "settlement.dealer"),
    (PJ_PLAIN, {"dealer": "0"}, None, {}, "settlement.dealer"),
    (PJ_PLAIN, {"dealer": 0, "winner": 4}, None, {}, "settlement.winner"),
    (PJ_PLAIN, {"dealer": 0, "winner": False}, None, {}, "settlement.winner"),
    (PJ_PLAIN, {"dealer": 0, "winner": 1}, None, {"win_by": "discard"}, "settlement.discarder"),
    (PJ_PLAIN, {"dealer": 0, "winner": 1, "discarder": 1}, None, {"win_by": "discard"},
     "settlement.discarder"),
    (PJ_PLAIN, {"dealer": 0, "winner": 1, "discarder": 7}, None, {"win_by": "discard"},
     "settlement.discarder"),
    (JC_PLAIN, {"dealer": 0, "winner": 1}, None, {"win_by": "robbing_kong"},
     "settlement.discarder"),
    (ZZ_PLAIN, {"dealer": 0, "pao": [1, 0, 0]}, None, {}, "settlement.pao"),
    (ZZ_PLAIN, {"dealer": 0, "pao": [1, 0, 0, -1]}, None, {}, "settlement.pao"),
    (ZZ_PLAIN, {"dealer": 0, "pao": [True, 0, 0, 0]}, None, {}, "settlement.pao"),
    (ZZ_PLAIN, {"dealer": 0, "pao": [1.5, 0, 0, 0]}, None, {}, "settlement.pao"),
    (ZZ_PLAIN, {"dealer": 0, "pao": "1000"}, None, {}, "settlement.pao"),
    (PJ_PLAIN, {"dealer": 0, "pao": [1, 0, 0, 0]}, None, {}, "settlement.pao"),
    (JC_PLAIN, {"dealer": 0, "pao": [0, 0, 1, 0]}, None, {}, "settlement.pao"),
    (PJ_PLAIN, {"dealer": 0, "jiagang": [1, 0, 0, 0]}, {"jiagang": True}, {},
     "settlement.jiagang"),
    (ZZ_PLAIN, {"dealer": 0, "jiagang": [True, False, False, False]}, None, {},
     "settlement.jiagang"),
    (JC_PLAIN, {"dealer": 0, "ready": [True, True]}, None, {}, "settlement.ready"),
    (JC_PLAIN, {"dealer": 0, "winner": 1, "ready": [True, False, True, True]}, None, {},
     "settlement.ready"),
    (SMX_PLAIN, {"dealer": 0, "kongs": {"seat": 1}}, None, {}, "settlement.kongs"),
    (SMX_PLAIN, {"dealer": 0, "kongs": [3]}, None, {}, "settlement.kongs"),
    (SMX_PLAIN, {"dealer": 0, "kongs": [{"seat": 1, "type": "concealed", "x": 1}]}, None, {},
     "settlement.kongs"),
    (SMX_PLAIN, {"dealer": 0, "kongs": [{"seat": 5, "type": "concealed"}]}, None, {},
     "settlement.kongs"),
    (SMX_PLAIN, {"dealer": 0, "kongs": [{"seat": 1, "type": "big"}]}, None, {},
     "settlement.kongs"),
    (SMX_PLAIN, {"dealer": 0, "kongs": [{"seat": 1, "type": "wildcard"}]}, None, {},
     "settlement.kongs"),
    (SMX_PLAIN, {"dealer": 0, "kongs": [{"seat": 1, "type": "exposed"}]}, None, {},
     "settlement.kongs"),
    (ZZ_PLAIN, {"dealer": 0, "kongs": [{"seat": 1, "type": "added"}]}, None, {},
     "settlement.kongs"),
    (ZZ_PLAIN, {"dealer": 0, "kongs": [{"seat": 1, "type": "exposed", "from": 1}]}, None, {},
     "settlement.kongs"),
    (ZZ_PLAIN, {"dealer": 0, "kongs": [{"seat": 1, "type": "concealed", "from": 2}]}, None,
     {}, "settlement.kongs"),
    (JC_PLAIN, {"dealer": 0, "kongs": [{"seat": 1, "type": "concealed"}] * 17}, None, {},
     "settlement.kongs"),
    (SMX_BIAO, {"dealer": 0, "winner": 0, "biao_discards": -1}, None, {},
     "settlement.biao_discards"),
    (SMX_BIAO, {"dealer": 0, "winner": 0, "biao_discards": 4}, None, {},
     "settlement.biao_discards"),
    (SMX_BIAO, {"dealer": 0, "winner": 0, "biao_discards": True}, None, {},
     "settlement.biao_discards"),
    (ZZ_PLAIN, {"dealer": 0, "biao_discards": 1}, None, {}, "settlement.biao_discards"),
    (JC_PLAIN, {"dealer": 0, "follow_dealer": 1}, None, {}, "settlement.follow_dealer"),
    (SMX_PLAIN, {"dealer": 0, "follow_dealer": True}, None, {}, "settlement.follow_dealer"),
    (PJ_PLAIN, {"dealer": 0, "duanmen": "yes"}, {"duanmen": True}, {}, "settlement.duanmen"),
    (JC_PLAIN, {"dealer": 0, "duanmen": True}, None, {}, "settlement.duanmen"),
    (PJ_PLAIN, {"dealer": 0, "winner": 1, "kong_discard": True}, {"kong_discard": True}, {},
     "settlement.kong_discard"),
]


@pytest.mark.parametrize("case,settlement,options,over,field", BAD)
def test_c15_bad_settlement(case, settlement, options, over, field):
    e = error(case, settlement, options, **over)
    assert (e.code, e.field) == ("bad_settlement", field)
    assert str(e.message)                       # Chinese text naming the field, in Chinese
    from webcalc.settlement import FIELD_LABELS as FIELD_CHINESE
    name = field.split(".")[-1]
    assert str(FIELD_CHINESE.get(name, name)) in str(e.message) or field == "settlement"
    assert field == "settlement" or f"（{name}）" not in str(e.message)  # no English key in the text


def test_c15_validation_runs_on_draw_and_13_tiles():
    case = dict(ZZ_PLAIN, hand="123m456p789s111z2z")
    del case["winning_tile"]
    assert error(case, {"dealer": 0, "winner": None, "pao": [9, 0, 0, 0]}).code == \
        "bad_settlement"


def test_c15_winner_needs_a_win():
    # 盘锦 without 幺九 (PJ-5): not_complete with the variant's reasons
    case = dict(PJ_PLAIN, hand="23455m456p678s222p", winning_tile="5m")
    e = error(case, {"dealer": 0, "winner": 1})
    assert e.code == "not_complete" and any(r["rule"] == "PJ-5" for r in e.reasons)


def test_c15_winner_needs_winning_tile_and_win_by():
    case = {k: v for k, v in PJ_PLAIN.items() if k != "winning_tile"}
    e = error(case, {"dealer": 0, "winner": 1})
    assert (e.code, e.field) == ("not_complete", "winning_tile")
    case = {k: v for k, v in PJ_PLAIN.items() if k != "win_by"}
    e = error(case, {"dealer": 0, "winner": 1})
    assert (e.code, e.field) == ("bad_win_by", "win_by")  # say what is missing


def test_c15_winner_on_13_tiles():
    case = dict(JC_PLAIN, hand="123m456p789s111z2z")
    del case["winning_tile"]
    e = error(case, {"dealer": 0, "winner": 1})
    assert (e.code, e.field) == ("wrong_tile_count", "hand")
    # 荒庄 on a 13-tile hand is fine (only the settlement is checked)
    assert net(case, {"dealer": 0, "winner": None}) == [-6, 2, 2, 2]


def test_discarder_ignored_without_a_discard():
    """docs/settlement.md: a discarder on a self-draw or 荒庄 is ignored."""
    assert net(PJ_PLAIN, {"dealer": 0, "winner": 1, "discarder": 2}) == [-4, 8, -2, -2]


# -- properties ------------------------------------------------------------------------

HANDS = {"sanmenxia": (SMX_PLAIN, SMX_BIAO), "zhengzhou": (ZZ_PLAIN, ZZ_PAIRS, ZZ_FOUR),
         "panjin": (PJ_PLAIN,), "jincheng": (JC_PLAIN,)}
WIN_BY = {"sanmenxia": ["self_draw", "kong_replacement"],
          "zhengzhou": ["self_draw", "kong_replacement"],
          "panjin": ["self_draw", "discard", "kong_replacement"],
          "jincheng": ["self_draw", "discard", "kong_replacement", "robbing_kong"]}
OPTIONS = {
    "sanmenxia": {"pao_doubles_with_biao": st.booleans(), "kong_pao": st.booleans(),
                  "pao_max": st.integers(1, 3)},
    "zhengzhou": {"kong_pao": st.booleans(), "draw_settles_kongs": st.booleans(),
                  "seven_pairs_double": st.booleans(), "kong_bloom_double": st.booleans(),
                  "four_wildcards_double": st.booleans(), "dealer_plus_base": st.booleans()},
    "panjin": {"jiagang": st.booleans(), "all_jiagang": st.booleans(), "kong": st.booleans(),
               "kong_bloom": st.booleans(), "kong_discard": st.booleans(),
               "discard_doubles_all": st.booleans(), "wildcard_kong": st.booleans()},
    "jincheng": {"draw_penalty": st.integers(0, 3)},
}
DETAIL_AMOUNT = re.compile(r"= (\S+?)（")


@st.composite
def requests(draw, variant=None):
    variant = variant or draw(st.sampled_from(sorted(HANDS)))
    case = draw(st.sampled_from(HANDS[variant]))
    opts = {**case.get("options", {}),
            **draw(st.fixed_dictionaries({}, optional=OPTIONS[variant]))}
    win_by = draw(st.sampled_from(WIN_BY[variant]))
    winner = draw(st.none() | st.integers(0, 3))
    s = {"dealer": draw(st.integers(0, 3)), "winner": winner,
         "base": draw(st.integers(1, 1000) | st.sampled_from([0.5, 0.25, 1.5, 2.0, 0.1]))}
    if win_by in ("discard", "robbing_kong") and winner is not None:
        s["discarder"] = draw(st.sampled_from([x for x in range(4) if x != winner]))
    pao_max = opts.get("pao_max", 1) if variant == "sanmenxia" else 3
    if variant in ("sanmenxia", "zhengzhou"):
        s["pao"] = draw(st.lists(st.integers(0, pao_max), min_size=4, max_size=4))
    if variant == "panjin" and opts.get("all_jiagang"):
        s["jiagang"] = [True] * 4                         # 死钢: everyone (PJ-11)
    elif variant == "panjin" and opts.get("jiagang"):
        s["jiagang"] = draw(st.lists(st.booleans(), min_size=4, max_size=4))
    if variant == "jincheng":
        s["ready"] = draw(st.lists(st.booleans(), min_size=4, max_size=4))
        if winner is not None:
            s["ready"][winner] = True
        s["follow_dealer"] = draw(st.booleans())
    if variant == "sanmenxia":
        s["biao_discards"] = draw(st.integers(0, 3))
    if variant == "panjin" and opts.get("kong_discard") and win_by == "discard" \
            and winner is not None:
        s["kong_discard"] = draw(st.booleans())
    if variant != "panjin" or opts.get("kong", True):
        types = ["exposed", "added", "concealed"]
        if variant == "panjin" and opts.get("wildcard_kong"):
            types.append("wildcard")
        kongs = []
        for _ in range(draw(st.integers(0, 3))):
            seat, typ = draw(st.integers(0, 3)), draw(st.sampled_from(types))
            k = {"seat": seat, "type": typ}
            if typ in ("exposed", "added"):
                k["from"] = draw(st.sampled_from([x for x in range(4) if x != seat]))
            kongs.append(k)
        s["kongs"] = kongs
    return {**case, "options": opts, "win_by": win_by, "settlement": s}


def detail_value(detail: str) -> float:
    """Evaluate the arithmetic a detail states, e.g. 「…：底1 ×(1+跑1+跑0) ×2^1表 = 4（…）」
    → 1*(1+1+0)*2**1: Chinese labels dropped, × → *, ^ → **."""
    expr = detail.rsplit(" = ", 1)[0].rsplit("：", 1)[-1]
    expr = re.sub(r"\([^\d()]*\)", "", expr)             # (庄), (自摸), (七对、杠上花)
    expr = re.sub(r"[^0-9.+*()^×e ]", "", expr).replace("×", "*").replace("^", "**")
    return eval(expr, {"__builtins__": {}})              # noqa: S307 - digits and operators


def _check(out: dict) -> None:
    st_ = out["settlement"]
    exact = [0.0] * 4
    for p in st_["payments"]:
        stated = DETAIL_AMOUNT.findall(str(p["detail"]))
        assert stated and float(stated[-1]) == p["amount"], p
        assert math.isclose(detail_value(str(p["detail"])), p["amount"], rel_tol=1e-12), p
        assert p["rule"] in str(p["detail"]), p
        assert p["amount"] > 0 and p["from"] != p["to"]
        exact[p["from"]] -= p["amount"]
        exact[p["to"]] += p["amount"]
    assert all(math.isclose(a, b, abs_tol=1e-9) for a, b in zip(exact, st_["net"]))
    assert math.isclose(math.fsum(st_["net"]), 0, abs_tol=1e-9)
    if all(isinstance(p["amount"], int) for p in st_["payments"]):
        assert sum(st_["net"]) == 0


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(req=requests())
def test_property_zero_sum_and_detail_states_amount(req):
    """C-11: nets sum to zero; every payment's detail ends with its own amount and rule."""
    _check(analyze(req).to_json())


def _toggle(req: dict, option: str) -> tuple[list, list]:
    on = {**req, "options": {**req["options"], option: True}}
    off = {**req, "options": {**req["options"], option: False}}
    return (analyze(on).to_json()["settlement"]["payments"], analyze(off).to_json()["settlement"]["payments"])


def _changed(a: list, b: list) -> list[int]:
    assert [(p["from"], p["to"], p["item"]) for p in a] == \
        [(p["from"], p["to"], p["item"]) for p in b]
    # isclose: with a float base the two SMX-6 formulas may round differently
    return [i for i, (x, y) in enumerate(zip(a, b))
            if not math.isclose(x["amount"], y["amount"], rel_tol=1e-12)]


@settings(max_examples=examples(80), deadline=None)
@given(req=requests("sanmenxia"))
def test_property_smx6_pao_doubles_with_biao_changes_only_biao_pao_wins(req):
    """SMX-6: the two formulas differ only where 表 > 0 and the pair's 跑 > 0."""
    on, off = _toggle(req, "pao_doubles_with_biao")
    out = analyze(req).to_json()
    pao = req["settlement"]["pao"]
    expect = [i for i, p in enumerate(on) if p["item"] == "win" and out.get("biao")
              and pao[p["from"]] + pao[p["to"]] > 0]
    assert _changed(on, off) == expect


@settings(max_examples=examples(80), deadline=None)
@given(req=requests("sanmenxia") | requests("zhengzhou"))
def test_property_kong_pao_changes_only_kongs_with_pao(req):
    """SMX-7, ZZ-5: 杠跑 adds 跑 to kong payments only, where the pair has 跑."""
    on, off = _toggle(req, "kong_pao")
    pao = req["settlement"]["pao"]
    expect = [i for i, p in enumerate(on) if p["item"] == "kong"
              and pao[p["from"]] + pao[p["to"]] > 0]
    assert _changed(on, off) == expect


@settings(max_examples=examples(80), deadline=None)
@given(req=requests("zhengzhou"))
def test_property_zz_dealer_plus_base_changes_only_dealer_payments(req):
    """ZZ-4, ZZ-5: +1 底 unit exactly where the dealer pays or is paid."""
    on, off = _toggle(req, "dealer_plus_base")
    d = req["settlement"]["dealer"]
    expect = [i for i, p in enumerate(on) if d in (p["from"], p["to"])]
    assert _changed(on, off) == expect


@settings(max_examples=examples(60), deadline=None)
@given(req=requests("zhengzhou"))
def test_property_zz_draw_settles_kongs_only_on_draw(req):
    """ZZ-5: the option matters only on 荒庄, and then only for kong payments."""
    on, off = _toggle(req, "draw_settles_kongs")
    if req["settlement"]["winner"] is None:
        assert off == [] and all(p["item"] == "kong" for p in on)
    else:
        assert on == off


@settings(max_examples=examples(80), deadline=None)
@given(req=requests("panjin"))
def test_property_pj12_discard_doubles_all_changes_only_others_shares(req):
    """PJ-12: the house option doubles the two shares the discarder pays for others."""
    on, off = _toggle(req, "discard_doubles_all")
    s = req["settlement"]
    discard = s["winner"] is not None and req["win_by"] == "discard"
    expect = [i for i, p in enumerate(on) if discard and p["item"] == "win"
              and "代" in str(p["detail"])]
    assert _changed(on, off) == expect
    for i in expect:
        assert on[i]["amount"] == 2 * off[i]["amount"]


@settings(max_examples=examples(60), deadline=None)
@given(req=requests("jincheng"), penalty=st.integers(0, 5))
def test_property_jc8_draw_penalty_changes_only_draw_penalty(req, penalty):
    """JC-8: 后包 changes the draw_penalty payments and nothing else."""
    a = analyze({**req, "options": {"draw_penalty": penalty}}).to_json()["settlement"]["payments"]
    b = analyze({**req, "options": {"draw_penalty": 2}}).to_json()["settlement"]["payments"]
    strip = lambda ps: [p for p in ps if p["item"] != "draw_penalty"]   # noqa: E731
    assert strip(a) == strip(b)
    if req["settlement"]["winner"] is None:
        expected = req["settlement"]["base"] * penalty
        amounts = [p["amount"] for p in a if p["item"] == "draw_penalty"]
        assert len(amounts) == (3 if penalty else 0)
        assert all(math.isclose(x, expected, rel_tol=1e-9) for x in amounts)


def test_decimal_base_gives_decimal_amounts_and_nets():
    # 0.1 × 3 is 0.30000000000000004 in binary floats; the amounts and nets print as
    # the decimals a referee writes down, and the nets still sum to zero (C-11)
    out = analyze({"variant": "zhengzhou", "options": {"wildcard": False},
                   "hand": "123m456p789s111z22z", "winning_tile": "2z", "win_by": "self_draw",
                   "settlement": {"base": 0.1, "dealer": 0, "winner": 1,
                                  "pao": [0, 2, 0, 0]}}).to_json()["settlement"]
    # ZZ-4: each pays 0.1 × (1 + 跑2 + 跑0) = 0.3
    assert [p["amount"] for p in out["payments"]] == [0.3, 0.3, 0.3]
    assert out["net"] == [-0.3, 0.9, -0.3, -0.3]


def test_detail_value_parses_each_variant_format():
    assert detail_value("东家自摸：底1 ×2^1表 + 底1 ×(跑1+跑0) = 3（SMX-6）") == 3
    assert detail_value("东家自摸：底100 ×(1+跑3+跑2+庄1) ×2^2(七对、杠上花) = 2800（ZZ-4）") == 2800
    assert detail_value("点炮包三家，代东家的一份：底0.5 ×2(点炮) ×2(庄) = 2（PJ-12）") == 2


def test_fmt_round_trips():
    for x in (1, 0.5, 2.0, 0.1 * 3, 1e20, 123456789.125):
        assert float(fmt(x)) == x


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 10 ** 12) | st.floats()
    | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(
        st.sampled_from(["seat", "type", "from", "x"]), inner, max_size=4),
    max_leaves=10)
FIELD_NAMES = ["base", "dealer", "winner", "discarder", "pao", "jiagang", "ready", "kongs",
               "biao_discards", "follow_dealer", "duanmen", "kong_discard"]


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(req=requests(), junk=st.dictionaries(st.sampled_from(FIELD_NAMES), json_values,
                                            max_size=3))
def test_property_any_settlement_is_settled_or_refused_with_its_field(req, junk):
    """C-15: whatever the settlement object holds, the engine settles it or raises an
    InputError naming a settlement field; never another exception."""
    req = {**req, "settlement": {**req["settlement"], **junk}}
    try:
        out = analyze(req).to_json()
    except InputError as e:
        assert e.code in ("bad_settlement", "not_complete", "wrong_tile_count")
        if e.code == "bad_settlement":
            assert e.field.startswith("settlement")
        return
    _check(out)


def test_defaults_winner_absent_is_draw_and_ready_absent_is_all_ready():
    """docs/settlement.md: no `winner` → 荒庄 (JC-8 后包); no `ready` → every seat 上架."""
    assert net(JC_PLAIN, {"dealer": 2}) == [2, 2, -6, 2]
    # 西 discards without a `ready` list: no 未上架 ×2 → as the seed's jc-4 row
    assert net(JC_PLAIN, {"dealer": 0, "winner": 1, "discarder": 2}, win_by="discard") == \
        [-2, 4, -1, -1]


# -- settlement_fields agrees with the validation (C-15) --------------------------------------

_NON_NEUTRAL = {"pao": [1, 0, 0, 0], "jiagang": [True, False, False, False],
                "biao_discards": 1, "follow_dealer": True, "duanmen": True,
                "kongs": [{"seat": 1, "type": "concealed"}]}
READY_HAND = "123m456p789s1235m"          # 13 plain tiles: valid in every variant and room


@st.composite
def _variant_and_options(draw):
    name = draw(st.sampled_from(sorted(VARIANTS)))
    opts = {}
    for spec in option_specs(VARIANTS[name].Options):
        if spec["type"] == "bool":
            opts[spec["name"]] = draw(st.booleans())
    return name, opts


@settings(max_examples=examples(80), deadline=None)
@given(_variant_and_options(), st.sampled_from(sorted(_NON_NEUTRAL)))
def test_settlement_fields_match_what_validation_accepts(case, field):
    """A field outside settlement_fields() is refused at a non-neutral value; a field
    inside it is accepted (drawn game, so no winner is needed)."""
    name, opts = case
    variant = VARIANTS[name]
    fields = settlement_fields(variant, parse_options(variant.Options, opts))
    req = {"variant": name, "options": opts, "hand": READY_HAND,
           "settlement": {"dealer": 0, "winner": None, field: _NON_NEUTRAL[field]}}
    try:
        analyze(req).to_json()
        accepted = True
    except InputError as err:
        assert err.code in ("bad_settlement", "bad_option"), err
        if err.code == "bad_option":
            return                              # an option combination the room refuses
        accepted = False
    assert accepted is (field in fields), (name, opts, field)


# -- who deals next (SMX-8, ZZ-7, PJ-14, JC-9) ---------------------------------------------

@pytest.mark.parametrize("variant, options, winner, expected, rule", [
    ("sanmenxia", {}, 2, 2, "SMX-8"),           # the winner deals next
    ("sanmenxia", {}, None, 1, "SMX-8"),        # 荒庄: the dealer stays
    ("zhengzhou", {}, 3, 3, "ZZ-7"),
    ("zhengzhou", {}, None, 1, "ZZ-7"),
    ("panjin", {}, 1, 1, "PJ-14"),              # the dealer wins: stays
    ("panjin", {}, 3, 2, "PJ-14"),              # another wins: the next seat
    ("panjin", {}, None, 1, "PJ-14"),           # 荒庄: stays
    ("panjin", {"no_dealer_repeat": True}, 1, 2, "PJ-14"),   # 不连庄: always passes
    ("panjin", {"no_dealer_repeat": True}, None, 2, "PJ-14"),
    ("jincheng", {}, 1, 1, "JC-9"),
    ("jincheng", {}, 3, 2, "JC-9"),
    ("jincheng", {}, None, 2, "JC-9"),          # 荒庄: the next seat
])
def test_next_dealer(variant, options, winner, expected, rule):
    opts = dict(options)
    if variant == "zhengzhou":
        opts["wildcard"] = False
    if variant == "panjin":
        opts["wildcard_mode"] = "none"
    req = {"variant": variant, "options": opts, "settlement": {"dealer": 1, "winner": winner}}
    if winner is None:
        req["hand"] = "123m456p789s1235m"                       # 13 tiles, 荒庄
    elif variant == "panjin":
        req.update(hand="12355m456p789s111z", winning_tile="5m", win_by="self_draw")
    else:
        req.update(hand="123m456p789s11122z", winning_tile="2z", win_by="self_draw")
    assert analyze(req).to_json()["settlement"]["next_dealer"] == {"seat": expected, "rule": rule}
