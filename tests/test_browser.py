"""Browser tests: Playwright driving Debian's headless Chromium (tests/browsers.py) against the app
served by werkzeug in a thread. Never `playwright install`: it downloads a browser."""

from __future__ import annotations

from urllib.parse import quote

import pytest

from .browsers import SCREENSHOTS, _page, tap_key  # noqa: F401  (the fixtures: conftest.py)

pytestmark = pytest.mark.browser

def _wait_tiles(page) -> dict[str, str]:
    items = page.locator("#result .wait-list li.wait")
    return {items.nth(i).locator(".tile").get_attribute("data-tile"):
            items.nth(i).locator(".remaining").inner_text() for i in range(items.count())}


def _open_more(page):
    """The typed inputs besides the hand sit in a folded section."""
    if page.get_attribute("#more", "open") is None:
        page.click("#more > summary")


def _fill_and_submit(page, hand, variant="zhengzhou", indicator=""):
    page.select_option("#variant", variant)
    _open_more(page)
    page.fill("#indicator", indicator)
    page.fill("#hand", hand)
    page.click("button.primary")


def _tap(page, *codes):
    """Tap palette keys one after another, each waiting for its answer to be swapped in."""
    for code in codes:
        count = page.locator("#hand-row-label").inner_text()
        tap_key(page, code)
        page.wait_for_function(
            "c => document.querySelector('#hand-row-label')?.innerText !== c"
            " && document.querySelector('#hand-row-label') !== null", arg=count)


def test_htmx_swaps_result_in_place(browser, live_server):
    context, page = _page(browser, live_server)
    try:
        page.goto(live_server + "/")
        page.evaluate("window.__same_page = true")
        _fill_and_submit(page, "123m456p789s1112z")
        page.wait_for_selector("#result .wait-list")
        assert _wait_tiles(page) == {"2z": "余 3 张"}
        assert page.evaluate("window.__same_page") is True  # swapped, not reloaded
        assert "hand=123m456p789s1112z" in page.url  # hx-push-url: the URL is shareable

        # a second hand, then Back restores the first (htmx 4 re-fetches the full page)
        page.fill("#hand", "123m456p789s1122z")
        page.click("button.primary")
        page.wait_for_selector("#result .wait-list li:nth-child(2)")
        assert _wait_tiles(page) == {"1z": "余 2 张", "2z": "余 2 张"}
        assert page.url.endswith("/?variant=zhengzhou&hand=123m456p789s1122z")  # canonical
        page.go_back()
        # a function: no eval under the CSP
        page.wait_for_function(
            "() => document.querySelectorAll('#result .wait-list li').length === 1")
        assert _wait_tiles(page) == {"2z": "余 3 张"}
        assert page.input_value("#hand") == "123m456p789s1112z"

        # bad input: the message under the field, aria-invalid, input kept
        page.fill("#hand", "123m456p789s111x")
        page.click("button.primary")
        page.wait_for_selector("#hand-error")
        assert page.get_attribute("#hand", "aria-invalid") == "true"
        assert page.input_value("#hand") == "123m456p789s111x"
        assert page.foreign_requests == []
    finally:
        context.close()


KEY_SIZE = ("() => Math.min(...[...document.querySelectorAll('button.key')].flatMap("
            "e => [e.getBoundingClientRect().width, e.getBoundingClientRect().height]))")
HAND_TAPS = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "1z", "2z"]


