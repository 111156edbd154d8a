"""One room, two homes: the table page's entry is the calculator's room (docs/decisions.md
"One room, two homes"). Every calculator query parameter works on /t/<edit>; a tap is a
one-off URL action answered by 303 (or, under htmx, in place); 记入 records the state whose
result the page showed, and nothing else; the calculator hands a settled hand to a table
(记入牌桌); the bets of the last hand are shown as 同上一手 and cleared in one tap; the live
region is one answer. Without JavaScript (the Flask test client, CSRF on), on SQLite and on
PostgreSQL (``db_url``).

The repro of docs/decisions.md "The table's entry is the calculator's room": 郑州 with the
default options, base 1, 东家 deals, 南家 self-draws 123m456p789s22z on 2z with 暗杠1111z in
副露, 跑 1/2/0/3, 西家 has a 明杠 北家 supplied: ZZ-4 + ZZ-5 (跑 on kongs) give net
[-8, +26, -2, -16], as the calculator and POST /api/v1/analyze do."""

from __future__ import annotations

import html as htmllib
import re
from html.parser import HTMLParser
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest

from tests.browsers import WECHAT_IOS
from webcalc.ledger import view_token_of

from .entry_form import record_button

NAMES = ["老王", "小李", "阿梅", "张师傅"]
REPRO = [("hand", "123m456p789s22z"), ("melds", "暗杠1111z"), ("winning_tile", "2z"),
         ("s_winner", "1"), ("s_pao0", "1"), ("s_pao1", "2"), ("s_pao3", "3"),
         ("s_kongs", "2:exposed:3")]
REPRO_NET = [-8, 26, -2, -16]
WIN = "123m456p789s11122z"
HTMX = {"HX-Request": "true"}


@pytest.fixture()
def client(make_app):
    return make_app().test_client()


def new_table(client, variant="zhengzhou", **options) -> str:
    r = client.post("/api/v1/tables", json={"variant": variant, "options": options,
                                            "names": NAMES})
    assert r.status_code == 201, r.json
    return r.json["edit_token"]


def ledger(client):
    return client.application.extensions["ledger"]


def nets(client, token) -> list[list]:
    return [h["settlement"]["net"] for h in ledger(client).table(token)["hands"]
            if h["status"] == "recorded"]


def shown_nets(html: str) -> list[str]:
    """The nets the 记入 bar says it records."""
    bar = html[html.index('id="record-what"'):]
    bar = bar[:bar.index("</p>")]
    return re.findall(r'<span class="quick-net[^"]*">[^<]*<b>([^<]*)</b>', bar)


def calculator_nets(client, pairs) -> list[str]:
    html = client.get("/?" + urlencode([("variant", "zhengzhou"), *pairs, ("s_dealer", "0")]),
                      follow_redirects=True).get_data(as_text=True)
    return re.findall(r'<tr class="net-row"><th scope="row">.*?</th><td class="amount[^"]*">'
                      r'([^<]*)<', html)


