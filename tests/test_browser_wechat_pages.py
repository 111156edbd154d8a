"""The pages as WeChat's in-app browser shows them (issue 35; docs/SERVING.md "Serving to WeChat
users"), in Debian's Chromium at 390×844 with WeChat's Android and iOS user agents, service
workers blocked and downloads refused (WEB-NOTES.md "WeChat's in-app browser"):

* the table's export opens as a page (no download event): the evening as text, holding each
  hand and the totals, and the evening card; a browser that is not WeChat still downloads
  the CSV;
* every QR code is a PNG ``<img>`` that decodes (zxing-cpp) to the link printed under it, as
  the page draws it (the element's screenshot) and as its bytes;
* "Copy link" where ``navigator.clipboard`` is missing or refuses shows the link in a
  read-only field, selected, with 长按复制; without JavaScript the field is there already;
* the titles name the hand (Chinese notation) and the variant, the table, its hands and
  its variant.

The features that are the server's run with JavaScript on and off. The table is made
through the JSON API: a 郑州 table (base 1, 老王 deals), 小李 self-draws 123m456p789s11122z on
2z (ZZ-4: each other seat pays 1), then a 荒庄 (nothing paid, ZZ-7)."""

from __future__ import annotations

import io
import json
import re
import threading
import urllib.request

import pytest

from .browsers import SCREENSHOTS, WECHAT_UAS, _page
from .cards import qr_texts

pytestmark = pytest.mark.browser

NAMES = ["老王", "小李", "阿梅", "张师傅"]
PHONE = {"width": 390, "height": 844}
RESULT = "/?variant=zhengzhou&hand=123m456p789s11122z&winning_tile=2z&s_dealer=0&s_winner=0"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from werkzeug.serving import make_server

    from webcalc import create_app

    db = tmp_path_factory.mktemp("wechat") / "ledger.sqlite3"
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{db}"})
    srv = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{srv.server_port}"
    finally:
        srv.shutdown()
        thread.join(timeout=5)


@pytest.fixture(scope="module")
def table(server):
    """(edit token, view token, the table as the API reads it)."""
    def call(path, body=None):
        req = urllib.request.Request(server + path, data=None if body is None else
                                     json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=10) as resp:
            return json.loads(resp.read())

    made = call("/api/v1/tables", {"variant": "zhengzhou", "names": NAMES})
    edit = made["edit_token"]
    call(f"/api/v1/tables/{edit}/hands",
         {"hand": "123m456p789s11122z", "winning_tile": "2z", "win_by": "self_draw",
          "settlement": {"winner": 1}})
    call(f"/api/v1/tables/{edit}/hands", {"settlement": {"winner": None}})
    t = call(f"/api/v1/tables/{edit}")
    assert t["totals"] == [-1, 3, -1, -1]
    return edit, made["view_token"], t


def wechat(browser, server, phone: str, js: bool = True, **kw):
    context, page = _page(browser, server, user_agent=WECHAT_UAS[phone], viewport=PHONE,
                          service_workers="block", accept_downloads=False,
                          java_script_enabled=js, **kw)
    page.downloads = []
    page.on("download", lambda d: page.downloads.append(d))
    return context, page


#: Chromium behaves alike under either WeChat user agent (no script of ours reads it); what
#: differs with it is the server's answer, which tests/ledger/test_wechat_pages.py checks for
#: both. So each test here runs under one of them, the two taking turns.
PHONES = sorted(WECHAT_UAS)


@pytest.mark.parametrize("js", [True, False], ids=["js", "nojs"])
@pytest.mark.parametrize("phone", ["ios"])
@pytest.mark.parametrize("export", ["csv", "json"])
def test_in_wechat_the_export_opens_as_a_page_with_the_hands_and_totals(
        browser, server, table, phone, js, export):
    edit, view, t = table
    context, page = wechat(browser, server, phone, js)
    try:
        page.goto(f"{server}/t/{edit}")
        page.click(f"#export-{export}")
        # with JavaScript the link carries the phone's time zone (?tz=, issue 36.4)
        page.wait_for_url(re.compile(rf"/t/{edit}/export\.{export}(\?tz=[^&]+)?$"))
        page.wait_for_load_state("load")
        assert page.downloads == []
        text = page.inner_text("#evening-text")
        lines = text.splitlines()
        assert lines[0] == "牌桌记账 · 郑州 · 底分 1"
        assert "第 1 手 · 庄家 老王 · 小李 自摸" in lines
        assert "  老王 -1  小李 +3  阿梅 -1  张师傅 -1" in lines
        assert "第 2 手 · 庄家 小李 · 荒庄" in lines
        totals = lines[lines.index("总分") + 1:lines.index("总分") + 5]
        assert [x.split() for x in totals] == [["老王", "-1"], ["小李", "+3"], ["阿梅", "-1"],
                                              ["张师傅", "-1"]]
        assert sorted(lines[lines.index("结账（最少转账）") + 1:]) == \
            sorted(f"  {n} 付给 小李 1" for n in ("老王", "阿梅", "张师傅"))
        # the evening card, drawn in the page (long-press: 保存图片), its QR the view link
        card = page.locator("#evening-card")
        card.scroll_into_view_if_needed()
        page.wait_for_function("() => document.querySelector('#evening-card').complete")
        assert card.evaluate("img => img.naturalWidth") == 1080
        assert card.get_attribute("src") == f"/t/{view}/card.png"
        png = context.request.get(server + card.get_attribute("src")).body()
        assert qr_texts(png) == [f"{server}/t/{view}"]
        # the files stay one tap away for another browser
        assert page.get_attribute("#raw-csv", "href") == f"/t/{edit}/export.csv?raw=1"
        page.screenshot(path=str(SCREENSHOTS / f"wechat-export-{export}-{phone}-"
                                               f"{'js' if js else 'nojs'}.png"), full_page=True)
    finally:
        context.close()


