"""The ledger's HTML pages without JavaScript: every form is a plain POST with a CSRF token
(CSRF on, as in production), answered with 303 → the table page, or the page with the error.
Each test runs on SQLite and on PostgreSQL (``db_url``)."""

from __future__ import annotations

import csv
import html as htmllib
import io
import json
import re

import pytest

from webcalc.ledger import view_token_of

from .entry_form import record_button, record_fields

NAMES = ["老王", "小李", "阿梅", "张师傅"]
WIN = "123m456p789s11122z"       # 南家 wins on 2z: one of the plain 郑州 hands


@pytest.fixture()
def client(make_app):
    return make_app().test_client()


def text_of(html: str) -> str:
    """The page's text as a reader sees it: tags and what is inside them left out."""
    return re.sub(r"<[^>]*>", " ", html)


def csrf(html: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)


def proof(client, token: str) -> str:
    """The table proof of ``token`` (docs/decisions.md "Forms without a session cookie"):
    what that token's page puts in its forms (a view page has none: a test writes it)."""
    from webcalc.web.form_proof import table_proof

    with client.application.test_request_context():
        return table_proof(token)


def new_table_token(client) -> str:
    """The signed form token of 新开一桌 and import."""
    return csrf(client.get("/t/new").get_data(as_text=True))


def hidden(html: str, name: str) -> str:
    return re.search(rf'name="{name}" value="([^"]*)"', html).group(1)


def open_table(client, **extra) -> str:
    page = client.get("/t/new").get_data(as_text=True)
    data = {"csrf_token": csrf(page), "variant": "zhengzhou", "base": "1", "dealer": "0",
            "form_variant": "zhengzhou", **{f"n{i}": n for i, n in enumerate(NAMES)}}
    data.update(extra)
    r = client.post("/t/new", data=data)
    assert r.status_code == 303, r.get_data(as_text=True)[:2000]
    return r.headers["Location"].split("/t/")[1].split("?")[0]


def tables_made(app) -> int:
    """How many tables the app's ledger holds."""
    from sqlalchemy import func, select

    from webcalc.ledger.models import Table

    with app.extensions["ledger"].engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(Table)).scalar()


def entry_form(client, token: str) -> tuple[str, dict]:
    html = client.get(f"/t/{token}").get_data(as_text=True)
    return html, record_fields(html)


def record(client, token: str, **fields):
    _html, base = entry_form(client, token)
    return client.post(f"/t/{token}/hands", data={**base, **fields})


def table(client, token):
    return client.application.extensions["ledger"].table(token)


def test_new_table_needs_csrf_and_opens_the_edit_page(client):
    page = client.get("/t/new")
    assert page.status_code == 200
    assert "新开一桌" in page.get_data(as_text=True)
    r = client.post("/t/new", data={"variant": "zhengzhou", "base": "1", "dealer": "0"})
    assert r.status_code == 400                                   # no CSRF token
    token = open_table(client, dealer="2", base="2")
    t = table(client, token)
    assert (t["variant"], t["names"], t["dealer"], t["base"]) == ("zhengzhou", NAMES, 2, 2)
    html = client.get(f"/t/{token}?new=1").get_data(as_text=True)
    assert "庄家：" in html and 'id="dealer-now">阿梅<' in html
    assert "编辑链接：拿到它的人都能记账、更正和作废。" in html
    assert view_token_of(token) in html and token in html


def test_new_table_bad_base_keeps_what_was_typed(client):
    page = client.get("/t/new").get_data(as_text=True)
    r = client.post("/t/new", data={"csrf_token": csrf(page), "variant": "zhengzhou",
                                    "base": "abc", "dealer": "0", "n0": "老王"})
    html = r.get_data(as_text=True)
    assert r.status_code == 422
    assert 'aria-invalid="true"' in html and "底分" in html
    assert 'value="老王"' in html and 'value="abc"' in html


def test_variant_switch_without_js_shows_its_options(client):
    html = client.get("/t/new?variant=panjin&pick=1").get_data(as_text=True)
    assert 'name="opt_jiagang"' in html and 'selected value="panjin"' in html


def test_record_a_win_offers_pao_again_and_moves_the_dealer(client):
    token = open_table(client)
    r = record(client, token, hand=WIN, winning_tile="2z", win_by="self_draw", s_dealer="0",
               s_winner="1", s_pao0="1", s_pao1="2", s_pao2="0", s_pao3="0")
    assert r.status_code == 303 and r.headers["Location"].endswith("?done=1#entry")
    t = table(client, token)
    # ZZ-4: 自摸 each seat pays base × (1 + its 跑 + the winner's 跑)
    assert t["totals"] == [-4, 10, -3, -3]
    assert t["dealer"] == 1                                       # ZZ-7: the winner deals
    html = client.get(f"/t/{token}").get_data(as_text=True)
    assert 'name="s_pao0" value="1"' in html and 'name="s_pao1" value="2"' in html
    assert re.search(r'id="dealer-fixed"><strong>小李', html)     # 庄家: the table's, fixed
    assert 'name="s_dealer"' not in html


