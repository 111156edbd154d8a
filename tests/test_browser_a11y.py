"""axe-core (axe-playwright-python, pinned in constraints.txt) on every page, in Debian's
Chromium: the calculator (empty, with a result, settled, the 牌理 panel of a 14-tile hand),
the quiz, the hand review, the rules pages and a missing rule, the offline page, a 404, a
table's edit, view and links pages, a new table, My tables, the send page, a circle's page,
its player page, a new circle, a 自由记分 table's page and /t/new with it chosen (tables and
circles made through the JSON API), in Chinese and English, in both of the system's themes
(prefers-color-scheme). No serious or critical violation; the others are printed
(tests/screenshots/axe.txt keeps the last run's list), and dark /quiz is kept as a screenshot.

The app's own switch (localStorage "webcalc-theme", static/js/theme.js) set against the
system's gives a page the same colours as the system's other theme: app.css defines the dark
theme's variables twice, once for the system (@media) and once for the switch
(``[data-theme="dark"]``), and tests/test_web_assets.py holds the two blocks equal and no
other rule depending on the theme, so axe's findings for the
system's dark theme are the switch's. Every page is still opened with the switch set against
the system (dark on a light phone, light on a dark one): its background and every tile's
contrast are checked there, without axe.
"""

from __future__ import annotations

import json
import threading
import urllib.request

import pytest

from .browsers import SCREENSHOTS, _page  # noqa: F401

pytestmark = pytest.mark.browser

#: WCAG 2.0-2.2 A and AA, and axe's best practices
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
PAGES = {
    "result": "/?variant=zhengzhou&hand=123m456p789s1112z&indicator=3z",
    "settled": "/?variant=zhengzhou&hand=123m456p789s11222z&winning_tile=2z&s_dealer=0&s_winner=0",
    "efficiency": "/?variant=zhengzhou&hand=123m456p789s11234z",
    "rules": "/rules",
    "rule": "/rules/PJ-10",
    "offline": "/offline",
    "quiz": "/quiz?variant=sanmenxia&date=2026-12-02&pick=1m",
    "quiz-wild": "/quiz?variant=panjin&date=2026-12-01",
    "home": "/",
    "review": "/review",
    "rule-missing": "/rules/XX-99",
    "not-found": "/nowhere",
    "new-table": "/t/new",
    "mine": "/t/mine",
    "send": "/t/send?table=nonsense",
    "new-circle": "/c/new",
}
#: (system colour scheme, the app's own switch): the switch set against the system (dark on a
#: light phone, light on a dark one)
SWITCHES = {"switch-dark": ("light", "dark"), "switch-light": ("dark", "light")}


@pytest.fixture(scope="module")
def a11y_server(tmp_path_factory):
    from werkzeug.serving import make_server

    from webcalc import create_app

    db = tmp_path_factory.mktemp("a11y") / "ledger.sqlite3"
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{db}"})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_port}"
    try:
        yield base
    finally:
        server.shutdown()
        thread.join(timeout=5)


@pytest.fixture(scope="module")
def table(a11y_server):
    """A 郑州 table with a win and a drawn game, and a 自由记分 table with a hand, made
    through the JSON API: (edit, view, a circle, its player, a free table)."""
    def post(path, body):
        req = urllib.request.Request(a11y_server + path, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=10) as resp:
            return json.loads(resp.read())

    made = post("/api/v1/tables", {"variant": "zhengzhou",
                                   "names": ["老王", "小李", "阿梅", "张师傅"]})
    edit = made["edit_token"]
    post(f"/api/v1/tables/{edit}/hands",
         {"hand": "123m456p789s11122z", "winning_tile": "2z", "win_by": "self_draw",
          "settlement": {"winner": 1}})
    post(f"/api/v1/tables/{edit}/hands", {"settlement": {"winner": None}})
    free = post("/api/v1/tables", {"variant": "free", "names": ["老王", "小李", "阿梅", "张师傅"]})
    post(f"/api/v1/tables/{free['edit_token']}/hands", {"points": [9, -3, -3.5, -2.5]})
    circle = post("/api/v1/circles", {"name": "周五局", "players": ["老王", "小李", "阿梅",
                                                                   "张师傅"]})
    in_circle = post("/api/v1/tables", {"variant": "zhengzhou", "circle": circle["edit_token"],
                                        "players": [p["id"] for p in
                                                    circle["circle"]["players"]]})
    post(f"/api/v1/tables/{in_circle['edit_token']}/hands",
         {"hand": "123m456p789s11122z", "winning_tile": "2z", "win_by": "self_draw",
          "settlement": {"winner": 1}})
    return (edit, made["view_token"], circle["edit_token"], circle["circle"]["players"][1]["id"],
            free["edit_token"])


def _axe(page) -> list[dict]:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page, options={"runOnly": {"type": "tag", "values": TAGS},
                                       "resultTypes": ["violations"]})
    return results.response["violations"]


