"""The table page's round-two forms without JavaScript (CSRF on, as in production), on SQLite
and PostgreSQL: 撤销 (undo) right after a record, 荒庄 in one tap and a confirm, co-scorers'
links added and revoked by the creator, "replace the links", the carried-bets setting; and the
exports: every entry with its status, the totals and the settle-up, in the reader's language.

ZZ-4: a 郑州 self-draw at base 1 is base × (1 + the payer's 跑 + the winner's 跑) from each
other seat."""

from __future__ import annotations

import csv
import html as htmllib
import io
import json
import re
from urllib.parse import parse_qsl, urlsplit

from ..cards import qr_texts
from .test_pages import NAMES, WIN, client, csrf, entry_form, open_table, proof, record, table  # noqa: F401

CJK = re.compile(r"[\u3400-\u9fff]")


def form_of(html: str, marker: str) -> str:
    """The <form> holding ``marker``."""
    i = html.index(marker)
    return html[html.rindex("<form", 0, i):html.index("</form>", i)]


def win(client, token, winner="1", **extra):
    r = record(client, token, hand=WIN, winning_tile="2z", win_by="self_draw", s_dealer="0",
               s_winner=winner, **extra)
    assert r.status_code == 303, r.get_data(as_text=True)[:800]
    return r


def ledger(client):
    return client.application.extensions["ledger"]


# -- undo --------------------------------------------------------------------------------------

def test_undo_right_after_a_record_once(client):
    token = open_table(client)
    win(client, token)
    win(client, token, winner="2")
    html = client.get(f"/t/{token}").get_data(as_text=True)
    form = form_of(html, 'id="undo"')
    assert 'name="number" value="2"' in form and "撤销" in form
    assert html.count('class="undo-form"') == 1                  # the last entry only
    data = {"csrf_token": csrf(form), "number": "2"}
    r = client.post(f"/t/{token}/undo", data=data)
    assert r.status_code == 303 and r.headers["Location"].endswith("#hand-2")
    t = table(client, token)
    assert (t["hands"][1]["status"], t["hands"][1]["void_code"]) == ("voided", "undone")
    assert t["totals"] == [-1, 3, -1, -1]
    again = client.post(f"/t/{token}/undo", data=data)           # the double tap
    assert again.status_code == 409
    assert "第 2 手不是最后一条计入的记录（最后一条是第 1 手），没有撤销任何记录。" in \
        again.get_data(as_text=True)
    assert table(client, token)["version"] == t["version"]
    html = client.get(f"/t/{token}").get_data(as_text=True)
    assert form_of(html, 'id="undo"').count('value="1"') == 1     # now hand 1's
    li = html[html.index('id="hand-2"'):html.index("</li>", html.index('id="hand-2"'))]
    assert "已撤销" in li and "原因" not in li
    view = ledger(client).view_token(token)
    assert 'class="undo-form"' not in client.get(f"/t/{view}").get_data(as_text=True)
    r = client.post(f"/t/{view}/undo", data={"csrf_token": proof(client, view), "number": "1"})
    assert r.status_code == 403 and table(client, token)["hands"][0]["status"] == "recorded"
    assert client.post(f"/t/{token}/undo", data={"number": "1"}).status_code == 400   # no CSRF


# -- 荒庄: one tap and a confirm ---------------------------------------------------------------

