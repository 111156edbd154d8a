"""A table's forms without a session cookie (issue 35, docs/decisions.md "Forms without a
session cookie"): the page's forms carry the table proof of its token (HMAC of the app's
secret key and the token), so a write whose session cookie is gone (iOS WeChat killed) still
records; a forged proof (missing, wrong, another table's, a cross-site request) is refused
with the CSRF error and writes nothing; a revoked or replaced token is refused whatever the
proof. 新开一桌 and import carry a signed form token instead. CSRF on, as in production.

Amounts: ZZ-4, a 郑州 self-draw without 跑: each other seat pays 1 (the winner +3)."""

from __future__ import annotations

import re

import pytest

from webcalc.web import form_proof

from .entry_form import record_fields
from .test_pages import NAMES, csrf

QUICK = {"s_winner": "1", "form_variant": "zhengzhou"}      # 小李 self-draws, no tiles


@pytest.fixture()
def app(make_app):
    return make_app()


def _cookieless(app):
    """A client that never keeps a cookie (WeChat after it was killed)."""
    return app.test_client(use_cookies=False)


def _new_table(client) -> str:
    page = client.get("/t/new").get_data(as_text=True)
    data = {"csrf_token": csrf(page), "variant": "zhengzhou", "base": "1", "dealer": "0",
            "form_variant": "zhengzhou", **{f"n{i}": n for i, n in enumerate(NAMES)}}
    r = client.post("/t/new", data=data)
    assert r.status_code == 303, r.get_data(as_text=True)[:1500]
    return r.headers["Location"].split("/t/")[1].split("?")[0]


def _fields(client, token: str) -> dict:
    return record_fields(client.get(f"/t/{token}").get_data(as_text=True))


def _hands(app, token: str) -> list:
    return app.extensions["ledger"].table(token)["hands"]


def test_no_session_cookie_anywhere_and_the_hand_is_recorded(app):
    client = _cookieless(app)
    r = client.get("/t/new")
    assert "Set-Cookie" not in r.headers                 # the page needs no session
    token = _new_table(client)                           # the signed form token, no cookie
    page = client.get(f"/t/{token}")
    assert "Set-Cookie" not in page.headers
    fields = record_fields(page.get_data(as_text=True))
    assert fields["csrf_token"] == form_proof_of(app, token)
    r = client.post(f"/t/{token}/hands", data={**fields, **QUICK})
    assert r.status_code == 303, r.get_data(as_text=True)[:1500]
    hands = _hands(app, token)
    assert [h["settlement"]["net"] for h in hands] == [[-1, 3, -1, -1]]


def form_proof_of(app, token: str) -> str:
    with app.test_request_context():
        return form_proof.table_proof(token)


def test_a_page_loaded_with_a_cookie_records_after_the_cookie_is_gone(app):
    with_cookie = app.test_client()
    token = _new_table(with_cookie)
    fields = _fields(with_cookie, token)                 # the page as loaded
    again = _cookieless(app)                              # WeChat killed: no cookie
    r = again.post(f"/t/{token}/hands", data={**fields, **QUICK})
    assert r.status_code == 303
    # the other forms of the page too: 撤销 (undo) and an adjustment
    html = with_cookie.get(f"/t/{token}").get_data(as_text=True)
    undo = re.search(r'action="[^"]*/undo[^"]*".*?name="csrf_token" value="([^"]+)"', html, re.S)
    assert undo and undo.group(1) == fields["csrf_token"]
    r = again.post(f"/t/{token}/adjust", data={"csrf_token": fields["csrf_token"],
                                               "kind": "fee", "amount": "20", "paid_by": "0"})
    assert r.status_code == 303
    assert [h["kind"] for h in _hands(app, token)] == ["hand", "adjustment"]


def test_forged_proofs_are_refused_and_write_nothing(app):
    client = _cookieless(app)
    token = _new_table(client)
    other = _new_table(client)
    fields = _fields(client, token)
    right = fields["csrf_token"]
    forged = {
        "missing": {k: v for k, v in fields.items() if k != "csrf_token"},
        "wrong": {**fields, "csrf_token": right[:-2] + ("AA" if right[-2:] != "AA" else "BB")},
        "other table's": {**fields, "csrf_token": _fields(client, other)["csrf_token"]},
        "the token itself": {**fields, "csrf_token": token},
        "a new-table token": {**fields, "csrf_token": csrf(client.get("/t/new").get_data(
            as_text=True))},
    }
    for why, data in forged.items():
        r = client.post(f"/t/{token}/hands", data={**data, **QUICK})
        assert r.status_code == 400, why
        assert "安全令牌" in r.get_data(as_text=True), why
    # the right proof from a page the browser marks cross-site: refused too
    r = client.post(f"/t/{token}/hands", data={**fields, **QUICK},
                    headers={"Sec-Fetch-Site": "cross-site"})
    assert r.status_code == 400
    assert _hands(app, token) == [] and _hands(app, other) == []
    # and the right one from the page itself records
    r = client.post(f"/t/{token}/hands", data={**fields, **QUICK},
                    headers={"Sec-Fetch-Site": "same-origin"})
    assert r.status_code == 303
    assert len(_hands(app, token)) == 1


def test_new_table_without_a_good_form_token_is_refused(app):
    client = _cookieless(app)
    data = {"variant": "zhengzhou", "base": "1", "dealer": "0", "form_variant": "zhengzhou"}
    for bad in (None, "x", form_proof_of(app, "A" * 22)):
        r = client.post("/t/new", data=data if bad is None else {**data, "csrf_token": bad})
        assert r.status_code == 400, bad
    good = csrf(client.get("/t/new").get_data(as_text=True))
    r = client.post("/t/new", data={**data, "csrf_token": good},
                    headers={"Sec-Fetch-Site": "cross-site"})
    assert r.status_code == 400


def test_a_revoked_or_replaced_token_is_refused_whatever_the_proof(app):
    client = _cookieless(app)
    token = _new_table(client)
    ledger = app.extensions["ledger"]
    _number, co = ledger.add_editor(token)
    co_fields = _fields(client, co)
    assert co_fields["csrf_token"] == form_proof_of(app, co)
    ledger.revoke_editor(token, 1)
    r = client.post(f"/t/{co}/hands", data={**co_fields, **QUICK})
    assert r.status_code == 404
    fields = _fields(client, token)
    rotated = ledger.rotate(token)
    r = client.post(f"/t/{token}/hands", data={**fields, **QUICK})
    assert r.status_code == 404
    assert _hands(app, rotated.edit_token) == []
    # the new link's page records, with its own proof
    r = client.post(f"/t/{rotated.edit_token}/hands",
                    data={**_fields(client, rotated.edit_token), **QUICK})
    assert r.status_code == 303
    assert len(_hands(app, rotated.edit_token)) == 1


def test_the_session_token_of_an_older_page_still_works(app):
    """A page rendered before the proofs posted Flask-WTF's session token: still good while
    the cookie is there. The circles' pages keep that token."""
    client = app.test_client()
    token = _new_table(client)
    fields = _fields(client, token)
    old = csrf(client.get("/c/new").get_data(as_text=True))     # the session's token
    assert not old.startswith(form_proof.PREFIX)
    r = client.post(f"/t/{token}/hands", data={**fields, "csrf_token": old, **QUICK})
    assert r.status_code == 303
    gone = _cookieless(app).post(f"/t/{token}/hands", data={**fields, "csrf_token": old,
                                                              "s_winner": "2"})
    assert gone.status_code == 400
    assert len(_hands(app, token)) == 1
