"""The table's forms outside the entry: void, adjust, undo (撤销), the co-scorers' links
(add, revoke), 换链接 and the table's settings (API.md "Table ledger, round two";
docs/LEDGER.md "Pages"). Every write is a POST form with a CSRF token; each answers 303 to
the table page or the page with the error (:func:`_write`).
"""

from __future__ import annotations

from typing import Any

from flask import make_response, redirect, render_template, request, url_for
from flask_babel import gettext as _

from ..errors import InputError
from ..ledger import BadKey, IdempotencyConflict, LedgerError
from .htmx import add_vary
from .i18n import lang_param, localized
from .ledger_free import table_url
from .ledger_load import STATUS, error_text, key_refused_text, ledger, load_table
from .ledger_table import edit_only, not_editable, table_page


def _write(token: str, work):
    """Run a write of a form outside the entry (void, adjustment); 303 to the table page, or
    the page with the error."""
    t = load_table(token)
    if t["access"] != "edit":
        return not_editable(token, t)
    try:
        anchor = work(t)
    except InputError as err:
        return table_page(token, load_table(token), status=422, message=localized(err.message))
    except LedgerError as err:
        return table_page(token, load_table(token), status=STATUS.get(type(err), 400),
                          message=error_text(err))
    return redirect(table_url(token, t["variant"], lang=lang_param()) + f"#{anchor}", 303)


# POST /t/<token>/hands/<int:number>/void
def void(token: str, number: int):
    def work(t):
        ledger().void(token, number, request.form.get("reason", ""))
        return f"hand-{number}"
    return _write(token, work)


#: the adjustment form's boxes, and the box each of the ledger's fields is about
ADJUST_BOXES = ("kind", "amount", "paid_by", "from", "to", "note")
_ADJUST_FIELD_BOX = {"adjustment.fee": "amount", "adjustment.payments[0].amount": "amount",
                     "adjustment.paid_by": "paid_by", "adjustment.payments[0]": "to",
                     "adjustment.payments[0].from": "from", "adjustment.payments[0].to": "to",
                     "adjustment.note": "note"}


# POST /t/<token>/adjust
def adjust(token: str):
    """An adjustment; a refused one is the page again (422) with the error at its top and
    under the box it is about, and the form as typed (``adjust_form``: ``values``,
    ``errors``)."""
    f = request.form
    t = load_table(token)
    if t["access"] != "edit":
        return not_editable(token, t)
    try:
        anchor = _adjust(token, f)
    except InputError as err:
        box = _ADJUST_FIELD_BOX.get(err.field or "")
        form = {"values": _typed(f), "errors": {box: localized(err.message)} if box else {}}
        return table_page(token, load_table(token), status=422, adjust_form=form,
                          message=localized(err.message))
    except (IdempotencyConflict, BadKey) as err:
        # a page kept from before (the back button) posting another adjustment under a key
        # that recorded one: nothing recorded, what was typed kept under the page's fresh key
        return table_page(token, load_table(token), status=STATUS[type(err)],
                          adjust_form={"values": _typed(f), "errors": {}},
                          message=key_refused_text(err))
    except LedgerError as err:
        return table_page(token, load_table(token), status=STATUS.get(type(err), 400),
                          message=error_text(err))
    return redirect(table_url(token, t["variant"], lang=lang_param()) + f"#{anchor}", 303)


def _typed(f) -> dict:
    """The adjustment's boxes as typed, each cut to 400 characters."""
    return {k: (f.get(k) or "")[:400] for k in ADJUST_BOXES}


def _adjust(token: str, f) -> str:
    """Record the posted adjustment; the anchor of its entry on the page."""
    amount_text = (f.get("amount") or "").strip()
    try:
        amount = int(amount_text) if amount_text.isdigit() else float(amount_text)
    except ValueError:
        raise InputError("bad_request", _("Amount: write a positive number, such as 20."),
                         "adjustment.fee") from None
    note = (f.get("note") or "").strip()
    adj: dict[str, Any]
    if f.get("kind") == "fee":
        adj = {"fee": amount, "paid_by": f.get("paid_by", type=int), "note": note}
    else:
        adj = {"payments": [{"from": f.get("from", type=int), "to": f.get("to", type=int),
                             "amount": amount}], "note": note}
    rec = ledger().record(token, {"adjustment": adj,
                                  "idempotency_key": f.get("idempotency_key") or None,
                                  "expected_number": f.get("expected_number", type=int)})
    return f"hand-{rec.hand['number']}"


# POST /t/<token>/undo
def undo(token: str):
    """撤销: the last counted entry, once (a second tap is a 409 that changes nothing)."""
    def work(t, *_):
        number = request.form.get("number", type=int)
        ledger().undo(token, number)
        return f"hand-{number}"
    return _write(token, work)


# POST /t/<token>/editors
def add_editor(token: str):
    """A co-scorer's edit link (the creator's page only), shown once with its QR code."""
    t, refused = edit_only(token)
    if refused is not None:
        return refused
    try:
        number, edit = ledger().add_editor(token)
    except LedgerError as err:
        return table_page(token, t, status=STATUS.get(type(err), 400), message=error_text(err))
    link = url_for(".table", token=edit, _external=True)
    html = render_template("ledger_link.html", table=t, token=token, number=number, link=link,
                           qr_url=url_for(".qr", token=edit, link="edit"))
    return add_vary(make_response(html, 201))


# POST /t/<token>/editors/<int:number>/revoke
def revoke_editor(token: str, number: int):
    """收回 a co-scorer's link (the creator's page). The view link their page showed still
    reads the table: with ``view=1`` (the form's checkbox, or the button the page shows after
    a revoke) it is replaced in the same step, the creator's own link kept (docs/LEDGER.md
    "Tokens"). 303 to the links, which say what the co-scorer can still read."""
    replace = request.form.get("view") == "1"

    def work(t, *_):
        ledger().revoke_editor(token, number, view=replace)
        return "links"
    resp = _write(token, work)
    if resp.status_code != 303:
        return resp
    args: dict[str, Any] = {"lang": lang_param(), "revoked": number}     # canonical order
    if replace:
        args["new_view"] = "1"
    return redirect(url_for(".table", token=token, **args) + "#links", 303)


# GET/POST /t/<token>/links
def replace_links(token: str):
    """换链接: GET asks to confirm; POST gives this link a new address (and, for the creator
    when asked, the view link too) and opens the page at it. The old ones answer 404."""
    t, refused = edit_only(token)
    if refused is not None:
        return refused
    owner = ledger().editor_of(token) == 0
    if request.method == "GET":
        html = render_template("ledger_links.html", table=t, token=token, owner=owner)
        return add_vary(make_response(html))
    try:
        rot = ledger().rotate(token, view=request.form.get("view") == "1")
    except LedgerError as err:
        return table_page(token, t, status=STATUS.get(type(err), 400), message=error_text(err))
    args: dict[str, Any] = {"lang": lang_param(),                        # canonical order
                            "rotated": "view" if rot.view_token else "edit"}
    return redirect(table_url(rot.edit_token, t["variant"], **args) + "#share", 303)


# POST /t/<token>/settings
def table_settings(token: str):
    """The table's settings: 跑/加钢 kept between hands or reset (``carry_bets``)."""
    def work(t, *_):
        ledger().settings(token, {"carry_bets": request.form.get("carry_bets")})
        return "links"
    return _write(token, work)
