"""What each wait is worth: ``waits[].win`` (API.md "Hand efficiency").

Values the rules determine, per variant (PJ-10..12, SMX-4..6, ZZ-4, JC-5), and a property:
each wait's ``win`` equals what the analysis itself says when the hand is completed with that
tile and settled (seat 0 winning and dealing, base 1, or the request's inputs).
"""

from __future__ import annotations

import random

import pytest

from webcalc.analysis import analyze
from webcalc.tiles import ALL_TILES, format_tiles
from webcalc.variants import VARIANTS
from webcalc.wildcards import HENAN, PANJIN, step

PJ_JIA = {"variant": "panjin", "hand": "123m789p111z46s88s", "indicator": "3z",
          "options": {"jiahu": True}}


def wins(out):
    return {w["tile"]: w.get("win") for w in out["waits"]}


def test_panjin_jiahu_wait_is_worth_double_the_wildcard_wait():
    # 46s waits on 5s only (纯夹); the wildcard 北 (indicator 西 + 1, PJ-1) also completes
    # the hand but is not a 夹 (PJ-10). Seat 0 wins and deals: each loser pays
    # 底1 ×2 自摸 [×2 夹胡] ×2 庄 (PJ-11).
    w = wins(analyze(PJ_JIA).to_json())
    assert w == {"5s": {"fan": ["jiahu", "self_draw"], "amount": 24},
                 "4z": {"fan": ["self_draw"], "amount": 12}}


def test_panjin_jiahu_off_both_waits_plain():
    req = {**PJ_JIA, "options": {}}
    w = wins(analyze(req).to_json())
    assert w["5s"] == w["4z"] == {"fan": ["self_draw"], "amount": 12}


def test_panjin_discard_prices_with_the_discarder_paying_all():
    # 点炮包三家 (PJ-12): seat 3 (the winner's 上家) discards by default; its own share has
    # the 点炮 ×2: 1×2×2(庄) = 4, the other two 1×2(庄) = 2 each → 8; with 夹胡 ×2 → 16.
    out = analyze({**PJ_JIA, "win_by": "discard"}).to_json()
    assert wins(out)["5s"] == {"fan": ["jiahu", "discard"], "amount": 16}


def test_panjin_settlement_inputs_are_used():
    # base 2, seat 1 deals, seat 2 wins by self-draw, 加钢 for seat 2 (PJ-11):
    # dealer's share 2×2×2(夹)×2(庄)×2(钢) = 32, the others 16 each → 64.
    req = {**PJ_JIA, "options": {"jiahu": True, "jiagang": True},
           "hand": "123m789p111z456s88s", "winning_tile": "5s", "win_by": "self_draw",
           "settlement": {"base": 2, "dealer": 1, "winner": 2,
                          "jiagang": [False, False, True, False]}}
    out = analyze(req).to_json()
    assert out["complete"]
    assert wins(out)["5s"] == {"fan": ["jiahu", "self_draw"], "amount": 64}
    assert sum(p["amount"] for p in out["settlement"]["payments"]) == 64


def test_sanmenxia_hun_dan_diao_is_one_biao():
    # SMX-4: 123m ×4 and a wildcard 中 (indicator 北): any tile wins, the wildcard makes the
    # eyes → 1 表; SMX-6: each pays 1 × 2^1 = 2.
    out = analyze({"variant": "sanmenxia", "hand": "123m123m123m123m7z", "indicator": "4z"}).to_json()
    assert out["any_tile_wait"]
    w = wins(out)
    assert w["9p"] == {"fan": [], "biao": 1, "amount": 6}
    assert w["7z"] == {"fan": [], "biao": 1, "amount": 6}     # a second wildcard drawn


def test_sanmenxia_biao_discards_and_pao():
    # 1 + 1 wildcard discarded = 2 表; seat 0 跑1: each pays 1 × (1+1+0) × 4 = 8.
    out = analyze({"variant": "sanmenxia", "hand": "123m123m123m123m7z", "indicator": "4z",
                   "settlement": {"dealer": 0, "winner": None, "biao_discards": 1,
                                  "pao": [1, 0, 0, 0]}}).to_json()
    assert wins(out)["5m"] == {"fan": [], "biao": 2, "amount": 24}


