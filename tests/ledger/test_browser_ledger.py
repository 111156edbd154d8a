"""The ledger in a real browser (Playwright + Debian's Chromium), on SQLite and PostgreSQL.

An evening of 郑州 hands with 下跑, an editor and a viewer in two browser contexts; two
editors recording the same hand; and the main forms with JavaScript off. Amounts follow
RULES.md: ZZ-4 (each of the 3 others pays 底 × (1 + 跑_winner + 跑_payer)), ZZ-5 (暗杠: each
other pays 1 + 跑_konger + 跑_payer), ZZ-7 (the winner deals next, 荒庄 keeps the dealer).
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

NAMES = ["老王", "小李", "阿梅", "张师傅"]
WIN = "123m456p789s11122z"
LIVE_MS = 10_000


def new_page(browser, **kw):
    ctx = browser.new_context(locale="zh-CN", viewport={"width": 390, "height": 844},
                              accept_downloads=True, **kw)
    page = ctx.new_page()
    page.set_default_timeout(10_000)
    page.console_errors = []            # CSP violations and script errors land here
    page.on("console", lambda m: page.console_errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: page.console_errors.append(str(e)))
    return ctx, page


def open_table(page, base: str) -> str:
    page.goto(base + "/t/new")
    page.select_option("#variant", "zhengzhou")
    for i, n in enumerate(NAMES):
        page.fill(f"#n{i}", n)
    page.select_option("#dealer", "0")
    page.click("#new-table button.primary")
    page.wait_for_url("**/t/*?new=1")
    return page.url.split("/t/")[1].split("?")[0]


def totals(page) -> list[str]:
    return page.locator("#totals td").all_inner_texts()


def win(page, winner: int, pao=None, hand=WIN, kong=None, js=True):
    """Fill a hand in as typed text and record it. Without JavaScript the typed fields are
    sent with 分析 first: 记入 records only the state whose result the page shows."""
    if hand:
        open_tiles(page)
        page.fill("#hand", hand)
        open_more(page)
        page.fill("#winning_tile", "2z")
    page.select_option("#s_winner", str(winner))
    if pao is not None:
        for i, x in enumerate(pao):
            page.fill(f"input[name=s_pao{i}]", str(x))
    if kong is not None:
        open_kongs(page)
        page.locator("select[name=k_seat]").first.select_option(str(kong))
        page.locator("select[name=k_type]").first.select_option("concealed")
    if not js:
        press(page, "#analyse")
    press(page, "#record")


def open_tiles(page):
    """At a table the palette and the hand field fold into 输入手牌 (closed until tiles are
    wanted: one screen per hand, issue 36)."""
    if page.locator("#tiles").count() and page.get_attribute("#tiles", "open") is None:
        page.click("#tiles > summary")


def open_kongs(page):
    """At a table the kongs fold under the bets (open once a kong is listed)."""
    if page.locator("#kong-fold").count() and page.get_attribute("#kong-fold", "open") is None:
        page.click("#kong-fold > summary")


def open_more(page):
    """The typed inputs besides the hand (melds, winning tile, 胡法) sit in a folded section."""
    if page.get_attribute("#more", "open") is None:
        page.click("#more > summary")


def press(page, selector: str):
    """记入 or 荒庄: the browser posts the room's form (303 → the table page, or the page with
    what stopped it). Waits for that page (an htmx swap's pushed URL is no sign: with
    JavaScript the press first lets the room's last request finish)."""
    if selector == "#analyse":                  # without JavaScript: the GET form, sent
        with page.expect_navigation():
            page.click(selector)
        return
    with page.expect_response(lambda r: r.request.method == "POST", timeout=30_000) as info:
        page.click(selector)
    resp = info.value
    if resp.status == 303:
        where = resp.headers["location"].split("#")[0]
        page.wait_for_url(lambda u: u.split("#")[0].endswith(where))
    else:
        page.wait_for_url(lambda u: u.split("#")[0] == resp.url)
    page.wait_for_load_state()


def expect_live(viewer, want: list[str], dealer: str):
    from playwright.sync_api import expect

    for i, x in enumerate(want):
        expect(viewer.locator(f"#totals td[data-seat='{i}']")).to_have_text(x, timeout=LIVE_MS)
    expect(viewer.locator("#dealer-now")).to_have_text(dealer, timeout=LIVE_MS)


def test_an_evening_of_zhengzhou_hands(browser, server, tmp_path):
    from playwright.sync_api import expect

    base, app = server
    ledger = app.extensions["ledger"]
    ectx, ed = new_page(browser)
    vctx, viewer = new_page(browser)
    try:
        token = open_table(ed, base)
        view_url = ed.input_value("#view-link")
        assert token not in view_url
        viewer.goto(view_url)
        assert token not in viewer.content()
        assert viewer.locator("form[method=post]").count() == 0
        viewer.evaluate("window.__stillTheSamePage = true")
        statuses = []
        viewer.on("response", lambda r: statuses.append(r.status) if "/live" in r.url else None)
        expect_live(viewer, ["0", "0", "0", "0"], "老王")

        # 1: 小李 self-draws, 老王 跑1 → 老王 pays 2, the others 1 (ZZ-4)
        win(ed, 1, pao=[1, 0, 0, 0])
        expect_live(viewer, ["-2", "4", "-1", "-1"], "小李")
        # 2: the 跑 are offered again; 阿梅 wins, 张师傅 has a 暗杠 (ZZ-5)
        assert ed.input_value("input[name=s_pao0]") == "1"
        expect(ed.locator("#dealer-fixed")).to_contain_text("小李")     # the table's dealer
        win(ed, 2, kong=3)
        expect_live(viewer, ["-6", "2", "2", "2"], "阿梅")
        # 3: 荒庄 in one tap and a confirm: nothing paid, the dealer stays (ZZ-7)
        press(ed, ".draw-button")
        expect(ed.locator("#draw-confirm")).to_be_visible()
        press(ed, "#draw-yes")
        expect_live(viewer, ["-6", "2", "2", "2"], "阿梅")
        # 4: without tiles (未验牌): 张师傅 self-draws
        win(ed, 3, hand=None)
        expect_live(viewer, ["-8", "1", "1", "6"], "张师傅")
        expect(viewer.locator("#hand-4 .badge-unverified")).to_be_visible()
        # 5: 台费 20 paid by 老王, split evenly; the dealer stays
        ed.fill("#adj-amount", "20")
        ed.select_option("#adj-paid-by", "0")
        ed.fill("#adj-note", "台费")
        ed.click("#adjust-button")
        ed.wait_for_load_state()
        expect_live(viewer, ["7", "-4", "-4", "1"], "张师傅")
        # 6-9: 跑 back to 0
        win(ed, 0, pao=[0, 0, 0, 0])
        expect_live(viewer, ["10", "-5", "-5", "0"], "老王")
        win(ed, 1)
        win(ed, 1)
        win(ed, 2)
        expect_live(viewer, ["7", "0", "-4", "-3"], "阿梅")
        assert ledger.table(token)["next_number"] == 10

        # void hand 9: counted no more, the dealer goes back to 小李
        ed.locator("#hand-9 input[name=reason]").fill("记错人了")
        ed.locator("#hand-9 .void-form button").click()
        ed.wait_for_load_state()
        expect_live(viewer, ["8", "1", "-7", "-2"], "小李")
        expect(viewer.locator("#hand-9.voided .void-reason")).to_contain_text("记错人了")

        # correct hand 7: 阿梅 won it, not 小李 → hand 8 (dealt by 小李) is flagged
        ed.locator("#hand-7 .hand-actions a").click()
        ed.wait_for_url("**correct=7**")
        assert ed.input_value("#hand") == WIN
        ed.select_option("#s_winner", "2")
        press(ed, "#record")
        expect_live(viewer, ["8", "-3", "-3", "-2"], "小李")
        expect(viewer.locator("#hand-8 .badge-flag")).to_be_visible(timeout=LIVE_MS)
        expect(viewer.locator("#hand-7 .revisions")).to_contain_text("第 1 版")
        assert viewer.locator("#hand-7 .badge-flag").count() == 0
        expect(viewer.locator("#settle-up li")).to_have_text(
            ["小李 付给 老王 3", "阿梅 付给 老王 3", "张师傅 付给 老王 2"], timeout=LIVE_MS)
        expect(viewer.locator(".chart img")).to_be_visible()
        assert viewer.evaluate("window.__stillTheSamePage") is True    # never reloaded
        assert 200 in statuses                                         # each change came in
        viewer.wait_for_event("response", lambda r: "/live" in r.url and r.status == 304,
                              timeout=LIVE_MS)                   # no change: 304, no swap
        assert viewer.evaluate("window.__stillTheSamePage") is True

        t = ledger.table(token)
        assert t["totals"] == [8, -3, -3, -2]
        assert [h["dealer"] for h in t["hands"] if h["kind"] == "hand"] == \
            [0, 1, 2, 2, 3, 0, 1, 1]
        assert [h["number"] for h in t["hands"] if h["dealer_flag"]] == [8]

        # CSV: one row per payment of the counted entries, with a BOM
        with ed.expect_download() as dl:
            ed.click("#export-csv")
        raw = Path(dl.value.path()).read_bytes()
        assert raw.startswith(b"\xef\xbb\xbf")
        rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig"))))
        entries = rows[1:rows.index([])]          # then the totals and the settle-up
        counted = [h for h in t["hands"] if h["status"] == "recorded"]
        # a row per payment of a counted entry, one for an entry without any (荒庄, voided)
        assert len(entries) == sum(len(h["settlement"]["payments"]) or 1 for h in counted) \
            + len(t["hands"]) - len(counted)
        assert ["老王", "小李", "阿梅", "张师傅"] == NAMES and "台费" in raw.decode("utf-8-sig")
        paid = {n: 0 for n in NAMES}
        for r in entries:
            if r[9]:
                paid[r[7]] -= float(r[9])
                paid[r[8]] += float(r[9])
        assert [paid[n] for n in NAMES] == [8, -3, -3, -2]
        assert next(r for r in rows if r[:1] == ["合计"])[1:] == ["8", "-3", "-3", "-2"]

        # JSON round trip: export, import into a new table, identical totals and hands
        with ed.expect_download() as dl:
            ed.click("#export-json")
        doc = tmp_path / "table.json"
        dl.value.save_as(doc)
        json.loads(doc.read_text(encoding="utf-8"))
        ed.goto(base + "/t/new")
        ed.set_input_files("#file", str(doc))
        ed.click("#import-form button")
        ed.wait_for_url("**/t/*?new=1")
        new_token = ed.url.split("/t/")[1].split("?")[0]
        assert new_token != token
        assert totals(ed) == ["8", "-3", "-3", "-2"]
        copy = ledger.table(new_token)
        keys = ("number", "kind", "status", "dealer", "dealer_flag", "verified", "request",
                "settlement", "revision", "void_reason")
        assert [{k: h.get(k) for k in keys} for h in copy["hands"]] == \
            [{k: h.get(k) for k in keys} for h in t["hands"]]
        assert copy["settle_up"] == t["settle_up"] and copy["dealer"] == t["dealer"]
        assert ed.console_errors == [] and viewer.console_errors == []   # CSP-clean
    finally:
        ectx.close()
        vctx.close()


def test_two_clients_record_the_same_hand(browser, server):
    from playwright.sync_api import expect

    base, app = server
    actx, a = new_page(browser)
    bctx, b = new_page(browser)
    try:
        token = open_table(a, base)
        b.goto(a.url.split("?")[0])
        for page, winner in ((a, 1), (b, 2)):             # both fill hand 1 in
            open_tiles(page)
            page.fill("#hand", WIN)
            open_more(page)
            page.fill("#winning_tile", "2z")
            page.select_option("#s_winner", str(winner))
        press(a, "#record")
        press(b, "#record")
        expect(b.locator("#conflict")).to_contain_text("第 1 手已经有人记了")
        expect(b.locator("#hand-1")).to_contain_text("小李")      # the hand A recorded
        assert b.input_value("#hand") == WIN                     # B's input is kept
        assert [h["request"]["settlement"]["winner"]
                for h in app.extensions["ledger"].table(token)["hands"]] == [1]
        # seen the conflict, B records it as the next hand: it really was another one
        press(b, "#record")
        assert [h["request"]["settlement"]["winner"]
                for h in app.extensions["ledger"].table(token)["hands"]] == [1, 2]
    finally:
        actx.close()
        bctx.close()


def test_forms_without_javascript(browser, server):
    from playwright.sync_api import expect

    base, app = server
    ctx, page = new_page(browser, java_script_enabled=False)
    try:
        page.goto(base + "/t/new")
        page.select_option("#variant", "panjin")
        page.click("button[name=pick]")                          # shows 盘锦's options
        expect(page.locator("#opt_jiagang")).to_be_attached()
        page.select_option("#variant", "zhengzhou")
        page.click("button[name=pick]")
        token = open_table(page, base)
        win(page, 1, pao=[1, 0, 0, 0], js=False)
        assert totals(page) == ["-2", "4", "-1", "-1"]
        # 记入 right after typing: the typed fields are not what the page showed, so nothing
        # is recorded; the page now shows their result (here: the bad tile) to check
        open_tiles(page)
        page.fill("#hand", "123m456p789s1112x")                   # a bad tile
        page.select_option("#s_winner", "2")
        press(page, "#record")
        expect(page.locator("#entry-general")).to_contain_text("没有记入")
        expect(page.locator("#hand-error")).to_be_visible()
        assert app.extensions["ledger"].table(token)["next_number"] == 2
        assert page.input_value("#hand") == "123m456p789s1112x"
        press(page, ".draw-button")
        press(page, "#draw-yes")
        assert app.extensions["ledger"].table(token)["next_number"] == 3
        page.goto(page.input_value("#view-link"))
        assert totals(page) == ["-2", "4", "-1", "-1"]
        assert token not in page.content()
    finally:
        ctx.close()


EN_NAMES = ["Wang", "Li", "Mei", "Zhang"]

#: the text a reader sees, outside tile faces and elements marked as Chinese (the language
#: switch names 中文 in Chinese)
SHOWN_TEXT = """() => {
  const out = [];
  const walk = (el) => {
    if (el.classList && el.classList.contains('tile')) return;
    if ((el.getAttribute && el.getAttribute('lang') || '').startsWith('zh')) return;
    if (['SCRIPT', 'STYLE', 'TEMPLATE'].includes(el.tagName)) return;
    for (const n of el.childNodes) {
      if (n.nodeType === 3) out.push(n.textContent);
      else if (n.nodeType === 1) walk(n);
    }
    for (const a of ['placeholder', 'title', 'aria-label', 'alt']) {
      if (el.getAttribute && el.getAttribute(a)) out.push(el.getAttribute(a));
    }
  };
  walk(document.body);
  return out.join('\\n');
}"""


# JavaScript off: the same forms are posted without a browser in test_pages*.py, and
# the no-JS ledger journey in a browser is test_browser_room.py's palette taps (docs/TESTING.md)
@pytest.mark.parametrize("js", [True], ids=["js"])
def test_english_ledger_page(browser, server, js):
    """The English table page, JavaScript on and off: a win with 跑 and a kong, a
    fee, a bad tile; the details, the error and every label read in English, with no Chinese
    outside the tile faces; the view page too."""
    import re

    from playwright.sync_api import expect

    from tests.browsers import SCREENSHOTS

    base, app = server
    ctx = browser.new_context(locale="en-US", viewport={"width": 390, "height": 844},
                              java_script_enabled=js)
    page = ctx.new_page()
    page.set_default_timeout(10_000)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(base + "/t/new")
        expect(page.locator("html")).to_have_attribute("lang", "en")
        page.select_option("#variant", "zhengzhou")
        if not js:
            page.click("button[name=pick]")
        for i, n in enumerate(EN_NAMES):
            page.fill(f"#n{i}", n)
        page.click("#new-table button.primary")
        page.wait_for_url("**/t/*?new=1")
        # 1: Li self-draws, Wang bets pao 1 (ZZ-4: Wang pays 1+1, the others 1); Zhang has a
        # concealed kong (ZZ-5 with the room's "kongs pay pao": Wang pays 1+1, the others 1)
        win(page, 1, pao=[1, 0, 0, 0], kong=3, js=js)
        assert totals(page) == ["-4", "3", "-2", "3"]
        # a fee of 20 paid by Wang, split evenly
        page.fill("#adj-amount", "20")
        page.select_option("#adj-paid-by", "0")
        page.click("#adjust-button")
        page.wait_for_load_state()
        assert totals(page) == ["11", "-2", "-7", "-2"]
        # a tile the app cannot read: an English error under the hand, what was typed kept
        open_tiles(page)
        page.fill("#hand", "123m456p789s1112x")
        page.select_option("#s_winner", "2")
        if js:
            page.click("#record")
        else:
            press(page, "#record")
        expect(page.locator("#hand-error")).to_contain_text('character 17 "x" is not a tile')
        assert page.input_value("#hand") == "123m456p789s1112x"
        page.locator("#hand-1 details.payments summary").click()
        expect(page.locator("#hand-1 details.payments")).to_contain_text(
            "Li self-draw: base 1 ×(1+pao 0+pao 1) = 2")     # the players, not the seats
        expect(page.locator("#hand-1 details.payments")).to_contain_text(
            "Zhang concealed kong: base 1 ×(1+pao 0+pao 1) = 2")
        page.locator("#hand-2 details.payments summary").click()
        expect(page.locator("#hand-2 details.payments")).to_contain_text(
            "Table fee 20: paid by Wang, split evenly between the four, 5 each")
        shown = page.evaluate(SHOWN_TEXT)
        assert not re.findall(r"[\u3400-\u9fff]+", shown), re.findall(r".*[\u3400-\u9fff].*",
                                                                       shown)[:10]
        SCREENSHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"ledger-en-{'js' if js else 'nojs'}-390x844.png"),
                        full_page=True)
        page.goto(page.input_value("#view-link"))
        assert totals(page) == ["11", "-2", "-7", "-2"]
        shown = page.evaluate(SHOWN_TEXT)
        assert not re.findall(r"[\u3400-\u9fff]+", shown), shown[:2000]
        assert errors == []
    finally:
        ctx.close()


