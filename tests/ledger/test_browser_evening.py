"""An evening at one table on a 390×844 phone (Playwright + Debian's Chromium), JavaScript on
(the no-JS path is docs/TESTING.md's: the table page's tap forms and 记入 in
test_browser_room.py with JavaScript off, every form in test_pages*.py), on SQLite: every
hand entered by palette taps on the table page, as
the calculator's room takes them; one sent from the calculator with 记入牌桌; a viewer's phone
following the table without a reload; a co-scorer's phone recording one hand, then its link
revoked (404).

The evening (郑州, default options, base 1, 东家 老王 deals first; the amounts by RULES.md ZZ-4:
each other seat pays 底 × (1 + 跑_winner + 跑_payer); ZZ-5 with 杠跑 on: a kong is paid
1 + 跑_konger + 跑_payer by each other seat (暗杠) or by the supplier (明杠); ZZ-7: the
winner deals next, 荒庄 keeps the dealer; no 点炮 in 郑州, ZZ-2):

 1. 小李 self-draws 123m456p789s11122z on 2z, no 跑: each other seat pays 1.
 2. the repro: 小李 self-draws 123m456p789s22z on 2z with his 暗杠1111z in 副露, 跑 1/2/0/3,
    阿梅 has a 明杠 张师傅 supplied → [-8, +26, -2, -16].
 3. 跑 changed: the entry carries 1/2/0/3 from hand 2, 老王's is set to 0; 阿梅 self-draws
    111m234p567s789s55z on 5z: 老王 pays 1, 小李 1+2 = 3, 张师傅 1+3 = 4.
 4. 荒庄: one tap, then the confirm; nothing paid (no kong), 阿梅 keeps the deal.
 5. 张师傅 self-draws 123m456p789s11122z with the carried 跑 0/2/0/3 (he has 3): 4, 6, 4;
    then 撤销 (undo): kept as undone, counted no more, 阿梅 deals again.
 6. the carried 跑 cleared in one tap; 老王 self-draws 123m456p789s11122z.
 7. 张师傅 bets 跑1 and self-draws 111m234p567s789s55z: each other seat pays 2.
 8. the 跑 cleared; 老王 self-draws 111m234p567s789s55z.
 9. from the calculator, 记入牌桌: 小李 self-draws 123m456p789s11122z with 跑 2 → each pays 3.
10. the co-scorer's phone: 阿梅 self-draws 111m234p567s789s55z; then the creator revokes the
    co-scorer's link and it answers 404.

For every hand the nets recorded equal the rules' amounts above, what the calculator page
showed for the same taps, and what POST /api/v1/analyze answers for the stored request. The
taps of each verified hand are counted on the table page and on the calculator (a palette
key, a radio, a choice in a list, a field typed, a button: one tap each) and printed; the
table page may take at most the calculator's + 2 (it fixes the variant and the dealer, and
adds 记入)."""

from __future__ import annotations

import pytest

from .test_browser_ledger import NAMES, new_page, open_table, press
from .test_browser_room import Taps

pytestmark = pytest.mark.browser

LIVE_MS = 10_000
WIN_A = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "1z", "2z"]   # + 2z
WIN_B = ["1m", "1m", "1m", "2p", "3p", "4p", "5s", "6s", "7s", "7s", "8s", "9s", "5z"]   # + 5z


def shown(net: list[int]) -> list[str]:
    return [f"{n:+d}" if n else "0" for n in net]


class Hand:
    """One verified hand: the tiles tapped, the 副露 built, the winning tile, who won, the 跑
    of each seat and the kongs besides the winner's (seat, type, supplier), and the nets the
    rules give."""

    def __init__(self, tiles, winning, winner, pao, net, melds=(), kongs=(), clear=False):
        self.tiles, self.winning, self.winner = tiles, winning, winner
        self.pao, self.net, self.melds, self.kongs = list(pao), net, list(melds), list(kongs)
        self.clear = clear              # on the table page: clear the carried 跑 first
        assert sum(net) == 0


HANDS = {
    1: Hand(WIN_A, "2z", 1, [0, 0, 0, 0], [-1, 3, -1, -1]),
    2: Hand(["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2z"], "2z", 1, [1, 2, 0, 3],
            [-8, 26, -2, -16], melds=[("concealed_kong", "1z")], kongs=[("2", "exposed", "3")]),
    3: Hand(WIN_B, "5z", 2, [0, 2, 0, 3], [-1, -3, 8, -4]),
    5: Hand(WIN_A, "2z", 3, [0, 2, 0, 3], [-4, -6, -4, 14]),
    6: Hand(WIN_A, "2z", 0, [0, 0, 0, 0], [3, -1, -1, -1], clear=True),
    7: Hand(WIN_B, "5z", 3, [0, 0, 0, 1], [-2, -2, -2, 6]),
    8: Hand(WIN_B, "5z", 0, [0, 0, 0, 0], [3, -1, -1, -1], clear=True),
    9: Hand(WIN_A, "2z", 1, [0, 2, 0, 0], [-3, 9, -3, -3]),
    10: Hand(WIN_B, "5z", 2, [0, 0, 0, 0], [-1, -1, 3, -1]),
}
#: the dealer of each entry (ZZ-7: the winner deals next; 荒庄 and an undone hand keep it)
DEALERS = {1: 0, 2: 1, 3: 1, 4: 2, 5: 2, 6: 2, 7: 0, 8: 3, 9: 0, 10: 1}
COUNTED = [1, 2, 3, 6, 7, 8, 9, 10]            # 4 is a 荒庄 (nets 0), 5 is undone


