"""API.md "Table ledger, round two", point by point, on SQLite and PostgreSQL: undo, co-scorers,
rotating the links, the carried-bets setting, and the editor of every revision.

Amounts are the rules': a 郑州 self-draw of 123m456p789s11122z by 南家 at base 1 without 跑 is
1 from each other seat (ZZ-4), so its net is [-1, 3, -1, -1]."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.both_dbs

WIN = {"hand": "123m456p789s11122z", "winning_tile": "2z", "win_by": "self_draw"}
EN = {"Accept-Language": "en"}


def win(seat: int, **settlement) -> dict:
    return {**WIN, "settlement": {"winner": seat, **settlement}}


def create(api, **spec):
    r = api.post("/api/v1/tables", json={"variant": "zhengzhou", **spec})
    assert r.status_code == 201, r.json
    return r.json["edit_token"], r.json["view_token"]


def record(api, token, body, status=201):
    r = api.post(f"/api/v1/tables/{token}/hands", json=body)
    assert r.status_code == status, r.json
    return r.json


def undo(api, token, number, **kw):
    return api.post(f"/api/v1/tables/{token}/undo", json={"number": number}, **kw)


def error(r) -> tuple[int, str, str | None]:
    return r.status_code, r.json["error"]["code"], r.json["error"]["field"]


# -- undo --------------------------------------------------------------------------------------

def test_undo_voids_the_last_counted_entry_as_undone(api):
    edit, view = create(api)
    record(api, edit, win(1))                                   # dealer 0 stays: 南家 won
    record(api, edit, win(2))
    before = api.get(f"/api/v1/tables/{view}").json
    assert before["totals"] == [-2, 2, 2, -2] and before["last_counted"] == 2
    r = undo(api, edit, 2)
    assert r.status_code == 200
    t = r.json
    h = t["hands"][1]
    assert (h["status"], h["void_code"], h["void_reason"], h["voided_by"]) == \
        ("voided", "undone", "撤销", 0)
    assert t["totals"] == [-1, 3, -1, -1] and t["last_counted"] == 1
    assert t["dealer"] == before["hands"][0]["settlement"]["next_dealer"]["seat"]
    assert t["version"] == before["version"] + 1 and t["next_number"] == 3
    en = api.get(f"/api/v1/tables/{view}", headers=EN).json["hands"][1]
    assert (en["void_code"], en["void_reason"]) == ("undone", "Undone")


def test_a_double_tap_undoes_once(api):
    edit, view = create(api)
    record(api, edit, win(1))
    record(api, edit, win(1))
    assert undo(api, edit, 2).status_code == 200
    again = undo(api, edit, 2)
    assert error(again) == (409, "conflict", "number")
    assert again.json["table"]["last_counted"] == 1          # the table as it is now
    t = api.get(f"/api/v1/tables/{view}").json
    assert [h["status"] for h in t["hands"]] == ["recorded", "voided"]
    assert t["totals"] == [-1, 3, -1, -1]
    assert t["version"] == again.json["table"]["version"]     # nothing changed


def test_undo_of_any_other_entry_is_a_conflict_and_changes_nothing(api):
    edit, view = create(api)
    assert error(undo(api, edit, 1)) == (409, "conflict", "number")     # nothing counted yet
    record(api, edit, win(1))
    record(api, edit, {"adjustment": {"fee": 20, "paid_by": 0, "note": "台费"}})
    record(api, edit, win(3))
    api.post(f"/api/v1/tables/{edit}/hands/3/void", json={"reason": "记错了"})
    version = api.get(f"/api/v1/tables/{view}").json["version"]
    for n in (1, 3, 4, 0, -1):
        assert error(undo(api, edit, n)) == (409, "conflict", "number")
    assert api.get(f"/api/v1/tables/{view}").json["version"] == version
    t = undo(api, edit, 2).json                                 # the fee is the last counted
    assert [h["status"] for h in t["hands"]] == ["recorded", "voided", "voided"]
    assert [h.get("void_code") for h in t["hands"]] == [None, "undone", None]
    assert t["hands"][2]["void_reason"] == "记错了"
    assert t["totals"] == [-1, 3, -1, -1] and t["last_counted"] == 1


def test_undo_bad_requests(api):
    edit, view = create(api)
    record(api, edit, win(1))
    assert error(undo(api, view, 1)) == (403, "read_only", None)
    assert undo(api, "A" * 32, 1).status_code == 404
    for body in ({}, {"number": "1"}, {"number": True}, {"number": 1, "x": 1}, [1]):
        r = api.post(f"/api/v1/tables/{edit}/undo", json=body)
        assert r.status_code == 400 and r.json["error"]["code"] in ("bad_request", "bad_json")
    assert api.get(f"/api/v1/tables/{view}").json["hands"][0]["status"] == "recorded"


def test_after_an_undo_the_next_hand_is_dealt_as_before_it(api):
    edit, view = create(api)
    record(api, edit, win(1))                    # 南家 wins: ZZ-7 moves the deal to 南家
    dealer_after_1 = api.get(f"/api/v1/tables/{view}").json["dealer"]
    record(api, edit, win(2))
    undo(api, edit, 2)
    t = record(api, edit, win(3))["table"]
    assert t["hands"][2]["dealer"] == dealer_after_1 and t["next_number"] == 4
    assert not any(h["dealer_flag"] for h in t["hands"])


# -- co-scorers --------------------------------------------------------------------------------

def test_co_scorer_records_and_every_revision_names_its_editor(api):
    edit, view = create(api)
    r = api.post(f"/api/v1/tables/{edit}/editors")
    assert r.status_code == 201 and r.json["editor"] == 1
    co = r.json["edit_token"]
    assert len(co) >= 22 and co not in (edit, view)
    assert api.get(f"/api/v1/tables/{co}").json["access"] == "edit"
    h = record(api, co, win(1))["hand"]
    assert h["editor"] == 1
    fixed = api.put(f"/api/v1/tables/{edit}/hands/1", json=win(2)).json["hand"]
    assert fixed["editor"] == 0 and [r["editor"] for r in fixed["revisions"]] == [1]
    assert fixed["settlement"]["net"] == [-1, -1, 3, -1]
    t = api.post(f"/api/v1/tables/{co}/hands/1/void", json={"reason": "重打"}).json
    assert (t["hands"][0]["voided_by"], t["hands"][0]["editor"]) == (1, 0)
    assert api.post(f"/api/v1/tables/{edit}/editors").json["editor"] == 2
    listed = api.get(f"/api/v1/tables/{edit}/editors").json["editors"]
    assert [e["editor"] for e in listed] == [0, 1, 2]


def test_only_the_creator_adds_or_revokes(api):
    edit, view = create(api)
    co = api.post(f"/api/v1/tables/{edit}/editors").json["edit_token"]
    assert error(api.post(f"/api/v1/tables/{co}/editors")) == (403, "not_owner", None)
    assert error(api.delete(f"/api/v1/tables/{co}/editors/1")) == (403, "not_owner", None)
    assert error(api.get(f"/api/v1/tables/{co}/editors")) == (403, "not_owner", None)
    assert error(api.post(f"/api/v1/tables/{view}/editors")) == (403, "read_only", None)
    assert error(api.delete(f"/api/v1/tables/{view}/editors/1")) == (403, "read_only", None)
    assert api.post("/api/v1/tables/" + "B" * 32 + "/editors").status_code == 404
    assert error(api.delete(f"/api/v1/tables/{edit}/editors/0")) == \
        (400, "bad_request", "editor")
    assert error(api.delete(f"/api/v1/tables/{edit}/editors/7")) == (404, "not_found", "editor")
    assert error(api.post(f"/api/v1/tables/{edit}/editors", json={"x": 1})) == \
        (400, "bad_request", "x")


def test_a_body_field_to_add_a_co_scorer_is_refused_as_no_field_at_all(api):
    """The add-a-co-scorer endpoint takes no body fields (API.md): a field sent is named, and
    the answer says no field is taken (it listed an empty "可用字段：。" before), with {} or
    no body still adding one. Asserted in both languages: the field typed is quoted back."""
    edit, _view = create(api)
    r = api.post(f"/api/v1/tables/{edit}/editors", json={"revoke": 1})
    assert error(r) == (400, "bad_request", "revoke")
    assert r.json["error"]["message"] == "这个请求不带任何字段（收到 “revoke”）：正文留空或发送空对象即可。"
    r = api.post(f"/api/v1/tables/{edit}/editors", json={"revoke": 1}, headers=EN)
    assert error(r) == (400, "bad_request", "revoke")
    assert r.json["error"]["message"] == \
        'This request takes no fields (got "revoke"): send an empty body or an empty object.'
    assert api.post(f"/api/v1/tables/{edit}/editors", json={}).json["editor"] == 1
    assert api.post(f"/api/v1/tables/{edit}/editors").json["editor"] == 2


def test_api_md_names_every_request_message():
    """docs/API.md names each message a request's own shape is refused with (the codes
    ``request.*`` of the catalogue), with the error code it comes under: ``request.no_fields``
    (the co-scorer endpoint's "takes no fields") was not there."""
    from pathlib import Path

    from webcalc.catalogue_texts import TEXTS

    api_md = (Path(__file__).resolve().parents[2] / "docs" / "API.md").read_text("utf-8")
    codes = sorted(c for c in TEXTS if c.startswith("request."))
    assert "request.no_fields" in codes
    assert [c for c in codes if f"`{c}`" not in api_md] == []


def test_a_revoked_link_answers_404_everywhere(api):
    edit, view = create(api)
    co = api.post(f"/api/v1/tables/{edit}/editors").json["edit_token"]
    record(api, co, win(1))
    r = api.delete(f"/api/v1/tables/{edit}/editors/1")
    assert r.status_code == 200 and r.json["editor"] == 1 and r.json["revoked_at"]
    assert api.delete(f"/api/v1/tables/{edit}/editors/1").json == r.json     # once
    for method, path, body in (("GET", "", None), ("POST", "/hands", win(2)),
                               ("PUT", "/hands/1", win(2)), ("POST", "/undo", {"number": 1}),
                               ("POST", "/rotate", {}), ("GET", "/export", None)):
        got = api.open(f"/api/v1/tables/{co}{path}", method=method, json=body)
        assert error(got) == (404, "not_found", None), (method, path)
    for page in ("", "/live", "/export.csv"):
        assert api.get(f"/t/{co}{page}").status_code == 404
    t = api.get(f"/api/v1/tables/{view}").json          # what it wrote stays, with its editor
    assert t["hands"][0]["editor"] == 1 and t["hands"][0]["status"] == "recorded"
    listed = api.get(f"/api/v1/tables/{edit}/editors").json["editors"]
    assert listed[1]["revoked_at"] == r.json["revoked_at"]
    assert api.post(f"/api/v1/tables/{edit}/editors").json["editor"] == 2     # never reused


def test_revoke_and_replace_the_view_link_in_one_step(api, make_app):
    """What the revoked co-scorer's page showed, the view link, is replaced in the revoke's
    own transaction; the creator keeps its edit link; another process (another worker,
    PostgreSQL's notifications) answers 404 for the old view link at once too."""
    edit, view = create(api)
    other = make_app().test_client()                     # a second worker
    assert other.get(f"/api/v1/tables/{view}").status_code == 200
    co = api.post(f"/api/v1/tables/{edit}/editors").json["edit_token"]
    co2 = api.post(f"/api/v1/tables/{edit}/editors").json["edit_token"]
    ledger = api.application.extensions["ledger"]
    assert ledger.view_token(co) == view
    out = ledger.revoke_editor(edit, 1, view=True)
    assert set(out) == {"editor", "revoked_at", "view_token"} and out["view_token"] != view
    for client in (api, other):
        assert client.get(f"/api/v1/tables/{view}").status_code == 404
        assert client.get(f"/api/v1/tables/{co}").status_code == 404
        assert client.get(f"/api/v1/tables/{out['view_token']}").json["access"] == "view"
    assert ledger.view_token(edit) == out["view_token"]             # the creator's page knows it
    assert ledger.view_token(co2) is None                           # the other co-scorer's not
    assert record(api, co2, win(1))["hand"]["editor"] == 2
    record(api, edit, win(2))
    again = ledger.revoke_editor(edit, 1)                           # revoked once: unchanged
    assert again == {"editor": 1, "revoked_at": out["revoked_at"]}
    assert ledger.view_token(edit) == out["view_token"]
    # the creator's link replaced later keeps the new view link
    new_edit = api.post(f"/api/v1/tables/{edit}/rotate").json["edit_token"]
    assert ledger.view_token(new_edit) == out["view_token"]


def test_editor_links_are_capped(make_app):
    api = make_app(LEDGER_EDITORS_MAX=3).test_client()
    edit, _ = create(api)
    assert [api.post(f"/api/v1/tables/{edit}/editors").status_code for _ in range(2)] == \
        [201, 201]
    api.delete(f"/api/v1/tables/{edit}/editors/1")          # revoked ones count
    r = api.post(f"/api/v1/tables/{edit}/editors")
    assert r.status_code == 422 and r.json["error"]["code"] == "too_many"
    assert r.json["error"]["detail"] == {"limit": "editors_per_table", "max": 3}


# -- rotate ------------------------------------------------------------------------------------

def test_rotate_the_edit_link_keeps_the_view_link(api):
    edit, view = create(api)
    record(api, edit, win(1))
    r = api.post(f"/api/v1/tables/{edit}/rotate")
    assert r.status_code == 200 and set(r.json) == {"edit_token"}
    new = r.json["edit_token"]
    assert api.get(f"/api/v1/tables/{edit}").status_code == 404
    assert record(api, edit, win(2), status=404)["error"]["code"] == "not_found"
    assert api.get(f"/t/{edit}").status_code == 404
    t = record(api, new, win(2))["table"]
    assert t["access"] == "edit" and len(t["hands"]) == 2
    assert api.get(f"/api/v1/tables/{view}").json["version"] == t["version"]
    app_ledger = api.application.extensions["ledger"]
    assert app_ledger.view_token(new) == view         # the pages show the same view link
    assert api.post(f"/api/v1/tables/{new}/editors").status_code == 201   # still the owner


def test_rotate_both_links(api):
    edit, view = create(api)
    co = api.post(f"/api/v1/tables/{edit}/editors").json["edit_token"]
    r = api.post(f"/api/v1/tables/{edit}/rotate", json={"view": True})
    assert r.status_code == 200 and set(r.json) == {"edit_token", "view_token"}
    new_edit, new_view = r.json["edit_token"], r.json["view_token"]
    for old in (edit, view):
        assert api.get(f"/api/v1/tables/{old}").status_code == 404
        assert api.get(f"/t/{old}/live").status_code == 404
    assert api.get(f"/api/v1/tables/{new_view}").json["access"] == "view"
    assert error(api.post(f"/api/v1/tables/{new_view}/hands", json=win(1))) == \
        (403, "read_only", None)
    ledger = api.application.extensions["ledger"]
    assert ledger.view_token(new_edit) == new_view
    assert ledger.view_token(co) is None                # sealed with the old view link
    assert record(api, co, win(1))["hand"]["editor"] == 1


def test_a_co_scorer_rotates_only_its_own_link(api):
    edit, view = create(api)
    co = api.post(f"/api/v1/tables/{edit}/editors").json["edit_token"]
    assert error(api.post(f"/api/v1/tables/{co}/rotate", json={"view": True})) == \
        (403, "not_owner", None)
    assert api.get(f"/api/v1/tables/{co}").status_code == 200          # nothing changed
    new = api.post(f"/api/v1/tables/{co}/rotate", json={"view": False}).json["edit_token"]
    assert api.get(f"/api/v1/tables/{co}").status_code == 404
    assert record(api, new, win(1))["hand"]["editor"] == 1
    assert api.application.extensions["ledger"].view_token(new) == view
    assert api.get(f"/api/v1/tables/{edit}").status_code == 200
    assert error(api.post(f"/api/v1/tables/{view}/rotate")) == (403, "read_only", None)
    for body in ({"view": "yes"}, {"other": 1}, [True]):
        r = api.post(f"/api/v1/tables/{edit}/rotate", json=body)
        assert r.status_code == 400, body
    assert api.get(f"/api/v1/tables/{edit}").status_code == 200


# -- carried bets ------------------------------------------------------------------------------

def test_carry_bets_setting(api):
    edit, view = create(api)
    t = api.get(f"/api/v1/tables/{view}").json
    assert t["carry_bets"] == "keep"
    edit2, _ = create(api, carry_bets="reset")
    assert api.get(f"/api/v1/tables/{edit2}").json["carry_bets"] == "reset"
    r = api.post("/api/v1/tables", json={"variant": "zhengzhou", "carry_bets": "sometimes"})
    assert error(r) == (400, "bad_request", "carry_bets")
    r = api.patch(f"/api/v1/tables/{edit}", json={"carry_bets": "reset"})
    assert r.status_code == 200 and r.json["carry_bets"] == "reset"
    assert r.json["version"] == t["version"] + 1
    assert api.patch(f"/api/v1/tables/{edit}", json={"carry_bets": "reset"}).json["version"] \
        == t["version"] + 1                                    # no change, no new version
    assert error(api.patch(f"/api/v1/tables/{view}", json={"carry_bets": "keep"})) == \
        (403, "read_only", None)
    assert error(api.patch(f"/api/v1/tables/{edit}", json={"carry_bets": 1})) == \
        (400, "bad_request", "carry_bets")
    assert error(api.patch(f"/api/v1/tables/{edit}", json={"base": 2})) == \
        (400, "bad_request", "base")
    doc = api.get(f"/api/v1/tables/{edit}/export").json
    assert doc["carry_bets"] == "reset"
    made = api.post("/api/v1/tables/import", json=doc).json
    assert made["table"]["carry_bets"] == "reset"


# -- export and import keep an undo -------------------------------------------------------------

def test_an_undone_entry_survives_export_and_import(api):
    edit, _ = create(api)
    record(api, edit, win(1))
    record(api, edit, win(2))
    undo(api, edit, 2)
    doc = api.get(f"/api/v1/tables/{edit}/export").json
    e = doc["entries"][1]
    assert (e["status"], e["void_code"], e["net"]) == ("voided", "undone", [-1, -1, 3, -1])
    assert (doc["totals"], doc["settle_up"]) == ([-1, 3, -1, -1], [
        {"from": 0, "to": 1, "amount": 1}, {"from": 2, "to": 1, "amount": 1},
        {"from": 3, "to": 1, "amount": 1}])
    t = api.post("/api/v1/tables/import", json=doc).json["table"]
    assert [(h["status"], h.get("void_code"), h.get("void_reason")) for h in t["hands"]] == \
        [("recorded", None, None), ("voided", "undone", "撤销")]
    assert t["totals"] == [-1, 3, -1, -1] and t["last_counted"] == 1
    bad = {**doc, "entries": [doc["entries"][0], {**e, "void_code": "oops"}]}
    r = api.post("/api/v1/tables/import", json=bad)
    assert error(r) == (400, "bad_request", "entries[1].void_code")


@pytest.mark.parametrize("path", ["/undo", "/editors", "/rotate"])
def test_writes_check_the_token_before_the_body(api, path):
    edit, view = create(api)
    r = api.post(f"/api/v1/tables/{view}{path}", data="{nope", content_type="application/json")
    assert error(r) == (403, "read_only", None)
    r = api.post("/api/v1/tables/" + "C" * 32 + path, data="{nope",
                 content_type="application/json")
    assert r.status_code == 404
