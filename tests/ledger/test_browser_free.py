"""A 自由记分 table in a real browser (Playwright + Debian's Chromium) at 390×844, JavaScript on
and off: /t/new opens it, eight hands are recorded, as four amounts or as a winner and what
each other seat pays, with one refused (its sum is not 0) and fixed; after each hand the
running totals are the sums of the amounts typed (worked out by hand in the comments). With
JavaScript a second phone follows the table through the view link (the live poll)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

NAMES = ["老王", "小李", "阿梅", "张师傅"]
LIVE_MS = 10_000

# (how, what, running totals after it): "points" gives the four amounts; "winner" gives the
# winner and what each other seat pays (the winner gets the sum)
HANDS = [
    ("points", ["30", "-10", "-10", "-10"], ["30", "-10", "-10", "-10"]),
    ("winner", (1, ["5", "", "5", "10"]), ["25", "10", "-15", "-20"]),        # 小李 +20
    ("points", ["-2.5", "-2.5", "7.5", "-2.5"], ["22.5", "7.5", "-7.5", "-22.5"]),
    ("winner", (3, ["8", "4", "4", ""]), ["14.5", "3.5", "-11.5", "-6.5"]),     # 张师傅 +16
    ("points", ["100", "-50", "-25", "-25"], ["114.5", "-46.5", "-36.5", "-31.5"]),
    ("winner", (0, ["", "1.5", "1.5", "3"]), ["120.5", "-48", "-38", "-34.5"]),  # 老王 +6
    ("points", ["-12", "4", "4", "4"], ["108.5", "-44", "-34", "-30.5"]),
    ("winner", (2, ["2", "2", "", "2"]), ["106.5", "-46", "-28", "-32.5"]),     # 阿梅 +6
]


def new_page(browser, js: bool):
    ctx = browser.new_context(locale="zh-CN", viewport={"width": 390, "height": 844},
                              java_script_enabled=js)
    page = ctx.new_page()
    page.set_default_timeout(10_000)
    page.console_errors = []
    page.on("console", lambda m: page.console_errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: page.console_errors.append(str(e)))
    return ctx, page


def totals(page) -> list[str]:
    return page.locator("#totals td").all_inner_texts()


def submit(page, button: str) -> None:
    with page.expect_navigation():
        page.click(button)


def open_free_table(page, base: str) -> str:
    """新开一桌 as 自由记分 with :data:`NAMES`; the edit token of the table it opened."""
    page.goto(base + "/t/new")
    page.select_option("#variant", "free")
    for i, n in enumerate(NAMES):
        page.fill(f"#n{i}", n)
    submit(page, "#new-table button.primary")
    return page.url.split("/t/")[1].split("?")[0]


def android_wechat(browser, js: bool = True, service_workers: str = "block"):
    """A phone in Android's WeChat at 390×844: its context, its page and the page's errors."""
    from tests.browsers import WECHAT_ANDROID

    ctx = browser.new_context(locale="zh-CN", viewport={"width": 390, "height": 844},
                              java_script_enabled=js, user_agent=WECHAT_ANDROID,
                              service_workers=service_workers, has_touch=True)
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return ctx, page, errors


def free_table_with_worker(page, base: str) -> str:
    """A new free table (:func:`open_free_table`), its page controlled by the service worker
    and kept in its cache."""
    from .test_browser_offline import CONTROLLED, KEPT, _until

    page.goto(base + "/")
    page.evaluate("async () => { await navigator.serviceWorker.ready; }")
    page.wait_for_function(CONTROLLED, timeout=30_000)
    token = open_free_table(page, base)
    _until(page, KEPT, f"/t/{token}")
    return token


def record_amounts(page, amounts) -> None:
    """Each seat's amount typed, then 记入."""
    for i, x in enumerate(amounts):
        page.fill(f"#free-p{i}", x)
    submit(page, "#free-record")


