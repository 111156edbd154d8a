"""The table ledger's pages (牌桌记账, issue 12): plain HTML forms that work without JavaScript;
htmx only makes the hand list follow the table live (polling answered with ETag/304).

Routes (``<token>``: the edit or the view token, as in the JSON API):

* ``GET/POST /t/new`` — 新开一桌: variant, room options, base, four names, first dealer (POST
  with CSRF → 303 to the edit page). ``GET /t/new?variant=x`` shows that variant's options.
* ``GET /t/<token>`` — the table page: with the edit token the next hand's entry, the
  adjustment form and the sharing block; with the view token the same totals and hands, and
  no way to write. ``?correct=n`` opens hand ``n`` in the entry form (a correction).
* ``GET /t/<token>/live`` — the live part (totals, chart, settle-up, hands) for polling; an
  ``If-None-Match`` that matches answers 304.
* ``POST /t/<edit>/hands`` (record), ``/hands/<n>`` (correct), ``/hands/<n>/void``,
  ``/adjust`` — every write a POST form with a CSRF token; each answers 303 to the table page,
  or the table page with the error under its input (422) or the conflict (409).
* ``GET /t/<token>/chart.svg`` (pygal), ``/export.csv``, ``/export.json``; ``POST /t/import``.

The service (:mod:`webcalc.ledger.service`) computes everything shown here. Every answer
under ``/t/`` is private (``Cache-Control: no-store``, ``X-Robots-Tag: noindex``,
``Referrer-Policy: no-referrer``): :mod:`webcalc.web.security` sets those headers.
"""

from __future__ import annotations

import csv
import functools
import io
import json
import re
import secrets
import threading
from collections import OrderedDict
from datetime import datetime, timezone

from flask import (Blueprint, Response, abort, current_app, make_response, redirect,
                   render_template, request, url_for)
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import pgettext
from flask_wtf import FlaskForm
from markupsafe import Markup
from werkzeug.datastructures import MultiDict
from wtforms import FileField, SelectChoice, SelectField, StringField, TextAreaField
from wtforms.validators import Length, Optional

from ..analysis import VARIANT_LABELS
from ..errors import InputError
from ..ledger import (Busy, Conflict, LedgerError, NotFound, NotOwner, RateLimited, ReadOnly,
                      TableFull, Voided, table_in)
from ..notation import melds_to_text
from ..options import option_specs, parse_options
from ..messages import Message, seat
from ..settlement import kongs_of_melds
from ..variants import VARIANTS
from ..variants.base import Declarable
from .forms import TEXT_FIELDS, AnalyzeForm
from .htmx import add_vary
from .i18n import current_lang, localized
from . import security
from .api import _reject_constant
from .room import Room, read_page_room, read_room, win_methods
from .tap import apply_meld_sources

bp = Blueprint("ledger_pages", __name__, url_prefix="/t")

STATUS = {NotFound: 404, ReadOnly: 403, NotOwner: 403, Conflict: 409, Voided: 409,
          TableFull: 422, RateLimited: 429, Busy: 503}
IMPORT_MAX = security.IMPORT_MAX


def ledger():
    return current_app.extensions["ledger"]


# -- forms ------------------------------------------------------------------------------------

class NewTableForm(FlaskForm):
    """新开一桌 (the room options come from ``_options.html``, read by :func:`read_room`)."""

    variant = SelectField(_l("Variant"), choices=[])
    base = StringField(_l("Base points"), default="1", validators=[Length(max=20)])
    n0 = StringField(_l("East seat"), validators=[Optional(), Length(max=16)])
    n1 = StringField(_l("South seat"), validators=[Optional(), Length(max=16)])
    n2 = StringField(_l("West seat"), validators=[Optional(), Length(max=16)])
    n3 = StringField(_l("North seat"), validators=[Optional(), Length(max=16)])
    dealer = SelectField(_l("First dealer"), choices=[], default="0")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        from .templating import SEAT_LABELS, VARIANT_NAMES

        self.variant.choices = [SelectChoice(n, VARIANT_NAMES.get(n, label))
                                for n, label in VARIANT_LABELS.items()]
        if self.variant.data not in VARIANT_LABELS:
            self.variant.data = "zhengzhou"
        self.dealer.choices = [SelectChoice(str(i), SEAT_LABELS[i]) for i in range(4)]


class ImportForm(FlaskForm):
    file = FileField(_l("Exported JSON file"))
    text = TextAreaField(_l("…or paste the JSON"), validators=[Optional()])


def _error_text(err: Exception) -> str:
    """The error's message in the page's language."""
    return localized(getattr(err, "message", None) or str(err))


# -- new table --------------------------------------------------------------------------------

