"""One screen per hand (issue 36.1): an evening at a table on a 390×844 phone with touch
(Playwright + Debian's Chromium), on SQLite, the tables opened on the app's own page (/t/new).

JavaScript on: a 郑州 table and a 盘锦 table (加钢 on), 8 hands each: wins without tiles
(自摸, 点炮, 杠上开花), 跑 and 加钢 changed, a 荒庄, one win with its tiles tapped on the
palette. Every record's 303 lands on the entry (``#entry``); for each win without tiles the
test holds that nothing scrolls from landing to pressing 记入 (``window.scrollY`` unchanged,
and every control the hand needs inside the viewport before it is tapped: Playwright would
scroll to one that is not), and prints the taps per hand; a quick 点炮 takes at most 4 taps
(胡牌者, 胡法, 点炮者, 记入). The nets the page previews and records are the engine's for the
same request (webcalc.analysis: settle_without_tiles, analyze), and the dealer shown is the
one the engine's ``next_dealer`` gave. A 自由记分 table, 8 hands (Chinese and English):
amounts typed (one tap each) or a winner and what the others pay, the whole entry on the
screen and nothing scrolling from one 记入 to the next, the same way. JavaScript off: a 郑州
journey of three hands, each choice sent with 分析, whose answer lands on ``#entry`` as the
record's does, the whole outcome in view. Screenshots after a record (JS on and off) go to tests/screenshots/.
"""

from __future__ import annotations

import pytest

from webcalc.analysis import analyze, settle_without_tiles

from .browsers import SCREENSHOTS, served
from .ledger.test_browser_free import HANDS as FREE

pytestmark = pytest.mark.browser

VIEW = {"width": 390, "height": 844}
NAMES = ["老王", "小李", "阿梅", "张师傅"]
TILES_A = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "1z", "2z"]  # + 2z
COUNTERS = """
window.__inflight = 0; window.__swaps = 0;
document.addEventListener("htmx:before:request", function () { window.__inflight += 1; });
document.addEventListener("htmx:finally:request", function () { window.__inflight -= 1; });
document.addEventListener("htmx:after:swap", function () { window.__swaps += 1; });
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The app on a SQLite file of its own, served by werkzeug in a thread."""
    from webcalc import create_app

    db = tmp_path_factory.mktemp("thumb") / "ledger.sqlite3"
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{db}"})
    try:
        with served(app) as base:
            yield base, app
    finally:
        app.extensions["ledger"].dispose()


def phone(browser, js: bool, locale: str = "zh-CN"):
    ctx = browser.new_context(locale=locale, viewport=VIEW, has_touch=True, is_mobile=True,
                              java_script_enabled=js)
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    if js:
        page.add_init_script(COUNTERS)
    return ctx, page


def shown(n) -> str:
    return f"{n:+g}" if n else "0"


def open_table(page, base: str, variant: str, options: tuple[str, ...] = ()) -> str:
    """新开一桌 on /t/new: the variant (its options shown), the names, 东家 deals first."""
    page.goto(f"{base}/t/new?variant={variant}&pick=1")
    assert page.input_value("#variant") == variant
    for i, n in enumerate(NAMES):
        page.fill(f"#n{i}", n)
    page.select_option("#dealer", "0")
    if options and page.get_attribute("#options", "open") is None:
        page.click("#options > summary")
    for name in options:
        page.check(f"#opt_{name}")
    page.click("#new-table button.primary")
    page.wait_for_url("**/t/*?new=1*")      # a free table's names its entry's key
    return page.url.split("?")[0]


class Hand:
    """One hand as a player enters it: who won and how (``winner`` None: 荒庄), who discarded,
    the bets changed from what the entry carries (``pao``: seat → 跑, ``gang``: seats whose
    加钢 box is tapped), the carried bets cleared first, the tiles tapped (then the winning
    tile ``tiles[-1]`` goes to 和牌张)."""

    def __init__(self, winner, win_by="self_draw", discarder=None, pao=None, gang=(),
                 clear=False, tiles=None):
        self.winner, self.win_by, self.discarder = winner, win_by, discarder
        self.pao, self.gang, self.clear, self.tiles = dict(pao or {}), list(gang), clear, tiles

    @property
    def quick_discard(self) -> bool:
        return self.win_by == "discard" and not self.tiles and not (self.pao or self.gang
                                                                    or self.clear)