@pytest.mark.parametrize("js", [True, False], ids=["js", "nojs"])
def test_eight_hands_on_a_free_table(browser, server, js):
    from playwright.sync_api import expect

    from tests.browsers import SCREENSHOTS

    base, app = server
    ctx, page = new_page(browser, js)
    viewer_ctx = viewer = None
    try:
        open_free_table(page, base)
        assert "?new=1" in page.url
        expect(page.locator("h1")).to_contain_text("自由记分")
        edit = page.url.split("/t/")[1].split("?")[0]
        if js:
            viewer_ctx, viewer = new_page(browser, True)
            viewer.goto(page.input_value("#view-link"))
        for n, (how, what, after) in enumerate(HANDS, start=1):
            if how == "points":
                for i, x in enumerate(what):
                    page.fill(f"#free-p{i}", x)
                submit(page, "#free-record")
            else:
                winner, pays = what
                page.select_option("#free-winner-seat", str(winner))
                for i, x in enumerate(pays):
                    page.fill(f"#free-pay{i}", x)
                submit(page, "#free-record-winner")
            assert totals(page) == after, (n, totals(page))
            expect(page.locator(f"#hand-{n}")).to_be_visible()
            if n == 4:
                # a hand whose amounts do not sum to 0: refused, the sum said under the
                # amounts, what was typed kept, nothing recorded
                for i, x in enumerate(["10", "-5", "-5", "1"]):
                    page.fill(f"#free-p{i}", x)
                submit(page, "#free-record")
                expect(page.locator("#free-points-error")).to_contain_text(
                    "四家的分数（points）加起来应为 0，现在是 1。")
                assert page.input_value("#free-p3") == "1"
                assert totals(page) == after
                for i in range(4):
                    page.fill(f"#free-p{i}", "")
        # the nets of each hand, as typed (hand 8: 阿梅 gets 2 + 2 + 2)
        expect(page.locator("#hand-8 table.nets")).to_contain_text("阿梅 6")
        expect(page.locator("#hand-2 table.nets")).to_contain_text("小李 20")
        settle = page.locator("#settle-up li").all_inner_texts()
        assert settle == ["小李 付给 老王 46", "阿梅 付给 老王 28", "张师傅 付给 老王 32.5"]
        app.extensions["ledger"].forget_cached()
        t = app.extensions["ledger"].table(edit)
        assert t["totals"] == [106.5, -46, -28, -32.5]
        assert [h["kind"] for h in t["hands"]] == ["points"] * 8
        # undo the last hand: the totals go back to those after hand 7
        submit(page, "#undo")
        assert totals(page) == HANDS[6][2]
        SCREENSHOTS.mkdir(exist_ok=True)
        page.goto(base + f"/t/{edit}#entry")
        page.screenshot(path=str(SCREENSHOTS / f"ledger-free-{'js' if js else 'nojs'}-390x844.png"))
        page.screenshot(path=str(SCREENSHOTS / f"ledger-free-{'js' if js else 'nojs'}-full.png"),
                        full_page=True)
        if viewer is not None:           # the second phone followed without a reload
            expect(viewer.locator("#totals td").first).to_have_text(HANDS[6][2][0],
                                                                    timeout=LIVE_MS)
            assert totals(viewer) == HANDS[6][2]
            assert viewer.locator("#free-form").count() == 0
        # the refused hand's page is a 422 (the console says so); nothing else went wrong
        assert [e for e in page.console_errors if "status of 422" not in e] == []
    finally:
        ctx.close()
        if viewer_ctx is not None:
            viewer_ctx.close()


def _recorded_as_queued(page, ledger, token) -> None:
    """The two free hands the offline tests queue (30 −10 −12.5 −7.5; then 小李 wins, paid
    0.5 · 2 · 3) are recorded with the nets the queue showed, and the page's totals follow."""
    ledger.forget_cached()
    t = ledger.table(token)
    assert [h["settlement"]["net"] for h in t["hands"]] == [[30, -10, -12.5, -7.5],
                                                            [-0.5, 5.5, -2, -3]]
    assert t["totals"] == [29.5, -4.5, -14.5, -10.5]
    page.wait_for_function(
        "() => document.querySelectorAll('#totals td')[0].textContent.trim() === '29.5'")


