"""The circles' pages without a browser (CSRF forms, errors, languages, exports, import),
on SQLite and PostgreSQL."""

from __future__ import annotations

import csv
import io
import re

import pytest

T = "123m456p789s11122z"


def csrf(html: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)


@pytest.fixture()
def client(make_app):
    return make_app().test_client()


def make_circle(client, players="老王\n小李\n阿梅\n张师傅") -> str:
    page = client.get("/c/new").get_data(as_text=True)
    r = client.post("/c/new", data={"csrf_token": csrf(page), "name": "周五",
                                    "players": players})
    assert r.status_code == 303, r.get_data(as_text=True)[:500]
    return r.headers["Location"].split("/c/")[1].split("?")[0]


def test_create_needs_csrf_and_keeps_what_was_typed(client):
    r = client.post("/c/new", data={"name": "周五", "players": "甲"})
    assert r.status_code == 400
    page = client.get("/c/new").get_data(as_text=True)
    r = client.post("/c/new", data={"csrf_token": csrf(page), "name": "x" * 41,
                                    "players": "甲\n乙"})
    html = r.get_data(as_text=True)
    assert r.status_code == 422
    assert "1 到 40" in html and "甲\n乙" in html
    r = client.post("/c/new?lang=en", data={"csrf_token": csrf(page), "name": "ok",
                                            "players": "甲\n甲"})
    assert r.status_code == 422 and "already has a player called 甲" in r.get_data(as_text=True)


def test_too_many_players_is_said_under_the_players_box(client):
    """61 names typed (the cap is 60): the error under the players' box, which keeps them,
    as every other error about that box is (it was a line at the top of the page)."""
    page = client.get("/c/new").get_data(as_text=True)
    names = "\n".join(f"牌友{i}" for i in range(61))
    r = client.post("/c/new", data={"csrf_token": csrf(page), "name": "周五", "players": names})
    html = r.get_data(as_text=True)
    assert r.status_code == 422
    error = re.search(r'id="players-error"[^>]*>(.*?)</', html, re.S)
    assert error is not None and "一个牌友圈最多 60 位牌友。" in error.group(1), html[:3000]
    assert 'aria-invalid="true"' in html[html.index('name="players"') - 300:
                                          html.index('name="players"') + 300]
    assert "牌友60" in html and 'id="circle-general"' not in html


def test_new_evening_in_one_post_keeps_the_last_room(client, make_app):
    edit = make_circle(client, "老王，小李、阿梅\n张师傅\n小周")
    html = client.get(f"/c/{edit}").get_data(as_text=True)
    assert "开第一晚" in html
    r = client.post(f"/c/{edit}/tables", data={"csrf_token": csrf(html), "p0": "1", "p1": "2",
                                              "p2": "3", "p3": "4", "variant": "panjin"})
    assert r.status_code == 303 and "/t/" in r.headers["Location"]
    ledger = client.application.extensions["ledger"]
    first = r.headers["Location"].split("/t/")[1].split("?")[0]
    ledger.settings(first, {"carry_bets": "reset"})
    html = client.get(f"/c/{edit}").get_data(as_text=True)
    assert "这四位再开一晚" in html
    assert re.findall(r'<option value="(\d)" selected>', html)[:4] == ["1", "2", "3", "4"]
    assert '<option value="panjin" selected>' in html
    r = client.post(f"/c/{edit}/tables", data={"csrf_token": csrf(html), "p0": "5", "p1": "1",
                                              "p2": "2", "p3": "3", "variant": "panjin"})
    second = r.headers["Location"].split("/t/")[1].split("?")[0]
    a, b = ledger.table(first), ledger.table(second)
    assert b["options"] == a["options"] and b["names"] == ["小周", "老王", "小李", "阿梅"]
    bad = client.post(f"/c/{edit}/tables", data={"csrf_token": csrf(html), "p0": "1",
                                                "p1": "1", "p2": "2", "p3": "3",
                                                "variant": "panjin"})
    assert bad.status_code == 422 and "四位不同的牌友" in bad.get_data(as_text=True)


def test_the_view_link_reads_only(client):
    edit = make_circle(client)
    c = client.application.extensions["ledger"].circle(edit)
    html = client.get(f"/c/{c['view_token']}").get_data(as_text=True)
    assert "new-evening-form" not in html and "add-player" not in html
    assert edit not in html
    page = client.get(f"/c/{edit}").get_data(as_text=True)
    for path in ("players", "tables"):
        r = client.post(f"/c/{c['view_token']}/{path}", data={"csrf_token": csrf(page),
                                                              "name": "x"})
        assert r.status_code == 403
    assert client.get("/c/" + "A" * 32).status_code == 404
    assert client.get(f"/c/{edit}/p/9").status_code == 404
    r = client.get(f"/c/{edit}")
    assert r.headers["Cache-Control"] == "no-store" and r.headers["Referrer-Policy"] == \
        "no-referrer"