class _Fields(HTMLParser):
    """The successful controls of the room's form (``id="calc-form"``) as a browser sends
    them: text and hidden inputs, checked boxes, each select's chosen option."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.inside = False
        self.fields: list[tuple[str, str]] = []
        self.select: str | None = None
        self.options: list[tuple[str, bool]] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.inside = a.get("id") == "calc-form"
        if not self.inside:
            return
        if tag == "input" and a.get("name") and a.get("type") not in ("submit", "button"):
            if a.get("type") in ("checkbox", "radio") and "checked" not in a:
                return
            self.fields.append((a["name"], a.get("value") or ""))
        elif tag == "select":
            self.select, self.options = a.get("name"), []
        elif tag == "option" and self.select is not None:
            self.options.append((a.get("value") or "", "selected" in a))

    def handle_endtag(self, tag):
        if tag == "form":
            self.inside = False
        elif tag == "select" and self.select is not None:
            chosen = [v for v, on in self.options if on] or [v for v, _on in self.options[:1]]
            self.fields.append((self.select, chosen[0] if chosen else ""))
            self.select = None


def press(client, html: str, **extra):
    """记入 as the browser does: the room's form fields, as rendered, posted to the button's
    action with its CSRF token (``extra``: fields changed after the page was shown)."""
    from werkzeug.datastructures import MultiDict

    parser = _Fields()
    parser.feed(html)
    token, path, query = record_button(html)
    data = [(k, v) for k, v in parser.fields if k not in extra] + list(extra.items())
    return client.post(path + "?" + urlencode(query),
                       data=MultiDict(data + [("csrf_token", token)]))


# -- every calculator query parameter works on the table page -------------------------------

def test_calculator_query_opens_the_entry_filled_and_records_its_nets(client):
    """The repro as a calculator query on /t/<edit>: the entry shows the hand, its 暗杠 in
    副露 and the calculator's settlement; 记入 records exactly those nets. (Before, the
    table page ignored the query: an empty entry.)"""
    token = new_table(client)
    assert calculator_nets(client, REPRO) == ["-8", "+26", "-2", "-16"]
    r = client.get(f"/t/{token}?" + urlencode(REPRO, safe=":,@"))
    html = r.get_data(as_text=True)
    assert r.status_code == 200                     # already canonical: no redirect
    assert 'value="123m456p789s22z"' in html and 'value="暗杠1111z"' in html
    assert shown_nets(html) == ["-8", "+26", "-2", "-16"]
    assert "胡牌者的杠（来自副露，已计入）" in html
    r = press(client, html)
    assert r.status_code == 303, r.get_data(as_text=True)[:2000]
    assert nets(client, token) == [REPRO_NET]
    assert urlsplit(r.headers["Location"]).query == "done=1"
    page = client.get(r.headers["Location"]).get_data(as_text=True)
    assert "第 1 手已记入" in page and 'id="hand-1"' in page
    assert 'value="123m456p789s22z"' not in page    # a fresh room for hand 2


def test_a_tap_is_a_url_action_on_the_table_page_too(client):
    """``add=`` / ``remove=`` as on /: 303 to the canonical table URL, or (htmx) the panel
    in place with HX-Push-Url."""
    token = new_table(client)
    r = client.get(f"/t/{token}?add=1m")
    assert r.status_code == 303 and r.headers["Location"] == f"/t/{token}?hand=1m"
    r = client.get(f"/t/{token}?hand=1m&add=2m&target=hand", headers=HTMX)
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and r.headers["HX-Push-Url"] == f"/t/{token}?hand=12m"
    assert html.lstrip().startswith('<div id="calc"') and "<html" not in html
    assert f'hx-get="/t/{token}"' in html and 'id="record"' in html
    # the meld builder: 暗杠 in one tap, into 副露
    r = client.get(f"/t/{token}?hand=12m&target=melds&meld_type=concealed_kong&add=1z")
    assert r.headers["Location"] == (f"/t/{token}?hand=12m&melds=%E6%9A%97%E6%9D%A01111z"
                                     "&target=melds&meld_type=concealed_kong")
    # the table's fields are the table's: a URL cannot change them
    r = client.get(f"/t/{token}?hand=1m&opt_wildcard=0&s_base=5&s_dealer=3&n0=x")
    assert r.status_code == 303 and r.headers["Location"] == f"/t/{token}?hand=1m"


def test_the_record_is_what_the_result_showed(client):
    """A form posted with fields other than those the shown result came from (typed, not
    applied: no JavaScript) records nothing; the page shows the new fields' result (409)
    and its own 记入 then records it."""
    token = new_table(client)
    html = client.get(f"/t/{token}?" + urlencode(REPRO, safe=":,@")).get_data(as_text=True)
    r = press(client, html, s_pao3="0")              # typed after the result was shown
    page = r.get_data(as_text=True)
    assert r.status_code == 409 and nets(client, token) == []
    assert "结果显示之后输入又改过" in page
    typed = [(k, "0" if k == "s_pao3" else v) for k, v in REPRO]
    want = calculator_nets(client, typed)
    assert want == ["-8", "+20", "-5", "-7"]                  # 北家 跑 0 now
    assert shown_nets(page) == want
    r = press(client, page)
    assert r.status_code == 303 and nets(client, token) == [[-8, 20, -5, -7]]


def test_a_win_without_tiles_shows_what_it_records(client):
    """The quick entry's settlement is shown before 记入 (from the declared doubles, as the
    ledger settles it), and recorded as shown."""
    token = new_table(client, seven_pairs_double=True)
    html = client.get(f"/t/{token}?s_winner=2&d_doubles=seven_pairs").get_data(as_text=True)
    assert shown_nets(html) == ["-2", "-2", "+6", "-2"]       # ×2 for 七对 (ZZ-4)
    assert "未验牌" in html
    assert press(client, html).status_code == 303
    h = ledger(client).table(token)["hands"][0]
    assert h["verified"] is False and h["request"]["declared"] == {"doubles": ["seven_pairs"]}
    assert h["settlement"]["net"] == [-2, -2, 6, -2]


def test_a_correction_stays_a_correction_through_its_taps(client):
    """``?correct=n`` opens hand n in the same room; the form keeps ``correct`` so a tap
    (htmx or not) does not turn it into a new hand."""
    token = new_table(client)
    client.post(f"/api/v1/tables/{token}/hands", json={
        "hand": WIN, "winning_tile": "2z", "win_by": "self_draw", "settlement": {"winner": 1}})
    r = client.get(f"/t/{token}?correct=1")
    assert r.status_code == 303
    assert r.headers["Location"] == (f"/t/{token}?correct=1&hand={WIN}&winning_tile=2z"
                                     "&s_winner=1")
    html = client.get(r.headers["Location"]).get_data(as_text=True)
    assert "更正第 1 手" in html and 'name="correct" value="1"' in html
    r = client.get(f"/t/{token}?correct=1&hand={WIN}&winning_tile=2z&s_winner=2",
                   headers=HTMX)
    assert record_button(r.get_data(as_text=True))[1] == f"/t/{token}/hands/1"
    r = press(client, r.get_data(as_text=True))
    assert r.status_code == 303
    t = ledger(client).table(token)
    assert [h["revision"] for h in t["hands"]] == [2] and t["totals"] == [-1, -1, 3, -1]


def test_a_hand_recorded_meanwhile_is_a_conflict_not_a_renumbering(client):
    """The entry keeps the number it was started for through its taps: when another phone
    records that hand meanwhile, the entry says so and 记入 answers 409 (the old form did the
    same), instead of recording it quietly as the next hand."""
    token = new_table(client)
    client.post(f"/api/v1/tables/{token}/hands", json={
        "hand": WIN, "winning_tile": "2z", "win_by": "self_draw", "settlement": {"winner": 1}})
    r = client.get(f"/t/{token}?" + urlencode(REPRO + [("number", "1")], safe=":,@"), headers=HTMX)
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and 'id="recorded-meanwhile"' in html
    assert record_button(html)[2]["expected_number"] == "1"
    r = press(client, html)
    assert r.status_code == 409 and "第 1 手已经有人记了" in r.get_data(as_text=True)
    assert len(nets(client, token)) == 1


# -- 记入牌桌: from the calculator to a table ---------------------------------------------------

def test_the_calculator_offers_its_state_to_a_pasted_table_link(client):
    token = new_table(client)
    html = client.get("/?" + urlencode([("variant", "zhengzhou"), *REPRO, ("s_dealer", "0")]),
                      follow_redirects=True).get_data(as_text=True)
    assert 'id="send"' in html and 'form="send-form"' in html
    form = html[html.index('<form id="send-form"'):]
    form = form[:form.index("</form>")]
    state = re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form)
    assert ("variant", "zhengzhou") in state and ("s_kongs", "2:exposed:3") in state
    link = f"https://example.test/t/{token}"
    r = client.get("/t/send?" + urlencode(state + [("table", link)]))
    assert r.status_code == 303
    where = r.headers["Location"]
    assert where.startswith(f"/t/{token}?variant=zhengzhou&hand=123m456p789s22z")
    # the table's entry: no difference to report, so the canonical table URL
    r = client.get(where)
    assert r.status_code == 303
    html = client.get(r.headers["Location"]).get_data(as_text=True)
    assert shown_nets(html) == ["-8", "+26", "-2", "-16"]
    assert press(client, html).status_code == 303 and nets(client, token) == [REPRO_NET]


def test_a_pasted_link_that_cannot_take_the_hand_says_why(client):
    token = new_table(client)
    state = [("variant", "zhengzhou"), ("hand", WIN)]
    r = client.get("/t/send?" + urlencode(state + [("table", f"/t/{view_token_of(token)}")]))
    assert r.status_code == 403 and "只读链接" in r.get_data(as_text=True)
    r = client.get("/t/send?" + urlencode(state + [("table", "/t/" + "x" * 32)]))
    assert r.status_code == 404 and "没有牌桌用这个链接" in r.get_data(as_text=True)
    r = client.get("/t/send?" + urlencode(state + [("table", "hello")]))
    html = r.get_data(as_text=True)
    assert r.status_code == 422 and 'name="hand" value="123m456p789s11122z"' in html
    assert 'value="hello"' in html                  # what was pasted is kept


def test_a_link_pasted_with_the_words_of_its_message_still_finds_the_table(client):
    """A link copied from a WeChat message comes with the message's words around it, or with
    the full-width comma or full stop of the sentence it ended: the token is still read
    (these answered 422 "paste the table's edit link" before)."""
    token = new_table(client)
    state = [("variant", "zhengzhou"), ("hand", WIN)]
    for pasted in (f"来记账：https://example.test/t/{token} 点开就能记",
                   f"https://example.test/t/{token}，", f"https://example.test/t/{token}。",
                   f"牌桌链接 https://example.test/t/{token}?lang=en\n谢谢", f"{token} "):
        r = client.get("/t/send?" + urlencode(state + [("table", pasted)]))
        assert r.status_code == 303, pasted
        assert r.headers["Location"].startswith(f"/t/{token}?variant=zhengzhou"), pasted
    r = client.get("/t/send?" + urlencode(state + [("table", f"https://x.test/t/{token}x!")]))
    assert r.status_code == 404                     # a token one letter longer is not it


def test_the_tables_options_win_and_the_page_says_which_changed(client):
    """A calculator room with other options, base and dealer: the table's decide the money,
    and the entry lists what changed (rendered in place, not redirected away)."""
    token = new_table(client, seven_pairs_double=True)
    q = [("variant", "zhengzhou"), ("hand", "1199m1199p1199s11z"), ("winning_tile", "1z"),
         ("s_winner", "1"), ("s_base", "2"), ("s_dealer", "3"), ("opt_kong_pao", "0")]
    r = client.get(f"/t/{token}?" + urlencode(q))
    html = r.get_data(as_text=True)
    assert r.status_code == 200
    notes = html[html.index('id="entry-notes"'):]
    notes = notes[:notes.index("</div>")]
    assert "七对加倍：本桌 开（计算器里是 关）" in notes
    assert "杠跑：本桌 开（计算器里是 关）" in notes or "杠" in notes
    assert "底分：本桌 1（计算器里是 2）" in notes and "庄家：本桌 老王（计算器里是 张师傅）" in notes
    assert shown_nets(html) == ["-2", "+6", "-2", "-2"]      # 七对 ×2 (ZZ-4), base 1


def test_another_variants_hand_is_not_filled_in(client):
    token = new_table(client)
    r = client.get(f"/t/{token}?variant=panjin&hand={WIN}&winning_tile=2z&s_winner=1")
    html = r.get_data(as_text=True)
    assert r.status_code == 409
    assert "本桌玩郑州，这手牌是按盘锦算的" in html
    assert f'value="{WIN}"' not in html                      # nothing filled in
    assert f'href="/?variant=zhengzhou&amp;hand={WIN}' in html   # the calculator, as 郑州


# -- carried bets ---------------------------------------------------------------------------

def test_carried_bets_are_shown_and_cleared_in_one_tap(client):
    """跑 of the last hand are the next entry's defaults, shown as 同上一手 (before: put into
    the inputs without a word); one tap clears them, another brings them back; 记入 after
    clearing records no 跑."""
    token = new_table(client)
    client.post(f"/api/v1/tables/{token}/hands", json={
        "hand": WIN, "winning_tile": "2z", "win_by": "self_draw",
        "settlement": {"winner": 1, "pao": [1, 2, 0, 3]}})
    html = client.get(f"/t/{token}").get_data(as_text=True)
    carried = html[html.index('id="carried"'):]
    carried = carried[:carried.index("</p>")]
    assert "同上一手" in carried and "老王 跑1 · 小李 跑2 · 张师傅 跑3" in carried
    assert 'name="bets" value="clear"' in carried
    assert 'name="s_pao1" value="2"' in html
    r = client.get(f"/t/{token}?bets=clear")
    assert r.status_code == 303
    assert r.headers["Location"] == f"/t/{token}?s_pao0=0&s_pao1=0&s_pao3=0"
    html = client.get(r.headers["Location"]).get_data(as_text=True)
    carried = html[html.index('id="carried"'):]
    assert "上一手：老王 跑1" in carried and 'name="bets" value="last"' in carried
    assert 'name="s_pao1" value="0"' in html
    r = client.get(f"/t/{token}?s_pao0=0&s_pao1=0&s_pao3=0&bets=last")
    assert r.headers["Location"] == f"/t/{token}"
    html = client.get(f"/t/{token}?s_pao0=0&s_pao1=0&s_pao3=0&hand={WIN}&winning_tile=2z"
                      "&s_winner=2", follow_redirects=True).get_data(as_text=True)
    assert press(client, html).status_code == 303
    assert "pao" not in ledger(client).table(token)["hands"][1]["request"]["settlement"]


def test_a_calculator_room_without_bets_records_no_bets(client):
    """The calculator's absent 跑 is 0: a hand sent from it records what it computed, not
    the table's carried bets (the entry offers them back with 同上一手)."""
    token = new_table(client)
    client.post(f"/api/v1/tables/{token}/hands", json={
        "hand": WIN, "winning_tile": "2z", "win_by": "self_draw",
        "settlement": {"winner": 1, "pao": [1, 2, 0, 3]}})
    r = client.get(f"/t/{token}?variant=zhengzhou&hand={WIN}&winning_tile=2z&s_winner=2"
                   "&s_dealer=1")
    assert r.status_code == 303
    html = client.get(r.headers["Location"]).get_data(as_text=True)
    assert shown_nets(html) == ["-1", "-1", "+3", "-1"]
    assert 'name="bets" value="last"' in html