def test_double_tap_records_once(client):
    token = open_table(client)
    _html, base = entry_form(client, token)
    data = {**base, "hand": WIN, "winning_tile": "2z", "s_dealer": "0", "s_winner": "1"}
    first = client.post(f"/t/{token}/hands", data=data)
    again = client.post(f"/t/{token}/hands", data=data)
    assert first.status_code == again.status_code == 303
    assert [h["number"] for h in table(client, token)["hands"]] == [1]


def test_the_entry_page_drawn_again_is_the_same_entry(client):
    """The entry's idempotency key rides in its URL: the page the back button draws again
    after a record posts the same key, so 记入 records nothing new and the page says so, in
    the reader's language (before: hand 2, the same hand again); the page after the record
    is a new entry, whose same tiles record."""
    token = open_table(client)
    html = client.get(f"/t/{token}").get_data(as_text=True)
    key = hidden(html, "idempotency_key")
    fields = {"hand": WIN, "winning_tile": "2z", "s_winner": "1"}
    r = client.get(f"/t/{token}", query_string={**fields, "number": "1",
                                                 "form_variant": "zhengzhou",
                                                 "idempotency_key": key})
    assert r.status_code == 303 and f"idempotency_key={key}" in r.headers["Location"]
    shown = r.headers["Location"]
    for done, again, lang, said in [(1, None, "zh", "第 1 手已记入"),
                                    (1, "1", "zh", "这一手已经记过了，是第 1 手：这次没有再记一遍。"),
                                    (1, "1", "en", "This entry was recorded already, as hand 1: "
                                                   "nothing was recorded again.")]:
        html = client.get(shown, headers={"Accept-Language": lang}).get_data(as_text=True)
        assert record_fields(html)["idempotency_key"] == key
        r = client.post(f"/t/{token}/hands", data={**fields, **record_fields(html)},
                        headers={"Accept-Language": lang})
        assert r.status_code == 303
        assert r.headers["Location"] == f"/t/{token}?done={done}" + (
            "&again=1" if again else "") + "#entry"
        page = client.get(r.headers["Location"], headers={"Accept-Language": lang})
        assert said in page.get_data(as_text=True)
    assert [h["number"] for h in table(client, token)["hands"]] == [1]
    assert record(client, token, **fields).headers["Location"].endswith("?done=2#entry")
    assert [h["request"]["hand"] for h in table(client, token)["hands"]] == [WIN, WIN]
    # a key of the wrong shape in a URL is no state: the page is drawn under a fresh one
    r = client.get(f"/t/{token}?idempotency_key=%E9%94%AE")
    assert r.status_code == 303 and r.headers["Location"] == f"/t/{token}"


def test_back_after_an_undo_records_nothing_silently(client):
    """撤销 of hand 1, then the back button to its entry page and 记入: its key recorded an
    entry that is undone now, so nothing is recorded and the page says so (before: "这一手
    已经记过了，是第 1 手" over hand 1's nets, the hand counted nowhere: lost), with the entry
    kept under a fresh key and the next number: the next 记入 records it as hand 2."""
    token = open_table(client)
    _html, base = entry_form(client, token)
    fields = {"hand": WIN, "winning_tile": "2z", "s_winner": "1"}
    assert client.post(f"/t/{token}/hands", data={**base, **fields}).status_code == 303
    page = client.get(f"/t/{token}").get_data(as_text=True)
    r = client.post(f"/t/{token}/undo", data={"csrf_token": csrf(page), "number": "1"})
    assert r.status_code == 303
    for lang, said in [("zh", "是第 1 手，已经撤销了"), ("en", "hand 1, and was undone")]:
        r = client.post(f"/t/{token}/hands", data={**base, **fields},
                        headers={"Accept-Language": lang})
        html = r.get_data(as_text=True)
        assert r.status_code == 409, r.headers.get("Location")
        assert said in html and f'value="{WIN}"' in html
        assert [h["status"] for h in table(client, token)["hands"]] == ["voided"]
    again = record_fields(html)
    assert again["idempotency_key"] != base["idempotency_key"]
    assert again["expected_number"] == "2"
    r = client.post(f"/t/{token}/hands", data={**again, **fields})
    assert r.status_code == 303 and r.headers["Location"].endswith("?done=2#entry")
    assert [h["status"] for h in table(client, token)["hands"]] == ["voided", "recorded"]