def test_sanmenxia_wildcard_in_a_sequence_is_no_biao():
    # SMX-4's counter-example: 123 ×4 + a single 1, won on a drawn wildcard → 0 表.
    out = analyze({"variant": "sanmenxia", "hand": "123m123m123m123p1s", "indicator": "4z"}).to_json()
    w = wins(out)
    assert w["7z"] == {"fan": [], "biao": 0, "amount": 3}
    assert w["1s"] == {"fan": [], "biao": 0, "amount": 3}


@pytest.mark.parametrize("double, fan, amount", [(False, [], 3), (True, ["seven_pairs"], 6)])
def test_zhengzhou_seven_pairs_double(double, fan, amount):
    out = analyze({"variant": "zhengzhou", "hand": "1122m3344p5566s7z",
                   "options": {"wildcard": False, "seven_pairs_double": double}}).to_json()
    assert wins(out) == {"7z": {"fan": fan, "amount": amount}}


def test_zhengzhou_pao():
    # ZZ-4: seat 0 跑2, seat 1 跑1: seat 1 pays 1+2+1 = 4, the others 3 each → 10.
    out = analyze({"variant": "zhengzhou", "hand": "123m456p789s1122z",
                   "options": {"wildcard": False},
                   "settlement": {"dealer": 0, "winner": None, "pao": [2, 1, 0, 0]}}).to_json()
    assert wins(out) == {"1z": {"fan": [], "amount": 10}, "2z": {"fan": [], "amount": 10}}


@pytest.mark.parametrize("win_by, amount", [("self_draw", 12), ("discard", 6)])
def test_jincheng_thirteen_orphans(win_by, amount):
    # JC-5, seat 0 deals and wins: self-draw 1×2(庄)×2(自摸) = 4 each; a discard from a
    # player who had declared 上架 (the default) 2 each.
    out = analyze({"variant": "jincheng", "hand": "19m19p19s1234567z", "win_by": win_by}).to_json()
    w = wins(out)
    assert len(w) == 13
    assert all(v == {"fan": [], "amount": amount} for v in w.values())


def test_not_ready_has_no_values():
    out = analyze({"variant": "zhengzhou", "hand": "1357m2468p1357s9s",
                   "options": {"wildcard": False}}).to_json()
    assert out["waits"] == []


# -- property: the value equals the analysis of the completed hand --------------------------

def _random_ready(rng: random.Random):
    """A random ready 13-tile request in a random variant with 0-4 wildcard tiles."""
    variant = rng.choice(list(VARIANTS))
    while True:
        tiles = []
        for _ in range(4):
            if rng.random() < 0.6:
                a = rng.randrange(3) * 9 + rng.randrange(7)
                tiles += [a, a + 1, a + 2]
            else:
                tiles += [rng.randrange(34)] * 3
        p = rng.randrange(34)
        tiles += [p, p]
        if rng.random() < 0.15:
            tiles = [k for k in rng.sample(range(34), 7) for _ in (0, 1)]
        if all(tiles.count(k) <= 4 for k in tiles):
            break
    req = {"variant": variant}
    opts = {}
    indicator = None
    if variant != "jincheng" and rng.random() < 0.7:
        if variant == "panjin":
            opts["wildcard_mode"] = rng.choice(["next", "both"])
            cycle = PANJIN
        else:
            cycle = HENAN
        indicator = ALL_TILES[rng.randrange(34)]
        wild = int(step(indicator, cycle, 1))
        for _ in range(rng.randrange(5)):
            i = rng.randrange(14)
            if tiles.count(wild) < 3:
                tiles[i] = wild
        if tiles.count(int(indicator)) > 3:
            indicator = None
    elif variant == "panjin":
        opts["wildcard_mode"] = "none"
    if variant == "panjin":
        for o in ("jiahu", "piaohu", "seven_pairs", "one_suit", "jihu", "qionghu"):
            if rng.random() < 0.5:
                opts[o] = True
        if opts.get("wildcard_mode") == "none":
            opts.pop("qionghu", None)
    if variant == "zhengzhou":
        opts["seven_pairs_double"] = rng.random() < 0.5
        opts["four_wildcards_double"] = rng.random() < 0.5
    if variant == "zhengzhou" and indicator is None:
        opts["wildcard"] = False
    methods = {"sanmenxia": ["self_draw", "kong_replacement"],
               "zhengzhou": ["self_draw", "kong_replacement"],
               "panjin": ["self_draw", "discard", "kong_replacement"],
               "jincheng": ["self_draw", "discard", "robbing_kong", "kong_replacement"]}
    req["win_by"] = rng.choice(methods[variant])
    if variant == "panjin" and rng.random() < 0.3:
        opts["kong_bloom"] = True
    if variant == "zhengzhou" and rng.random() < 0.3:
        opts["kong_bloom_double"] = True
    tiles.pop(rng.randrange(14))
    req["hand"] = format_tiles([ALL_TILES[t] for t in sorted(tiles)])
    req["options"] = opts
    if indicator is not None:
        req["indicator"] = indicator.code
    return req


