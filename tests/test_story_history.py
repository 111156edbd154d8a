"""三门峡 表 from a history of the winner's turns (RULES SMX-5 as amended, API.md "三门峡 history").

The seed's four examples, worked by hand (indicator 北, so 中 = 7z is the only wildcard kind:
SMX-1 北 → 中), through the JSON API with their settlement; the errors for histories that
cannot be rebuilt; and a property test that derives ``biao_discards`` from random valid
histories and holds it to a forward simulation written here, with its own meld checker (no
engine code), of the same turns.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.scale import examples, scaled
from webcalc.analysis import analyze
from webcalc.catalogue import localize
from webcalc.errors import InputError

URL = "/api/v1/analyze"
# the seed's hand: 123m 123m 123p 123s + 中, four melds and a wildcard: the any-tile wait
BASE = {"variant": "sanmenxia", "indicator": "4z", "win_by": "self_draw"}
SETTLE = {"base": 1, "dealer": 0, "winner": 0}


def post(client, **fields):
    return client.post(URL, json={**BASE, **fields})


def turn(draw, discard):
    return {"draw": draw, "discard": discard}


# -- the seed's examples (SMX-5) -----------------------------------------------------------

def test_one_wildcard_discarded_in_the_wait_is_two_biao(client):
    # final hand 123m 123m 123p 123s 中 9m, 9m drawn last: the 13 before it are the seed's hand.
    # Backwards: after the turn = 112233m123p123s中; before = after + 中 (discard) − 中 (draw),
    # the same tiles: in the wait before and after, a wildcard thrown → one biao discard.
    # 表 = 1 + 1 = 2; SMX-6: each other seat pays 1 × (1 + 0 + 0) × 2² = 4.
    body = post(client, hand="112233m123p123s9m7z", winning_tile="9m",
                history=[turn("中", "中")], settlement=SETTLE).get_json()
    assert body["history"] == [{"before": "112233m123p123s7z", "any_tile_wait": True,
                                "biao_discard": True, "counted": True}]
    assert body["biao"] == 2
    assert body["settlement"]["net"] == [12, -4, -4, -4]


def test_two_wildcards_discarded_in_the_wait_are_three_biao(client):
    # the same turn twice (3 中 in all: the final one and two in the river): 1 + 2 = 3 表,
    # each pays 2³ = 8
    body = post(client, hand="112233m123p123s9m7z", winning_tile="9m",
                history=[turn("7z", "7z"), turn("7z", "7z")], settlement=SETTLE).get_json()
    assert [t["biao_discard"] for t in body["history"]] == [True, True]
    assert [t["counted"] for t in body["history"]] == [True, True]
    assert body["biao"] == 3
    assert body["settlement"]["net"] == [24, -8, -8, -8]


def test_throwing_the_only_wildcard_is_not_hundandiao(client):
    # [摸9万 打中] then 摸中 胡: the final 14 are 112233m123p123s9m中, 中 last. The 13 before
    # it (112233m123p123s9m) hold no wildcard: not 混单吊 (SMX-4), 0 表. Backwards, the turn's
    # hand before = 112233m123p123s9m + 中 − 9m = the seed's hand (in the wait), and the hand
    # after holds no wildcard (out of the wait): the 中 thrown is no biao discard.
    # 0 表: each pays 1.
    body = post(client, hand="112233m123p123s9m7z", winning_tile="7z",
                history=[turn("9m", "7z")], settlement=SETTLE).get_json()
    assert body["history"] == [{"before": "112233m123p123s7z", "any_tile_wait": True,
                                "biao_discard": False, "counted": False}]
    assert body["biao"] == 0
    assert body["settlement"]["net"] == [3, -1, -1, -1]


def test_only_the_last_unbroken_run_counts(client):
    # [摸中 打中, 摸1万 打2万, 摸2万 打1万] then 摸9万 胡. Backwards from the 13 before 9m
    # (112233m123p123s中, in the wait):
    #   turn 3 (摸2万 打1万): before = + 1m − 2m = 111233m123p123s中: less 中, 111233m cannot
    #     be two melds → out of the wait; it comes back into it (after = in the wait);
    #   turn 2 (摸1万 打2万): before = + 2m − 1m = 112233m123p123s中 (in the wait), after out:
    #     it leaves the wait and the count starts again;
    #   turn 1 (摸中 打中): in the wait before and after, a wildcard thrown: a biao discard,
    #     but before the break, so it does not count.
    # 表 = 1 + 0 = 1: each pays 2.
    body = post(client, hand="112233m123p123s9m7z", winning_tile="9m",
                history=[turn("7z", "7z"), turn("1m", "2m"), turn("2m", "1m")],
                settlement=SETTLE).get_json()
    assert body["history"] == [
        {"before": "112233m123p123s7z", "any_tile_wait": True, "biao_discard": True,
         "counted": False},
        {"before": "112233m123p123s7z", "any_tile_wait": True, "biao_discard": False,
         "counted": False},
        {"before": "111233m123p123s7z", "any_tile_wait": False, "biao_discard": False,
         "counted": False},
    ]
    assert body["biao"] == 1
    assert body["settlement"]["net"] == [6, -2, -2, -2]


def test_history_without_settlement_still_gives_biao(client):
    body = post(client, hand="112233m123p123s9m7z", winning_tile="9m",
                history=[turn("中", "中")]).get_json()
    assert body["biao"] == 2 and "settlement" not in body


def test_a_typed_count_that_agrees_is_accepted_and_one_that_disagrees_is_not(client):
    ok = post(client, hand="112233m123p123s9m7z", winning_tile="9m", history=[turn("中", "中")],
              settlement={**SETTLE, "biao_discards": 1})
    assert ok.status_code == 200 and ok.get_json()["biao"] == 2
    bad = post(client, hand="112233m123p123s9m7z", winning_tile="9m",
               history=[turn("中", "中")], settlement={**SETTLE, "biao_discards": 0})
    assert bad.status_code == 400
    err = bad.get_json()["error"]
    assert (err["code"], err["field"]) == ("bad_history", "settlement.biao_discards")
    assert "1" in err["message"] and "SMX-5" in err["message"]


def test_the_waits_are_priced_with_the_derived_count(client):
    # waits[].win of the 13 before the winning tile: 混单吊 on every wait, 1 + 1 表 (4 a seat)
    body = post(client, hand="112233m123p123s9m7z", winning_tile="9m",
                history=[turn("中", "中")]).get_json()
    assert {w["win"]["biao"] for w in body["waits"]} == {2}
    assert {w["win"]["amount"] for w in body["waits"]} == {12}


def test_the_ledger_path_counts_the_history_too():
    # analyze(advice=False) is what the table ledger records with
    out = analyze({**BASE, "hand": "112233m123p123s9m7z", "winning_tile": "9m",
                   "history": [turn("中", "中")], "settlement": SETTLE}, advice=False).to_json()
    assert out["biao"] == 2 and out["settlement"]["net"] == [12, -4, -4, -4]


# -- histories that cannot be rebuilt, and histories where none is taken --------------------

def error(client, lang=None, **fields):
    headers = {"Accept-Language": lang} if lang else {}
    resp = client.post(URL, json={**BASE, **fields}, headers=headers)
    assert resp.status_code in (400, 422), resp.get_data(as_text=True)
    return resp.status_code, resp.get_json()["error"]


WIN = {"hand": "112233m123p123s9m7z", "winning_tile": "9m"}


def test_a_draw_that_is_not_there_names_the_turn(client):
    # turn 1 (0-based 0) drew 5p, but 5p is neither in the hand after it nor its discard
    status, err = error(client, **WIN, history=[turn("5p", "中"), turn("中", "中")])
    assert (status, err["code"], err["field"], err["turn"]) == (400, "bad_history", "history", 0)
    assert "5p" in err["message"] and "第 1 手" in err["message"]


def test_a_fifth_copy_names_the_turn(client):
    # four 中 thrown after the final hand's one: the first turn (from the end) past 4 is turn 0
    status, err = error(client, **WIN, history=[turn("中", "中")] * 4)
    assert (err["code"], err["turn"]) == ("bad_history", 0)
    # the indicator's kind has 3 in play: 北 thrown three times and one in hand is a 4th
    status, err = error(client, hand="112233m123p123s7z4z", winning_tile="4z",
                        history=[turn("4z", "4z")] * 3)
    assert (err["code"], err["turn"]) == ("bad_history", 0)
    assert "3" in err["message"]


def test_unreadable_turns(client):
    status, err = error(client, **WIN, history=[turn("中", "中"), turn("x", "中")])
    assert (err["code"], err["turn"], err["field"]) == ("bad_tile", 1, "history")
    status, err = error(client, **WIN, history=[turn("中", "中中")])
    assert (err["code"], err["turn"]) == ("bad_tile", 0)
    status, err = error(client, **WIN, history=[{"draw": "中"}])
    assert (err["code"], err["turn"]) == ("bad_history", 0)
    status, err = error(client, **WIN, history=[{"draw": "中", "discard": "中", "x": 1}])
    assert (err["code"], err["turn"]) == ("bad_history", 0)
    status, err = error(client, **WIN, history=["中中"])
    assert (err["code"], err["turn"]) == ("bad_history", 0)
    status, err = error(client, **WIN, history={"draw": "中"})
    assert (err["code"], err.get("turn")) == ("bad_history", None)


def test_too_long_a_history_is_422_with_the_cap():
    from webcalc import create_app
    from webcalc.story import MAX_HISTORY

    client = create_app({"TESTING": True}).test_client()
    status, err = error(client, **WIN, history=[turn("1m", "1m")] * (MAX_HISTORY + 1))
    assert (status, err["code"], err["field"]) == (422, "too_many", "history")
    assert err["detail"] == {"limit": "history_turns", "max": MAX_HISTORY}


@pytest.mark.parametrize("fields", [
    {"variant": "zhengzhou", **WIN},                                # not 三门峡
    {"options": {"wildcard": False}, "indicator": None, **WIN},      # 三门峡 without 混
    {"hand": "112233m123p123s9m7z"},                                # no winning tile
    {"hand": "112233m123p123s7z"},                                  # 13 tiles
    {"hand": "112233m123p123s89m", "winning_tile": "8m"},           # not a win
])
def test_history_only_with_a_sanmenxia_win_with_wildcards(client, fields):
    req = {k: v for k, v in {**BASE, "history": [], **fields}.items() if v is not None}
    resp = client.post(URL, json=req)
    assert resp.status_code == 400, resp.get_json()
    assert resp.get_json()["error"]["code"] == "bad_history"


def test_history_errors_read_in_english(client):
    status, err = error(client, "en", **WIN, history=[turn("5p", "中")])
    assert err["message"].startswith("History, turn 1: the drawn 5p")
    status, err = error(client, "en", variant="zhengzhou", **WIN, history=[])
    assert "Sanmenxia" in err["message"]


def test_an_empty_history_counts_nothing(client):
    body = post(client, **WIN, history=[], settlement=SETTLE).get_json()
    assert body["history"] == [] and body["biao"] == 1


# -- the property: random valid histories against a forward simulation ---------------------

# the test's own wildcard cycle (SMX-1): suits 1→2…9→1, honours 东→南→西→北→中→发→白→东
HONOR_NEXT = {27: 28, 28: 29, 29: 30, 30: 33, 33: 32, 32: 31, 31: 27}


def next_kind(k: int) -> int:
    return HONOR_NEXT[k] if k >= 27 else k - k % 9 + (k % 9 + 1) % 9


def code(k: int) -> str:
    return f"{k % 9 + 1}{'mpsz'[k // 9]}"


def hand_text(counts) -> str:
    return "".join(code(k) * counts[k] for k in range(34))


def melds(counts: list[int], jokers: int, n: int) -> bool:
    """Can the real tiles ``counts`` and ``jokers`` wildcards make exactly ``n`` melds
    (sequences within a suit, triplets)? Plain brute force, first tile first."""
    k = next((i for i in range(34) if counts[i]), None)
    if k is None:
        return jokers == 3 * n
    if n == 0:
        return False
    # a triplet of k, with wildcards for the copies missing
    use = min(counts[k], 3)
    if 3 - use <= jokers:
        counts[k] -= use
        ok = melds(counts, jokers - (3 - use), n - 1)
        counts[k] += use
        if ok:
            return True
    # a sequence holding k: k is the lowest real tile left, so the places below it in the
    # sequence are wildcards (7s-8s-9s from a wildcard and 8s 9s)
    if k < 27:
        for start in (k - 2, k - 1, k):
            if start < k - k % 9 or start % 9 > 6:
                continue
            need = 0
            taken = []
            for j in (start, start + 1, start + 2):
                if j >= k and counts[j]:
                    counts[j] -= 1
                    taken.append(j)
                else:
                    need += 1
            ok = need <= jokers and melds(counts, jokers - need, n - 1)
            for j in taken:
                counts[j] += 1
            if ok:
                return True
    return False


def in_wait(hand: list[int], wild: int) -> bool:
    """SMX-4 in the test's words: 13 tiles, less one wildcard, are four melds."""
    if not hand[wild]:
        return False
    real = list(hand)
    real[wild] = 0
    return melds(real, hand[wild] - 1, 4)


