"""The circles' pages (牌友圈): plain HTML forms that work without JavaScript.

Routes (``<token>``: the circle's edit or view token, as in the JSON API):

* ``GET/POST /c/new`` — 新建牌友圈: a name and the players, one per line (POST with CSRF → 303
  to the circle's page); the same page imports an exported circle (``POST /c/import``).
* ``GET /c/<token>`` — the circle's page: the standings, the evenings (date, variant, names,
  totals, a link to each table's view page), the view link and its QR code; with the edit
  token also "new evening with these four" (the last evening's seats and room, one tap) and
  "add a player".
* ``POST /c/<edit>/tables`` — a new table in the circle (→ 303 to the table's edit page);
  ``POST /c/<edit>/players`` — add a player (→ 303 back).
* ``GET /c/<token>/p/<id>`` — a player's page: their evenings, net over time (a server-made
  SVG chart, ``…/chart.svg``), wins by method, 点炮, the biggest hand; every figure links to
  the entries it counts (the table's view page at ``#hand-<n>``).
* ``GET /c/<token>/export.json`` (for import) and ``/export.csv`` (the standings; in
  WeChat, whose browser saves no download, both answer a page: the circle as text;
  ``?raw=1`` the file);
  ``/qr.png``, the view link's QR code.

Every figure comes from :meth:`webcalc.ledger.Ledger.circle` / ``circle_player`` (kept
per-seat rows; no hand is read). Every answer under ``/c/`` is private, as the tables'
(:mod:`webcalc.web.security`).
"""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import UTC, datetime
from typing import Any

from flask import (
    Blueprint,
    Flask,
    Response,
    abort,
    current_app,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import pgettext
from flask_wtf import FlaskForm
from wtforms import FileField, StringField, TextAreaField
from wtforms.validators import Optional

from ..analysis import VARIANT_LABELS
from ..errors import BadJsonError, InputError
from ..json_checks import reject_constant
from ..ledger import (
    FREE,
    POINTS,
    Busy,
    LedgerError,
    NotFound,
    RateLimited,
    ReadOnly,
    TooMany,
    is_free,
)
from ..ledger.circles import CIRCLE_NAME_MAX, PLAYER_NAME_MAX
from ..variants import DEFAULT_VARIANT
from ..variants.base import WIN_METHODS
from . import security, wechat
from .htmx import add_vary
from .i18n import lang_param, localized
from .ledger_shared import COLORS, csv_text, load_pygal, qr_response, text_width

bp = Blueprint("circle_pages", __name__, url_prefix="/c")

#: evenings the circle's page lists unless asked for all (``?evenings=all``): the latest, as a
#: phone shows them; the standings always count every evening (docs/decisions.md "Circles")
EVENINGS_SHOWN = 20
STATUS = {NotFound: 404, ReadOnly: 403, TooMany: 422, RateLimited: 429, Busy: 503}
IMPORT_MAX = security.CIRCLE_IMPORT_MAX


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)


def ledger():
    return current_app.extensions["ledger"]


class NewCircleForm(FlaskForm):
    name = StringField(_l("Circle name"))
    players = TextAreaField(_l("Players, one per line"), validators=[Optional()])


class ImportCircleForm(FlaskForm):
    file = FileField(_l("Exported JSON file"))
    text = TextAreaField(_l("…or paste the JSON"), validators=[Optional()])


class PlayerForm(FlaskForm):
    name = StringField(_l("Name"))


def _names(text: str) -> list[str]:
    """The players typed: one per line (commas and 、 also separate), blanks dropped."""
    return [n.strip() for n in re.split(r"[\n,，、]", text or "") if n.strip()]


def _error_text(err: Exception) -> str:
    return localized(getattr(err, "message", None) or str(err))


def _page(template: str, status: int = 200, **context):
    return add_vary(make_response(render_template(template, **context), status))


def _new_page(form, import_form, general=None, status=200):
    return _page("circle_new.html", status, form=form, import_form=import_form,
                 general=general, name_max=CIRCLE_NAME_MAX, player_max=PLAYER_NAME_MAX)


