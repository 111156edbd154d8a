"""A 自由记分 table's pages without JavaScript: /t/new offers it, the table page records a hand
as four amounts or as a winner and what each pays (POST + 303), errors come back under their
input with what was typed kept (422), and undo, void, correction, adjustment and the view
link work as on any table. Amounts and totals are the ones typed, summed by hand."""

from __future__ import annotations

import re

import pytest

NAMES = ["老王", "小李", "阿梅", "张师傅"]


@pytest.fixture()
def client(make_app):
    """A client that follows a GET's 303 as a browser does: a free table's page without the
    entry's key in its URL answers 303 to the URL with one (ledger_table.table)."""
    from flask.testing import FlaskClient

    class Browser(FlaskClient):
        def get(self, *args, **kw):
            kw.setdefault("follow_redirects", True)
            return super().get(*args, **kw)

    app = make_app()
    app.test_client_class = Browser
    return app.test_client()


def csrf(html: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)


def open_free(client, **extra) -> str:
    page = client.get("/t/new").get_data(as_text=True)
    assert '<option value="free">自由记分</option>' in page
    data = {"csrf_token": csrf(page), "variant": "free", "base": "1", "dealer": "0",
            **{f"n{i}": n for i, n in enumerate(NAMES)}, **extra}
    r = client.post("/t/new", data=data)
    assert r.status_code == 303, r.get_data(as_text=True)[:2000]
    return r.headers["Location"].split("/t/")[1].split("?")[0]


def form_of(client, token: str, query: str = "") -> tuple[str, str, dict]:
    """The page, the entry's action (its query holds the number or revision and the key)
    and the form's fields."""
    import html as html_lib

    page = client.get(f"/t/{token}{query}").get_data(as_text=True)
    form = page[page.index('id="free-form"'):]
    action = html_lib.unescape(re.search(r'formaction="([^"]+)"', form).group(1))
    return page, action, {"csrf_token": csrf(page)}


def post_hand(client, token, path=None, query="", **typed):
    _html, action, fields = form_of(client, token, query)
    if path is not None:
        assert action.startswith(f"/t/{token}{path}?"), action
    return client.post(action, data={**fields, **typed})


def table(client, token):
    return client.application.extensions["ledger"].table(token)


def test_new_offers_free_scoring_without_base_or_options(client):
    html = client.get("/t/new?variant=free&pick=1").get_data(as_text=True)
    assert 'id="free-help"' in html and 'name="base"' not in html
    assert 'name="opt_' not in html
    token = open_free(client, dealer="2")
    t = table(client, token)
    assert (t["variant"], t["options"], t["names"], t["dealer"]) == ("free", {}, NAMES, 2)
    page = client.get(f"/t/{token}").get_data(as_text=True)
    assert "牌桌记账 · 自由记分" in page and "底分" not in page
    assert 'id="free-p0"' in page and 'id="calc-form"' not in page


def test_record_four_amounts_and_the_winner_shortcut(client):
    token = open_free(client)
    r = post_hand(client, token, mode="points", p0="30", p1="-10", p2="-12.5", p3="-7.5",
                  dealer="0", note="第一把")
    assert r.status_code == 303 and "done=1" in r.headers["Location"]
    # the winner gets the sum of what the others pay (the winner's own box is not read)
    r = post_hand(client, token, mode="winner", winner="2", pay0="5", pay1="2.5", pay2="99",
                  pay3="", dealer="1")
    assert r.status_code == 303
    t = table(client, token)
    assert [h["settlement"]["net"] for h in t["hands"]] == [[30, -10, -12.5, -7.5],
                                                            [-5, -2.5, 7.5, 0]]
    assert t["totals"] == [25, -12.5, -5, -7.5] and t["dealer"] == 1
    html = client.get(f"/t/{token}?done=2").get_data(as_text=True)
    assert "第 2 手已记入" in html
    totals = re.findall(r'<td class="amount[^"]*" data-seat="\d">([^<]+)</td>', html)
    assert totals == ["25", "-12.5", "-5", "-7.5"]
    # settle-up: 小李 pays 老王 12.5, 张师傅 pays 老王 7.5, 阿梅 pays 老王 5
    settle = html[html.index('id="settle-up"'):html.index("</ol>", html.index('id="settle-up"'))]
    assert re.findall(r"<li>(\S+) 付给 (\S+) <strong class=\"amount\">([^<]+)<", settle) == [
        ("小李", "老王", "12.5"), ("阿梅", "老王", "5"), ("张师傅", "老王", "7.5")]
    assert "记分 · 第一把" in html