def test_each_wait_is_worth_what_the_completed_hand_settles_to():
    """Random ready hands in every variant, 0-4 wildcard tiles, random options and win
    methods: each wait's ``win`` equals the full analysis of the completed hand."""
    rng = random.Random(14)
    checked = 0
    tried = 0
    while checked < 250 and tried < 5000:
        tried += 1
        req = _random_ready(rng)
        try:
            out = analyze(req).to_json()
        except Exception:  # noqa: BLE001 - an impossible random hand (copies, options)
            continue
        if not out["waits"]:
            continue
        for w in out["waits"]:
            hand = req["hand"] + w["tile"]
            settlement = {"base": 1, "dealer": 0, "winner": 0}
            if req["win_by"] in ("discard", "robbing_kong"):
                settlement["discarder"] = 3          # the winner's 上家 (docs/decisions.md)
            full = analyze({**req, "hand": hand, "winning_tile": w["tile"],
                            "settlement": settlement}).to_json()
            assert full["complete"], (req, w)
            got = sum(p["amount"] for p in full["settlement"]["payments"]
                      if p["item"] == "win" and p["to"] == 0)
            assert w["win"]["amount"] == got, (req, w, full["settlement"])
            if req["variant"] == "panjin":
                assert w["win"]["fan"] == [f["key"] for f in full["fan"]], (req, w)
            if req["variant"] == "sanmenxia":
                assert w["win"]["biao"] == full["biao"], (req, w)
        checked += 1
    assert checked == 250


def _check_against_full_analysis(req, out):
    for w in out["waits"]:
        settlement = {"base": 1, "dealer": 0, "winner": 0}
        if req.get("win_by") in ("discard", "robbing_kong"):
            settlement["discarder"] = 3
        full = analyze({**req, "hand": req["hand"] + w["tile"], "winning_tile": w["tile"],
                        "win_by": req.get("win_by", "self_draw"), "settlement": settlement}).to_json()
        assert full["complete"], (req, w)
        got = sum(p["amount"] for p in full["settlement"]["payments"]
                  if p["item"] == "win" and p["to"] == 0)
        assert w["win"] == {"fan": [f["key"] for f in full["fan"]], "amount": got}, (req, w)


def test_panjin_wait_values_with_every_fan_option():
    """盘锦 hands built to meet PJ-4..PJ-7 (a terminal triplet, all three suits), with
    夹胡/飘胡/七对/清一色/鸡胡/穷胡 options at random: the values match the full analysis."""
    rng = random.Random(1410)
    seen: set[str] = set()
    checked = tries = 0
    while checked < 100 and tries < 20000:
        tries += 1
        tiles = [rng.choice([0, 8, 9, 17, 18, 26] + list(range(27, 34)))] * 3   # a 幺九 刻
        for _ in range(3):
            if rng.random() < 0.55:
                a = rng.randrange(3) * 9 + rng.randrange(7)
                tiles += [a, a + 1, a + 2]
            else:
                tiles += [rng.randrange(34)] * 3
        p = rng.randrange(34)
        tiles += [p, p]
        if rng.random() < 0.2:
            tiles = [k for k in rng.sample(range(34), 7) for _ in (0, 1)]
        if any(tiles.count(k) > 4 for k in tiles):
            continue
        opts = {o: True for o in ("jiahu", "piaohu", "seven_pairs", "one_suit", "jihu",
                                  "qionghu", "kong_bloom") if rng.random() < 0.5}
        req = {"variant": "panjin", "win_by": rng.choice(["self_draw", "discard"])}
        if rng.random() < 0.5:
            opts["wildcard_mode"] = "none"
            opts.pop("qionghu", None)
        else:
            indicator = rng.randrange(27)
            req["indicator"] = ALL_TILES[indicator].code
            opts["wildcard_mode"] = rng.choice(["next", "both"])
            wild = int(step(ALL_TILES[indicator], PANJIN, 1))
            for _ in range(rng.randrange(3)):
                i = rng.randrange(14)
                if tiles.count(wild) < 3:
                    tiles[i] = wild
            if tiles.count(indicator) > 3:
                continue
        tiles.pop(rng.randrange(14))
        req["hand"] = format_tiles([ALL_TILES[t] for t in sorted(tiles)])
        req["options"] = opts
        try:
            out = analyze(req).to_json()
        except Exception:  # noqa: BLE001 - an impossible random hand
            continue
        if not out["waits"]:
            continue
        _check_against_full_analysis(req, out)
        seen |= {k for w in out["waits"] for k in w["win"]["fan"]}
        checked += 1
    assert checked == 100
    assert {"jiahu", "piaohu", "seven_pairs", "one_suit", "jihu", "discard"} <= seen, seen