# JavaScript off: the same forms are posted without a browser in test_pages*.py, and
# the no-JS ledger journey in a browser is test_browser_room.py's palette taps (docs/TESTING.md)
@pytest.mark.parametrize("js", [True], ids=["js"])
def test_the_winners_kong_in_the_melds_is_counted(browser, server, js):
    """The kong repro of tests/ledger/test_entry_room.py typed into the table page, JavaScript
    on and off: 南家 self-draws 123m456p789s22z with 暗杠1111z in 副露, 跑 1/2/0/3, 西家 has a
    明杠 北家 supplied. ZZ-4 + ZZ-5 (跑 on kongs): net [-8, +26, -2, -16], as the calculator
    and the API say (the ledger used to record [-4, +13, +1, -10], without the kong).
    Then a hand that is no win: the form keeps the melds and says the 暗杠 is counted from
    them, and 谁杠's blank row leaves the winner out; and a 明杠 typed without its supplier:
    the page asks who supplied it, and the answer goes into the melds."""
    from playwright.sync_api import expect

    base, app = server
    ledger = app.extensions["ledger"]
    ctx, page = new_page(browser, java_script_enabled=js)
    try:
        token = open_table(page, base)

        def enter(hand, winning, melds, pao, kong_row=None):
            open_tiles(page)
            page.fill("#hand", hand)
            open_more(page)
            page.fill("#winning_tile", winning)
            page.fill("#melds", melds)
            page.select_option("#s_winner", "1")
            for i, x in enumerate(pao):
                page.fill(f"input[name=s_pao{i}]", str(x))
            if kong_row is not None:
                seat, typ, supplier = kong_row
                open_kongs(page)
                page.locator("select[name=k_seat]").first.select_option(seat)
                page.locator("select[name=k_type]").first.select_option(typ)
                page.locator("select[name=k_from]").first.select_option(supplier)
            if not js:
                press(page, "#analyse")
            press(page, "#record")

        enter("123m456p789s22z", "2z", "暗杠1111z", [1, 2, 0, 3], ("2", "exposed", "3"))
        assert [h["settlement"]["net"] for h in ledger.table(token)["hands"]] == \
            [[-8, 26, -2, -16]]
        assert totals(page) == ["-8", "26", "-2", "-16"]

        # no win (a tile short of the pair): 422, the melds kept and their kong shown as
        # counted; the blank kong row offers 东 西 北 only
        enter("123m456p789s23z", "3z", "暗杠1111z", [0, 0, 0, 0])
        expect(page.locator(".winner-kongs")).to_contain_text("胡牌者的杠（来自副露，已计入）")
        expect(page.locator(".winner-kong")).to_have_count(1)
        assert page.input_value("#melds") == "暗杠1111z"
        row = page.locator(".kong-new select[name=k_seat] option")
        assert row.evaluate_all("os => os.map(o => o.value)") == ["", "0", "2", "3"]
        assert ledger.table(token)["next_number"] == 2

        # a 明杠 without its supplier: asked (ZZ-5: that seat pays), then counted
        enter("123m456p789s22z", "2z", "明杠1111z", [1, 2, 0, 3])
        expect(page.locator("#s_wkongs-error")).to_be_visible()
        assert ledger.table(token)["next_number"] == 2
        page.select_option("select[name=meld_src]", "0:3")
        if not js:
            press(page, "#analyse")
        press(page, "#record")
        h = ledger.table(token)["hands"][1]
        assert h["request"]["melds"] == [{"type": "kong", "tiles": "1111z", "from": 3}]
        assert h["settlement"]["net"] == [-4, 19, -3, -12]     # 北家 pays the 明杠: 1+2+3
        # no script error, no CSP violation (the two 422 answers are logged as such)
        assert [e for e in page.console_errors if "status of 422" not in e] == []
    finally:
        ctx.close()