@pytest.mark.parametrize("typed, where, text", [
    ({"mode": "points", "p0": "30", "p1": "-10", "p2": "-10", "p3": "-9"}, "points",
     "四家的分数（points）加起来应为 0，现在是 1。"),
    ({"mode": "points", "p0": "3", "p1": "abc", "p2": "-3", "p3": ""}, "p1",
     "小李：“abc”不是数字"),
    ({"mode": "points", "p0": "0.00001", "p1": "-0.00001"}, "p0",
     "老王的分数（points）小数位太多：最多 4 位。"),
    ({"mode": "points", "p0": "2000000", "p1": "-2000000"}, "p0", "老王的分数（points）太大"),
    ({"mode": "points"}, "points", "请填写每家这一手赢（+）或输（−）的分数。"),
    ({"mode": "winner", "winner": "", "pay1": "3"}, "winner", "请选择谁赢了。"),
    ({"mode": "winner", "winner": "0", "pay1": "x"}, "pay1", "小李：“x”不是数字"),
    ({"mode": "winner", "winner": "0", "pay1": "0.12345"}, "pay1", "小李的分数（points）小数位太多"),
    # a decimal exponent: refused as too large at once (1e999999 made the page build a
    # million-digit int, ~30 s of a worker; 1e9999999 about 45 min), and never rounded to
    # a silent 0 (1e-400 became the float 0.0, recorded as 0)
    ({"mode": "points", "p0": "1e9999999", "p1": "-1e9999999"}, "p0", "老王的分数（points）太大"),
    ({"mode": "winner", "winner": "0", "pay1": "1e9999999"}, "pay1", "小李的分数（points）太大"),
    ({"mode": "points", "p0": "1e-400", "p1": "-1e-400"}, "p0",
     "老王的分数（points）小数位太多：最多 4 位。"),
    ({"mode": "winner", "winner": "2", "pay0": "1e-400"}, "pay0",
     "老王的分数（points）小数位太多：最多 4 位。"),
])
def test_bad_amounts_are_shown_under_their_input(client, typed, where, text):
    token = open_free(client)
    r = post_hand(client, token, **typed)
    html = r.get_data(as_text=True)
    assert r.status_code == 422
    error = re.search(rf'<p class="field-error" id="free-{where}-error">(.*?)</p>', html)
    assert error is not None and text in error.group(1), html[html.index('id="free-form"'):][:3000]
    for k, v in typed.items():                     # what was typed is kept
        if k.startswith("p") and v:
            assert f'name="{k}" value="{v}"' in html
    assert table(client, token)["hands"] == []


def test_english_errors(client):
    token = open_free(client)
    r = post_hand(client, token, query="?lang=en", mode="points", p0="1", p1="1", p2="1",
                  p3="1")
    assert r.status_code == 422
    assert "The four amounts (points) should sum to 0; they sum to 4." in r.get_data(as_text=True)
    # a seat's amount is named as its box names the player, not by the default seat
    r = post_hand(client, token, query="?lang=en", mode="winner", winner="0", pay1="0.12345")
    html = r.get_data(as_text=True)
    assert r.status_code == 422 and "South" not in html[html.index('id="free-form"'):]
    error = re.search(r'<p class="field-error" id="free-pay1-error">(.*?)</p>', html).group(1)
    assert "小李&#39;s amount (points) has too many decimals: at most 4." in error


