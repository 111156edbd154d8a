"""The round-two forms of the table page in a real browser (Playwright + Debian's Chromium), with
JavaScript on and off, on SQLite and PostgreSQL: 撤销 (undo) right after a record, 荒庄 in one
tap and a confirm, a co-scorer's link added, used in another context and revoked (404), the
links replaced; and the printed evening summary (print media at 390×844: looked at, and one
A4 page as a PDF).

Amounts: ZZ-4, a 郑州 self-draw pays base × (1 + the payer's 跑 + the winner's 跑) from each
other seat; ZZ-7, the winner deals next and 荒庄 keeps the dealer."""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest

from .test_browser_ledger import new_page, open_table, press, totals, win

pytestmark = pytest.mark.browser

SHOTS = Path(os.environ.get("WEBCALC_SHOTS", "/tmp/webcalc-shots"))


# JavaScript off: the same forms are posted without a browser in test_pages*.py, and
# the no-JS ledger journey in a browser is test_browser_room.py's palette taps (docs/TESTING.md)
@pytest.mark.parametrize("js", [True], ids=["js"])
def test_undo_draw_confirm_co_scorer_and_new_links(browser, server, js):
    from playwright.sync_api import expect

    base, app = server
    ledger = app.extensions["ledger"]
    ctx, page = new_page(browser, java_script_enabled=js)
    cctx, co_page = new_page(browser, java_script_enabled=js)
    try:
        token = open_table(page, base)
        # 1: 小李 self-draws, 老王 跑1 → 老王 pays 2, the others 1 (ZZ-4)
        win(page, 1, pao=[1, 0, 0, 0], js=js)
        assert totals(page) == ["-2", "4", "-1", "-1"]
        # 2: 阿梅 self-draws, then 撤销 right after: the totals are back, kept as undone
        win(page, 2, js=js)
        assert totals(page) != ["-2", "4", "-1", "-1"]
        expect(page.locator("#hand-2 #undo")).to_be_visible()
        press(page, "#undo")
        assert totals(page) == ["-2", "4", "-1", "-1"]
        expect(page.locator("#hand-2 .badge-void")).to_have_text("已撤销")
        expect(page.locator("#hand-1 #undo")).to_be_visible()        # now the last one
        assert ledger.table(token)["hands"][1]["void_code"] == "undone"
        # entry 3, the second hand played (the undone one takes no place: issue 36.3):
        # 荒庄: one tap asks, the confirm records; the dealer stays 小李 (ZZ-7)
        press(page, ".draw-button")
        expect(page.locator("h1")).to_have_text("把第 2 手记为荒庄？")
        assert len(ledger.table(token)["hands"]) == 2
        press(page, "#draw-yes")
        t = ledger.table(token)
        assert t["hands"][2]["request"]["settlement"]["winner"] is None
        assert (t["dealer"], t["totals"]) == (1, [-2, 4, -1, -1])
        # a co-scorer: added by the creator, records from its own phone, then revoked
        press(page, "#add-co-scorer")
        link = page.input_value("#new-edit-link")
        assert page.locator("#co-scorer-link .qr img").count() == 1       # its QR code
        expect(page.locator("#co-scorer-link .qr-link")).to_have_text(link)
        co_page.goto(link)
        expect(co_page.locator("#co-scorer-note")).to_be_visible()
        assert co_page.locator("#add-co-scorer").count() == 0
        win(co_page, 3, js=js)                                 # 张师傅 self-draws: 2 + 1 + 1
        assert totals(co_page) == ["-4", "3", "-2", "3"]
        assert ledger.table(token)["hands"][3]["editor"] == 1
        page.click("#back-to-table")
        page.wait_for_load_state()
        expect(page.locator("#hand-4 .badge-editor")).to_have_text("协同记分人 1 记")
        press(page, "#revoke-1")
        expect(page.locator("#co-scorer-1 .badge")).to_have_text("已收回")
        assert co_page.goto(link).status == 404
        # replace the links (the view link too): the old ones answer 404
        view_url = page.input_value("#view-link")
        page.click("#replace-links")
        page.check("#rotate-view")
        page.click("#rotate-button")
        page.wait_for_url(re.compile(r".*/t/[^/?]+\?rotated=view"))
        assert token not in page.url
        expect(page.locator("#rotated")).to_be_visible()
        assert page.input_value("#view-link") != view_url
        assert co_page.goto(base + f"/t/{token}").status == 404
        assert co_page.goto(view_url).status == 404
        assert co_page.goto(page.input_value("#view-link")).status == 200
        assert totals(co_page) == ["-4", "3", "-2", "3"]
        assert page.console_errors == []
        # the co-scorer's phone saw the 404s asked for above, and nothing else went wrong
        assert [e for e in co_page.console_errors if "404" not in e] == []
    finally:
        ctx.close()
        cctx.close()


def _evening(ledger, token: str, rng: random.Random) -> None:
    """16 entries, as an evening: wins with 跑, 荒庄, a fee, a void and an undo."""
    hands = ["123m456p789s11122z", "111m234p567s789s55z"]
    for n in range(14):
        if n % 5 == 4:
            ledger.record(token, {"settlement": {"winner": None}})
            continue
        tiles = hands[n % 2]
        ledger.record(token, {"hand": tiles, "winning_tile": tiles[-2:], "win_by": "self_draw",
                              "settlement": {"winner": rng.randrange(4),
                                             "pao": [rng.randint(0, 2) for _ in range(4)]}})
    ledger.record(token, {"adjustment": {"fee": 40, "paid_by": 0, "note": "台费"}})
    ledger.void(token, 3, "记错了")
    ledger.record(token, {"settlement": {"winner": None}})
    ledger.undo(token, 16)


def test_the_printed_evening_is_one_page(browser, server):
    """The table page under print media: the totals, the settle-up and every entry, no form,
    no QR code, no chart; saved as a PDF it is one A4 page. The screenshot at 390×844 goes to
    $WEBCALC_SHOTS (default /tmp/webcalc-shots) to be looked at."""
    base, app = server
    ledger = app.extensions["ledger"]
    ctx, page = new_page(browser)
    try:
        token = open_table(page, base)
        _evening(ledger, token, random.Random(8))
        page.goto(base + f"/t/{token}")
        page.emulate_media(media="print")
        for hidden in ("#entry", "#adjust", "#share", "#links", ".exports", ".chart",
                       ".site-header", "form"):
            for el in page.locator(hidden).all():
                assert not el.is_visible(), hidden
        assert page.locator("#totals").is_visible() and page.locator("#settle-up").is_visible()
        assert page.locator("#hands > li").count() == 16
        assert all(page.locator(f"#hand-{n}").is_visible() for n in range(1, 17))
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "ledger-print-390x844.png"), full_page=True)
        page.set_viewport_size({"width": 794, "height": 1123})        # A4 at 96 dpi
        page.screenshot(path=str(SHOTS / "ledger-print-a4.png"), full_page=True)
        pdf = page.pdf(format="A4", print_background=False)
        (SHOTS / "ledger-print.pdf").write_bytes(pdf)
        pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
        assert pages == 1, pages
        assert page.console_errors == []
    finally:
        ctx.close()
