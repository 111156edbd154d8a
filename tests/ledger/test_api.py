"""The table ledger's JSON API, point by point as API.md "Table ledger" says, on SQLite and
PostgreSQL. Amounts are the ones the rules determine (ZZ-4, JC-5, JC-8, PJ-10..12, SMX-6)."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import threading
from datetime import datetime

import pytest
from sqlalchemy import text

from webcalc.variants.zhengzhou import ZhengzhouOptions

pytestmark = pytest.mark.both_dbs

WIN = {"hand": "123m456p789s11122z", "winning_tile": "2z", "win_by": "self_draw"}
WIN2 = {"hand": "111m234p567s789s55z", "winning_tile": "5z", "win_by": "self_draw"}


def win(seat: int, tiles: dict = WIN, **settlement) -> dict:
    return {**tiles, "settlement": {"winner": seat, **settlement}}


def create(api, **spec):
    r = api.post("/api/v1/tables", json={"variant": "zhengzhou", **spec})
    assert r.status_code == 201, r.json
    return r.json["edit_token"], r.json["view_token"], r.json["table"]


def record(api, token, body, status=201):
    r = api.post(f"/api/v1/tables/{token}/hands", json=body)
    assert r.status_code == status, r.json
    return r.json


# -- create and read ---------------------------------------------------------------------------

def test_create_with_defaults(api):
    edit, view, t = create(api)
    assert len(edit) >= 22 and len(view) >= 22 and edit != view     # ≥ 128 bits each
    assert t["options"] == dataclasses.asdict(ZhengzhouOptions())
    assert (t["base"], t["names"], t["dealer"], t["next_number"]) == \
        (1, ["东家", "南家", "西家", "北家"], 0, 1)
    assert (t["hands"], t["totals"], t["settle_up"]) == ([], [0, 0, 0, 0], [])
    assert "edit_token" not in t and edit not in str(t) and view not in str(t)


def test_create_with_everything_given(api):
    _, _, t = create(api, options={"pao_max": 2, "seven_pairs_double": True}, base=0.5,
                     names=["甲", "乙", "丙", "丁"], dealer=2)
    assert t["options"]["pao_max"] == 2 and t["options"]["seven_pairs_double"] is True
    assert (t["base"], t["names"], t["dealer"]) == (0.5, ["甲", "乙", "丙", "丁"], 2)


@pytest.mark.parametrize("spec, code, field", [
    ({"variant": "beijing"}, "unknown_variant", "variant"),
    ({"variant": "zhengzhou", "options": {"nope": 1}}, "bad_option", "options.nope"),
    ({"variant": "zhengzhou", "names": ["a", "b", "c"]}, "bad_request", "names"),
    ({"variant": "zhengzhou", "names": ["a", "b", "c", " "]}, "bad_request", "names"),
    ({"variant": "zhengzhou", "dealer": 4}, "bad_request", "dealer"),
    ({"variant": "zhengzhou", "base": 0}, "bad_settlement", "base"),
    ({"variant": "zhengzhou", "colour": "red"}, "bad_request", "colour"),
])
def test_create_refuses_bad_input(api, spec, code, field):
    r = api.post("/api/v1/tables", json=spec)
    assert r.status_code == 400
    assert (r.json["error"]["code"], r.json["error"]["field"]) == (code, field)


def test_create_refuses_a_body_that_is_not_json(api):
    r = api.post("/api/v1/tables", data=b"{nope", content_type="application/json")
    assert r.status_code == 400 and r.json["error"]["code"] == "bad_json"


def test_read_with_either_token(api):
    edit, view, _ = create(api)
    record(api, edit, win(1))
    a, b = api.get(f"/api/v1/tables/{edit}"), api.get(f"/api/v1/tables/{view}")
    assert a.status_code == b.status_code == 200
    assert (a.json["access"], b.json["access"]) == ("edit", "view")
    assert {**a.json, "access": None} == {**b.json, "access": None}


def test_unknown_token_is_404_whatever_the_path(api):
    create(api)
    bogus = "A" * 32
    for method, path, body in [
            ("get", f"/api/v1/tables/{bogus}", None),
            ("post", f"/api/v1/tables/{bogus}/hands", win(1)),
            ("post", f"/api/v1/tables/{bogus}/hands", "not json"),
            ("put", f"/api/v1/tables/{bogus}/hands/1", win(1)),
            ("post", f"/api/v1/tables/{bogus}/hands/1/void", {"reason": "x"}),
            ("get", "/api/v1/tables/short", None)]:
        r = getattr(api, method)(path, json=body)
        assert r.status_code == 404 and r.json["error"]["code"] == "not_found", (method, path)


def test_read_answers_304_while_nothing_changed(api):
    edit, view, _ = create(api)
    first = api.get(f"/api/v1/tables/{view}")
    etag = first.headers["ETag"]
    assert api.get(f"/api/v1/tables/{view}", headers={"If-None-Match": etag}).status_code == 304
    record(api, edit, win(1))
    again = api.get(f"/api/v1/tables/{view}", headers={"If-None-Match": etag})
    assert again.status_code == 200 and again.headers["ETag"] != etag
    assert len(again.json["hands"]) == 1


# -- ETags: what every answer depends on (the shared API.md, fourth round) ----------------------

#: the table's answers that carry an ETag: the JSON read, the table page's live poll, its chart
ETAGGED = ("/api/v1/tables/{}", "/t/{}/live", "/t/{}/chart.svg")


def _etag(api, url, lang):
    r = api.get(url, headers={"Accept-Language": lang})
    assert r.status_code == 200 and r.headers["ETag"], (url, r.status_code)
    assert "Accept-Language" in r.headers["Vary"]
    return r


@pytest.mark.parametrize("path", ETAGGED)
def test_an_etag_belongs_to_one_language(api, path):
    """An ETag taken in English does not revalidate a Chinese reader's copy: the bodies
    differ (payment details, messages), so the ETags do too."""
    edit, view, _ = create(api)
    record(api, edit, win(1))
    url = path.format(view)
    en = _etag(api, url, "en")
    zh = _etag(api, url, "zh-CN")
    assert en.get_data() != zh.get_data() and en.headers["ETag"] != zh.headers["ETag"]
    r = api.get(url, headers={"Accept-Language": "zh-CN", "If-None-Match": en.headers["ETag"]})
    assert r.status_code == 200 and r.headers["ETag"] == zh.headers["ETag"]
    if not url.endswith(".svg"):                # pygal gives each drawing ids of its own
        assert r.get_data() == zh.get_data()
    for lang, first in (("en", en), ("zh-CN", zh)):
        r = api.get(url, headers={"Accept-Language": lang, "If-None-Match": first.headers["ETag"]})
        assert r.status_code == 304 and "Accept-Language" in r.headers["Vary"]
        assert r.headers["ETag"] == first.headers["ETag"]
    # ?lang= picks the language as the header does
    r = api.get(url + "?lang=zh", headers={"Accept-Language": "en",
                                             "If-None-Match": en.headers["ETag"]})
    assert r.status_code == 200


@pytest.mark.parametrize("path", ETAGGED)
def test_an_etag_belongs_to_one_kind_of_link(api, path):
    """The edit link's answer (access "edit", the edit forms) is not the view link's: an
    ETag of one never revalidates the other, nor a co-scorer's."""
    edit, view, _ = create(api)
    co = api.post(f"/api/v1/tables/{edit}/editors").json["edit_token"]
    tags = {}
    for token in (edit, view, co):
        tags[token] = _etag(api, path.format(token), "zh-CN").headers["ETag"]
    assert len(set(tags.values())) == 3
    for token in (edit, view, co):
        for other, tag in tags.items():
            r = api.get(path.format(token), headers={"If-None-Match": tag})
            assert r.status_code == (304 if other == token else 200), (token, other)
        if path.endswith("/live"):           # the page's first poll revalidates what it shows
            page = api.get(f"/t/{token}").get_data(as_text=True)
            shown = re.search(r'data-etag="([^"]+)"', page).group(1)
            assert f'"{shown}"' == tags[token]


