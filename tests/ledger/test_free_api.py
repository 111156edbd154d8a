"""自由记分 tables through the JSON API (API.md "Added in the fourth round"), on SQLite and
PostgreSQL: a table with no rule set whose hands are four amounts summing to zero, with the
whole ledger around it (corrections, voids, undo, adjustments, co-scorers, rotation, live
polls, export/import, circles). Every figure below is the sum of the amounts given, by hand.
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.both_dbs

NAMES = ["老王", "老李", "小张", "小赵"]


def post(api, url, body, status):
    r = api.post(url, json=body)
    assert r.status_code == status, (r.status_code, r.json)
    return r.json


def free(api, **spec):
    return post(api, "/api/v1/tables", {"variant": "free", "names": NAMES, **spec}, 201)


def points(api, edit, pts, status=201, **more):
    return post(api, f"/api/v1/tables/{edit}/hands", {"points": pts, **more}, status)


def error(r):
    return r.status_code, r.json["error"]["code"], r.json["error"]["field"]


def test_a_free_table_has_no_rule_set(api):
    made = free(api)
    t = made["table"]
    assert (t["variant"], t["options"], t["names"], t["dealer"]) == ("free", {}, NAMES, 0)
    assert (t["hands"], t["totals"], t["settle_up"]) == ([], [0, 0, 0, 0], [])
    r = api.post("/api/v1/tables", json={"variant": "free", "options": {"pao_max": 2}})
    assert error(r) == (400, "bad_request", "options")
    # nothing multiplies a base on a free table: one given is refused, not stored unread
    for base in (5, 0.5, 0):
        r = api.post("/api/v1/tables", json={"variant": "free", "base": base})
        assert error(r)[0] == 400 and error(r)[2] == "base", base
    assert "底分" in api.post("/api/v1/tables", json={"variant": "free", "base": 5}).json[
        "error"]["message"]
    for base in (1, None):                  # the default every table carries
        r = api.post("/api/v1/tables", json={"variant": "free", "base": base})
        assert r.status_code == 201 and r.json["table"]["base"] == 1


def test_hands_are_the_amounts_given_and_sum_exactly(api):
    edit = free(api)["edit_token"]
    got = points(api, edit, [30, -10, -10, -10])
    h = got["hand"]
    assert (h["number"], h["kind"], h["status"], h["verified"]) == (1, "points", "recorded", True)
    assert h["request"] == {"points": [30, -10, -10, -10], "dealer": 0}
    assert h["settlement"]["net"] == [30, -10, -10, -10]
    assert got["table"]["totals"] == [30, -10, -10, -10]
    # decimals: ten hands of 0.1 make exactly 1, not 0.9999999999999999
    for _ in range(10):
        t = points(api, edit, [0.1, -0.1, 0, 0])["table"]
    assert t["totals"] == [31, -11, -10, -10]
    t = points(api, edit, [0.0001, 0.0002, -0.0003, 0], note="抽水")["table"]
    assert t["totals"] == [31.0001, -10.9998, -10.0003, -10]
    assert t["hands"][-1]["request"]["note"] == "抽水"
    # the settle-up squares it exactly: 老李, 小张 and 小赵 pay 老王
    assert t["settle_up"] == [{"from": 1, "to": 0, "amount": 10.9998},
                              {"from": 2, "to": 0, "amount": 10.0003},
                              {"from": 3, "to": 0, "amount": 10}]
    big = points(api, edit, [1_000_000, -1_000_000, 0.5, -0.5])["hand"]
    assert big["settlement"]["net"] == [1_000_000, -1_000_000, 0.5, -0.5]


@pytest.mark.parametrize("pts, field, zh, en", [
    ([10, -5, -3, -1], "points", "四家的分数（points）加起来应为 0，现在是 1。",
     "The four amounts (points) should sum to 0; they sum to 1."),
    ([0.1, 0.2, -0.2, 0], "points", "现在是 0.1", "they sum to 0.1"),
    ([1, 0.00001, -1, -0.00001], "points[1]", "南家的分数（points）小数位太多：最多 4 位。",
     "South's amount (points) has too many decimals: at most 4."),
    ([1_000_001, 0, 0, -1_000_001], "points[0]", "东家的分数（points）太大",
     "East's amount (points) is too large: at most 1000000 either way."),
    ([1, -1, "2", -2], "points[2]", "西家的分数（points）应为数字",
     "West's amount (points) should be a number"),
    ([1, -1, 0, True], "points[3]", "北家的分数", "North's amount"),
    ([1, -1, 0], "points", "应为四个数", "a list of four amounts"),
    (None, "points", "应为四个数", "a list of four amounts"),
])
def test_bad_points_say_which_seat_or_the_sum(api, pts, field, zh, en):
    edit = free(api)["edit_token"]
    for lang, text in (("zh-CN", zh), ("en", en)):
        r = api.post(f"/api/v1/tables/{edit}/hands", json={"points": pts},
                     headers={"Accept-Language": lang})
        assert error(r) == (400, "bad_points", field)
        assert text in r.json["error"]["message"]
    assert api.get(f"/api/v1/tables/{edit}").json["hands"] == []


def test_points_only_on_a_free_table_and_only_points_there(api):
    edit = free(api)["edit_token"]
    r = api.post(f"/api/v1/tables/{edit}/hands", json={"settlement": {"winner": 0}})
    assert error(r) == (400, "bad_points", "points")
    r = api.post(f"/api/v1/tables/{edit}/hands", json={"points": [1, -1, 0, 0], "win_by": "x"})
    assert error(r) == (400, "bad_request", "win_by")
    r = api.post(f"/api/v1/tables/{edit}/hands", json={"points": [1, -1, 0, 0], "dealer": 4})
    assert error(r) == (400, "bad_request", "dealer")
    ruled = post(api, "/api/v1/tables", {"variant": "zhengzhou"}, 201)["edit_token"]
    r = api.post(f"/api/v1/tables/{ruled}/hands", json={"points": [1, -1, 0, 0]})
    assert error(r) == (400, "bad_request", "points")


def test_correct_void_undo_adjust_and_the_dealer(api):
    edit = free(api, dealer=1)["edit_token"]
    assert points(api, edit, [12, -4, -4, -4])["hand"]["dealer"] == 1   # the table's dealer
    t = points(api, edit, [-6, 18, -6, -6], dealer=2)["table"]          # a dealer given
    assert t["dealer"] == 2                       # no rule moves it: the last hand's dealer
    r = api.put(f"/api/v1/tables/{edit}/hands/2", json={"points": [-6, -6, 18, -6]})
    assert r.status_code == 200
    h = r.json["hand"]
    assert (h["revision"], h["dealer"], h["settlement"]["net"]) == (2, 2, [-6, -6, 18, -6])
    assert h["revisions"][0]["request"] == {"points": [-6, 18, -6, -6], "dealer": 2}
    assert r.json["table"]["totals"] == [6, -10, 14, -10]
    r = api.put(f"/api/v1/tables/{edit}/hands/2", json={"points": [1, 1, 1, 1]})
    assert error(r) == (400, "bad_points", "points")
    adj = post(api, f"/api/v1/tables/{edit}/hands",
               {"adjustment": {"fee": 20, "paid_by": 0, "note": "台费"}}, 201)
    assert adj["table"]["totals"] == [21, -15, 9, -15]
    assert adj["table"]["dealer"] == 2              # an adjustment never moves the dealer
    t = points(api, edit, [3, 3, 3, -9])["table"]
    assert t["totals"] == [24, -12, 12, -24]
    t = post(api, f"/api/v1/tables/{edit}/undo", {"number": 4}, 200)
    assert (t["totals"], t["hands"][3]["void_code"]) == ([21, -15, 9, -15], "undone")
    t = post(api, f"/api/v1/tables/{edit}/hands/1/void", {"reason": "记错桌了"}, 200)
    assert t["totals"] == [9, -11, 13, -11]
    assert t["settle_up"] == [{"from": 1, "to": 2, "amount": 11},
                              {"from": 3, "to": 0, "amount": 9},
                              {"from": 3, "to": 2, "amount": 2}]


def test_idempotent_repeats_co_scorers_rotation_and_polls(api):
    made = free(api)
    edit, view = made["edit_token"], made["view_token"]
    body = {"points": [5, -5, 0, 0], "idempotency_key": "k1", "expected_number": 1}
    first = api.post(f"/api/v1/tables/{edit}/hands", json=body)
    again = api.post(f"/api/v1/tables/{edit}/hands", json=body)
    assert (first.status_code, again.status_code) == (201, 200)
    other = api.post(f"/api/v1/tables/{edit}/hands",
                     json={**body, "points": [6, -6, 0, 0], "expected_number": 2})
    assert (other.status_code, other.json["error"]["code"]) == (409, "idempotency_conflict")
    polled = api.get(f"/api/v1/tables/{view}")
    etag = polled.headers["ETag"]
    assert api.get(f"/api/v1/tables/{view}", headers={"If-None-Match": etag}).status_code == 304
    co = post(api, f"/api/v1/tables/{edit}/editors", None, 201)["edit_token"]
    h = points(api, co, [-2, -2, -2, 6])["hand"]
    assert (h["number"], h["editor"]) == (2, 1)
    r = api.get(f"/api/v1/tables/{view}", headers={"If-None-Match": etag})
    assert r.status_code == 200 and r.json["totals"] == [3, -7, -2, 6]
    assert error(api.post(f"/api/v1/tables/{view}/hands", json={"points": [1, -1, 0, 0]})) == \
        (403, "read_only", None)
    rotated = post(api, f"/api/v1/tables/{edit}/rotate", {}, 200)
    assert api.get(f"/api/v1/tables/{edit}").status_code == 404
    assert points(api, rotated["edit_token"], [1, -1, 0, 0])["table"]["totals"] == \
        [4, -8, -2, 6]


def test_export_and_import_round_trip(api):
    edit = free(api)["edit_token"]
    points(api, edit, [7.5, -2.5, -2.5, -2.5], note="第一把")
    points(api, edit, [-1, 3, -1, -1])
    api.put(f"/api/v1/tables/{edit}/hands/2", json={"points": [-1, -1, 3, -1]})
    points(api, edit, [4, -4, 0, 0])
    post(api, f"/api/v1/tables/{edit}/undo", {"number": 3}, 200)
    doc = api.get(f"/api/v1/tables/{edit}/export").json
    assert (doc["variant"], doc["options"]) == ("free", {})
    made = post(api, "/api/v1/tables/import", doc, 201)
    t = made["table"]
    assert t["variant"] == "free" and t["totals"] == [6.5, -3.5, 0.5, -3.5]
    assert [h["kind"] for h in t["hands"]] == ["points"] * 3
    assert [h["status"] for h in t["hands"]] == ["recorded", "recorded", "voided"]
    assert t["hands"][1]["revisions"][0]["request"]["points"] == [-1, 3, -1, -1]
    assert t["hands"][0]["request"]["note"] == "第一把"
    # an import is checked like a write: a hand that does not sum to zero is refused
    doc["entries"][0]["request"]["points"] = [7.5, -2.5, -2.5, -2]
    r = api.post("/api/v1/tables/import", json=doc)
    assert r.status_code == 400 and r.json["error"]["code"] == "bad_points"
    assert r.json["error"]["field"] == "entries[0].points"


def test_an_export_with_the_base_a_free_table_kept_imports(api):
    """Until stop 47 the API kept a base given to a free table, unread, and its export (and a
    circle's) carries it: such a file, the one a user holds, imports as that table was, with
    the default 1, its hands and totals as they were; a base no table may have is refused
    still, on ``base``."""
    edit = free(api)["edit_token"]
    points(api, edit, [7.5, -2.5, -2.5, -2.5])
    doc = api.get(f"/api/v1/tables/{edit}/export").json
    for base in (5, 0.5, 1):
        made = post(api, "/api/v1/tables/import", {**doc, "base": base}, 201)["table"]
        assert made["base"] == 1 and made["totals"] == [7.5, -2.5, -2.5, -2.5], base
    for base in (0, "5", 1e20):
        r = api.post("/api/v1/tables/import", json={**doc, "base": base})
        assert error(r)[0] == 400 and error(r)[2] == "base", base


def test_csv_export_lists_what_each_pays(api):
    import csv
    import io

    edit = free(api)["edit_token"]
    points(api, edit, [9, -3, -3, -3], note="第一把")
    points(api, edit, [0, 0, 0, 0])
    r = api.get(f"/t/{edit}/export.csv", headers={"Accept-Language": "en"})
    assert r.status_code == 200
    rows = list(csv.reader(io.StringIO(r.get_data(as_text=True).lstrip("\ufeff"))))
    hand_rows = [row[:12] for row in rows[1:] if row and row[0] in ("1", "2")]
    assert hand_rows == [
        ["1", "Free-scoring hand", "Counted", "老王", "", "", "", p, "老王", "3", "Points",
         f"第一把: {p} pays 老王 3"]                   # the players, as the table names them
        for p in ("老李", "小张", "小赵")
    ] + [["2", "Free-scoring hand", "Counted", "老王", "", "", "", "", "", "", "", ""]]
    assert ["Totals", "9", "-3", "-3", "-3"] in rows


def test_a_circle_counts_free_hands(api):
    made = post(api, "/api/v1/circles", {"name": "周末", "players": ["甲", "乙", "丙", "丁", "戊"]},
                201)
    circle = made["edit_token"]
    a = post(api, "/api/v1/tables", {"variant": "free", "circle": circle,
                                     "players": [1, 2, 3, 4]}, 201)["edit_token"]
    points(api, a, [30, -10, -10, -10])            # 甲 wins
    points(api, a, [-5, 20, 20, -35])              # 乙 and 丙 tie at the top: both win
    points(api, a, [0, 0, 0, 0])                   # nobody's amount is positive: no win
    points(api, a, [1, 2, 3, -6])
    post(api, f"/api/v1/tables/{a}/undo", {"number": 4}, 200)      # not counted
    post(api, f"/api/v1/tables/{a}/hands", {"adjustment": {"payments": [
        {"from": 3, "to": 0, "amount": 4}]}}, 201)                 # a net, not a hand
    b = post(api, "/api/v1/tables", {"variant": "zhengzhou", "circle": circle,
                                     "players": [5, 1, 2, 3]}, 201)["edit_token"]
    post(api, f"/api/v1/tables/{b}/hands", {
        "hand": "123m456p789s11122z", "winning_tile": "2z", "win_by": "self_draw",
        "settlement": {"winner": 1}}, 201)                         # 甲 self-draws: [-1,3,-1,-1]
    c = api.get(f"/api/v1/circles/{made['view_token']}").json
    assert [t["hands"] for t in c["tables"]] == [3, 1]
    assert c["tables"][0]["totals"] == [29, 10, 10, -49]
    fields = ("player", "tables", "hands", "wins", "self_draws", "dealt_in", "net",
              "biggest_win")
    assert [tuple(s[k] for k in fields) for s in c["standings"]] == [
        (1, 2, 4, 2, 1, 0, 32, 30),     # 甲: 30 - 5 + 0 + 4 (adjustment) + 3; wins A1, B1
        (2, 2, 4, 1, 0, 0, 9, 20),      # 乙: -10 + 20 + 0 - 1; win A2 (tie)
        (3, 2, 4, 1, 0, 0, 9, 20),      # 丙: -10 + 20 + 0 - 1; win A2 (tie)
        (5, 1, 1, 0, 0, 0, -1, None),   # 戊: B only
        (4, 1, 3, 0, 0, 0, -49, None),  # 丁: -10 - 35 + 0 - 4
    ]
    p = api.get(f"/api/v1/circles/{made['view_token']}/players/1").json
    assert p["evenings"][0]["wins"] == [{"number": 1, "net": 30, "by": "points"}]


def test_random_evenings_sum_exactly(ledger):
    """Random free hands (amounts of 0 to 4 decimals, |a| ≤ 1 000 000, summing to 0 by
    construction) in random order with random undos: the table's totals are the exact
    decimal sums of the counted hands, the settle-up squares them exactly, and a hand one
    ten-thousandth off zero is refused and changes nothing."""
    import random
    from decimal import Decimal

    from webcalc.errors import InputError

    rng = random.Random(36_7)
    made = ledger.create_table({"variant": "free"})
    edit = made.edit_token
    counted: list[list[Decimal]] = []
    for _ in range(60):
        scale = Decimal(1).scaleb(-rng.randint(0, 4))
        three = [Decimal(rng.randint(-333_333 * 10 ** 4, 333_333 * 10 ** 4)).scaleb(-4)
                 .quantize(scale) for _ in range(3)]
        four = [*three, -sum(three)]
        rng.shuffle(four)
        as_json = [int(d) if d == d.to_integral_value() else float(d) for d in four]
        if rng.random() < 0.1:
            bad = [*as_json[:3], as_json[3] + 0.0001 if isinstance(as_json[3], float)
                   else as_json[3] + 1]
            with pytest.raises(InputError) as err:
                ledger.record(edit, {"points": bad})
            assert err.value.code == "bad_points"
        t = ledger.record(edit, {"points": as_json}).table
        counted.append(four)
        if rng.random() < 0.15:
            t = ledger.undo(edit, t["last_counted"])
            counted.pop()
        want = [sum((h[i] for h in counted), Decimal(0)) for i in range(4)]
        assert [Decimal(repr(x)) if isinstance(x, float) else Decimal(x)
                for x in t["totals"]] == want
        left = list(want)
        for s in t["settle_up"]:
            amount = Decimal(repr(s["amount"])) if isinstance(s["amount"], float) \
                else Decimal(s["amount"])
            left[s["from"]] += amount
            left[s["to"]] -= amount
        assert left == [0, 0, 0, 0]