@bp.route("/new", methods=["GET", "POST"])
def new_table():
    data = request.form if request.method == "POST" else request.args
    form = NewTableForm(formdata=data if data else None)
    variant = form.variant.data
    room = read_room(data, variant)
    status = 200
    general = None
    if request.method == "POST" and form.validate():
        spec = {"variant": variant, "options": room.options_request(),
                # a seat left blank is named as its placeholder says, in the page's language
                "names": [(getattr(form, f"n{i}").data or "").strip() or localized(seat(i))
                          for i in range(4)],
                "dealer": int(form.dealer.data)}
        base = (form.base.data or "1").strip()
        try:
            spec["base"] = int(base) if re.fullmatch(r"\d{1,12}", base) else float(base)
        except ValueError:
            form.base.errors = [_("Base points should be a positive number, such as 1, 100 or "
                                  "0.5.")]
        if not form.base.errors and not any(o.error for o in room.options):
            try:
                made = ledger().create_table(spec, address=request.remote_addr)
                return redirect(url_for(".table", token=made.edit_token, new=1), 303)
            except InputError as err:
                field = (err.field or "").split(".")[0]
                if field == "base":
                    form.base.errors = [localized(err.message)]
                elif field == "names":
                    form.n0.errors = [localized(err.message)]
                elif not room.attach(err.field, localized(err.message)):
                    general = localized(err.message)
            except LedgerError as err:
                general = _error_text(err)
                status = STATUS.get(type(err), 400)
        status = status if status != 200 else 422
    elif request.method == "POST":
        status = 422
    html = render_template("ledger_new.html", form=form, room=room, general=general,
                           import_form=ImportForm(formdata=None),
                           variant_label=localized(dict(VARIANT_LABELS).get(variant, variant)))
    return add_vary(make_response(html, status))


@bp.post("/import")
def import_table():
    form = ImportForm()
    raw = b""
    upload = request.files.get("file")
    if upload is not None and upload.filename:
        raw = upload.read(IMPORT_MAX + 1)
    elif form.text.data:
        raw = form.text.data.encode("utf-8")
    general = None
    try:
        if not raw:
            raise InputError("bad_json", _("Choose an exported JSON file or paste its text."))
        try:
            data = json.loads(raw.decode("utf-8-sig"), parse_constant=_reject_constant)
        except (UnicodeDecodeError, ValueError, RecursionError):
            raise InputError("bad_json", _("This is not a JSON file exported from a table.")) \
                from None
        edit = import_json(data, request.remote_addr, raw)
        return redirect(url_for(".table", token=edit, new=1), 303)
    except (InputError, LedgerError) as err:
        general = _("Import failed: %(why)s", why=_error_text(err))
    nform = NewTableForm(formdata=None)
    room = read_room(MultiDict(), nform.variant.data)
    html = render_template("ledger_new.html", form=nform, room=room, general=general,
                           import_form=form, variant_label=localized(VARIANT_LABELS[nform.variant.data]))
    return make_response(html, 422)


def import_json(data, address: str | None, raw: bytes | None = None) -> str:
    """A new table from an export (:meth:`Ledger.import_table`); returns its edit token."""
    return ledger().import_table(data, address=address, raw=raw).edit_token


# -- the table page ---------------------------------------------------------------------------

def _load(token: str) -> dict:
    try:
        return table_in(ledger().table(token), current_lang())
    except NotFound:
        abort(404)
    except Busy:
        abort(503)


def _etag(table: dict | int) -> str:
    """The ETag of a table page part: the table's version and the page's language (an ETag
    belongs to one URL, so the token need not be in it)."""
    version = table if isinstance(table, int) else table["version"]
    return f"{version}-{current_lang()}"


def _prev_bets(table: dict) -> dict:
    """跑/加钢 of the last counted hand, offered again for the next one, unless the table
    says to reset them between hands (``T["carry_bets"]``)."""
    if table.get("carry_bets") == "reset":
        return {}
    for h in reversed(table["hands"]):
        if h["kind"] == "hand" and h["status"] == "recorded":
            s = h["request"].get("settlement") or {}
            return {"pao": s.get("pao"), "jiagang": s.get("jiagang")}
    return {}


#: the fields of the entry a visitor types (the rest, options, base and names, the table
#: decides): the calculator page's hand fields and 胡法, its settlement inputs (``s_*`` but
#: the base, the kong rows ``k_*``) and the kong list's remove button
_TYPED = TEXT_FIELDS + ("win_by", "remove_kong")


def _room_args(table: dict, data=None, prefill: dict | None = None, *,
               posted: bool = False) -> MultiDict:
    """The calculator page's arguments for this table's entry: its options, base and names,
    then ``prefill`` (the next hand's defaults or a hand being corrected), then what was
    typed (the hand's fields too: the room counts the winner's kongs from the melds). A
    ``posted`` form says so as the calculator's form does (``form_variant``): a checkbox it
    does not send is off."""
    args = MultiDict()
    specs = {s["name"]: s for s in localized(option_specs(VARIANTS[table["variant"]].Options))}
    for name, value in table["options"].items():
        if name in specs:
            args[f"opt_{name}"] = ("1" if value else "0") if isinstance(value, bool) else str(value)
    args["s_base"] = str(table["base"])
    for i, n in enumerate(table["names"]):
        args[f"n{i}"] = n
    if posted:
        args["form_variant"] = table["variant"]
    for k, v in (prefill or {}).items():
        args.setlist(k, v if isinstance(v, list) else [v])
    if data is not None:
        for k in data:
            if (k.startswith(("s_", "k_")) and k != "s_base") or k in _TYPED:
                args.setlist(k, data.getlist(k))
        if "k_seat" not in data:
            args.pop("k_seat", None)
    return args


