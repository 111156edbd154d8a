"""On any phone (Playwright + Debian's Chromium, boxes measured): the palette on screen without
scrolling on an empty 390 × 844 page (Chinese and English), its keys 44 × 44 CSS px, never
moving under the finger; no sideways scrolling at 200 % and 400 % zoom; every tap target at
least 24 × 24 CSS px (WCAG 2.2, 2.5.8), palette keys at least 44 px tall.

Zoom is emulated as what it is to the page: browser zoom at 200 % on a 390 × 844 phone leaves
a layout viewport of 195 × 422 CSS px drawn with twice the device pixels, at 400 % 97.5 × 211
(Playwright takes whole pixels: 97, the stricter side). The CSS sees the same width, media
queries and font sizes as under real zoom; device_scale_factor only makes the screenshots
sharp. (Pinch zoom, which does not reflow, is not what WCAG 1.4.10 asks about.)
"""

from __future__ import annotations

import pytest

from .browsers import SCREENSHOTS, _page  # noqa: F401

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
RESULT = "/?variant=zhengzhou&hand=123m456p789s1112z"
FOURTEEN = "/?variant=zhengzhou&hand=123m456p789s11234z"      # the 牌理 panel
SETTLED = "/?variant=zhengzhou&hand=123m456p789s11222z&winning_tile=2z&s_dealer=0&s_winner=0"
MELDS = "/?variant=zhengzhou&hand=123m456p1112z&melds=碰777s"

PALETTE_Y = ("() => { const r = document.querySelector('.palette').getBoundingClientRect();"
             " return [r.top + window.scrollY, r.bottom + window.scrollY]; }")
#: every tap target: its box, whether it sits inline in a sentence (WCAG 2.5.8's exception),
#: and its text. A checkbox or radio inside a label counts as the label (a tap on the label
#: is a tap on it).
TARGETS = """() => {
  const out = [];
  const seen = new Set();
  const nodes = document.querySelectorAll(
    'a[href], button, input:not([type=hidden]), select, textarea, summary, label.check, label.target');
  for (const el of nodes) {
    let box = el;
    if (el.matches('input[type=checkbox], input[type=radio]') && el.closest('label'))
      box = el.closest('label');
    if (seen.has(box)) continue;
    seen.add(box);
    const style = getComputedStyle(box);
    if (style.visibility === 'hidden' || box.closest('[hidden]')) continue;
    if (box.checkVisibility && !box.checkVisibility({contentVisibilityAuto: true})) continue;
    const r = box.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (box.closest('.visually-hidden') || box.classList.contains('skip')) continue;
    if (box.closest('[aria-hidden=true]') && box.tabIndex < 0) continue;   // not a target: out of reach
    const parent = box.parentElement;
    const inline = style.display === 'inline' && parent &&
      [...parent.childNodes].some(n => n !== box && n.nodeType === 3 && n.textContent.trim());
    out.push({x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height, inline,
              what: (box.outerHTML || '').slice(0, 120)});
  }
  return out;
}"""


def _palette(page) -> tuple[float, float]:
    return tuple(round(v, 1) for v in page.evaluate(PALETTE_Y))


def _tap(page, js: bool, selector: str):
    count = page.locator("#hand-row-label").inner_text()
    melds = page.locator(".meld-chip").count()
    page.click(selector)
    if js:
        page.wait_for_function(
            "([c, m]) => document.querySelector('#hand-row-label') && (document.querySelector("
            "'#hand-row-label').innerText !== c || document.querySelectorAll('.meld-chip').length"
            " !== m || !document.querySelector('.htmx-request'))", arg=[count, melds])
        page.wait_for_function("() => !document.querySelector('.htmx-request')")
    else:
        page.wait_for_load_state()