@pytest.mark.parametrize("path", ETAGGED)
def test_a_revoked_or_rotated_link_never_gets_a_304(make_app, path):
    """Links revoked or replaced by another server process (on PostgreSQL: while this one
    keeps the versions it read, until the write's notice) answer 404 to a poll that sends
    their last ETag; the table's version did not change."""
    writer, poller = make_app().test_client(), make_app().test_client()
    edit, view, _ = create(writer)
    co = writer.post(f"/api/v1/tables/{edit}/editors").json["edit_token"]
    tags = {t: _etag(poller, path.format(t), "zh-CN").headers["ETag"] for t in (edit, view, co)}
    for token, tag in tags.items():                     # kept and revalidated, as a poll does
        assert poller.get(path.format(token), headers={"If-None-Match": tag}).status_code == 304
    assert writer.delete(f"/api/v1/tables/{edit}/editors/1").status_code == 200
    r = poller.get(path.format(co), headers={"If-None-Match": tags[co]})
    assert r.status_code == 404
    new = writer.post(f"/api/v1/tables/{edit}/rotate", json={"view": True}).json
    for token in (edit, view):
        r = poller.get(path.format(token), headers={"If-None-Match": tags[token]})
        assert r.status_code == 404, token
    for token in (new["edit_token"], new["view_token"]):
        assert poller.get(path.format(token)).status_code == 200

# -- record ------------------------------------------------------------------------------------