def _prefill_next(table: dict) -> dict:
    out = {"s_dealer": str(table["dealer"])}
    bets = _prev_bets(table)
    for i in range(4):
        if bets.get("pao"):
            out[f"s_pao{i}"] = str(bets["pao"][i])
        if bets.get("jiagang") and bets["jiagang"][i]:
            out[f"s_jiagang{i}"] = "1"
    return out


def _prefill_hand(table: dict, h: dict) -> tuple[dict, dict]:
    """A recorded hand's request → (analysis form fields, room args). The winner's kongs
    that the melds give are the room's to add again (:attr:`Room.winner_kongs`), so they
    are left out of the kong list here: listed too, they would be an error (counted twice)."""
    req = h["request"]
    s = req.get("settlement") or {}
    fields = {k: req.get(k, "") for k in ("hand", "indicator", "winning_tile")}
    fields["win_by"] = req.get("win_by", "self_draw")
    try:
        fields["melds"] = melds_to_text(req.get("melds") or [])
    except InputError:
        fields["melds"] = ""
    args = {"s_dealer": str(s.get("dealer", h["dealer"])),
            "s_winner": "none" if s.get("winner") is None else str(s["winner"])}
    if s.get("discarder") is not None:
        args["s_discarder"] = str(s["discarder"])
        if s.get("ready") is not None:           # JC-5: the discarder's 上架, asked apart
            args["s_dready"] = "1" if s["ready"][s["discarder"]] else "0"
        else:
            args["s_dready"] = "1"
    for i in range(4):
        if s.get("pao"):
            args[f"s_pao{i}"] = str(s["pao"][i])
        if s.get("jiagang") and s["jiagang"][i]:
            args[f"s_jiagang{i}"] = "1"
        if s.get("ready") is not None:
            args[f"s_ready{i}"] = "1" if s["ready"][i] else "0"
    kongs = list(s.get("kongs") or [])
    if isinstance(s.get("winner"), int) and req.get("hand") and fields["melds"]:
        variant = VARIANTS[table["variant"]]
        try:
            options = parse_options(variant.Options, table["options"])
        except InputError:
            options = variant.Options()
        for k in reversed([k for k in kongs_of_melds(variant, options, req.get("melds") or [],
                                                     s["winner"], req.get("indicator"))
                           if k is not None]):
            for j in range(len(kongs) - 1, -1, -1):      # the page lists them last
                if kongs[j] == k:
                    del kongs[j]
                    break
    if kongs:
        args["s_kongs"] = ",".join(
            f"{k['seat']}:{k['type']}" + (f":{k['from']}" if k.get("from") is not None else "")
            for k in kongs)
    for key, name in (("biao_discards", "s_biao"),):
        if s.get(key):
            args[name] = str(s[key])
    for key, name in (("follow_dealer", "s_follow"), ("duanmen", "s_duanmen"),
                      ("kong_discard", "s_kong_discard")):
        if s.get(key):
            args[name] = "1"
    declared = req.get("declared") or {}
    for key, value in declared.items():
        if value:
            fields[f"d_{key}"] = list(value) if isinstance(value, list) else str(value)
    return fields, args


class _Unsettled(InputError):
    """The entry's room has inputs it cannot read (shown under them): nothing is recorded,
    as the calculator page computes no settlement then."""


#: the API's ``declared`` fields (API.md "Table ledger"); the variant says which it has
DECLARED_FIELDS = ("doubles", "fan", "biao")
DECLARED_MAX = 16                   # values read per field (盘锦 has 7 番 to declare)