def test_back_after_a_void_records_nothing_silently(client):
    """作废 of hand 1 (with a reason), then its entry page posted again: as after 撤销,
    nothing recorded and the page says the hand was voided (before: "recorded already")."""
    token = open_table(client)
    _html, base = entry_form(client, token)
    fields = {"hand": WIN, "winning_tile": "2z", "s_winner": "1"}
    assert client.post(f"/t/{token}/hands", data={**base, **fields}).status_code == 303
    page = client.get(f"/t/{token}").get_data(as_text=True)
    r = client.post(f"/t/{token}/hands/1/void", data={"csrf_token": csrf(page),
                                                      "reason": "记错了"})
    assert r.status_code == 303
    for lang, said in [("zh", "是第 1 手，已经作废了"), ("en", "hand 1, and was voided")]:
        r = client.post(f"/t/{token}/hands", data={**base, **fields},
                        headers={"Accept-Language": lang})
        assert r.status_code == 409 and said in r.get_data(as_text=True)
    assert [h["status"] for h in table(client, token)["hands"]] == ["voided"]


def test_an_entry_key_of_64_characters_leaves_the_adjustment_usable(client):
    """The entry's key rides in the page's URL and may be 64 characters (checks.KEY_SHAPE);
    the adjustment form's key is derived from it and must fit too (before: that key plus
    "-adj", 68 characters, so every 调整 on such a page was a 422 naming idempotency_key)."""
    token = open_table(client)
    key = "k" * 64
    r = client.get(f"/t/{token}?idempotency_key={key}&hand=1m")
    assert r.status_code == 303 and f"idempotency_key={key}" in r.headers["Location"]
    page = client.get(r.headers["Location"]).get_data(as_text=True)
    keys = re.findall(r'name="idempotency_key" value="([^"]*)"', page)
    assert key in keys and all(1 <= len(k) <= 64 for k in keys)
    fee = {"csrf_token": csrf(page), "kind": "fee", "amount": "20", "paid_by": "0",
           "idempotency_key": next(k for k in keys if k != key)}
    assert client.post(f"/t/{token}/adjust", data=fee).status_code == 303
    assert client.post(f"/t/{token}/adjust", data=fee).status_code == 303      # a double tap
    assert [h["kind"] for h in table(client, token)["hands"]] == ["adjustment"]


def test_a_used_key_with_another_entry_is_409_and_the_entry_gets_a_key_of_its_own(client):
    """A page kept from before a 荒庄 was recorded with its key (the back button) posts a win
    with that key: 409, nothing recorded, the win kept in the entry under a fresh key, so
    the next 记入 records it. The same for an adjustment's form."""
    token = open_table(client)
    _html, base = entry_form(client, token)
    assert client.post(f"/t/{token}/hands", data={**base, "draw": "1",
                                                  "s_dealer": "0"}).status_code == 303
    r = client.post(f"/t/{token}/hands", data={**base, "hand": WIN, "winning_tile": "2z",
                                              "s_dealer": "0", "s_winner": "1"})
    html = r.get_data(as_text=True)
    assert r.status_code == 409
    assert "已经记过第 1 手" in html and f'value="{WIN}"' in html
    assert "idempotency_key" not in text_of(html)
    assert [h["number"] for h in table(client, token)["hands"]] == [1]
    fields = record_fields(html)
    assert fields["idempotency_key"] != base["idempotency_key"]
    assert fields["expected_number"] == "2"
    r = client.post(f"/t/{token}/hands", data={**fields, "hand": WIN, "winning_tile": "2z",
                                              "s_dealer": "0", "s_winner": "1"})
    assert r.status_code == 303
    assert table(client, token)["hands"][1]["request"]["settlement"]["winner"] == 1
    page = client.get(f"/t/{token}").get_data(as_text=True)
    fee = {"csrf_token": csrf(page), "kind": "fee", "amount": "20", "paid_by": "0",
           "idempotency_key": hidden(page, "idempotency_key")}
    assert client.post(f"/t/{token}/adjust", data=fee).status_code == 303
    assert client.post(f"/t/{token}/adjust", data=fee).status_code == 303      # a double tap
    r = client.post(f"/t/{token}/adjust", data={**fee, "amount": "30"})
    html = r.get_data(as_text=True)
    assert r.status_code == 409 and "已经记过第 3 手" in html
    assert "idempotency_key" not in text_of(html)         # the page's words, not the API's
    assert 'value="30"' in html                             # what was typed, kept
    assert hidden(html, "idempotency_key") != fee["idempotency_key"]
    assert len(table(client, token)["hands"]) == 3
    r = client.post(f"/t/{token}/hands", data={**base, "draw": "1", "s_dealer": "0",
                                              "idempotency_key": "键"})
    html = r.get_data(as_text=True)
    assert r.status_code == 422 and "编号读不出来" in html and "idempotency_key" not in text_of(html)
    assert record_fields(html)["idempotency_key"] != "键"
    assert len(table(client, token)["hands"]) == 3


