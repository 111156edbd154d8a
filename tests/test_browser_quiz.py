"""The daily 何切 page in Debian's Chromium at 390×844, JavaScript on and off: the problem is
answered by a tap on a tile, the answer shows the pick's rank and the engine's ranking; with
JavaScript the phone keeps the streak and accuracy (localStorage), without it nothing is kept
and nothing says otherwise."""

from __future__ import annotations

import json
from datetime import date, timedelta
from urllib.request import urlopen

import pytest

from .browsers import SCREENSHOTS, _page  # noqa: F401

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DAY = date(2026, 12, 2)


def _problem(base, variant, day):
    with urlopen(f"{base}/api/v1/quiz?variant={variant}&date={day.isoformat()}") as r:
        return json.load(r)


@pytest.mark.parametrize("js", [True, False], ids=["js", "nojs"])
def test_answer_the_daily_problem_by_a_tap(browser, live_server, js):
    from playwright.sync_api import expect

    ctx, page = _page(browser, live_server, viewport=PHONE, java_script_enabled=js)
    try:
        # yesterday's problem answered right, today's wrong, then right (the first counts)
        for day, pick in ((DAY - timedelta(days=1), "best"), (DAY, "worst")):
            p = _problem(live_server, "zhengzhou", day)
            want = p["answer"][0] if pick == "best" else p["ranking"][-1]["discard"]
            page.goto(f"{live_server}/quiz?variant=zhengzhou&date={day.isoformat()}")
            expect(page.locator(".quiz-tile")).to_have_count(14)
            page.locator(f'.quiz-tile[href*="pick={want}"]').first.click()
            page.wait_for_url(f"**pick={want}**")
            title = page.locator("#answer-title")
            if pick == "best":
                expect(title).to_have_text("答对了：这是最好的打法之一。")
            else:
                rank = p["ranking"][-1]["rank"]
                expect(title).to_have_text(f"不是最好：{len(p['ranking'])} 种打法中排第 {rank}。")
            discards = page.locator("#answer .eff-row").evaluate_all(
                "rows => rows.map(r => r.dataset.discard)")
            assert discards == [r["discard"] for r in p["ranking"]]
        stats = page.locator("#quiz-stats")
        if js:
            expect(stats).to_have_text("本机记录：连续答对 0 天 · 共 2 题对 1 题")
            best = _problem(live_server, "zhengzhou", DAY)["answer"][0]
            page.locator(f'.quiz-tile[href*="pick={best}"]').first.click()
            page.wait_for_url(f"**pick={best}**")
            expect(page.locator("#answer-title")).to_have_text("答对了：这是最好的打法之一。")
            expect(stats).to_have_text("本机记录：连续答对 0 天 · 共 2 题对 1 题")  # kept first
            page.screenshot(path=str(SCREENSHOTS / "quiz-390x844.png"), full_page=True)
        else:
            assert stats.is_hidden()
            page.screenshot(path=str(SCREENSHOTS / "quiz-nojs-390x844.png"))
        assert page.foreign_requests == []
    finally:
        ctx.close()