#: every drawn tile's rank, suit and 混 badge against the background it is drawn on (the
#: tile's face, or the badge's own): axe does not check text inside role="img", which is how
#: the /quiz wildcard's 八筒 went dark blue on a dark page (1.14:1). WCAG 1.4.3: 4.5:1, or
#: 3:1 for large text (24 px, or 18.66 px bold).
TILE_CONTRAST = """() => {
  const rgb = s => s.match(/[\\d.]+/g).map(Number);
  const lum = ([r, g, b]) => {
    const f = c => { c /= 255; return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const bgOf = el => {
    for (; el; el = el.parentElement) {
      const c = rgb(getComputedStyle(el).backgroundColor);
      if (c.length < 4 || c[3] > 0) return c;
    }
    return [255, 255, 255];
  };
  const out = [];
  let n = 0;
  document.querySelectorAll(".tile .tile-rank, .tile .tile-suit, .tile .tile-badge").forEach(g => {
    if (!g.getClientRects().length) return;
    n += 1;
    const st = getComputedStyle(g);
    const a = lum(rgb(st.color)), b = lum(bgOf(g));
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const px = parseFloat(st.fontSize), bold = Number(st.fontWeight) >= 700;
    const need = px >= 24 || (bold && px >= 18.66) ? 3 : 4.5;
    if (ratio < need) out.push(g.closest(".tile").className + " " + g.className + " " +
                               ratio.toFixed(2) + ":1 < " + need);
  });
  return {n, out};
}"""


def _found(violations) -> list[str]:
    return [f"{v['impact']}: {v['id']} ({len(v['nodes'])}) e.g. {v['nodes'][0]['target']}"
            f" — {v['nodes'][0].get('failureSummary', '').splitlines()[-1:]}" for v in violations]


def _pages(table) -> dict[str, str]:
    edit, view, circle, player, free = table
    return dict(PAGES, table=f"/t/{edit}", view=f"/t/{view}", links=f"/t/{edit}/links",
                circle=f"/c/{circle}", player=f"/c/{circle}/p/{player}",
                free=f"/t/{free}", new_free="/t/new?variant=free&pick=1")


#: the page's background: the body's, the root's, else the canvas (white, unless dark)
BACKGROUND = """() => {
  for (const el of [document.body, document.documentElement]) {
    const c = getComputedStyle(el).backgroundColor;
    if (c !== "rgba(0, 0, 0, 0)" && c !== "transparent") return c;
  }
  return "rgb(255, 255, 255)";
}"""


def _is_dark(page) -> bool:
    bg = page.evaluate(BACKGROUND)
    rgb = [int(x) for x in bg[bg.index("(") + 1:bg.index(")")].split(",")[:3]]
    return sum(rgb) < 3 * 128


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_no_serious_or_critical_axe_violations(browser, a11y_server, table, lang, theme):
    context, page = _page(browser, a11y_server, viewport={"width": 390, "height": 844},
                          locale="en-US" if lang == "en" else "zh-CN", color_scheme=theme)
    dark = theme == "dark"
    report = []
    bad = {}
    try:
        for name, url in _pages(table).items():
            page.goto(a11y_server + url)                  # the language: Accept-Language
            # the page is in the theme asked for: the background's lightness says so
            assert _is_dark(page) is dark, (name, theme, page.evaluate(BACKGROUND))
            if name == "efficiency":                       # the 牌理 panel, folded out
                assert page.locator("#result .eff-row").count() > 1
                page.locator(".eff-row details > summary").first.click()
            if name == "quiz-wild" and lang == "zh" and dark:
                SCREENSHOTS.mkdir(exist_ok=True)
                page.screenshot(path=str(SCREENSHOTS / "quiz-dark.png"), full_page=True)
            violations = _axe(page)
            report += [f"{lang} {theme} {name}: {line}" for line in _found(violations)]
            serious = [v for v in violations if v["impact"] in ("serious", "critical")]
            if serious:
                bad[name] = _found(serious)
            tiles = page.evaluate(TILE_CONTRAST)
            if name in ("quiz", "quiz-wild", "result"):
                assert tiles["n"] > 14, (name, tiles)     # the check saw the tiles
            if tiles["out"]:
                bad[f"{name} tiles"] = sorted(set(tiles["out"]))
    finally:
        context.close()
    SCREENSHOTS.mkdir(exist_ok=True)
    with open(SCREENSHOTS / "axe.txt", "a", encoding="utf-8") as out:
        out.write("\n".join(report or [f"{lang} {theme}: no violations"]) + "\n")
    assert not bad, bad


@pytest.mark.parametrize("switch", list(SWITCHES))
def test_the_switch_against_the_system_on_every_page(browser, a11y_server, table, switch):
    """Every page with the app's switch set against the system's theme: the page is in the
    switch's theme (its background), and every tile keeps its contrast there."""
    scheme, chosen = SWITCHES[switch]
    context, page = _page(browser, a11y_server, viewport={"width": 390, "height": 844},
                          color_scheme=scheme)
    page.add_init_script(f"try {{ localStorage.setItem('webcalc-theme', '{chosen}'); }}"
                         " catch (e) {}")
    bad = {}
    try:
        for name, url in _pages(table).items():
            page.goto(a11y_server + url)
            assert _is_dark(page) is (chosen == "dark"), (name, switch)
            if name == "quiz-wild" and chosen == "dark":
                SCREENSHOTS.mkdir(exist_ok=True)
                page.screenshot(path=str(SCREENSHOTS / "quiz-switch-dark.png"), full_page=True)
            tiles = page.evaluate(TILE_CONTRAST)
            if name in ("quiz", "quiz-wild", "result"):
                assert tiles["n"] > 14, (name, tiles)
            if tiles["out"]:
                bad[f"{name} tiles"] = sorted(set(tiles["out"]))
    finally:
        context.close()
    assert not bad, bad