@pytest.mark.parametrize("js", [True, False], ids=["js", "nojs"])
def test_a_refused_adjustment_keeps_what_was_typed(browser, server, js):
    """iOS WeChat, its cookies cleared between loading the page and 记入调整: a penalty of
    "5元" comes back with the error at the page's top and under 金额, and the kind, amount,
    seats and note as typed (before: a blank form); fixed to 5, it records 阿梅 → 张师傅 5."""
    from playwright.sync_api import expect

    from tests.browsers import WECHAT_IOS

    base, app = server
    ctx, page = new_page(browser, user_agent=WECHAT_IOS, service_workers="block",
                         java_script_enabled=js)
    try:
        token = open_table(page, base)
        page.check("input[name=kind][value=payment]")
        page.fill("#adj-amount", "5元")
        page.select_option("#adj-from", "2")
        page.select_option("#adj-to", "3")
        page.fill("#adj-note", "诈和")
        ctx.clear_cookies()
        page.click("#adjust-button")
        page.wait_for_load_state()
        # the page opens at its top: the error is said there, and again under 金额
        expect(page.locator("p.alert[role=alert]").first).to_have_text("金额：请填正数，例如 20。")
        expect(page.locator("p.alert[role=alert]").first).to_be_in_viewport()
        expect(page.locator("#adj-amount-error")).to_have_text("金额：请填正数，例如 20。")
        assert page.input_value("#adj-amount") == "5元"
        assert page.input_value("#adj-note") == "诈和"
        assert page.is_checked("input[name=kind][value=payment]")
        assert (page.input_value("#adj-from"), page.input_value("#adj-to")) == ("2", "3")
        assert app.extensions["ledger"].table(token)["hands"] == []
        page.fill("#adj-amount", "5")
        page.click("#adjust-button")
        page.wait_for_load_state()
        expect(page.locator("#totals td")).to_have_text(["0", "0", "-5", "5"])
    finally:
        ctx.close()