def _choose(page, js: bool, target: str):
    page.check(f"input[name=target][value={target}]")
    if js:
        page.wait_for_function(f"() => document.querySelector('.target-on input[value={target}]')")
    # without JavaScript the choice rides along with the next tap


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("js", [True, False], ids=["js", "no-js"])
def test_palette_on_screen_and_still_under_the_finger(browser, live_server, js, lang):
    context, page = _page(browser, live_server, viewport=PHONE, java_script_enabled=js,
                          has_touch=True, locale="en-US" if lang == "en" else "zh-CN")
    try:
        page.goto(live_server + "/?variant=zhengzhou")
        if js:
            page.wait_for_function("() => window.htmx !== undefined")
        top, bottom = _palette(page)
        assert page.evaluate("() => window.scrollY") == 0
        assert 0 < top and bottom <= PHONE["height"], (top, bottom)   # all 34 keys, no scrolling
        # each key at thumb size, 44 × 44 (seven a row: nine a row are 37 px wide here)
        keys = page.evaluate("() => [...document.querySelectorAll('button.key')].map("
                             "k => [k.getBoundingClientRect().width, k.getBoundingClientRect().height])")
        assert len(keys) == 34, len(keys)
        assert min(w for w, _ in keys) >= 44 and min(h for _, h in keys) >= 44, keys[:3]
        if lang == "zh":
            page.screenshot(path=str(SCREENSHOTS / f"palette-empty-{'js' if js else 'nojs'}-390x844.png"))
        steps = []

        def still(what):
            steps.append((what, _palette(page)))
            assert _palette(page)[0] == top, steps

        for code in ("1m", "2m", "3m"):
            _tap(page, js, f"button.key[value='{code}']")
        still("three tiles")
        _choose(page, js, "melds")
        still("target: melds")
        _tap(page, js, "button.key[value='5p']")
        assert page.locator(".meld-chip").count() == 1
        still("a meld")
        _choose(page, js, "indicator")
        _tap(page, js, "button.key[value='3z']")
        still("an indicator")
        _choose(page, js, "hand")
        for code in ("4s", "5s", "6s", "1z"):
            _tap(page, js, f"button.key[value='{code}']")
        still("seven tiles and a meld")
        _choose(page, js, "melds")
        _tap(page, js, "button.key[value='9m']")                       # 13 tiles: 1m2m3m4s5s6s1z
        assert page.locator("#quick").count() == 1                     # the waits are shown
        still("13 tiles and the waits")
        _choose(page, js, "hand")
        for _ in range(3):                                             # take out 4s 5s 6s
            _tap(page, js, "button.tile-btn[value='3']")
        _choose(page, js, "melds")
        _tap(page, js, "button.key[value='7p']")                       # 1m2m3m1z + three pongs
        assert page.locator(".meld-chip").count() == 3
        assert page.locator("#quick").count() == 1
        still("three melds")
        if lang == "zh":
            page.screenshot(path=str(SCREENSHOTS / f"palette-melds-{'js' if js else 'nojs'}-390x844.png"))
    finally:
        context.close()


ZOOM = [(195, 422, 2, "200"), (97, 211, 4, "400")]


@pytest.mark.parametrize("width,height,scale,zoom", ZOOM, ids=["200pct", "400pct"])
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_no_sideways_scrolling_when_zoomed(browser, live_server, width, height, scale, zoom, lang):
    context, page = _page(browser, live_server, viewport={"width": width, "height": height},
                          device_scale_factor=scale, has_touch=True,
                          locale="en-US" if lang == "en" else "zh-CN")
    try:
        for url in ("/?variant=zhengzhou", RESULT, FOURTEEN, SETTLED, MELDS, "/rules",
                    "/rules/PJ-10", "/offline"):
            page.goto(live_server + url)
            wide = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth,"
                                 " [...document.querySelectorAll('body *')].filter(e => "
                                 "e.getBoundingClientRect().right > window.innerWidth + 0.5)"
                                 ".slice(0, 5).map(e => e.outerHTML.slice(0, 100))]")
            assert wide[0] <= wide[1], (url, wide)
            if url == RESULT and lang == "zh":
                # the first screen as the phone shows it: 390 × 844 device pixels
                page.screenshot(path=str(SCREENSHOTS / f"zoom-{zoom}pct-390x844.png"))
                page.evaluate("() => document.querySelector('.palette').scrollIntoView()")
                page.screenshot(path=str(SCREENSHOTS / f"zoom-{zoom}pct-palette-390x844.png"))
        # the palette's keys stay tappable: none narrower than 24 px, none under 44 px tall
        page.goto(live_server + "/?variant=zhengzhou")
        sizes = page.evaluate("() => [...document.querySelectorAll('button.key')].map(k => "
                              "[k.getBoundingClientRect().width, k.getBoundingClientRect().height])")
        assert min(w for w, _ in sizes) >= 24 and min(h for _, h in sizes) >= 44, sizes[:3]
    finally:
        context.close()