def test_conflict_says_so_and_shows_the_recorded_hand(client):
    token = open_table(client)
    _html, stale = entry_form(client, token)
    record(client, token, hand=WIN, winning_tile="2z", s_dealer="0", s_winner="1")
    r = client.post(f"/t/{token}/hands", data={**stale, "hand": WIN, "winning_tile": "2z",
                                              "s_dealer": "0", "s_winner": "2"})
    html = r.get_data(as_text=True)
    assert r.status_code == 409
    assert "第 1 手已经有人记了" in html and 'href="#hand-1"' in html
    assert 'id="hand-1"' in html and "hand-conflict" in html
    assert f'value="{WIN}"' in html                                # what was typed is kept
    assert record_button(html)[2]["expected_number"] == "2"
    assert len(table(client, token)["hands"]) == 1


def test_bad_tile_is_shown_under_the_hand(client):
    token = open_table(client)
    r = record(client, token, hand="123m456p789s1112x", winning_tile="2z", s_dealer="0",
               s_winner="1")
    html = r.get_data(as_text=True)
    assert r.status_code == 422
    assert 'id="hand-error"' in html and 'value="123m456p789s1112x"' in html
    assert table(client, token)["hands"] == []


def test_drawn_game_in_one_tap_and_quick_entry_without_tiles(client):
    token = open_table(client, opt_seven_pairs_double="1")
    r = record(client, token, draw="1", s_dealer="0")
    assert r.status_code == 303
    r = record(client, token, s_dealer="0", s_winner="2", win_by="self_draw",
               d_doubles="seven_pairs")
    assert r.status_code == 303, r.get_data(as_text=True)[:500]
    t = table(client, token)
    drawn, quick = t["hands"]
    assert drawn["request"]["settlement"]["winner"] is None and drawn["verified"]
    assert quick["verified"] is False
    assert quick["request"]["declared"] == {"doubles": ["seven_pairs"]}
    assert quick["settlement"]["net"] == [-2, -2, 6, -2]          # ×2 for 七对 (ZZ-4)
    html = client.get(f"/t/{token}").get_data(as_text=True)
    assert "未验牌" in html and "荒庄" in html


def test_void_correct_and_dealer_flag(client):
    token = open_table(client)
    record(client, token, hand=WIN, winning_tile="2z", s_dealer="0", s_winner="1")
    record(client, token, hand=WIN, winning_tile="2z", s_dealer="1", s_winner="1")
    html = client.get(f"/t/{token}?correct=1", follow_redirects=True).get_data(as_text=True)
    assert "更正第 1 手" in html and f'value="{WIN}"' in html
    r = client.post(f"/t/{token}/hands/1", data={
        **record_fields(html), "hand": WIN, "winning_tile": "2z", "s_winner": "2"})
    assert r.status_code == 303
    t = table(client, token)
    assert t["hands"][0]["revision"] == 2 and t["hands"][1]["dealer_flag"]
    html = client.get(f"/t/{token}").get_data(as_text=True)
    assert "更正之后，这手的庄家与规则不符" in html and "修改前的版本（1）" in html
    r = client.post(f"/t/{token}/hands/2/void", data={"csrf_token": csrf(html), "reason": "记重了"})
    assert r.status_code == 303
    html = client.get(f"/t/{token}").get_data(as_text=True)
    assert "已作废" in html and "原因：记重了" in html
    assert table(client, token)["hands"][1]["status"] == "voided"


def test_adjustment_fee_split_evenly(client):
    token = open_table(client)
    html = client.get(f"/t/{token}").get_data(as_text=True)
    r = client.post(f"/t/{token}/adjust", data={"csrf_token": csrf(html), "kind": "fee",
                                                "amount": "20", "paid_by": "0", "note": "台费"})
    assert r.status_code == 303
    t = table(client, token)
    assert t["totals"] == [15, -5, -5, -5] and t["dealer"] == 0
    bad = client.post(f"/t/{token}/adjust", data={"csrf_token": csrf(html), "kind": "fee",
                                                  "amount": "abc", "paid_by": "0"})
    assert bad.status_code == 422 and "金额" in bad.get_data(as_text=True)


@pytest.mark.parametrize("typed, where, text", [
    ({"kind": "payment", "amount": "abc", "from": "2", "to": "3", "note": "诈和"}, "amount",
     "金额：请填正数，例如 20。"),
    ({"kind": "payment", "amount": "0", "from": "2", "to": "3", "note": "诈和"}, "amount",
     "金额应为大于 0、不超过 1000000000 的数。"),
    ({"kind": "payment", "amount": "5", "from": "2", "to": "2", "note": "诈和"}, "to",
     "付款和收款不能是同一家。"),
    ({"kind": "fee", "amount": "0.123456", "paid_by": "3", "note": "茶水"}, "amount",
     "带小数的金额最多 4 位小数"),
])
def test_a_bad_adjustment_keeps_what_was_typed_under_its_input(client, typed, where, text):
    """A referee's penalty with a slip of the finger: the error under the box it is about,
    and the kind, amount, seats and note as typed (not a blank form and a line at the top)."""
    token = open_table(client)
    html = client.get(f"/t/{token}").get_data(as_text=True)
    r = client.post(f"/t/{token}/adjust", data={"csrf_token": csrf(html), **typed})
    assert r.status_code == 422
    html = r.get_data(as_text=True)
    form = html[html.index('id="adjust-form"'):html.index("</form>", html.index('id="adjust-form"'))]
    error = re.search(rf'<p class="field-error" id="adj-{where}-error">(.*?)</p>', form)
    assert error is not None and text in error.group(1), form
    assert re.search(rf'id="adj-{where}"[^>]* aria-invalid="true" '
                     rf'aria-describedby="adj-{where}-error"', form), form
    assert f'name="kind" value="{typed["kind"]}" checked' in form
    assert re.search(rf'name="amount" value="{re.escape(typed["amount"])}"', form)
    assert f'value="{typed["note"]}"' in form
    for seat in ("from", "to", "paid_by"):
        if seat in typed:
            select = re.search(rf'<select[^>]*name="{seat}".*?</select>', form).group(0)
            assert re.findall(r'<option value="(\d)" selected>', select) == [typed[seat]]
    assert table(client, token)["hands"] == []