def complete(hand: list[int], wild: int) -> bool:
    """A standard win (4 melds + a pair), wildcards anywhere."""
    real = list(hand)
    jokers = real[wild]
    real[wild] = 0
    if jokers >= 2 and melds(list(real), jokers - 2, 4):
        return True
    for k in range(34):
        if real[k] >= 2:
            real[k] -= 2
            ok = melds(real, jokers, 4)
            real[k] += 2
            if ok:
                return True
        if real[k] >= 1 and jokers:
            real[k] -= 1
            ok = melds(real, jokers - 1, 4)
            real[k] += 1
            if ok:
                return True
    return False


def simulate(rng: random.Random):
    """A random valid history, played forward: (indicator, final hand counts, winning kind,
    turns, the biao discards a referee counts, the expected 表, the per-turn states), or
    ``None`` when the hand cannot win at its end."""
    indicator = rng.randrange(34)
    wild = next_kind(indicator)
    wall = [k for k in range(34) for _ in range(4)]
    wall.remove(indicator)
    rng.shuffle(wall)

    def take(k):
        wall.remove(k)
        return k

    # four melds of real tiles (sometimes one holding a wildcard) and one wildcard
    hand = [0] * 34
    for _ in range(4):
        for _ in range(50):
            if rng.random() < 0.6:
                a = rng.randrange(3) * 9 + rng.randrange(7)
                group = [a, a + 1, a + 2]
            else:
                group = [rng.randrange(34)] * 3
            if rng.random() < 0.2:
                group[rng.randrange(3)] = wild
            if all(wall.count(k) >= group.count(k) for k in set(group)):
                for k in group:
                    hand[take(k)] += 1
                break
    while sum(hand) < 12:                                   # (rarely) fill up at random
        hand[take(wall[0])] += 1
    if wild in wall:
        hand[take(wild)] += 1
    else:
        hand[take(wall[0])] += 1
    if rng.random() < 0.3:                                  # sometimes start outside it
        k = rng.choice([k for k in range(34) if hand[k]])
        hand[k] -= 1
        wall.append(k)
        hand[take(rng.choice(wall))] += 1

    turns, states, biao, count = [], [], [], 0
    for _ in range(rng.randrange(0, 7)):
        before = list(hand)
        wb = in_wait(before, wild)
        roll = rng.random()
        if roll < 0.35 and wild in wall:
            draw = take(wild)
        elif roll < 0.6 and not wb:
            # a draw from which some discard gets back into the wait, when there is one
            options = [k for k in set(wall) if any(
                in_wait([c - (j == d) + (j == k) for j, c in enumerate(before)], wild)
                for d in range(34) if before[d] or d == k)]
            draw = take(rng.choice(sorted(options))) if options else take(rng.choice(wall))
        else:
            draw = take(rng.choice(wall))
        hand[draw] += 1
        held = [k for k in range(34) if hand[k]]
        roll = rng.random()
        back = [k for k in held if in_wait([c - (j == k) for j, c in enumerate(hand)], wild)]
        if roll < 0.4 and hand[wild]:
            discard = wild
        elif roll < 0.6 and back:
            discard = rng.choice(back)
        elif roll < 0.8:
            discard = draw
        else:
            discard = rng.choice(held)
        hand[discard] -= 1
        wa = in_wait(hand, wild)
        is_biao = wb and discard == wild and wa
        count = 0 if not wa else count + is_biao
        turns.append({"draw": code(draw), "discard": code(discard)})
        states.append(wb)
        biao.append(is_biao)
    if in_wait(hand, wild):
        win = rng.choice(wall)
        expected = 1 + count
    else:
        wins = [k for k in sorted(set(wall))
                if complete([c + (j == k) for j, c in enumerate(hand)], wild)]
        if not wins:
            return None
        win = rng.choice(wins)
        expected = 0
        count = 0
    final = list(hand)
    final[win] += 1
    return indicator, final, win, turns, count, expected, states, biao


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2 ** 32 - 1))
def test_derived_biao_discards_match_a_forward_simulation(seed):
    sim = simulate(random.Random(seed))
    if sim is None:
        return
    indicator, final, win, turns, count, expected, states, biao = sim
    req = {"variant": "sanmenxia", "indicator": code(indicator), "hand": hand_text(final),
           "winning_tile": code(win), "win_by": "self_draw", "history": turns,
           "settlement": SETTLE}
    try:
        out = analyze(req, advice=False).to_json()
    except InputError as e:
        raise AssertionError(localize(e.to_dict(), "en")) from None
    assert [t["any_tile_wait"] for t in out["history"]] == states
    assert [t["biao_discard"] for t in out["history"]] == biao
    assert sum(t["counted"] for t in out["history"]) == count
    assert out["biao"] == expected
    # SMX-6, no 跑: each of the three others pays 2^表
    assert out["settlement"]["net"] == [3 * 2 ** expected] + [-(2 ** expected)] * 3


def test_the_simulation_reaches_every_case():
    """The random histories above are not all alike: runs, breaks and 0 表 wins occur."""
    seen = set()
    for seed in range(scaled(400)):
        sim = simulate(random.Random(seed))
        if sim is None:
            continue
        _, _, _, turns, count, expected, states, biao = sim
        seen.add(("won", expected > 0))
        seen.add(("counted", count > 0))
        seen.add(("broken run", any(biao) and count < sum(biao)))
        seen.add(("left and back", any(not s for s in states) and expected > 0))
    assert seen >= {("won", True), ("won", False), ("counted", True), ("broken run", True),
                    ("left and back", True)}