@pytest.mark.parametrize("js", [True, False], ids=["js", "nojs"])
def test_a_rule_set_the_app_cannot_read_is_refused_under_its_select(browser, server, js):
    """新开一桌 sent with a rule set the app does not know (a stale or hand-made form: here
    the page's select is given a "NaN" option on its way to the browser) comes back with the
    error under 玩法 quoting it, the names as typed, and no table (it opened a 郑州 table
    before)."""
    from playwright.sync_api import expect

    from .test_pages import tables_made

    base, app = server
    ctx, page = new_page(browser, java_script_enabled=js)

    def stale_select(route):
        if route.request.method != "GET":
            route.continue_()
            return
        got = route.fetch()
        html = got.text().replace('<select id="variant" name="variant">',
                                  '<select id="variant" name="variant">'
                                  '<option value="NaN">NaN</option>', 1)
        route.fulfill(response=got, body=html)

    try:
        page.route("**/t/new", stale_select)
        page.goto(base + "/t/new")
        page.select_option("#variant", "NaN")
        for i, n in enumerate(NAMES):
            page.fill(f"#n{i}", n)
        page.click("#new-table button.primary")
        page.wait_for_load_state()
        expect(page.locator("#variant-error")).to_have_text("没有这个玩法“NaN”：请从列表中选择。")
        assert page.get_attribute("#variant", "aria-invalid") == "true"
        assert [page.input_value(f"#n{i}") for i in range(4)] == NAMES
        assert "/t/new" in page.url and tables_made(app) == 0
    finally:
        ctx.close()


