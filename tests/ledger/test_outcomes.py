"""``GET /t/<edit>/outcomes`` (issue 36.2, docs/decisions.md "What a queued hand will
record"): for the entry's other inputs, what each outcome of a hand without tiles and 荒庄
records, per dealer, as the ledger computes it. Each answer is then recorded through the
page's form, and the table holds exactly those nets and that next dealer.

Amounts: JC-5, a 晋城 discard win with every seat 上架: each other seat pays 底 × u, u = 2
for the dealer (here 老王 pays 2, the others 1: the winner +4); ZZ-4, a 郑州 self-draw: each
other seat pays 底 × (1 + the winner's 跑 + the payer's 跑); ZZ-7 / JC-9: the winner deals
next, a 荒庄 keeps (郑州) the dealer."""

from __future__ import annotations

from .test_pages import open_table, proof, record, table

READY = {f"s_ready{i}": "1" for i in range(4)}


def _outcomes(client, token: str, **inputs) -> dict:
    r = client.get(f"/t/{token}/outcomes", query_string=inputs)
    assert r.status_code == 200 and r.mimetype == "application/json"
    return r.get_json()


def test_each_answer_is_what_the_record_then_holds_jincheng(client):
    token = open_table(client, variant="jincheng", form_variant="jincheng")
    inputs = {"form_variant": "jincheng", "s_dready": "1", **READY}
    got = _outcomes(client, token, **inputs)
    assert got["dealer"] == 0
    o = got["outcomes"]
    # every dealer × (荒庄, 4 winners × (self-draw, the other methods, 3 discarders each))
    assert {k.split(":")[0] for k in o} == {"0", "1", "2", "3"}
    assert o["0:1:discard:2"] == [["-2", "+4", "-1", "-1"], 1]          # JC-5, JC-9
    assert "0:1:discard:1" not in o                  # nobody discards to themselves
    assert "0:1:self_draw:2" not in o                # a self-draw has no discarder
    r = record(client, token, win_by="discard", s_winner="1", s_discarder="2", **inputs)
    assert r.status_code == 303
    h = table(client, token)["hands"][0]
    assert h["settlement"]["net"] == [-2, 4, -1, -1]
    assert h["settlement"]["next_dealer"]["seat"] == 1
    # the next hand: dealt by 小李, a 荒庄 — the answer under dealer 1, as recorded
    expect = _outcomes(client, token, **inputs)["outcomes"]["1:none::"]
    assert expect == o["1:none::"]
    r = record(client, token, draw="1", **inputs)
    assert r.status_code == 303
    t = table(client, token)
    drawn = t["hands"][1]
    assert [f"+{x}" if x > 0 else str(x) for x in drawn["settlement"]["net"]] == expect[0]
    assert t["dealer"] == expect[1]


def test_the_bets_as_entered_zhengzhou(client):
    token = open_table(client)
    bets = {"form_variant": "zhengzhou", "s_pao0": "1", "s_pao1": "2", "s_pao2": "0",
            "s_pao3": "0"}
    o = _outcomes(client, token, **bets)["outcomes"]
    # ZZ-4: 老王 pays 1 + 2 + 1, 阿梅 and 张师傅 1 + 2; ZZ-7: 小李 deals next
    assert o["0:1:self_draw:"] == [["-4", "+10", "-3", "-3"], 1]
    assert o["0:none::"] == [["0", "0", "0", "0"], 0]
    none = _outcomes(client, token, form_variant="zhengzhou")["outcomes"]
    assert none["0:1:self_draw:"] == [["-1", "+3", "-1", "-1"], 1]
    r = record(client, token, s_winner="1", win_by="self_draw", **bets)
    assert r.status_code == 303
    assert table(client, token)["hands"][0]["settlement"]["net"] == [-4, 10, -3, -3]


def test_only_the_edit_link_and_no_write(client):
    token = open_table(client)
    view = client.application.extensions["ledger"].view_token(token)
    assert client.get(f"/t/{view}/outcomes").status_code == 403
    assert client.get("/t/" + "x" * 32 + "/outcomes").status_code == 404
    before = table(client, token)["version"]
    _outcomes(client, token, form_variant="zhengzhou")
    assert table(client, token)["version"] == before
    # a GET needs no proof, and a POST there is no route
    assert client.post(f"/t/{token}/outcomes",
                       data={"csrf_token": proof(client, token)}).status_code == 405