def test_record_a_win(api):
    edit, _, _ = create(api)
    out = record(api, edit, win(1, pao=[1, 0, 0, 0]))
    h, t = out["hand"], out["table"]
    assert (h["number"], h["kind"], h["status"], h["verified"], h["dealer"], h["dealer_flag"]) \
        == (1, "hand", "recorded", True, 0, False)
    # ZZ-4: seat 0 pays 1 × (1 + 跑0 + 跑1) = 2, seats 2 and 3 pay 1 each
    assert h["settlement"]["net"] == [-2, 4, -1, -1]
    assert h["settlement"]["next_dealer"] == {"seat": 1, "rule": "ZZ-7"}
    assert h["request"] == {**WIN, "settlement": {"winner": 1, "pao": [1, 0, 0, 0], "dealer": 0}}
    assert datetime.fromisoformat(h["recorded_at"].replace("Z", "+00:00")).tzinfo is not None
    assert (t["dealer"], t["next_number"], t["totals"]) == (1, 2, [-2, 4, -1, -1])
    assert t["settle_up"] == [{"from": 0, "to": 1, "amount": 2}, {"from": 2, "to": 1, "amount": 1},
                              {"from": 3, "to": 1, "amount": 1}]


def test_the_dealer_defaults_to_the_tables_and_can_be_given(api):
    edit, _, _ = create(api)
    record(api, edit, win(1))                                   # ZZ-7: seat 1 deals next
    h = record(api, edit, win(2, WIN2))["hand"]
    assert h["dealer"] == 1 and h["request"]["settlement"]["dealer"] == 1
    h = record(api, edit, win(0, dealer=3))["hand"]              # played with seat 3 dealing
    assert h["dealer"] == 3 and h["dealer_flag"] is True          # the rules said seat 2


@pytest.mark.parametrize("body, code, field", [
    ({**win(1), "hand": "123x"}, "bad_tile", "hand"),
    ({**WIN, "hand": "123m456p789s11123z", "winning_tile": "3z",
      "settlement": {"winner": 1}}, "not_complete", "hand"),
    ({**WIN, "settlement": {"pao": [0, 0, 0, 0]}}, "bad_settlement", "settlement.winner"),
    ({**WIN}, "bad_settlement", "settlement"),
    ({**WIN, "settlement": {"winner": 1, "base": 5}}, "bad_settlement", "settlement.base"),
    ({**WIN, "settlement": {"winner": 1, "pao": [4, 0, 0, 0]}}, "bad_settlement", "settlement.pao"),
    ({**win(1), "variant": "panjin"}, "bad_request", "variant"),
    ({**win(1), "options": {}}, "bad_request", "options"),
    ({**win(1), "declared": {"doubles": []}}, "bad_request", "declared"),
    ({"settlement": {"winner": None}, "indicator": "1z"}, "bad_request", "indicator"),
    ({**win(1), "expected_number": "1"}, "bad_request", "expected_number"),
    ({**win(1), "surprise": True}, "bad_request", "surprise"),
])
def test_bad_input_is_400_with_the_analyze_codes_and_nothing_recorded(api, body, code, field):
    edit, view, _ = create(api)
    r = api.post(f"/api/v1/tables/{edit}/hands", json=body)
    assert r.status_code == 400, r.json
    assert (r.json["error"]["code"], r.json["error"]["field"]) == (code, field)
    assert api.get(f"/api/v1/tables/{view}").json["next_number"] == 1


def test_expected_number_conflict_records_nothing(api):
    edit, view, _ = create(api)
    record(api, edit, {**win(1), "expected_number": 1})
    r = api.post(f"/api/v1/tables/{edit}/hands", json={**win(2, WIN2), "expected_number": 1})
    assert r.status_code == 409 and r.json["error"]["code"] == "conflict"
    assert r.json["table"]["next_number"] == 2                      # what the client shows next
    assert [h["number"] for h in api.get(f"/api/v1/tables/{view}").json["hands"]] == [1]
    assert record(api, edit, {**win(2, WIN2), "expected_number": 2})["hand"]["number"] == 2


def test_idempotency_key_repeats_answer_200_with_the_first_result(api):
    edit, view, _ = create(api)
    body = {**win(1), "idempotency_key": "tap-1", "expected_number": 1}
    first = record(api, edit, body, 201)
    again = record(api, edit, body, 200)                  # a double tap: stale expected_number
    assert again["hand"] == first["hand"]
    t = api.get(f"/api/v1/tables/{view}").json
    assert len(t["hands"]) == 1 and t["totals"] == [-1, 3, -1, -1]


def _key_conflict(r, number: int) -> None:
    assert r.status_code == 409, r.json
    err = r.json["error"]
    assert (err["code"], err["field"], err["detail"]) == \
        ("idempotency_conflict", "idempotency_key", number)
    assert "table" not in r.json