#: every element that spills past its box or the 390-px page (text drawn over a neighbour)
SPILLED = """() => { const W = document.documentElement.clientWidth, out = [];
  for (const el of document.querySelectorAll('#live-top *, #live *, .done *')) {
    const r = el.getBoundingClientRect();
    if (!r.width) continue;
    if (r.right > W + 1 || (getComputedStyle(el).overflowX === 'visible'
                            && el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0))
      out.push(el.tagName + '.' + el.className + ' ' + (el.textContent || '').trim().slice(0, 20));
  }
  return [document.documentElement.scrollWidth, out]; }"""


def test_long_totals_stay_in_their_cells_at_390px(browser, server):
    """Base 100, three 跑-3 self-draws and a 台费 of 3.33 split four ways: totals such as
    -2097.5025 were drawn over the neighbouring seat's (the cells' text did not wrap) and
    pushed the page to 404 px, the big totals to 761 px; a long name in the line that says
    a hand was recorded ran off the screen. At most 16-character names (the form's cap) and
    the whole base range (up to 10^9) still fit."""
    base, app = server
    client = app.test_client()
    for spec, names in ((100, ["张三", "李四", "王五", "赵六"]),
                        (10 ** 9, ["欧阳" * 8, "W" * 16, "王五", "😀" * 8])):
        r = client.post("/api/v1/tables", json={"variant": "zhengzhou", "names": names,
                                                "base": spec})
        token = r.json["edit_token"]
        for _ in range(3):
            assert client.post(f"/api/v1/tables/{token}/hands", json={
                "hand": WIN, "winning_tile": "2z", "win_by": "self_draw",
                "settlement": {"winner": 1, "pao": [3, 3, 3, 3]}}).status_code == 201
        assert client.post(f"/api/v1/tables/{token}/hands", json={
            "adjustment": {"fee": 3.33, "paid_by": 0}}).status_code == 201
        ctx, page = new_page(browser)
        try:
            for url in (f"/t/{token}?done=3", f"/t/{token}?lang=en&done=3", f"/t/{token}#big"):
                page.goto(base + url)
                width, spilled = page.evaluate(SPILLED)
                assert (width, spilled) == (390, []), url
        finally:
            ctx.close()