@pytest.mark.parametrize("js", [True, False], ids=["js", "nojs"])
@pytest.mark.parametrize("phone", ["android"])
def test_in_wechat_the_circle_export_opens_as_text(browser, server, table, phone, js):
    def call(path, body):
        req = urllib.request.Request(server + path, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=10) as resp:
            return json.loads(resp.read())

    circle = call("/api/v1/circles", {"name": "周五牌局", "players": NAMES})
    context, page = wechat(browser, server, phone, js)
    try:
        page.goto(f"{server}/c/{circle['view_token']}")
        page.click("#export-csv")
        page.wait_for_url("**/export.csv**")
        page.wait_for_load_state("load")
        assert page.downloads == []
        lines = page.inner_text("#evening-text").splitlines()
        assert lines[:2] == ["周五牌局 · 牌友圈", "0 晚"]
        assert sorted(x.split()[:2] for x in lines[lines.index("排行") + 1:][:4]) == \
            sorted([n, "0"] for n in NAMES)
        assert lines[-2:] == ["场次", "  还没有打过。"]
        page.screenshot(path=str(SCREENSHOTS / f"wechat-circle-export-{phone}-"
                                               f"{'js' if js else 'nojs'}.png"), full_page=True)
    finally:
        context.close()


@pytest.mark.parametrize("phone", ["ios"])
def test_the_export_pages_copy_button_selects_the_text_without_a_clipboard(
        browser, server, table, phone):
    edit, _view, _t = table
    context, page = wechat(browser, server, phone)
    context.add_init_script("delete Navigator.prototype.clipboard;")
    try:
        page.goto(f"{server}/t/{edit}/export.csv")
        assert page.evaluate("navigator.clipboard === undefined")
        page.click("#copy-text")
        page.wait_for_function("() => window.getSelection().toString().length > 0")
        selected = page.evaluate("window.getSelection().toString()")
        assert selected.strip() == page.inner_text("#evening-text").strip()
        assert page.inner_text(".copy .copy-status") == "长按文字复制"
    finally:
        context.close()


def test_elsewhere_the_csv_still_downloads(browser, server, table):
    edit, _view, _t = table
    context, page = _page(browser, server, viewport=PHONE, accept_downloads=True)
    try:
        page.goto(f"{server}/t/{edit}")
        with page.expect_download() as dl:
            page.click("#export-csv")
        d = dl.value
        assert d.suggested_filename.endswith(".csv")
        with open(d.path(), encoding="utf-8-sig") as f:
            body = f.read()
        assert "合计,-1,3,-1,-1" in body
    finally:
        context.close()


@pytest.mark.parametrize("js", [True, False], ids=["js", "nojs"])
@pytest.mark.parametrize("phone", ["android"])
def test_every_qr_code_is_a_png_img_of_the_link_printed_under_it(
        browser, server, table, phone, js):
    from PIL import Image

    edit, view, _t = table
    circle = json.loads(urllib.request.urlopen(urllib.request.Request(
        server + "/api/v1/circles", data=json.dumps({"name": "周五牌局", "players": NAMES})
        .encode(), headers={"Content-Type": "application/json"}), timeout=10).read())
    context, page = wechat(browser, server, phone, js)
    pages = {f"/t/{edit}": f"{server}/t/{view}",            # the edit page: the view link
             f"/t/{view}": f"{server}/t/{view}",
             f"/c/{circle['edit_token']}": f"{server}/c/{circle['view_token']}"}
    try:
        for path, link in pages.items():
            page.goto(server + path)
            qr = page.locator(".qr img")
            assert qr.count() == 1 and page.locator(".qr svg").count() == 0
            qr.scroll_into_view_if_needed()
            page.wait_for_function("() => document.querySelector('.qr img').complete")
            assert page.inner_text(".qr .qr-link") == link
            assert qr.get_attribute("alt") == f"二维码：{link}"
            # what the phone shows (the element as drawn) and what it saves (the bytes)
            shot = qr.screenshot()
            assert qr_texts(shot) == [link], path
            data = context.request.get(server + qr.get_attribute("src")).body()
            assert Image.open(io.BytesIO(data)).format == "PNG"
            assert qr_texts(data) == [link], path
            assert edit not in data.decode("latin-1") and edit not in qr.get_attribute("src")
            if path == f"/t/{edit}":
                page.locator("#share").screenshot(path=str(
                    SCREENSHOTS / f"wechat-qr-{phone}-{'js' if js else 'nojs'}.png"))
    finally:
        context.close()


