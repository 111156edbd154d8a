"""The ledger's pages as WeChat's in-app browser gets them (issue 35, docs/SERVING.md "Serving
to WeChat users"), without a browser: the exports answer a page (the evening as text and as
a picture) instead of a download, with ``Vary: User-Agent``; every QR code is a PNG of the
link printed under it, the view link's never holding an edit token; the table page's title
names the table, its hands and its variant. The browser side is
tests/test_browser_wechat_pages.py."""

from __future__ import annotations

import csv
import html as htmllib
import io
import re

import pytest

from webcalc.ledger import view_token_of

from ..browsers import WECHAT_ANDROID, WECHAT_IOS
from ..cards import qr_texts
from .test_pages import NAMES, WIN, open_table, record, table

CHROME = ("Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) "
          "Chrome/120.0.0.0 Mobile Safari/537.36")


@pytest.fixture()
def client(make_app):
    return make_app().test_client()


def evening(client) -> str:
    """A 郑州 table (base 1, 老王 deals): 小李 self-draws on 2z (ZZ-4: each other seat pays 1),
    a 荒庄 (nothing paid), then 小李 self-draws again as dealer and that hand is voided."""
    token = open_table(client)
    assert record(client, token, hand=WIN, winning_tile="2z", s_dealer="0",
                  s_winner="1").status_code == 303
    assert record(client, token, draw="1").status_code == 303
    assert record(client, token, hand=WIN, winning_tile="2z", s_winner="1").status_code == 303
    client.application.extensions["ledger"].void(token, 3, "记错了")
    return token


def test_in_wechat_the_csv_and_json_exports_answer_the_evening_as_a_page(client):
    token = evening(client)
    t = table(client, token)
    assert t["totals"] == [-1, 3, -1, -1]
    for ua in (WECHAT_ANDROID, WECHAT_IOS):
        for path in ("export.csv", "export.json"):
            r = client.get(f"/t/{token}/{path}", headers={"User-Agent": ua})
            assert r.status_code == 200 and r.mimetype == "text/html", path
            assert "Content-Disposition" not in r.headers
            assert "User-Agent" in r.headers["Vary"]
            page = r.get_data(as_text=True)
            text = htmllib.unescape(re.search(r'<pre class="evening-text" id="evening-text">'
                                              r'(.*?)</pre>', page, re.S).group(1))
            lines = text.splitlines()
            print(text)
            assert lines[0] == "牌桌记账 · 郑州 · 底分 1"
            assert lines[1] == f"{t['created_at'][:10]} · 已计 2 手"
            assert lines[2] == " · ".join(NAMES)
            assert "第 1 手 · 庄家 老王 · 小李 自摸" in lines
            assert "  老王 -1  小李 +3  阿梅 -1  张师傅 -1" in lines
            assert any(x.startswith("第 2 手") and "荒庄" in x for x in lines)
            # a voided entry keeps its line but no place in the count (issue 36.3)
            assert any(not x.startswith("第") and x.endswith("已作废") for x in lines)
            assert not any(x.startswith("第 3 手") for x in lines)
            assert "  原因：记错了" in lines
            totals = lines[lines.index("总分") + 1:lines.index("总分") + 5]
            assert [x.split() for x in totals] == [[n, v] for n, v in
                                                   zip(NAMES, ["-1", "+3", "-1", "-1"])]
            settle = lines[lines.index("结账（最少转账）") + 1:]
            assert sorted(settle) == sorted(f"  {n} 付给 小李 1" for n in ("老王", "阿梅", "张师傅"))
            # the picture by the view link (never the edit token), the files for elsewhere
            view = view_token_of(token)
            assert f'src="/t/{view}/card.png"' in page
            assert f'href="/t/{token}/export.csv?raw=1"' in page
            assert f'href="/t/{token}/export.json?raw=1"' in page


def test_elsewhere_and_with_raw_the_exports_download_as_before(client):
    token = evening(client)
    for headers, query in (({"User-Agent": CHROME}, ""), ({}, ""),
                           ({"User-Agent": WECHAT_IOS}, "?raw=1")):
        r = client.get(f"/t/{token}/export.csv{query}", headers=headers)
        assert r.mimetype == "text/csv"
        assert r.headers["Content-Disposition"].startswith("attachment;")
        assert "User-Agent" in r.headers["Vary"]
        rows = list(csv.reader(io.StringIO(r.get_data(as_text=True).lstrip("\ufeff"))))
        assert ["合计", "-1", "3", "-1", "-1"] in rows
        j = client.get(f"/t/{token}/export.json{query}", headers=headers)
        assert j.mimetype == "application/json" and "User-Agent" in j.headers["Vary"]
        assert j.headers["Content-Disposition"].startswith("attachment;")


def test_the_table_page_links_the_exports_without_forcing_a_download(client):
    token = evening(client)
    html = client.get(f"/t/{token}").get_data(as_text=True)
    csv_link = re.search(r'<a [^>]*id="export-csv"[^>]*>', html).group(0)
    assert " download" not in csv_link and f'href="/t/{token}/export.csv"' in csv_link