@pytest.mark.service_worker
def test_free_hands_queued_offline_are_recorded_as_shown(browser, server):
    """Without a network two free hands are queued (the service worker keeps them); the queue
    shows each hand's four amounts; back online they are sent in order, once each, and the
    nets recorded are the ones the queue showed."""
    from .test_browser_offline import CONTROLLED, KEPT, _badge, _offline, _until

    base, app = server
    ledger = app.extensions["ledger"]
    ctx, page = new_page(browser, True)
    try:
        page.goto(base + "/")
        page.evaluate("async () => { await navigator.serviceWorker.ready; }")
        page.wait_for_function(CONTROLLED, timeout=30_000)
        token = open_free_table(page, base)
        page.goto(base + f"/t/{token}")
        _until(page, KEPT, f"/t/{token}")
        _offline(ctx, page)
        for i, x in enumerate(["30", "-10", "-12.5", "-7.5"]):
            page.fill(f"#free-p{i}", x)
        submit(page, "#free-record")
        assert _badge(page) == "1 条待上传"
        assert page.inner_text("#entry-title") == "第 2 手"
        page.select_option("#free-winner-seat", "1")
        for i, x in enumerate(["0.5", "", "2", "3"]):
            page.fill(f"#free-pay{i}", x)
        submit(page, "#free-record-winner")
        assert _badge(page) == "2 条待上传"
        items = page.locator("#queue-badge li").all_inner_texts()
        assert items == ["第 1 手：老王 +30 · 小李 -10 · 阿梅 -12.5 · 张师傅 -7.5",
                         "第 2 手：老王 -0.5 · 小李 +5.5 · 阿梅 -2 · 张师傅 -3"]
        assert ledger.table(token)["hands"] == []
        ctx.set_offline(False)
        page.wait_for_function("() => document.querySelector('#queue-badge').hidden",
                               timeout=20_000)
        _recorded_as_queued(page, ledger, token)
    finally:
        ctx.close()


def test_free_hands_queued_offline_in_ios_wechat_are_recorded_as_shown(browser, server):
    """iOS WeChat has no service worker: the table page itself queues a free hand entered
    without a network (as it does a rule-set table's 记入), shows its amounts, clears the
    entry for the next hand, and sends the queue in order once the network is back, the
    cookies cleared in between (WeChat killed). Before, 记入 offline went to the network
    and the hand was lost to the browser's error page."""
    import time

    from tests.browsers import WECHAT_IOS

    base, app = server
    ledger = app.extensions["ledger"]
    ctx = browser.new_context(locale="zh-CN", viewport={"width": 390, "height": 844},
                              user_agent=WECHAT_IOS, service_workers="block",
                              accept_downloads=False, has_touch=True)
    page = ctx.new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        token = open_free_table(page, base)
        ctx.set_offline(True)
        page.wait_for_function("() => !navigator.onLine")
        for i, x in enumerate(["30", "-10", "-12.5", "-7.5"]):
            page.fill(f"#free-p{i}", x)
        page.click("#free-record")                      # queued here: no navigation
        page.wait_for_selector("#queue-badge:not([hidden])")
        assert page.inner_text("#queue-badge .queue-count") == "1 条待上传"
        assert page.inner_text("#entry-title") == "第 2 手"
        assert [page.input_value(f"#free-p{i}") for i in range(4)] == ["", "", "", ""]
        page.select_option("#free-winner-seat", "1")
        for i, x in enumerate(["0.5", "", "2", "3"]):
            page.fill(f"#free-pay{i}", x)
        page.click("#free-record-winner")
        page.wait_for_function(
            "() => document.querySelector('#queue-badge .queue-count').textContent"
            " === '2 条待上传'")
        assert page.locator("#queue-badge li").all_inner_texts() == [
            "第 1 手：老王 +30 · 小李 -10 · 阿梅 -12.5 · 张师傅 -7.5",
            "第 2 手：老王 -0.5 · 小李 +5.5 · 阿梅 -2 · 张师傅 -3"]
        assert page.input_value("#free-winner-seat") == ""
        assert ledger.table(token)["hands"] == []
        ctx.clear_cookies()
        ctx.set_offline(False)
        deadline = time.monotonic() + 30
        while len(ledger.table(token)["hands"]) < 2:
            assert time.monotonic() < deadline, "the queued hands never arrived"
            time.sleep(0.2)
            ledger.forget_cached()
        page.wait_for_function("() => document.querySelector('#queue-badge').hidden")
        _recorded_as_queued(page, ledger, token)
        assert errors == []
    finally:
        ctx.close()


