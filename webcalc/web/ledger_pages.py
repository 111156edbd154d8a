"""The table ledger's pages (牌桌记账): plain HTML forms that work without JavaScript;
htmx makes the entry live and static/js/ledger.js follows the table (one poll, ETag/304).

Routes (``<token>``: the edit or the view token, as in the JSON API):

* ``GET/POST /t/new`` — 新开一桌: variant, room options, base, four names, first dealer (POST
  with CSRF → 303 to the edit page). ``GET /t/new?variant=x`` shows that variant's options.
* ``GET /t/<token>`` — the table page: with the edit token the next hand's entry (the
  calculator's room bound to the table, :class:`.ledger_home.TableHome`: every calculator query parameter
  and tap works here), the adjustment form and the sharing block; with the view token the
  same totals and hands, and no way to write. ``?correct=n`` opens hand ``n`` in the entry.
* ``GET /t/<token>/live`` — the live region (totals, chart, settle-up, hands) in one answer;
  an ``If-None-Match`` that matches answers 304.
* ``POST /t/<edit>/hands`` (记入, 荒庄 with ``draw=1``), ``/hands/<n>`` (correct),
  ``/hands/<n>/void``, ``/adjust`` — every write a POST with a CSRF token; each answers 303
  to the table page, or the table page with the error under its input (422), the conflict
  (409), or the new result when the posted fields are not what the page showed (409).
* ``GET /t/send?table=<link>&<calculator query>`` — 记入牌桌 with a pasted link;
  ``GET /t/mine`` — 我的牌桌 (the phone's own list, kept in its localStorage).
* ``GET /t/<token>/chart.svg`` (pygal), ``/export.csv``, ``/export.json`` (in WeChat, whose
  browser saves no download, both answer a page: the evening as text and as its card;
  ``?raw=1`` the file), ``/qr.png`` (the view link's QR code; ``?link=edit``, the edit
  link's), ``/card.png`` (the evening card); ``POST /t/import``.

The views live in modules with one job each; this module is the blueprint, its CSRF hook and
the URL map (the endpoints the templates' ``url_for`` names are the view functions' names):

* :mod:`.ledger_new` — 新开一桌 and import;
* :mod:`.ledger_table` — the table page, its live region, its outcomes, ``/send``, ``/mine``
  (the entry's room: :mod:`.ledger_home`, from the arguments of :mod:`.ledger_entry`; the
  outcomes: :mod:`.ledger_outcomes`; how entries read: :mod:`.ledger_view`; the table as
  loaded: :mod:`.ledger_load`);
* :mod:`.ledger_record` — 记入, corrections and the 荒庄 confirm;
* :mod:`.ledger_forms` — void, adjust, undo, co-scorers, links, settings;
* :mod:`.ledger_exports` — the QR code, the card, the chart, the CSV and JSON exports.

The service (:mod:`webcalc.ledger.service`) computes everything shown here. Every answer
under ``/t/`` is private (``Cache-Control: no-store``, ``X-Robots-Tag: noindex``,
``Referrer-Policy: no-referrer``): :mod:`webcalc.web.security` sets those headers.
"""

from __future__ import annotations

from flask import Blueprint, current_app, request

from . import (
    form_proof,
    ledger_exports,
    ledger_forms,
    ledger_new,
    ledger_record,
    ledger_table,
)

bp = Blueprint("ledger_pages", __name__, url_prefix="/t")

#: the URL map: (rule, view, methods); each endpoint is its view's name (``ledger_pages.table``)
ROUTES = (
    ("/new", ledger_new.new_table, ["GET", "POST"]),
    ("/import", ledger_new.import_table, ["POST"]),
    ("/mine", ledger_table.mine, ["GET"]),
    ("/send", ledger_table.send, ["GET"]),
    ("/<token>", ledger_table.table, ["GET"]),
    ("/<token>/outcomes", ledger_table.entry_outcomes, ["GET"]),
    ("/<token>/live", ledger_table.live, ["GET"]),
    ("/<token>/hands", ledger_record.record, ["POST"]),
    ("/<token>/hands/<int:number>", ledger_record.correct, ["POST"]),
    ("/<token>/draw", ledger_record.confirm_draw, ["POST"]),
    ("/<token>/hands/<int:number>/void", ledger_forms.void, ["POST"]),
    ("/<token>/adjust", ledger_forms.adjust, ["POST"]),
    ("/<token>/undo", ledger_forms.undo, ["POST"]),
    ("/<token>/editors", ledger_forms.add_editor, ["POST"]),
    ("/<token>/editors/<int:number>/revoke", ledger_forms.revoke_editor, ["POST"]),
    ("/<token>/links", ledger_forms.replace_links, ["GET", "POST"]),
    ("/<token>/settings", ledger_forms.table_settings, ["POST"]),
    ("/<token>/qr.png", ledger_exports.qr, ["GET"]),
    ("/<token>/card.png", ledger_exports.card, ["GET"]),
    ("/<token>/chart.svg", ledger_exports.chart, ["GET"]),
    ("/<token>/export.json", ledger_exports.export_json_view, ["GET"]),
    ("/<token>/export.csv", ledger_exports.export_csv, ["GET"]),
)
for _rule, _view, _methods in ROUTES:
    bp.add_url_rule(_rule, view_func=_view, methods=_methods)


@bp.before_request
def _prove() -> None:
    """CSRF for every POST under ``/t/``: a form on a token URL proves itself with the table
    proof of that token, 新开一桌 and import with a signed form token, neither needing the
    session cookie (:mod:`webcalc.web.form_proof`); anything else, Flask-WTF's session
    token (a page rendered before the proofs)."""
    csrf = current_app.extensions["csrf"]           # Flask-WTF's CSRFProtect (app.py)
    config = current_app.config
    if request.method not in config["WTF_CSRF_METHODS"] or not config["WTF_CSRF_ENABLED"]:
        return
    token = (request.view_args or {}).get("token")
    if form_proof.proven(token, new_table=request.endpoint in (
            "ledger_pages.new_table", "ledger_pages.import_table")):
        return
    csrf.protect()


@bp.context_processor
def _form_token() -> dict:
    """``csrf_token()`` in this blueprint's pages: the table proof of the URL's token, or the
    signed form token of a page without one."""
    token = (request.view_args or {}).get("token")
    return {"csrf_token": lambda: form_proof.form_token(token)}