@bp.route("/new", methods=["GET", "POST"])
def new_circle():
    form = NewCircleForm(formdata=request.form if request.method == "POST" else None)
    if request.method == "GET":
        return _new_page(form, ImportCircleForm(formdata=None))
    general = None
    status = 422
    if form.validate():
        try:
            made = ledger().create_circle({"name": form.name.data or "",
                                           "players": _names(form.players.data)},
                                          address=request.remote_addr)
            return redirect(url_for(".circle", token=made.edit_token, new=1,
                                    lang=lang_param()), 303)
        except InputError as err:
            field = (err.field or "").split("[")[0]
            target = form.name if field == "name" else form.players
            target.errors = [_error_text(err)]
        except LedgerError as err:
            field = (getattr(err, "field", None) or "").split("[")[0]
            if field in ("name", "players"):    # a cap on a box (61 players): under it
                getattr(form, field).errors = [_error_text(err)]
            else:
                general = _error_text(err)
            status = STATUS.get(type(err), 400)
    return _new_page(form, ImportCircleForm(formdata=None), general, status)


@bp.post("/import")
def import_circle():
    form = ImportCircleForm()
    raw = b""
    upload = request.files.get("file")
    if upload is not None and upload.filename:
        raw = upload.read(IMPORT_MAX + 1)
    elif form.text.data:
        raw = form.text.data.encode("utf-8")
    try:
        if not raw:
            raise BadJsonError(_("Choose an exported JSON file or paste its text."))
        if len(raw) > IMPORT_MAX:
            abort(413)
        try:
            data = json.loads(raw.decode("utf-8-sig"), parse_constant=reject_constant)
        except (UnicodeDecodeError, ValueError, RecursionError):
            raise BadJsonError(_("This is not a JSON file exported from a circle.")) \
                from None
        made = ledger().import_circle(data, address=request.remote_addr, raw=raw)
        return redirect(url_for(".circle", token=made.edit_token, new=1, lang=lang_param()),
                        303)
    except (InputError, LedgerError) as err:
        general = _("Import failed: %(why)s", why=_error_text(err))
        status = STATUS.get(type(err), 422)
    return _new_page(NewCircleForm(formdata=None), form, general, status)


def _load(token: str) -> dict:
    try:
        return ledger().circle(token)
    except NotFound:
        abort(404)
    except Busy:
        abort(503)


def _day(iso: str | None) -> str:
    return (iso or "")[:10]


def _variant_label(name: str) -> str:
    from .templating import VARIANT_NAMES

    return str(VARIANT_NAMES.get(name) or localized(VARIANT_LABELS.get(name, name)))


def _last_four(c: dict) -> list[int]:
    """Who sits where in "new evening with these four": the last evening's seats, else the
    first four players."""
    if c["tables"]:
        return list(c["tables"][-1]["players"])
    return [p["id"] for p in c["players"][:4]]


def _circle_page(token: str, c: dict, *, status: int = 200, general: str | None = None,
                 player_form=None, seats=None, variant=None):

    edit = c["access"] == "edit"
    view_url = url_for(".circle", token=c["view_token"], _external=True)
    last = c["last_room"]
    names = {p["id"]: p["name"] for p in c["players"]}
    q: dict[str, Any] = {"lang": lang_param()} if lang_param() else {}
    # made once per page, not once per evening (a circle of 100 evenings: docs/LEDGER.md)
    player_urls = {p["id"]: url_for(".player", token=token, player=p["id"], **q)
                   for p in c["players"]}
    table_url = url_for("ledger_pages.table", token="TOKEN", **q)
    every = request.args.get("evenings") == "all"
    shown = c["tables"] if every else c["tables"][-EVENINGS_SHOWN:]
    evenings = [(t, table_url.replace("TOKEN", t["view_token"]) if t["view_token"] else None)
                for t in reversed(shown)]
    labels = {"evening": _("Evening %(n)s"), "hands": _("Hands: %(n)s"),
              "see": _("See the table")}
    # the rule sets, and last a table with none (自由记分)
    variant_labels = {v: _variant_label(v) for v in (*VARIANT_LABELS, FREE)}
    return _page("circle.html", status, circle=c, token=token, edit=edit,
                 player_urls=player_urls, evenings=evenings, labels=labels,
                 more=len(c["tables"]) - len(shown),
                 all_url=url_for(".circle", token=token, evenings="all", **q) + "#evenings",
                 variant_labels=variant_labels,
                 view_url=view_url, qr_url=url_for(".qr", token=c["view_token"]),
                 edit_url=url_for(".circle", token=token, _external=True) if edit else None,
                 general=general, player_form=player_form or PlayerForm(formdata=None),
                 seats=seats or _last_four(c), last=last, names=names,
                 variant=variant or (last["variant"] if last else DEFAULT_VARIANT),
                 variants=list(variant_labels.items()),
                 variant_label=_variant_label, day=_day, num=_num, new=request.args.get("new"),
                 name_max=PLAYER_NAME_MAX)