@pytest.mark.parametrize("js", [True, False], ids=["js", "nojs"])
def test_back_after_a_free_record_and_record_again_records_nothing(browser, server, js):
    """WeChat (Android's agent, service workers blocked), JS on and off: a free hand
    recorded, the back button, the same amounts typed and 记入 again: the same entry (its key
    rides in the page's URL), nothing recorded, and the page says so (before: hand 2, the
    same amounts again). The page after a record is a new entry: the same amounts record.
    Back after 撤销 and 记入: 409, the amounts kept, one tap from recording them."""
    from playwright.sync_api import expect

    from tests.browsers import SCREENSHOTS

    base, app = server
    ledger = app.extensions["ledger"]
    ctx, page, errors = android_wechat(browser, js)

    def record(amounts) -> None:
        record_amounts(page, amounts)

    try:
        token = open_free_table(page, base)
        record(["9", "-3", "-3", "-3"])
        expect(page.locator("#done")).to_contain_text("第 1 手已记入")
        page.go_back()
        page.wait_for_load_state()
        record(["9", "-3", "-3", "-3"])
        expect(page.locator("#done")).to_contain_text(
            "这一手已经记过了，是第 1 手：这次没有再记一遍。")
        assert [h["number"] for h in ledger.table(token)["hands"]] == [1]
        record(["9", "-3", "-3", "-3"])                 # a new hand, the same amounts
        expect(page.locator("#done")).to_contain_text("第 2 手已记入")
        assert totals(page) == ["18", "-6", "-6", "-6"]
        # 撤销 hand 2, then the back button to its entry (two pages back) and 记入
        submit(page, "#hand-2 #undo")
        assert totals(page) == ["9", "-3", "-3", "-3"]
        while "again=1" not in page.url:                # the entry that recorded hand 2
            page.go_back()
            page.wait_for_load_state()
        with page.expect_response(lambda r: r.request.method == "POST") as info:
            record(["9", "-3", "-3", "-3"])
        assert info.value.status == 409
        expect(page.locator(".alert[role=alert]").first).to_contain_text(
            "这一手记过一次，是第 2 手，已经撤销了：这次什么也没有记。")
        assert page.input_value("#free-p0") == "9"        # nothing lost
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        SCREENSHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"free-back-after-undo-{'js' if js else 'nojs'}"
                                                f"-390x844.png"))
        assert len(ledger.table(token)["hands"]) == 2
        submit(page, "#free-record")                    # one tap: recorded
        expect(page.locator("#done")).to_contain_text("第 2 手已记入")
        t = ledger.table(token)
        assert [(h["number"], h["status"]) for h in t["hands"]] == [
            (1, "recorded"), (2, "voided"), (3, "recorded")]
        assert t["totals"] == [18, -6, -6, -6]
        assert errors == []
    finally:
        ctx.close()



@pytest.mark.service_worker
@pytest.mark.parametrize("typed", ["same", "other"])
def test_back_offline_to_a_recorded_free_entry_and_record_again(browser, server, typed):
    """Android's WeChat (a service worker): a free hand recorded, the network gone, the back
    button (the worker answers with the table's kept copy, at the URL of the entry that was
    recorded) and 记入 again there: queued under that entry's key (before: the copy took a
    fresh key, and the same amounts were recorded twice, as hand 2). Back online:
    ``same`` amounts record nothing, and the page after is a new entry whose hand records;
    ``other`` amounts are refused by the server (that key, another body), the queue's box
    offers the hand as the next one and 重新记入 records it under a key of its own (before:
    no box on a free table, and re-applied under the refused key it was refused again)."""
    from .test_browser_offline import QUEUE, _badge, _offline

    base, app = server
    ledger = app.extensions["ledger"]
    ctx, page, errors = android_wechat(browser, service_workers="allow")

    def record(amounts) -> None:
        record_amounts(page, amounts)

    def hands() -> list:
        return [h["request"]["points"] for h in ledger.table(token)["hands"]]

    def emptied() -> None:
        page.wait_for_function("() => document.querySelector('#queue-badge').hidden",
                               timeout=20_000)
        assert page.evaluate(QUEUE) == []

    again = ["9", "-3", "-3", "-3"] if typed == "same" else ["-3", "9", "-3", "-3"]
    try:
        token = free_table_with_worker(page, base)
        entry = page.url.split("#")[0]
        key = entry.split("idempotency_key=")[1].split("&")[0]
        record(["9", "-3", "-3", "-3"])
        page.wait_for_selector("#done")
        assert hands() == [[9, -3, -3, -3]]
        _offline(ctx, page)
        page.go_back()
        page.wait_for_load_state()
        assert page.url.split("#")[0] == entry
        assert page.evaluate("() => document.documentElement.dataset.offlineCopy")
        record(again)
        assert _badge(page) == "1 条待上传"
        assert [k for _url, k in page.evaluate(QUEUE)] == [key]
        ctx.set_offline(False)
        if typed == "same":
            emptied()
            page.wait_for_function("() => !document.documentElement.dataset.offlineCopy")
            assert hands() == [[9, -3, -3, -3]]
            record(again)                               # a new hand, the same amounts
            page.wait_for_selector("#done")
            assert totals(page) == ["18", "-6", "-6", "-6"]
            assert hands() == [[9, -3, -3, -3]] * 2
        else:
            page.wait_for_selector("#queue-conflict:not([hidden])", timeout=20_000)
            assert page.inner_text("#queue-reapply") == "重新记入：记为第 2 手"
            assert hands() == [[9, -3, -3, -3]]
            page.click("#queue-reapply")
            emptied()
            assert hands() == [[9, -3, -3, -3], [-3, 9, -3, -3]]
        assert errors == []
    finally:
        ctx.close()