def test_correct_undo_void_adjust_and_view(client):
    token = open_free(client)
    post_hand(client, token, mode="points", p0="12", p1="-4", p2="-4", p3="-4")
    post_hand(client, token, mode="points", p0="-6", p1="18", p2="-6", p3="-6")
    # correct hand 2: the form opens with its amounts, titled as the correction it is (it
    # said "第 3 手", the next hand's number, over the amounts of hand 2)
    html, action, _f = form_of(client, token, "?correct=2")
    assert 'name="p1" value="18"' in html and "/hands/2?expected_revision=1" in action
    title = re.search(r'<h2 id="entry-title"([^>]*)>([^<]*)</h2>', html)
    assert title.group(2) == "更正第 2 手" and "data-title" not in title.group(1)
    r = client.get(f"/t/{token}?correct=2&lang=en").get_data(as_text=True)
    assert re.search(r'<h2 id="entry-title"[^>]*>([^<]*)</h2>', r).group(1) == "Correct hand 2"
    r = post_hand(client, token, path="/hands/2", query="?correct=2", mode="points",
                  p0="-6", p1="-6", p2="18", p3="-6")
    assert r.status_code == 303
    t = table(client, token)
    assert t["hands"][1]["revision"] == 2 and t["totals"] == [6, -10, 14, -10]
    # undo (the last counted hand) and void, with the ledger's own forms
    page = client.get(f"/t/{token}").get_data(as_text=True)
    r = client.post(f"/t/{token}/undo", data={"csrf_token": csrf(page), "number": "2"})
    assert r.status_code == 303 and table(client, token)["totals"] == [12, -4, -4, -4]
    r = client.post(f"/t/{token}/adjust", data={
        "csrf_token": csrf(page), "kind": "fee", "amount": "20", "paid_by": "1", "note": "台费",
        "idempotency_key": "adj-free-1", "expected_number": "3"})
    assert r.status_code == 303 and table(client, token)["totals"] == [7, 11, -9, -9]
    r = client.post(f"/t/{token}/hands/1/void", data={"csrf_token": csrf(page),
                                                       "reason": "记错了"})
    assert r.status_code == 303 and table(client, token)["totals"] == [-5, 15, -5, -5]
    # the view link: the same totals, no entry
    view = table(client, token)
    from webcalc.ledger import view_token_of

    html = client.get(f"/t/{view_token_of(token)}").get_data(as_text=True)
    assert view["totals"] == [-5, 15, -5, -5] and 'id="free-form"' not in html
    assert re.findall(r'data-seat="\d">([^<]+)<', html) == ["-5", "15", "-5", "-5"]


def test_a_double_post_records_once_and_a_stale_page_conflicts(client):
    token = open_free(client)
    _html, action, fields = form_of(client, token)
    assert "expected_number=1" in action and "idempotency_key=" in action
    body = {**fields, "mode": "points", "p0": "1", "p1": "-1"}
    assert client.post(action, data=body).status_code == 303
    assert client.post(action, data=body).status_code == 303     # the same key: once
    assert len(table(client, token)["hands"]) == 1
    stale = re.sub(r"idempotency_key=[^&]+", "idempotency_key=another-key", action)
    r = client.post(stale, data={**body, "p0": "2", "p1": "-2"})
    html = r.get_data(as_text=True)
    assert r.status_code == 409 and 'id="conflict"' in html
    assert 'name="p0" value="2"' in html and "expected_number=2&amp;" in html
    assert len(table(client, token)["hands"]) == 1


def test_csv_and_chart(client):
    token = open_free(client)
    post_hand(client, token, mode="points", p0="9", p1="-3", p2="-3", p3="-3")
    r = client.get(f"/t/{token}/export.csv")
    text = r.get_data(as_text=True)
    assert r.status_code == 200 and "自由记分" in text and "小李,老王,3,记分" in text
    assert client.get(f"/t/{token}/chart.svg").status_code == 200
    assert client.get(f"/t/{token}/card.png").status_code == 200