class Entry:
    """The next hand's entry (or a correction): the calculator's form and room, fixed to the
    table's variant, options, base and names. The room is read as the calculator page reads
    its own (:func:`read_page_room`, from the same fields), so the same inputs give the same
    money; docs/decisions.md "The table's entry is the calculator's room"."""

    def __init__(self, table: dict, data=None, correcting: dict | None = None):
        self.table = table
        self.correcting = correcting
        prefill_fields, prefill_args = ({}, _prefill_next(table))
        if correcting is not None:
            prefill_fields, prefill_args = _prefill_hand(table, correcting)
        posted = data is not None
        if data is None:
            data = MultiDict()
            for k, v in prefill_fields.items():
                data.setlist(k, v if isinstance(v, list) else [v])
        elif "meld_src" in data:            # who supplied the winner's 明杠/补杠, as on /
            data = apply_meld_sources(data)
        self.draw = posted and bool(data.get("draw"))
        #: a kong row's remove button: the form is shown again, nothing recorded
        self.pending = posted and "remove_kong" in data
        args = _room_args(table, data, {} if posted and "s_dealer" in data else prefill_args,
                          posted=posted)
        if self.draw:                       # 荒庄 in one tap, whatever 胡牌者 showed
            args.setlist("s_winner", ["none"])
        fdata = MultiDict(data)
        fdata["variant"] = table["variant"]
        self.form = AnalyzeForm(fdata)
        self.form.set_variant(win_methods(table["variant"]))
        self.room: Room = read_page_room(args, table["variant"], self.form.win_by.data)
        self.declared_errors: list[str] = []
        self.general: str | None = None
        self.declared_values = {name: [v.strip() for v in data.getlist(f"d_{name}")
                                       if v.strip()][:DECLARED_MAX]
                                for name in DECLARED_FIELDS}
        self.key = data.get("idempotency_key") or secrets.token_urlsafe(12)
        self.expected = table["next_number"]
        self.revision = correcting["revision"] if correcting else None

    @property
    def allows_discard(self) -> bool:
        """The 点炮 seat is offered whenever the variant has a win on a discard (no script
        re-draws the form when 胡法 changes)."""
        return any(m in ("discard", "robbing_kong")
                   for m, _label in win_methods(self.table["variant"]))

    @functools.cached_property
    def declares(self) -> Declarable | None:
        """What a win without tiles may declare in this room (the variant says, from the
        table's options), or ``None``: then the entry offers no such input."""
        variant = VARIANTS[self.table["variant"]]
        try:
            return variant.declarable(parse_options(variant.Options, self.table["options"]))
        except InputError:                  # a stored room the engine no longer reads
            return None

    def declared_text(self, name: str) -> str:
        values = self.declared_values.get(name) or []
        return values[-1] if values else ""

    def body(self, draw: bool = False) -> dict:
        """The ledger request (API.md "Table ledger"): the calculator's request for the same
        fields (:meth:`AnalyzeForm.to_request`, less the variant the table decides) and its
        room's settlement. Raises InputError for a bad field."""
        f = self.form
        if self.room.errors:
            raise _Unsettled("bad_settlement", _("Nothing was recorded: correct the inputs "
                                                 "marked below."), "settlement")
        hand = (f.hand.data or "").strip()
        body: dict = {}
        if hand and not draw:
            body = f.to_request()
            del body["variant"]
        elif not draw:
            body["win_by"] = f.win_by.data or "self_draw"
        settlement = self.room.settlement_request()
        if settlement is None:
            raise InputError("bad_settlement", _("Choose the winner, or press 荒庄 for a drawn "
                                                 "game."), "settlement.winner")
        settlement.pop("base", None)
        body["settlement"] = settlement
        if not hand and not draw and settlement.get("winner") is not None:
            declared = self._declared()
            if declared:
                body["declared"] = declared
        return body

    def _declared(self) -> dict:
        """The declared factors as typed; one the room does not offer is passed on too, so
        the engine says why it does not count (never silently dropped)."""
        d = self.declares
        out: dict = {}
        for name, values in self.declared_values.items():
            if not values:
                continue
            if d is not None and name == d.field and not d.keys:        # a count (表)
                text = values[-1]
                if not re.fullmatch(r"\d{1,3}", text):
                    raise InputError("bad_settlement", _(
                        "%(name)s should be a whole number.", name=localized(d.label)),
                        f"declared.{name}")
                out[name] = int(text)
            else:
                out[name] = values
        return out

    def _relabel(self, message):
        """A declared error names the field by its key (the API's ``doubles``); the page
        names it as the reader does (加倍, 番, 表)."""
        d = self.declares
        if isinstance(message, Message) and d is not None and message.params.get("name") == d.field:
            return Message(message.code, {**message.params, "name": d.label}, message.rule)
        return message

    def attach(self, err: InputError) -> None:
        from .pages import _attach, _localized_error

        if isinstance(err, _Unsettled):     # each input's error is shown under it already
            self.general = localized(err.message)
            return
        field = err.field or ""
        if field.startswith("declared"):
            self.declared_errors.append(localized(self._relabel(err.message)))
            return
        err = _localized_error(err)           # under its input in the page's language
        if not (_attach(self.form, err) or self.room.attach(field, localized(err.message))):
            self.general = localized(err.message)


def _render_table(token: str, table: dict, *, entry: Entry | None = None, status: int = 200,
                  conflict: str | None = None, conflict_hand: int | None = None,
                  message: str | None = None):
    edit = table["access"] == "edit"
    if edit and entry is None:
        number = request.args.get("correct", type=int)
        h = next((x for x in table["hands"] if x["number"] == number), None)
        if h is not None and h["kind"] == "hand" and h["status"] == "recorded":
            entry = Entry(table, correcting=h)
        else:
            entry = Entry(table)
    view_token = _view_token(token) if edit else token
    view_url = url_for(".table", token=view_token, _external=True) if view_token else None
    html = render_template(
        "ledger_table.html", table=table, token=token, edit=edit, entry=entry,
        view_url=view_url,
        edit_url=url_for(".table", token=token, _external=True) if edit else None,
        qr=_qr(view_url) if view_url else None, links=_links(token) if edit else None,
        etag=_etag(table), conflict=conflict, conflict_hand=conflict_hand, message=message,
        new=bool(request.args.get("new")), rotated=request.args.get("rotated"),
        live_rest=None if conflict_hand is not None else _live_rest(table, token, edit),
        **_view_helpers(table))
    resp = make_response(html, status)
    return add_vary(resp)