# -- the live region: one answer ------------------------------------------------------------

def test_the_live_region_is_one_answer_with_an_etag(client):
    token = new_table(client)
    client.post(f"/api/v1/tables/{token}/hands", json={
        "hand": WIN, "winning_tile": "2z", "win_by": "self_draw", "settlement": {"winner": 1}})
    view = view_token_of(token)
    r = client.get(f"/t/{view}/live")
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and r.headers["ETag"]
    assert html.count('id="live-top"') == 1 and html.count('id="live"') == 1
    assert 'id="totals"' in html and 'id="hand-1"' in html and 'id="settle-up"' in html
    assert token not in html
    again = client.get(f"/t/{view}/live", headers={"If-None-Match": r.headers["ETag"]})
    assert again.status_code == 304
    page = client.get(f"/t/{view}").get_data(as_text=True)
    assert 'hx-trigger="every' not in page                    # no htmx poll of its own
    assert page.count("data-live-url=") == 1 and 'id="live-status"' in page



@pytest.mark.parametrize("lang, label, other", [("en", "Running totals", "累计分数"),
                                                ("zh", "累计分数", "Running totals")])
def test_the_live_poll_asks_in_the_page_s_language(client, lang, label, other):
    """A page in the language its ``?lang=`` chose polls its live region in that language:
    ``data-live-url`` carries the ``lang`` (static/js/ledger.js fetches it as it is and
    swaps the answer in), else the poll answered in the phone's Accept-Language and a
    Chinese phone's English page (a shared ?lang=en link) turned Chinese at the first
    poll. Without ``?lang=`` the URL stays bare (the browser's language decides both)."""
    token = new_table(client)
    phone = {"Accept-Language": "en-US,en" if lang == "zh" else "zh-CN,zh"}
    for tok in (token, view_token_of(token)):
        page = client.get(f"/t/{tok}?lang={lang}", headers=phone).get_data(as_text=True)
        url = re.search(r'data-live-url="([^"]+)"', page).group(1).replace("&amp;", "&")
        assert url == f"/t/{tok}/live?lang={lang}"
        live = client.get(url, headers=phone).get_data(as_text=True)
        assert label in live and other not in live
        bare = client.get(f"/t/{tok}", headers=phone).get_data(as_text=True)
        assert f'data-live-url="/t/{tok}/live"' in bare




