"""Issue 15 for the table ledger: the ledger says what happened as message codes and the JSON
API and the pages say it in the reader's language.

- ``messages_zh.json`` (beside this file) is what the ledger API answered in Chinese before
  its texts became codes (errors, payment details, fan names, void reasons), for the cases in
  :data:`CASES`; the Chinese must stay the same;
- the same requests with ``Accept-Language: en`` read in English: no Chinese outside what
  the user typed (quoted back) and the seat names they chose;
- the English pages (table, view, export) show no Chinese outside tile faces and names.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests import snapshots

GOLDEN = Path(__file__).resolve().parent / "messages_zh.json"
CJK = re.compile(r"[\u3400-\u9fff]")

WIN = {"hand": "123m456p789s11122z", "winning_tile": "2z", "win_by": "self_draw"}
PJ_WIN = {"hand": "123m456p789s11222z", "winning_tile": "2z", "win_by": "discard"}

#: (name, method, path, body); {edit}/{view}: the tokens of a 郑州 table with one hand
#: recorded (hand 1, idempotency key k-1) and one voided adjustment (hand 2); {pj}: a 盘锦
#: table (加钢, 杠)
CASES = [
    ("unknown token", "GET", "/api/v1/tables/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", None),
    ("short token", "GET", "/api/v1/tables/abc", None),
    ("read only", "POST", "/api/v1/tables/{view}/hands", {"settlement": {"winner": None}}),
    ("no such hand", "POST", "/api/v1/tables/{edit}/hands/99/void", {"reason": "x"}),
    ("bad json", "POST", "/api/v1/tables/{edit}/hands", "{nope"),
    ("body not object", "POST", "/api/v1/tables/{edit}/hands", [1]),
    ("create not object", "POST", "/api/v1/tables", [1]),
    ("create unknown key", "POST", "/api/v1/tables", {"variant": "zhengzhou", "x": 1}),
    ("create unknown variant", "POST", "/api/v1/tables", {"variant": "beijing"}),
    ("create bad base", "POST", "/api/v1/tables", {"variant": "zhengzhou", "base": -1}),
    ("create names list", "POST", "/api/v1/tables", {"variant": "zhengzhou", "names": ["a"]}),
    ("create name empty", "POST", "/api/v1/tables",
     {"variant": "zhengzhou", "names": ["a", "b", "c", " "]}),
    ("create dealer", "POST", "/api/v1/tables", {"variant": "zhengzhou", "dealer": 4}),
    ("create option", "POST", "/api/v1/tables", {"variant": "zhengzhou", "options": {"x": 1}}),
    ("idempotency key", "POST", "/api/v1/tables/{edit}/hands",
     {"idempotency_key": 5, "settlement": {"winner": None}}),
    ("idempotency conflict", "POST", "/api/v1/tables/{edit}/hands",
     {"idempotency_key": "k-1", "settlement": {"winner": None}}),
    ("expected number type", "POST", "/api/v1/tables/{edit}/hands",
     {"expected_number": "1", "settlement": {"winner": None}}),
    ("conflict", "POST", "/api/v1/tables/{edit}/hands",
     {"expected_number": 1, "settlement": {"winner": None}}),
    ("variant in body", "POST", "/api/v1/tables/{edit}/hands",
     {"variant": "panjin", "settlement": {"winner": None}}),
    ("unknown field", "POST", "/api/v1/tables/{edit}/hands", {"foo": 1}),
    ("adjustment with hand", "POST", "/api/v1/tables/{edit}/hands",
     {"hand": "123m", "adjustment": {"fee": 4, "paid_by": 0}}),
    ("no settlement", "POST", "/api/v1/tables/{edit}/hands", {"hand": "123m"}),
    ("base in settlement", "POST", "/api/v1/tables/{edit}/hands",
     {"settlement": {"winner": None, "base": 2}}),
    ("no winner", "POST", "/api/v1/tables/{edit}/hands", {"settlement": {}}),
    ("declared with hand", "POST", "/api/v1/tables/{edit}/hands",
     {**WIN, "declared": {"doubles": []}, "settlement": {"winner": 1}}),
    ("tiles without hand", "POST", "/api/v1/tables/{edit}/hands",
     {"winning_tile": "2z", "settlement": {"winner": 1}}),
    ("engine error", "POST", "/api/v1/tables/{edit}/hands",
     {"hand": "12x", "settlement": {"winner": 1}}),
    ("adjustment not object", "POST", "/api/v1/tables/{edit}/hands", {"adjustment": 1}),
    ("adjustment unknown", "POST", "/api/v1/tables/{edit}/hands", {"adjustment": {"x": 1}}),
    ("adjustment note", "POST", "/api/v1/tables/{edit}/hands",
     {"adjustment": {"fee": 4, "paid_by": 0, "note": "x" * 201}}),
    ("adjustment both", "POST", "/api/v1/tables/{edit}/hands", {"adjustment": {"note": "x"}}),
    ("payments list", "POST", "/api/v1/tables/{edit}/hands",
     {"adjustment": {"payments": []}}),
    ("payment shape", "POST", "/api/v1/tables/{edit}/hands",
     {"adjustment": {"payments": [{"from": 0}]}}),
    ("payment seat", "POST", "/api/v1/tables/{edit}/hands",
     {"adjustment": {"payments": [{"from": 9, "to": 1, "amount": 1}]}}),
    ("payment same seat", "POST", "/api/v1/tables/{edit}/hands",
     {"adjustment": {"payments": [{"from": 1, "to": 1, "amount": 1}]}}),
    ("payment amount", "POST", "/api/v1/tables/{edit}/hands",
     {"adjustment": {"payments": [{"from": 0, "to": 1, "amount": 0}]}}),
    ("fee paid_by", "POST", "/api/v1/tables/{edit}/hands", {"adjustment": {"fee": 4}}),
    ("expected revision type", "PUT", "/api/v1/tables/{edit}/hands/1",
     {"expected_revision": "x", "settlement": {"winner": None}}),
    ("revision conflict", "PUT", "/api/v1/tables/{edit}/hands/1",
     {"expected_revision": 7, "settlement": {"winner": None}}),
    ("correct voided", "PUT", "/api/v1/tables/{edit}/hands/2",
     {"adjustment": {"fee": 4, "paid_by": 0}}),
    ("correct kind", "PUT", "/api/v1/tables/{edit}/hands/1",
     {"adjustment": {"fee": 4, "paid_by": 0}}),
    ("void no reason", "POST", "/api/v1/tables/{edit}/hands/1/void", {"reason": " "}),
    ("void bad reason", "POST", "/api/v1/tables/{edit}/hands/1/void", {"reason": "a\u0001"}),
    ("void long reason", "POST", "/api/v1/tables/{edit}/hands/1/void", {"reason": "x" * 201}),
    ("void body", "POST", "/api/v1/tables/{edit}/hands/1/void", [1]),
    ("co-scorer body field", "POST", "/api/v1/tables/{edit}/editors", {"revoke": 1}),
    ("import format", "POST", "/api/v1/tables/import", {"format": "x"}),
    ("import entries", "POST", "/api/v1/tables/import",
     {"format": "webcalc-ledger/1", "variant": "zhengzhou", "entries": 1}),
    ("import entry number", "POST", "/api/v1/tables/import",
     {"format": "webcalc-ledger/1", "variant": "zhengzhou", "entries": [{"number": 2}]}),
    ("import entry kind", "POST", "/api/v1/tables/import",
     {"format": "webcalc-ledger/1", "variant": "zhengzhou",
      "entries": [{"number": 1, "kind": "x"}]}),
    ("import revisions", "POST", "/api/v1/tables/import",
     {"format": "webcalc-ledger/1", "variant": "zhengzhou",
      "entries": [{"number": 1, "kind": "hand", "revisions": 3}]}),
    ("import request", "POST", "/api/v1/tables/import",
     {"format": "webcalc-ledger/1", "variant": "zhengzhou",
      "entries": [{"number": 1, "kind": "hand"}]}),
    ("import entry error", "POST", "/api/v1/tables/import",
     {"format": "webcalc-ledger/1", "variant": "zhengzhou",
      "entries": [{"number": 1, "kind": "hand", "request": {"foo": 1}}]}),
    ("import kind mismatch", "POST", "/api/v1/tables/import",
     {"format": "webcalc-ledger/1", "variant": "zhengzhou",
      "entries": [{"number": 1, "kind": "adjustment",
                   "request": {"settlement": {"winner": None}}}]}),
    # what is recorded: payment details (跑, 番, 加钢, kongs), fan names, adjustments
    ("zz pao and kong", "POST", "/api/v1/tables/{edit}/hands",
     {**WIN, "settlement": {"winner": 1, "pao": [1, 0, 2, 0],
                            "kongs": [{"seat": 3, "type": "exposed", "from": 0}]}}),
    ("zz quick doubles", "POST", "/api/v1/tables/{edit}/hands",
     {"win_by": "self_draw", "declared": {"doubles": ["seven_pairs"]},
      "settlement": {"winner": 2}}),
    ("pj fan jiagang", "POST", "/api/v1/tables/{pj}/hands",
     {**PJ_WIN, "settlement": {"winner": 1, "discarder": 2,
                               "jiagang": [False, True, False, False],
                               "kongs": [{"seat": 3, "type": "concealed"}]}}),
    ("zz quick", "POST", "/api/v1/tables/{edit}/hands",
     {"win_by": "self_draw", "settlement": {"winner": 2, "pao": [0, 0, 1, 0]}}),
    ("zz drawn", "POST", "/api/v1/tables/{edit}/hands",
     {"settlement": {"winner": None, "kongs": [{"seat": 1, "type": "concealed"}]}}),
    ("pj quick fan off", "POST", "/api/v1/tables/{pj}/hands",
     {"win_by": "self_draw", "declared": {"fan": ["one_suit"]}, "settlement": {"winner": 0}}),
    ("pj quick fan", "POST", "/api/v1/tables/{pj}/hands",
     {"win_by": "self_draw", "declared": {"fan": ["piaohu"]}, "settlement": {"winner": 0}}),
    ("transfer", "POST", "/api/v1/tables/{edit}/hands",
     {"adjustment": {"payments": [{"from": 3, "to": 0, "amount": 5}]}}),
    ("transfer with note", "POST", "/api/v1/tables/{edit}/hands",
     {"adjustment": {"payments": [{"from": 3, "to": 0, "amount": 5}], "note": "zhahu"}}),
    ("fee", "POST", "/api/v1/tables/{edit}/hands", {"adjustment": {"fee": 10, "paid_by": 2}}),
    ("fee with note", "POST", "/api/v1/tables/{edit}/hands",
     {"adjustment": {"fee": 10.5, "paid_by": 2, "note": "tea"}}),
    ("import voided without reason", "POST", "/api/v1/tables/import",
     {"format": "webcalc-ledger/1", "variant": "zhengzhou",
      "entries": [{"number": 1, "kind": "hand", "status": "voided",
                   "request": {"settlement": {"winner": None}}}]}),
]


def _texts(out) -> list:
    """What a reader reads in an answer: the error, or the entry's details and fan."""
    if not isinstance(out, dict):
        return [out]
    if "error" in out:
        e = out["error"]
        return [e.get("code"), e.get("field"), e.get("message")]
    if "hand" in out:
        h = out["hand"]
        found = [p["detail"] for p in h["settlement"]["payments"]]
        for f in h.get("fan") or []:
            found += [f["name"], f.get("note")]
        return found
    if "table" in out:
        return [h.get("void_reason") for h in out["table"]["hands"]]
    return [sorted(out)]


