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
import os
import re
from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parent / "messages_zh.json"
CJK = re.compile(r"[\u3400-\u9fff]")

WIN = {"hand": "123m456p789s11122z", "winning_tile": "2z", "win_by": "self_draw"}
PJ_WIN = {"hand": "123m456p789s11222z", "winning_tile": "2z", "win_by": "discard"}

#: (name, method, path, body); {edit}/{view}: the tokens of a 郑州 table with one hand
#: recorded (hand 1) and one voided adjustment (hand 2); {pj}: a 盘锦 table (加钢, 杠)
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
    api.post(f"/api/v1/tables/{edit}/hands", json={**WIN, "settlement": {"winner": 1}})
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
    if os.environ.get("WEBCALC_WRITE_LEDGER_GOLDEN") and "sqlite" in request.node.name:
        GOLDEN.write_text(json.dumps(got, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    want = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert set(want) == set(got)
    changed = {k: (want[k], list(v)) for k, v in got.items() if [want[k][0], want[k][1]]
               != [v[0], v[1]]}
    assert not changed, changed
