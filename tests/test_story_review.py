"""The hand review (牌谱复盘, API.md "Hand review"): POST /api/v1/review and webcalc.story.review.

Hand-worked examples for rank, loss and the summary (郑州 without wildcards, so every count
can be checked on paper); every turn form (draw, claims, the three kongs, the wins); the
errors, each naming its turn; the cap; and 200 random 12-turn 郑州 logs with a pong, a kong
and 混, played by a simulator written here, whose every turn must show the same best rows as
``efficiency`` gives for that turn's 14 tiles.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.scale import examples
from webcalc.analysis import analyze
from webcalc.catalogue import localize
from webcalc.errors import InputError
from webcalc.story import MAX_TURNS, review
from webcalc.variants import VARIANTS

URL = "/api/v1/review"
CHINESE = re.compile(r"[\u4e00-\u9fff]")
PLAIN = {"variant": "zhengzhou", "options": {"wildcard": False}}


def run(req: dict, lang: str = "en") -> dict:
    return localize(review(req), lang)


def rows(turn: dict) -> list[tuple]:
    return [(b["discard"], b["shanten"], b["useful_total"]) for b in turn["best"]]


# -- hand-worked examples ----------------------------------------------------------------------

def test_rank_loss_and_summary_worked_by_hand(client):
    # 郑州 without 混; one 7m seen elsewhere. Dealt 123m 5m 9m 456p 789s 东东.
    req = {**PLAIN, "visible": "7m", "start": "12359m456p789s11z", "turns": [
        {"draw": "6m", "discard": "9m"},    # 0: 123 56 9m: 打9m → 听 4m/7m: 4 + (4−1 seen) = 7
        {"draw": "2z", "discard": "2z"},    # 1: 摸南打南: 听 4m/7m again, 7; the best
        {"draw": "8m", "discard": "5m"},    # 2: 123 568m: 打8m → 4m/7m (7); 打5m → 68m 嵌7m (3)
        {"draw": "9p", "discard": "1z"},    # 3: 打9p keeps 听7m (3); 打东 breaks the pair
    ]}
    body = client.post(URL, json=req).get_json()
    t = body["turns"]
    assert [x["number"] for x in t] == [0, 1, 2, 3]
    assert t[0]["hand"] == "123569m456p789s11z" and t[0]["melds"] == []
    # turn 0: only 打9m leaves a ready hand (every other discard is 1 shanten)
    assert rows(t[0])[0] == ("9m", 0, 7) and t[0]["best"][1]["shanten"] == 1
    assert t[0]["chosen"] == {"discard": "9m", "shanten": 0, "useful_total": 7, "rank": 1}
    assert (t[0]["loss"], t[0]["shanten_loss"], t[0]["shanten"]) == (0, 0, 0)
    assert t[1]["chosen"] == {"discard": "2z", "shanten": 0, "useful_total": 7, "rank": 1}
    # turn 2: two ready discards; 打5m is second: loss 7 − 3 = 4 at the same shanten
    assert rows(t[2])[:2] == [("8m", 0, 7), ("5m", 0, 3)]
    assert t[2]["chosen"] == {"discard": "5m", "shanten": 0, "useful_total": 3, "rank": 2}
    assert (t[2]["loss"], t[2]["shanten_loss"]) == (4, 0)
    # turn 3: 打9p is the only ready discard (嵌7m, 3 left); 打东 goes to 1 shanten: the
    # shanten lost first (1), and the whole 3 useful tiles of the best are lost
    assert rows(t[3])[0] == ("9p", 0, 3)
    assert t[3]["chosen"]["shanten"] == 1
    assert (t[3]["loss"], t[3]["shanten_loss"]) == (3, 1)
    assert t[3]["chosen"]["rank"] > 2
    assert body["summary"] == {"turns": 4, "best_taken": 2, "tiles_lost": 7, "shanten_lost": 1}
    # final: the 13 tiles after the last discard, analysed with 7m and the discards seen
    final = body["final"]
    assert final["tile_count"] == 13 and final["shanten"] == 1
    # notes in the reader's language
    assert CHINESE.search(t[2]["note"]) and "4" in t[2]["note"]
    en = client.post(URL, json=req, headers={"Accept-Language": "en"}).get_json()
    assert en["turns"][2]["note"] == ("5m keeps shanten 0 with 3 useful tiles; 8m would leave "
                                      "7 (4 more).")
    assert en["turns"][0]["note"] == "9m is the best discard: shanten 0, 7 useful tiles."
    assert en["turns"][3]["note"].startswith("1z leaves the hand at shanten 1; 9p would keep")


def test_own_earlier_discards_count_as_seen_and_ties_share_rank_one():
    # The dealer's 14: 123m 456m 456p 789s 东 南. 打南 → 单吊东 (3 left), 打东 → 单吊南 (3):
    # a tie, both rank 1. Turn 1 draws 南 again: now 打东 waits on 南, of which one is held and
    # one is the dealer's own earlier discard: 2 left, against 3 for 打南: rank 2, loss 1.
    body = run({**PLAIN, "start": "123456m456p789s12z", "turns": [
        {"discard": "2z"}, {"draw": "2z", "discard": "1z"}, {"draw": "2z", "win": True}]})
    t = body["turns"]
    assert rows(t[0])[:2] == [("1z", 0, 3), ("2z", 0, 3)]
    assert t[0]["chosen"]["rank"] == 1 and t[0]["loss"] == 0
    assert rows(t[1])[:2] == [("2z", 0, 3), ("1z", 0, 2)]
    assert t[1]["chosen"] == {"discard": "1z", "shanten": 0, "useful_total": 2, "rank": 2}
    assert t[1]["loss"] == 1
    assert body["summary"] == {"turns": 2, "best_taken": 1, "tiles_lost": 1, "shanten_lost": 0}
    final = body["final"]
    assert final["complete"] is True and final["shanten"] == -1
    assert final["tile_count"] == 14


def test_discarding_from_a_complete_hand_is_noted():
    # 123456m 456p 789s 东东 is already a win; throwing 东 gives it up
    body = run({**PLAIN, "start": "123456m456p789s11z", "turns": [{"discard": "1z"}]})
    t = body["turns"][0]
    assert t["shanten"] == -1
    assert t["note"].startswith("These 14 tiles were already a win")


# -- every turn form ------------------------------------------------------------------------

def test_pong_then_an_added_kong_with_its_replacement():
    body = run({**PLAIN, "start": "55m123456789p1z3s", "turns": [
        {"claim": "pong", "tiles": "555m", "from": 2, "discard": "3s"},
        {"draw": "5m", "kong": "5m", "replacement": "1z", "discard": "9p"},
        {"draw": "7z", "discard": "7z"},
    ]})
    t = body["turns"]
    # the claimed 5m and the two held make the pong; 14 before the discard: 11 + the pong
    assert t[0]["hand"] == "123456789p3s1z"
    assert t[0]["melds"] == [{"type": "pong", "tiles": "555m", "from": 2}]
    # the fourth 5m drawn is added to the pong (补杠), the replacement 东 comes in
    assert t[1]["melds"] == [{"type": "added_kong", "tiles": "5555m", "from": 2}]
    assert t[1]["hand"] == "123456789p11z"
    assert t[2]["hand"] == "12345678p117z"
    assert body["final"]["tile_count"] == 13


def test_a_concealed_kong_from_the_dealt_hand():
    body = run({**PLAIN, "start": "5555m123p456p789s1z", "turns": [
        {"kong": "5m", "replacement": "2z", "discard": "2z"}]})
    t = body["turns"][0]
    assert t["melds"] == [{"type": "concealed_kong", "tiles": "5555m"}]
    assert t["hand"] == "123456p789s12z"


def test_a_claimed_kong_then_a_win_by_draw_or_on_its_replacement():
    body = run({**PLAIN, "start": "555m123p456p789s1z", "turns": [
        {"claim": "kong", "tiles": "5555m", "from": 1, "replacement": "2z", "discard": "1z"},
        {"draw": "2z", "win": True},
    ]})
    t = body["turns"][0]
    assert t["melds"] == [{"type": "kong", "tiles": "5555m", "from": 1}]
    assert t["hand"] == "123456p789s12z"
    assert body["final"]["complete"] is True and body["final"]["tile_count"] == 14
    won = run({**PLAIN, "start": "555m123p456p789s1z", "turns": [
        {"claim": "kong", "tiles": "5555m", "from": 1, "replacement": "1z", "win": True}]})
    assert won["turns"] == [] and won["summary"]["turns"] == 0
    assert won["final"]["complete"] is True


def test_chow_and_a_win_on_a_discard_in_panjin():
    # 盘锦 allows chow and 点炮 (PJ-3, PJ-9); no wildcards here
    req = {"variant": "panjin", "options": {"wildcard_mode": "none"},
           "start": "46m111p456p789s1z7z", "turns": [
               {"claim": "chow", "tiles": "456m", "from": 3, "discard": "7z"},
               {"claim": "win", "tile": "1z", "from": 2}]}
    body = run(req)
    assert body["turns"][0]["melds"] == [{"type": "chow", "tiles": "456m", "from": 3}]
    assert body["turns"][0]["hand"] == "111456p789s17z"
    assert body["final"]["complete"] is True and body["final"]["tile_count"] == 14


def test_a_chow_holding_all_three_tiles_needs_the_claimed_one():
    req = {"variant": "panjin", "options": {"wildcard_mode": "none"},
           "start": "345m123p456p789s1z", "turns": [
               {"claim": "chow", "tiles": "345m", "from": 3, "discard": "1z"}]}
    with pytest.raises(InputError) as e:
        review(req)
    assert (e.value.code, e.value.turn) == ("bad_history", 0)
    req["turns"][0]["tile"] = "4m"
    body = run(req)
    assert body["turns"][0]["hand"] == "4m123456p789s1z"


# -- errors: each names its turn --------------------------------------------------------------

def review_error(client, req, lang="zh"):
    resp = client.post(URL, json=req, headers={"Accept-Language": lang})
    assert resp.status_code in (400, 422), resp.get_data(as_text=True)
    return resp.status_code, resp.get_json()["error"]


START = "12359m456p789s11z"


@pytest.mark.parametrize("turns, code, turn", [
    ([{"draw": "6m", "discard": "7p"}], "bad_history", 0),              # not in the hand
    ([{"draw": "6m", "discard": "9m"}, {"discard": "1m"}], "bad_history", 1),   # no draw
    ([{"draw": "xx", "discard": "9m"}], "bad_tile", 0),
    ([{"draw": "6m"}], "bad_history", 0),                               # no discard, no win
    ([{"draw": "6m", "discard": "9m", "win": True}], "bad_history", 0),
    ([{"draw": "6m", "win": True}], "not_complete", 0),                 # not a win
    ([{"draw": "6m", "discard": "9m", "extra": 1}], "bad_history", 0),
    ([{"claim": "pong", "tiles": "111z", "discard": "9m"},
      {"draw": "6m", "discard": "1z"}], "bad_history", 1),              # 1z is in the pong
    ([{"claim": "pong", "tiles": "999m", "discard": "1m"}], "bad_history", 0),  # one 9m held
    ([{"claim": "chow", "tiles": "123m", "discard": "9m"}], "bad_meld", 0),     # no chow: ZZ-2
    ([{"claim": "win", "tile": "9m", "from": 1}], "bad_win_by", 0),     # ZZ-2: self-draw only
    ([{"draw": "6m", "kong": "6m", "replacement": "1m", "discard": "1m"}], "bad_history", 0),
    ([{"draw": "6m", "discard": "9m", "replacement": "1m"}], "bad_history", 0),
    ([{"draw": "1z", "discard": "9m"}, {"draw": "1z", "discard": "1m"},
      {"draw": "1z", "discard": "2m"}], "bad_history", 2),              # a fifth 东
    ([{"draw": "6m", "discard": "9m"}, "6m"], "bad_history", 1),
])
def test_turn_errors(client, turns, code, turn):
    status, err = review_error(client, {**PLAIN, "start": START, "turns": turns})
    assert (status, err["code"], err["turn"]) == (400, code, turn)
    assert CHINESE.search(err["message"])
    assert f"第 {turn + 1} 手" in err["message"]


@pytest.mark.parametrize("variant, rule", [("zhengzhou", "ZZ-2"), ("sanmenxia", "SMX-2"),
                                           ("jincheng", "JC-2")])
def test_a_chow_turn_where_the_variant_has_none(client, variant, rule):
    """A claimed chow in a rule set without chow: ``bad_meld`` naming the turn and the rule,
    the variant's own check (the same as a ``chow`` meld given to analyze)."""
    assert not VARIANTS[variant].chow_allowed
    turns = [{"draw": "6m", "discard": "9m"},
             {"claim": "chow", "tiles": "456m", "from": 3, "discard": "1m"}]
    for lang, words in (("en", "has no chow"), ("zh", "不能吃牌")):
        status, err = review_error(client, {"variant": variant, "start": START, "turns": turns},
                                   lang)
        assert (status, err["code"], err["turn"], err["field"]) == (400, "bad_meld", 1, "turns")
        assert words in err["message"] and rule in err["message"], err


