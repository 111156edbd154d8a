"""axe-core (axe-playwright-python, pinned in constraints.txt) on the pages a table uses, in
Debian's Chromium: the calculator with a result, the 牌理 panel of a 14-tile hand, the rules
pages, the offline page, a table's edit and view pages and a 自由记分 table's page (made
through the JSON API) and /t/new with it chosen, in
Chinese and English, light and dark. No serious or critical violation; the others are printed
(tests/screenshots/axe.txt keeps the last run's list)."""

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
}


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
    through the JSON API: (edit, view, the free table's edit)."""
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
    return edit, made["view_token"], free["edit_token"]


def _axe(page) -> list[dict]:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page, options={"runOnly": {"type": "tag", "values": TAGS},
                                       "resultTypes": ["violations"]})
    return results.response["violations"]


def _found(violations) -> list[str]:
    return [f"{v['impact']}: {v['id']} ({len(v['nodes'])}) e.g. {v['nodes'][0]['target']}"
            f" — {v['nodes'][0].get('failureSummary', '').splitlines()[-1:]}" for v in violations]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_no_serious_or_critical_axe_violations(browser, a11y_server, table, lang, scheme):
    edit, view, free = table
    pages = dict(PAGES, table=f"/t/{edit}", view=f"/t/{view}", free=f"/t/{free}",
                 new="/t/new?variant=free&pick=1")
    context, page = _page(browser, a11y_server, viewport={"width": 390, "height": 844},
                          locale="en-US" if lang == "en" else "zh-CN", color_scheme=scheme)
    report = []
    bad = {}
    try:
        for name, url in pages.items():
            page.goto(a11y_server + url)                  # the language: Accept-Language
            if name == "efficiency":                       # the 牌理 panel, folded out
                assert page.locator("#result .eff-row").count() > 1
                page.locator(".eff-row details > summary").first.click()
            violations = _axe(page)
            report += [f"{lang} {scheme} {name}: {line}" for line in _found(violations)]
            serious = [v for v in violations if v["impact"] in ("serious", "critical")]
            if serious:
                bad[name] = _found(serious)
    finally:
        context.close()
    SCREENSHOTS.mkdir(exist_ok=True)
    with open(SCREENSHOTS / "axe.txt", "a", encoding="utf-8") as out:
        out.write("\n".join(report or [f"{lang} {scheme}: no violations"]) + "\n")
    assert not bad, bad