#: the chart's legend entries as drawn: each text's box, its box's, and the picture's width
LEGEND_BOXES = """() => {
  const svg = document.querySelector('svg');
  return [svg.getBoundingClientRect().width,
          [...document.querySelectorAll('.legends .legend')].map(g => {
            const t = g.querySelector('text').getBoundingClientRect(),
                  b = g.querySelector('rect').getBoundingClientRect();
            return [b.left, t.right, t.top, t.bottom, g.querySelector('text').textContent]; })]; }"""


@pytest.mark.parametrize("names", [NAMES, ["Grandma Li", "隔壁老王叔叔", "Uncle Bob", "小张同学"],
                                   ["欧阳" * 8, "W" * 16, "王五", "😀" * 8]])
def test_the_charts_legend_names_do_not_run_into_each_other(browser, server, names):
    """The chart under the totals names each seat under the plot. Four to a row on a 390-px
    picture, a name longer than about five Chinese characters (or nine letters) ran into the
    next one ("Grandma Li" into "隔壁老王叔叔"): each name now keeps to its own place (four
    a row when all four fit, else two), cut with … when it must be, inside the picture."""
    base, app = server
    client = app.test_client()
    token = client.post("/api/v1/tables", json={"variant": "zhengzhou",
                                                "names": names}).json["edit_token"]
    for winner in range(2):
        assert client.post(f"/api/v1/tables/{token}/hands", json={
            "hand": WIN, "winning_tile": "2z", "win_by": "self_draw",
            "settlement": {"winner": winner}}).status_code == 201
    ctx, page = new_page(browser)
    try:
        page.goto(base + f"/t/{token}/chart.svg")
        width, legends = page.evaluate(LEGEND_BOXES)
        assert len(legends) == 4
        rows = len({round(top) for _, _, top, _, _ in legends})
        assert rows == (1 if names == NAMES else 2)
        for left, right, top, bottom, text in legends:
            assert right <= width, text
            for left2, _, top2, bottom2, text2 in legends:
                same_row = top < bottom2 and top2 < bottom
                if same_row and left2 > left:
                    assert right <= left2, (text, text2)
    finally:
        ctx.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_correction_form_and_the_drawn_game_confirm_fit_390px(browser, server, lang):
    """Two pages a scorer meets on the phone that were wider than it, in English: the
    correction of a 晋城 hand between named seats (its payment rows did not wrap: 398 px)
    and the 荒庄 confirm, whose "No, back to the entry" ran off its panel (392 px)."""
    import re

    base, app = server
    client = app.test_client()
    token = client.post("/api/v1/tables", json={
        "variant": "jincheng",
        "names": ["Grandma Li", "隔壁老王叔叔", "Uncle Bob", "小张同学"]}).json["edit_token"]
    assert client.post(f"/api/v1/tables/{token}/hands", json={
        "hand": WIN, "winning_tile": "2z", "win_by": "self_draw",
        "settlement": {"winner": 1}}).status_code == 201
    ctx, page = new_page(browser)
    try:
        page.goto(base + f"/t/{token}?correct=1&lang={lang}")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.goto(base + f"/t/{token}?lang={lang}")
        page.click("#draw")
        page.wait_for_url(re.compile(r"/draw"))
        page.wait_for_load_state()
        assert page.locator("#draw-no").count() == 1
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert page.evaluate("() => { const a = document.querySelector('#draw-no')"
                             ".getBoundingClientRect(), p = document.querySelector("
                             "'#draw-confirm').getBoundingClientRect();"
                             " return a.right <= p.right; }")
    finally:
        ctx.close()


