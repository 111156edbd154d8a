"""Installable, offline shell and dark mode in Debian's Chromium (Playwright, nothing
installed): the manifest and icons, the service worker's registration, `/`, a rules page and
the offline page without a network, a tap without a network, the colours switch."""

from __future__ import annotations

import re

import pytest

from .browsers import SCREENSHOTS, _page  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.service_worker]

PHONE = {"width": 390, "height": 844}
RESULT = "/?variant=zhengzhou&hand=123m456p789s1112z&indicator=3z"

READY = """async () => {
  const reg = await navigator.serviceWorker.ready;
  return [reg.scope, reg.active && reg.active.state];
}"""
CONTROLLED = "() => navigator.serviceWorker.controller !== null"
KEPT = "async (url) => !!(await caches.match(url, {ignoreVary: true}))"
BG = "() => getComputedStyle(document.documentElement).backgroundColor"


def _wait_kept(page, url: str, seconds: float = 60) -> None:
    """Until the service worker's cache holds ``url`` (wait_for_function cannot await)."""
    import time

    deadline = time.monotonic() + seconds
    while not page.evaluate(KEPT, url):
        assert time.monotonic() < deadline, f"{url} never kept"
        page.wait_for_timeout(200)


def _online_then_ready(page, base):
    page.goto(base + "/")
    scope, state = page.evaluate(READY)
    assert scope == base + "/" and state in ("activating", "activated")
    page.wait_for_function(CONTROLLED)


def test_manifest_icons_and_service_worker(browser, live_server):
    context, page = _page(browser, live_server, viewport=PHONE)
    try:
        _online_then_ready(page, live_server)
        href = page.get_attribute("link[rel=manifest]", "href")
        manifest = page.request.get(live_server + href).json()
        assert manifest["display"] == "standalone" and manifest["short_name"] == "麻将计算器"
        purposes = {(i["sizes"], i["purpose"]) for i in manifest["icons"]}
        assert ("512x512", "maskable") in purposes and ("192x192", "any") in purposes
        # every icon decodes in the browser at its stated size
        for icon in manifest["icons"]:
            if icon["type"] != "image/png":
                continue
            size = page.evaluate("""(src) => new Promise((ok, no) => { const i = new Image();
                i.onload = () => ok(i.naturalWidth + 'x' + i.naturalHeight);
                i.onerror = no; i.src = src; })""",
                                 icon["src"])
            assert size == icon["sizes"], icon
        apple = page.get_attribute("link[rel=apple-touch-icon]", "href")
        assert page.request.get(live_server + apple).status == 200
        assert page.evaluate("() => document.querySelector('link[rel=icon]').href").endswith(".svg")
        # the shell is kept: the page's own CSS and JS, the offline page, / and /rules
        for url in [page.get_attribute("link[rel=stylesheet]", "href"), "/offline", "/", "/rules"]:
            assert page.evaluate(KEPT, url), url
        assert page.foreign_requests == []
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_calculator_and_rules_open_offline_and_computed_pages_say_so(browser, live_server, lang):
    context, page = _page(browser, live_server, viewport=PHONE,
                          locale="en-US" if lang == "en" else "zh-CN")
    try:
        _online_then_ready(page, live_server)
        page.goto(live_server + "/rules")                 # the rules, read once online ...
        for rule in ("/rules/C-1", "/rules/PJ-10", "/rules/JC-1"):          # ... are all kept
            _wait_kept(page, rule)
        context.set_offline(True)
        page.goto(live_server + "/")
        assert page.locator("button.key").count() == 34   # the empty calculator, drawn ...
        assert page.evaluate(BG) == "rgb(246, 243, 236)"  # ... with its stylesheet
        page.goto(live_server + "/rules/PJ-10")
        assert "PJ-10" in page.inner_text("main")
        assert page.locator("link[rel=stylesheet]").count() == 1
        response = page.goto(live_server + RESULT)
        assert response.status == 503
        says = "it needs the network" if lang == "en" else "需要网络"
        assert says in page.inner_text("main")
        assert page.evaluate(BG) == "rgb(246, 243, 236)"
        # ?lang= picks the offline page's language, as it picks the page's
        page.goto(live_server + RESULT + ("&lang=zh" if lang == "en" else "&lang=en"))
        assert ("需要网络" if lang == "en" else "it needs the network") in page.inner_text("main")
        page.screenshot(path=str(SCREENSHOTS / f"offline-computed-{lang}-390x844.png"))
        context.set_offline(False)
        page.goto(live_server + RESULT)                   # online again: the real page
        assert page.locator("#result .wait-list").count() == 1
    finally:
        context.close()