def test_draw_asks_first_then_records_with_the_dealer_and_pao(client):
    token = open_table(client)
    win(client, token, s_pao0="1", s_pao1="2", s_pao2="0", s_pao3="0")     # 小李 deals next
    html, _base = entry_form(client, token)
    m = re.search(r'id="draw" name="csrf_token" value="([^"]+)" formmethod="post" '
                  r'formaction="([^"]+)"', html)
    action = htmllib.unescape(m.group(2))
    assert urlsplit(action).path == f"/t/{token}/draw"
    data = {"csrf_token": m.group(1), "hand": "", "s_dealer": "1", "s_pao0": "1",
            "s_pao1": "2", "s_pao2": "0", "s_pao3": "0"}
    r = client.post(action, data=data)
    page = r.get_data(as_text=True)
    assert r.status_code == 200 and "把第 2 手记为荒庄？" in page
    assert "庄家：小李" in page and "跑：老王 1 · 小李 2。" in page
    assert len(table(client, token)["hands"]) == 1                     # nothing yet
    confirm = form_of(page, 'id="draw-yes"')
    target = htmllib.unescape(re.search(r'action="([^"]+)"', confirm).group(1))
    assert urlsplit(target).path == f"/t/{token}/hands"
    query = dict(parse_qsl(urlsplit(target).query))
    assert query["draw"] == "1" and query["expected_number"] == "2"
    fields = dict(re.findall(r'name="([^"]+)" value="([^"]*)"', confirm))
    assert fields["draw"] == "1" and fields["s_pao1"] == "2"
    r = client.post(target, data=fields)
    assert r.status_code == 303
    drawn = table(client, token)["hands"][1]
    assert drawn["request"]["settlement"]["winner"] is None
    assert drawn["dealer"] == 1 and drawn["request"]["settlement"]["pao"] == [1, 2, 0, 0]
    again = client.post(target, data=fields)                           # the confirm, twice
    assert again.status_code == 303 and len(table(client, token)["hands"]) == 2
    view = ledger(client).view_token(token)
    assert client.post(f"/t/{view}/draw", data={**data, "csrf_token": proof(client, view)}
                       ).status_code == 403


# -- co-scorers --------------------------------------------------------------------------------

def test_the_creator_adds_a_co_scorer_who_records_and_is_revoked(client):
    token = open_table(client)
    html = client.get(f"/t/{token}").get_data(as_text=True)
    add = form_of(html, 'id="add-co-scorer"')
    r = client.post(f"/t/{token}/editors", data={"csrf_token": csrf(add)})
    page = r.get_data(as_text=True)
    assert r.status_code == 201 and "协同记分人 1 的编辑链接" in page
    link = re.search(r'id="new-edit-link" readonly value="([^"]+)"', page).group(1)
    co = link.rsplit("/t/", 1)[1]
    assert co != token
    # the QR of the new edit link (the one the creator asked for), a PNG, the link under it
    assert f'<img src="/t/{co}/qr.png?link=edit"' in page and f'>{link}</span>' in page
    assert qr_texts(client.get(f"/t/{co}/qr.png?link=edit").data) == [link]
    assert ledger(client).access(co) == "edit"
    co_page = client.get(f"/t/{co}").get_data(as_text=True)
    assert 'id="add-co-scorer"' not in co_page and "这是协同记分人 1 的编辑链接" in co_page
    assert ledger(client).view_token(token) in co_page                # the same view link
    win(client, co)
    assert table(client, token)["hands"][0]["editor"] == 1
    html = client.get(f"/t/{token}").get_data(as_text=True)
    assert "协同记分人 1 记" in html and 'id="co-scorer-1"' in html
    revoke = form_of(html, 'id="revoke-1"')
    r = client.post(f"/t/{token}/editors/1/revoke", data={"csrf_token": csrf(revoke)})
    assert r.status_code == 303 and r.headers["Location"].endswith("#links")
    assert client.get(f"/t/{co}").status_code == 404
    assert client.get(f"/t/{co}/live").status_code == 404
    html = client.get(f"/t/{token}").get_data(as_text=True)
    li = html[html.index('id="co-scorer-1"'):]
    assert "已收回" in li[:li.index("</li>")]
    # a co-scorer cannot add or revoke
    second = client.post(f"/t/{token}/editors", data={"csrf_token": csrf(html)})
    co2 = re.search(r'id="new-edit-link" readonly value="[^"]+/t/([^"]+)"',
                    second.get_data(as_text=True)).group(1)
    r = client.post(f"/t/{co2}/editors", data={"csrf_token": proof(client, co2)})
    assert r.status_code == 403 and "只有开桌的人" in r.get_data(as_text=True)


