"""A circle (牌友圈) on a 390×844 phone (Playwright + Debian's Chromium), JavaScript on and
off, on SQLite and PostgreSQL: the circle made on its page, two short 郑州 evenings started
from it ("new evening with these four", then other seats) and played by palette taps on the
table pages; the standings and a player's page then checked against the tables' own totals.

Evening 1 (老王 小李 阿梅 张师傅, 老王 deals; RULES ZZ-4, no 跑: each other seat pays 1):
  1. 小李 self-draws 123m456p789s11122z on 2z → [-1, 3, -1, -1];
  2. 阿梅 self-draws 111m234p567s789s55z on 5z → [-1, -1, 3, -1].
Evening 2 (小周 老王 小李 阿梅):
  1. 小周 self-draws 123m456p789s11122z on 2z → [3, -1, -1, -1].
Standings: 小周 +3; 小李 +1 (3 - 1, then -1) and 阿梅 +1 (-1 + 3, then -1), tied: the lower
id first; 张师傅 -2 (-1 - 1); 老王 -3 (-1 - 1, then -1).
"""

from __future__ import annotations

import pytest

from .test_browser_evening import WIN_A, WIN_B, Hand, record_by_taps
from .test_browser_ledger import new_page

pytestmark = pytest.mark.browser

PLAYERS = ["老王", "小李", "阿梅", "张师傅", "小周"]
EVENING_1 = [Hand(WIN_A, "2z", 1, [0, 0, 0, 0], [-1, 3, -1, -1]),
             Hand(WIN_B, "5z", 2, [0, 0, 0, 0], [-1, -1, 3, -1])]
EVENING_2 = [Hand(WIN_A, "2z", 0, [0, 0, 0, 0], [3, -1, -1, -1])]
#: player id → (net, evenings, hands, wins, self-draws)
EXPECTED = {5: (3, 1, 1, 1, 1), 3: (1, 2, 3, 1, 1), 2: (1, 2, 3, 1, 1), 1: (-3, 2, 3, 0, 0),
            4: (-2, 1, 2, 0, 0)}


def post_form(page, selector: str):
    with page.expect_navigation():
        page.click(selector)


def play(page, js: bool, hands: list[Hand]):
    from playwright.sync_api import expect

    for n, hand in enumerate(hands, 1):
        record_by_taps(page, js, hand)
        expect(page.locator("#hands li.hand")).to_have_count(n)


def own_totals(page, base: str, view_token: str) -> list[int]:
    """The table's own totals, as its view page shows them."""
    page.goto(f"{base}/t/{view_token}")
    return [int(x.replace("+", "")) for x in page.locator("#totals td").all_inner_texts()]


# JavaScript off: the same forms are posted without a browser in test_pages*.py, and
# the no-JS ledger journey in a browser is test_browser_room.py's palette taps (docs/TESTING.md)
@pytest.mark.parametrize("js", [True], ids=["js"])
def test_a_circle_of_two_evenings(browser, server, js):
    from playwright.sync_api import expect

    base, app = server
    ctx, page = new_page(browser, java_script_enabled=js)
    page.goto(base + "/c/new")
    page.fill("#name", "周五牌友")
    page.fill("#players", "\n".join(PLAYERS))
    post_form(page, "#create-circle")
    assert "/c/" in page.url and "new=1" in page.url
    circle_url = page.url.split("?")[0]
    expect(page.locator("#circle-name")).to_have_text("周五牌友")
    # the first evening: the first four, in the order added (one tap)
    assert [page.input_value(f"#p{i}") for i in range(4)] == ["1", "2", "3", "4"]
    post_form(page, "#new-evening-button")
    assert "/t/" in page.url
    expect(page.locator("#totals th")).to_contain_text(PLAYERS[:4])
    play(page, js, EVENING_1)
    assert [int(x.replace("+", "")) for x in page.locator("#totals td").all_inner_texts()] \
        == [-2, 2, 2, -2]

    # the second evening: the last seats are offered; 小周 takes 东, the others move on
    page.goto(circle_url)
    assert [page.input_value(f"#p{i}") for i in range(4)] == ["1", "2", "3", "4"]
    for i, p in enumerate([5, 1, 2, 3]):
        page.select_option(f"#p{i}", str(p))
    post_form(page, "#new-evening-button")
    expect(page.locator("#totals th")).to_contain_text(["小周", "老王", "小李", "阿梅"])
    play(page, js, EVENING_2)

    # the standings page against the tables' own totals
    page.goto(circle_url)
    expect(page.locator("#evenings li.evening")).to_have_count(2)
    links = page.locator("#evenings a.evening-link")
    views = [links.nth(i).get_attribute("href").split("/t/")[1].split("?")[0]
             for i in range(2)]                  # newest first
    rows = {}
    for tr in page.locator("#standings-table tbody tr").all():
        pid = int(tr.get_attribute("data-player"))
        rows[pid] = tuple(tr.locator(f"[data-field={f}]").inner_text().strip()
                          for f in ("net", "tables", "hands", "wins", "self_draws",
                                    "dealt_in", "biggest_win"))
    order = [int(tr.get_attribute("data-player"))
             for tr in page.locator("#standings-table tbody tr").all()]
    second, first = own_totals(page, base, views[0]), own_totals(page, base, views[1])
    assert first == [-2, 2, 2, -2] and second == [3, -1, -1, -1]
    from_tables = {1: first[0] + second[1], 2: first[1] + second[2], 3: first[2] + second[3],
                   4: first[3], 5: second[0]}
    for pid, (net, tables, hands, wins, self_draws) in EXPECTED.items():
        assert from_tables[pid] == net
        got = tuple(int(x.replace("+", "")) for x in rows[pid][:6])
        assert got == (net, tables, hands, wins, self_draws, 0), (pid, rows[pid])
    assert order == [5, 2, 3, 4, 1]               # by net; ties by the player's id
    assert rows[5][6] in ("3", "+3") and rows[1][6] == "—"

    # 小李's page: the net, the evenings with the running net, the wins' links
    page.goto(circle_url)
    post = page.locator("#standing-2 th a")
    with page.expect_navigation():
        post.click()
    expect(page.locator("#player-name")).to_have_text("小李")
    expect(page.locator("#player-figures [data-field=net]")).to_have_text("+1")
    expect(page.locator("#player-evenings [data-field=net]")).to_have_text(["+2", "-1"])
    expect(page.locator("#player-evenings [data-field=running]")).to_have_text(["+2", "+1"])
    expect(page.locator("#by-method li")).to_have_count(1)
    win = page.locator("#win-links a")
    expect(win).to_have_count(1)
    assert win.get_attribute("href").endswith(f"/t/{views[1]}#hand-1")
    chart = page.locator("#net-chart img")
    assert page.evaluate("(img) => img.complete && img.naturalWidth > 0",
                         chart.element_handle())
    with page.expect_navigation():
        win.click()
    expect(page.locator("#hand-1")).to_be_visible()
    assert not page.console_errors, page.console_errors

    # the view link reads and never writes
    page.goto(circle_url)
    view_link = page.input_value("#view-link")
    page.goto(view_link)
    expect(page.locator("#new-evening-form")).to_have_count(0)
    expect(page.locator("#standings-table tbody tr")).to_have_count(5)
    ctx.close()