@pytest.mark.parametrize("js", [True, False], ids=["js", "no-js"])
def test_tap_a_hand_in_and_see_its_waits(browser, live_server, capsys, js):
    """A new user at a table: phone-sized screen, taps only."""
    SCREENSHOTS.mkdir(exist_ok=True)
    context, page = _page(browser, live_server, viewport={"width": 390, "height": 844},
                          java_script_enabled=js, has_touch=True)
    try:
        page.goto(live_server + "/?variant=zhengzhou")
        if js:
            page.wait_for_function("() => window.htmx !== undefined")
            page.evaluate("() => { window.__same_page = true; }")
        _tap(page, *HAND_TAPS[:5])
        assert "再加 8 张看听牌" in page.inner_text("#progress")     # a count, not an error
        assert page.get_attribute("#hand", "aria-invalid") is None
        _tap(page, *HAND_TAPS[5:])
        page.wait_for_selector("#result .wait-list")
        assert _wait_tiles(page) == {"2z": "余 3 张"}
        assert page.input_value("#hand") == "123m456p789s1112z"      # the text field follows
        # (without JavaScript a tap comes back to the tap area: #tap)
        assert page.url.split("#")[0].endswith("/?variant=zhengzhou&hand=123m456p789s1112z")
        page.screenshot(path=str(SCREENSHOTS / f"tapped-{'js' if js else 'nojs'}-390x844.png"),
                        full_page=True)
        # the result is reachable without scrolling past the options and settlement
        result_top = page.evaluate("() => document.querySelector('#result').getBoundingClientRect().top")
        options_top = page.evaluate("() => document.querySelector('#options').getBoundingClientRect().top")
        assert result_top < options_top
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
        for width in (390, 320):  # palette keys at least 36 px, no sideways scrolling
            page.set_viewport_size({"width": width, "height": 844})
            assert page.evaluate(KEY_SIZE) >= 36, width
            assert page.evaluate("() => document.documentElement.scrollWidth") <= width
        page.set_viewport_size({"width": 390, "height": 844})

        # the indicator from the palette: 西 → 北 is the wildcard in 郑州
        page.check("input[name=target][value=indicator]")
        if js:
            page.wait_for_url("**target=indicator")
        page.click("button.key[value='3z']")
        page.wait_for_selector("#result .summary-wild .tile[data-tile='4z']")
        assert "indicator=3z" in page.url
        # tap a tile of the hand: it goes (the last 2z: 12 tiles + progress)
        page.check("input[name=target][value=hand]")
        if js:
            page.wait_for_function("() => !location.search.includes('target=')")
        page.click("button.tile-btn[value='12']")
        page.wait_for_selector("#progress")
        assert page.input_value("#hand") == "123m456p789s111z"
        # Back restores the 13-tile hand and its waits
        page.go_back()
        page.wait_for_function("() => document.querySelector('#hand').value === '123m456p789s1112z'")
        page.wait_for_selector("#result .wait-list")
        if js:
            assert page.evaluate("() => window.__same_page") is True  # no full reload by taps
        assert page.foreign_requests == []
    finally:
        context.close()
    with capsys.disabled():
        print(f"\nscreenshots: {SCREENSHOTS}")


def test_meld_builder_and_copy_link(browser, live_server):
    context, page = _page(browser, live_server, viewport={"width": 390, "height": 844},
                          permissions=["clipboard-read", "clipboard-write"])
    try:
        page.goto(live_server + "/?variant=zhengzhou&hand=123m456p789s1z")
        page.wait_for_function("() => window.htmx !== undefined")
        page.check("input[name=target][value=melds]")
        page.wait_for_selector("#meld_type", state="visible")
        page.select_option("#meld_type", "pong")
        page.select_option("#meld_from", "2")
        page.wait_for_url("**meld_from=2")
        page.click("button.key[value='5m']")
        page.wait_for_selector(".meld-chip")
        assert "碰555m@2" in page.url.replace("%40", "@").replace("%E7%A2%B0", "碰")
        assert "tile_count" not in page.url
        page.wait_for_selector("#result .wait-list")  # 10 tiles + a pong: ready
        page.click("button.copy-link")
        page.wait_for_function("() => document.querySelector('.copy-status').textContent !== ''")
        assert page.inner_text(".copy-status") == "链接已复制"
        assert page.evaluate("() => navigator.clipboard.readText()") == page.url
    finally:
        context.close()


def test_language_switch(browser, live_server):
    context, page = _page(browser, live_server)
    try:
        page.goto(live_server + "/?variant=zhengzhou&hand=123m456p789s1112z")
        assert page.get_attribute("html", "lang") == "zh-Hans"
        page.click(".lang-switch a[hreflang=en]")
        page.wait_for_selector("html[lang=en]")
        assert page.url.endswith("/?variant=zhengzhou&hand=123m456p789s1112z&lang=en")
        assert "Waits" in page.inner_text("#result .waits h3")
        assert page.get_attribute("button.key[value='5m']", "aria-label") == "5 Characters"
        # the language stays while tapping
        page.click("button.tile-btn[value='0']")
        page.wait_for_selector("#progress")
        assert page.url.endswith("&lang=en") and "Tap tiles" in page.inner_text("#tap-title")
        page.click(".lang-switch a[hreflang=zh-Hans]")
        page.wait_for_selector("html[lang=zh-Hans]")
        assert page.url.endswith("/?variant=zhengzhou&hand=23m456p789s1112z&lang=zh")
        assert page.inner_text("#tap-title") == "点牌输入"
    finally:
        context.close()


