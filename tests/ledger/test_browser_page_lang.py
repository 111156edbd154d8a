"""The ledger's forms keep the page's language in a real browser (Playwright + Debian's
Chromium), JavaScript on and off: a Chinese phone (locale zh-CN, so Accept-Language zh)
opens /t/new?lang=en (a shared link, the language switch), opens a table, changes a setting,
posts a bad adjustment, then a fee, then 撤销: every page after is English
(``<html lang="en">``), its address still ``?lang=en``. Before, each form posted to a bare
URL and the page after was the phone's Chinese. The same forms without a browser, every one
of them: tests/ledger/test_table_room.py ("the page's language, kept by every form").

Amounts: a fee of 20 paid by 东 (East) is split evenly between the four, 5 each: East +15,
each other seat -5 (docs/LEDGER.md, adjustments)."""

from __future__ import annotations

import re

import pytest

from tests.browsers import SCREENSHOTS, _page

pytestmark = pytest.mark.browser

EN_NAMES = ["Wang", "Li", "Mei", "Zhang"]
CJK = re.compile(r"[\u3400-\u9fff]")


def _posted(page, selector: str) -> None:
    """Click the submit button ``selector`` and wait for the page the browser loads."""
    with page.expect_navigation():
        page.click(selector)


def _english(page) -> None:
    """The page is English though the phone is Chinese, and its address keeps ``lang=en``."""
    from playwright.sync_api import expect

    expect(page.locator("html")).to_have_attribute("lang", "en")
    assert "lang=en" in page.url, page.url


@pytest.mark.parametrize("js", [False, True], ids=["nojs", "js"])
def test_the_english_table_page_stays_english_on_a_chinese_phone(browser, server, js):
    from playwright.sync_api import expect

    base, app = server
    ctx, page = _page(browser, base, locale="zh-CN", java_script_enabled=js,
                      viewport={"width": 390, "height": 844})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(base + "/t/new?lang=en")
        _english(page)
        page.select_option("#variant", "zhengzhou")
        if not js:                       # "Show its options": a GET, lang kept as a field
            _posted(page, "button[name=pick]")
            _english(page)
        for i, n in enumerate(EN_NAMES):
            page.fill(f"#n{i}", n)
        _posted(page, "#new-table button.primary")
        page.wait_for_url("**/t/*?lang=en&new=1")
        _english(page)
        token = page.url.split("/t/")[1].split("?")[0]
        ledger = app.extensions["ledger"]
        assert ledger.table(token)["names"] == EN_NAMES
        # the setting: 跑 and 加钢 start every hand with none; 303 → the links, in English
        page.check("input[name=carry_bets][value=reset]")
        _posted(page, "#settings-button")
        _english(page)
        assert page.url.endswith("#links")
        assert ledger.table(token)["carry_bets"] == "reset"
        expect(page.locator("#settings-form")).to_contain_text("Start every hand with none")
        # an amount the ledger cannot read: 422, the error in English under the amount
        page.fill("#adj-amount", "abc")
        _posted(page, "#adjust-button")
        _english(page)
        expect(page.locator("#adj-amount-error")).to_have_text(
            "Amount: write a positive number, such as 20.")
        assert page.input_value("#adj-amount") == "abc"
        assert ledger.table(token)["hands"] == []
        # a fee of 20 paid by East: split evenly, 5 each; the page after is English
        page.fill("#adj-amount", "20")
        page.select_option("#adj-paid-by", "0")
        _posted(page, "#adjust-button")
        _english(page)
        assert page.locator("#totals td").all_inner_texts() == ["15", "-5", "-5", "-5"]
        expect(page.locator("#hand-1")).to_contain_text("Fee 20 paid by Wang, split evenly")
        # 撤销 the fee: the totals are back to nothing, the page still English
        _posted(page, "#undo")
        _english(page)
        assert page.locator("#totals td").all_inner_texts() == ["0", "0", "0", "0"]
        expect(page.locator("#hand-1 .badge-void")).to_have_text("Undone")
        shown = page.evaluate("document.querySelector('#live').innerText")
        assert not CJK.findall(shown), shown[:1000]
        SCREENSHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"ledger-lang-en-on-zh-{'js' if js else 'nojs'}"
                                               "-390x844.png"))
        assert errors == []
    finally:
        ctx.close()