# -- the page's language, kept by every form ---------------------------------------------------

ZH_PHONE = {"Accept-Language": "zh-CN,zh"}
_POST_FORM = re.compile(r'<form[^>]*method="post"[^>]*>.*?</form>', re.S)
_POST_BUTTON = re.compile(r'<button[^>]*formmethod="post"[^>]*>')


def posts_of(page: str) -> list[tuple[str, str]]:
    """What a page can POST, as a browser sends it: each POST form's ``(action, its HTML)``
    and each button that posts its form to its own ``formaction`` (记入, 荒庄)."""
    out = []
    for html in _POST_FORM.findall(page):
        out.append((htmllib.unescape(re.search(r'action="([^"]*)"', html).group(1)), html))
    for html in _POST_BUTTON.findall(page):
        out.append((htmllib.unescape(re.search(r'formaction="([^"]*)"', html).group(1)), html))
    return out


def lang_of(url: str) -> list[str]:
    """The ``lang`` of a URL's query as the server reads it (a POST's ``lang_param()`` reads
    the action's query, never the body)."""
    return parse_qs(urlsplit(url).query).get("lang", [])


def submit(client, page: str, marker: str, **fields):
    """Post the form of ``page`` holding ``marker`` as a Chinese phone's browser does: to its
    action, with its hidden inputs (the CSRF token, the idempotency key…) and ``fields``."""
    i = page.index(marker)
    form = page[page.rindex("<form", 0, i):page.index("</form>", i)]
    action = htmllib.unescape(re.search(r'action="([^"]*)"', form).group(1))
    data = {}
    for tag in re.findall(r'<input[^>]*type="hidden"[^>]*>', form):
        data[re.search(r'name="([^"]+)"', tag).group(1)] = \
            htmllib.unescape(re.search(r'value="([^"]*)"', tag).group(1))
    return client.post(action, data={**data, **fields}, headers=ZH_PHONE)


