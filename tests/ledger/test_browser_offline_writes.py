"""Writes the table page does not queue, pressed without a network in iOS WeChat (no service
worker), in a real browser (Playwright + Debian's Chromium) at 390×844 with JavaScript on: an
adjustment, a void, an undo and a correction stay on the page, with what was typed, and a
message under the form says in the page's language that it was not recorded (before, each
went to the browser's error page and what was typed was gone). Back online, the same press
records it. docs/decisions.md "Offline writes that are not queued" says why these are not
queued. Without JavaScript a form post offline is the browser's own error page: nothing
the page can do."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

NAMES = ["老王", "小李", "阿梅", "张师傅"]
NOT_RECORDED = {
    "zh": "没有网络：这一笔没有记入，填写的内容还在。有网络后再按一次。",
    "en": "No network: this was not recorded; what you typed is still here. "
          "Press again when the network is back.",
}


def _context(browser, lang: str):
    from tests.browsers import WECHAT_IOS

    ctx = browser.new_context(locale="zh-CN" if lang == "zh" else "en-US",
                              viewport={"width": 390, "height": 844}, user_agent=WECHAT_IOS,
                              service_workers="block", accept_downloads=False, has_touch=True)
    page = ctx.new_page()
    page.set_default_timeout(10_000)
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return ctx, page


def _free_table_with_one_hand(page, base: str, lang: str) -> str:
    q = "?lang=en" if lang == "en" else ""
    page.goto(base + "/t/new" + q)
    page.select_option("#variant", "free")
    for i, n in enumerate(NAMES):
        page.fill(f"#n{i}", n)
    with page.expect_navigation():
        page.click("#new-table button.primary")
    token = page.url.split("/t/")[1].split("?")[0]
    for i, x in enumerate(["30", "-10", "-10", "-10"]):
        page.fill(f"#free-p{i}", x)
    with page.expect_navigation():
        page.click("#free-record")
    return token


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_offline_writes_that_are_not_queued_stay_on_the_page_and_say_so(browser, server, lang):
    from tests.browsers import SCREENSHOTS

    base, app = server
    ledger = app.extensions["ledger"]
    ctx, page = _context(browser, lang)
    try:
        token = _free_table_with_one_hand(page, base, lang)
        url = page.url
        ctx.set_offline(True)
        page.wait_for_function("() => !navigator.onLine")

        # an adjustment: 台费 20 paid by 小李
        page.check("input[name=kind][value=fee]")
        page.fill("#adj-amount", "20")
        page.select_option("#adj-paid-by", "1")
        page.fill("#adj-note", "台费")
        page.click("#adjust-button")
        alert = page.locator("#adjust-form .offline-not-recorded")
        alert.wait_for()
        assert alert.inner_text() == NOT_RECORDED[lang]
        assert alert.get_attribute("role") == "alert"
        assert page.url == url                             # not the browser's error page
        assert (page.input_value("#adj-amount"), page.input_value("#adj-paid-by"),
                page.input_value("#adj-note")) == ("20", "1", "台费")
        alert.scroll_into_view_if_needed()
        page.screenshot(path=str(SCREENSHOTS / f"offline-adjust-not-recorded-{lang}.png"))

        # a void of hand 1, with its reason typed
        page.fill(".void-form input[name=reason]", "打错了")
        page.click(".void-form button")
        row_note = page.locator(".hand-actions + .offline-not-recorded")   # under the row
        row_note.wait_for()
        assert row_note.inner_text() == NOT_RECORDED[lang]
        assert page.input_value(".void-form input[name=reason]") == "打错了"

        # the undo of hand 1
        page.evaluate("document.querySelector('.hand-actions + .offline-not-recorded').remove()")
        page.click("#undo")
        row_note.wait_for()
        assert row_note.inner_text() == NOT_RECORDED[lang]
        assert page.url == url
        page.locator(".hand-actions").first.scroll_into_view_if_needed()
        page.screenshot(path=str(SCREENSHOTS / f"offline-void-undo-not-recorded-{lang}.png"))

        ledger.forget_cached()
        t = ledger.table(token)
        assert [h["kind"] for h in t["hands"]] == ["points"]
        assert [h["status"] for h in t["hands"]] == ["recorded"]
        assert t["totals"] == [30, -10, -10, -10]

        # back online, the same press records what is still typed
        ctx.set_offline(False)
        page.wait_for_function("() => navigator.onLine")
        with page.expect_navigation():
            page.click("#adjust-button")
        ledger.forget_cached()
        t = ledger.table(token)
        assert [h["kind"] for h in t["hands"]] == ["points", "adjustment"]
        assert t["totals"] == [25, 5, -15, -15]    # 小李 paid 20 for the table: 5 from each
        assert page.locator(".offline-not-recorded").count() == 0
        assert page.errors == []
    finally:
        ctx.close()


def test_an_offline_correction_stays_on_the_page(browser, server):
    """A correction posts to /hands/<n>, which neither the page's queue nor a worker keeps:
    offline it stays, with the amounts typed and the message."""
    from tests.browsers import SCREENSHOTS

    base, app = server
    ledger = app.extensions["ledger"]
    ctx, page = _context(browser, "zh")
    try:
        token = _free_table_with_one_hand(page, base, "zh")
        page.goto(base + f"/t/{token}?correct=1")
        ctx.set_offline(True)
        page.wait_for_function("() => !navigator.onLine")
        url = page.url
        for i, x in enumerate(["12", "-4", "-4", "-4"]):
            page.fill(f"#free-p{i}", x)
        page.click("#free-record")
        alert = page.locator("#free-form .offline-not-recorded")
        alert.wait_for()
        assert alert.inner_text() == NOT_RECORDED["zh"]
        assert page.url == url
        assert [page.input_value(f"#free-p{i}") for i in range(4)] == ["12", "-4", "-4", "-4"]
        page.screenshot(path=str(SCREENSHOTS / "offline-correction-not-recorded-zh.png"))
        ledger.forget_cached()
        assert ledger.table(token)["hands"][0]["settlement"]["net"] == [30, -10, -10, -10]
        assert page.errors == []
    finally:
        ctx.close()