def test_wait_score_keys_are_each_waits_score_key():
    """三门峡 tells every wait's key from the 13 tiles (``Variant.wait_score_keys``): each is
    the ``score_key`` of the completed hand, 混单吊 (an any-tile wait) or not; 晋城's is
    the same for every wait (JC-5: no 番)."""
    from webcalc.hand import Hand
    from webcalc.options import parse_options
    from webcalc.tiles import parse_tiles
    from webcalc.variants import Situation
    from webcalc.worth import _won

    rng = random.Random(38)
    v = VARIANTS["sanmenxia"]
    seen = {True: 0, False: 0}
    tried = 0
    while min(seen.values()) < 40 and tried < 20000:
        tried += 1
        req = _random_ready(rng)
        if req["variant"] != "sanmenxia":
            continue
        try:
            waits = [ALL_TILES[int(t)] for t in
                     parse_tiles("".join(w["tile"] for w in analyze(req).to_json()["waits"]))]
        except Exception:  # noqa: BLE001 - an impossible random hand (copies)
            continue
        if not waits:
            continue
        opts = parse_options(v.Options, req["options"])
        ind = parse_tiles(req["indicator"])[0] if "indicator" in req else None
        before = Situation(Hand.of(parse_tiles(req["hand"])), v.wildcards(opts, ind), opts,
                           req["win_by"], None, ind)
        keys = v.wait_score_keys(before, waits)
        assert keys == [v.score_key(_won(before, t, {})) for t in waits], req
        seen[bool(keys[0][0])] += 1
    assert min(seen.values()) >= 40, seen
    jc = VARIANTS["jincheng"]
    before = Situation(Hand.of(parse_tiles("123m456p789s1122z")), (), jc.Options())
    waits = parse_tiles("1z2z")
    assert jc.wait_score_keys(before, waits) == [
        jc.score_key(_won(before, t, {})) for t in waits] == [(), ()]


def test_a_price_refused_for_one_tile_is_not_kept_for_the_wins_that_share_its_key():
    """A wait's price is shared by every win with the same score key (worth._PRICES); a
    ``None`` that comes of the 14 tiles alone (here a 12-tile hand's, which the settlement
    refuses) must not be what the next real win with that key is worth. It was kept, and the
    郑州 wait-key property left such a ``None`` behind for the next test in its process."""
    from webcalc import worth
    from webcalc.hand import Hand
    from webcalc.options import parse_options
    from webcalc.tiles import parse_tiles
    from webcalc.variants import Situation

    zz = VARIANTS["zhengzhou"]
    opts = parse_options(zz.Options, {})
    five = parse_tiles("5z")[0]
    short = Situation(Hand.of(parse_tiles("1111m23m456p789s")), (), opts)     # 12 tiles
    ready = Situation(Hand.of(parse_tiles("1111m23m456p789s5z")), (), opts)   # waits 5z
    assert zz.wait_score_keys(short, [five]) == zz.wait_score_keys(ready, [five])
    worth._PRICES.clear()
    fresh = worth.wait_values(zz, ready, [five])
    assert fresh[0] is not None and fresh[0]["amount"] > 0
    worth._PRICES.clear()
    assert worth.wait_values(zz, short, [five]) == [None]
    assert worth.wait_values(zz, ready, [five]) == fresh