def _lang_pages(client):
    """A table with a hand, an adjustment and two co-scorers, the first revoked (so the
    creator's page shows every form it has); a table with no rule set. Yields each page
    a table offers as ``(name, path)``, before ``?lang=``."""
    token = new_table(client)
    client.post(f"/api/v1/tables/{token}/hands", json={
        "hand": WIN, "winning_tile": "2z", "win_by": "self_draw", "settlement": {"winner": 1}})
    client.post(f"/api/v1/tables/{token}/hands", json={
        "adjustment": {"fee": 20, "paid_by": 0}})
    led = ledger(client)
    led.add_editor(token)
    led.add_editor(token)
    led.revoke_editor(token, 1, view=False)
    free = client.post("/api/v1/tables", json={"variant": "free", "names": NAMES}
                       ).json["edit_token"]
    client.post(f"/api/v1/tables/{free}/hands", json={"points": [3, -1, -1, -1]})
    return token, free


def test_every_ledger_form_posts_in_the_page_s_language(client):
    """A table page opened with ``?lang=en`` on a Chinese phone (a shared link, the language
    switch), JavaScript off: every form of every ledger page posts to a URL that keeps the
    page's ``lang`` — the table page (edit token: 记入, 荒庄, adjust, settings, co-scorers add
    and revoke, 撤销, void), a correction, the 荒庄 confirm, the links page, its live region
    (what the poll swaps in), a table with no rule set, /t/new (its GET "show its options"
    keeps it in a hidden input) — so the answer (a 422, or the page a 303 leads to) is in
    the page's language; the view page has no form. Without ``?lang=`` no URL gains one."""
    token, free = _lang_pages(client)
    view = view_token_of(token)
    t = f"/t/{token}"
    page = client.get(f"{t}?lang=en", headers=ZH_PHONE).get_data(as_text=True)
    draw = next(a for a, _html in posts_of(page) if urlsplit(a).path == f"{t}/draw")
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    pages = {
        "table": (f"{t}?revoked=1", {"/adjust", "/settings", "/editors", "/editors/1/revoke",
                                     "/editors/2/revoke", "/undo", "/hands/1/void",
                                     "/hands/2/void", "/hands", "/draw"}),
        "correction": (f"{t}?correct=1", {"/adjust", "/settings", "/editors",
                                          "/editors/2/revoke", "/undo", "/hands/1/void",
                                          "/hands/2/void", "/hands/1"}),
        "links": (f"{t}/links", {"/links"}),
        "live": (f"{t}/live", {"/undo", "/hands/1/void", "/hands/2/void"}),
        "free table": (f"/t/{free}", {"/adjust", "/settings", "/editors", "/undo",
                                      "/hands/1/void", "/hands"}),
        "view": (f"/t/{view}", set()),
    }
    for name, (path, want) in pages.items():
        base = path.split("?")[0].rsplit("/", 1)[0] if name in ("links", "live") \
            else path.split("?")[0]
        sep = "&" if "?" in path else "?"
        english = client.get(f"{path}{sep}lang=en", headers=ZH_PHONE, follow_redirects=True)
        assert english.status_code == 200, name
        html = english.get_data(as_text=True)
        if name != "live":
            assert '<html lang="en"' in html, name
        posts = posts_of(html)
        assert {urlsplit(a).path.removeprefix(base) for a, _f in posts} == want, name
        for action, _form in posts:
            assert lang_of(action) == ["en"], (name, action)
        bare = client.get(path, headers={"Accept-Language": "en"},
                          follow_redirects=True).get_data(as_text=True)
        assert [a for a, _f in posts_of(bare) if "lang=" in a] == [], name
        assert len(posts_of(bare)) == len(posts), name
    # the 荒庄 confirm: its form posts the entry on to 记入, in English
    confirm = client.post(draw, data={"csrf_token": csrf, "hand": "", "s_dealer": "1"},
                          headers=ZH_PHONE)
    html = confirm.get_data(as_text=True)
    assert confirm.status_code == 200 and '<html lang="en"' in html
    assert "Record hand 2 as a drawn game?" in html
    [(action, form)] = posts_of(html)
    assert urlsplit(action).path == f"{t}/hands" and lang_of(action) == ["en"]
    assert f'href="{t}?lang=en#entry"' in html                         # "No, back…"
    # /t/new: both forms post in English; "show its options" (a GET) keeps it as a field
    html = client.get("/t/new?lang=en", headers=ZH_PHONE).get_data(as_text=True)
    assert '<html lang="en"' in html
    assert [(urlsplit(a).path, lang_of(a)) for a, _f in posts_of(html)] == [
        ("/t/new", ["en"]), ("/t/import", ["en"])]
    start = html.index('id="new-table"')
    new_form = html[start:html.index("</form>", start)]
    assert 'formmethod="get"' in new_form and '<input type="hidden" name="lang" value="en">' \
        in new_form
    bare = client.get("/t/new", headers=ZH_PHONE).get_data(as_text=True)
    assert 'name="lang"' not in bare
    assert [a for a, _f in posts_of(bare)] == ["/t/new", "/t/import"]