def _view_helpers(table: dict) -> dict:
    from .templating import WIN_BY_LABELS

    names = table["names"]

    def who(seat):
        return names[seat] if isinstance(seat, int) and 0 <= seat < 4 else "—"

    def method(h):
        s = h["request"].get("settlement") or {}
        if h["kind"] == "adjustment":
            adj = h["request"]["adjustment"]
            if "fee" in adj:
                return _("Fee %(fee)s paid by %(who)s, split evenly",
                         fee=_num(adj["fee"]), who=who(adj["paid_by"]))
            return _("Penalty / transfer")
        if s.get("winner") is None:
            return _("荒庄 (drawn)")
        how = WIN_BY_LABELS.get(h["request"].get("win_by", "self_draw"), "")
        text = f"{who(s['winner'])} {how}"
        if s.get("discarder") is not None:
            text += " · " + _("%(who)s discarded", who=who(s["discarder"]))
        return text

    def rules(h):
        seen = []
        for p in h["settlement"]["payments"]:
            for r in re.findall(r"[A-Z]{1,3}-\d+", p.get("rule") or ""):
                if r not in seen:
                    seen.append(r)
        return seen

    return {"who": who, "method": method, "rules": rules, "num": _num,
            "chart_points": len([h for h in table["hands"] if h["status"] == "recorded"])}


#: a CSRF token's place in a cached hand list (stored text is printable: never a NUL)
_CSRF_SLOT = "\x00csrf-token\x00"
LIVE_CACHE_MAX = 16
_live_lock = threading.Lock()


def _live_rest(table: dict, token: str, edit: bool) -> Markup:
    """The hand list part of the table page (``_ledger_live.html``, part "rest"), rendered
    once per table version, token and language and kept (the last ``LIVE_CACHE_MAX`` per
    worker): a 200-hand table is drawn again only after a write. The void forms' CSRF token
    is per visitor, so it is put in after the cache."""
    from flask_wtf.csrf import generate_csrf

    key = (token, table["version"], current_lang(), edit)
    cache = current_app.extensions.setdefault("ledger_live_cache", OrderedDict())
    with _live_lock:
        html = cache.get(key)
        if html is not None:
            cache.move_to_end(key)
    if html is None:
        html = render_template("_ledger_live.html", table=table, token=token, edit=edit,
                               etag=_etag(table), conflict_hand=None, part="rest",
                               csrf_token=lambda: _CSRF_SLOT, **_view_helpers(table))
        with _live_lock:
            cache[key] = html
            while len(cache) > LIVE_CACHE_MAX:
                cache.popitem(last=False)
    if edit:
        html = html.replace(_CSRF_SLOT, generate_csrf())
    return Markup(html)


def _num(x) -> str:
    from ..settlement import fmt

    return fmt(x)


@functools.lru_cache(maxsize=256)
def _qr(url: str) -> Markup:
    """The view link as an inline SVG QR code (the same link always gives the same code, so
    a table's page draws it once per worker)."""
    import segno

    svg = segno.make(url, error="m").svg_inline(scale=4, border=2, dark="#000", light="#fff",
                                               omitsize=True)
    return Markup(svg.replace("<svg ", '<svg role="img" aria-label="QR" ', 1))


@bp.get("/<token>")
def table(token: str):
    return _render_table(token, _load(token))


@bp.get("/<token>/live")
def live(token: str):
    try:
        etag = _etag(ledger().version(token))        # one cheap query for the common 304
    except NotFound:
        abort(404)
    except Busy:
        abort(503)
    part = "top" if request.args.get("part") == "top" else "rest"
    if request.if_none_match.contains(etag):
        resp = current_app.response_class(status=304)
    else:
        t = _load(token)
        etag = _etag(t)
        edit = t["access"] == "edit"
        resp = make_response(_live_rest(t, token, edit) if part == "rest" else render_template(
            "_ledger_live.html", table=t, token=token, edit=edit,
            etag=etag, conflict_hand=None, part=part, **_view_helpers(t)))
    resp.set_etag(etag)
    return add_vary(resp)


def _write(token: str, work, entry_of=None):
    """Run a write; 303 to the table page, or the page with the error."""
    t = _load(token)
    if t["access"] != "edit":
        return _render_table(token, t, status=403,
                             message=_("This is the view link: it cannot change the table."))
    entry = entry_of(t) if entry_of else None
    if entry is not None and entry.pending:      # a kong row taken out: show the form again
        return _render_table(token, t, entry=entry)
    try:
        anchor = work(t, entry)
    except InputError as err:
        if entry is None:
            return _render_table(token, _load(token), status=422, message=localized(err.message))
        entry.attach(err)
        return _render_table(token, t, entry=entry, status=422)
    except Conflict as err:
        fresh = table_in(err.table, current_lang()) if err.table else _load(token)
        if entry is not None:
            data = MultiDict(request.form)
            data.pop("idempotency_key", None)
            entry = Entry(fresh, data, correcting=None if entry.correcting is None else next(
                (h for h in fresh["hands"] if h["number"] == entry.correcting["number"]), None))
        number = request.form.get("expected_number", type=int)
        return _render_table(token, fresh, entry=entry, status=409,
                             conflict=_error_text(err), conflict_hand=number)
    except LedgerError as err:
        return _render_table(token, _load(token), entry=entry,
                             status=STATUS.get(type(err), 400), message=_error_text(err))
    return redirect(url_for(".table", token=token) + (f"#{anchor}" if anchor else ""), 303)