def test_view_page_cannot_write_and_holds_no_edit_token(client):
    token = open_table(client)
    record(client, token, hand=WIN, winning_tile="2z", s_dealer="0", s_winner="1")
    view = view_token_of(token)
    r = client.get(f"/t/{view}")
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and "只读" in html
    assert token not in html
    assert 'method="post"' not in html and "csrf_token" not in html
    # the QR of the view link, a PNG by the view token, the link printed under it
    assert f'<img src="/t/{view}/qr.png"' in html
    assert f'<span class="qr-link">http://localhost/t/{view}</span>' in html
    live = client.get(f"/t/{view}/live")
    assert token not in live.get_data(as_text=True)
    again = client.get(f"/t/{view}/live", headers={"If-None-Match": live.headers["ETag"]})
    assert again.status_code == 304
    gz = client.get(f"/t/{view}/live", headers={"Accept-Encoding": "gzip"})
    assert gz.headers["Content-Encoding"] == "gzip" and gz.headers["ETag"].endswith('-gzip"')
    again = client.get(f"/t/{view}/live", headers={"Accept-Encoding": "gzip",
                                                  "If-None-Match": gz.headers["ETag"]})
    assert again.status_code == 304              # the compressed answer's ETag revalidates
    page = client.get(f"/t/{token}").get_data(as_text=True)
    # the edit page's form proves the edit token, not this one (docs/decisions.md "Forms
    # without a session cookie"): refused before the ledger is asked
    r = client.post(f"/t/{view}/hands", data={"csrf_token": csrf(page), "s_winner": "1"})
    assert r.status_code == 400
    # with the view token's own proof (no page gives it) the ledger refuses the write
    r = client.post(f"/t/{view}/hands", data={"csrf_token": proof(client, view),
                                              "s_winner": "1"})
    assert r.status_code == 403
    assert len(table(client, token)["hands"]) == 1
    assert client.get("/t/" + "x" * 32).status_code == 404


def test_chart_is_an_svg_image_without_script(client):
    token = open_table(client)
    record(client, token, hand=WIN, winning_tile="2z", s_dealer="0", s_winner="1")
    r = client.get(f"/t/{view_token_of(token)}/chart.svg")
    assert r.status_code == 200 and r.mimetype == "image/svg+xml"
    svg = r.get_data(as_text=True)
    assert "<script" not in svg and all(n in svg for n in NAMES)
    assert "script-src" not in r.headers["Content-Security-Policy"]
    assert r.headers["Content-Security-Policy"].startswith("default-src 'none'")


def test_csv_and_json_round_trip(client):
    token = open_table(client)
    record(client, token, hand=WIN, winning_tile="2z", s_dealer="0", s_winner="1")
    record(client, token, draw="1", s_dealer="1")
    html = client.get(f"/t/{token}").get_data(as_text=True)
    client.post(f"/t/{token}/adjust", data={"csrf_token": csrf(html), "kind": "payment",
                                            "amount": "5", "from": "3", "to": "0", "note": "诈和"})
    r = client.get(f"/t/{token}/export.csv")
    raw = r.get_data()
    assert raw.startswith(b"\xef\xbb\xbf")                        # BOM: Excel reads UTF-8
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig"))))
    assert rows[0][:4] == ["手", "类型", "状态", "庄家"]
    entries = rows[1:rows.index([])]                # then the totals and the settle-up
    assert len(entries) == 3 + 1 + 1               # 3 payments, the 荒庄 (none), 1 penalty
    assert entries[-1][7:10] == ["张师傅", "老王", "5"]
    doc = client.get(f"/t/{view_token_of(token)}/export.json").get_data(as_text=True)
    r = client.post("/t/import", data={"csrf_token": new_table_token(client), "text": doc})
    assert r.status_code == 303
    new = r.headers["Location"].split("/t/")[1].split("?")[0]
    old_t, new_t = table(client, token), table(client, new)
    assert new != token and new_t["totals"] == old_t["totals"] == [4, 3, -1, -6]
    assert [h["settlement"] for h in new_t["hands"]] == [h["settlement"] for h in old_t["hands"]]
    bad = client.post("/t/import", data={"csrf_token": new_table_token(client), "text": "{}"})
    assert bad.status_code == 422 and "导入失败" in bad.get_data(as_text=True)