@pytest.fixture()
def tables(api):
    edit = api.post("/api/v1/tables", json={"variant": "zhengzhou"}).json["edit_token"]
    api.post(f"/api/v1/tables/{edit}/hands", json={**WIN, "settlement": {"winner": 1},
                                                   "idempotency_key": "k-1"})
    api.post(f"/api/v1/tables/{edit}/hands", json={"adjustment": {"fee": 4, "paid_by": 0}})
    api.post(f"/api/v1/tables/{edit}/hands/2/void", json={"reason": "x"})
    view = api.get(f"/api/v1/tables/{edit}").json and _view(edit)
    pj = api.post("/api/v1/tables", json={"variant": "panjin", "options": {
        "jiagang": True, "kong": True, "piaohu": True}}).json["edit_token"]
    return {"edit": edit, "view": view, "pj": pj}


def _view(edit: str) -> str:
    from webcalc.ledger import view_token_of

    return view_token_of(edit)


def run(api, tables, case, lang=None):
    _name, method, path, body = case
    headers = {"Accept-Language": lang} if lang else {}
    kw = {"data": body, "content_type": "application/json"} if isinstance(body, str) else \
        {"json": body} if body is not None else {}
    r = api.open(path.format(**tables), method=method, headers=headers, **kw)
    return r.status_code, _texts(r.get_json())