def test_a_circle_shows_its_free_evening(client):
    made = client.post("/api/v1/circles", json={"name": "周末", "players": NAMES}).json
    t = client.post("/api/v1/tables", json={"variant": "free", "circle": made["edit_token"],
                                            "players": [1, 2, 3, 4]}).json
    client.post(f"/api/v1/tables/{t['edit_token']}/hands", json={"points": [9, -3, -3, -3]})
    client.post(f"/api/v1/tables/{t['edit_token']}/hands", json={"points": [-2, 6, -2, -2]})
    html = client.get(f"/c/{made['view_token']}").get_data(as_text=True)
    assert "自由记分" in html
    p = client.get(f"/c/{made['view_token']}/p/1").get_data(as_text=True)
    # 老王 won hand 1 (+9, the largest amount) and lost hand 2: net 7
    assert '<li data-method="points">自由记分中得分最多 <strong>1</strong></li>' in p
    assert "自由记分中得分最多 · <span class=\"amount plus\">+9</span>" in p


def test_a_circle_opens_a_free_evening(client):
    made = client.post("/api/v1/circles", json={"name": "周末", "players": NAMES}).json
    page = client.get(f"/c/{made['edit_token']}").get_data(as_text=True)
    assert '<option value="free">自由记分</option>' in page
    r = client.post(f"/c/{made['edit_token']}/tables", data={
        "csrf_token": csrf(page), "variant": "free", "p0": "4", "p1": "3", "p2": "2", "p3": "1"})
    assert r.status_code == 303
    token = r.headers["Location"].split("/t/")[1].split("?")[0]
    t = table(client, token)
    assert (t["variant"], t["names"]) == ("free", NAMES[::-1])


def test_the_english_page_has_no_chinese(client):
    made = client.post("/api/v1/tables", json={"variant": "free",
                                               "names": ["Wang", "Li", "Mei", "Zhang"]}).json
    edit = made["edit_token"]
    client.post(f"/api/v1/tables/{edit}/hands", json={"points": [9, -3, -3, -3]})
    html = client.get(f"/t/{edit}?lang=en").get_data(as_text=True)
    entry = html[html.index('<section class="entry"'):html.index("</section>",
                                                                  html.index('id="free-form"'))]
    assert "Free scoring" in html and "Or: who won, and what each other seat pays" in entry
    assert not re.findall(r"[\u3400-\u9fff]+", entry), re.findall(r".*[\u3400-\u9fff].*", entry)
    hand = html[html.index('id="hand-1"'):html.index("</li>", html.index('id="hand-1"'))]
    assert "Free-scoring hand" in hand and "Points: Li pays Wang 3" in hand    # the names, not the seats
    assert not re.findall(r"[\u3400-\u9fff]+", hand), hand
    new = client.get("/t/new?lang=en").get_data(as_text=True)
    assert '<option value="free">Free scoring</option>' in new


@pytest.mark.parametrize("lang, text", [
    ("", "这张牌桌是自由记分：记的是每家的分数，不是一手牌。计算器的这手牌没有填进来"),
    ("en", "This table is free scoring: it records each seat's amount, not a hand's tiles. "
           "Nothing of the calculator's hand was filled in"),
])
def test_a_calculators_hand_sent_to_a_free_table_says_it_was_not_taken(client, lang, text):
    """记入牌桌 from the calculator with a free table's edit link: the page says the hand
    was not taken (before, the tiles and the winner vanished without a word) and the entry is
    the free one, blank; the calculator's own state is one tap back."""
    token = open_free(client)
    state = {"variant": "zhengzhou", "hand": "123m456m789m123p55s", "winning_tile": "5s",
             "s_winner": "0", **({"lang": lang} if lang else {})}
    r = client.get("/t/send", query_string={"table": f"http://localhost/t/{token}", **state},
                   follow_redirects=False)
    assert r.status_code == 303
    html = client.get(r.headers["Location"]).get_data(as_text=True)
    refused = re.search(r'<p class="alert" role="alert" id="entry-refused">(.*?)</p>', html, re.S)
    assert refused is not None, html[:3000]
    import html as html_lib

    line = html_lib.unescape(refused.group(1))
    assert text in line, line
    assert "/?variant=zhengzhou&hand=123m456m789m123p55s" in line      # the way back
    assert "idempotency_key" not in line
    assert 'id="free-p0"' in html and 'name="p0" value=""' in html
    assert "entry-refused" not in client.get(f"/t/{token}").get_data(as_text=True)
    assert table(client, token)["hands"] == []


