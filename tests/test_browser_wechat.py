"""A table evening inside WeChat's in-app browser, as far as Chromium can stand in for it
(/work/shared/WEB-NOTES.md "WeChat's in-app browser"): WeChat's Android and iOS user agents,
service workers blocked (iOS WeChat has none), downloads refused, 390×844, touch.

Four hands on a 郑州 table: one tapped in on the palette, one quick win without tiles, one
荒庄, one entered with the network off and sent when it is back; the cookies cleared after a
page loaded and before a record (WeChat killed); localStorage cleared before the link is opened
again. Every hand is recorded once (the ledger's JSON API) with the nets the rules give and the
calculator's API gives; the queued hand showed, before it was sent, the nets it then recorded,
its next dealer, and the entry's dealer moved on (issue 36.2, R3). And the same record with
JavaScript off.

Amounts: ZZ-4, a 郑州 self-draw without 跑: each other seat pays 底 × 1 (the winner +3); a 荒庄
pays nothing; ZZ-7, the winner deals next, a 荒庄 keeps the dealer."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path

import pytest

from .browsers import WECHAT_IOS as IOS
from .browsers import served
from .ledger.test_browser_ledger import NAMES, open_table, open_tiles

pytestmark = pytest.mark.browser

TAPPED = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "1z", "2z", "2z"]
SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"


@pytest.fixture()
def server(tmp_path):
    """The app on a database of its own, served by werkzeug in a thread: (base URL, app)."""
    from webcalc import create_app

    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path}/wechat.db"})
    try:
        with served(app) as base:
            yield base, app
    finally:
        app.extensions["ledger"].dispose()


def _wechat(browser, ua: str, **kw):
    ctx = browser.new_context(locale="zh-CN", viewport={"width": 390, "height": 844},
                              user_agent=ua, service_workers="block", accept_downloads=False,
                              has_touch=True, **kw)
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return ctx, page


def _api(base: str, path: str, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data,
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as resp:
        return json.loads(resp.read())


def _press(page, selector: str) -> None:
    """记入 / 荒庄: the browser posts the entry; waits for the page after it."""
    with page.expect_response(lambda r: r.request.method == "POST", timeout=30_000) as info:
        page.click(selector)
    resp = info.value
    if resp.status != 303:
        import re

        said = re.findall(r'class="(?:field-error|alert)[^"]*"[^>]*>(.*?)</p>', resp.text(), re.S)
        raise AssertionError((resp.status, said))
    where = resp.headers["location"].split("#")[0]
    page.wait_for_url(lambda u: u.split("#")[0].endswith(where))
    page.wait_for_load_state()


def _winner(page, seat: str) -> None:
    """胡牌者 chosen, and the page's answer for it in: the 记入 box shows its nets (an answer
    to an earlier tap, swapped in after the choice, would show the entry without it)."""
    page.select_option("#s_winner", seat)
    page.wait_for_function(
        """(seat) => document.querySelector('#s_winner').value === seat
             && document.querySelector('#record-what .quick-net')
             && !document.querySelector('.htmx-request')""", arg=seat, polling=100)


def _hands(app, token: str) -> list:
    return app.extensions["ledger"].table(token)["hands"]


def queue_offline(ctx, page) -> list:
    """小李 wins (a quick win, no tiles) and 记入 with the network off, on a page with no
    service worker: the page's own queue (its localStorage), returned."""
    page.wait_for_function("() => !!localStorage.getItem('webcalc.outcomes.v1')")
    ctx.set_offline(True)
    page.wait_for_function("() => !navigator.onLine")
    page.select_option("#s_winner", "1")
    page.click("#record")
    page.wait_for_selector("#queue-badge:not([hidden])")
    return page.evaluate("JSON.parse(localStorage.getItem('webcalc.queue.v1'))")


def sent_once(app, token: str, pages, net: list[int], settle: float = 5) -> None:
    """The queue emptied by ``pages`` (their localStorage), then ``settle`` seconds for a
    second send to land: the table holds one entry, hand 1, with ``net``."""
    for p in pages:
        p.wait_for_function("() => !localStorage.getItem('webcalc.queue.v1')", timeout=20_000)
    deadline = time.monotonic() + settle
    while time.monotonic() < deadline:              # a second send would land meanwhile
        time.sleep(0.5)
    assert [(h["number"], h["settlement"]["net"]) for h in _hands(app, token)] == [(1, net)]