def test_works_without_javascript(browser, live_server):
    context, page = _page(browser, live_server, java_script_enabled=False)
    try:
        page.goto(live_server + "/")
        _fill_and_submit(page, "一二三万四五六筒七八九条东东东南")
        page.wait_for_selector("#result .wait-list")
        assert _wait_tiles(page) == {"2z": "余 3 张"}
        # the plain form GET is redirected (303) to the canonical URL without empty fields
        assert page.url.endswith("/?variant=zhengzhou&hand=" + quote("一二三万四五六筒七八九条东东东南"))
    finally:
        context.close()


@pytest.mark.parametrize("width, height", [(390, 844), (1280, 800)])
def test_screenshots(browser, live_server, capsys, width, height):
    SCREENSHOTS.mkdir(exist_ok=True)
    context, page = _page(browser, live_server, viewport={"width": width, "height": height})
    try:
        page.goto(live_server + "/?variant=zhengzhou&hand=123m456p789s1134z&indicator=3z")
        page.wait_for_selector("#result .wait-list")
        assert page.evaluate("document.fonts.check('16px \"Noto Sans CJK SC\"')")
        path = SCREENSHOTS / f"result-{width}x{height}.png"
        page.screenshot(path=str(path), full_page=True)
        # nothing wider than the viewport on a phone
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert page.foreign_requests == []
    finally:
        context.close()
    with capsys.disabled():
        print(f"\nscreenshot: {path}")


def test_switch_variant_shows_its_options(browser, live_server):
    context, page = _page(browser, live_server)
    try:
        page.goto(live_server + "/")
        page.evaluate("window.__same_page = true")
        page.click("#options > summary")
        assert page.is_visible("#opt_with_honors")  # 三门峡 带风 (C-1)
        page.select_option("#variant", "panjin")
        page.wait_for_selector("#opt_piaohu", state="visible")  # the block stays open
        assert page.locator("#opt_with_honors").count() == 0
        assert "盘锦" in page.inner_text("#options > summary")
        assert [o for o in page.eval_on_selector_all("#win_by option", "els => els.map(e => e.value)")] \
            == ["self_draw", "discard", "kong_replacement"]
        assert page.url.endswith("/?variant=panjin")
        # PJ-7: all triplets win only with 飘胡
        page.fill("#hand", "111m222p333s999m11z")
        _open_more(page)
        page.fill("#winning_tile", "1z")
        page.click("button.primary")
        page.wait_for_selector("#result .reasons")
        assert "PJ-7" in page.inner_text("#result .reasons")
        page.check("#opt_piaohu")
        page.wait_for_selector("#result .fan")
        assert "飘胡" in page.inner_text("#result .fan")
        assert page.url.endswith("&opt_piaohu=1")
        assert page.evaluate("window.__same_page") is True
        # the settlement section: pick dealer and winner, the table appears
        page.click("#settle > summary")
        page.select_option("#s_dealer", "0")
        page.select_option("#s_winner", "1")
        page.wait_for_selector("#result .nets")
        assert "s_winner=1" in page.url
        assert page.foreign_requests == []
    finally:
        context.close()


def test_settlement_without_javascript(browser, live_server):
    context, page = _page(browser, live_server, java_script_enabled=False)
    try:
        # the winner's 暗杠 is a meld: the page counts it (no entry in the kong list)
        page.goto(live_server + "/?variant=zhengzhou&hand=123m456p789s22z&winning_tile=2z"
                  "&melds=%E6%9A%97%E6%9D%A01111z&opt_wildcard=0")
        page.click("#settle > summary")
        page.fill("#s_base", "100")
        page.select_option("#s_dealer", "2")
        page.select_option("#s_winner", "0")
        page.fill("input[name=s_pao0]", "3")
        page.fill("input[name=s_pao1]", "2")
        page.click("button.primary")
        page.wait_for_selector("#result .nets")
        nets = page.locator("#result .nets td").all_inner_texts()
        assert nets == ["+2800", "-1200", "-800", "-800"]  # tests/cases.json zz-big-example
        assert page.url.endswith("&s_base=100&s_dealer=2&s_winner=0&s_pao0=3&s_pao1=2")
    finally:
        context.close()