@pytest.mark.parametrize("lang,again,undone", [
    ("zh", "这一手已经记过了，是第 1 手：这次没有再记一遍。",
     "这一手记过一次，是第 3 手，已经撤销了：这次什么也没有记。"),
    ("en", "This entry was recorded already, as hand 1: nothing was recorded again.",
     "This entry was recorded already, as hand 3, and was undone: nothing was recorded.")])
def test_the_back_button_after_a_record_is_the_same_entry(client, lang, again, undone):
    """A free table's page URL names its entry's key (a bare URL answers 303 to one), so the
    page the back button draws again after 记入 is the same entry: 记入 there records nothing
    and says so (before: a fresh key, the same amounts recorded as hand 2). The page after a
    record is a new entry: the same amounts record. Back after 撤销 and 记入: 409, nothing
    recorded, the amounts kept under a fresh key, one tap from recording them."""
    import html as html_lib

    headers = {"Accept-Language": lang}
    token = open_free(client)
    amounts = {"mode": "points", "p0": "9", "p1": "-3", "p2": "-3", "p3": "-3"}

    def opened(url: str) -> tuple[str, str, dict]:
        """GET ``url`` (following its 303): the URL it landed on, the entry's action and
        the form's fields."""
        r = client.get(url, headers=headers)
        page = r.get_data(as_text=True)
        form = page[page.index('id="free-form"'):]
        action = html_lib.unescape(re.search(r'formaction="([^"]+)"', form).group(1))
        return r.request.full_path.rstrip("?"), action, {"csrf_token": csrf(page)}

    first, action, fields = opened(f"/t/{token}")
    key = re.search(r"idempotency_key=([A-Za-z0-9_-]+)", first).group(1)
    assert f"idempotency_key={key}" in action
    r = client.post(action, data={**fields, **amounts}, headers=headers)
    assert r.status_code == 303 and "done=1" in r.headers["Location"]
    after = r.headers["Location"].split("#")[0]
    assert "idempotency_key=" in after and key not in after      # the next entry's own key
    # the back button: the first page again, and 记入 again with the same amounts
    back, action, fields = opened(first)
    assert back == first and f"idempotency_key={key}" in action
    r = client.post(action, data={**fields, **amounts}, headers=headers)
    assert r.status_code == 303 and "again=1" in r.headers["Location"]
    assert again in client.get(r.headers["Location"], headers=headers).get_data(as_text=True)
    assert len(table(client, token)["hands"]) == 1
    # the page after the record: a new entry, the same amounts record
    _url, action, fields = opened(after)
    assert client.post(action, data={**fields, **amounts}).status_code == 303
    assert [h["number"] for h in table(client, token)["hands"]] == [1, 2]
    # hand 3, 撤销, the back button to its entry and 记入: 409, nothing recorded
    third, action, fields = opened(f"/t/{token}")
    assert client.post(action, data={**fields, **amounts}).status_code == 303
    r = client.post(f"/t/{token}/undo", data={**fields, "number": "3"})
    assert r.status_code == 303
    _url, action, fields = opened(third)
    r = client.post(action, data={**fields, **amounts}, headers=headers)
    page = r.get_data(as_text=True)
    assert r.status_code == 409 and undone in html_lib.unescape(page), page[:3000]
    assert 'name="p0" value="9"' in page                       # nothing lost
    fresh = html_lib.unescape(re.search(r'formaction="([^"]+)"', page).group(1))
    assert re.search(r"idempotency_key=([A-Za-z0-9_-]+)", fresh).group(1) not in third
    assert client.post(fresh, data={"csrf_token": csrf(page), **amounts}).status_code == 303
    hands = table(client, token)["hands"]
    assert [(h["number"], h["status"]) for h in hands] == [
        (1, "recorded"), (2, "recorded"), (3, "voided"), (4, "recorded")]
    assert hands[2]["void_code"] == "undone"