# iOS's WeChat: no service worker (blocked here in both cases); the Android user agent's
# pages are tests/test_browser_wechat_pages.py's, and Chromium behaves alike under either
@pytest.mark.parametrize("ua", [IOS], ids=["ios"])
def test_an_evening_in_wechat(browser, server, ua):
    base, app = server
    ctx, page = _wechat(browser, ua)
    try:
        assert "MicroMessenger/8." in page.evaluate("navigator.userAgent")
        assert page.evaluate("'serviceWorker' in navigator ? "
                             "navigator.serviceWorker.controller : null") is None
        page.goto(base + "/c/new")              # a page that keeps a session cookie
        token = open_table(page, base)
        edit_url = page.url.split("?")[0]

        # 1: tapped on the palette; WeChat killed after the page loaded: no cookie left
        open_tiles(page)                         # the palette's fold (one screen per hand)
        for n, code in enumerate(TAPPED[:-1], start=1):
            page.click(f"button.key[value='{code}']")
            page.wait_for_function("(n) => document.querySelectorAll('.hand-tiles .tile')"
                                   ".length === n && !document.querySelector('.htmx-request')",
                                   arg=n, polling=100)
        page.click("label.target:has(input[value=winning_tile])")
        page.click(f"button.key[value='{TAPPED[-1]}']")
        page.wait_for_function("() => document.querySelector('#winning_tile').value === '2z'"
                               " && !document.querySelector('.htmx-request')", polling=100)
        _winner(page, "1")
        assert ctx.cookies() != []
        ctx.clear_cookies()
        _press(page, "#record")
        assert ctx.cookies() == []                       # recording set none either
        assert len(_hands(app, token)) == 1

        # 2: a quick win without tiles (阿梅 self-draws), cookies cleared again
        _winner(page, "2")
        ctx.clear_cookies()
        _press(page, "#record")

        # 3: 荒庄 in one tap and the confirm
        _press_draw(page)
        assert [h["number"] for h in _hands(app, token)] == [1, 2, 3]

        # 4: no network. Waits for the page's own copy of what each outcome records
        page.wait_for_function("() => !!localStorage.getItem('webcalc.outcomes.v1')")
        ctx.set_offline(True)
        page.wait_for_function("() => !navigator.onLine")
        page.select_option("#s_winner", "3")
        # R3: the 记入 box says what it will record, never "choose the winner"
        what = page.inner_text("#record-what")
        assert "还没有可记入的" not in what and "记入" in what, what
        assert page.get_attribute("#record-what .record-nets", "data-nets") == "-1 -1 -1 +3"
        SCREENSHOTS.mkdir(exist_ok=True)
        tag = "ios" if ua is IOS else "android"
        page.locator("#record-bar").scroll_into_view_if_needed()
        page.screenshot(path=str(SCREENSHOTS / f"wechat-offline-entry-{tag}-390x844.png"))
        ctx.clear_cookies()
        page.click("#record")                            # queued here: no navigation
        page.wait_for_selector("#queue-badge:not([hidden])")
        assert page.inner_text("#queue-badge .queue-count") == "1 条待上传"
        item = page.locator("#queue-badge li").first
        assert item.inner_text().startswith("第 4 手：张师傅 胡")
        shown = item.locator(".queued-nets").get_attribute("data-nets").split()
        assert "下一手庄家：张师傅" in item.inner_text()     # ZZ-7: the winner deals next
        assert page.inner_text("#dealer-fixed") == "张师傅（北家）"
        assert "庄家：张师傅" in page.inner_text("#fixed-room")
        assert page.locator("#done").is_hidden()           # hand 3's line is not the news
        assert page.inner_text("#entry-title") == "第 5 手"
        assert page.input_value("#s_winner") == ""           # the entry is the next hand's
        page.locator("#queue-badge").scroll_into_view_if_needed()
        page.screenshot(path=str(SCREENSHOTS / f"wechat-queue-{tag}-390x844.png"))
        assert len(_hands(app, token)) == 3
        ctx.set_offline(False)                               # sent once, the page reloaded
        deadline = time.monotonic() + 30
        while len(_hands(app, token)) < 4:
            assert time.monotonic() < deadline, "the queued hand never arrived"
            time.sleep(0.2)
        page.wait_for_function("() => document.querySelector('#queue-badge').hidden "
                               "&& document.querySelector('#totals')")
        page.wait_for_load_state()

        # the ledger, read as a program reads it: each hand once, the nets the rules give
        t = _api(base, f"/api/v1/tables/{token}")
        hands = t["hands"]
        assert [h["number"] for h in hands] == [1, 2, 3, 4]
        assert [h["status"] for h in hands] == ["recorded"] * 4
        nets = [h["settlement"]["net"] for h in hands]
        assert nets == [[-1, 3, -1, -1], [-1, -1, 3, -1], [0, 0, 0, 0], [-1, -1, -1, 3]]
        assert [str(x) if x <= 0 else f"+{x}" for x in nets[3]] == shown
        assert [h["dealer"] for h in hands] == [0, 1, 2, 2] and t["dealer"] == 3
        assert t["totals"] == [-3, 1, 1, 1]
        # the calculator's answer for the tapped hand, and the API's own table for all four
        calc = _api(base, "/api/v1/analyze", {
            "variant": "zhengzhou", "hand": hands[0]["request"]["hand"],
            "winning_tile": hands[0]["request"]["winning_tile"],
            "win_by": hands[0]["request"]["win_by"],
            "settlement": {"base": 1, "dealer": 0, "winner": 1}})
        assert calc["settlement"]["net"] == nets[0]
        twin = _api(base, "/api/v1/tables", {"variant": "zhengzhou", "names": NAMES})
        for h in hands:
            body = {k: v for k, v in h["request"].items() if k != "variant"}
            body["settlement"] = {k: v for k, v in body["settlement"].items() if k != "dealer"}
            answer = _api(base, f"/api/v1/tables/{twin['edit_token']}/hands", body)
            assert answer["hand"]["settlement"]["net"] == h["settlement"]["net"]

        # WeChat cleared the phone's storage: the link still opens the table
        page.evaluate("localStorage.clear()")
        page.goto(edit_url)
        assert page.locator("#totals td").all_inner_texts() == ["-3", "1", "1", "1"]
        assert page.inner_text("#entry-title") == "第 5 手"
        assert page.locator("#queue-badge").is_hidden()
        assert len(_hands(app, token)) == 4
        assert page.errors == []
    finally:
        ctx.close()


