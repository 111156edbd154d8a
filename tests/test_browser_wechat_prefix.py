"""iOS WeChat (no service worker) with the app mounted under a prefix (``SCRIPT_NAME=/calc``,
as a proxy serving it at ``https://host/calc/`` sets it), at 390×844: a 记入 pressed without
a network is queued by the page itself and nothing on the page says it was not recorded
(before: ledger.js's guard for the writes it does not queue matched ``/t/<edit>/hands`` only
at the root, so under /calc it also wrote "No network: this was not recorded" under the
queued entry, and a referee who believed it typed the hand again: recorded twice). Back
online, the queued hand is sent once.

Android's WeChat (XWeb: service workers) under the same prefix: the worker registers with the
scope /calc/, the pages it keeps open without a network, and a 记入 without one is queued by
the worker and sent once when the network is back (before: the page registered /sw.js, which
under /calc is not the app's, and the worker matched root paths only: no worker, no offline
copy, no worker queue)."""

from __future__ import annotations

import pytest

from .browsers import WECHAT_ANDROID, WECHAT_IOS, served
from .ledger.test_browser_ledger import open_table, totals
from .test_browser_wechat import _wechat, queue_offline, sent_once

pytestmark = pytest.mark.browser


@pytest.fixture()
def server(tmp_path):
    """The app under /calc on a database of its own, served by werkzeug: (base URL, app)."""
    from werkzeug.exceptions import NotFound
    from werkzeug.middleware.dispatcher import DispatcherMiddleware

    from webcalc import create_app

    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path}/prefix.db"})
    try:
        with served(DispatcherMiddleware(NotFound(), {"/calc": app})) as base:
            yield base + "/calc", app
    finally:
        app.extensions["ledger"].dispose()


def test_a_hand_queued_offline_under_a_prefix_is_not_said_to_be_lost(browser, server):
    base, app = server
    ctx, page = _wechat(browser, WECHAT_IOS)
    try:
        token = open_table(page, base)
        assert page.url.startswith(base + "/t/")
        queued = queue_offline(ctx, page)
        assert len(queued) == 1 and "/calc/t/" in queued[0]["url"]
        assert page.locator(".offline-not-recorded").count() == 0, \
            page.locator(".offline-not-recorded").all_inner_texts()
        assert page.errors == []
        ctx.set_offline(False)
        sent_once(app, token, (page,), [-1, 3, -1, -1], settle=3)
    finally:
        ctx.close()


# (null after 30 s: a page whose worker never registers waits on ``ready`` for ever)
READY = """async () => { const reg = await Promise.race([navigator.serviceWorker.ready,
    new Promise((ok) => setTimeout(() => ok(null), 30000))]);
  return reg ? [reg.scope, reg.active && reg.active.scriptURL] : null; }"""
CONTROLLED = "() => navigator.serviceWorker.controller !== null"
KEPT = "async ([name, url]) => !!(await (await caches.open(name)).match(url, {ignoreVary: true}))"
QUEUE = """() => new Promise((ok, no) => { const r = indexedDB.open('webcalc', 1);
  r.onupgradeneeded = () => r.result.createObjectStore('queue', {keyPath: 'id', autoIncrement: true});
  r.onsuccess = () => { const g = r.result.transaction('queue').objectStore('queue').getAll();
    g.onsuccess = () => { ok(g.result.map(e => [e.table, e.url])); r.result.close(); }; };
  r.onerror = no; })"""


def _kept(page, name: str, url: str) -> None:
    page.wait_for_function(KEPT, arg=[name, url], timeout=30_000)


@pytest.mark.service_worker
def test_the_service_worker_under_a_prefix_keeps_pages_and_queues(browser, server):
    base, app = server
    ctx = browser.new_context(locale="zh-CN", viewport={"width": 390, "height": 844},
                              user_agent=WECHAT_ANDROID, service_workers="allow",
                              has_touch=True)
    page = ctx.new_page()
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(base + "/")
        assert page.evaluate(READY) == [base + "/", base + "/sw.js"]
        page.wait_for_function(CONTROLLED, timeout=30_000)
        shell = page.evaluate("() => caches.keys()")
        assert [n for n in shell if n.startswith("webcalc-shell-")], shell
        _kept(page, shell[0], base + "/offline")                 # the shell, under /calc
        token = open_table(page, base)
        page.goto(base + f"/t/{token}")                         # through the worker: kept
        _kept(page, "webcalc-tables", base + f"/t/{token}")
        page.wait_for_function("() => !!localStorage.getItem('webcalc.outcomes.v1')")

        ctx.set_offline(True)
        page.wait_for_function("() => !navigator.onLine")
        page.goto(base + "/")                                   # the calculator, kept
        assert page.locator("button.key").count() == 34
        page.goto(base + f"/t/{token}")                         # the table's copy
        assert page.evaluate("() => document.documentElement.dataset.offlineCopy")
        assert totals(page) == ["0", "0", "0", "0"]
        page.select_option("#s_winner", "1")                   # 小李 self-draws: queued
        with page.expect_navigation():
            page.click("#record")
        page.wait_for_selector("#queue-badge:not([hidden])")
        assert page.inner_text("#queue-badge .queue-count") == "1 条待上传"
        queued = page.evaluate(QUEUE)
        assert len(queued) == 1 and queued[0][0] == f"/calc/t/{token}", queued
        assert queued[0][1].startswith(f"/calc/t/{token}/hands?")
        assert app.extensions["ledger"].table(token)["hands"] == []

        ctx.set_offline(False)                                  # sent once, in order
        page.wait_for_function("() => document.querySelector('#queue-badge').hidden",
                               timeout=30_000)
        hands = app.extensions["ledger"].table(token)["hands"]
        assert [(h["number"], h["settlement"]["net"]) for h in hands] == [(1, [-1, 3, -1, -1])]
        assert page.evaluate(QUEUE) == []
        assert errors == []
    finally:
        ctx.close()