@pytest.mark.parametrize("lang,said", [
    ("zh", "这张表单已经记过第 1 手，内容和这次填的不一样：这次没有记入。"),
    ("en", "This form already recorded hand 1, with other values: nothing was recorded this "
           "time.")])
def test_the_back_button_then_other_amounts_is_409_in_the_pages_words(client, lang, said):
    """记入, the back button, other amounts and 记入: the key recorded hand 1, so nothing is
    recorded (409); the page says so in its reader's words (not the API's, which name the
    ``idempotency_key`` field) and keeps the amounts under a fresh key, one tap from
    recording them as hand 2."""
    import html as html_lib

    headers = {"Accept-Language": lang}
    token = open_free(client)
    r = client.get(f"/t/{token}", headers=headers)
    first = r.request.full_path.rstrip("?")
    page = r.get_data(as_text=True)
    action = html_lib.unescape(re.search(r'formaction="([^"]+)"', page).group(1))
    amounts = {"mode": "points", "p0": "9", "p1": "-3", "p2": "-3", "p3": "-3"}
    assert client.post(action, data={"csrf_token": csrf(page), **amounts}).status_code == 303
    page = client.get(first, headers=headers).get_data(as_text=True)        # the back button
    other = {**amounts, "p0": "6", "p1": "-2", "p2": "-2", "p3": "-2"}
    r = client.post(action, data={"csrf_token": csrf(page), **other}, headers=headers)
    page = r.get_data(as_text=True)
    text = html_lib.unescape(re.sub(r"<[^>]*>", " ", page))
    assert r.status_code == 409 and said in text and "idempotency_key" not in text
    assert 'name="p0" value="6"' in page                                   # nothing lost
    fresh = html_lib.unescape(re.search(r'formaction="([^"]+)"', page).group(1))
    assert fresh != action
    assert client.post(fresh, data={"csrf_token": csrf(page), **other}).status_code == 303
    assert [h["settlement"]["net"] for h in table(client, token)["hands"]] == [
        [9, -3, -3, -3], [6, -2, -2, -2]]


def test_every_write_goes_back_to_the_page_in_one_hop(client):
    """A free table's page URL always names an entry key (a bare one answers 303 to one):
    the 303 after opening the table, 记入, 撤销, 作废 and an adjustment names a fresh key
    itself, so the phone opens the page in one hop, not two."""
    import html as html_lib

    def one_hop(r) -> str:
        assert r.status_code == 303
        url = r.headers["Location"].split("#")[0]
        assert "idempotency_key=" in url, url
        assert client.get(url).status_code == 200, url             # no second 303
        return url

    page = client.get("/t/new").get_data(as_text=True)
    r = client.post("/t/new", data={"csrf_token": csrf(page), "variant": "free", "base": "1",
                                    "dealer": "0", **{f"n{i}": n for i, n in enumerate(NAMES)}})
    url = one_hop(r)
    token = url.split("/t/")[1].split("?")[0]
    page = client.get(url).get_data(as_text=True)
    action = html_lib.unescape(re.search(r'formaction="([^"]+)"', page).group(1))
    one_hop(client.post(action, data={"csrf_token": csrf(page), "mode": "points",
                                      "p0": "9", "p1": "-3", "p2": "-3", "p3": "-3"}))
    one_hop(client.post(f"/t/{token}/undo", data={"csrf_token": csrf(page), "number": "1"}))
    page = client.get(url).get_data(as_text=True)
    one_hop(client.post(f"/t/{token}/adjust", data={
        "csrf_token": csrf(page), "kind": "fee", "amount": "20", "paid_by": "0",
        "idempotency_key": re.search(r'name="idempotency_key" value="([^"]+)"', page).group(1)}))
    one_hop(client.post(f"/t/{token}/hands/2/void", data={"csrf_token": csrf(page),
                                                           "reason": "记错了"}))
    hands = table(client, token)["hands"]
    assert [h["kind"] for h in hands][1] == "adjustment"
    assert [h["status"] for h in hands] == ["voided", "voided"]     # 撤销 and 作废 both void