def _num(x) -> str:
    """An amount as the circle's pages show it: signed when positive (a net, a win)."""
    from ..settlement import fmt

    if x is None:
        return "—"
    return ("+" if x > 0 else "") + fmt(x)


@bp.get("/<token>")
def circle(token: str):
    return _circle_page(token, _load(token))


@bp.get("/<token>/qr.png")
def qr(token: str):
    """The circle's view link as a QR code PNG (WeChat's 识别图中二维码 reads images only),
    whichever link asks."""
    c = _load(token)
    return qr_response(url_for(".circle", token=c["view_token"], _external=True))


@bp.post("/<token>/players")
def add_player(token: str):
    c = _load(token)
    if c["access"] != "edit":
        abort(403)
    form = PlayerForm()
    if not form.validate():
        return _circle_page(token, c, status=400, player_form=form,
                            general=_("The form has expired; please submit it again."))
    try:
        ledger().add_player(token, {"name": form.name.data or ""})
    except InputError as err:
        form.name.errors = [_error_text(err)]
        return _circle_page(token, c, status=422, player_form=form)
    except LedgerError as err:
        form.name.errors = [_error_text(err)]
        return _circle_page(token, c, status=STATUS.get(type(err), 400), player_form=form)
    return redirect(url_for(".circle", token=token, lang=lang_param()) + "#players", 303)


@bp.post("/<token>/tables")
def new_evening(token: str):
    """A table in the circle with the seats posted (``p0``..``p3``, player ids) and the
    variant posted; when it is the last evening's variant, that evening's room options and
    base are kept (the "same again" of a regular group)."""
    c = _load(token)
    if c["access"] != "edit":
        abort(403)
    form = FlaskForm()
    if not form.validate():
        return _circle_page(token, c, status=400,
                            general=_("The form has expired; please submit it again."))
    seats = []
    for i in range(4):
        raw = request.form.get(f"p{i}", "")
        seats.append(int(raw) if raw.isdecimal() and len(raw) < 6 else raw)
    variant = request.form.get("variant", "")
    if variant not in VARIANT_LABELS and not is_free(variant):
        variant = DEFAULT_VARIANT
    spec = {"variant": variant, "circle": token, "players": seats}
    last = c["last_room"]
    if last is not None and last["variant"] == variant:
        spec["options"], spec["base"] = last["options"], last["base"]
    try:
        made = ledger().create_table(spec, address=request.remote_addr)
    except (InputError, LedgerError) as err:
        status = 422 if isinstance(err, InputError) else STATUS.get(type(err), 400)
        return _circle_page(token, c, status=status, general=_error_text(err),
                            seats=[s if isinstance(s, int) else 0 for s in seats],
                            variant=variant)
    return redirect(url_for("ledger_pages.table", token=made.edit_token, new=1,
                            lang=lang_param()), 303)


def _player(token: str, player: int) -> dict:
    try:
        return ledger().circle_player(token, player)
    except NotFound:
        abort(404)
    except Busy:
        abort(503)


@bp.get("/<token>/p/<int:player>")
def player(token: str, player: int):
    p = _player(token, player)
    labels = _method_labels()
    methods = [(labels.get(w, w), p["by_method"][w], w) for w in (*WIN_METHODS, POINTS)
               if w in p["by_method"]]
    return _page("circle_player.html", p=p, token=token, methods=methods, day=_day, num=_num,
                 variant_label=_variant_label, method_label=lambda w: labels.get(w, w))


def _method_labels() -> dict[str, str]:
    """How a player won, as their page says it: the winner's side (the engine's 点炮 names
    the discarder's, which this page counts apart as 点炮)."""
    return {"self_draw": _("Self-drawn"), "discard": _("Won on a discard"),
            "kong_replacement": _("Kong bloom"), "robbing_kong": _("Robbing a kong"),
            POINTS: _("Top amount of a free-scoring hand")}