@bp.post("/<token>/hands")
def record(token: str):
    def work(t, entry):
        body = entry.body(draw=entry.draw)
        body["idempotency_key"] = entry.key
        body["expected_number"] = request.form.get("expected_number", type=int)
        rec = ledger().record(token, body)
        return f"hand-{rec.hand['number']}"
    return _write(token, work, lambda t: Entry(t, request.form))


@bp.post("/<token>/hands/<int:number>")
def correct(token: str, number: int):
    def find(t):
        h = next((x for x in t["hands"] if x["number"] == number), None)
        if h is None:
            abort(404)
        return Entry(t, request.form, correcting=h)

    def work(t, entry):
        body = entry.body(draw=entry.draw)
        body["expected_revision"] = request.form.get("expected_revision", type=int)
        ledger().correct(token, number, body)
        return f"hand-{number}"
    return _write(token, work, find)


@bp.post("/<token>/hands/<int:number>/void")
def void(token: str, number: int):
    def work(t, _entry):
        ledger().void(token, number, request.form.get("reason", ""))
        return f"hand-{number}"
    return _write(token, work)


@bp.post("/<token>/adjust")
def adjust(token: str):
    def work(t, _entry):
        f = request.form
        amount_text = (f.get("amount") or "").strip()
        try:
            amount = int(amount_text) if amount_text.isdigit() else float(amount_text)
        except ValueError:
            raise InputError("bad_request", _("Amount: write a positive number, such as 20.")) \
                from None
        note = (f.get("note") or "").strip()
        if f.get("kind") == "fee":
            adj = {"fee": amount, "paid_by": f.get("paid_by", type=int), "note": note}
        else:
            adj = {"payments": [{"from": f.get("from", type=int), "to": f.get("to", type=int),
                                 "amount": amount}], "note": note}
        rec = ledger().record(token, {"adjustment": adj,
                                      "idempotency_key": f.get("idempotency_key") or None,
                                      "expected_number": f.get("expected_number", type=int)})
        return f"hand-{rec.hand['number']}"
    return _write(token, work)


# -- chart and exports ------------------------------------------------------------------------

COLORS = ("#c0392b", "#1f6fb2", "#2e8b57", "#8e44ad")


def _pygal():
    """pygal, without the import hook it adds for its map plugins: that ``sys.meta_path``
    finder has only the legacy ``find_module``, so every later import in the process warns
    (ImportWarning). We draw no maps."""
    import sys

    import pygal

    sys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ != "PluginImportFixer"]
    return pygal


