"""A table without signal, in Debian's Chromium (Playwright, nothing installed), on SQLite and
PostgreSQL: the table page opens offline from the service worker's copy and says since when;
hands tapped in offline are queued in IndexedDB, survive a reload, and are sent once each, in
order, when the network is back; a queued hand against a table changed meanwhile shows the
server's table with re-apply and drop, and both work; big totals; the screen kept awake;
"forget" drops the copies and the queue. Screenshots at 390×844 in tests/screenshots/.

Amounts: ZZ-4, a 郑州 self-draw pays base × (1 + the payer's 跑 + the winner's 跑) from each
other seat (here no 跑: each other seat pays 1, the winner gets 3); ZZ-7, the winner deals
next."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from .test_browser_ledger import new_page, open_table, open_tiles, totals, win

pytestmark = [pytest.mark.browser, pytest.mark.service_worker]

SCREENSHOTS = Path(__file__).resolve().parent.parent / "screenshots"
WIN = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "1z", "2z", "2z"]
CONTROLLED = "() => navigator.serviceWorker.controller !== null"
KEPT = """async (path) => { const c = await caches.open('webcalc-tables');
  return !!(await c.match(location.origin + path)); }"""
QUEUE = """() => new Promise((ok, no) => { const r = indexedDB.open('webcalc', 1);
  r.onupgradeneeded = () => r.result.createObjectStore('queue', {keyPath: 'id', autoIncrement: true});
  r.onsuccess = () => { const g = r.result.transaction('queue').objectStore('queue').getAll();
    g.onsuccess = () => { ok(g.result.map(e => [e.url, e.key])); r.result.close(); }; };
  r.onerror = no; })"""


def _until(page, js: str, arg=None, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while not page.evaluate(js, arg):
        assert time.monotonic() < deadline, js
        page.wait_for_timeout(200)


def _table_with_worker(page, base: str) -> str:
    """A new 郑州 table, its page controlled by the service worker and kept in its cache."""
    page.goto(base + "/")                           # the worker installed and in control first
    page.evaluate("async () => { await navigator.serviceWorker.ready; }")
    page.wait_for_function(CONTROLLED, timeout=30_000)
    token = open_table(page, base)
    page.goto(base + f"/t/{token}")                 # this load goes through the worker: kept
    _until(page, KEPT, f"/t/{token}")
    return token


def _offline(context, page) -> None:
    context.set_offline(True)
    page.wait_for_function("() => !navigator.onLine")


def _tap_hand(page, winner: int) -> None:
    """The hand by palette taps (13 tiles, then the winning tile: the 14th), the winner
    chosen; then 记入 (no network: queued)."""
    open_tiles(page)
    for code in WIN[:-1]:
        page.click(f"button.key[value='{code}']")
    page.click("label.target:has(input[value=winning_tile])")
    page.click(f"button.key[value='{WIN[-1]}']")
    assert page.input_value("#winning_tile") == "2z"
    assert page.locator(".hand-tiles .tile").count() == 14
    page.select_option("#s_winner", str(winner))
    with page.expect_navigation():
        page.click("#record")
    page.wait_for_load_state()


def _badge(page) -> str:
    page.wait_for_selector("#queue-badge:not([hidden])")
    return page.inner_text("#queue-badge .queue-count")


def test_the_table_page_opens_offline_with_its_last_totals(browser, server):
    base, app = server
    ledger = app.extensions["ledger"]
    ctx, page = new_page(browser)
    try:
        token = _table_with_worker(page, base)
        win(page, 1)                                # 小李 self-draws: +3, the others -1
        assert totals(page) == ["-1", "3", "-1", "-1"]
        _until(page, KEPT, f"/t/{token}")
        view = page.input_value("#view-link")
        _offline(ctx, page)
        page.reload()
        assert totals(page) == ["-1", "3", "-1", "-1"]
        page.wait_for_selector("#live-status.offline")
        status = page.inner_text("#live-status")
        assert re.match(r"离线 · 自 \d\d:\d\d 起", status), status
        assert page.locator("#queue-badge").is_hidden()
        # the network is back: the page itself again, fresh
        ctx.set_offline(False)
        page.wait_for_function("() => !document.documentElement.dataset.offlineCopy", timeout=20_000)
        page.wait_for_load_state()
        # the view page, opened once online, is kept too
        page.goto(view)
        _until(page, KEPT, "/t/" + view.split("/t/")[1])
        _offline(ctx, page)
        page.reload()
        assert totals(page) == ["-1", "3", "-1", "-1"]
        assert len(ledger.table(token)["hands"]) == 1
        assert [e for e in page.console_errors if "Failed to load resource" not in e] == []
    finally:
        ctx.close()


def test_three_hands_tapped_in_offline_are_sent_once_each_in_order(browser, server):
    base, app = server
    ledger = app.extensions["ledger"]
    ctx, page = new_page(browser, has_touch=True)
    try:
        token = _table_with_worker(page, base)
        _offline(ctx, page)
        for n, winner in enumerate([1, 2, 3], start=1):
            _tap_hand(page, winner)
            assert _badge(page) == f"{n} 条待上传"
            assert page.inner_text("#entry-title") == f"第 {n + 1} 手"
        items = page.locator("#queue-badge li").all_inner_texts()
        assert items[0].startswith("第 1 手：小李 胡") and items[2].startswith("第 3 手：张师傅 胡")
        queued = page.evaluate(QUEUE)
        assert [re.search(r"expected_number=(\d+)", u).group(1) for u, _k in queued] == ["1", "2", "3"]
        assert len({k for _u, k in queued}) == 3            # a key of its own each
        assert "shown=" not in queued[0][0]
        # a reload without a network: the page from the worker, the queue from IndexedDB
        page.reload()
        assert _badge(page) == "3 条待上传"
        assert re.match(r"离线 · 自 \d\d:\d\d 起", page.inner_text("#live-status"))
        SCREENSHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "offline-table-queue-390x844.png"))
        assert ledger.table(token)["hands"] == []
        # typed text survives an offline reload: the state is in the URL
        open_tiles(page)
        page.click("button.key[value='5m']")
        page.click("button.key[value='5m']")
        assert "hand=5m" in page.url.replace("+", "").replace("%20", "")
        page.reload()
        assert page.input_value("#hand").replace(" ", "") == "5m5m"
        assert page.locator(".hand-tiles .tile").count() == 2
        # the network is back: sent in order, each once, then the page itself
        ctx.set_offline(False)
        page.wait_for_function("() => document.querySelector('#queue-badge').hidden", timeout=20_000)
        t = ledger.table(token)
        assert [h["request"]["settlement"]["winner"] for h in t["hands"]] == [1, 2, 3]
        assert [h["number"] for h in t["hands"]] == [1, 2, 3]
        assert t["totals"] == [-3, 1, 1, 1]
        page.wait_for_function("() => document.querySelectorAll('#totals td')[0].textContent.trim() === '-3'")
        assert page.evaluate(QUEUE) == []
        page.reload()
        assert len(ledger.table(token)["hands"]) == 3
    finally:
        ctx.close()


def test_a_queued_hand_against_a_changed_table_shows_the_conflict(browser, server):
    base, app = server
    ledger = app.extensions["ledger"]
    ctx, page = new_page(browser)
    other_ctx, other = new_page(browser)
    try:
        token = _table_with_worker(page, base)
        # 1. queued offline while another phone records hand 1: re-apply makes it hand 2
        _offline(ctx, page)
        _tap_hand(page, 1)
        assert _badge(page) == "1 条待上传"
        other.goto(base + f"/t/{token}")
        win(other, 3)                                 # 张师傅, hand 1, from the other phone
        ctx.set_offline(False)
        page.wait_for_selector("#queue-conflict:not([hidden])", timeout=20_000)
        assert "另一部手机" in page.inner_text("#queue-conflict")
        assert "第 1 手：小李 胡" in page.inner_text("#queue-conflict .conflict-what")
        assert page.inner_text("#queue-reapply") == "重新记入：记为第 2 手"
        assert totals(page) == ["-1", "-1", "-1", "3"]          # the server's table
        SCREENSHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "offline-conflict-390x844.png"))
        assert len(ledger.table(token)["hands"]) == 1
        page.click("#queue-reapply")
        page.wait_for_url(base + f"/t/{token}")
        page.wait_for_load_state()
        t = ledger.table(token)
        assert [h["request"]["settlement"]["winner"] for h in t["hands"]] == [3, 1]
        assert page.evaluate(QUEUE) == []
        # 2. again, and dropped: nothing recorded, the queue empty
        page.goto(base + f"/t/{token}")
        _until(page, KEPT, f"/t/{token}")
        _offline(ctx, page)
        _tap_hand(page, 2)
        other.goto(base + f"/t/{token}")
        win(other, 0)
        ctx.set_offline(False)
        page.wait_for_selector("#queue-conflict:not([hidden])", timeout=20_000)
        assert page.inner_text("#queue-reapply") == "重新记入：记为第 4 手"
        page.click("#queue-drop")
        page.wait_for_url(base + f"/t/{token}")
        page.wait_for_load_state()
        t = ledger.table(token)
        assert [h["request"]["settlement"]["winner"] for h in t["hands"]] == [3, 1, 0]
        assert page.evaluate(QUEUE) == []
        assert page.locator("#queue-badge").is_hidden()
    finally:
        ctx.close()
        other_ctx.close()


# JavaScript off: the same forms are posted without a browser in test_pages*.py, and
# the no-JS ledger journey in a browser is test_browser_room.py's palette taps (docs/TESTING.md)
@pytest.mark.parametrize("js", [True], ids=["js"])
def test_big_totals(browser, server, js):
    base, app = server
    ledger = app.extensions["ledger"]
    ctx, page = new_page(browser, java_script_enabled=js)
    try:
        token = open_table(page, base)
        ledger.record(token, {"win_by": "self_draw", "settlement": {"winner": 2}})
        view = page.input_value("#view-link")
        page.goto(view)
        page.click(".big-open")
        assert page.url.endswith("#big")
        assert page.locator("#entry, .share, .site-header").evaluate_all(
            "els => els.every(e => getComputedStyle(e).display === 'none')")
        size = page.evaluate(
            "() => parseFloat(getComputedStyle(document.querySelector('#totals td')).fontSize)")
        assert size >= 48, size
        boxes = [page.locator(f"#totals td[data-seat='{i}']").bounding_box() for i in range(4)]
        assert all(b["x"] >= 0 and b["x"] + b["width"] <= 390 for b in boxes)   # two by two
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
        if js:
            SCREENSHOTS.mkdir(exist_ok=True)
            page.screenshot(path=str(SCREENSHOTS / "big-totals-390x844.png"))
        page.click(".big-close")
        assert page.locator(".site-header").is_visible()
    finally:
        ctx.close()


def test_wake_lock_and_forget_drops_copies_and_queue(browser, server):
    base, app = server
    ctx, page = new_page(browser)
    try:
        # counts the page's asks for a screen wake lock (headless Chromium may refuse them)
        page.add_init_script("""window.__wake = 0; try { const p = WakeLock.prototype, r = p.request;
          p.request = function (t) { window.__wake += 1; return r.call(this, t); }; } catch (e) {}""")
        token = _table_with_worker(page, base)
        assert page.evaluate("() => window.__wake") >= 1
        _offline(ctx, page)
        _tap_hand(page, 1)
        assert _badge(page) == "1 条待上传"
        ctx.set_offline(True)
        page.goto(base + "/t/mine")                     # 我的牌桌 opens offline too
        page.on("dialog", lambda d: d.accept())
        page.click(".my-table-forget")
        _until(page, f"async () => !(await caches.open('webcalc-tables').then(c => c.keys())).some("
                     f"r => r.url.includes('{token}'))")
        _until(page, "async () => (await (" + QUEUE + ")()).length === 0")
    finally:
        ctx.close()


ANY_KEPT = """async (token) => (await (await caches.open('webcalc-tables')).keys())
  .some((r) => r.url.includes(token))"""


def test_a_revoked_link_leaves_no_copy_behind(browser, server):
    """A co-scorer's phone keeps the last copy of its table page (the edit link inside). Once
    the creator revokes that link the server answers 404 for it, and the worker drops every
    copy of that page at that answer: offline, the page is gone, not the old table with its
    edit form."""
    base, app = server
    ledger = app.extensions["ledger"]
    ctx, page = new_page(browser)
    try:
        owner = _table_with_worker(page, base)
        _, co = ledger.add_editor(owner)
        page.goto(base + f"/t/{co}")                    # the co-scorer's page, through the worker
        _until(page, KEPT, f"/t/{co}")
        page.goto(base + f"/t/{co}?lang=en")            # its English copy too
        _until(page, KEPT, f"/t/{co}?lang=en")
        page.evaluate("""async (path) => { const c = await caches.open('webcalc-tables');
          await c.put(location.origin + path + '/live', new Response('<p>kept poll</p>')); }""",
                      f"/t/{co}")                       # what ledger.js keeps of its poll
        ledger.revoke_editor(owner, 1)
        response = page.goto(base + f"/t/{co}")         # online: the server's 404
        assert response.status == 404
        _until(page, f"async () => !(await ({ANY_KEPT})('{co}'))")
        _offline(ctx, page)
        page.goto(base + f"/t/{co}")                    # offline: no copy to show
        assert co not in page.content() and "#record" not in page.content()
        assert page.locator("#record").count() == 0 and page.locator("#totals").count() == 0
        # the creator's own copy is untouched
        assert page.evaluate(KEPT, f"/t/{owner}")
    finally:
        ctx.close()


def test_a_poll_answered_404_drops_the_copies(browser, server):
    """The poll (``/t/<token>/live``) answered 404 for a replaced link drops the copies as the
    page itself does (410 likewise: the app answers none)."""
    base, app = server
    ledger = app.extensions["ledger"]
    ctx, page = new_page(browser)
    try:
        token = _table_with_worker(page, base)
        assert page.evaluate(f"async () => (await fetch('/t/{token}/live')).status") == 200
        ledger.rotate(token)                            # the old edit link answers 404 now
        status = page.evaluate(f"async () => (await fetch('/t/{token}/live')).status")
        assert status == 404
        _until(page, f"async () => !(await ({ANY_KEPT})('{token}'))")
    finally:
        ctx.close()