def test_a_win_on_a_discard_names_the_discarder(client):
    token = open_table(client, variant="jincheng", form_variant="jincheng")
    html = client.get(f"/t/{token}").get_data(as_text=True)
    assert 'name="s_discarder"' in html                     # offered before 胡法 is chosen
    assert 'name="s_dready"' in html                        # and the discarder's 上架 (JC-5)
    # as the browser sends the form: the four 上架 boxes checked, the discarder's asked apart
    r = record(client, token, hand=WIN, winning_tile="2z", win_by="discard", s_dealer="0",
               s_winner="1", s_discarder="2", s_dready="1",
               **{f"s_ready{i}": "1" for i in range(4)})
    assert r.status_code == 303, r.get_data(as_text=True)[:3000]
    h = table(client, token)["hands"][0]
    assert h["request"]["settlement"]["discarder"] == 2
    # JC-5: each other seat pays 底 × u (2 for the dealer, 老王) on a discard; all 上架
    assert {p["from"]: p["amount"] for p in h["settlement"]["payments"]} == {0: 2, 2: 1, 3: 1}



def test_the_csv_details_name_the_players_not_the_seats(client):
    """A referee reads the CSV's Detail column with the names the table shows: the seat
    words of a payment's detail (南家 / South) are the players' names, in one pass (seat 1
    is named 东家, the word of seat 0: it stays 东家, not 老王); what was typed (a fee's
    note) stays as typed; the columns stay."""
    token = open_table(client, n1="东家")
    record(client, token, hand=WIN, winning_tile="2z", s_dealer="0", s_winner="1")
    client.application.extensions["ledger"].record(
        token, {"adjustment": {"fee": 20, "paid_by": 0, "note": "东家 East 台费"}})
    for lang, detail, fee in [
            ("zh", "东家自摸：底1 ×(1+跑0+跑0) = 1（ZZ-4）",
             "东家 East 台费 20：老王垫付，四家均摊，每家 5"),
            ("en", "东家 self-draw: base 1 ×(1+pao 0+pao 0) = 1 (ZZ-4)",
             "东家 East 台费 20: paid by 老王, split evenly between the four, 5 each")]:
        raw = client.get(f"/t/{token}/export.csv?lang={lang}").get_data(as_text=True)
        rows = list(csv.reader(io.StringIO(raw.lstrip("\ufeff"))))
        assert len(rows[0]) == 16 and rows[0][11] in ("说明", "Detail")
        assert [(r[7], r[8], r[11]) for r in rows[1:4]] == [
            (payer, "东家", detail) for payer in ("老王", "阿梅", "张师傅")]
        assert [(r[7], r[8], r[11]) for r in rows[4:7]] == [
            (payer, "老王", fee) for payer in ("东家", "阿梅", "张师傅")]


def test_the_table_pages_payment_details_name_the_players_not_the_seats(client):
    """The table page's payments (its hand list, edit and view link, zh and en, and its
    poll's /live) name the players in each detail, as the CSV does (before: "南家自摸…"
    beside "老王 付给 小李"); a player named 东家 is not renamed again, a typed note stays."""
    token = open_table(client)
    record(client, token, hand=WIN, winning_tile="2z", s_dealer="0", s_winner="1")
    client.application.extensions["ledger"].record(
        token, {"adjustment": {"fee": 20, "paid_by": 0, "note": "东家 East 台费"}})
    view = view_token_of(token)
    for lang, detail, fee in [
            ("zh", "小李自摸：底1 ×(1+跑0+跑0) = 1（ZZ-4）",
             "东家 East 台费 20：老王垫付，四家均摊，每家 5"),
            ("en", "小李 self-draw: base 1 ×(1+pao 0+pao 0) = 1 (ZZ-4)",
             "东家 East 台费 20: paid by 老王, split evenly between the four, 5 each")]:
        for path in (f"/t/{token}", f"/t/{view}", f"/t/{token}/live"):
            page = htmllib.unescape(client.get(f"{path}?lang={lang}").get_data(as_text=True))
            details = re.findall(r'<details class="payments">.*?</details>', page, re.S)
            assert len(details) == 2, path
            fees, hand = details                          # the newest first
            said = re.findall(r"<small>(.*?)</small>", hand)
            assert said == [detail] * 3, (path, said)
            assert re.findall(r"<small>(.*?)</small>", fees) == [fee] * 3, path
            assert "南家" not in hand and "South" not in hand
    # the JSON export holds no payment detail at all (each entry's request and nets): no
    # seat words to name (docs/API.md "Export")
    doc = client.get(f"/t/{token}/export.json?raw=1").get_json()
    assert all("settlement" not in e and "payments" not in e for e in doc["entries"])
    assert "南家" not in json.dumps(doc, ensure_ascii=False)