def _press_draw(page) -> None:
    with page.expect_response(lambda r: r.request.method == "POST", timeout=30_000):
        page.click("#draw")
    page.wait_for_selector("#draw-confirm")
    _press(page, "#draw-yes")


def test_a_record_without_javascript_and_without_its_cookie(browser, server):
    """iOS WeChat with JavaScript off: the form posts itself, its proof in the form."""
    base, app = server
    ctx, page = _wechat(browser, IOS, java_script_enabled=False)
    try:
        page.goto(base + "/c/new")
        token = open_table(page, base)
        page.select_option("#s_winner", "1")
        with page.expect_navigation():
            page.click("#analyse")                      # no script: the GET form, sent
        ctx.clear_cookies()
        _press(page, "#record")
        assert [h["settlement"]["net"] for h in _hands(app, token)] == [[-1, 3, -1, -1]]
        ctx.clear_cookies()
        with page.expect_response(lambda r: r.request.method == "POST"):
            page.click("#draw")
        ctx.clear_cookies()
        _press(page, "#draw-yes")
        assert [h["number"] for h in _hands(app, token)] == [1, 2]
        assert page.locator("#totals td").all_inner_texts() == ["-1", "3", "-1", "-1"]
    finally:
        ctx.close()


def test_a_queued_hand_outlives_its_page_and_is_sent_once_from_two_tabs(browser, server):
    """No service worker: the hand queued without a network is in the page's own storage;
    the page closed, the next pages of the table (two tabs at once) send it, once."""
    base, app = server
    ctx, page = _wechat(browser, IOS)
    try:
        token = open_table(page, base)
        edit_url = page.url.split("?")[0]
        queued = queue_offline(ctx, page)
        assert page.get_attribute("#queue-badge .queued-nets", "data-nets") == "-1 +3 -1 -1"
        assert len(queued) == 1 and "/hands?" in queued[0]["url"]
        page.close()
        assert _hands(app, token) == []
        ctx.set_offline(False)
        one, two = ctx.new_page(), ctx.new_page()
        for p in (one, two):
            p.goto(edit_url, wait_until="commit")
        sent_once(app, token, (one, two), [-1, 3, -1, -1])
    finally:
        ctx.close()
