"""Issue 36.3 and 36.4: hand numbers count the hands played, and the CSV reads like the
evening.

An entry keeps its id (``number``: URLs, ``expected_number``, undo, the JSON export) for good;
its place among the hands played (``hand_no``) is the count of counted hands up to it, so an
undone or voided entry, or an adjustment, takes none. The table page, the hand list, the
chart's axis and the CSV show that place; the JSON API keeps ``number`` and adds ``hand_no``
(and T's ``next_hand_no``).
"""

from __future__ import annotations

import csv
import io
import json
import re

import pytest

from .test_pages import WIN, open_table, table


@pytest.fixture()
def client(make_app):
    return make_app().test_client()


#: 南家 wins on 2z by self-draw (the plain 郑州 hand of tests/ledger/test_pages.py)
HAND = {"hand": WIN, "winning_tile": "2z", "win_by": "self_draw"}


def ledger(client):
    return client.application.extensions["ledger"]


def _ten_entries(client) -> str:
    """Ten entries: nine wins and a 荒庄 (entry 5); entry 3 voided, entry 10 undone."""
    token = open_table(client)
    lg = ledger(client)
    for n in range(1, 11):
        if n == 5:
            lg.record(token, {"settlement": {"winner": None}})
        else:
            lg.record(token, {**HAND, "settlement": {"winner": 1}})
    lg.void(token, 3, "记错了")
    lg.undo(token, 10)
    return token


def test_after_ten_entries_with_two_taken_back_the_next_hand_is_the_ninth(client):
    token = _ten_entries(client)
    t = table(client, token)
    assert t["next_number"] == 11 and t["next_hand_no"] == 9
    assert [(h["number"], h["hand_no"]) for h in t["hands"]] == [
        (1, 1), (2, 2), (3, None), (4, 3), (5, 4), (6, 5), (7, 6), (8, 7), (9, 8), (10, None)]
    html = client.get(f"/t/{token}").get_data(as_text=True)
    assert "下一手：第 9 手" in html
    title = re.search(r'<h2 id="entry-title"[^>]*>(.*?)</h2>', html).group(1)
    assert title == "第 9 手"
    # the list: eight places 第 1 … 第 8 手, none for the voided and the undone entry
    places = re.findall(r'<span class="hand-no">第 (\d+) 手</span>', html)
    assert sorted(map(int, places)) == list(range(1, 9))
    for n in (3, 10):                                   # the ids stay: links and forms
        item = re.search(rf'<li [^>]*id="hand-{n}" data-number="{n}">(.*?)</li>', html, re.S)
        assert item and 'class="hand-no"' not in item.group(1)
    # the 荒庄 page names the same hand
    page = client.get(f"/t/{token}").get_data(as_text=True)
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    draw = client.post(f"/t/{token}/draw", data={"csrf_token": csrf}).get_data(as_text=True)
    assert "把第 9 手记为荒庄？" in draw


def test_the_api_keeps_number_and_adds_hand_no(client):
    token = _ten_entries(client)
    doc = client.get(f"/api/v1/tables/{token}").get_json()
    assert doc["next_number"] == 11 and doc["next_hand_no"] == 9
    assert [h["number"] for h in doc["hands"]] == list(range(1, 11))
    assert [h["hand_no"] for h in doc["hands"]] == [1, 2, None, 3, 4, 5, 6, 7, 8, None]
    # a record answers with its place; the id goes on
    r = client.post(f"/api/v1/tables/{token}/hands",
                    json={**HAND, "settlement": {"winner": 2}, "expected_number": 11})
    assert r.status_code == 201, r.get_json()
    body = r.get_json()
    assert (body["hand"]["number"], body["hand"]["hand_no"]) == (11, 9)
    assert body["table"]["next_hand_no"] == 10


def test_a_void_in_the_middle_moves_the_later_places(client):
    """Voiding entry 2 of four renumbers 3 and 4 (read from this process's kept copy, whose
    entries were written before the void), an adjustment takes no place."""
    token = open_table(client)
    lg = ledger(client)
    for _ in range(3):
        lg.record(token, {**HAND, "settlement": {"winner": 1}})
    lg.record(token, {"adjustment": {"fee": 20, "paid_by": 0, "note": "台费"}})
    lg.record(token, {**HAND, "settlement": {"winner": 1}})
    assert [h["hand_no"] for h in table(client, token)["hands"]] == [1, 2, 3, None, 4]
    client.get(f"/api/v1/tables/{token}?lang=en")           # English fragments kept too
    lg.void(token, 2, "x")
    assert [h["hand_no"] for h in table(client, token)["hands"]] == [1, None, 2, None, 3]
    en = client.get(f"/api/v1/tables/{token}?lang=en").get_json()
    assert [h["hand_no"] for h in en["hands"]] == [1, None, 2, None, 3]
    assert en["next_hand_no"] == 4


