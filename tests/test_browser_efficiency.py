"""Browser tests of the 牌理 panel on a phone, JavaScript on and off, in Debian's
Chromium (fixtures of test_browser): a row folds out to its useful tiles with their counts,
and nothing scrolls sideways. Also writes the panel's screenshots (tests/screenshots/)."""

from __future__ import annotations

import pytest

from .browsers import SCREENSHOTS, _page  # noqa: F401

pytestmark = pytest.mark.browser

PANJIN_2 = "/?variant=panjin&hand=234m57m13p456s5z88s9s&indicator=3z"   # 2 向听, 14 tiles
ZZ_13 = "/?variant=zhengzhou&hand=123m456p789s1134z"                     # 1 向听, 13 tiles


def _api(page, live_server, **req) -> dict:
    resp = page.request.post(live_server + "/api/v1/analyze", data=req)
    assert resp.ok
    return resp.json()


@pytest.mark.parametrize("js", [True, False], ids=["js", "no-js"])
def test_unfold_a_discard_row(browser, live_server, js):
    context, page = _page(browser, live_server, viewport={"width": 390, "height": 844},
                          java_script_enabled=js, has_touch=True)
    try:
        page.goto(live_server + PANJIN_2)
        eff = _api(page, live_server, variant="panjin", hand="234m57m13p456s5z88s9s",
                   indicator="3z")["efficiency"]
        rows = page.locator("#result .eff-row")
        assert rows.count() == len(eff)
        # the best row is open, the others folded
        assert rows.nth(0).locator("details").get_attribute("open") is not None
        second = rows.nth(1)
        useful = second.locator(".useful-list")
        assert not useful.is_visible()
        summary = second.locator("summary")
        e = eff[1]
        assert f"{len(e['useful'])}种{e['useful_total']}张" in summary.inner_text()
        assert "2 向听" in summary.inner_text()
        summary.click()
        assert useful.is_visible()
        items = useful.locator("li.useful")
        shown = [(items.nth(i).locator(".tile").get_attribute("data-tile"),
                  items.nth(i).locator(".remaining").inner_text()) for i in range(items.count())]
        assert shown == [(u["tile"], f"余 {u['remaining']} 张") for u in e["useful"]]
        # phone first: nothing scrolls sideways, folded or not
        for width in (390, 320):
            page.set_viewport_size({"width": width, "height": 844})
            assert page.evaluate("document.documentElement.scrollWidth") <= width
        summary.click()
        assert not useful.is_visible()
        assert page.foreign_requests == []
    finally:
        context.close()


def test_panel_screenshots(browser, live_server):
    """The panel on a 390×844 phone: a 2-向听 盘锦 hand and a 13-tile 郑州 hand."""
    SCREENSHOTS.mkdir(exist_ok=True)
    context, page = _page(browser, live_server, viewport={"width": 390, "height": 844},
                          has_touch=True)
    try:
        for url, name in ((PANJIN_2, "panel-panjin"), (ZZ_13, "panel-zz13")):
            page.goto(live_server + url)
            panel = page.locator("#result .efficiency")
            panel.evaluate("el => el.scrollIntoView({block: 'start'})")
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
            page.screenshot(path=str(SCREENSHOTS / f"{name}-390x844.png"))
            panel.screenshot(path=str(SCREENSHOTS / f"{name}-panel.png"))
    finally:
        context.close()