def test_chinese_is_what_it_was(api, tables, request):
    """The ledger's Chinese, case by case, as it was before its texts became codes."""
    got = {c[0]: run(api, tables, c) for c in CASES}
    if snapshots.writing():
        was = json.loads(GOLDEN.read_text(encoding="utf-8"))
        GOLDEN.write_text(json.dumps(got, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print(snapshots.summary("tests/ledger/messages_zh.json", was,
                                json.loads(json.dumps(got))))
        return
    want = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert set(want) == set(got)
    requests = {c[0]: c[1:] for c in CASES}
    changed = [((k, *requests[k]), want[k], list(v)) for k, v in got.items()
               if [want[k][0], want[k][1]] != [v[0], v[1]]]
    assert not changed, snapshots.explain(changed)


#: what the user typed and the API quotes back ("x", "foo") is theirs, not the message's
QUOTED = re.compile(r"“[^”]*”|\"[^\"]*\"")


def test_the_same_requests_read_in_english(api, tables):
    want = json.loads(GOLDEN.read_text(encoding="utf-8"))
    for case in CASES:
        status, texts = run(api, tables, case, "en")
        assert status == want[case[0]][0], case
        assert len(texts) == len(want[case[0]][1]), case
        chinese = [t for t in texts if isinstance(t, str) and CJK.search(QUOTED.sub("", t))]
        assert not chinese, (case[0], chinese)


def _en(api, method, path, body=None):
    r = api.open(path, method=method, json=body, headers={"Accept-Language": "en"})
    assert r.headers.get("Vary") and "Accept-Language" in r.headers["Vary"]
    return r


def test_english_errors_name_the_field(api, tables):
    e = tables["edit"]
    cases = [
        ("POST", "/api/v1/tables", {"variant": "zhengzhou", "names": ["a"]},
         "names", "Seat names (names) should be a list of 4 names (East, South, West, North, "
                  "in that order)."),
        ("POST", "/api/v1/tables", {"variant": "zhengzhou", "base": 0},
         "base", "Base (base) should be a number above 0 and at most 1000000000."),
        ("POST", f"/api/v1/tables/{e}/hands", {"settlement": {}},
         "settlement.winner", "Settlement · winner (winner): required in the ledger (a seat "
                              "number 0-3, null for a drawn game)."),
        ("POST", f"/api/v1/tables/{e}/hands", {"winning_tile": "2z", "settlement": {"winner": 1}},
         "winning_tile", "Without a hand (hand), winning_tile cannot be given."),
        ("POST", f"/api/v1/tables/{e}/hands",
         {"adjustment": {"payments": [{"from": 0, "to": 1, "amount": -2}]}},
         "adjustment.payments[0].amount",
         "The amount (amount) should be a number above 0 and at most 1000000000."),
        ("POST", f"/api/v1/tables/{e}/hands", {"hand": "12x", "settlement": {"winner": 1}},
         "hand", 'Hand: character 3 "x" is not a tile.'),
        ("POST", f"/api/v1/tables/{e}/hands/1/void", {"reason": ""},
         "reason", "Voiding needs a reason (reason)."),
        ("POST", f"/api/v1/tables/{e}/hands", {"expected_number": 1,
                                               "settlement": {"winner": None}},
         "expected_number", "Hand 1 has already been recorded by someone else (this is now "
                            "hand 3): nothing was recorded this time. See the latest entries "
                            "on the table."),
        ("POST", f"/api/v1/tables/{tables['view']}/hands", {"settlement": {"winner": None}},
         None, "This is the read-only view link: it cannot record; use the edit link."),
        ("POST", "/api/v1/tables/import", {"format": "webcalc-ledger/1", "variant": "zhengzhou",
                                           "entries": [{"number": 1, "kind": "hand",
                                                        "request": {"hand": "1m"}}]},
         "entries[0].settlement", "Hand 1: Settlement (settlement) is required: give at least "
                                  "the winner (winner, null for a drawn game)."),
    ]
    for method, path, body, field, message in cases:
        err = _en(api, method, path, body).get_json()["error"]
        assert (err["field"], err["message"]) == (field, message), err


def test_zz6_note_is_kept_once_per_entry_in_both_languages(api, tables, ledger):
    """ZZ-6: a 郑州 entry where the seed's worked example gives another number (A 跑1, B 跑2,
    B wins) keeps the settlement's one note, in the reader's language (``message_en``
    beside it, its code in ``messages``); its payments do not carry it."""
    e = tables["edit"]
    body = {**WIN, "settlement": {"winner": 1, "pao": [1, 2, 0, 0]}}
    zh = api.post(f"/api/v1/tables/{e}/hands", json=body).json["hand"]["settlement"]
    assert [n["rule"] for n in zh["notes"]] == ["ZZ-6"]
    assert zh["notes"][0]["message"].startswith("按公式付钱；照规则里的算例会付成别的数：")
    assert zh["notes"][0]["message_en"].startswith("Paid by the formula;")
    assert not [p for p in zh["payments"] if "ZZ-6" in p["detail"] or "种子" in p["detail"]]
    en = _en(api, "GET", f"/api/v1/tables/{e}").json["hands"][-1]["settlement"]
    assert en["notes"][0]["message"] == zh["notes"][0]["message_en"]
    assert not CJK.search(en["notes"][0]["message"])
    # stored as a code too, which renders to the same texts
    from sqlalchemy import select
    from sqlalchemy.orm import Session

    from webcalc.catalogue import render
    from webcalc.ledger.models import Hand
    from webcalc.message_json import from_json

    made = ledger.create_table({"variant": "zhengzhou"})
    ledger.record(made.edit_token, body)
    with Session(ledger.engine) as s:
        h = s.scalars(select(Hand).order_by(Hand.id.desc())).first()
        code = from_json(h.codes["notes"][0])     # the codes column (migration 0002)
        note = h.result["settlement"]["notes"][0]
    assert (render(code, "zh"), render(code, "en")) == (note["message"], note["message_en"])


def test_english_entry_details_pao_fan_jiagang_and_kongs(api, tables):
    """The payment details of ZZ-4/ZZ-5 (跑, kongs) and PJ-10..13 (番, 加钢, kongs) in
    English; ``detail_en`` stays beside ``detail`` (API.md: never drop a field)."""
    e, pj = tables["edit"], tables["pj"]
    out = _en(api, "POST", f"/api/v1/tables/{e}/hands",
              {**WIN, "settlement": {"winner": 1, "pao": [1, 0, 2, 0],
                                     "kongs": [{"seat": 3, "type": "exposed", "from": 0}]}}).json
    d = [p["detail"] for p in out["hand"]["settlement"]["payments"]]
    assert d == [
        "South self-draw: base 1 ×(1+pao 0+pao 1) = 2 (ZZ-4)",
        "South self-draw: base 1 ×(1+pao 0+pao 2) = 3 (ZZ-4)",
        "South self-draw: base 1 ×(1+pao 0+pao 0) = 1 (ZZ-4)",
        "North exposed kong: base 1 ×(1+pao 0+pao 1) = 2 (ZZ-5)"]
    assert "notes" not in out["hand"]["settlement"]     # the seed agrees with a 跑0 winner
    assert [p["detail_en"] for p in out["hand"]["settlement"]["payments"]] == d
    assert out["table"]["hands"][-1]["settlement"]["payments"][0]["detail"] == d[0]
    out = _en(api, "POST", f"/api/v1/tables/{pj}/hands",
              {**PJ_WIN, "settlement": {"winner": 1, "discarder": 2,
                                        "jiagang": [False, True, False, False],
                                        "kongs": [{"seat": 3, "type": "concealed"}]}}).json
    h = out["hand"]
    assert [(f["key"], f["name"], f.get("note")) for f in h["fan"]] == [
        ("discard", "win on a discard", "only the discarder's own share doubles (PJ-12)")]
    assert [p["detail"] for p in h["settlement"]["payments"]] == [
        "The discarder pays for all three; East's share: base 1 ×2 (dealer) ×2 (winner's "
        "jiagang) = 4 (PJ-10, PJ-11, PJ-12)",
        "The discarder pays for all three; own share: base 1 ×2 (win on a discard) ×2 "
        "(winner's jiagang) = 4 (PJ-10, PJ-11, PJ-12)",
        "The discarder pays for all three; North's share: base 1 ×2 (winner's jiagang) = 2 "
        "(PJ-10, PJ-11, PJ-12)"] + ["North concealed kong: base 1 ×2 = 2 (PJ-13)"] * 3
    # the same table read in Chinese: as stored, as before
    zh = api.get(f"/api/v1/tables/{pj}").json["hands"][-1]
    assert zh["fan"][0]["name"] == "点炮" and zh["fan"][0]["name_en"] == "win on a discard"
    assert zh["settlement"]["payments"][3]["detail"] == "北家暗杠：底1 ×2 = 2（PJ-13）"
    # adjustments: a transfer with the default title and a fee split four ways
    t = _en(api, "POST", f"/api/v1/tables/{e}/hands",
            {"adjustment": {"payments": [{"from": 3, "to": 0, "amount": 5}]}}).json["hand"]
    assert t["settlement"]["payments"][0]["detail"] == "Adjustment: North pays East 5"
    f = _en(api, "POST", f"/api/v1/tables/{e}/hands",
            {"adjustment": {"fee": 10, "paid_by": 2}}).json["hand"]
    assert {p["detail"] for p in f["settlement"]["payments"]} == {
        "Table fee 10: paid by West, split evenly between the four, 2.5 each"}
    assert f["settlement"]["net"] == [-2.5, -2.5, 7.5, -2.5]


def test_stored_codes_render_to_the_stored_texts(ledger):
    """What is stored as codes says exactly what was shown: each payment's and fan's message
    renders to the stored Chinese and English."""
    from sqlalchemy import select
    from sqlalchemy.orm import Session

    from webcalc.catalogue import render
    from webcalc.ledger.models import Hand
    from webcalc.message_json import from_json

    made = ledger.create_table({"variant": "panjin", "options": {"jiagang": True}})
    e = made.edit_token
    ledger.record(e, {**PJ_WIN, "settlement": {"winner": 1, "discarder": 2,
                                               "jiagang": [True, True, False, False],
                                               "kongs": [{"seat": 0, "type": "exposed",
                                                          "from": 3}]}})
    ledger.record(e, {"settlement": {"winner": None}})
    ledger.record(e, {"adjustment": {"fee": 40, "paid_by": 1, "note": "茶水"}})
    with Session(ledger.engine) as s:
        rows = s.scalars(select(Hand).order_by(Hand.number)).all()
        checked = 0
        for h in rows:
            codes = h.codes                       # beside the result (migration 0002)
            assert "messages" not in h.result
            pays = h.result["settlement"]["payments"]
            assert len(codes["payments"]) == len(pays)
            for p, c in zip(pays, codes["payments"]):
                m = from_json(c)
                assert (render(m, "zh"), render(m, "en")) == (p["detail"], p["detail_en"])
                checked += 1
            for f, c in zip(h.result.get("fan", []), codes.get("fan", [])):
                assert render(from_json(c["name"]), "en") == f["name_en"]
                assert render(from_json(c["name"]), "zh") == f["name"]
    assert checked == 3 + 3 + 3       # 3 shares of the win, the kong's 3 payers, 3 fee shares
    fee = ledger.hand(e, 3)["settlement"]["payments"][0]
    assert fee["detail"] == "茶水 40：南家垫付，四家均摊，每家 10"
    assert fee["detail_en"] == "茶水 40: paid by South, split evenly between the four, 10 each"


def _age(ledger, number: int, *, keep_en: bool) -> None:
    """Make entry ``number`` look as it was stored before messages had codes: no codes, and (unless
    ``keep_en``) no English beside the Chinese either."""
    from sqlalchemy import select
    from sqlalchemy.orm import Session

    from webcalc.ledger.models import Hand

    with Session(ledger.engine) as s:
        h = s.scalars(select(Hand).where(Hand.number == number)).one()
        r = json.loads(json.dumps(h.result))
        h.codes = None
        for p in r["settlement"]["payments"]:
            if not keep_en:
                p.pop("detail_en")
        for f in r.get("fan", []):
            if not keep_en:
                f.pop("name_en", None)
                f.pop("note_en", None)
        h.result = r
        s.commit()
    ledger.forget_cached()              # edited behind the ledger's back: read it again


def test_entries_stored_before_the_codes_stay_readable(make_app):
    app = make_app()
    api = app.test_client()
    ledger = app.extensions["ledger"]
    edit = api.post("/api/v1/tables", json={"variant": "zhengzhou"}).json["edit_token"]
    api.post(f"/api/v1/tables/{edit}/hands", json={**WIN, "settlement": {"winner": 1}})
    api.post(f"/api/v1/tables/{edit}/hands", json={**WIN, "settlement": {"winner": 1}})
    _age(ledger, 1, keep_en=True)
    _age(ledger, 2, keep_en=False)
    en = _en(api, "GET", f"/api/v1/tables/{edit}").json["hands"]
    assert en[0]["settlement"]["payments"][0]["detail"] == \
        "South self-draw: base 1 ×(1+pao 0+pao 0) = 1 (ZZ-4)"
    # the oldest form has only its Chinese: it is shown, not lost
    assert en[1]["settlement"]["payments"][0]["detail"] == "南家自摸：底1 ×(1+跑0+跑0) = 1（ZZ-4）"
    zh = api.get(f"/api/v1/tables/{edit}").json["hands"]
    assert zh[0]["settlement"]["payments"][0]["detail"] == "南家自摸：底1 ×(1+跑0+跑0) = 1（ZZ-4）"
    # correcting an old entry with the same hand writes no new revision
    r = api.put(f"/api/v1/tables/{edit}/hands/2", json={**WIN, "settlement": {"winner": 1}})
    assert r.status_code == 200 and r.json["hand"]["revision"] == 1
    page = api.get(f"/t/{edit}?lang=en").get_data(as_text=True)
    assert "South self-draw: base 1 ×(1+pao 0+pao 0) = 1 (ZZ-4)" in page


def test_void_reason_missing_from_an_import_reads_in_each_language(make_app):
    from sqlalchemy import update
    from sqlalchemy.orm import Session

    from webcalc.ledger.models import Hand

    app = make_app()
    api = app.test_client()
    doc = {"format": "webcalc-ledger/1", "variant": "zhengzhou",
           "entries": [{"number": n, "kind": "hand", "status": "voided",
                        "request": {"settlement": {"winner": None}}} for n in (1, 2)]}
    edit = api.post("/api/v1/tables/import", json=doc).json["edit_token"]
    with Session(app.extensions["ledger"].engine) as s:     # 2: as imports stored it before
        s.execute(update(Hand).where(Hand.number == 2).values(void_reason="（导入时无原因）"))
        s.commit()
    app.extensions["ledger"].forget_cached()     # edited behind the ledger's back
    en = _en(api, "GET", f"/api/v1/tables/{edit}").json["hands"]
    zh = api.get(f"/api/v1/tables/{edit}").json["hands"]
    assert [h["void_reason"] for h in en] == ["(no reason given in the import)"] * 2
    assert [h["void_reason"] for h in zh] == ["（导入时无原因）"] * 2
    again = api.post("/api/v1/tables/import",
                     json=api.get(f"/api/v1/tables/{edit}/export").json)
    assert again.status_code == 201


# -- the English pages ------------------------------------------------------------------------

EN_NAMES = ["Wang", "Li", "Mei", "Zhang"]


def _csrf(html: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)


def _english_evening(client) -> str:
    """A 郑州 table opened and kept on the English pages: a win with 跑 and a kong, a drawn
    game, a win without tiles, a fee, a penalty, one voided hand, one corrected."""
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    page = client.get("/t/new").get_data(as_text=True)
    r = client.post("/t/new", data={"csrf_token": _csrf(page), "variant": "zhengzhou",
                                    "base": "1", "dealer": "0", "form_variant": "zhengzhou",
                                    **{f"n{i}": n for i, n in enumerate(EN_NAMES)}})
    assert r.status_code == 303
    token = r.headers["Location"].split("/t/")[1].split("?")[0]

    def post(path, **data):
        from .entry_form import record_fields

        html = client.get(f"/t/{token}").get_data(as_text=True)
        r = client.post(f"/t/{token}{path}", data={**record_fields(html), **data})
        assert r.status_code == 303, r.get_data(as_text=True)[:3000]

    post("/hands", hand=WIN["hand"], winning_tile="2z", win_by="self_draw", s_dealer="0",
         s_winner="1", s_pao0="1", s_pao1="0", s_pao2="0", s_pao3="0", s_kongs="3:concealed")
    post("/hands", draw="1", s_dealer="1")
    post("/hands", win_by="self_draw", s_dealer="1", s_winner="3")
    post("/adjust", kind="fee", amount="20", paid_by="0", note="")
    post("/adjust", kind="payment", amount="5", **{"from": "3", "to": "0"}, note="")
    post("/hands/3/void", reason="wrong seat")
    post("/hands/1", hand=WIN["hand"], winning_tile="2z", win_by="self_draw", s_dealer="0",
         s_winner="2", s_pao0="1", s_pao1="0", s_pao2="0", s_pao3="0", s_kongs="3:concealed")
    return token


def _chinese_shown(html: str) -> list[str]:
    from tests.test_messages import _Text

    p = _Text()
    p.feed(html)
    return p.found


def test_english_ledger_pages_show_no_chinese(make_app):
    from webcalc.ledger import view_token_of

    client = make_app().test_client()
    token = _english_evening(client)
    view = view_token_of(token)
    for url in (f"/t/{token}", f"/t/{view}", f"/t/{token}/live", f"/t/{view}/live?part=top",
                f"/t/{token}?correct=1", "/t/new", "/t/new?variant=panjin&pick=1"):
        resp = client.get(url, follow_redirects=True)
        assert resp.status_code == 200, url
        html = resp.get_data(as_text=True)
        assert not _chinese_shown(html), (url, _chinese_shown(html)[:10])
        assert not re.findall(r".{0,40}[（）：，。、].{0,40}", html), url  # Chinese punctuation
    assert "Wang (East seat)" in client.get(f"/t/{token}").get_data(as_text=True)
    html = client.get(f"/t/{view}").get_data(as_text=True)
    # the details name the players, as the CSV does (East → Wang, West → Mei, North → Zhang)
    assert "Table fee 20: paid by Wang, split evenly between the four, 5 each" in html
    assert "Adjustment: Zhang pays Wang 5" in html
    assert "Mei self-draw: base 1 ×(1+pao 0+pao 1) = 2" in html        # hand 1, corrected
    assert "Zhang concealed kong: base 1 ×(1) = 1 (ZZ-5)" in html      # no kong_pao option
    # the Chinese page of the same table is Chinese
    zh = client.get(f"/t/{view}", headers={"Accept-Language": "zh-CN"}).get_data(as_text=True)
    assert "台费 20：Wang垫付，四家均摊，每家 5" in zh and "调整：Zhang付Wang 5" in zh


def test_english_csv_export(make_app):
    import csv
    import io

    client = make_app().test_client()
    token = _english_evening(client)
    raw = client.get(f"/t/{token}/export.csv").get_data().decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(raw)))
    assert rows[0] == ["Hand", "Kind", "Status", "Dealer", "Winner", "Win method",
                       "Tiles checked", "From", "To", "Amount", "Item", "Detail", "Rule",
                       "Recorded at (Asia/Shanghai)", "Entry", "Revision"]
    assert not [c for r in rows for c in r if CJK.search(c)]
    assert rows[1][:7] == ["1", "A hand", "Counted", "Wang", "Mei", "self-draw", "Yes"]
    entries = rows[1:rows.index([])]            # then the totals and the settle-up
    # an adjustment takes no place among the hands played; its entry id is column 15
    assert entries[-1][14] == "5"
    assert entries[-1][:11] == ["", "Adjustment", "Counted", "", "", "", "", "Zhang", "Wang",
                                "5", "Adjustment"]
    assert ["Totals"] == next(r for r in rows if r[:1] == ["Totals"])[:1]
    zh = client.get(f"/t/{token}/export.csv", headers={"Accept-Language": "zh-CN"})
    zrows = list(csv.reader(io.StringIO(zh.get_data().decode("utf-8-sig"))))
    assert zrows[0] == ["手", "类型", "状态", "庄家", "胡牌者", "胡法", "验牌", "付款", "收款",
                        "金额", "项目", "说明", "规则", "记入时间（Asia/Shanghai）", "记录号",
                        "更正版本"]
    assert zrows[1][:7] == ["1", "牌局", "计入", "Wang", "Mei", "自摸", "是"]