@pytest.mark.parametrize("ua", ["ios", "android"])
@pytest.mark.parametrize("js", [True, False], ids=["js", "nojs"])
def test_back_after_recording_and_record_again_records_nothing(browser, server, js, ua):
    """WeChat, a hand recorded, then the back button and a deliberate 记入 again: the same
    entry (its idempotency key rides in the page's URL), so nothing is recorded a second
    time and the page says the hand was recorded already, showing it; a new hand with the
    same tiles, typed after, records (before: hand 2, the same hand again)."""
    from playwright.sync_api import expect

    from tests.browsers import WECHAT_UAS

    base, app = server
    ctx, page = new_page(browser, user_agent=WECHAT_UAS[ua], service_workers="block",
                         java_script_enabled=js)
    try:
        token = open_table(page, base)
        win(page, 1, js=js)
        expect(page.locator("#done")).to_contain_text("第 1 手已记入")
        page.go_back()
        page.wait_for_load_state()
        assert page.input_value("#hand") == WIN
        press(page, "#record")
        expect(page.locator("#done")).to_contain_text(
            "这一手已经记过了，是第 1 手：这次没有再记一遍。")
        expect(page.locator("#done .done-net").first).to_have_text("老王 -1")
        assert [h["number"] for h in app.extensions["ledger"].table(token)["hands"]] == [1]
        win(page, 1, js=js)                             # a new hand, the same tiles
        expect(page.locator("#done")).to_contain_text("第 2 手已记入")
        assert [h["request"]["hand"] for h in
                app.extensions["ledger"].table(token)["hands"]] == [WIN, WIN]
    finally:
        ctx.close()