@pytest.mark.service_worker
def test_two_tabs_offline_on_one_free_entry_lose_no_hand(browser, server):
    """Two tabs on one free entry's page (one URL, so one key), the network gone, each
    reloaded (the kept copy, under the key its URL names) and each 记入 a different hand: both
    are queued (before: the worker queued one entry per key, and the second tab's hand was
    dropped while its page said it was queued). Back online the first is recorded, the
    second refused for its key and offered again; 重新记入 records it: two hands."""
    from .test_browser_offline import QUEUE, _badge, _offline

    base, app = server
    ledger = app.extensions["ledger"]
    ctx, page, errors = android_wechat(browser, service_workers="allow")
    try:
        token = free_table_with_worker(page, base)
        other = ctx.new_page()
        other.set_default_timeout(15_000)
        other.on("pageerror", lambda e: errors.append(str(e)))
        other.goto(page.url)
        _offline(ctx, page)
        for p in (page, other):
            p.reload()
            assert p.evaluate("() => document.documentElement.dataset.offlineCopy")
        record_amounts(page, ["9", "-3", "-3", "-3"])
        assert _badge(page) == "1 条待上传"
        record_amounts(other, ["-3", "9", "-3", "-3"])
        assert _badge(other) == "2 条待上传"
        assert len(page.evaluate(QUEUE)) == 2
        other.close()
        ctx.set_offline(False)
        page.reload()
        page.wait_for_selector("#queue-conflict:not([hidden])", timeout=20_000)
        page.click("#queue-reapply")
        page.wait_for_function("() => document.querySelector('#queue-badge').hidden",
                               timeout=20_000)
        assert [h["request"]["points"] for h in ledger.table(token)["hands"]] == [
            [9, -3, -3, -3], [-3, 9, -3, -3]]
        assert page.evaluate(QUEUE) == []
        assert errors == []
    finally:
        ctx.close()


@pytest.mark.service_worker
def test_back_offline_to_a_queued_free_entry_and_record_again_records_once(browser, server):
    """Android's WeChat, no network from the start: a free hand 记入 (queued), the back button
    to its entry's page (the kept copy, at that entry's URL) and the same amounts 记入 again:
    the same entry, queued once (before: the copy took a fresh key there, and the hand was
    queued and recorded twice). Back online: one hand."""
    from .test_browser_offline import QUEUE, _badge, _offline

    base, app = server
    ledger = app.extensions["ledger"]
    ctx, page, errors = android_wechat(browser, service_workers="allow")
    try:
        token = free_table_with_worker(page, base)
        entry = page.url.split("#")[0]
        _offline(ctx, page)
        record_amounts(page, ["9", "-3", "-3", "-3"])
        assert _badge(page) == "1 条待上传"
        page.go_back()
        page.wait_for_load_state()
        assert page.url.split("#")[0] == entry
        record_amounts(page, ["9", "-3", "-3", "-3"])
        assert _badge(page) == "1 条待上传"
        assert len(page.evaluate(QUEUE)) == 1
        ctx.set_offline(False)
        page.wait_for_function("() => document.querySelector('#queue-badge').hidden",
                               timeout=20_000)
        assert [h["request"]["points"] for h in ledger.table(token)["hands"]] == [[9, -3, -3, -3]]
        assert errors == []
    finally:
        ctx.close()