def test_the_chart_axis_counts_the_hands_without_a_gap(client):
    token = _ten_entries(client)
    svg = client.get(f"/t/{token}/chart.svg").get_data(as_text=True)
    axis = re.search(r'<g class="axis x[^"]*">(.*?)</g>\s*</g>|<g class="axis x[^"]*">(.*)',
                     svg, re.S)
    assert axis
    labels = re.findall(r'<text[^>]*>([^<]*)</text>', axis.group(0))
    numbers = [x for x in labels if x.isdigit()]
    assert numbers == [str(i) for i in range(0, 9)], labels


# -- the CSV ---------------------------------------------------------------------------------

def _rows(resp) -> list[list[str]]:
    return list(csv.reader(io.StringIO(resp.get_data(as_text=True).lstrip("\ufeff"))))


def _evening_at_known_times(client) -> str:
    """An evening imported with its times (UTC): a win at 13:05 (21:05 in Shanghai), a
    荒庄 without tiles at 13:20, a win corrected once, an undone win; so every CSV row is
    known to the character."""
    token = open_table(client)
    lg = ledger(client)
    lg.record(token, {**HAND, "settlement": {"winner": 1}})
    lg.record(token, {"settlement": {"winner": None}})
    lg.record(token, {**HAND, "settlement": {"winner": 2}})
    lg.correct(token, 3, {**HAND, "settlement": {"winner": 3}})
    lg.record(token, {**HAND, "settlement": {"winner": 0}})
    lg.undo(token, 4)
    doc = lg.export_table(token)
    times = ["2026-12-06T13:05:00Z", "2026-12-06T13:20:00Z", "2026-12-06T15:59:30Z",
             "2026-12-06T16:10:00Z"]
    for e, at in zip(doc["entries"], times):
        e["recorded_at"] = at
        for r in e["revisions"]:
            r["recorded_at"] = at
    return lg.import_table(json.loads(json.dumps(doc))).edit_token


HEADER = ["手", "类型", "状态", "庄家", "胡牌者", "胡法", "验牌", "付款", "收款", "金额", "项目",
          "说明", "规则", "记入时间（Asia/Shanghai）", "记录号", "更正版本"]


def test_csv_rows_read_like_the_evening(client):
    token = _evening_at_known_times(client)
    rows = _rows(client.get(f"/t/{token}/export.csv"))
    assert rows[0] == HEADER
    body = rows[1:rows.index([])]
    # ZZ-4: a self-drawn win without 跑 or doubles: each of the three others pays 1 底
    win = ["1", "牌局", "计入", "老王", "小李", "自摸", "是"]
    assert body[0][:7] == win and body[0][13:] == ["2026-12-06 21:05:00", "1", ""]
    assert [r[7:10] for r in body[:3]] == [["老王", "小李", "1"], ["阿梅", "小李", "1"],
                                           ["张师傅", "小李", "1"]]
    # the 荒庄: no winner, no tiles to check (no 是), no payment (郑州), local time
    draw = [r for r in body if r[4] == "荒庄"]
    assert draw == [["2", "牌局", "计入", "小李", "荒庄", "", "", "", "", "", "", "", "",
                     "2026-12-06 21:20:00", "2", ""]]
    # the corrected hand: 张师傅 wins in revision 2; after midnight in Shanghai
    fixed = [r for r in body if r[14] == "3"]
    assert {r[4] for r in fixed} == {"张师傅"} and {r[15] for r in fixed} == {"2"}
    assert {r[13] for r in fixed} == {"2026-12-06 23:59:30"} and {r[0] for r in fixed} == {"3"}
    # the undone hand (dealt by 张师傅, who won the hand before: ZZ-7): no place in the
    # count, its id kept
    undone = [r for r in body if r[14] == "4"]
    assert undone == [["", "牌局", "撤销", "张师傅", "老王", "自摸", "是", "", "", "", "", "", "",
                       "2026-12-07 00:10:00", "4", ""]]


def test_csv_time_zone_from_the_link_and_a_bad_one_refused(client):
    token = _evening_at_known_times(client)
    rows = _rows(client.get(f"/t/{token}/export.csv?tz=Europe/London&lang=en"))
    assert rows[0][13:] == ["Recorded at (Europe/London)", "Entry", "Revision"]
    assert rows[1][13] == "2026-12-06 13:05:00"                   # GMT in December
    assert {r[6] for r in rows[1:rows.index([])] if r[4] == "Drawn game"} == {""}
    bad = client.get(f"/t/{token}/export.csv?tz=Mars/Olympus")
    assert bad.status_code == 400
    assert "Mars/Olympus" in bad.get_data(as_text=True) and "Asia/Shanghai" in \
        bad.get_data(as_text=True)
    assert client.get(f"/t/{token}/export.csv?tz=../../etc/passwd").status_code == 400


def test_json_export_is_unchanged_by_the_csv(client):
    """The JSON export keeps its fields (a program reads it): UTC times, ids as numbers."""
    token = _evening_at_known_times(client)
    doc = json.loads(client.get(f"/t/{token}/export.json").get_data(as_text=True))
    assert [e["number"] for e in doc["entries"]] == [1, 2, 3, 4]
    assert doc["entries"][0]["recorded_at"] == "2026-12-06T13:05:00.000Z"
    assert set(doc["entries"][0]) >= {"number", "kind", "status", "dealer", "request",
                                      "recorded_at", "editor", "net", "revisions"}