def _co_scorer(client, token: str) -> str:
    """A co-scorer's edit link, added through the creator's page; its page shows the view
    link (what the revoked co-scorer keeps)."""
    html = client.get(f"/t/{token}").get_data(as_text=True)
    r = client.post(f"/t/{token}/editors", data={"csrf_token": csrf(form_of(html, 'id="add-co-scorer"'))})
    co = re.search(r'id="new-edit-link" readonly value="[^"]+/t/([^"]+)"',
                   r.get_data(as_text=True)).group(1)
    assert ledger(client).view_token(token) in client.get(f"/t/{co}").get_data(as_text=True)
    return co


def test_the_revoke_form_says_the_view_link_still_reads_and_offers_to_replace_it(client):
    """Revoking stops a co-scorer's edit link, not the view link their page showed: the form
    says so, in the reader's language, and offers to replace the view link in the same step
    (one form, a checkbox, CSRF; no script)."""
    token = open_table(client)
    co = _co_scorer(client, token)
    view = ledger(client).view_token(token)
    html = client.get(f"/t/{token}").get_data(as_text=True)
    form = form_of(html, 'id="revoke-1"')
    assert 'name="csrf_token"' in form and 'type="checkbox" name="view" value="1"' in form
    assert 'id="revoke-view-1"' in form
    note = html[html.index('id="revoke-note"'):]
    note = note[:note.index("</p>")]
    assert "观看链接" in note and "仍能" in note              # they can still read with it
    en = client.get(f"/t/{token}?lang=en").get_data(as_text=True)
    assert "can still follow the table" in en and "Also replace the view link" in en
    # without the box: the edit link is revoked, the view link still opens the table, and
    # the page says so
    r = client.post(f"/t/{token}/editors/1/revoke", data={"csrf_token": csrf(form)})
    assert r.status_code == 303 and "revoked=1" in r.headers["Location"]
    assert client.get(f"/t/{co}").status_code == 404
    assert client.get(f"/t/{view}").status_code == 200
    page = client.get(r.headers["Location"]).get_data(as_text=True)
    said = page[page.index('id="revoked"'):]
    said = said[:said.index("</p>")]
    assert "协同记分人 1" in said and "观看链接" in said and view in page
    assert ledger(client).view_token(token) == view
    # and offers to replace it now, one more form (CSRF, no script)
    again = form_of(page, 'id="replace-view-now"')
    assert 'name="view" value="1"' in again
    r = client.post(f"/t/{token}/editors/1/revoke", data={"csrf_token": csrf(again), "view": "1"})
    assert r.status_code == 303 and "new_view=1" in r.headers["Location"]
    assert client.get(f"/t/{view}").status_code == 404
    assert client.get(f"/t/{ledger(client).view_token(token)}").status_code == 200
    # a made-up ?revoked= says nothing
    assert 'id="revoked"' not in client.get(f"/t/{token}?revoked=7").get_data(as_text=True)


def test_revoke_and_replace_the_view_link_in_one_step(client):
    token = open_table(client)
    win(client, token)
    co = _co_scorer(client, token)
    other = _co_scorer(client, token)
    view = ledger(client).view_token(token)
    html = client.get(f"/t/{token}").get_data(as_text=True)
    form = form_of(html, 'id="revoke-1"')
    # a stale form (no CSRF token) changes nothing
    r = client.post(f"/t/{token}/editors/1/revoke", data={"view": "1"})
    assert r.status_code == 400 and client.get(f"/t/{view}").status_code == 200
    r = client.post(f"/t/{token}/editors/1/revoke", data={"csrf_token": csrf(form), "view": "1"})
    assert r.status_code == 303 and "revoked=1" in r.headers["Location"]
    assert r.headers["Location"].split("/t/")[1].startswith(token)   # the creator's link stays
    assert client.get(f"/t/{co}").status_code == 404
    assert client.get(f"/t/{view}").status_code == 404               # the old view link too
    new_view = ledger(client).view_token(token)
    assert new_view and new_view != view
    assert client.get(f"/t/{new_view}").status_code == 200
    assert len(table(client, new_view)["hands"]) == 1
    page = client.get(r.headers["Location"]).get_data(as_text=True)
    said = page[page.index('id="revoked"'):]
    assert "新的观看链接" in said[:said.index("</p>")] and new_view in page
    # the other co-scorer still records; their page no longer knows the view link
    assert client.get(f"/t/{other}").status_code == 200
    assert ledger(client).view_token(other) is None
    en = client.post(f"/t/{token}/editors/2/revoke?lang=en",
                     data={"csrf_token": csrf(form), "view": "1"})
    text = client.get(en.headers["Location"]).get_data(as_text=True)
    assert "Co-scorer 2" in text and "new view link" in text