SHOTS = {
    "zz-settlement": "/?variant=zhengzhou&hand=123m456p789s111z22z&winning_tile=2z&opt_wildcard=0"
                     "&s_base=100&s_dealer=2&s_winner=0&s_pao0=3&s_pao1=2&s_kongs=0:concealed",
    "pj-options": "/?variant=panjin&hand=111m222p333s999m11z&winning_tile=1z&opt_piaohu=1"
                  "&opt_jihu=1",
}


@pytest.mark.parametrize("name", list(SHOTS))
@pytest.mark.parametrize("width, height", [(390, 844), (1280, 800)])
def test_settlement_and_option_screenshots(browser, live_server, capsys, width, height, name):
    SCREENSHOTS.mkdir(exist_ok=True)
    context, page = _page(browser, live_server, viewport={"width": width, "height": height})
    try:
        page.goto(live_server + SHOTS[name])
        page.wait_for_selector("#result .nets" if name == "zz-settlement" else "#result .fan")
        path = SCREENSHOTS / f"{name}-{width}x{height}.png"
        page.screenshot(path=str(path), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert page.foreign_requests == []
    finally:
        context.close()
    with capsys.disabled():
        print(f"\nscreenshot: {path}")


@pytest.mark.parametrize("js", [True, False], ids=["js", "no-js"])
def test_meld_builder_takes_a_tile_for_thirteen_orphans(browser, live_server, js):
    """JC-10 in 晋城: the builder's 拾 adds the one tile taken, shown as a meld chip apart
    from the concealed tiles; the thirteen-sided wait then leaves that kind out."""
    context, page = _page(browser, live_server, java_script_enabled=js)
    try:
        page.goto(live_server + "/?variant=jincheng&hand=9m19p19s1234567z&target=melds")
        if js:
            page.wait_for_function("() => window.htmx !== undefined")
        page.select_option("#meld_type", "shi")
        if js:
            page.wait_for_url("**meld_type=shi**")
        page.click("button.key[value='1m']")
        page.wait_for_selector(".meld-chip")
        assert "拾（上家打的幺牌）" in page.inner_text(".meld-chip")
        # (the meld chips share the hand's grid: count the concealed tiles' buttons only)
        assert page.locator(".hand-tiles .tile-btn [data-tile='1m']").count() == 0
        assert "13 张" in page.inner_text("#hand-row-label")
        page.wait_for_selector("#result .wait-list")
        waits = _wait_tiles(page)
        assert len(waits) == 12 and "1m" not in waits
        assert page.foreign_requests == []
    finally:
        context.close()


@pytest.mark.parametrize("js", [True, False], ids=["js", "no-js"])
def test_rule_page_example_opens_the_hand_with_wait_values(browser, live_server, js):
    """Issue 14: /rules/PJ-10's example link opens the analysis; each wait shows its worth,
    and a rule badge on the result leads back to a rule page."""
    context, page = _page(browser, live_server, java_script_enabled=js,
                          viewport={"width": 390, "height": 844})
    try:
        page.goto(live_server + "/rules/PJ-10")
        assert "PJ-10" in page.locator("h1").inner_text()
        page.locator("a.example-link").nth(1).click()
        page.wait_for_selector("#result .wait-list")
        worth = {page.locator("#result li.wait").nth(i).locator(".tile").get_attribute("data-tile"):
                 page.locator("#result li.wait").nth(i).locator(".worth").inner_text()
                 for i in range(page.locator("#result li.wait").count())}
        assert set(worth) == {"5s", "4z"}
        assert "夹胡 ×2" in worth["5s"] and "得 24" in worth["5s"]
        assert "夹胡" not in worth["4z"] and "得 12" in worth["4z"]
        if page.get_attribute("#options", "open") is None:
            page.click("#options > summary")
        page.locator("#options a.rule-link").first.click()
        page.wait_for_selector("h1 .rule-id")
        assert "/rules/" in page.url
        assert not page.foreign_requests
    finally:
        context.close()


@pytest.mark.parametrize("js", [True, False], ids=["js", "no-js"])
def test_more_readings_link(browser, live_server, js):
    """A hand with 339 readings lists 20; "more" lists 20 more (htmx swaps the panel in
    place; without JavaScript it is a plain link to the same URL)."""
    context, page = _page(browser, live_server, java_script_enabled=js)
    many = "/?variant=sanmenxia&hand=2222m1133m4455m66m&indicator=1m&winning_tile=6m"
    try:
        page.goto(live_server + many)
        assert page.locator("#result li.reading").count() == 20
        if js:
            page.evaluate("window.__same_page = true")
        page.click(".other-readings > summary")
        if js:
            page.click(".more-readings a")
        else:                       # a plain link: wait for the new page, however slow
            with page.expect_navigation(wait_until="load", timeout=30_000):
                page.click(".more-readings a")
        page.wait_for_function(
            "() => document.querySelectorAll('#result li.reading').length === 40",
            timeout=30_000)
        assert page.url.endswith(many + "&readings=40")
        assert page.get_attribute(".other-readings", "open") is not None
        assert page.locator(".more-readings a").inner_text() == "再列 20 种拆法"
        if js:
            assert page.evaluate("window.__same_page") is True   # swapped, not reloaded
        assert page.foreign_requests == []
    finally:
        context.close()


def _contrast(fg: str, bg: str) -> float:
    """WCAG 2 contrast ratio of two computed ``rgb(…)``/``rgba(…)`` colours (opaque)."""
    import re

    def luminance(css: str) -> float:
        r, g, b = (int(x) / 255 for x in re.findall(r"\d+(?:\.\d+)?", css)[:3])
        lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted((luminance(fg), luminance(bg)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_wildcard_badge_contrast_meets_wcag_aa(browser, live_server):
    """The 混 badge was white on #c88a04, 2.96:1. Its text is small (under 18.66 px bold),
    so WCAG AA asks 4.5:1: measured on Chromium's computed colours of every badge drawn (a
    wildcard in a reading, a wildcard kind in the hand and the wildcard list)."""
    context, page = _page(browser, live_server)
    try:
        page.goto(live_server + "/?variant=zhengzhou&hand=123m456m789s111z5z1p&indicator=9p"
                                "&winning_tile=5z")
        badges = page.evaluate("""() => [...document.querySelectorAll('.tile-badge')]
            .filter(b => b.getClientRects().length).map(b => {
              const s = getComputedStyle(b);
              return [s.color, s.backgroundColor, parseFloat(s.fontSize), s.fontWeight,
                      b.textContent];
            })""")
        assert len(badges) >= 3
        for color, background, size, weight, text in badges:
            assert text == "混" and "rgba(0, 0, 0, 0)" not in background
            large = size >= 24 or (size >= 18.66 and int(weight) >= 700)
            assert _contrast(color, background) >= (3 if large else 4.5), (color, background)
    finally:
        context.close()


@pytest.mark.parametrize("js", [True, False], ids=["js", "no-js"])
def test_winner_chosen_without_a_hand_says_the_hand_is_required(browser, live_server, js):
    """Choosing 胡牌者 with an empty hand showed nothing; the page now says 手牌：必填 under
    the hand (htmx swaps the 422 answer in on the change; without JavaScript the form is
    submitted), and keeps the choice."""
    context, page = _page(browser, live_server, java_script_enabled=js)
    try:
        page.goto(live_server + "/?variant=zhengzhou")
        if js:
            page.evaluate("window.__same_page = true")
        page.click("#settle > summary")
        page.select_option("#s_dealer", "0")
        page.select_option("#s_winner", "1")
        if not js:
            page.click("button.primary")
        page.wait_for_selector("#hand-error")
        assert page.locator("#hand-error").inner_text().strip() == "手牌：必填。"
        assert page.get_attribute("#hand", "aria-invalid") == "true"
        assert page.locator("#s_winner").input_value() == "1"
        assert "s_winner=1" in page.url
        if js:
            assert page.evaluate("window.__same_page") is True
    finally:
        context.close()