def test_jincheng_entry_reads_its_checkboxes_as_a_form(client):
    """A box the browser leaves unchecked is not sent; the calculator reads that as "off"
    (its form says ``form_variant``), and so does the table's entry now: 南家 not 上架 cannot
    win (JC-3), and a discard win asks whether the discarder had 上架 (JC-5) instead of
    taking "yes" for it."""
    token = open_table(client, variant="jincheng", form_variant="jincheng")
    r = record(client, token, hand=WIN, winning_tile="2z", win_by="self_draw", s_dealer="0",
               s_winner="1", s_ready0="1", s_ready2="1", s_ready3="1")
    assert r.status_code == 422
    r = record(client, token, hand=WIN, winning_tile="2z", win_by="discard", s_dealer="0",
               s_winner="1", s_discarder="2", **{f"s_ready{i}": "1" for i in range(4)})
    assert r.status_code == 422 and 'id="s_dready-error"' in r.get_data(as_text=True)
    r = record(client, token, hand=WIN, winning_tile="2z", win_by="discard", s_dealer="0",
               s_winner="1", s_discarder="2", s_dready="0",
               **{f"s_ready{i}": "1" for i in range(4)})
    assert r.status_code == 303
    h = table(client, token)["hands"][0]
    # JC-5: 阿梅 discarded without 上架: ×2 on its share
    assert {p["from"]: p["amount"] for p in h["settlement"]["payments"]} == {0: 2, 2: 2, 3: 1}


def test_refusals_are_pages_not_crashes(make_app):
    client = make_app(LEDGER_TABLES_PER_HOUR=1).test_client()
    token = open_table(client)
    page = client.get("/t/new").get_data(as_text=True)
    r = client.post("/t/new", data={"csrf_token": csrf(page), "variant": "zhengzhou",
                                    "base": "1", "dealer": "0"})
    assert r.status_code == 429 and "一小时内已开了 1 张桌" in r.get_data(as_text=True)
    html = client.get(f"/t/{token}").get_data(as_text=True)
    r = client.post(f"/t/{token}/hands/1/void", data={"csrf_token": csrf(html), "reason": "x"})
    assert r.status_code == 404 and "没有第 1 手" in r.get_data(as_text=True)
    record(client, token, draw="1", s_dealer="0")
    r = client.post(f"/t/{token}/hands/1/void", data={"csrf_token": csrf(html), "reason": " "})
    assert r.status_code == 422 and "作废要写明原因" in r.get_data(as_text=True)
    assert table(client, token)["hands"][0]["status"] == "recorded"
    r = client.post("/t/import", data={"csrf_token": new_table_token(client),
                                       "text": "not json"})
    assert r.status_code == 422 and "这不是从牌桌导出的 JSON 文件" in r.get_data(as_text=True)


def test_cached_hand_list_carries_each_visitors_csrf_token_and_follows_writes(make_app):
    """The hand list is drawn once per table version: a second visitor's
    page comes from that cache, yet its void forms hold that visitor's own CSRF token (the
    void works), and a write shows at once."""
    app = make_app()
    first, second = app.test_client(), app.test_client()
    token = open_table(first)
    record(first, token, hand=WIN, winning_tile="2z", s_dealer="0", s_winner="1")
    html1 = first.get(f"/t/{token}").get_data(as_text=True)
    html2 = second.get(f"/t/{token}").get_data(as_text=True)
    assert "\x00" not in html1 and "\x00" not in html2
    void_form = html2[html2.index('class="void-form"'):]
    r = second.post(f"/t/{token}/hands/1/void", data={"csrf_token": csrf(void_form),
                                                       "reason": "记错了"})
    assert r.status_code == 303
    html = first.get(f"/t/{token}").get_data(as_text=True)
    assert "已作废" in html and "原因：记错了" in html
    live = first.get(f"/t/{token}/live").get_data(as_text=True)
    assert "原因：记错了" in live and "\x00" not in live


def test_the_offline_words_of_the_table_page_are_in_the_readers_language(client):
    """What static/js/ledger.js says under a write pressed without a network is on the
    scorer's page, as the queue's other words are (the badge's data-not-recorded), zh by
    default, en with ?lang=en."""
    token = open_table(client)
    words = {}
    for lang in ("zh", "en"):
        page = client.get(f"/t/{token}" + ("?lang=en" if lang == "en" else "")).get_data(
            as_text=True)
        m = re.search(r'<div class="queue-badge" id="queue-badge"[^>]*data-not-recorded="([^"]*)"',
                      page)
        assert m, lang
        words[lang] = htmllib.unescape(m.group(1))
    assert words == {
        "zh": "没有网络：这一笔没有记入，填写的内容还在。有网络后再按一次。",
        "en": "No network: this was not recorded; what you typed is still here. Press again "
              "when the network is back."}