def test_every_qr_code_is_a_png_of_the_link_printed_under_it(client):
    token = evening(client)
    view = view_token_of(token)
    html = client.get(f"/t/{token}").get_data(as_text=True)
    # the edit page's QR: by the view token, of the view link
    src = re.search(r'<figure class="qr">\s*<img src="([^"]+)"[^>]*alt="([^"]+)"', html)
    assert src.group(1) == f"/t/{view}/qr.png"
    assert src.group(2) == f"二维码：http://localhost/t/{view}"
    assert f'<span class="qr-link">http://localhost/t/{view}</span>' in html
    assert "<svg" not in html.split('id="share"')[1].split("</section>")[0]
    for asked in (token, view):
        r = client.get(f"/t/{asked}/qr.png")
        assert r.mimetype == "image/png"
        assert qr_texts(r.data) == [f"http://localhost/t/{view}"]
        again = client.get(f"/t/{asked}/qr.png", headers={"If-None-Match": r.headers["ETag"]})
        assert again.status_code == 304 and not again.data
    # ?link=edit names the edit link only to whoever holds it; a view token never gets one
    assert qr_texts(client.get(f"/t/{token}/qr.png?link=edit").data) == \
        [f"http://localhost/t/{token}"]
    assert qr_texts(client.get(f"/t/{view}/qr.png?link=edit").data) == \
        [f"http://localhost/t/{view}"]
    assert client.get("/t/" + "x" * 32 + "/qr.png").status_code == 404


def test_the_circle_qr_is_a_png_of_its_view_link_and_the_page_lists_the_evenings(client):
    led = client.application.extensions["ledger"]
    made = led.create_circle({"name": "周五牌局", "players": NAMES})
    players = [p["id"] for p in made.circle["players"]]
    t = led.create_table({"variant": "zhengzhou", "circle": made.edit_token,
                          "players": players})
    html = client.get(f"/c/{made.edit_token}").get_data(as_text=True)
    assert f'<img src="/c/{made.view_token}/qr.png"' in html
    assert f'<span class="qr-link">http://localhost/c/{made.view_token}</span>' in html
    assert f'href="/t/{t.view_token}" class="evening-link"' in html
    assert 'id="keep-links"' in html and "文件传输助手" in html
    for asked in (made.edit_token, made.view_token):
        r = client.get(f"/c/{asked}/qr.png")
        assert qr_texts(r.data) == [f"http://localhost/c/{made.view_token}"]


def test_the_table_page_title_names_the_table_its_hands_and_its_variant(client):
    token = evening(client)
    day = table(client, token)["created_at"][:10]
    y, m, d = (int(x) for x in day.split("-"))
    for asked in (token, view_token_of(token)):
        html = client.get(f"/t/{asked}").get_data(as_text=True)
        title = re.search(r"<title>(.*?)</title>", html).group(1)
        assert title == f"{m}月{d}日牌局 · 2 手 · 郑州 · webcalc"
        assert 'id="keep-links"' in html and "文件传输助手" in html
    en = client.get(f"/t/{token}?lang=en").get_data(as_text=True)
    months = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()
    assert re.search(r"<title>(.*?)</title>", en).group(1) == \
        f"Table of {d} {months[m - 1]} {y} · 2 hands · Zhengzhou · webcalc"


def test_the_calculator_title_carries_the_hand_in_chinese_and_the_variant(client):
    r = client.get("/?variant=zhengzhou&hand=123m456p789s11122z")
    html = r.get_data(as_text=True)
    assert re.search(r"<title>(.*?)</title>", html).group(1) == \
        "一二三万 四五六筒 七八九条 东东东南南 · 郑州 · 麻将计算器 · webcalc"
    en = client.get("/?variant=zhengzhou&hand=一二三万四五六筒七八九条东东东南南&lang=en",
                    follow_redirects=True)
    assert re.search(r"<title>(.*?)</title>", en.get_data(as_text=True)).group(1) == \
        "123m456p789s11122z · Zhengzhou · Mahjong calculator · webcalc"


def test_in_wechat_the_circle_exports_answer_the_circle_as_text(client):
    led = client.application.extensions["ledger"]
    made = led.create_circle({"name": "周五牌局", "players": NAMES})
    players = [p["id"] for p in made.circle["players"]]
    t = led.create_table({"variant": "zhengzhou", "circle": made.edit_token,
                          "players": players})
    assert record(client, t.edit_token, hand=WIN, winning_tile="2z", s_dealer="0",
                  s_winner="1").status_code == 303
    for path in ("export.csv", "export.json"):
        r = client.get(f"/c/{made.view_token}/{path}", headers={"User-Agent": WECHAT_IOS})
        assert r.mimetype == "text/html" and "Content-Disposition" not in r.headers
        assert "User-Agent" in r.headers["Vary"]
        page = r.get_data(as_text=True)
        lines = htmllib.unescape(re.search(r'id="evening-text">(.*?)</pre>', page, re.S)
                                 .group(1)).splitlines()
        assert lines[:2] == ["周五牌局 · 牌友圈", "1 晚"]
        standings = lines[lines.index("排行") + 1:lines.index("排行") + 5]
        assert standings[0].split()[:2] == ["小李", "+3"]              # the best net first
        assert sorted(x.split()[0] for x in standings[1:]) == sorted(["老王", "阿梅", "张师傅"])
        assert all(x.split()[1] == "-1" for x in standings[1:])
        assert lines[-1] == "  老王 -1  小李 +3  阿梅 -1  张师傅 -1"
        assert f'href="/c/{made.view_token}/export.csv?raw=1"' in page
        assert "card.png" not in page
    raw = client.get(f"/c/{made.view_token}/export.csv?raw=1", headers={"User-Agent": WECHAT_IOS})
    assert raw.mimetype == "text/csv" and raw.headers["Content-Disposition"].startswith("attach")
    assert client.get(f"/c/{made.view_token}/export.csv").mimetype == "text/csv"