def test_the_same_key_with_another_body_is_409_and_records_nothing(api):
    """A fee sent with the key a 荒庄 used is not the 荒庄 again: 409 naming the entry the key
    recorded, nothing recorded (it was silently answered with the 荒庄)."""
    edit, view, _ = create(api)
    record(api, edit, win(1))
    drawn = {"settlement": {"winner": None}, "idempotency_key": "k-7"}
    assert record(api, edit, drawn)["hand"]["number"] == 2
    before = api.get(f"/api/v1/tables/{view}").json
    fee = {"adjustment": {"fee": 20, "paid_by": 0}, "idempotency_key": "k-7"}
    for body in (fee, {**fee, "expected_number": 3}, {**win(2, WIN2), "idempotency_key": "k-7"},
                 {"settlement": {"winner": None, "dealer": 3}, "idempotency_key": "k-7"},
                 {"settlement": {"winner": None, "pao": [1, 0, 0, 0]},
                  "idempotency_key": "k-7"},
                 {"settlement": {"winner": None}, "hand": "123m", "idempotency_key": "k-7"}):
        _key_conflict(api.post(f"/api/v1/tables/{edit}/hands", json=body), 2)
    r = api.post(f"/api/v1/tables/{edit}/hands", json=fee, headers={"Accept-Language": "en"})
    _key_conflict(r, 2)
    assert "idempotency_key" in r.json["error"]["message"] and "2" in r.json["error"]["message"]
    r = api.post(f"/api/v1/tables/{edit}/hands", json=fee)
    assert "第 2 手" in r.json["error"]["message"]
    assert api.get(f"/api/v1/tables/{view}").json == before        # not even the version moved
    # the same body again is the first result, 200, as before
    again = record(api, edit, drawn, 200)
    assert again["hand"]["number"] == 2 and len(again["table"]["hands"]) == 2
    assert record(api, edit, {**fee, "idempotency_key": "k-8"})["hand"]["number"] == 3


def test_a_repeat_is_the_same_body_as_recorded_first(api):
    """What counts as the same body: the entry it would record (key, expected_number and
    expected_revision aside), compared with the entry's first revision, with no dealer
    given read as the dealer it was recorded with: so a resend still matches after the
    entry was corrected, voided or undone, and after the dealer moved on."""
    edit, view, _ = create(api)
    first = {**win(1), "idempotency_key": "a1", "expected_number": 1}
    fee = {"adjustment": {"fee": 8, "paid_by": 2, "note": " 台费 "}, "idempotency_key": "a2"}
    record(api, edit, first)
    record(api, edit, fee)
    record(api, edit, win(2))                                    # 西家 deals on (ZZ-7)
    assert api.get(f"/api/v1/tables/{view}").json["dealer"] != 0
    r = api.put(f"/api/v1/tables/{edit}/hands/1", json=win(3))
    assert r.status_code == 200
    api.post(f"/api/v1/tables/{edit}/hands/2/void", json={"reason": "记错"})
    for body, number in ((first, 1), ({**first, "expected_number": 9}, 1), (fee, 2),
                         ({**first, "settlement": {"winner": 1, "dealer": 0}}, 1)):
        r = api.post(f"/api/v1/tables/{edit}/hands", json=body)
        assert r.status_code == 200 and r.json["hand"]["number"] == number, r.json
    _key_conflict(api.post(f"/api/v1/tables/{edit}/hands", json={
        **first, "settlement": {"winner": 1, "dealer": 2}}), 1)
    _key_conflict(api.post(f"/api/v1/tables/{edit}/hands", json={**win(3), "idempotency_key":
                                                                  "a1"}), 1)   # its correction
    _key_conflict(api.post(f"/api/v1/tables/{edit}/hands", json={
        **fee, "adjustment": {"fee": 8, "paid_by": 1}}), 2)
    assert len(api.get(f"/api/v1/tables/{view}").json["hands"]) == 3


@pytest.mark.parametrize("key", ["", "x" * 65, "a b", "键", "a\n", "a/b", "a.b", 5, True, [],
                                 {"k": 1}, 1.5])
def test_an_idempotency_key_is_1_to_64_of_letters_digits_dash_underscore(api, key):
    edit, view, _ = create(api)
    r = api.post(f"/api/v1/tables/{edit}/hands", json={**win(1), "idempotency_key": key})
    assert r.status_code == 422, r.json
    assert (r.json["error"]["code"], r.json["error"]["field"]) == \
        ("bad_request", "idempotency_key")
    assert "64" in r.json["error"]["message"]
    assert api.get(f"/api/v1/tables/{view}").json["hands"] == []
    for fine in ("x" * 64, "A-z_09", "-"):
        record(api, edit, {"settlement": {"winner": None}, "idempotency_key": fine})