class Table:
    """The rules' side of the evening: the bets carried from hand to hand, the dealer the
    engine says deals next, the expected nets of each hand (the engine's), the totals."""

    def __init__(self, variant: str, options: dict):
        self.variant, self.options = variant, options
        self.dealer, self.pao, self.jiagang = 0, [0] * 4, [False] * 4
        self.totals = [0] * 4

    def expect(self, hand: Hand) -> tuple[list, int]:
        if hand.clear:
            self.pao, self.jiagang = [0] * 4, [False] * 4
        for seat, n in hand.pao.items():
            self.pao[seat] = n
        for seat in hand.gang:
            self.jiagang[seat] = not self.jiagang[seat]
        s = {"base": 1, "dealer": self.dealer, "winner": hand.winner}
        if hand.discarder is not None:
            s["discarder"] = hand.discarder
        if any(self.pao):
            s["pao"] = list(self.pao)
        if any(self.jiagang):
            s["jiagang"] = list(self.jiagang)
        req = {"variant": self.variant, "settlement": s}
        if self.options:
            req["options"] = self.options
        if hand.winner is not None:
            req["win_by"] = hand.win_by
        if hand.tiles:
            req.update(hand="".join(hand.tiles), winning_tile=hand.tiles[-1])
            settlement = analyze(req).settlement
        else:
            settlement = settle_without_tiles(req).settlement
        net = settlement["net"]
        nxt = settlement.get("next_dealer")
        return net, (nxt["seat"] if nxt else self.dealer)


class Thumb:
    """A phone at the table: taps counted (a tap, a choice in a list, a number typed: one
    each), and each control checked to be on the screen before it is touched."""

    def __init__(self, page, js: bool):
        self.page, self.js, self.taps, self.y = page, js, 0, None

    def in_view(self, selector: str):
        box = self.page.locator(selector).first.bounding_box()
        assert box is not None, f"{selector} is not shown"
        assert box["y"] >= 0 and box["y"] + box["height"] <= VIEW["height"], \
            f"{selector} is off the screen at y={box['y']:.0f}..{box['y'] + box['height']:.0f}"

    def settled(self, swaps: int):
        if self.js:
            self.page.wait_for_function(
                "n => window.__swaps > n && window.__inflight === 0", arg=swaps)

    def swaps(self) -> int:
        return self.page.evaluate("window.__swaps") if self.js else 0

    def choose(self, selector: str, value: str, check=True, swap=True):
        if check:
            self.in_view(selector)
        self.taps += 1
        n = self.swaps()
        self.page.locator(selector).select_option(value)
        if swap:
            self.settled(n)

    def tap(self, selector: str, check=True, swap=True):
        if check:
            self.in_view(selector)
        self.taps += 1
        n = self.swaps()
        self.page.locator(selector).first.tap()
        if swap:
            self.settled(n)

    def number(self, selector: str, value: str, swap=True):
        self.in_view(selector)
        self.taps += 1
        n = self.swaps()
        self.page.locator(selector).fill(value)
        self.page.locator(selector).dispatch_event("change")
        if swap:
            self.settled(n)

    def analyse(self):
        """Without JavaScript: 分析 (in the record bar) sends the choices; lands on #entry."""
        self.in_view("#analyse")
        self.taps += 1
        with self.page.expect_navigation():
            self.page.locator("#analyse").tap()
        self.page.wait_for_load_state("load")
        self.landed()

    def press(self, selector: str, check=True):
        """记入 / 荒庄 / 确认: the browser posts the form; waits for the page the 303 names."""
        if check:
            self.in_view(selector)
        self.taps += 1
        with self.page.expect_response(lambda r: r.request.method == "POST",
                                       timeout=30_000) as info:
            self.page.locator(selector).tap()
        resp = info.value
        if resp.status == 303:
            where = resp.headers["location"].split("#")[0]
            self.page.wait_for_url(lambda u: u.split("#")[0].endswith(where))
        self.page.wait_for_load_state("load")

    def landed(self):
        """After a page load on #entry: where the page sits."""
        self.page.wait_for_function("() => location.hash === '#entry'")
        self.page.wait_for_timeout(150)         # the scroll to the fragment
        self.y = self.page.evaluate("window.scrollY")
        assert self.y > 0, "the page did not move to #entry"

    def still(self):
        """No scrolling since the page landed."""
        assert self.page.evaluate("window.scrollY") == self.y


def outcome_in_view(t: Thumb, discard: bool):
    """The next hand's outcome, all on the screen: 胡牌者, 胡法, (点炮者), the bets, the nets
    preview, 记入 and 荒庄."""
    for sel in ("#tiles > summary", "#s_winner", "#win_by", "#record-what", "#record", "#draw"):
        t.in_view(sel)
    if discard:
        t.in_view("#s_discarder")
    if t.page.locator("table.seat-columns").count():
        t.in_view("table.seat-columns")