@pytest.mark.parametrize("lang, long_error, bad_error, base_error", [
    ("zh", "南家的名字太长了：最多 16 个字符。",
     "北家的名字只能用看得见的字符（不能有换行或控制字符）。", "底分应为正数"),
    ("en", "The name for South seat is too long: at most 16 characters.",
     "The name for North seat should be visible characters only (no line breaks or control "
     "characters).", "Base points should be a positive number"),
])
def test_new_table_shows_each_bad_field_under_its_own_input(client, lang, long_error, bad_error,
                                                           base_error):
    """Three bad fields of 新开一桌 (a 17-character name, a name with a line break, a base that
    is no number): each error under its own input, naming the seat, in the reader's
    language; what was typed is kept and nothing is created."""
    q = "?lang=en" if lang == "en" else ""
    page = client.get("/t/new" + q).get_data(as_text=True)
    r = client.post("/t/new" + q, data={
        "csrf_token": csrf(page), "variant": "zhengzhou", "base": "abc", "dealer": "0",
        "form_variant": "zhengzhou", "n0": "老王", "n1": "小" * 17, "n2": "", "n3": "阿\n梅"})
    html = r.get_data(as_text=True)
    assert r.status_code == 422

    def under(field: str) -> str:
        m = re.search(rf'<p class="field-error" id="{field}-error">(.*?)</p>', html)
        return "" if m is None else htmllib.unescape(re.sub(r"<[^>]+>", "", m.group(1)))

    assert under("n1") == long_error
    assert under("n3") == bad_error
    assert base_error in under("base")
    assert under("n0") == under("n2") == ""
    assert f'value="{"小" * 17}"' in html and 'id="n1"' in html
    assert "字段长度" not in html and "Field cannot be longer" not in html


@pytest.mark.parametrize("lang, error", [
    ("zh", "没有这个玩法“NaN”：请从列表中选择。"),
    ("en", "No such variant \"NaN\": pick one from the list."),
])
def test_new_table_refuses_a_rule_set_it_cannot_read(client, lang, error):
    """A rule set the select cannot send (``variant=NaN``: a stale or hand-made form) is an
    error under the rule set's select, quoting what was sent, in the reader's language, with
    the names typed kept and nothing created (it opened a 郑州 table before). A GET's
    ``?variant=`` of an unknown name still only prefills the default, with no error."""
    q = "?lang=en" if lang == "en" else ""
    page = client.get("/t/new" + q).get_data(as_text=True)
    r = client.post("/t/new" + q, data={
        "csrf_token": csrf(page), "variant": "NaN", "base": "1", "dealer": "0",
        "form_variant": "zhengzhou", **{f"n{i}": n for i, n in enumerate(NAMES)}})
    html = r.get_data(as_text=True)
    assert r.status_code == 422 and "Location" not in r.headers
    m = re.search(r'<p class="field-error" id="variant-error">(.*?)</p>', html)
    assert m is not None and htmllib.unescape(re.sub(r"<[^>]+>", "", m.group(1))) == error
    assert re.search(r'<select aria-describedby="variant-error" aria-invalid="true"[^>]*'
                     r'id="variant"', html)
    assert all(f'value="{n}"' in html for n in NAMES)
    assert tables_made(client.application) == 0
    got = client.get("/t/new?variant=NaN" + q.replace("?", "&")).get_data(as_text=True)
    assert 'id="variant-error"' not in got and 'selected value="zhengzhou"' in got


@pytest.mark.parametrize("lang, base, error", [
    ("zh", "0", "底分（base）应为大于 0、不超过 1000000000 的数。"),
    ("en", "1e20", "Base (base) should be a number above 0 and at most 1000000000."),
    ("zh", "0.12345", "带小数的底分（base）最多 4 位小数"),
])
def test_new_table_shows_the_base_range_error_beside_a_bad_name(client, lang, base, error):
    """A base out of the ledger's range (0, too big, too many decimals) is refused under its
    box in the same answer as a bad name, not only once the names are fixed; nothing is
    created."""
    q = "?lang=en" if lang == "en" else ""
    page = client.get("/t/new" + q).get_data(as_text=True)
    r = client.post("/t/new" + q, data={
        "csrf_token": csrf(page), "variant": "zhengzhou", "base": base, "dealer": "0",
        "form_variant": "zhengzhou", "n0": "老王", "n1": "小" * 17, "n2": "", "n3": ""})
    html = r.get_data(as_text=True)
    assert r.status_code == 422
    m = re.search(r'<p class="field-error" id="base-error">(.*?)</p>', html)
    assert m is not None and error in htmllib.unescape(re.sub(r"<[^>]+>", "", m.group(1)))
    assert re.search(r'<p class="field-error" id="n1-error">', html)
    assert f'value="{base}"' in html