def test_a_tap_without_network_keeps_the_page_and_says_why(browser, live_server):
    context, page = _page(browser, live_server, viewport=PHONE, has_touch=True)
    try:
        _online_then_ready(page, live_server)
        page.goto(live_server + "/?variant=zhengzhou&hand=123m")
        page.wait_for_function("() => window.htmx !== undefined")
        context.set_offline(True)
        page.wait_for_function("() => !navigator.onLine")
        page.click("button.key[value='4m']")
        page.wait_for_function("() => document.querySelector('#net-status').textContent !== ''")
        assert "没有网络" in page.inner_text("#net-status")
        assert page.input_value("#hand") == "123m"          # nothing lost, nothing replaced
        assert page.locator("button.key").count() == 34
        context.set_offline(False)
        page.wait_for_function("() => document.querySelector('#net-status').textContent === ''")
        page.click("button.key[value='4m']")
        page.wait_for_function("() => document.querySelector('#hand').value === '1234m'")
    finally:
        context.close()


def _contrast(page, selector: str) -> float:
    """WCAG contrast of ``selector``'s text colour on its own background colour."""
    return page.evaluate("""(sel) => {
      const e = document.querySelector(sel); const s = getComputedStyle(e);
      const lum = (c) => { const v = c.match(/[\\d.]+/g).slice(0, 3).map(Number).map(x => {
        x /= 255; return x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4); });
        return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]; };
      const a = lum(s.color), b = lum(s.backgroundColor);
      return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    }""", selector)


@pytest.mark.parametrize("js", [True, False], ids=["js", "no-js"])
def test_dark_mode_follows_the_phone_and_the_switch_is_kept(browser, live_server, js):
    context, page = _page(browser, live_server, viewport=PHONE, color_scheme="dark",
                          java_script_enabled=js)
    try:
        page.goto(live_server + RESULT)
        assert page.evaluate(BG) == "rgb(18, 23, 28)"      # the system's dark setting
        assert _contrast(page, ".tile-badge") >= 4.5        # the 混 badge, as in light
        assert _contrast(page, ":root") >= 7
        if not js:
            assert not page.is_visible("#theme")             # no switch without JavaScript
            page.screenshot(path=str(SCREENSHOTS / "dark-nojs-390x844.png"))
            return
        page.screenshot(path=str(SCREENSHOTS / "dark-390x844.png"))
        page.screenshot(path=str(SCREENSHOTS / "dark-full-390x844.png"), full_page=True)
        assert page.is_visible("#theme") and page.input_value("#theme") == "auto"
        page.select_option("#theme", "light")
        assert page.evaluate(BG) == "rgb(246, 243, 236)"
        assert page.get_attribute("meta[name=theme-color][media*=dark]", "content") == "#0b6e4f"
        page.reload()                                        # kept on the phone
        assert page.evaluate(BG) == "rgb(246, 243, 236)"
        assert page.input_value("#theme") == "light"
        assert page.evaluate("() => localStorage.getItem('webcalc-theme')") == "light"
        page.select_option("#theme", "auto")
        assert page.evaluate(BG) == "rgb(18, 23, 28)"
        assert page.evaluate("() => localStorage.getItem('webcalc-theme')") is None
        # and a light phone can choose dark; a tap (htmx swap) keeps it
        page.emulate_media(color_scheme="light")
        assert page.evaluate(BG) == "rgb(246, 243, 236)"
        page.select_option("#theme", "dark")
        assert page.evaluate(BG) == "rgb(18, 23, 28)"
        page.click("button.tile-btn[value='0']")
        page.wait_for_function("() => document.querySelector('#hand').value !== '123m456p789s1112z'")
        assert page.evaluate(BG) == "rgb(18, 23, 28)"
        assert not re.search(r"webcalc-theme", "; ".join(c["name"] for c in context.cookies()))
    finally:
        context.close()