# -- replace the links -------------------------------------------------------------------------

def test_replace_the_edit_link_then_both(client):
    token = open_table(client)
    win(client, token)
    view = ledger(client).view_token(token)
    page = client.get(f"/t/{token}/links").get_data(as_text=True)
    assert "换链接" in page and 'id="rotate-view"' in page
    form = form_of(page, 'id="rotate-button"')
    r = client.post(f"/t/{token}/links", data={"csrf_token": csrf(form)})
    assert r.status_code == 303
    new = r.headers["Location"].split("/t/")[1].split("?")[0]
    assert "rotated=edit" in r.headers["Location"] and new != token
    assert client.get(f"/t/{token}").status_code == 404
    html = client.get(r.headers["Location"]).get_data(as_text=True)
    assert "链接已换：本页地址就是新的编辑链接" in html and view in html
    assert client.get(f"/t/{view}").status_code == 200
    # the new link's page: its forms prove the new token (the old page's no longer do)
    form = form_of(client.get(f"/t/{new}/links").get_data(as_text=True), 'id="rotate-button"')
    r = client.post(f"/t/{new}/links", data={"csrf_token": csrf(form), "view": "1"})
    newer = r.headers["Location"].split("/t/")[1].split("?")[0]
    assert "rotated=view" in r.headers["Location"]
    for old in (new, view):
        assert client.get(f"/t/{old}").status_code == 404
    html = client.get(r.headers["Location"]).get_data(as_text=True)
    new_view = ledger(client).view_token(newer)
    assert new_view != view and new_view in html and "下面的观看链接也是新的" in html
    assert len(table(client, newer)["hands"]) == 1
    assert client.get(f"/t/{new_view}/links").status_code == 403


def test_a_co_scorer_replaces_only_its_own_link(client):
    token = open_table(client)
    co = ledger(client).add_editor(token)[1]
    page = client.get(f"/t/{co}/links").get_data(as_text=True)
    assert 'id="rotate-view"' not in page                       # the creator's choice only
    form = form_of(page, 'id="rotate-button"')
    r = client.post(f"/t/{co}/links", data={"csrf_token": csrf(form), "view": "1"})
    assert r.status_code == 403 and client.get(f"/t/{co}").status_code == 200
    r = client.post(f"/t/{co}/links", data={"csrf_token": csrf(form)})
    assert r.status_code == 303 and client.get(f"/t/{co}").status_code == 404
    assert client.get(f"/t/{token}").status_code == 200


# -- the carried bets ------------------------------------------------------------------------

def test_carried_bets_setting_keeps_or_resets_the_pao(client):
    token = open_table(client)
    win(client, token, s_pao0="1", s_pao1="2", s_pao2="0", s_pao3="0")
    html = client.get(f"/t/{token}").get_data(as_text=True)
    assert 'name="s_pao1" value="2"' in html                       # kept (the default)
    form = form_of(html, 'id="settings-button"')
    assert re.search(r'value="keep" checked', form)
    r = client.post(f"/t/{token}/settings", data={"csrf_token": csrf(form),
                                                  "carry_bets": "reset"})
    assert r.status_code == 303 and table(client, token)["carry_bets"] == "reset"
    html = client.get(f"/t/{token}").get_data(as_text=True)
    assert 'name="s_pao1" value="2"' not in html
    assert re.search(r'value="reset" checked', form_of(html, 'id="settings-button"'))
    bad = client.post(f"/t/{token}/settings", data={"csrf_token": csrf(form),
                                                    "carry_bets": "maybe"})
    assert bad.status_code == 422 and table(client, token)["carry_bets"] == "reset"