def test_blank_seat_names_are_named_in_the_pages_language(make_app):
    client = make_app().test_client()
    for lang, names in (("en", ["East", "South", "West", "North"]),
                        ("zh-CN", ["东家", "南家", "西家", "北家"])):
        page = client.get("/t/new", headers={"Accept-Language": lang}).get_data(as_text=True)
        r = client.post("/t/new", headers={"Accept-Language": lang},
                        data={"csrf_token": _csrf(page), "variant": "zhengzhou", "base": "1",
                              "dealer": "0", "form_variant": "zhengzhou"})
        token = r.headers["Location"].split("/t/")[1].split("?")[0]
        assert client.application.extensions["ledger"].table(token)["names"] == names


def test_english_entry_errors_under_their_inputs(make_app):
    """A hand the app cannot read, a bad adjustment and a void without a reason, on the
    English table page: each error in English, the page without Chinese."""
    client = make_app().test_client()
    token = _english_evening(client)
    from .entry_form import record_fields

    html = client.get(f"/t/{token}").get_data(as_text=True)
    data = {**record_fields(html), "expected_number": "6"}
    r = client.post(f"/t/{token}/hands", data={**data, "hand": "123m456p789s1112x",
                                                "winning_tile": "2z", "s_dealer": "2",
                                                "s_winner": "1"})
    page = r.get_data(as_text=True)
    assert r.status_code == 422
    assert re.search(r'id="hand-error"><span>Hand: character 17 (&#34;|")x(&#34;|") is not a '
                     r'tile\.</span>', page), page[page.find("hand-error") - 200:][:600]
    assert 'value="123m456p789s1112x"' in page and not _chinese_shown(page)
    r = client.post(f"/t/{token}/hands/2/void", data={"csrf_token": data["csrf_token"],
                                                       "reason": " "})
    page = r.get_data(as_text=True)
    assert r.status_code == 422 and "Voiding needs a reason (reason)." in page
    assert not _chinese_shown(page)
    r = client.post(f"/t/{token}/hands/9/void", data={"csrf_token": data["csrf_token"],
                                                       "reason": "x"})
    assert r.status_code == 404 and "This table has no hand 9." in r.get_data(as_text=True)