def play(t: Thumb, table: Table, n: int, hand: Hand, tabled_url: str, capsys) -> None:
    page = t.page
    net, next_dealer = table.expect(hand)
    assert page.inner_text("#entry-title") == f"第 {n} 手"
    assert NAMES[table.dealer] in page.inner_text("#dealer-fixed")
    quick = not hand.tiles
    if quick:
        outcome_in_view(t, table.variant == "panjin")
    t.taps = 0
    if hand.winner is None:                                 # 荒庄: one tap and a confirm
        t.press("#draw")
        page.locator("#draw-confirm").wait_for()
        t.press("#draw-yes", check=False)
    else:
        if hand.tiles:
            t.tap("#tiles > summary", swap=False)
            assert page.get_attribute("#tiles", "open") is not None
            # opened by the user, it stays open through a swap that brings no tile
            t.choose("#s_winner", str(hand.winner), check=False)
            assert page.get_attribute("#tiles", "open") is not None
            key_y = None
            for code in hand.tiles[:-1]:
                t.tap(f"button.key[value='{code}']", check=False)
                y = page.locator("button.key[value='1m']").bounding_box()["y"]
                assert key_y in (None, y), "the palette moved under the finger"
                key_y = y
                assert page.get_attribute("#tiles", "open") is not None
            t.tap("label.target:has(input[value=winning_tile])", check=False)
            t.tap(f"button.key[value='{hand.tiles[-1]}']", check=False)
        if hand.clear:
            t.tap("#bets-clear")
        for seat, x in hand.pao.items():
            t.number(f"input[name=s_pao{seat}]", str(x))
        for seat in hand.gang:
            t.tap(f"#s_jiagang{seat}")
        if not hand.tiles:
            t.choose("#s_winner", str(hand.winner))
        if hand.win_by != "self_draw":
            t.choose("#win_by", hand.win_by, check=quick)
        if hand.discarder is not None:
            t.choose("#s_discarder", str(hand.discarder), check=quick)
        preview = page.locator("#record-what .quick-net b").all_inner_texts()
        assert preview == [shown(x) for x in net]
        if quick:
            t.still()
            outcome_in_view(t, hand.discarder is not None)
        t.press("#record", check=quick)
    t.landed()
    done = page.locator("#done .done-net b").all_inner_texts()
    assert done == [shown(x) for x in net], (n, done, net)
    table.totals = [a + b for a, b in zip(table.totals, net)]
    table.dealer = next_dealer
    kind = ("荒庄" if hand.winner is None else
            f"{NAMES[hand.winner]} {'点炮' if hand.win_by == 'discard' else hand.win_by}"
            + (" 验牌" if hand.tiles else ""))
    with capsys.disabled():
        print(f"\n  {table.variant} hand {n}: {kind}: {t.taps} taps, landed at y={t.y}, "
              f"nets {net}")
    if hand.quick_discard:
        assert t.taps <= 4, f"a quick 点炮 took {t.taps} taps"


ZHENGZHOU = [
    Hand(1),
    Hand(2, pao={0: 1, 2: 2}),
    Hand(None),
    Hand(3),
    Hand(0, clear=True),
    Hand(1, tiles=TILES_A + ["2z"]),
    Hand(1, win_by="kong_replacement", pao={1: 1}),
    Hand(2),
]
PANJIN = [
    Hand(1),
    Hand(2, win_by="discard", discarder=0),
    Hand(None),
    Hand(3, win_by="discard", discarder=1, gang=[3]),
    Hand(0, tiles=TILES_A + ["2z"]),
    Hand(0, win_by="discard", discarder=2),
    Hand(1),
    Hand(2, win_by="discard", discarder=3),
]


@pytest.mark.parametrize("variant, options, hands", [
    ("zhengzhou", {}, ZHENGZHOU), ("panjin", {"jiagang": True}, PANJIN)],
    ids=["zhengzhou", "panjin"])
def test_an_evening_one_screen_per_hand(browser, server, capsys, variant, options, hands):
    base, _app = server
    ctx, page = phone(browser, js=True)
    try:
        url = open_table(page, base, variant, tuple(options))
        page.goto(url + "#entry")               # as a record's 303 lands
        t = Thumb(page, js=True)
        t.landed()
        table = Table(variant, options)
        for n, hand in enumerate(hands, start=1):
            play(t, table, n, hand, url, capsys)
            if n == 1:
                page.screenshot(path=str(SCREENSHOTS / f"thumb-{variant}-after-record.png"))
        assert page.locator("#totals td").all_inner_texts() == [f"{x:g}" for x in table.totals]
        assert not page.errors
    finally:
        ctx.close()