def test_a_ledger_form_answers_in_the_page_s_language(client):
    """The answers of the English page's forms on a Chinese phone, JavaScript off: the 303
    of each write (settings, adjust, 撤销, void, co-scorer revoke, 换链接, 新开一桌, import, 记入)
    leads to a ``?lang=en`` page that is English; a refusal (an adjust's bad amount, a new
    table's bad base, an empty import) is a 422 in English, its forms still English; and a
    co-scorer's link page (201) is English, its way back too. Without ``?lang=`` the same
    303s stay bare."""
    token = new_table(client)
    t = f"/t/{token}"

    def page(path=f"{t}?lang=en"):
        r = client.get(path, headers=ZH_PHONE, follow_redirects=True)
        assert r.status_code == 200
        return r.get_data(as_text=True)

    def english_after(r, anchor):
        assert r.status_code == 303, r.get_data(as_text=True)[:500]
        location = r.headers["Location"]
        assert lang_of(location) == ["en"] and location.endswith(anchor), location
        after = page(location)
        assert '<html lang="en"' in after
        return after

    # settings: 303 → the links, in English (the phone is Chinese)
    html = english_after(submit(client, page(), 'id="settings-button"', carry_bets="reset"),
                         "#links")
    assert "Start every hand with none" in html and ledger(client).table(token)["carry_bets"] \
        == "reset"
    # adjust: a bad amount is a 422 in English, its forms still English; then a fee, 303
    r = submit(client, page(), 'id="adjust-button"', kind="fee", amount="abc", paid_by="0")
    html = r.get_data(as_text=True)
    assert r.status_code == 422 and '<html lang="en"' in html
    assert "Amount: write a positive number, such as 20." in html
    assert all(lang_of(a) == ["en"] for a, _f in posts_of(html))
    html = english_after(submit(client, html, 'id="adjust-button"', kind="fee", amount="20",
                                paid_by="0"), "#hand-1")
    assert ledger(client).table(token)["totals"] == [15, -5, -5, -5]
    # 撤销 the fee: 303, English
    english_after(submit(client, html, 'id="undo"'), "#hand-1")
    assert ledger(client).table(token)["totals"] == [0, 0, 0, 0]
    # 记入 a win from the English entry, then void it: both 303 to English pages
    html = page(f"{t}?lang=en&hand={WIN}&winning_tile=2z&win_by=self_draw&s_winner=1"
                "&s_dealer=0")
    csrf, path, query = record_button(html)
    assert query["lang"] == "en"
    r = client.post(f"{path}?{urlencode(query)}", data={"csrf_token": csrf, "hand": WIN,
                    "winning_tile": "2z", "win_by": "self_draw", "s_winner": "1",
                    "s_dealer": "0", "form_variant": "zhengzhou"}, headers=ZH_PHONE)
    html = english_after(r, "#entry")
    assert ledger(client).table(token)["totals"] == [-1, 3, -1, -1]           # ZZ-4
    english_after(submit(client, html, f'action="{t}/hands/2/void', reason="typo"), "#hand-2")
    assert ledger(client).table(token)["hands"][1]["status"] == "voided"
    # a co-scorer: its link page (201) is English, the way back keeps it; revoked: 303
    r = submit(client, page(), 'id="add-co-scorer"')
    html = r.get_data(as_text=True)
    assert r.status_code == 201 and '<html lang="en"' in html and "Co-scorer 1's edit link" \
        in html
    assert f'href="{t}?lang=en#links"' in html
    html = english_after(submit(client, page(), 'id="revoke-1"'), "#links")
    assert "Co-scorer 1's link is revoked" in html
    # 换链接: the confirm page and the new address, in English
    html = page(f"{t}/links?lang=en")
    assert '<html lang="en"' in html and f'href="{t}?lang=en#links"' in html   # Cancel
    r = submit(client, html, 'id="rotate-button"')
    english_after(r, "#share")
    assert urlsplit(r.headers["Location"]).path != t
    # 新开一桌: a bad base is a 422 in English, then the table opens in English
    html = page("/t/new?lang=en")
    fields = {"variant": "zhengzhou", "dealer": "0", **{f"n{i}": n for i, n in enumerate(NAMES)}}
    r = submit(client, html, 'id="new-table"', base="abc", **fields)
    bad = r.get_data(as_text=True)
    assert r.status_code == 422 and '<html lang="en"' in bad
    assert "Base points should be a positive number, such as 1, 100 or 0.5." in bad
    english_after(submit(client, bad, 'id="new-table"', base="1", **fields), "new=1")
    # import: nothing chosen is a 422 in English; an export is a new table, in English
    r = submit(client, html, 'id="import-form"')
    assert r.status_code == 422 and '<html lang="en"' in r.get_data(as_text=True)
    assert "Choose an exported JSON file or paste its text." in r.get_data(as_text=True)
    exported = client.get(f"/api/v1/tables/{new_table(client)}/export").get_data(as_text=True)
    english_after(submit(client, html, 'id="import-form"', text=exported), "new=1")
    # without ?lang= the answers stay as they were: bare URLs, the phone's language
    r = submit(client, page(f"/t/{new_table(client)}"), 'id="settings-button"',
               carry_bets="keep")
    assert r.status_code == 303 and "lang=" not in r.headers["Location"]
    assert '<html lang="zh-Hans"' in page(r.headers["Location"])
    bare = page("/t/new")
    r = submit(client, bare, 'id="new-table"', base="1", **fields)
    assert r.status_code == 303 and "lang=" not in r.headers["Location"]