def totals_after(n: int) -> list[int]:
    out = [0, 0, 0, 0]
    for k in COUNTED:
        if k <= n:
            out = [a + b for a, b in zip(out, HANDS[k].net)]
    return out


def tap_tiles(t: Taps, hand: Hand):
    """The hand's tiles by the palette (the tap target is the hand on a fresh room), the
    副露 by the meld builder, the winning tile last."""
    page = t.page
    if not page.is_checked("input[name=target][value=hand]"):
        t.target("hand")
    for code in hand.tiles:
        t.key(code)
    for kind, code in hand.melds:
        t.target("melds")
        if page.input_value("#meld_type") != kind:
            t.choose("#meld_type", kind)
        t.key(code)
    t.target("winning_tile")
    t.key(hand.winning)


def tap_settlement(t: Taps, hand: Hand, dealer: int | None = None):
    """Who won, the 跑 that differ from what the entry shows, the other kongs; on the
    calculator also the dealer (the table fixes it). Without JavaScript the choices are
    sent with 分析."""
    page = t.page
    if dealer is not None:
        if page.get_attribute("#settle", "open") is None:
            t.click("#settle > summary")
        if page.input_value("#s_dealer") != str(dealer):
            t.choose("#s_dealer", str(dealer))
    if hand.clear and page.locator("#bets-clear").count():
        t.click("#bets-clear")
        if t.js:
            page.locator("#bets-again").wait_for()
    if page.input_value("#s_winner") != str(hand.winner):
        t.choose("#s_winner", str(hand.winner))
    for seat, pao in enumerate(hand.pao):
        if page.input_value(f"input[name=s_pao{seat}]") != str(pao):
            t.type(f"input[name=s_pao{seat}]", str(pao))
    for seat, kind, supplier in hand.kongs:
        t.choose(".kong-new select[name=k_seat]", seat)
        t.choose(".kong-row select[name=k_type] >> nth=0", kind)
        t.choose(".kong-row select[name=k_from] >> nth=0", supplier)
    t.settle()


def on_the_calculator(browser, base: str, js: bool, hand: Hand, dealer: int, send_to=None):
    """The same hand tapped on the calculator (a fresh page): its taps and the nets it
    shows. ``send_to``: then 记入牌桌 (JS: the table from this phone's list; without JS the
    pasted edit link), returning the table page instead of closing it."""
    from playwright.sync_api import expect

    ctx, page = send_to if send_to else new_page(browser, java_script_enabled=js)
    page.goto(base + "/")
    t = Taps(page, js)
    t.choose("#variant", "zhengzhou")
    if not js:
        t.press("#analyse")                              # the variant's room comes with it
    tap_tiles(t, hand)
    tap_settlement(t, hand, dealer)
    expect(page.locator("#result .nets td")).to_have_text(shown(hand.net))
    nets = page.locator("#result .nets td").all_inner_texts()
    if send_to is None:
        ctx.close()
    return t, nets


def analyze_net(app, variant_request: dict) -> list:
    r = app.test_client().post("/api/v1/analyze", json=variant_request)
    assert r.status_code == 200, r.json
    return r.json["settlement"]["net"]


def check_with_the_api(app, entry: dict):
    """The stored request, asked of the calculator's API with the table's variant and the
    hand's dealer: the nets the ledger recorded."""
    req = entry["request"]
    body = {k: req[k] for k in ("hand", "melds", "indicator", "winning_tile", "win_by",
                                "visible") if k in req}
    body.update(variant="zhengzhou", settlement={**req["settlement"], "dealer": entry["dealer"]})
    assert analyze_net(app, body) == entry["settlement"]["net"], (entry["number"], body)


