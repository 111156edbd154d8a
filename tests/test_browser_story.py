"""A hand's story in Debian's Chromium at 390×844, JavaScript on (htmx) and off (GET forms):
三门峡 表 from the winner's turns tapped on the calculator's palette (RULES SMX-5), and a hand
review (牌谱复盘) entered by taps and stepped through. Screenshots go to tests/screenshots/
and, for the record of the look, to /work/shots/ when that folder exists."""

from __future__ import annotations

import json
import os
from pathlib import Path
from urllib.parse import urlencode
from urllib.request import Request, urlopen

import pytest

from .browsers import SCREENSHOTS, _page  # noqa: F401

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
SHOTS = Path("/work/shots")


def _shot(page, name: str, **kw) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / name), **kw)
    if SHOTS.is_dir() and os.access(SHOTS, os.W_OK):
        page.screenshot(path=str(SHOTS / name), **kw)


def _tap(page, code: str, js: bool, scope: str = "#tap") -> None:
    """One palette key; waits for the answer (the swap, or the next page)."""
    key = page.locator(f'{scope} .palette button[name="add"][value="{code}"]')
    if js:
        with page.expect_response(lambda r: "add=" in r.url or "add%3D" in r.url):
            key.click()
        page.wait_for_function("() => !document.querySelector('.htmx-request')")
    else:
        with page.expect_navigation():
            key.click()


def _press(page, selector: str, js: bool) -> None:
    if js:
        with page.expect_response(lambda r: "/review" in r.url or "?" in r.url):
            page.locator(selector).click()
        page.wait_for_function("() => !document.querySelector('.htmx-request')")
    else:
        with page.expect_navigation():
            page.locator(selector).click()


@pytest.mark.parametrize("js", [True, False], ids=["js", "nojs"])
def test_biao_from_turns_tapped_on_the_calculator(browser, live_server, js):
    """SMX-5's fourth example by taps: 摸中打中, 摸1万打2万 (out of the wait), 摸2万打1万 (back in
    it), then 9万 wins: 1 表, each pays 2. First a turn that cannot be rebuilt (摸五筒) shows
    its error under the turns and goes with one tap on its chip."""
    from playwright.sync_api import expect

    ctx, page = _page(browser, live_server, viewport=PHONE, java_script_enabled=js)
    try:
        q = urlencode([("variant", "sanmenxia"), ("hand", "112233m123p123s9m7z"),
                       ("indicator", "4z"), ("winning_tile", "9m"), ("s_dealer", "0"),
                       ("s_winner", "0")])
        page.goto(f"{live_server}/?{q}")
        if js:
            page.wait_for_function("() => window.htmx !== undefined")
        target = page.locator('.targets label.target:has(input[value="history"])')
        expect(target).to_contain_text("摸/打")
        target.click()
        if js:
            page.wait_for_function("() => location.search.includes('target=history')")
            page.wait_for_function("() => !document.querySelector('.htmx-request')")
        for code in ("5p", "7z"):
            _tap(page, code, js)
        err = page.locator("#history-turns-error")
        expect(err).to_contain_text("历史第 1 手")
        expect(page.locator(".turn-chip-error")).to_have_count(1)
        if js:
            with page.expect_response(lambda r: "remove_turn" in r.url):
                page.locator(".turn-chip-error").click()
            page.wait_for_function("() => !document.querySelector('.htmx-request')")
        else:
            with page.expect_navigation():
                page.locator(".turn-chip-error").click()
        expect(err).to_have_count(0)
        for code in ("7z", "7z", "1m", "2m", "2m", "1m"):
            _tap(page, code, js)
        expect(page.locator(".history-turn")).to_have_count(3)
        flags = page.locator(".history-turn").evaluate_all(
            "ts => ts.map(t => [t.dataset.wait, t.dataset.biao, t.dataset.counted])")
        assert flags == [["true", "true", "false"], ["true", "false", "false"],
                         ["false", "false", "false"]]
        expect(page.locator(".history-sum")).to_have_text("表 = 1（混单吊）+ 0 = 1")
        nets = page.locator("#quick-settle .quick-net b").all_inner_texts()
        assert nets == ["+6", "-2", "-2", "-2"]
        assert "history=7z7z+1m2m+2m1m" in page.url or "history=7z7z%201m2m%202m1m" in page.url
        # the shared URL gives the same page
        page.goto(page.url)
        expect(page.locator(".history-turn")).to_have_count(3)
        page.locator("#turns-before").scroll_into_view_if_needed()
        _shot(page, f"history-{'js' if js else 'nojs'}-390x844.png")
        assert page.foreign_requests == []
    finally:
        ctx.close()