def _overlap(a, b) -> bool:
    return (a["x"] < b["x"] + b["w"] - 0.5 and b["x"] < a["x"] + a["w"] - 0.5
            and a["y"] < b["y"] + b["h"] - 0.5 and b["y"] < a["y"] + a["h"] - 0.5)


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("width", [390, 195])
def test_every_tap_target_is_24_px_and_apart(browser, live_server, lang, width):
    """WCAG 2.2, 2.5.8 (AA): each target at least 24 × 24 CSS px, unless inline in a sentence;
    no two targets overlapping."""
    context, page = _page(browser, live_server, viewport={"width": width, "height": 844},
                          has_touch=True, locale="en-US" if lang == "en" else "zh-CN")
    try:
        for url in ("/?variant=zhengzhou", RESULT, FOURTEEN, SETTLED, MELDS, "/rules",
                    "/rules/ZZ-4", "/offline"):
            page.goto(live_server + url)
            for sel in ("#more", "#options", "#settle"):          # open the folded sections
                if page.locator(sel).count() and page.get_attribute(sel, "open") is None:
                    page.click(f"{sel} > summary")
            page.wait_for_function("() => !document.querySelector('.htmx-request')")
            targets = page.evaluate(TARGETS)
            small = [t for t in targets if not t["inline"] and (t["w"] < 24 or t["h"] < 24)]
            assert not small, (url, [(t["w"], t["h"], t["what"]) for t in small[:8]])
            boxes = [t for t in targets if not t["inline"]]
            clash = [(a["what"], b["what"]) for i, a in enumerate(boxes) for b in boxes[i + 1:]
                     if _overlap(a, b) and a["what"] != b["what"]]
            assert not clash, (url, clash[:3])
    finally:
        context.close()


@pytest.mark.parametrize("js", [True, False], ids=["js", "no-js"])
def test_enter_in_the_typed_hand_analyses_it(browser, live_server, js):
    """The palette now comes before the typed text: Enter still means 分析, never a tile."""
    context, page = _page(browser, live_server, viewport=PHONE, java_script_enabled=js)
    try:
        page.goto(live_server + "/?variant=zhengzhou")
        page.fill("#hand", "123m456p789s1112z")
        page.press("#hand", "Enter")
        page.wait_for_selector("#result .wait-list")
        assert page.input_value("#hand") == "123m456p789s1112z"
        assert "add=" not in page.url and "remove=" not in page.url
    finally:
        context.close()


#: each payment row's right edge, and the settlement panel's inner right edge
PAYMENT_EDGES = """() => {
  const box = document.querySelector('section.settlement'), cs = getComputedStyle(box);
  const inner = box.getBoundingClientRect().right - parseFloat(cs.paddingRight)
                - parseFloat(cs.borderRightWidth);
  return [inner, [...box.querySelectorAll('.payments tr.payment')].map(
    tr => [Math.max(...[...tr.children].map(td => td.getBoundingClientRect().right)),
           tr.textContent.trim().slice(0, 40)])]; }"""


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_payments_between_named_seats_stay_in_the_settlement(browser, live_server, lang):
    """A settled hand between seats with names ("Grandma Li (East seat) → 隔壁老王叔叔 (South
    seat)"): the who-pays-whom cell did not wrap, so each payment row, its amount with it,
    ran past the settlement's panel (past the page on the table's correction form)."""
    from urllib.parse import urlencode

    context, page = _page(browser, live_server, viewport=PHONE,
                          locale="en-US" if lang == "en" else "zh-CN")
    try:
        page.goto(live_server + "/?" + urlencode({
            "variant": "jincheng", "hand": "123m456p789s11122z", "winning_tile": "2z",
            "s_winner": "1", "n0": "Grandma Li", "n1": "隔壁老王叔叔", "n2": "Uncle Bob",
            "n3": "小张同学", "lang": lang}))
        inner, rows = page.evaluate(PAYMENT_EDGES)
        assert len(rows) == 3
        for right, text in rows:
            assert right <= inner + 0.5, text
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        context.close()