# -- 我的牌桌 ----------------------------------------------------------------------------------

def test_my_tables_is_a_static_page_read_from_the_phone(client):
    r = client.get("/t/mine")
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and r.headers["Cache-Control"] == "no-store"
    assert 'id="my-tables"' in html and "<noscript>" in html and "JavaScript 已关闭" in html
    assert re.search(r"/static/js/ledger\.[0-9a-f]{10}\.js", html)   # fingerprinted name
    token = new_table(client)
    page = client.get(f"/t/{token}").get_data(as_text=True)
    meta = re.search(r'<div id="table-meta" hidden ([^>]*)>', page).group(1)
    assert f'data-edit="/t/{token}"' in meta and f'data-view="/t/{view_token_of(token)}"' in meta
    view = client.get(f"/t/{view_token_of(token)}").get_data(as_text=True)
    assert 'data-edit=""' in view and token not in view


_LANG_LINK = re.compile(r'id="(export-csv|export-json)" href="([^"]*)"|'
                        r'<img src="(/t/[^"]*/chart\.svg[^"]*)"')
_CARD = re.compile(r'<img src="(/t/[^"]*/card\.png[^"]*)"')


def test_downloads_and_the_chart_keep_the_page_s_language(client):
    """The English table page on a Chinese phone links its CSV, its JSON, its chart and its
    evening card with ``lang=en``: the CSV's columns, the chart's axis and the card are
    words, read in the page's language (before, those links were bare and a Chinese phone
    got 手数/牌局 in them). In WeChat the JSON link answers the evening as text, in English
    too, and its own file links keep it. Without ``?lang=`` no link gains one, and the
    phone's language decides."""
    token, _free = _lang_pages(client)
    view = view_token_of(token)
    for t in (token, view):
        html = client.get(f"/t/{t}?lang=en", headers=ZH_PHONE).get_data(as_text=True)
        links = {m.group(1) or "chart": htmllib.unescape(m.group(2) or m.group(3))
                 for m in _LANG_LINK.finditer(html)}
        assert set(links) == {"export-csv", "export-json", "chart"}, t
        assert all(lang_of(u) == ["en"] for u in links.values()), links
        csv_text = client.get(links["export-csv"], headers=ZH_PHONE).get_data(as_text=True)
        assert csv_text.lstrip("\ufeff").startswith("Hand,Kind,Status,Dealer,Winner,"), t
        svg = client.get(links["chart"], headers=ZH_PHONE).get_data(as_text=True)
        assert "Hand number" in svg and "手数" not in svg, t
        bare = client.get(f"/t/{t}", headers=ZH_PHONE).get_data(as_text=True)
        assert [m for m in _LANG_LINK.finditer(bare) if "lang=" in m.group(0)] == [], t
        zh_csv = client.get(f"/t/{t}/export.csv", headers=ZH_PHONE).get_data(as_text=True)
        assert not zh_csv.lstrip("\ufeff").startswith("Hand,"), t
        # the evening card (分享图片) is drawn in the reader's language: the English page's
        # picture is the one an English phone gets, not the Chinese phone's
        card = htmllib.unescape(_CARD.search(html).group(1))
        assert lang_of(card) == ["en"], card
        bare_card = htmllib.unescape(_CARD.search(bare).group(1))
        assert "lang=" not in bare_card
        png = client.get(card, headers=ZH_PHONE)
        assert png.mimetype == "image/png"
        assert png.data == client.get(bare_card, headers={"Accept-Language": "en"}).data, t
        assert png.data != client.get(bare_card, headers=ZH_PHONE).data, t
    wechat = {**ZH_PHONE, "User-Agent": WECHAT_IOS}
    text = client.get(f"/t/{token}/export.json?lang=en", headers=wechat).get_data(as_text=True)
    assert '<html lang="en"' in text and "The evening as text" in text
    files = re.findall(r'href="([^"]*/export\.(?:csv|json)[^"]*)"', text)
    assert len(files) == 2 and all(lang_of(htmllib.unescape(u)) == ["en"] for u in files)