class Viewer:
    """The second phone: the view link open, never reloaded; each change arrives in one
    poll answered 200, with the totals, the dealer and the hand list together."""

    def __init__(self, browser, base: str, view_url: str):
        self.ctx, self.page = new_page(browser)
        self.page.goto(view_url)
        self.page.evaluate("window.__same_page = true")
        self.answers: list[int] = []
        self.page.on("response", lambda r: self.answers.append(r.status)
                     if "/live" in r.url else None)
        self.seen = 0

    def sees(self, totals: list[int], dealer: int, entries: int):
        from playwright.sync_api import expect

        v = self.page
        # one condition on the whole page (an undo keeps the entry listed, so the count alone
        # says nothing): the totals, the dealer and the hand list as the change left them
        v.wait_for_function("""([totals, dealer, entries]) => {
          const t = [0, 1, 2, 3].map(i =>
            document.querySelector(`#totals td[data-seat='${i}']`)?.innerText.trim());
          return JSON.stringify(t) === JSON.stringify(totals)
            && document.querySelector('#dealer-now')?.innerText.trim() === dealer
            && document.querySelectorAll('#hands li.hand').length === entries;
        }""", arg=[[str(x) for x in totals], NAMES[dealer], entries], timeout=LIVE_MS)
        expect(v.locator("#hands li.hand")).to_have_count(entries)
        fresh = self.answers[self.seen:]
        self.seen = len(self.answers)
        assert fresh.count(200) == 1, fresh          # one poll brought the whole change
        assert v.evaluate("window.__same_page") is True


def record_by_taps(page, js: bool, hand: Hand, shot=None) -> Taps:
    """The hand tapped in on the table page, checked against its result, then 记入."""
    from playwright.sync_api import expect

    t = Taps(page, js)
    if js:
        page.evaluate("window.__same_page = true")
    tap_tiles(t, hand)
    if js:                                          # each tap swapped in place
        assert page.evaluate("window.__same_page") is True
    else:                                           # each tap a page load, back at the tiles
        assert page.url.endswith("#tap"), page.url
    if shot:                                        # the entry with the palette, filled
        page.evaluate("document.querySelector('#tap').scrollIntoView()")
        page.screenshot(path=str(shot))
    tap_settlement(t, hand)
    expect(page.locator("#result .nets td")).to_have_text(shown(hand.net))
    t.press("#record")
    return t