def _api_review(base: str, req: dict) -> dict:
    r = Request(f"{base}/api/v1/review", data=json.dumps(req).encode(),
                headers={"Content-Type": "application/json"})
    with urlopen(r) as resp:
        return json.load(resp)


@pytest.mark.parametrize("js", [True, False], ids=["js", "nojs"])
def test_a_review_entered_by_taps(browser, live_server, js):
    """郑州 without 混: 13 dealt tiles by taps, 摸东 打9万, 碰 5万 from 西家 (mode and seat chosen),
    打东, 摸东 胡. The page reviews both discards as the API does, and steps back to turn 1."""
    from playwright.sync_api import expect

    ctx, page = _page(browser, live_server, viewport=PHONE, java_script_enabled=js)
    try:
        page.goto(f"{live_server}/review?variant=zhengzhou&opt_wildcard=0")
        if js:
            page.wait_for_function("() => window.htmx !== undefined")
        for code in ("1m", "2m", "3m", "5m", "5m", "9m", "4p", "5p", "6p", "7s", "8s", "9s",
                     "1z"):
            _tap(page, code, js)
        expect(page.locator(".hand-row .tile-btn")).to_have_count(13)
        expect(page.locator('input[name="mode"][value="draw"]')).to_be_checked()
        _tap(page, "1z", js)
        expect(page.locator('input[name="mode"][value="discard"]')).to_be_checked()
        _tap(page, "9m", js)
        page.locator('.review-modes label.target:has(input[value="pong"])').click()
        page.locator("#review-from").select_option("2")
        if js:
            page.wait_for_function("() => location.search.includes('from=2')")
            page.wait_for_function("() => !document.querySelector('.htmx-request')")
        _tap(page, "5m", js)
        _tap(page, "1z", js)
        _tap(page, "1z", js)
        _press(page, "#review-win", js)
        expect(page.locator(".review-won")).to_be_visible()
        summary = page.locator("#summary")
        expect(summary).to_have_attribute("data-turns", "2")
        api = _api_review(live_server, {
            "variant": "zhengzhou", "options": {"wildcard": False},
            "start": "123559m456p789s1z", "turns": [
                {"draw": "1z", "discard": "9m"},
                {"claim": "pong", "tiles": "555m", "from": 2, "discard": "1z"},
                {"draw": "1z", "win": True}]})
        assert summary.get_attribute("data-best") == str(api["summary"]["best_taken"])
        assert summary.get_attribute("data-lost") == str(api["summary"]["tiles_lost"])
        turn = page.locator("#turn")
        expect(turn).to_have_attribute("data-discard", "1z")
        assert turn.get_attribute("data-rank") == str(api["turns"][1]["chosen"]["rank"])
        # step back to turn 1 by its chip
        _press(page, ".turn-chips li:first-child a.turn-chip", js)
        expect(turn).to_have_attribute("data-discard", "9m")
        assert turn.get_attribute("data-rank") == str(api["turns"][0]["chosen"]["rank"])
        assert turn.get_attribute("data-loss") == str(api["turns"][0]["loss"])
        best = page.locator("#turn .eff-row").evaluate_all("rs => rs.map(r => r.dataset.discard)")
        assert best == [b["discard"] for b in api["turns"][0]["best"]]
        assert "step=0" in page.url and "turns=" in page.url
        page.locator("#result").scroll_into_view_if_needed()
        _shot(page, f"review-{'js' if js else 'nojs'}-390x844.png")
        assert page.foreign_requests == []
    finally:
        ctx.close()