def test_concurrent_records_with_the_same_expected_number_one_wins(make_app):
    app = make_app()
    client = app.test_client()
    edit, view, _ = create(client)
    results = []

    def go(seat):
        r = app.test_client().post(f"/api/v1/tables/{edit}/hands",
                                   json={**win(seat), "expected_number": 1})
        results.append(r.status_code)
    threads = [threading.Thread(target=go, args=(s,)) for s in (1, 2, 3, 1)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sorted(results) == [201, 409, 409, 409]
    assert len(client.get(f"/api/v1/tables/{view}").json["hands"]) == 1


# -- without tiles -----------------------------------------------------------------------------

def test_drawn_game_without_a_hand(api):
    edit, _, _ = create(api, variant="jincheng", dealer=1)
    out = record(api, edit, {"settlement": {"winner": None}})
    h = out["hand"]
    assert h["verified"] is True and "hand" not in h["request"]
    assert h["settlement"]["net"] == [2, -6, 2, 2]            # JC-8: the dealer pays 2 底 each
    assert out["table"]["dealer"] == 2                          # JC-9: 荒庄 passes the deal


def test_declared_doubles_for_a_win_without_tiles(api):
    edit, _, _ = create(api, options={"seven_pairs_double": True})
    h = record(api, edit, {"win_by": "self_draw", "settlement": {"winner": 2},
                           "declared": {"doubles": ["seven_pairs"]}})["hand"]
    assert h["verified"] is False
    assert h["request"]["declared"] == {"doubles": ["seven_pairs"]}
    assert h["settlement"]["net"] == [-2, -2, 6, -2]            # ZZ-4: ×2 for 七对
    r = api.post(f"/api/v1/tables/{edit}/hands", json={
        "win_by": "self_draw", "settlement": {"winner": 2}, "declared": {"doubles": ["four_wildcards"]}})
    assert r.status_code == 400 and r.json["error"]["field"] == "declared.doubles"


def test_declared_fan_and_biao(api):
    edit, _, _ = create(api, variant="panjin", options={"one_suit": True})
    h = record(api, edit, {"win_by": "self_draw", "settlement": {"winner": 2},
                           "declared": {"fan": ["one_suit"]}})["hand"]
    # PJ-10/11: 底1 ×2 清一色 ×2 自摸, ×2 more for the dealer's share
    assert h["settlement"]["net"] == [-8, -4, 16, -4]
    assert [f["key"] for f in h["fan"]] == ["one_suit", "self_draw"] and h["verified"] is False
    edit, _, _ = create(api, variant="sanmenxia")
    h = record(api, edit, {"win_by": "self_draw", "settlement": {"winner": 3},
                           "declared": {"biao": 1}})["hand"]
    assert h["settlement"]["net"] == [-2, -2, -2, 6] and h["biao"] == 1     # SMX-6: ×2^1


# -- the dealer by each rule set ---------------------------------------------------------------

def test_dealer_rotation_follows_each_variants_rule(api):
    def dealer_after(variant, winners, **spec):
        edit, _, _ = create(api, variant=variant, **spec)
        for w in winners:
            body = {"settlement": {"winner": w}} if w is None else {
                "win_by": "self_draw", "settlement": {"winner": w}}
            t = record(api, edit, body)["table"]
        return t["dealer"]
    assert dealer_after("sanmenxia", [2, None]) == 2               # SMX-8: winner; 荒庄 stays
    assert dealer_after("zhengzhou", [3, None]) == 3               # ZZ-7
    assert dealer_after("panjin", [0, None, 2]) == 1               # PJ-14: stays, stays, next
    assert dealer_after("panjin", [0], options={"no_dealer_repeat": True}) == 1
    assert dealer_after("jincheng", [0, 3]) == 1                   # JC-9: stays, then next
    assert dealer_after("jincheng", [None]) == 1                   # JC-9: 荒庄 passes


# -- corrections, voids, dealer_flag -----------------------------------------------------------

def test_a_correction_is_a_new_revision_and_flags_a_later_dealer(api):
    edit, view, _ = create(api)
    record(api, edit, win(1))                               # dealer 0 → seat 1 deals next
    record(api, edit, win(2, WIN2))                         # played with dealer 1 → seat 2
    r = api.put(f"/api/v1/tables/{edit}/hands/1", json=win(3))
    assert r.status_code == 200
    h, t = r.json["hand"], r.json["table"]
    assert h["revision"] == 2 and h["dealer"] == 0 and h["settlement"]["net"] == [-1, -1, -1, 3]
    assert [rev["revision"] for rev in h["revisions"]] == [1]
    assert h["revisions"][0]["settlement"]["net"] == [-1, 3, -1, -1]
    assert h["revisions"][0]["request"]["settlement"]["winner"] == 1
    second = t["hands"][1]
    assert second["dealer"] == 1 and second["dealer_flag"] is True  # kept, flagged: seat 3 should deal
    assert t["hands"][0]["dealer_flag"] is False
    assert t["totals"] == [-2, -2, 2, 2] and t["dealer"] == 2
    assert api.get(f"/api/v1/tables/{view}").json == {**t, "access": "view"}


def test_correcting_back_clears_the_flag_and_an_unchanged_correction_adds_nothing(api):
    edit, _, _ = create(api)
    record(api, edit, win(1))
    record(api, edit, win(2, WIN2))
    api.put(f"/api/v1/tables/{edit}/hands/1", json=win(3))
    t = api.put(f"/api/v1/tables/{edit}/hands/1", json=win(1)).json["table"]
    assert t["hands"][1]["dealer_flag"] is False and t["hands"][0]["revision"] == 3
    again = api.put(f"/api/v1/tables/{edit}/hands/1", json=win(1))
    assert again.status_code == 200 and again.json["hand"]["revision"] == 3


def test_correction_refusals(api):
    edit, _, _ = create(api)
    record(api, edit, win(1))
    assert api.put(f"/api/v1/tables/{edit}/hands/9", json=win(1)).status_code == 404
    r = api.put(f"/api/v1/tables/{edit}/hands/1", json={**win(1), "expected_revision": 2})
    assert r.status_code == 409 and r.json["error"]["code"] == "conflict"
    r = api.put(f"/api/v1/tables/{edit}/hands/1", json={"adjustment": {"fee": 4, "paid_by": 0}})
    assert r.status_code == 400
    r = api.put(f"/api/v1/tables/{edit}/hands/1", json={**WIN, "hand": "1"})
    assert r.status_code == 400 and r.json["error"]["code"] == "bad_settlement"
    api.post(f"/api/v1/tables/{edit}/hands/1/void", json={"reason": "记错桌"})
    r = api.put(f"/api/v1/tables/{edit}/hands/1", json=win(2))
    assert r.status_code == 409 and r.json["error"]["code"] == "voided"


def test_void_keeps_the_hand_and_stops_counting_it(api):
    edit, _, _ = create(api)
    record(api, edit, win(1))
    record(api, edit, win(2, WIN2))
    r = api.post(f"/api/v1/tables/{edit}/hands/2/void", json={"reason": "诈和，重记"})
    assert r.status_code == 200
    t = r.json
    h = t["hands"][1]
    assert (h["status"], h["void_reason"]) == ("voided", "诈和，重记") and h["voided_at"]
    assert h["settlement"]["net"] == [-1, -1, 3, -1]              # still readable
    assert t["totals"] == [-1, 3, -1, -1] and t["dealer"] == 1    # counts no more
    again = api.post(f"/api/v1/tables/{edit}/hands/2/void", json={"reason": "别的"})
    assert again.status_code == 200 and again.json["hands"][1]["void_reason"] == "诈和，重记"
    assert again.json["version"] == t["version"]
    for body in ({}, {"reason": "  "}, {"reason": 3}):
        r = api.post(f"/api/v1/tables/{edit}/hands/1/void", json=body)
        assert r.status_code == 400 and r.json["error"]["field"] == "reason"
    assert api.post(f"/api/v1/tables/{edit}/hands/7/void", json={"reason": "x"}).status_code == 404


def test_voiding_an_early_hand_flags_the_dealer_after_it(api):
    edit, _, _ = create(api)
    record(api, edit, win(1))
    record(api, edit, win(1, WIN2))                     # dealer 1 (winner of hand 1) wins again
    t = api.post(f"/api/v1/tables/{edit}/hands/1/void", json={"reason": "x"}).json
    assert t["hands"][1]["dealer_flag"] is True          # without hand 1, seat 0 deals hand 2


# -- adjustments -------------------------------------------------------------------------------

def test_penalty_adjustment(api):
    edit, _, _ = create(api)
    record(api, edit, win(1))
    out = record(api, edit, {"adjustment": {"payments": [{"from": 2, "to": 0, "amount": 8},
                                                         {"from": 2, "to": 3, "amount": 8}],
                                            "note": "诈和"}})
    h, t = out["hand"], out["table"]
    assert (h["kind"], h["number"], h["verified"], h["dealer_flag"]) == ("adjustment", 2, True, False)
    assert h["settlement"]["net"] == [8, 0, -16, 8] and h["settlement"]["next_dealer"] is None
    assert "诈和" in h["settlement"]["payments"][0]["detail"]
    assert t["totals"] == [7, 3, -17, 7] and t["dealer"] == 1      # the dealer did not move
    h3 = record(api, edit, win(2, WIN2))["hand"]
    assert h3["dealer"] == 1 and h3["dealer_flag"] is False


def test_fee_split_evenly_and_voided_like_a_hand(api):
    edit, _, _ = create(api)
    out = record(api, edit, {"adjustment": {"fee": 40, "paid_by": 3, "note": "台费"}})
    assert out["hand"]["settlement"]["net"] == [-10, -10, -10, 30]
    assert out["table"]["totals"] == [-10, -10, -10, 30]
    out = record(api, edit, {"adjustment": {"fee": 10, "paid_by": 0}})  # 2.5 each
    assert out["hand"]["settlement"]["net"] == [7.5, -2.5, -2.5, -2.5]
    assert out["table"]["totals"] == [-2.5, -12.5, -12.5, 27.5]
    t = api.post(f"/api/v1/tables/{edit}/hands/1/void", json={"reason": "店家免单"}).json
    assert t["totals"] == [7.5, -2.5, -2.5, -2.5]


@pytest.mark.parametrize("adjustment, field", [
    ({"payments": [{"from": 1, "to": 1, "amount": 3}]}, "adjustment.payments[0]"),
    ({"payments": [{"from": 1, "to": 2, "amount": -3}]}, "adjustment.payments[0].amount"),
    ({"payments": []}, "adjustment.payments"),
    ({"fee": 10}, "adjustment.paid_by"),
    ({"fee": 10, "paid_by": 1, "payments": []}, "adjustment"),
    ({"fee": True, "paid_by": 1}, "adjustment.fee"),
    ({"fee": 10, "paid_by": 1, "tip": 2}, "adjustment.tip"),
])
def test_bad_adjustments(api, adjustment, field):
    edit, _, _ = create(api)
    r = api.post(f"/api/v1/tables/{edit}/hands", json={"adjustment": adjustment})
    assert r.status_code == 400 and r.json["error"]["field"] == field


def test_settle_up_uses_the_fewest_transfers(api):
    edit, _, _ = create(api)
    record(api, edit, {"adjustment": {"payments": [{"from": 1, "to": 0, "amount": 5},
                                                   {"from": 3, "to": 2, "amount": 3}]}})
    record(api, edit, {"adjustment": {"payments": [{"from": 3, "to": 0, "amount": 2},
                                                   {"from": 1, "to": 2, "amount": 2}]}})
    t = api.get(f"/api/v1/tables/{edit}").json
    assert t["totals"] == [7, -7, 5, -5]
    # two transfers square it (a naive largest-first pass would need three)
    assert t["settle_up"] == [{"from": 1, "to": 0, "amount": 7}, {"from": 3, "to": 2, "amount": 5}]


# -- the view token and the caps ---------------------------------------------------------------

def test_every_write_with_the_view_token_is_403_read_only(api):
    edit, view, _ = create(api)
    record(api, edit, win(1))
    before = api.get(f"/api/v1/tables/{view}").json
    for method, path, body in [
            ("post", f"/api/v1/tables/{view}/hands", win(2)),
            ("post", f"/api/v1/tables/{view}/hands", {"adjustment": {"fee": 4, "paid_by": 0}}),
            ("post", f"/api/v1/tables/{view}/hands", "broken"),
            ("put", f"/api/v1/tables/{view}/hands/1", win(2)),
            ("post", f"/api/v1/tables/{view}/hands/1/void", {"reason": "x"})]:
        r = getattr(api, method)(path, json=body)
        assert r.status_code == 403 and r.json["error"]["code"] == "read_only", (method, path)
    assert api.get(f"/api/v1/tables/{view}").json == before


def test_hands_per_table_cap(make_app):
    api = make_app(LEDGER_HANDS_MAX=2).test_client()
    edit, _, _ = create(api)
    record(api, edit, win(1))
    record(api, edit, {"adjustment": {"fee": 4, "paid_by": 0}})
    r = api.post(f"/api/v1/tables/{edit}/hands", json=win(2))
    assert r.status_code == 422 and r.json["error"]["code"] == "too_many"
    assert r.json["error"]["detail"] == {"limit": "entries_per_table", "max": 2}


def test_tables_per_address_per_hour(make_app):
    api = make_app(LEDGER_TABLES_PER_HOUR=2).test_client()
    create(api)
    create(api)
    r = api.post("/api/v1/tables", json={"variant": "zhengzhou"})
    assert r.status_code == 429 and r.json["error"]["code"] == "rate_limited"
    assert 0 < int(r.headers["Retry-After"]) <= 3600
    other = api.post("/api/v1/tables", json={"variant": "zhengzhou"},
                     environ_base={"REMOTE_ADDR": "192.0.2.7"})
    assert other.status_code == 201


def test_tokens_are_stored_only_as_hashes(make_app):
    app = make_app()
    api = app.test_client()
    edit, view, _ = create(api)
    record(api, edit, {**win(1), "idempotency_key": "k"})
    engine = app.extensions["ledger"].engine
    with engine.connect() as conn:
        row = conn.execute(text("SELECT edit_hash, view_hash FROM ledger_table")).one()
        dump = " ".join(str(r) for table in ("ledger_table", "ledger_hand")
                        for r in conn.execute(text(f"SELECT * FROM {table}")))
    assert row == (hashlib.sha256(edit.encode()).hexdigest(),
                   hashlib.sha256(view.encode()).hexdigest())
    assert edit not in dump and view not in dump


def test_purge_command_deletes_idle_tables_only(make_app):
    app = make_app()
    api = app.test_client()
    old_edit, _, _ = create(api)
    record(api, old_edit, win(1))
    api.put(f"/api/v1/tables/{old_edit}/hands/1", json=win(2))
    new_edit, _, _ = create(api)
    with app.extensions["ledger"].engine.begin() as conn:
        conn.execute(text("UPDATE ledger_table SET updated_at = :t WHERE next_number = 2"),
                     {"t": datetime(2020, 1, 1)})
    runner = app.test_cli_runner()
    dry = runner.invoke(args=["ledger-purge", "--idle-days", "30", "--dry-run"])
    assert dry.exit_code == 0 and "would delete 1 table" in dry.output
    assert api.get(f"/api/v1/tables/{old_edit}").status_code == 200
    done = runner.invoke(args=["ledger-purge", "--idle-days", "30"])
    assert done.exit_code == 0 and "deleted 1 table" in done.output
    assert api.get(f"/api/v1/tables/{old_edit}").status_code == 404
    assert api.get(f"/api/v1/tables/{new_edit}").status_code == 200
    with app.extensions["ledger"].engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM ledger_hand")).scalar() == 0
        assert conn.execute(text("SELECT count(*) FROM ledger_revision")).scalar() == 0


# -- export and import (added) -----------------------------------------------------------------

def test_export_then_import_gives_the_same_evening_with_new_tokens(api):
    edit, view, _ = create(api, names=["甲", "乙", "丙", "丁"], dealer=1, base=2)
    record(api, edit, win(1))
    record(api, edit, win(2, WIN2))
    record(api, edit, {"settlement": {"winner": None}})
    record(api, edit, {"adjustment": {"fee": 40, "paid_by": 0, "note": "茶水"}})
    api.put(f"/api/v1/tables/{edit}/hands/1", json=win(3))
    api.post(f"/api/v1/tables/{edit}/hands/3/void", json={"reason": "记重了"})
    before = api.get(f"/api/v1/tables/{view}").json
    doc = api.get(f"/api/v1/tables/{view}/export")
    assert doc.status_code == 200 and edit not in doc.get_data(as_text=True)
    r = api.post("/api/v1/tables/import", json=doc.json)
    assert r.status_code == 201
    assert {r.json["edit_token"], r.json["view_token"]}.isdisjoint({edit, view})
    after = api.get(f"/api/v1/tables/{r.json['view_token']}").json
    drop = ("version", "created_at", "updated_at", "access")
    assert {k: v for k, v in after.items() if k not in drop} == \
        {k: v for k, v in before.items() if k not in drop}
    assert after["hands"][1]["dealer_flag"] is True and after["totals"] == before["totals"]


def test_import_recomputes_and_refuses_what_is_not_an_export(api):
    edit, view, _ = create(api)
    record(api, edit, win(1))
    doc = api.get(f"/api/v1/tables/{view}/export").json
    assert api.post("/api/v1/tables/import", json={**doc, "format": "x"}).status_code == 400
    bad = {**doc, "entries": [{**doc["entries"][0], "request": {**WIN, "hand": "123m",
                                                                "settlement": {"winner": 1}}}]}
    r = api.post("/api/v1/tables/import", json=bad)
    assert r.status_code == 400 and r.json["error"]["field"] == "entries[0].hand"


def test_a_cap_of_zero_means_no_cap(make_app):
    api = make_app(LEDGER_TABLES_PER_HOUR=0).test_client()
    for _ in range(35):
        create(api)


@pytest.mark.parametrize("where", ["idempotency_key", "reason", "note", "names"])
def test_unstorable_text_is_400_not_500(api, where):
    """A lone surrogate (valid JSON, not encodable) in a free-text field is refused."""
    edit, _, _ = create(api)
    record(api, edit, win(1))
    bad = "记\ud800"

    def post(path, body):       # json.dumps escapes the surrogate as \ud800: valid JSON
        return api.post(path, data=json.dumps(body), content_type="application/json")
    if where == "idempotency_key":
        r = post(f"/api/v1/tables/{edit}/hands", {**win(2), "idempotency_key": bad})
    elif where == "reason":
        r = post(f"/api/v1/tables/{edit}/hands/1/void", {"reason": bad})
    elif where == "note":
        r = post(f"/api/v1/tables/{edit}/hands",
                 {"adjustment": {"fee": 4, "paid_by": 0, "note": bad}})
    else:
        r = post("/api/v1/tables", {"variant": "zhengzhou", "names": ["a", "b", "c", bad]})
    assert r.status_code == 400, r.get_data(as_text=True)