@bp.get("/<token>/chart.svg")
def chart(token: str):
    """Each seat's running total over the counted entries (pygal, no script). Served as an
    image with its own CSP: an SVG image runs no script, and its ``<style>`` is its own."""
    pygal = _pygal()
    from pygal.style import Style

    t = _load(token)
    counted = [h for h in t["hands"] if h["status"] == "recorded"]
    style = Style(background="#ffffff", plot_background="#ffffff", colors=COLORS,
                  font_family='"Noto Sans CJK SC","Noto Sans SC",sans-serif',
                  label_font_size=12, major_label_font_size=12, legend_font_size=14,
                  value_font_size=11, tooltip_font_size=11, title_font_size=14)
    c = pygal.Line(js=[], width=390, height=300, style=style, legend_at_bottom=True,
                   legend_at_bottom_columns=4, show_dots=True, dots_size=2.5,
                   disable_xml_declaration=True, x_title=_("Hand number"), truncate_legend=-1,
                   margin=8)
    c.x_labels = ["0"] + [str(h["number"]) for h in counted]
    running = [0.0] * 4
    series = [[0.0] for _ in range(4)]
    for h in counted:
        for i, x in enumerate(h["settlement"]["net"]):
            running[i] += float(x)
            series[i].append(round(running[i], 10))
    for i, name in enumerate(t["names"]):
        c.add(name, series[i])
    svg = c.render(is_unicode=True)
    svg = re.sub(r"<script\b.*?</script>", "", svg, flags=re.S)
    resp = Response(svg, mimetype="image/svg+xml")
    resp.headers["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'"
    resp.set_etag(_etag(t))
    return resp.make_conditional(request)


def _filename(t: dict, ext: str) -> str:
    day = (t.get("created_at") or "")[:10] or datetime.now(timezone.utc).date().isoformat()
    return f"webcalc-table-{t['variant']}-{day}.{ext}"


@bp.get("/<token>/export.json")
def export_json_view(token: str):
    t = _load(token)
    body = json.dumps(ledger().export_table(token), ensure_ascii=False, indent=1)
    resp = Response(body, mimetype="application/json")
    resp.headers["Content-Disposition"] = f'attachment; filename="{_filename(t, "json")}"'
    return resp


def _csv_header() -> list[str]:
    """The CSV columns, in the export request's language (the file is read by people; a
    program reads the JSON export)."""
    return [pgettext("csv", "Hand"), pgettext("csv", "Kind"), pgettext("csv", "Status"),
            pgettext("csv", "Dealer"), pgettext("csv", "Winner"),
            pgettext("csv", "Win method"), pgettext("csv", "Tiles checked"),
            pgettext("csv", "From"), pgettext("csv", "To"), pgettext("csv", "Amount"),
            pgettext("csv", "Item"), pgettext("csv", "Detail"), pgettext("csv", "Rule"),
            pgettext("csv", "Recorded at")]


def _csv_items() -> dict[str, str]:
    """Each payment's item (API.md ``payments[].item``) in the export request's language."""
    return {"win": pgettext("csv item", "Win"), "kong": pgettext("csv item", "Kong"),
            "follow_dealer": pgettext("csv item", "Following the dealer (前包)"),
            "draw_penalty": pgettext("csv item", "Draw penalty (后包)"),
            "adjustment": pgettext("csv item", "Adjustment"),
            "fee": pgettext("csv item", "Table fee")}


def _csv_status(h: dict) -> str:
    if h["status"] == "recorded":
        return pgettext("csv status", "Counted")
    if h.get("void_code") == "undone":
        return pgettext("csv status", "Undone")
    return pgettext("csv status", "Voided")


#: what a spreadsheet (Excel, LibreOffice, Google Sheets) reads as the start of a formula
#: (``=``, ``+``, ``-``, ``@``) or strips before looking again (tab, CR, LF)
FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n")


def csv_text(value: str) -> str:
    """A text cell of the CSV export: one that a spreadsheet would run as a formula
    (``=HYPERLINK(…)``, ``+cmd|…``, ``@SUM(A1)``) gets a leading ``'``, so the cell shows the
    text as typed. Only text cells pass here (names, kinds, items, details, rules); the
    amounts and hand numbers are written as they are, so they stay numbers to sum
    (docs/decisions.md, "CSV export")."""
    return "'" + value if value.startswith(FORMULA_START) else value


@bp.get("/<token>/export.csv")
def export_csv(token: str):
    """The evening as a spreadsheet (UTF-8 with a BOM: Excel then reads the Chinese names
    right), in the request's language: a row for every entry, in order, with its status
    (counted, voided, undone): a counted entry's row per payment, or one row when it has
    none (a 荒庄 with no penalty); a voided or undone entry's one row, its reason in the
    detail and no amounts, as it counts no more. Then the seats with their totals, and the
    settle-up. Text cells never start a formula (:func:`csv_text`)."""
    t = _load(token)
    names = [csv_text(n) for n in t["names"]]
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\r\n")
    w.writerow([csv_text(c) for c in _csv_header()])
    from ..variants.base import WIN_METHOD_LABELS

    kinds = {"adjustment": pgettext("csv", "Adjustment"), "hand": pgettext("csv", "A hand")}
    items = _csv_items()
    drawn, yes, unchecked = (pgettext("csv", "Drawn game"), pgettext("csv", "Yes"),
                             pgettext("csv", "Not checked"))
    for h in t["hands"]:
        s = h["request"].get("settlement") or {}
        adjustment = h["kind"] == "adjustment"
        winner = ("" if adjustment else
                  drawn if s.get("winner") is None else names[s["winner"]])
        win_by = "" if adjustment or s.get("winner") is None else \
            localized(WIN_METHOD_LABELS.get(h["request"].get("win_by", "self_draw"), ""))
        verified = "" if adjustment else (yes if h["verified"] else unchecked)
        dealer = "" if adjustment else names[h["dealer"]]
        head = [h["number"], csv_text(kinds[h["kind"]]), csv_text(_csv_status(h)), dealer,
                winner, csv_text(win_by), csv_text(verified)]
        if h["status"] != "recorded":
            reason = "" if h.get("void_code") == "undone" else (h.get("void_reason") or "")
            w.writerow(head + ["", "", "", "", csv_text(reason), "", h["recorded_at"]])
            continue
        if not h["settlement"]["payments"]:
            note = h["request"].get("adjustment", {}).get("note", "") if adjustment else ""
            w.writerow(head + ["", "", "", "", csv_text(note), "", h["recorded_at"]])
        for p in h["settlement"]["payments"]:
            item = p.get("item") or ""
            w.writerow(head + [names[p["from"]], names[p["to"]], _num(p["amount"]),
                               csv_text(items.get(item, item)),
                               csv_text(p.get("detail") or ""), csv_text(p.get("rule") or ""),
                               h["recorded_at"]])
    w.writerow([])
    w.writerow([csv_text(pgettext("csv", "Seat"))] + names)
    w.writerow([csv_text(pgettext("csv", "Totals"))] + [_num(x) for x in t["totals"]])
    w.writerow([])
    w.writerow([csv_text(pgettext("csv", "Settle up")), csv_text(pgettext("csv", "From")),
                csv_text(pgettext("csv", "To")), csv_text(pgettext("csv", "Amount"))])
    for x in t["settle_up"]:
        w.writerow(["", names[x["from"]], names[x["to"]], _num(x["amount"])])
    # mimetype, not content_type: Werkzeug adds "; charset=utf-8" once
    resp = Response("\ufeff" + out.getvalue(), mimetype="text/csv")
    resp.headers["Content-Disposition"] = f'attachment; filename="{_filename(t, "csv")}"'
    resp.vary.add("Accept-Language")
    return resp


# -- round two: undo, the 荒庄 confirm, co-scorers, the links, the table's settings -------------
# (API.md "Table ledger, round two"; docs/LEDGER.md "Pages"). Every write is a POST form with
# a CSRF token; each answers 303 to the table page or the page with the error (``_write``).

def _page(token: str, table: dict, **kw):
    """The table page with a message (the one renderer of the entry's section)."""
    return _render_table(token, table, **kw)


def _view_token(token: str) -> str | None:
    """The view token the edit page shows (any editor's: docs/LEDGER.md "Tokens"); None when
    this co-scorer's link no longer knows it (the creator replaced the view link)."""
    try:
        return ledger().view_token(token)
    except (NotFound, ReadOnly):
        return None


def _links(token: str) -> dict:
    """What the links block of the edit page shows: whose link this is, and for the creator
    the co-scorers' links (numbers and dates: the links themselves are not kept)."""
    editor = ledger().editor_of(token)
    return {"editor": editor, "owner": editor == 0,
            "editors": ledger().editors(token)[1:] if editor == 0 else []}


def _edit_only(token: str):
    """The table (edit token), or the answer for the view token (403) or an unknown one."""
    t = _load(token)
    if t["access"] != "edit":
        return t, _page(token, t, status=403,
                        message=_("This is the view link: it cannot change the table."))
    return t, None


@bp.post("/<token>/undo")
def undo(token: str):
    """撤销: the last counted entry, once (a second tap is a 409 that changes nothing)."""
    def work(t, *_):
        number = request.form.get("number", type=int)
        ledger().undo(token, number)
        return f"hand-{number}"
    return _write(token, work)


@bp.post("/<token>/draw")
def confirm_draw(token: str):
    """荒庄 in one tap and a confirm: the entry's 荒庄 button posts the entry here, and this
    page posts it on to the record (``.record`` with ``draw=1``), nothing written before."""
    t, refused = _edit_only(token)
    if refused is not None:
        return refused
    kept = [(k, v) for k, v in request.form.items(multi=True)
            if k not in ("csrf_token", "draw")]
    pao = []
    for i, name in enumerate(t["names"]):
        value = (request.form.get(f"s_pao{i}") or "").strip()
        if value not in ("", "0"):
            pao.append(f"{name} {value}")
    html = render_template("ledger_draw.html", table=t, token=token, kept=kept, pao=pao,
                           action=url_for(".record", token=token, **request.args.to_dict()),
                           dealer=t["names"][t["dealer"]])
    return add_vary(make_response(html))


@bp.post("/<token>/editors")
def add_editor(token: str):
    """A co-scorer's edit link (the creator's page only), shown once with its QR code."""
    t, refused = _edit_only(token)
    if refused is not None:
        return refused
    try:
        number, edit = ledger().add_editor(token)
    except LedgerError as err:
        return _page(token, t, status=STATUS.get(type(err), 400), message=_error_text(err))
    link = url_for(".table", token=edit, _external=True)
    html = render_template("ledger_link.html", table=t, token=token, number=number, link=link,
                           qr=_qr(link))
    return add_vary(make_response(html, 201))


@bp.post("/<token>/editors/<int:number>/revoke")
def revoke_editor(token: str, number: int):
    def work(t, *_):
        ledger().revoke_editor(token, number)
        return "links"
    return _write(token, work)


@bp.route("/<token>/links", methods=["GET", "POST"])
def replace_links(token: str):
    """换链接: GET asks to confirm; POST gives this link a new address (and, for the creator
    when asked, the view link too) and opens the page at it. The old ones answer 404."""
    t, refused = _edit_only(token)
    if refused is not None:
        return refused
    owner = ledger().editor_of(token) == 0
    if request.method == "GET":
        html = render_template("ledger_links.html", table=t, token=token, owner=owner)
        return add_vary(make_response(html))
    try:
        rot = ledger().rotate(token, view=request.form.get("view") == "1")
    except LedgerError as err:
        return _page(token, t, status=STATUS.get(type(err), 400), message=_error_text(err))
    args = {"rotated": "view" if rot.view_token else "edit"}
    return redirect(url_for(".table", token=rot.edit_token, **args) + "#share", 303)


@bp.post("/<token>/settings")
def table_settings(token: str):
    """The table's settings: 跑/加钢 kept between hands or reset (``carry_bets``)."""
    def work(t, *_):
        ledger().settings(token, {"carry_bets": request.form.get("carry_bets")})
        return "links"
    return _write(token, work)