# -- the exports ------------------------------------------------------------------------------

def _evening(client) -> str:
    """Five entries: a win with 跑, a 荒庄 (no payment in 郑州), a fee, a voided win, an
    undone win."""
    token = open_table(client)
    win(client, token, s_pao0="1", s_pao1="0", s_pao2="0", s_pao3="0")
    record(client, token, draw="1", s_dealer="1")
    ledger(client).record(token, {"adjustment": {"fee": 20, "paid_by": 0, "note": "台费"}})
    ledger(client).record(token, {"hand": WIN, "winning_tile": "2z", "win_by": "self_draw",
                                  "settlement": {"winner": 2}})
    ledger(client).void(token, 4, "=记错了")
    ledger(client).record(token, {"hand": WIN, "winning_tile": "2z", "win_by": "self_draw",
                                  "settlement": {"winner": 3}})
    ledger(client).undo(token, 5)
    return token


def _rows(resp) -> list[list[str]]:
    return list(csv.reader(io.StringIO(resp.get_data(as_text=True).lstrip("\ufeff"))))


def test_csv_holds_every_entry_with_its_status_then_totals_and_settle_up(client):
    token = _evening(client)
    t = table(client, token)
    resp = client.get(f"/t/{token}/export.csv")
    assert resp.headers["Content-Type"] == "text/csv; charset=utf-8"
    rows = _rows(resp)
    header = rows[0]
    assert header == ["手", "类型", "状态", "庄家", "胡牌者", "胡法", "验牌", "付款", "收款",
                      "金额", "项目", "说明", "规则", "记入时间（Asia/Shanghai）", "记录号",
                      "更正版本"]
    end = rows.index([])
    body = rows[1:end]
    col = {name: header.index(name) for name in header}
    # a row for each entry (its id in 记录号); 手 counts the hands played: the fee, the
    # voided and the undone entries take no place
    assert sorted({int(r[col["记录号"]]) for r in body}) == [1, 2, 3, 4, 5]
    by = {n: [r for r in body if r[col["记录号"]] == str(n)] for n in range(1, 6)}
    assert [by[n][0][0] for n in range(1, 6)] == ["1", "2", "", "", ""]
    assert [r[col["项目"]] for r in by[1]] == ["胡牌"] * 3               # ZZ-4: 2, 1, 1
    assert [r[col["金额"]] for r in by[1]] == ["2", "1", "1"]
    assert [(r[col["状态"]], r[col["胡牌者"]], r[col["金额"]]) for r in by[2]] == \
        [("计入", "荒庄", "")]
    assert by[2][0][col["验牌"]] == ""                          # a 荒庄 has no tiles to check
    assert {r[col["项目"]] for r in by[3]} == {"台费"} and len(by[3]) == 3
    assert [(r[col["状态"]], r[col["说明"]], r[col["金额"]]) for r in by[4]] == \
        [("作废", "'=记错了", "")]
    assert [(r[col["状态"]], r[col["金额"]]) for r in by[5]] == [("撤销", "")]
    tail = rows[end:]
    assert ["座位", *NAMES] in tail
    totals = next(r for r in tail if r[:1] == ["合计"])
    assert totals[1:] == [str(x) for x in t["totals"]] and t["totals"] == [13, -1, -6, -6]
    i = tail.index(["结算", "付款", "收款", "金额"])
    assert tail[i + 1:] == [["", NAMES[s["from"]], NAMES[s["to"]], str(s["amount"])]
                            for s in t["settle_up"]]
    en = _rows(client.get(f"/t/{token}/export.csv?lang=en"))
    assert en[0][:3] == ["Hand", "Kind", "Status"]
    body_en = en[1:en.index([])]
    assert {r[2] for r in body_en} == {"Counted", "Voided", "Undone"}
    assert {r[10] for r in body_en if r[10]} == {"Win", "Table fee"}
    typed = (*NAMES, "=记错了", "台费")           # what the user typed stays as typed
    assert not [c for r in en for c in r
                if CJK.search(c) and not any(u in c for u in typed)], en