@pytest.mark.parametrize("refuse", [False, True], ids=["missing", "refused"])
@pytest.mark.parametrize("phone", ["ios"])
def test_copy_link_falls_back_to_a_selected_field(browser, server, phone, refuse):
    context, page = wechat(browser, server, phone)
    if refuse:       # a clipboard that says no (a WebView without the permission)
        context.add_init_script("Object.defineProperty(Navigator.prototype, 'clipboard', "
                                "{get: () => ({writeText: () => Promise.reject("
                                "new Error('denied'))})});")
    else:
        context.add_init_script("delete Navigator.prototype.clipboard;")
    try:
        page.goto(server + RESULT)
        field = page.locator(".copy-fallback .copy-field")
        assert not field.is_visible()                     # until the copy fails
        page.click(".copy-link")
        page.wait_for_function("() => document.activeElement.classList.contains('copy-field')")
        assert field.is_visible()
        value = field.input_value()
        assert value == page.url
        assert page.evaluate("[document.activeElement.selectionStart, "
                             "document.activeElement.selectionEnd]") == [0, len(value)]
        assert page.inner_text("#copy-hint") == "长按复制" and page.is_visible("#copy-hint")
        assert field.get_attribute("aria-describedby") == "copy-hint"
        # the field has a line of its own: the buttons beside it keep their width
        assert page.locator("#analyse").bounding_box()["height"] < 60
        assert field.bounding_box()["width"] > 250
        page.screenshot(path=str(SCREENSHOTS / f"wechat-copy-{phone}-"
                                               f"{'refused' if refuse else 'missing'}.png"))
    finally:
        context.close()


@pytest.mark.parametrize("phone", ["android"])
def test_without_javascript_the_link_field_is_there_already(browser, server, phone):
    context, page = wechat(browser, server, phone, js=False)
    try:
        page.goto(server + RESULT)
        field = page.locator(".copy-fallback .copy-field")
        assert field.is_visible() and field.input_value() == page.url
        assert page.get_attribute(".copy-fallback .copy-field", "readonly") is not None
        assert "长按复制" in page.inner_text(".copy-fallback")
        page.locator(".copy-fallback").scroll_into_view_if_needed()
        page.screenshot(path=str(SCREENSHOTS / f"wechat-copy-{phone}-nojs.png"))
    finally:
        context.close()


@pytest.mark.parametrize("js", [True, False], ids=["js", "nojs"])
@pytest.mark.parametrize("phone", ["ios"])
def test_titles_say_what_the_page_is(browser, server, table, phone, js):
    edit, view, t = table
    y, m, d = (int(x) for x in t["created_at"][:10].split("-"))
    context, page = wechat(browser, server, phone, js)
    try:
        page.goto(server + RESULT)
        assert page.title() == "一二三万 四五六筒 七八九条 东东东南南 · 郑州 · 麻将计算器 · webcalc"
        for token in (edit, view):
            page.goto(f"{server}/t/{token}")
            assert page.title() == f"{m}月{d}日牌局 · 2 手 · 郑州 · webcalc"
            keep = page.locator("#keep-links")
            assert "文件传输助手" in keep.inner_text()
        page.goto(f"{server}/t/{view}?lang=en")
        months = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()
        assert page.title() == f"Table of {d} {months[m - 1]} {y} · 2 hands · Zhengzhou · webcalc"
    finally:
        context.close()


@pytest.mark.parametrize("phone", ["android"])
def test_a_hand_analysed_in_place_retitles_the_page(browser, server, phone):
    """With JavaScript htmx swaps the result in without a page load: the answer's <title>
    still becomes the page's (what WeChat's share menu and chat list show)."""
    context, page = wechat(browser, server, phone)
    try:
        page.goto(server + "/?variant=zhengzhou")
        assert page.title() == "麻将计算器 · webcalc"
        page.fill("#hand", "123m456p789s11122z")
        page.click("#analyse")
        # a function, not an expression: Playwright evaluates an expression with eval() in the
        # page, which the app's CSP (script-src 'self') refuses once it has to poll
        page.wait_for_function("() => document.title.startsWith('一二三万')")
        assert page.title() == "一二三万 四五六筒 七八九条 东东东南南 · 郑州 · 麻将计算器 · webcalc"
        assert page.evaluate("document.querySelectorAll('title').length") == 1
        assert page.evaluate("performance.getEntriesByType('navigation').length") == 1
    finally:
        context.close()