def test_a_turn_after_the_win(client):
    status, err = review_error(client, {**PLAIN, "start": "123456m456p789s1z", "turns": [
        {"draw": "1z", "win": True}, {"draw": "2z", "discard": "2z"}]})
    assert (err["code"], err["turn"]) == ("bad_history", 1)


def test_the_dealer_draws_nothing_first(client):
    status, err = review_error(client, {**PLAIN, "start": "123569m456p789s11z",
                                        "turns": [{"draw": "1m", "discard": "1m"}]})
    assert (err["code"], err["turn"]) == ("bad_history", 0)


@pytest.mark.parametrize("req, code, field", [
    ({**PLAIN, "start": "123m"}, "wrong_tile_count", "start"),
    ({**PLAIN, "start": "111112m456p789s11z"}, "too_many_copies", "start"),
    ({**PLAIN, "start": START, "visible": "11z1z"}, "too_many_copies", "visible"),
    ({**PLAIN, "start": START, "turns": {"draw": "1m"}}, "bad_history", "turns"),
    ({**PLAIN}, "bad_tile", "start"),
    ({"variant": "nowhere", "start": START}, "unknown_variant", "variant"),
    ({**PLAIN, "start": START, "hand": START}, "bad_request", "hand"),
    ({**PLAIN, "start": START, "indicator": "1m"}, "bad_option", "indicator"),
    ({"variant": "sanmenxia", "options": {"with_honors": False}, "start": START},
     "bad_tile", "start"),
])
def test_request_errors(client, req, code, field):
    status, err = review_error(client, req, "en")
    assert (status, err["code"], err["field"]) == (400, code, field)
    assert "turn" not in err