@bp.get("/<token>/p/<int:player>/chart.svg")
def player_chart(token: str, player: int):
    """The player's net over their evenings, after each one (pygal, no script)."""
    from pygal.style import Style


    pygal = load_pygal()
    p = _player(token, player)
    style = Style(background="#ffffff", plot_background="#ffffff", colors=COLORS,
                  font_family='"Noto Sans CJK SC","Noto Sans SC",sans-serif',
                  label_font_size=12, major_label_font_size=12, legend_font_size=14,
                  value_font_size=11, tooltip_font_size=11, title_font_size=14)
    chart = pygal.Line(js=[], width=390, height=260, style=style, show_legend=False,
                       show_dots=True, dots_size=3, disable_xml_declaration=True,
                       x_title=_("Evening"), margin=8, x_label_rotation=0)
    chart.x_labels = ["0"] + [str(e["number"]) for e in p["evenings"]]
    chart.add(p["name"], [0.0] + [float(e["running"]) for e in p["evenings"]])
    svg = chart.render(is_unicode=True)
    svg = re.sub(r"<script\b.*?</script>", "", svg, flags=re.S)
    resp = Response(svg, mimetype="image/svg+xml")
    resp.headers["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'"
    resp.vary.add("Accept-Language")                 # its labels are in the reader's language
    return resp


def _filename(c: dict, ext: str) -> str:
    return f"webcalc-circle-{datetime.now(UTC).date().isoformat()}.{ext}"


def circle_text(c: dict) -> str:
    """The circle as plain text, in the reader's language (the export page WeChat gets): the
    standings (net, evenings, hands) and every evening with its day, variant and totals."""
    lines = [f"{c['name']} · {_('Circle (牌友圈)')}",
             _("Evenings: %(n)s", n=len(c["tables"])), "", _("Standings")]
    if c["standings"]:
        width = max(text_width(s["name"]) for s in c["standings"])
        nets = [_num(s["net"]) for s in c["standings"]]
        digits = max(len(x) for x in nets)
        for s, net in zip(c["standings"], nets):
            lines.append(f"  {s['name']}{' ' * (width - text_width(s['name']))}  {net:>{digits}}"
                         f"  · {_('Evenings: %(n)s', n=s['tables'])}"
                         f" · {_('Hands: %(n)s', n=s['hands'])}")
    lines += ["", _("Evenings")]
    if not c["tables"]:
        lines.append("  " + _("No evening yet."))
    for t in c["tables"]:
        lines.append(" · ".join((_("Evening %(n)s", n=t["number"]), _day(t["created_at"]),
                                 _variant_label(t["variant"]), _("Hands: %(n)s", n=t["hands"]))))
        lines.append("  " + "  ".join(f"{n} {_num(x)}"
                                      for n, x in zip(t["names"], t["totals"])))
    return "\n".join(lines) + "\n"


def _text_page(token: str, c: dict):
    """The export as WeChat gets it (its browser saves no download,
    :mod:`webcalc.web.wechat`): the circle as text to copy, with the files' own links."""
    q: dict[str, Any] = {"lang": lang_param()} if lang_param() else {}
    html = render_template(
        "export_text.html", heading=_("The circle as text"), subject=c["name"],
        text=circle_text(c), card_url=None,
        csv_url=url_for(".export_csv", token=token, raw=1, **q),
        csv_label=_("CSV (the standings)"),
        json_url=url_for(".export_json", token=token, raw=1, **q),
        json_label=_("JSON (the whole circle, for import)"),
        back_url=url_for(".circle", token=token, **q), back_label=_("Back to the circle"))
    return wechat.vary(add_vary(make_response(html)))


@bp.get("/<token>/export.json")
def export_json(token: str):
    c = _load(token)
    if wechat.in_wechat() and not request.args.get("raw"):
        return _text_page(token, c)
    body = json.dumps(ledger().export_circle(token), ensure_ascii=False, indent=1)
    resp = Response(body, mimetype="application/json")
    resp.headers["Content-Disposition"] = f'attachment; filename="{_filename(c, "json")}"'
    return wechat.vary(resp)


@bp.get("/<token>/export.csv")
def export_csv(token: str):
    """The standings as a spreadsheet (UTF-8 with a BOM), in the request's language; text
    cells never start a formula (:func:`webcalc.web.ledger_shared.csv_text`)."""
    from ..settlement import fmt

    c = _load(token)
    if wechat.in_wechat() and not request.args.get("raw"):
        return _text_page(token, c)
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\r\n")
    w.writerow([csv_text(x) for x in (
        pgettext("csv", "Player"), pgettext("csv", "Evenings"), pgettext("csv", "Hands"),
        pgettext("csv", "Wins"), pgettext("csv", "Self-draws"), pgettext("csv", "Dealt in"),
        pgettext("csv", "Net"), pgettext("csv", "Biggest win"))])
    for s in c["standings"]:
        w.writerow([csv_text(s["name"]), s["tables"], s["hands"], s["wins"], s["self_draws"],
                    s["dealt_in"], fmt(s["net"]),
                    "" if s["biggest_win"] is None else fmt(s["biggest_win"])])
    resp = Response("\ufeff" + out.getvalue(), mimetype="text/csv")
    resp.headers["Content-Disposition"] = f'attachment; filename="{_filename(c, "csv")}"'
    resp.vary.add("Accept-Language")
    return wechat.vary(resp)