@pytest.mark.parametrize("ua", ["ios", "android"])
@pytest.mark.parametrize("js", [True, False], ids=["js", "nojs"])
def test_back_after_an_undo_and_record_says_it_was_undone(browser, server, js, ua):
    """WeChat (iOS: no service worker; Android: the app's worker running): a hand recorded,
    撤销, then the back button to the entry and 记入: the entry's key recorded the undone
    hand, so nothing is recorded and the page says the hand was undone (before: "这一手已经
    记过了，是第 1 手" over its nets, a hand counted nowhere); the entry is kept with the next
    number, and 记入 again records it (entry 2)."""
    from playwright.sync_api import expect

    from tests.browsers import SCREENSHOTS, WECHAT_UAS

    base, app = server
    ctx, page = new_page(browser, user_agent=WECHAT_UAS[ua],
                         service_workers="block" if ua == "ios" else "allow",
                         java_script_enabled=js)
    try:
        token = open_table(page, base)
        if ua == "android" and js:                  # the app's worker registered and ready
            assert page.evaluate("navigator.serviceWorker.ready.then(r => !!r.active)")
        win(page, 1, js=js)
        expect(page.locator("#done")).to_contain_text("第 1 手已记入")
        press(page, "#hand-1 #undo")
        expect(page.locator("#hand-1 .badge-void")).to_have_text("已撤销")
        while "idempotency_key=" not in page.url:      # back to the entry page
            page.go_back()
            page.wait_for_load_state()
        assert page.input_value("#hand") == WIN
        with page.expect_response(lambda r: r.request.method == "POST") as info:
            page.click("#record")
        assert info.value.status == 409
        page.wait_for_load_state()
        expect(page.get_by_text("是第 1 手，已经撤销了：这次什么也没有记。")).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.screenshot(path=str(SCREENSHOTS / f"ledger-back-after-undo-{ua}-"
                                                f"{'js' if js else 'nojs'}-390x844.png"))
        ledger = app.extensions["ledger"]
        assert [h["status"] for h in ledger.table(token)["hands"]] == ["voided"]
        press(page, "#record")              # entry 2, the first hand counted: 第 1 手
        expect(page.locator("#done")).to_contain_text("第 1 手已记入")
        assert [h["status"] for h in ledger.table(token)["hands"]] == ["voided", "recorded"]
        # the 409 page is logged as a failed load; nothing else
        assert [e for e in page.console_errors if "409 (CONFLICT)" not in e] == []
    finally:
        ctx.close()