def test_too_many_turns_is_422_before_any_work(client):
    turns = [{"draw": "6m", "discard": "6m"}] * (MAX_TURNS + 1)
    status, err = review_error(client, {**PLAIN, "start": START, "turns": turns})
    assert (status, err["code"], err["field"]) == (422, "too_many", "turns")
    assert err["detail"] == {"limit": "review_turns", "max": MAX_TURNS}


@pytest.mark.parametrize("data", [b"", b"[]", b"{", b'"x"', b"\xff"])
def test_bad_bodies(client, data):
    resp = client.post(URL, data=data, content_type="application/json")
    assert resp.status_code == 400 and resp.get_json()["error"]["code"] == "bad_json"


def test_a_body_over_the_cap_is_413(client):
    resp = client.post(URL, data=b"{" + b" " * 17000 + b"}", content_type="application/json")
    assert resp.status_code == 413 and resp.get_json()["error"]["code"] == "too_large"


# -- 200 random 郑州 logs: the best rows are efficiency's for every turn's 14 tiles ----------------

# the test's own wildcard cycle (ZZ-1: indicator + 1; honours 东→南→西→北→中→发→白→东)
HONOR_NEXT = {27: 28, 28: 29, 29: 30, 30: 33, 33: 32, 32: 31, 31: 27}