def test_add_a_player_and_errors(client):
    edit = make_circle(client)
    html = client.get(f"/c/{edit}").get_data(as_text=True)
    r = client.post(f"/c/{edit}/players", data={"csrf_token": csrf(html), "name": "小周"})
    assert r.status_code == 303
    r = client.post(f"/c/{edit}/players", data={"csrf_token": csrf(html), "name": "小周"})
    assert r.status_code == 422 and "已经有叫 小周 的牌友" in r.get_data(as_text=True)


def test_english_page(client):
    edit = make_circle(client)
    html = client.get(f"/c/{edit}?lang=en").get_data(as_text=True)
    for text in ("Standings", "New evening", "Evenings", "Share", "Scan to follow the circle"):
        assert text in html
    assert "排行" not in html and "牌友圈" not in html.replace("周五", "")


def test_csv_standings_write_formulas_as_text(client):
    edit = make_circle(client, "=SUM(A1)\n+cmd\n@x\n-1")
    ledger = client.application.extensions["ledger"]
    t = ledger.create_table({"variant": "zhengzhou", "circle": edit, "players": [1, 2, 3, 4]})
    ledger.record(t.edit_token, {"hand": T, "winning_tile": "2z", "win_by": "self_draw",
                                 "settlement": {"winner": 0}})
    r = client.get(f"/c/{edit}/export.csv?lang=en")
    assert r.mimetype == "text/csv"
    rows = list(csv.reader(io.StringIO(r.get_data(as_text=True).lstrip("\ufeff"))))
    assert rows[0] == ["Player", "Evenings", "Hands", "Wins", "Self-draws", "Dealt in", "Net",
                       "Biggest win"]
    assert rows[1] == ["'=SUM(A1)", "1", "1", "1", "1", "0", "3", "3"]
    assert [r[0] for r in rows[2:]] == ["'+cmd", "'@x", "'-1"]
    assert [r[6] for r in rows[2:]] == ["-1", "-1", "-1"]          # amounts stay numbers
    zh = client.get(f"/c/{edit}/export.csv").get_data(as_text=True)
    assert zh.lstrip("\ufeff").startswith("牌友,场次,手数")


def test_import_page_round_trip_and_cap(client):
    edit = make_circle(client)
    ledger = client.application.extensions["ledger"]
    t = ledger.create_table({"variant": "zhengzhou", "circle": edit, "players": [4, 3, 2, 1]})
    ledger.record(t.edit_token, {"hand": T, "winning_tile": "2z", "win_by": "self_draw",
                                 "settlement": {"winner": 2}})
    doc = client.get(f"/c/{edit}/export.json").get_data(as_text=True)
    page = client.get("/c/new").get_data(as_text=True)
    r = client.post("/c/import", data={"csrf_token": csrf(page), "text": doc})
    assert r.status_code == 303
    new = r.headers["Location"].split("/c/")[1].split("?")[0]
    assert ledger.circle(new)["standings"] == ledger.circle(edit)["standings"]
    r = client.post("/c/import", data={"csrf_token": csrf(page), "text": "{]"})
    assert r.status_code == 422 and "不是从牌友圈导出" in r.get_data(as_text=True)
    r = client.post("/c/import", data={"csrf_token": csrf(page),
                                       "text": " " * (4 * 1024 * 1024 + 10)})
    assert r.status_code == 413


def test_the_page_lists_the_latest_20_evenings_and_links_to_all(client):
    edit = make_circle(client)
    ledger = client.application.extensions["ledger"]
    for _ in range(21):
        ledger.create_table({"variant": "zhengzhou", "circle": edit, "players": [1, 2, 3, 4]})
    html = client.get(f"/c/{edit}").get_data(as_text=True)
    assert html.count('class="evening"') == 20
    assert 'id="evening-21"' in html and 'id="evening-1"' not in html
    assert "全部 21 晚（还有 1 晚）" in html
    html = client.get(f"/c/{edit}?evenings=all").get_data(as_text=True)
    assert html.count('class="evening"') == 21 and "all-evenings" not in html


def test_the_circle_s_downloads_keep_the_page_s_language(client):
    """The English circle page on a Chinese phone links both files with ``lang=en`` (the
    JSON link too: in WeChat it answers the circle as text, in the page's language); the
    bare page links them bare."""
    edit = make_circle(client)
    zh = {"Accept-Language": "zh-CN,zh"}
    for query, want in (("?lang=en", "lang=en"), ("", None)):
        html = client.get(f"/c/{edit}{query}", headers=zh).get_data(as_text=True)
        links = re.findall(r'id="export-(?:csv|json)" href="([^"]*)"', html)
        assert len(links) == 2
        assert all((want in u) if want else ("lang=" not in u) for u in links), links