@pytest.mark.service_worker        # the one journey with the worker in the path of every request
@pytest.mark.parametrize("js", [True], ids=["js"])
def test_an_evening_by_taps(browser, server, capsys, record_property, js):
    from playwright.sync_api import expect

    from tests.browsers import SCREENSHOTS

    base, app = server
    ledger = app.extensions["ledger"]
    ctx, page = new_page(browser, java_script_enabled=js)
    page.on("dialog", lambda d: d.accept())
    viewer = co_ctx = None
    counts: list[tuple[int, int, int]] = []
    shots = js and app.config["DATABASE_URL"].startswith("sqlite")     # once is enough
    SCREENSHOTS.mkdir(exist_ok=True)

    def check_entry(n: int):
        entry = ledger.table(token)["hands"][n - 1]
        assert entry["number"] == n and entry["dealer"] == DEALERS[n]
        if n in HANDS:
            assert entry["settlement"]["net"] == HANDS[n].net, n
            assert entry["verified"] is True
            check_with_the_api(app, entry)
        return entry

    def verified(n: int, table_taps: Taps, extra: int = 0):
        calc, calc_nets = on_the_calculator(browser, base, js, HANDS[n], DEALERS[n])
        assert calc_nets == shown(HANDS[n].net)
        counts.append((n, table_taps.n + extra, calc.n))
        assert table_taps.n + extra <= calc.n + 2, (n, table_taps.n + extra, calc.n)

    try:
        token = open_table(page, base)
        if js:
            page.wait_for_function("() => window.htmx !== undefined")
        viewer = Viewer(browser, base, page.input_value("#view-link"))
        expect(viewer.page.locator("#totals td[data-seat='0']")).to_have_text("0")

        for n in (1, 2, 3):
            if n == 3:                            # the 跑 of hand 2, carried and shown
                expect(page.locator("#carried")).to_contain_text("同上一手")
                assert [page.input_value(f"input[name=s_pao{i}]") for i in range(4)] == \
                    ["1", "2", "0", "3"]
            shot = SCREENSHOTS / "evening-entry-palette-390x844.png" if shots and n == 2 else None
            t = record_by_taps(page, js, HANDS[n], shot)
            check_entry(n)
            expect(page.locator("#done")).to_contain_text(f"第 {n} 手已记入")
            viewer.sees(totals_after(n), DEALERS[n + 1], n)
            verified(n, t)
            if n == 2:
                assert ledger.table(token)["hands"][1]["request"]["melds"] == \
                    [{"type": "concealed_kong", "tiles": "1111z"}]
        # 4: 荒庄, one tap and the confirm; nothing paid, the dealer stays (ZZ-7)
        press(page, ".draw-button")
        expect(page.locator("h1")).to_have_text("把第 4 手记为荒庄？")
        assert ledger.table(token)["next_number"] == 4            # not yet
        press(page, "#draw-yes")
        entry = check_entry(4)
        assert entry["request"]["settlement"]["winner"] is None
        assert entry["settlement"]["net"] == [0, 0, 0, 0]
        viewer.sees(totals_after(4), 2, 4)

        # 5: recorded, then 撤销 right after: kept as undone, counted no more
        assert [page.input_value(f"input[name=s_pao{i}]") for i in range(4)] == \
            ["0", "2", "0", "3"]
        t = record_by_taps(page, js, HANDS[5])
        check_entry(5)
        viewer.sees([a + b for a, b in zip(totals_after(4), HANDS[5].net)], 3, 5)
        verified(5, t)
        expect(page.locator("#hand-5 #undo")).to_be_visible()
        press(page, "#undo")
        expect(page.locator("#hand-5 .badge-void")).to_have_text("已撤销")
        assert ledger.table(token)["hands"][4]["void_code"] == "undone"
        assert ledger.table(token)["totals"] == totals_after(5)
        viewer.sees(totals_after(5), 2, 5)

        for n in (6, 7, 8):
            t = record_by_taps(page, js, HANDS[n])
            check_entry(n)
            viewer.sees(totals_after(n), DEALERS[n + 1], n)
            verified(n, t)

        # 9: tapped on the calculator of this same phone, then 记入牌桌 to this table: with
        # JavaScript from the phone's list of tables (the table page put it there), without
        # by its pasted edit link
        sp = ctx.new_page()
        sp.set_default_timeout(10_000)
        try:
            calc, nets = on_the_calculator(browser, base, js, HANDS[9], DEALERS[9],
                                           send_to=(ctx, sp))
            sent = Taps(sp, js)
            if js:
                expect(sp.locator("#send-list a.send-to")).to_have_count(1)
                sent.click("#send-list a.send-to")
            else:
                sent.type("#send-link", f"{base}/t/{token}")
                with sp.expect_navigation():
                    sent.click("#send-button")
            sp.wait_for_url(f"**/t/{token}?**hand=123m456p789s11122z**")
            expect(sp.locator("#result .nets td")).to_have_text(nets)
            sent.press("#record")
            check_entry(9)
            # the calculator's taps, then 记入牌桌 and 记入 (without JavaScript the link is
            # pasted first: one more)
            counts.append((9, calc.n + sent.n, calc.n))
            assert sent.n == (2 if js else 3), sent.n
        finally:
            sp.close()
        viewer.sees(totals_after(9), DEALERS[10], 9)
        page.reload()

        # 10: a co-scorer's link, made on the creator's page, used on a third phone
        press(page, "#add-co-scorer")
        link = page.input_value("#new-edit-link")
        co_ctx, co = new_page(browser, java_script_enabled=js)
        co.goto(link)
        expect(co.locator("#co-scorer-note")).to_be_visible()
        t = record_by_taps(co, js, HANDS[10])
        entry = check_entry(10)
        assert entry["editor"] == 1
        viewer.sees(totals_after(10), 2, 10)
        verified(10, t)
        page.click("#back-to-table")
        page.wait_for_load_state()
        expect(page.locator("#hand-10 .badge-editor")).to_have_text("协同记分人 1 记")
        press(page, "#revoke-1")
        expect(page.locator("#co-scorer-1 .badge")).to_have_text("已收回")
        assert co.goto(link).status == 404

        t = ledger.table(token)
        assert t["totals"] == totals_after(10) == [-10, 30, 1, -21]
        assert [h["status"] for h in t["hands"]].count("recorded") == 9
        assert viewer.page.evaluate("window.__same_page") is True
        if shots:
            page.goto(base + "/t/mine")
            expect(page.locator("#my-tables li.my-table")).to_have_count(1)
            page.screenshot(path=str(SCREENSHOTS / "evening-my-tables-390x844.png"))
            page.goto(base + f"/t/{token}")
            page.emulate_media(media="print")
            page.screenshot(path=str(SCREENSHOTS / "ledger-print-390x844.png"), full_page=True)
        assert [e for e in page.console_errors if "status of 4" not in e] == []
        assert viewer.page.console_errors == []
    finally:
        ctx.close()
        if viewer:
            viewer.ctx.close()
        if co_ctx:
            co_ctx.close()
    mode = "JS on" if js else "JS off"
    lines = [f"taps per verified hand ({mode}): table page / calculator, for the same hand"]
    for n, a, b in counts:
        lines.append(f"  hand {n}: {a} / {b} (allowed {b + 2})" if n != 9 else
                     f"  hand 9, sent with 记入牌桌: the calculator's {b} + {a - b} to send "
                     "and record")
    record_property("taps", "; ".join(f"hand {n}: table {a}, calculator {b}"
                                      for n, a, b in counts))
    with capsys.disabled():
        print("\n" + "\n".join(lines))