def test_without_javascript_the_answer_lands_on_the_entry(browser, server, capsys):
    """No JavaScript: each choice is sent with 分析 (formaction …#entry), whose 303 keeps
    the fragment as the record's does: the outcome stays on the screen, the page put back
    where it was, from one 记入 to the next."""
    base, _app = server
    ctx, page = phone(browser, js=False)
    try:
        url = open_table(page, base, "zhengzhou")
        page.goto(url + "#entry")
        t = Thumb(page, js=False)
        t.landed()
        table = Table("zhengzhou", {})
        for n, winner in enumerate((1, 3, 0), start=1):
            hand = Hand(winner)
            net, next_dealer = table.expect(hand)
            y = t.y
            outcome_in_view(t, False)
            t.taps = 0
            t.choose("#s_winner", str(winner))
            t.analyse()
            assert t.y == y, "分析 did not bring the page back to the entry"
            outcome_in_view(t, False)
            preview = page.locator("#record-what .quick-net b").all_inner_texts()
            assert preview == [shown(x) for x in net]
            t.press("#record")
            t.landed()
            assert t.y == y
            assert page.locator("#done .done-net b").all_inner_texts() == [shown(x) for x in net]
            table.totals = [a + b for a, b in zip(table.totals, net)]
            table.dealer = next_dealer
            with capsys.disabled():
                print(f"\n  no JS hand {n}: {NAMES[winner]} 自摸: {t.taps} taps, y={t.y}")
            if n == 1:
                page.screenshot(path=str(SCREENSHOTS / "thumb-nojs-after-record.png"))
        assert page.locator("#totals td").all_inner_texts() == [f"{x:g}" for x in table.totals]
        # tiles wanted: the fold opened here stays open through taps (tiles=1 rides in the
        # form), even one that empties the hand
        page.locator("#tiles > summary").tap()
        for selector in ("button.key[value='5m']", "button[name=clear]"):
            with page.expect_navigation():
                page.locator(selector).tap()
            page.wait_for_load_state("load")
            assert page.get_attribute("#tiles", "open") is not None, selector
        assert page.locator(".hand-tiles .tile").count() == 0
    finally:
        ctx.close()


#: a free table's whole entry: both ways to give a hand, the dealer and the note
FREE_ENTRY = ["#entry-title"] + [f"#free-p{i}" for i in range(4)] + ["#free-record",
              "#free-winner-seat"] + [f"#free-pay{i}" for i in range(4)] + [
              "#free-record-winner", "#free-dealer", "#free-note"]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_free_table_one_screen_per_hand(browser, server, capsys, lang):
    """A 自由记分 table, 8 hands at 390×844 with JavaScript, in Chinese and in English (whose
    headings take two lines): after each record the page lands on #entry with the whole
    entry on the screen (the four amounts and their 记入, the winner, what each pays and its
    记入, 庄家, 备注), nothing scrolls from one 记入 to the next, and the nets recorded are
    the amounts typed (a winner gets what the others pay)."""
    base, _app = server
    ctx, page = phone(browser, js=True, locale="zh-CN" if lang == "zh" else "en-US")
    try:
        url = open_table(page, base, "free")
        assert page.locator("#free-form").count() == 1
        page.goto(url + "#entry")               # as a record's 303 lands
        t = Thumb(page, js=True)
        t.landed()
        first = t.y
        for n, (how, what, after) in enumerate(FREE, start=1):
            title = f"第 {n} 手" if lang == "zh" else f"Hand {n}"
            assert page.inner_text("#entry-title") == title
            for sel in FREE_ENTRY:
                t.in_view(sel)
            t.taps = 0
            if how == "points":
                net = [float(x) for x in what]
                for i, x in enumerate(what):
                    t.number(f"#free-p{i}", x, swap=False)
                button = "#free-record"
            else:
                winner, pays = what
                net = [-float(x or 0) for x in pays]
                net[winner] = -sum(net)
                t.choose("#free-winner-seat", str(winner), swap=False)
                for i, x in enumerate(pays):
                    if x:                               # a blank box is 0: not typed
                        t.number(f"#free-pay{i}", x, swap=False)
                button = "#free-record-winner"
            t.still()                                   # typed without scrolling
            t.press(button)
            t.landed()
            assert t.y == first, f"hand {n} landed at y={t.y}, the first at y={first}"
            done = page.locator("#done .done-net b").all_inner_texts()
            assert done == [shown(x) for x in net], (n, done, net)
            assert page.locator("#totals td").all_inner_texts() == after, n
            with capsys.disabled():
                print(f"\n  free ({lang}) hand {n}: {how}: {t.taps} taps, landed at y={t.y}, "
                      f"nets {[f'{x:g}' for x in net]}")
            if n == 1:
                page.screenshot(path=str(SCREENSHOTS / f"thumb-free-{lang}-after-record.png"))
        assert not page.errors
    finally:
        ctx.close()