def code(k: int) -> str:
    return f"{k % 9 + 1}{'mpsz'[k // 9]}"


def same(k: int, n: int) -> str:
    """``n`` tiles of kind ``k`` as canonical text (555m)."""
    return str(k % 9 + 1) * n + "mpsz"[k // 9]


def text(counts) -> str:
    """Canonical tile text: digits grouped before their suit letter (123m45p)."""
    out = ""
    for s, suit in enumerate("mpsz"):
        digits = "".join(str(r + 1) * counts[s * 9 + r] for r in range(9 if s < 3 else 7))
        out += digits + suit if digits else ""
    return out


def simulate(rng: random.Random, turns: int = 12):
    """A legal 郑州 log of ``turns`` turns with 混 in the dealt hand, one pong and one kong
    (added to the pong, concealed, or claimed), played from a shuffled wall; returns the
    request, per turn (each ends with a discard) the state the test expects — (concealed
    counts, melds, own discards so far) — the wildcard kind and the dealt counts."""
    indicator = rng.randrange(34)
    wild = HONOR_NEXT[indicator] if indicator >= 27 else indicator - indicator % 9 + (
        indicator % 9 + 1) % 9
    wall = [k for k in range(34) for _ in range(4)]
    wall.remove(indicator)
    rng.shuffle(wall)
    plain = [k for k in range(34) if k not in (wild, indicator)]
    pong, triple = rng.sample(plain, 2)
    kong_kind = rng.choice(("added", "concealed", "claimed"))
    hand = [0] * 34
    for k in [wild, pong, pong] + ([triple] * 3 if kong_kind != "added" else []):
        hand[k] += 1
        wall.remove(k)
    reserved = {pong, triple}
    free = [k for k in wall if k not in reserved]
    while sum(hand) < 13:
        k = free.pop()
        wall.remove(k)
        hand[k] += 1
    dealt = list(hand)

    def draw_free():
        while True:
            k = rng.choice(wall)
            if k not in reserved:
                wall.remove(k)
                return k

    def pick_discard(avoid):
        held = [k for k in range(34) if hand[k] and k not in avoid]
        return rng.choice(held)

    p_turn = rng.randrange(1, 6)
    k_turn = rng.randrange(p_turn + 1, turns - 1)
    log, states, melds, discards = [], [], [], []
    for i in range(turns):
        t: dict = {}
        if i == p_turn:
            wall.remove(pong)
            hand[pong] -= 2
            melds.append({"type": "pong", "tiles": same(pong, 3), "from": rng.randrange(1, 4)})
            t = {"claim": "pong", "tiles": same(pong, 3), "from": melds[-1]["from"]}
        elif i == k_turn and kong_kind == "added":
            wall.remove(pong)
            t = {"draw": code(pong), "kong": code(pong)}
            melds[0] = {"type": "added_kong", "tiles": same(pong, 4), "from": melds[0]["from"]}
        elif i == k_turn and kong_kind == "concealed":
            wall.remove(triple)
            hand[triple] -= 3
            t = {"draw": code(triple), "kong": code(triple)}
            melds.append({"type": "concealed_kong", "tiles": same(triple, 4)})
        elif i == k_turn:
            wall.remove(triple)
            hand[triple] -= 3
            seat = rng.randrange(1, 4)
            t = {"claim": "kong", "tiles": same(triple, 4), "from": seat}
            melds.append({"type": "kong", "tiles": same(triple, 4), "from": seat})
        else:
            d = draw_free()
            hand[d] += 1
            t = {"draw": code(d)}
        if i == k_turn:
            r = draw_free()
            hand[r] += 1
            t["replacement"] = code(r)
        # keep the reserved kinds until their pong and kong are made
        avoid = set()
        if i < p_turn:
            avoid.add(pong)
        if i < k_turn and kong_kind != "added":
            avoid.add(triple)
        d = pick_discard(avoid)
        states.append((list(hand), [dict(m) for m in melds], list(discards)))
        hand[d] -= 1
        discards.append(d)
        t["discard"] = code(d)
        log.append(t)
    req = {"variant": "zhengzhou", "indicator": code(indicator), "start": text(dealt),
           "turns": log}
    return req, states, wild, dealt


@pytest.mark.parametrize("chunk", range(4))
def test_random_zhengzhou_logs_report_efficiency_best_rows(chunk):
    for seed in range(chunk * 50, chunk * 50 + 50):
        req, states, wild, dealt = simulate(random.Random(seed))
        assert dealt[wild] >= 1                               # 混 in the dealt hand
        try:
            body = review(req)
        except InputError as e:
            raise AssertionError((seed, localize(e.to_dict(), "en"))) from None
        assert len(body["turns"]) == 12
        kinds = {m["type"] for _, melds, _ in states[-1:] for m in melds}
        assert "pong" in kinds or "added_kong" in kinds
        assert kinds & {"added_kong", "concealed_kong", "kong"}
        for got, (hand, melds, seen) in zip(body["turns"], states):
            want = {"variant": "zhengzhou", "indicator": req["indicator"], "hand": text(hand),
                    "visible": text([seen.count(k) for k in range(34)])}
            if melds:
                want["melds"] = melds
            eff = analyze(want).to_json()
            assert got["hand"] == text(hand), seed
            assert got["melds"] == melds, seed
            assert got["best"] == eff["efficiency"][:3], (seed, got["number"])
            assert got["shanten"] == eff["shanten"]
            chosen = got["chosen"]
            row = next(r for r in eff["efficiency"] if r["discard"] == chosen["discard"])
            assert (chosen["shanten"], chosen["useful_total"]) == (row["shanten"],
                                                                  row["useful_total"])
            def key(r):
                return (99 if r["shanten"] is None else r["shanten"], -r["useful_total"])
            assert chosen["rank"] == 1 + sum(key(r) < key(row) for r in eff["efficiency"])


# -- never a 500 --------------------------------------------------------------------------------

_app = None


def _client():
    global _app
    if _app is None:
        from webcalc import create_app

        _app = create_app({"TESTING": True})
    return _app.test_client()


_tile = st.sampled_from(["1m", "5m", "9m", "1z", "5z", "7z", "中", "x", "", "11m", "9p", "3s"])
_value = st.none() | st.booleans() | st.integers(-2, 5) | _tile | st.lists(_tile, max_size=2) \
    | st.dictionaries(st.sampled_from(["a", "draw"]), _tile, max_size=2)
_turn = st.dictionaries(
    st.sampled_from(["draw", "discard", "claim", "tiles", "tile", "from", "kong",
                     "replacement", "win", "x"]),
    _tile | _value | st.sampled_from(["pong", "chow", "kong", "win", "555m", "5555m", "123m",
                                       True]),
    max_size=5) | _value
_body = st.fixed_dictionaries(
    {"variant": st.sampled_from([*VARIANTS, "x"]),
     "start": st.sampled_from(["12359m456p789s11z", "123456m456p789s12z", "555m123p456p789s1z",
                               "55m123456789p1z3s", "123m"]) | _value},
    optional={"turns": st.lists(_turn, max_size=6) | _value, "indicator": _tile | _value,
              "visible": _tile | _value, "options": _value, "hand": _value})


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(body=_body)
def test_no_500_for_any_review_body(body):
    resp = _client().post(URL, data=json.dumps(body), content_type="application/json")
    assert resp.status_code in (200, 400, 422), (body, resp.status_code)
    if resp.status_code != 200:
        err = resp.get_json()["error"]
        assert err["code"] and err["message"]


_history = st.lists(_turn, max_size=4) | _value


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(history=_history, hand=st.sampled_from(["112233m123p123s9m7z", "112233m123p123s7z",
                                                "123m456p789s11122z"]),
       winning=st.sampled_from(["9m", "7z", None, "2z"]),
       variant=st.sampled_from(["sanmenxia", "zhengzhou"]))
def test_no_500_for_any_history(history, hand, winning, variant):
    body = {"variant": variant, "indicator": "4z", "hand": hand, "history": history}
    if winning:
        body["winning_tile"] = winning
    resp = _client().post("/api/v1/analyze", data=json.dumps(body),
                          content_type="application/json")
    assert resp.status_code in (200, 400, 422), (body, resp.status_code)


@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10 ** 6), at=st.integers(0, 11),
       key=st.sampled_from(["draw", "discard", "claim", "tiles", "tile", "from", "kong",
                            "replacement", "win"]), value=_value | _tile, drop=st.booleans())
def test_no_500_for_a_valid_log_with_one_thing_changed(seed, at, key, value, drop):
    req, _, _, _ = simulate(random.Random(seed))
    turn = dict(req["turns"][at])
    if drop:
        turn.pop(key, None)
    else:
        turn[key] = value
    req["turns"][at] = turn
    resp = _client().post(URL, data=json.dumps(req), content_type="application/json")
    assert resp.status_code in (200, 400), (req, resp.status_code)
    if resp.status_code == 400:
        err = resp.get_json()["error"]
        assert err.get("turn") is not None and err["turn"] >= at, err   # the turns before: fine