def test_json_export_holds_every_entry_with_its_status(client):
    token = _evening(client)
    doc = json.loads(client.get(f"/t/{token}/export.json").get_data(as_text=True))
    assert [(e["status"], e.get("void_code")) for e in doc["entries"]] == [
        ("recorded", None), ("recorded", None), ("recorded", None), ("voided", None),
        ("voided", "undone")]
    assert doc["entries"][3]["void_reason"] == "=记错了"
    assert doc["totals"] == [13, -1, -6, -6] and doc["settle_up"]
    assert doc["entries"][1]["net"] == [0, 0, 0, 0]


def test_english_round_two_pages_show_no_chinese(client):
    token = open_table(client)
    win(client, token)
    html = client.get(f"/t/{token}?lang=en").get_data(as_text=True)
    for page in (client.get(f"/t/{token}/links?lang=en"),
                 client.post(f"/t/{token}/editors?lang=en", data={"csrf_token": csrf(html)}),
                 client.post(f"/t/{token}/draw?lang=en", data={"csrf_token": csrf(html),
                                                              "s_pao0": "1"})):
        text = re.sub(r"<[^>]+>", " ", page.get_data(as_text=True))
        text = re.sub(r"<svg.*?</svg>", "", text, flags=re.S)
        found = [w for w in CJK.findall(text) if not any(w in n for n in NAMES)]
        assert not found, (page.request.path, found[:20])
    assert "Undo" in html and "Links and settings" in html


def test_a_revoked_link_says_it_was_revoked_or_replaced_and_whom_to_ask(client):
    """A revoked co-scorer's link (and a replaced view link, and a link copied wrong) opens a
    404 page that says the link was revoked or replaced and to ask whoever gave it for the
    current one, in the reader's language, and nothing of the table (no name, no variant);
    the poll stays a bare 404 (the page's script drops its copies on it)."""
    token = open_table(client)
    co = _co_scorer(client, token)
    html = client.get(f"/t/{token}").get_data(as_text=True)
    client.post(f"/t/{token}/editors/1/revoke", data={"csrf_token": csrf(form_of(html, 'id="revoke-1"'))})
    zh = client.get(f"/t/{co}")
    en = client.get(f"/t/{co}?lang=en")
    assert zh.status_code == en.status_code == 404
    said_zh = htmllib.unescape(re.sub(r"<[^>]+>", "", zh.get_data(as_text=True)))
    said_en = htmllib.unescape(re.sub(r"<[^>]+>", "", en.get_data(as_text=True)))
    assert ("这个牌桌链接打不开了：开这一桌的人可能已经收回或更换了它，也可能是链接抄错了。"
            "请向给你链接的人要现在的链接。") in said_zh
    assert "没有这个页面" not in said_zh
    assert ("This table link no longer opens a table: whoever opened the table may have "
            "revoked or replaced it, or it was copied wrong. Ask whoever gave it to you for "
            "the current link.") in said_en
    for page in (said_zh, said_en):
        assert not any(n in page for n in NAMES)
    assert client.get(f"/t/{co}/live").status_code == 404
    # a replaced view link says the same; any other page that is not there does not
    view = ledger(client).view_token(token)
    r = client.post(f"/t/{token}/links", data={"csrf_token": proof(client, token), "view": "1"})
    assert r.status_code == 303 and "rotated=view" in r.headers["Location"]
    for old in (token, view):                          # the replaced edit and view links
        gone = client.get(f"/t/{old}")
        assert gone.status_code == 404 and "这个牌桌链接打不开了" in gone.get_data(as_text=True)
    other = client.get("/no-such-page").get_data(as_text=True)
    assert "没有这个页面" in other and "这个牌桌链接打不开了" not in other
