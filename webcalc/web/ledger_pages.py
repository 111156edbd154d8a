"""The table ledger's pages (牌桌记账): plain HTML forms that work without JavaScript;
htmx makes the entry live and static/js/ledger.js follows the table (one poll, ETag/304).

Routes (``<token>``: the edit or the view token, as in the JSON API):

* ``GET/POST /t/new`` — 新开一桌: variant, room options, base, four names, first dealer (POST
  with CSRF → 303 to the edit page). ``GET /t/new?variant=x`` shows that variant's options.
* ``GET /t/<token>`` — the table page: with the edit token the next hand's entry (the
  calculator's room bound to the table, :class:`TableHome`: every calculator query parameter
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
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlencode

from flask import (
    Blueprint,
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
from markupsafe import Markup
from werkzeug.datastructures import MultiDict
from wtforms import FileField, SelectChoice, SelectField, StringField, TextAreaField
from wtforms.validators import Length, Optional

from ..analysis import VARIANT_LABELS
from ..errors import InputError
from ..json_checks import reject_constant
from ..ledger import (
    FREE,
    POINTS,
    BadKey,
    Busy,
    Conflict,
    IdempotencyConflict,
    LedgerError,
    NotFound,
    NotOwner,
    RateLimited,
    ReadOnly,
    TableFull,
    Voided,
    is_free,
    table_in,
)
from ..messages import Message, seat
from ..notation import melds_to_text
from ..options import option_specs, parse_options
from ..settlement import kongs_of_melds
from ..variants import DEFAULT_VARIANT, VARIANTS
from ..variants.base import Declarable
from . import form_proof, ledger_free, security, tap, wechat
from .forms import TEXT_FIELDS, attach_error
from .htmx import add_vary, wants_fragment
from .i18n import VARIANT_NAMES, current_lang, lang_param, localized, localized_error
from .ledger_shared import (
    COLORS,
    csv_text,
    load_pygal,
    qr_png,
    qr_response,
    table_etag,
    text_width,
)
from .room import Room, win_methods
from .room_page import Home, analyse, needs_redirect, read_room_state, render_room
from .room_url import read_page_room, read_room
from .turns import history_text

bp = Blueprint("ledger_pages", __name__, url_prefix="/t")

STATUS = {NotFound: 404, ReadOnly: 403, NotOwner: 403, Conflict: 409, Voided: 409,
          IdempotencyConflict: 409, TableFull: 422, BadKey: 422, RateLimited: 429, Busy: 503}
IMPORT_MAX = security.IMPORT_MAX


def ledger():
    return current_app.extensions["ledger"]


# -- forms ------------------------------------------------------------------------------------

class NewTableForm(FlaskForm):
    """新开一桌 (the room options come from ``_options.html``, read by :func:`read_room`)."""

    class Meta:
        csrf = False    # the blueprint's hook checks the form (:func:`_prove`)

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
        # a table with no rule set: four amounts a hand (any four-player game)
        self.variant.choices.append(SelectChoice(FREE, VARIANT_NAMES[FREE]))
        if self.variant.data not in VARIANT_LABELS and not is_free(self.variant.data):
            self.variant.data = DEFAULT_VARIANT
        self.dealer.choices = [SelectChoice(str(i), SEAT_LABELS[i]) for i in range(4)]


class ImportForm(FlaskForm):
    class Meta:
        csrf = False    # the blueprint's hook checks the form (:func:`_prove`)

    file = FileField(_l("Exported JSON file"))
    text = TextAreaField(_l("…or paste the JSON"), validators=[Optional()])


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


def _error_text(err: Exception) -> str:
    """The error's message in the page's language."""
    return localized(getattr(err, "message", None) or str(err))


# -- new table --------------------------------------------------------------------------------

@bp.route("/new", methods=["GET", "POST"])
def new_table():
    data = request.form if request.method == "POST" else request.args
    form = NewTableForm(formdata=data if data else None)
    variant = form.variant.data
    free = is_free(variant)
    room = None if free else read_room(data, variant)
    status = 200
    general = None
    if request.method == "POST" and form.validate():
        spec = {"variant": variant, "options": None if room is None else room.options_request(),
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
        if free:                            # no rule set: no base, no options
            spec.pop("base")
            form.base.errors = []
        if not form.base.errors and not (room is not None and any(o.error for o in room.options)):
            try:
                made = ledger().create_table(spec, address=request.remote_addr)
                return redirect(url_for(".table", token=made.edit_token, new=1), 303)
            except InputError as err:
                field = (err.field or "").split(".")[0]
                if field == "base":
                    form.base.errors = [localized(err.message)]
                elif field == "names":
                    form.n0.errors = [localized(err.message)]
                elif room is None or not room.attach(err.field, localized(err.message)):
                    general = localized(err.message)
            except LedgerError as err:
                general = _error_text(err)
                status = STATUS.get(type(err), 400)
        status = status if status != 200 else 422
    elif request.method == "POST":
        status = 422
    html = render_template("ledger_new.html", form=form, room=room, general=general,
                           import_form=ImportForm(formdata=None),
                           free=free, variant_label=VARIANT_NAMES.get(variant, variant))
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
            data = json.loads(raw.decode("utf-8-sig"), parse_constant=reject_constant)
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

#: tables kept per worker (by token, version and language): a tap on the table's entry reads
#: the table's version (one small query) and, while nobody wrote, not the whole table again
TABLE_CACHE_MAX = 8
_tables: OrderedDict = OrderedDict()
_tables_lock = threading.Lock()


def _load(token: str) -> dict:
    """The table in the page's language (read only: it may be shared with other requests)."""
    return _load_probed(token)[0]


def _load_probed(token: str) -> tuple[dict, int | None]:
    """:func:`_load`'s table and the editor the token is (None: the view link), which its
    version's query gives too."""
    try:
        version, editor = ledger().probe(token)
        key = (token, version, current_lang())
        with _tables_lock:
            t = _tables.get(key)
            if t is not None:
                _tables.move_to_end(key)
                return t, editor
        t = table_in(ledger().table(token), current_lang())
    except NotFound:
        abort(404)
    except Busy:
        abort(503)
    with _tables_lock:
        _tables[(token, t["version"], current_lang())] = t
        while len(_tables) > TABLE_CACHE_MAX:
            _tables.popitem(last=False)
    return t, editor


def _etag(table: dict | int, editor: int | None) -> str:
    """The ETag of a table page part: the table's version, the link's rights and the page's
    language (:func:`~webcalc.web.ledger_shared.table_etag`)."""
    version = table if isinstance(table, int) else table["version"]
    return table_etag(version, editor, current_lang())


@dataclass(frozen=True)
class Bets:
    """跑 and 加钢 of the four seats."""

    pao: tuple[int, ...] = (0, 0, 0, 0)
    jiagang: tuple[bool, ...] = (False, False, False, False)

    def __bool__(self) -> bool:
        return any(self.pao) or any(self.jiagang)


def carried_bets(table: dict) -> Bets | None:
    """The bets the next hand's entry starts with: the one place that decides. Now: those of
    the last counted hand (an adjustment or a voided hand does not reset them), kept until
    changed; when the table says to reset them between hands (``T["carry_bets"]`` is
    ``"reset"``) ``None``. The entry shows them as 同上一手 with one tap to clear
    (docs/decisions.md "Carried bets")."""
    if table.get("carry_bets") == "reset":
        return None
    for h in reversed(table["hands"]):
        if h["kind"] == "hand" and h["status"] == "recorded":
            s = h["request"].get("settlement") or {}
            bets = Bets(tuple(int(x) for x in (s.get("pao") or [0] * 4)),
                        tuple(bool(x) for x in (s.get("jiagang") or [False] * 4)))
            return bets or None
    return None


def _prefill_hand(table: dict, h: dict) -> tuple[dict, dict]:
    """A recorded hand's request → (analysis form fields, room args). The winner's kongs
    that the melds give are the room's to add again (:attr:`Room.winner_kongs`), so they
    are left out of the kong list here: listed too, they would be an error (counted twice)."""
    req = h["request"]
    s = req.get("settlement") or {}
    fields = _prefill_fields(req)
    args = {"s_dealer": str(s.get("dealer", h["dealer"])),
            "s_winner": "none" if s.get("winner") is None else str(s["winner"])}
    args.update(_discarder_args(s))
    args.update(_seat_args(s))
    kongs = list(s.get("kongs") or [])
    if isinstance(s.get("winner"), int) and req.get("hand") and fields["melds"]:
        kongs = _without_winner_kongs(table, req, s["winner"], kongs)
    if kongs:
        args["s_kongs"] = _kongs_text(kongs)
    args.update(_flag_args(s))
    declared = req.get("declared") or {}
    for key, value in declared.items():
        if value:
            fields[f"d_{key}"] = list(value) if isinstance(value, list) else str(value)
    return fields, args


def _prefill_fields(req: dict) -> dict:
    """The analysis form's tile fields of a recorded request (melds it cannot print: none)."""
    fields = {k: req.get(k, "") for k in ("hand", "indicator", "winning_tile")}
    fields["win_by"] = req.get("win_by", "self_draw")
    if req.get("history"):
        fields["history"] = history_text(req["history"])
    try:
        fields["melds"] = melds_to_text(req.get("melds") or [])
    except InputError:
        fields["melds"] = ""
    return fields


def _discarder_args(s: dict) -> dict[str, str]:
    """The discarder and their 上架 (JC-5: asked apart; ready unless the record says)."""
    if s.get("discarder") is None:
        return {}
    ready = "1" if s.get("ready") is None or s["ready"][s["discarder"]] else "0"
    return {"s_discarder": str(s["discarder"]), "s_dready": ready}


def _seat_args(s: dict) -> dict[str, str]:
    """Each seat's 跑, 加钢 and 上架 as the settlement recorded them, seat by seat."""
    args = {}
    for i in range(4):
        if s.get("pao"):
            args[f"s_pao{i}"] = str(s["pao"][i])
        if s.get("jiagang") and s["jiagang"][i]:
            args[f"s_jiagang{i}"] = "1"
        if s.get("ready") is not None:
            args[f"s_ready{i}"] = "1" if s["ready"][i] else "0"
    return args


def _without_winner_kongs(table: dict, req: dict, winner: int, kongs: list) -> list:
    """``kongs`` less the winner's kongs that the melds give (the last listed of each)."""
    variant = VARIANTS[table["variant"]]
    try:
        options = parse_options(variant.Options, table["options"])
    except InputError:
        options = variant.Options()
    kongs = list(kongs)
    for k in reversed([k for k in kongs_of_melds(variant, options, req.get("melds") or [],
                                                 winner, req.get("indicator"))
                       if k is not None]):
        for j in range(len(kongs) - 1, -1, -1):      # the page lists them last
            if kongs[j] == k:
                del kongs[j]
                break
    return kongs


def _kongs_text(kongs: list) -> str:
    """The room's kong list as the ``s_kongs`` field writes it: ``seat:type[:from],…``."""
    return ",".join(
        f"{k['seat']}:{k['type']}" + (f":{k['from']}" if k.get("from") is not None else "")
        for k in kongs)


#: the settlement's yes/no inputs and the room's fields for them
_FLAGS = (("follow_dealer", "s_follow"), ("duanmen", "s_duanmen"),
                    ("kong_discard", "s_kong_discard"))


def _flag_args(s: dict) -> dict[str, str]:
    """The count of 表 discards and the yes/no inputs the settlement has set."""
    args = {}
    if s.get("biao_discards"):
        args["s_biao"] = str(s["biao_discards"])
    for key, name in _FLAGS:
        if s.get(key):
            args[name] = "1"
    return args


class _Unsettled(InputError):
    """The entry's room has inputs it cannot read (shown under them): nothing is recorded,
    as the calculator page computes no settlement then."""


#: the API's ``declared`` fields (API.md "Table ledger"); the variant says which it has
DECLARED_FIELDS = ("doubles", "fan", "biao")
DECLARED_MAX = 16                   # values read per field (盘锦 has 7 番 to declare)


#: the room's inputs a table decides (the URL and the form never set them there)
_NAMES = ("n0", "n1", "n2", "n3")
_BETS = tuple(f"s_pao{i}" for i in range(4)) + tuple(f"s_jiagang{i}" for i in range(4))
#: fields of a hand's tiles: a drawn game in one tap records none of them
_TILE_KEYS = TEXT_FIELDS + ("win_by",)
#: the record's own fields (in the form's action, or in the body as older pages sent them)
_CONTROL = ("csrf_token", "idempotency_key", "expected_number", "expected_revision", "draw",
            "shown")


def _fixed_key(key: str, variant: str | None = None, value: str | None = None) -> bool:
    """A room argument the table decides: the variant and its marker (unless it is the
    table's own), the options, the base, the names and the dealer."""
    if key == "form_variant":
        return value != variant
    return key in ("variant", "s_base", "s_dealer") or key in _NAMES or key.startswith("opt_")


def _entry_key(key: str) -> bool:
    """An argument of the entry's own state (a hand being typed, a seat chosen …)."""
    return (key in _TILE_KEYS or key.startswith(("s_", "k_", "d_")) or key in tap.ACTIONS
            or key in ("target", "meld_type", "meld_from", "meld_src", "bets"))


@dataclass(frozen=True)
class TableExtra:
    """What a table shows in the room's settlement section besides the room (hashable: part
    of that section's cache key): whether a discard win is possible, and the carried bets."""

    allows_discard: bool
    carried: CarriedView | None = None


@dataclass(frozen=True)
class CarriedView:
    same: bool                          # the entry's bets are the last hand's
    text: str                           # 老王 跑1 · 小李 跑2 …


class TableHome(Home):
    """The room's home at a table's entry (``/t/<edit>``): the table fixes the variant, the
    options, the base, the names and the dealer (this hand's by the hands recorded, or the
    corrected hand's own); the entry starts with the carried bets (:func:`carried_bets`) as
    its defaults; a win given without tiles is settled from the declared factors; the form
    also records (:meth:`body`). docs/decisions.md "One room, two homes"."""

    page = "ledger_table.html"
    is_table = True
    flags = ("new", "done", "rotated", "revoked", "new_view", "tiles")

    def __init__(self, table: dict, token: str, correcting: dict | None = None,
                 key: str | None = None, dealer: int | None = None):
        self.table = table
        self.token = token
        self.correcting = correcting
        self.path = url_for(".table", token=token)
        self.variant = table["variant"]
        if dealer is None:
            dealer = correcting["dealer"] if correcting is not None else table["dealer"]
        self.dealer = dealer
        self.carried = None if correcting is not None else carried_bets(table)
        self.key = key or secrets.token_urlsafe(12)
        self.number = table["next_number"]  # the hand this entry records
        self.notes: list[str] = []          # what the table changed of a calculator's room
        self.refused: str | None = None     # the calculator's room is another variant's
        self.declared_values: dict[str, list[str]] = {}
        self.declared_errors: list[str] = []
        self.general: str | None = None     # a message above the entry

    # -- reading ------------------------------------------------------------------------

    def bind(self, raw) -> MultiDict:
        t = self.table
        args = MultiDict(raw)
        self._read_number(args)
        if "variant" in args:               # a calculator's room, sent to this table
            args = self._from_calculator(args)
        for key in list(args):
            if _fixed_key(key, t["variant"], args.get(key)):
                args.poplist(key)
        if self.correcting is not None and not any(_entry_key(k) for k in args):
            self._prefill(args, self.correcting)
        self._apply_bets(args)
        self.declared_values = {
            name: [v.strip() for v in args.getlist(f"d_{name}") if v.strip()][:DECLARED_MAX]
            for name in DECLARED_FIELDS}
        for k, v in self._fixed().items(multi=True):
            args.add(k, v)
        return args

    def _read_number(self, args: MultiDict) -> None:
        """The hand this entry was started for: the form keeps it through its taps, so a hand
        someone else records meanwhile is a conflict at 记入, not a silent renumbering."""
        number = args.poplist("number")
        if (self.correcting is None and number and number[-1].isdecimal()   # not isdigit: ²
                and len(number[-1]) <= 9):
            self.number = min(int(number[-1]), self.table["next_number"])

    def _from_calculator(self, args: MultiDict) -> MultiDict:
        """A calculator's room sent here: refused (only ``lang`` kept) when it is another
        variant's, else noted where the table differs, with no bet where it set none."""
        theirs = args.get("variant")
        if theirs != self.table["variant"]:
            self.refused = _refusal(theirs, self.table["variant"])
            return MultiDict([(k, v) for k, v in args.items(multi=True) if k == "lang"])
        self.notes = self._differences(args)
        for key in _BETS:                   # the calculator's default: no bet
            if key not in args:
                args[key] = "0"
        return args

    def _prefill(self, args: MultiDict, correcting: dict) -> None:
        """The corrected hand's recorded inputs (the dealer is the table's to set)."""
        fields, room_args = _prefill_hand(self.table, correcting)
        for k, v in {**fields, **room_args}.items():
            if k != "s_dealer":
                args.setlist(k, v if isinstance(v, list) else [v])

    def _apply_bets(self, args: MultiDict) -> None:
        """The bets buttons (清空 / 同上局) and, at a fresh entry, the carried bets as the
        defaults."""
        action = args.poplist("bets")
        carried = self.carried or Bets()
        if action and action[-1] in ("clear", "last"):
            bets = Bets() if action[-1] == "clear" else carried
            for i in range(4):
                args.setlist(f"s_pao{i}", [str(bets.pao[i])])
                args.setlist(f"s_jiagang{i}", ["1" if bets.jiagang[i] else "0"])
        if self.carried:                    # the carried bets are the defaults
            from_form = args.get("form_variant") == self.table["variant"]
            for i in range(4):
                if f"s_pao{i}" not in args:
                    args[f"s_pao{i}"] = str(carried.pao[i])
                if f"s_jiagang{i}" not in args and not from_form:
                    args[f"s_jiagang{i}"] = "1" if carried.jiagang[i] else "0"

    def _fixed(self) -> MultiDict:
        """The room arguments of the table: its variant, options, base, names and dealer."""
        t = self.table
        out = MultiDict([("variant", t["variant"])])
        specs = {s["name"] for s in option_specs(VARIANTS[t["variant"]].Options)}
        for name, value in t["options"].items():
            if name in specs:
                out.add(f"opt_{name}",
                        ("1" if value else "0") if isinstance(value, bool) else str(value))
        out.add("s_base", str(t["base"]))
        for i, n in enumerate(t["names"]):
            out.add(f"n{i}", n)
        out.add("s_dealer", str(self.dealer))
        return out

    def _differences(self, args) -> list[str]:
        """What of a calculator's room this table decides otherwise: each option, the base
        and the dealer, as "label: the table's (the calculator's)"."""
        t = self.table
        theirs = read_room(args, t["variant"])
        ours = read_room(self._fixed(), t["variant"])
        out = []
        for mine, other in zip(ours.options, theirs.options):
            if other.error is None and mine.value != other.value:
                out.append(_("%(what)s: %(table)s (the calculator had %(calc)s)",
                             what=mine.label, table=mine.value_text(), calc=other.value_text()))
        if "s_base" not in theirs.errors and theirs.base != ours.base:
            out.append(_("Base points: %(table)s (the calculator had %(calc)s)",
                         table=_num(ours.base), calc=_num(theirs.base)))
        if (theirs.dealer is not None and ours.dealer is not None
                and theirs.dealer != ours.dealer):
            out.append(_("Dealer: %(table)s (the calculator had %(calc)s)",
                         table=ours.names[ours.dealer], calc=ours.names[theirs.dealer]))
        return out

    def state_pairs(self, pairs, args, room) -> list[tuple[str, str]]:
        out = [("correct", str(self.correcting["number"]))] if self.correcting else []
        tail: list[tuple[str, str]] = []
        for k, v in pairs:
            if _fixed_key(k, self.variant, v):
                continue
            if self.carried and k in _BETS and not (room and k in room.errors):
                continue
            (tail if k in ("target", "meld_type", "meld_from") else out).append((k, v))
        if self.carried and room is not None:
            uses = room.uses
            for i in range(4):
                key = f"s_pao{i}"
                if "pao" in uses and key not in room.errors and room.pao[i] != self.carried.pao[i]:
                    out.append((key, str(room.pao[i])))
            for i in range(4):
                key = f"s_jiagang{i}"
                if ("jiagang" in uses and key not in room.errors
                        and room.jiagang[i] != self.carried.jiagang[i]):
                    out.append((key, "1" if room.jiagang[i] else "0"))
        for name in DECLARED_FIELDS:
            out += [(f"d_{name}", v) for v in self.declared_values.get(name, [])]
        return out + tail

    # -- a win without tiles ---------------------------------------------------------------

    @functools.cached_property
    def declares(self) -> Declarable | None:
        """What a win without tiles may declare in this room (the variant says, from the
        table's options), or ``None``: then the entry offers no such input."""
        variant = VARIANTS[self.variant]
        try:
            return variant.declarable(parse_options(variant.Options, self.table["options"]))
        except InputError:                  # a stored room the engine no longer reads
            return None

    def handless_request(self, form, room) -> dict | None:
        """A win (a seat chosen) with no tile typed at all: the quick entry, settled as the
        ledger settles it (:func:`webcalc.analysis.settle_without_tiles`, 未验牌)."""
        if not isinstance(room.winner, int):
            return None
        if any((getattr(form, k).data or "").strip() for k in TEXT_FIELDS):
            return None                     # tiles typed: the calculator's path asks for a hand
        req = {"variant": self.variant, "win_by": form.win_by.data or "self_draw",
               "settlement": room.settlement_request()}
        options = room.options_request()
        if options:
            req["options"] = options
        declared = self._declared()
        if declared:
            req["declared"] = declared
        return req

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

    def attach(self, err: InputError) -> bool:
        if (err.field or "").startswith("declared"):
            self.declared_errors.append(localized(self._relabel(err.message)))
            return True
        return False

    # -- recording -------------------------------------------------------------------------

    def body(self, st) -> dict:
        """The ledger request (API.md "Table ledger") for what the result shows: the very
        request the result was computed from (``st.req``), less the variant and options (the
        table's) and the settlement's base. Raises InputError when there is nothing settled
        to record (the reason is under its input already, or said here)."""
        room = st.room
        if st.status != 200 or not st.result or not st.result.settlement or st.req is None:
            if room is not None and room.errors or st.status != 200:
                raise _Unsettled("bad_settlement", _("Nothing was recorded: correct the inputs "
                                                     "marked below."), "settlement")
            raise InputError("bad_settlement", _("Choose the winner, or press 荒庄 for a drawn "
                                                 "game."), "settlement.winner")
        req = st.req
        body = {k: v for k, v in req.items() if k not in ("variant", "options")}
        body["settlement"] = {k: v for k, v in req["settlement"].items() if k != "base"}
        if not (body.get("hand") or "").strip():
            for k in ("hand",) + tuple(k for k in TEXT_FIELDS if k != "hand"):
                body.pop(k, None)
        return body

    def attach_record_error(self, st, err: InputError) -> None:
        """A refusal of the ledger (or of :meth:`body`) under its input, else above the
        entry, in the page's language."""
        if isinstance(err, _Unsettled):     # each input's error is shown under it already
            self.general = localized(err.message)
            return
        if self.attach(err):
            return
        field = err.field or ""
        err = localized_error(err)
        if not (attach_error(st.form, err) or (st.room is not None
                                                 and st.room.attach(field, localized(err.message)))):
            self.general = localized(err.message)

    # -- rendering -------------------------------------------------------------------------

    @property
    def allows_discard(self) -> bool:
        """The 点炮 seat is offered whenever the variant has a win on a discard (without
        JavaScript no script re-draws the form when 胡法 changes)."""
        return any(m in DISCARD_METHODS for m, _label in win_methods(self.variant))

    def room_extra(self, st) -> TableExtra:
        carried = None
        room = st.room
        if self.carried and room is not None:
            uses = room.uses
            same = ((("pao" not in uses) or tuple(room.pao) == self.carried.pao)
                    and (("jiagang" not in uses) or tuple(room.jiagang) == self.carried.jiagang))
            carried = CarriedView(same, _bets_text(self.carried, room))
        return TableExtra(self.allows_discard, carried)

    def context(self, st) -> dict:
        lang = lang_param()
        fp = st.fingerprint
        if self.correcting is not None:
            record_url = url_for(".correct", token=self.token, number=self.correcting["number"],
                                 shown=fp, expected_revision=self.correcting["revision"],
                                 idempotency_key=self.key, lang=lang)
            draw_url = None
        else:
            record_url = url_for(".record", token=self.token, shown=fp,
                                 expected_number=self.number,
                                 idempotency_key=self.key, lang=lang)
            draw_url = url_for(".confirm_draw", token=self.token, draw=1,
                               expected_number=self.number,
                               idempotency_key=self.key, lang=lang)
        room = st.room
        from .templating import list_sep

        fixed_options = list_sep().join(f"{o.label} {o.value_text()}" for o in room.options
                                        if o.changed) if room is not None else ""
        d = self.declares
        return {"record_url": record_url, "draw_url": draw_url, "correcting": self.correcting,
                "entry_number": self.number, "next_number": self.table["next_number"],
                # the places among the hands played the page names (an undone entry has none)
                "entry_hand_no": max(1, self.number - self.table["next_number"]
                                     + self.table["next_hand_no"]),
                "next_hand_no": self.table["next_hand_no"],
                "recorded_meanwhile": self.correcting is None
                and self.number < self.table["next_number"],
                "declares": d, "declared_values": self.declared_values,
                "declared_text": (self.declared_values.get(d.field) or [""])[-1] if d else "",
                "declared_errors": self.declared_errors, "fixed_options": fixed_options,
                "tiles_open": self.tiles_open(st),
                "outcomes_url": None if self.correcting is not None
                else url_for(".entry_outcomes", token=self.token)}

    @staticmethod
    def tiles_open(st) -> bool:
        """The entry's 输入手牌 fold is open: tiles are wanted (one is given, the palette
        aims elsewhere than the hand, a tap said why it did nothing) or were this entry
        (``tiles=1``, which the open fold keeps in the form: a tap that empties the hand
        leaves it open). A win without tiles keeps it folded: the outcome is one screen."""
        args = st.args
        return bool(args.get("tiles") == "1" or st.tap_message
                    or any((args.get(k) or "").strip() for k in TEXT_FIELDS)
                    or args.get("target", "hand") != "hand")


#: the fields of a hand's outcome: what the page's lookup varies (:func:`outcomes`)
_OUTCOME_KEYS = ("s_winner", "s_discarder", "s_dealer", "win_by")
#: the 胡法 with a 点炮者 (the entry offers the seat for these)
DISCARD_METHODS = ("discard", "robbing_kong")
OUTCOMES_MAX = 64
_outcomes_cache: OrderedDict = OrderedDict()
_outcomes_lock = threading.Lock()


def outcome_key(dealer: int, winner: int | None, win_by: str | None,
                discarder: int | None) -> str:
    """``dealer:winner:win_by:discarder`` (``none`` for a 荒庄's winner, empty when not
    given), as static/js/ledger.js builds it from a queued entry's fields."""
    return ":".join([str(dealer), "none" if winner is None else str(winner), win_by or "",
                     "" if discarder is None else str(discarder)])


def outcomes(table: dict, args: MultiDict) -> dict[str, list]:
    """What the server would record for each outcome of the next hand without tiles, with
    the entry's other inputs as they are (``args``, the bound room: 跑, 加钢, kongs …): for
    each dealer (a queued hand deals the next one), each winner, 胡法 and 点炮者, and 荒庄,
    ``[nets, next dealer]``, each computed by the ledger's own
    :func:`webcalc.ledger.service.preview` from the room the page's form gives (the same
    reading as a record). An outcome the server would refuse is left out. Kept per table
    settings and inputs: the same entry gives the same answers (issue 36.2)."""
    from ..ledger.service import preview

    variant = table["variant"]
    rest = MultiDict([(k, v) for k, v in args.items(multi=True)
                      if k not in _OUTCOME_KEYS and k not in _TILE_KEYS
                      and not k.startswith("d_") and k not in _CONTROL + ("number",)])
    key = (variant, json.dumps(table["options"], sort_keys=True), str(table["base"]),
           tuple(sorted(rest.items(multi=True))))
    with _outcomes_lock:
        got = _outcomes_cache.get(key)
        if got is not None:
            _outcomes_cache.move_to_end(key)
            return got
    methods = [m for m, _label in win_methods(variant)]
    out: dict[str, list] = {}
    for winner in (None, 0, 1, 2, 3):
        for win_by in ([None] if winner is None else methods):
            froms = [x for x in range(4) if x != winner] if win_by in DISCARD_METHODS \
                else [None]
            for discarder in froms:
                a = MultiDict(rest)
                a["s_winner"] = "none" if winner is None else str(winner)
                a["s_dealer"] = "0"         # read with one; each dealer is put in below
                if discarder is not None:
                    a["s_discarder"] = str(discarder)
                room = read_page_room(a, variant, win_by or "self_draw")
                settlement = room.settlement_request() if not room.errors else None
                if settlement is None:
                    continue
                settlement.pop("base", None)
                for dealer in range(4):     # the room reads the dealer as given: here each
                    body: dict[str, Any] = {"settlement": {**settlement, "dealer": dealer}}
                    if winner is not None:
                        body["win_by"] = win_by
                    try:
                        net, nxt = preview(variant, table["options"], table["base"], body,
                                           dealer)
                    except InputError:
                        continue
                    out[outcome_key(dealer, winner, win_by, discarder)] = [
                        [_signed(x) for x in net], nxt]
    with _outcomes_lock:
        _outcomes_cache[key] = out
        while len(_outcomes_cache) > OUTCOMES_MAX:
            _outcomes_cache.popitem(last=False)
    return out


def _signed(x) -> str:
    from .templating import points

    return points(x, sign=True)


def _bets_text(bets: Bets, room: Room) -> str:
    """老王 跑1 · 小李 跑2 · 阿梅 加钢 (the seats with a bet)."""
    parts = []
    for i in range(4):
        what = []
        if "pao" in room.uses and bets.pao[i]:
            what.append(_("跑 %(n)s", n=bets.pao[i]))
        if "jiagang" in room.uses and bets.jiagang[i]:
            what.append(_("加钢"))
        if what:
            parts.append(f"{room.names[i]} {' '.join(what)}")
    return " · ".join(parts)


def _refusal(theirs: str | None, ours: str) -> str:
    from .templating import VARIANT_NAMES

    if theirs not in VARIANT_LABELS:
        return _("This is not a variant: the table plays %(table)s. Nothing was filled in.",
                 table=VARIANT_NAMES.get(ours, ours))
    return _("This table plays %(table)s; the hand was worked out for %(calc)s. Nothing was "
             "filled in: open the hand in the calculator as %(table)s, or tap it in here.",
             table=VARIANT_NAMES.get(ours, ours), calc=VARIANT_NAMES.get(theirs, theirs))


def _table_page(token: str, t: dict, *, st=None, status: int | None = None,
                conflict: str | None = None, conflict_hand: int | None = None,
                message: str | None = None, free_entry=None):
    """The table page: with the edit token, its entry is the room ``st`` (read here from the
    query when not given), or on a table with no rule set the free entry (``free_entry``,
    :mod:`.ledger_free`); with the view token, the same totals and hands without it."""
    edit = t["access"] == "edit"
    view_token = _view_token(token) if edit else token
    view_url = url_for(".table", token=view_token, _external=True) if view_token else None
    links = _links(token) if edit else None
    context = dict(
        table=t, token=token, edit=edit, view_url=view_url, page_title=table_title(t),
        edit_url=url_for(".table", token=token, _external=True) if edit else None,
        view_path=url_for(".table", token=view_token) if view_token else "",
        edit_path=url_for(".table", token=token) if edit else None,
        qr_url=url_for(".qr", token=view_token) if view_token else None, links=links,
        # the picture by the view link where known: its address never shows the edit token
        card_url=url_for(".card", token=view_token or token), card_file=_filename(t, "png"),
        etag=_etag(t, links["editor"] if links else None), conflict=conflict,
        conflict_hand=conflict_hand, message=message,
        new=bool(request.args.get("new")), rotated=request.args.get("rotated"), done=_done(t),
        live_rest=None if conflict_hand is not None else _live_rest(t, token, edit),
        **_view_helpers(t))
    context.update(_revoked(context["links"]))
    if not edit:
        return add_vary(make_response(render_template("ledger_table.html", **context),
                                      status or 200))
    if context["free"]:                     # no rule set: four amounts, no room
        free = ledger_free.entry(t, token, free_entry)
        context.update(free_entry=free, adjust_key=free.key + "-adj")
        return add_vary(make_response(render_template("ledger_table.html", **context),
                                      status or 200))
    if st is None:
        st = read_room_state(_home_of(t, token, request.args), request.args)
        analyse(st)
    home = st.home
    refused_url = None
    if home.refused is not None:            # the hand's tiles, in the calculator as this variant
        keep = [(k, v) for k, v in request.args.items(multi=True)
                if not _fixed_key(k) and k != "form_variant"]
        refused_url = url_for("pages.index") + "?" + urlencode([("variant", t["variant"])] + keep)
    context.update(entry_notes=home.notes, entry_refused=home.refused,
                   entry_refused_url=refused_url, entry_general=home.general,
                   adjust_key=home.key + "-adj")
    if status is None and home.refused is not None:
        status = 409
    return render_room(st, template="ledger_table.html", status=status, **context)


def table_title(t: dict) -> str:
    """The table page's title, what a chat list shows of its shared link: the table (named
    by the day it was opened), its hands counted and its variant (``12月6日牌局 · 8 手 ·
    郑州麻将``)."""
    from .templating import VARIANT_NAMES

    day = (t.get("created_at") or "")[:10]
    try:
        when = datetime.fromisoformat(day).date()
    except ValueError:
        when = None
    if when is None:
        name = _("Table ledger")
    elif current_lang() == "zh":
        name = _("Table of %(day)s", day=f"{when.month}月{when.day}日")
    else:
        name = _("Table of %(day)s", day=f"{when.day} {when:%b} {when.year}")
    n = sum(1 for h in t["hands"] if h.get("hand_no"))
    hands = _("%(n)s hand", n=n) if n == 1 else _("%(n)s hands", n=n)
    return " · ".join((name, hands, str(VARIANT_NAMES.get(t["variant"], t["variant"]))))


def _revoked(links: dict | None) -> dict:
    """``?revoked=n`` (``&new_view=1``) after a co-scorer's link was revoked (and the view
    link replaced), for the line that says what they can still read: n only when the
    creator's page lists it revoked."""
    n = request.args.get("revoked", type=int)
    if not links or not any(e["editor"] == n and e.get("revoked_at") for e in links["editors"]):
        return {"revoked": None, "new_view": False}
    return {"revoked": n, "new_view": request.args.get("new_view") == "1"}


def _done(t: dict) -> dict | None:
    """The entry ``?done=n`` names (just recorded or corrected), for the line that says so."""
    n = request.args.get("done", type=int)
    return next((h for h in t["hands"] if h["number"] == n), None) if n else None


def _home_of(t: dict, token: str, args, key: str | None = None) -> TableHome:
    """The entry's home: a correction of hand ``?correct=n`` (a counted hand), else the next
    hand."""
    number = args.get("correct", type=int)
    h = next((x for x in t["hands"] if x["number"] == number), None) if number else None
    if h is not None and not (h["kind"] == "hand" and h["status"] == "recorded"):
        h = None
    return TableHome(t, token, correcting=h, key=key)


def _view_helpers(table: dict) -> dict:
    from .templating import WIN_BY_LABELS

    names = table["names"]

    def who(seat):
        return names[seat] if isinstance(seat, int) and 0 <= seat < 4 else "—"

    def method(h):
        s = h["request"].get("settlement") or {}
        if h["kind"] == POINTS:
            note = h["request"].get("note")
            return _("Free-scoring hand") + (f" · {note}" if note else "")
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
            "free": is_free(table["variant"]),
            "chart_points": len([h for h in table["hands"] if h["status"] == "recorded"])}


LIVE_CACHE_MAX = 16
_live_lock = threading.Lock()


def _live_rest(table: dict, token: str, edit: bool) -> Markup:
    """The hand list part of the table page (``_ledger_live.html``, part "rest"), rendered
    once per table version, token and language and kept (the last ``LIVE_CACHE_MAX`` per
    worker): a 200-hand table is drawn again only after a write. The void forms' token is
    the table proof of ``token`` (:mod:`webcalc.web.form_proof`), the same for every
    visitor, so it is cached with the list."""
    key = (token, table["version"], current_lang(), edit)
    cache = current_app.extensions.setdefault("ledger_live_cache", OrderedDict())
    with _live_lock:
        html = cache.get(key)
        if html is not None:
            cache.move_to_end(key)
    if html is None:
        proof = form_proof.table_proof(token)
        html = render_template("_ledger_live.html", table=table, token=token, edit=edit,
                               conflict_hand=None, part="rest",
                               csrf_token=lambda: proof, **_view_helpers(table))
        with _live_lock:
            cache[key] = html
            while len(cache) > LIVE_CACHE_MAX:
                cache.popitem(last=False)
    return Markup(html)


def _num(x) -> str:
    from ..settlement import fmt

    return fmt(x)


@bp.get("/mine")
def mine():
    """我的牌桌: the tables this phone opened, listed from its own localStorage by
    static/js/ledger.js (the table pages keep that list); nothing is stored on the server."""
    return add_vary(make_response(render_template("ledger_mine.html")))


#: a table link as pasted: the token after /t/ (or the token alone)
_TOKEN_IN_LINK = re.compile(r"(?:^|/t/)([A-Za-z0-9_-]{16,64})(?:[/?#]|$)")


def token_of_link(text: str) -> str | None:
    """The token of a pasted table link (``https://host/t/<token>…``) or of a bare token."""
    m = _TOKEN_IN_LINK.search((text or "").strip())
    return m.group(1) if m else None


@bp.get("/send")
def send():
    """记入牌桌 with a pasted link: the calculator's state (this query, less ``table``) on
    that table's entry (303 to ``/t/<edit>?<state>``), or a page that says why not."""
    state = [(k, v) for k, v in request.args.items(multi=True) if k != "table"]
    pasted = request.args.get("table", "")
    token = token_of_link(pasted)
    status, why = 422, _("Paste the table's edit link (the address of its page, with /t/ in it).")
    if token is not None:
        try:
            access = ledger().access(token)
        except NotFound:
            access = None
        except Busy:
            abort(503)
        if access == "edit":
            return redirect(url_for(".table", token=token) + "?" + urlencode(state), 303)
        if access == "view":
            status, why = 403, _("This is the table's view link: it can follow the table, not "
                                 "record on it. Paste the edit link (the one the scorer keeps).")
        else:
            status, why = 404, _("No table has this link. Check it, or open the table from My "
                                 "tables.")
    back = url_for("pages.index") + ("?" + urlencode(state) if state else "")
    html = render_template("ledger_send.html", why=why, pasted=pasted[:300], state=state,
                           back=back)
    return add_vary(make_response(html, status))


@bp.get("/<token>")
def table(token: str):
    t = _load(token)
    if t["access"] != "edit" or is_free(t["variant"]):
        return _table_page(token, t)
    home = _home_of(t, token, request.args)
    st = read_room_state(home, request.args)
    if needs_redirect(st) and not home.notes and home.refused is None:
        return add_vary(redirect(st.canonical, 303))
    analyse(st)
    if wants_fragment(request):
        return render_room(st)
    return _table_page(token, t, st=st)


@bp.get("/<token>/outcomes")
def entry_outcomes(token: str):
    """What the next hand records for each outcome without tiles (:func:`outcomes`), the
    entry's other inputs read from the query as the table page reads them: JSON
    ``{"version", "dealer", "outcomes": {"dealer:winner:win_by:discarder": [nets, next
    dealer]}}``. static/js/ledger.js asks once the page has loaded, and shows these for a
    hand queued without a network (docs/decisions.md "What a queued hand will record")."""
    t = _load(token)
    if t["access"] != "edit":
        abort(403)
    st = read_room_state(TableHome(t, token), request.args)
    if st.room is None:
        abort(422)
    resp = current_app.response_class(
        json.dumps({"version": t["version"], "dealer": t["dealer"],
                    "outcomes": outcomes(t, st.args)}, ensure_ascii=False, separators=(",", ":")),
        mimetype="application/json")
    return resp


@bp.get("/<token>/live")
def live(token: str):
    """The live region of the table page in one answer: the totals (``#live-top``) and the
    settle-up, chart and hands (``#live``), so they change together; 304 while the table's
    version is the one the client has. ``?part=top``/``rest`` answers one part (pages loaded
    before the one-poll page asked so)."""
    try:
        version, editor = ledger().probe(token)       # one cheap query for the common 304
    except NotFound:
        abort(404)
    except Busy:
        abort(503)
    etag = _etag(version, editor)
    part = request.args.get("part")
    if request.if_none_match.contains(etag):
        resp = current_app.response_class(status=304)
    else:
        t = _load(token)
        etag = _etag(t, editor)
        edit = t["access"] == "edit"
        html = Markup("")
        if part != "rest":
            html += Markup(render_template(
                "_ledger_live.html", table=t, token=token, edit=edit, etag=etag,
                conflict_hand=None, part="top", **_view_helpers(t)))
        if part != "top":
            html += _live_rest(t, token, edit)
        resp = make_response(html)
    resp.set_etag(etag)
    return add_vary(resp)


def _not_editable(token: str, t: dict):
    return _table_page(token, t, status=403,
                       message=_("This is the view link: it cannot change the table."))


def _write(token: str, work):
    """Run a write of a form outside the entry (void, adjustment); 303 to the table page, or
    the page with the error."""
    t = _load(token)
    if t["access"] != "edit":
        return _not_editable(token, t)
    try:
        anchor = work(t)
    except InputError as err:
        return _table_page(token, _load(token), status=422, message=localized(err.message))
    except LedgerError as err:
        return _table_page(token, _load(token), status=STATUS.get(type(err), 400),
                           message=_error_text(err))
    return redirect(url_for(".table", token=token, lang=lang_param()) + f"#{anchor}", 303)


def _posted_room(t: dict, token: str, correcting: dict | None, renumber: bool = False,
                 fresh_key: bool = False, dealer: int | None = None):
    """The entry's room from the posted form, as the GET of the same fields reads it (the
    record's own fields taken out; 荒庄 in one tap: no tiles, nobody won). ``renumber``: the
    entry is for the next hand now (after a conflict was shown, 记入 records it as that).
    ``fresh_key``: under a new idempotency key, not the one posted. ``dealer``: this one,
    not the table's."""
    data = MultiDict(request.form)
    for k in _CONTROL + (("number",) if renumber else ()):
        data.poplist(k)
    if "form_variant" not in data:          # posted by the form: an unticked box is off
        data["form_variant"] = t["variant"]
    if request.values.get("draw"):
        for k in _TILE_KEYS + tuple(f"d_{n}" for n in DECLARED_FIELDS):
            data.poplist(k)
        data.setlist("s_winner", ["none"])
    key = None if fresh_key else request.values.get("idempotency_key")
    home = TableHome(t, token, correcting, key=key, dealer=dealer)
    st = read_room_state(home, data)
    analyse(st)
    return st


def _save(token: str, number: int | None):
    """记入 (``number`` None) or a correction: what the entry's result shows, recorded."""
    t = _load(token)
    if t["access"] != "edit":
        return _not_editable(token, t)
    if is_free(t["variant"]):               # four amounts, not a room
        return ledger_free.save(token, t, number, ledger=ledger(), page=_table_page,
                                load=_load, status=lambda e: STATUS.get(type(e), 400))
    correcting = None
    if number is not None:
        correcting = next((x for x in t["hands"] if x["number"] == number), None)
        if correcting is None:
            abort(404)
    st = _posted_room(t, token, correcting)
    home = st.home
    if "remove_kong" in request.form:       # a kong row taken out: show the form again
        return _table_page(token, t, st=st, status=200)
    shown = request.values.get("shown")
    if shown and not request.values.get("draw") and shown != st.fingerprint:
        home.general = _("What you entered changed after the result was shown, so nothing was "
                         "recorded: the result is now worked out from it. Check it, then press "
                         "the button again.")
        return _table_page(token, t, st=st, status=409)
    try:
        body = home.body(st)
        if number is None:
            rec = _record(token, home, body)
        else:
            body["expected_revision"] = request.values.get("expected_revision", type=int)
            rec = ledger().correct(token, number, body)
    except InputError as err:
        home.attach_record_error(st, err)
        return _table_page(token, t, st=st, status=422)
    except Conflict as err:
        fresh = table_in(err.table, current_lang()) if err.table else _load(token)
        again = None if correcting is None else next(
            (h for h in fresh["hands"] if h["number"] == correcting["number"]), None)
        st = _posted_room(fresh, token, again, renumber=True)
        hand = request.values.get("expected_number", type=int)
        return _table_page(token, fresh, st=st, status=409, conflict=_error_text(err),
                           conflict_hand=hand)
    except (IdempotencyConflict, BadKey) as err:
        # the key recorded another entry (a page kept from before it) or is unusable: this
        # entry is offered again, as the next one, under a key of its own (docs/LEDGER.md
        # "Idempotency keys")
        fresh = _load(token)
        st = _posted_room(fresh, token, correcting, renumber=True, fresh_key=True)
        return _table_page(token, fresh, st=st, status=STATUS[type(err)],
                           message=_error_text(err))
    except LedgerError as err:
        return _table_page(token, _load(token), st=st, status=STATUS.get(type(err), 400),
                           message=_error_text(err))
    done = rec.hand["number"]
    return redirect(url_for(".table", token=token, lang=lang_param(), done=done) + "#entry", 303)


def _record(token: str, home: TableHome, body: dict):
    """记入 of ``body`` under the entry's idempotency key. A page posted twice (a double tap,
    a resend) is read the second time against the table the first one recorded on: when the
    key recorded entry n and the table's dealer has moved on since, the posted form is read
    again with entry n's dealer, so the same form is the same entry and answers as before;
    any other body under the key stays :class:`IdempotencyConflict` (docs/LEDGER.md
    "Idempotency keys")."""
    expected = request.values.get("expected_number", type=int)
    try:
        return ledger().record(token, {**body, "idempotency_key": home.key,
                                       "expected_number": expected})
    except IdempotencyConflict as err:
        t = _load(token)
        entry = t["hands"][err.detail - 1] if 0 < err.detail <= len(t["hands"]) else None
        then = None if entry is None else \
            (entry["revisions"][0] if entry["revisions"] else entry)["dealer"]
        if then is None or then == home.dealer:
            raise
        st = _posted_room(t, token, None, dealer=then)
        try:
            again = st.home.body(st)
        except InputError:
            raise err from None
        return ledger().record(token, {**again, "idempotency_key": home.key,
                                       "expected_number": expected})


@bp.post("/<token>/hands")
def record(token: str):
    return _save(token, None)


@bp.post("/<token>/hands/<int:number>")
def correct(token: str, number: int):
    return _save(token, number)


@bp.post("/<token>/hands/<int:number>/void")
def void(token: str, number: int):
    def work(t):
        ledger().void(token, number, request.form.get("reason", ""))
        return f"hand-{number}"
    return _write(token, work)


@bp.post("/<token>/adjust")
def adjust(token: str):
    def work(t):
        f = request.form
        amount_text = (f.get("amount") or "").strip()
        try:
            amount = int(amount_text) if amount_text.isdigit() else float(amount_text)
        except ValueError:
            raise InputError("bad_request", _("Amount: write a positive number, such as 20.")) \
                from None
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
    return _write(token, work)


# -- chart and exports ------------------------------------------------------------------------

def preload() -> None:
    """Import the chart and QR libraries (pygal, segno) and draw one QR code, outside any
    cache. gunicorn's master calls it before it forks (webcalc.web.warmup), so every worker
    shares those modules' pages instead of importing its own copy on its first table page."""
    load_pygal()
    import pygal.style  # noqa: F401
    qr_png.__wrapped__("https://localhost/t/preload")


@bp.get("/<token>/qr.png")
def qr(token: str):
    """The QR code a page shows, as a PNG (WeChat's 识别图中二维码 reads images only): the
    table's view link, whichever link asks; ``?link=edit`` with an edit token, that edit
    link itself (the co-scorer's link, shown once to the creator who made it)."""
    try:
        _version, editor = ledger().probe(token)
    except NotFound:
        abort(404)
    except Busy:
        abort(503)
    if editor is not None and request.args.get("link") == "edit":
        target: str | None = token
    else:
        target = token if editor is None else _view_token(token)
    if target is None:
        abort(404)
    return qr_response(url_for(".table", token=target, _external=True))


@bp.get("/<token>/card.png")
def card(token: str):
    """The evening card (分享图片, :mod:`webcalc.web.cards`): the same picture for every link
    of the table, its QR code the view link; 304 while ``If-None-Match`` holds its ETag."""
    from .cards import evening_card

    try:
        version, editor = ledger().probe(token)      # one cheap query for the common 304
        view = token if editor is None else _view_token(token)
    except NotFound:
        abort(404)
    except Busy:
        abort(503)
    view_url = url_for(".table", token=view, _external=True) if view else None
    return evening_card(version, editor, view_url, lambda: _load(token))


@bp.get("/<token>/chart.svg")
def chart(token: str):
    """Each seat's running total over the counted entries (pygal, no script). Served as an
    image with its own CSP: an SVG image runs no script, and its ``<style>`` is its own."""
    pygal = load_pygal()
    from pygal.style import Style

    t, editor = _load_probed(token)
    counted = [h for h in t["hands"] if h["status"] == "recorded"]
    style = Style(background="#ffffff", plot_background="#ffffff", colors=COLORS,
                  font_family='"Noto Sans CJK SC","Noto Sans SC",sans-serif',
                  label_font_size=12, major_label_font_size=12, legend_font_size=14,
                  value_font_size=11, tooltip_font_size=11, title_font_size=14)
    c = pygal.Line(js=[], width=390, height=300, style=style, legend_at_bottom=True,
                   legend_at_bottom_columns=4, show_dots=True, dots_size=2.5,
                   disable_xml_declaration=True, x_title=_("Hand number"), truncate_legend=-1,
                   margin=8)
    # the axis counts the hands played (hand_no: 1, 2, … without the undone ones); a counted
    # adjustment between two hands is a point of its own, unlabelled
    c.x_labels = ["0"] + [str(h["hand_no"]) if h["hand_no"] else "" for h in counted]
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
    resp.set_etag(_etag(t, editor))
    resp.vary.add("Accept-Language")                 # its labels are in the reader's language
    return resp.make_conditional(request)


def _filename(t: dict, ext: str) -> str:
    day = (t.get("created_at") or "")[:10] or datetime.now(UTC).date().isoformat()
    return f"webcalc-table-{t['variant']}-{day}.{ext}"


def evening_text(t: dict) -> str:
    """The evening as plain text, in the reader's language, for a chat or a note (the export
    page WeChat gets, :func:`_evening_page`): the table, the day, every entry with its nets,
    the totals and the settle-up. Lines stay short and columns line up in a monospace font."""
    from .templating import VARIANT_NAMES

    helpers = _view_helpers(t)
    who, method = helpers["who"], helpers["method"]
    names = t["names"]
    counted = [h for h in t["hands"] if h.get("hand_no")]
    day = (t.get("created_at") or "")[:10]
    lines = [" · ".join((_("Table ledger"), str(VARIANT_NAMES.get(t["variant"], t["variant"])),
                         _("base %(base)s", base=_num(t["base"])))),
             " · ".join(x for x in (day, _("Hands counted: %(n)s", n=len(counted))) if x),
             " · ".join(names), ""]
    for h in t["hands"]:
        # hands counted as players count them (an undone or voided entry has no place)
        head = [_("No. %(n)s", n=h["hand_no"])] if h.get("hand_no") else []
        if h["kind"] != "adjustment":
            head.append(_("Dealer %(who)s", who=who(h["dealer"])))
        head.append(method(h))
        if h["kind"] == "adjustment" and h["request"]["adjustment"].get("note"):
            head.append(h["request"]["adjustment"]["note"])
        if h["status"] != "recorded":
            head.append(_("Undone") if h.get("void_code") == "undone" else _("Voided"))
        lines.append(" · ".join(head))
        if h["status"] != "recorded":
            if h.get("void_code") != "undone" and h.get("void_reason"):
                lines.append("  " + _("Reason: %(why)s", why=h["void_reason"]))
            continue
        lines.append("  " + "  ".join(f"{n} {_net_text(x)}"
                                      for n, x in zip(names, h["settlement"]["net"])))
    width = max(text_width(n) for n in names)
    amounts = [_net_text(x) for x in t["totals"]]
    digits = max(len(a) for a in amounts)
    lines += ["", _("Totals")]
    lines += [f"  {n}{' ' * (width - text_width(n))}  {a:>{digits}}" for n, a in zip(names, amounts)]
    lines += ["", _("Settle up")]
    if t["settle_up"]:
        lines += ["  " + _("%(a)s pays %(b)s", a=who(x["from"]), b=who(x["to"])) + " "
                  + _num(x["amount"]) for x in t["settle_up"]]
    else:
        lines.append("  " + _("Nothing to settle yet."))
    return "\n".join(lines) + "\n"


def _net_text(x) -> str:
    """A net as the table shows it: ``+3``, ``-1``, ``0``."""
    text = _num(x)
    return "+" + text if x > 0 else text


def _evening_page(token: str, t: dict):
    """The export as WeChat gets it (its browser saves no download, :mod:`webcalc.web.wechat`):
    the evening as text to copy and as the evening card to long-press, with the files' own
    links for another browser."""
    view_token = token if t["access"] != "edit" else _view_token(token)
    from .templating import VARIANT_NAMES

    html = render_template(
        "export_text.html", heading=_("The evening as text"),
        subject=str(VARIANT_NAMES.get(t["variant"], t["variant"])), text=evening_text(t),
        card_url=url_for(".card", token=view_token or token),
        csv_url=url_for(".export_csv", token=token, raw=1, lang=lang_param()),
        csv_label=_("CSV (every entry, the totals and the settle-up)"),
        json_url=url_for(".export_json_view", token=token, raw=1),
        json_label=_("JSON (the whole table, for import)"),
        back_url=url_for(".table", token=token, lang=lang_param()),
        back_label=_("Back to the table"))
    return wechat.vary(add_vary(make_response(html)))


@bp.get("/<token>/export.json")
def export_json_view(token: str):
    t = _load(token)
    if wechat.in_wechat() and not request.args.get("raw"):
        return _evening_page(token, t)
    body = json.dumps(ledger().export_table(token), ensure_ascii=False, indent=1)
    resp = Response(body, mimetype="application/json")
    resp.headers["Content-Disposition"] = f'attachment; filename="{_filename(t, "json")}"'
    return wechat.vary(resp)


#: the CSV's time zone when the export link names none (tables keep no zone; the players this
#: is written for are in China)
CSV_ZONE = "Asia/Shanghai"


def _csv_header(zone: str) -> list[str]:
    """The CSV columns, in the export request's language (the file is read by people; a
    program reads the JSON export). The time column names the zone its times are in."""
    return [pgettext("csv", "Hand"), pgettext("csv", "Kind"), pgettext("csv", "Status"),
            pgettext("csv", "Dealer"), pgettext("csv", "Winner"),
            pgettext("csv", "Win method"), pgettext("csv", "Tiles checked"),
            pgettext("csv", "From"), pgettext("csv", "To"), pgettext("csv", "Amount"),
            pgettext("csv", "Item"), pgettext("csv", "Detail"), pgettext("csv", "Rule"),
            pgettext("csv", "Recorded at (%(zone)s)", zone=zone), pgettext("csv", "Entry"),
            pgettext("csv", "Revision")]


def _csv_zone(name: str | None):
    """The export's time zone: ``?tz=`` (an IANA name such as ``Asia/Shanghai``, which the
    page's script fills in from the phone's own zone), else :data:`CSV_ZONE`; None when the
    name is not a zone."""
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    name = CSV_ZONE if name is None or not name.strip() else name.strip()
    if len(name) > 64 or not re.fullmatch(r"[A-Za-z0-9_+\-]+(/[A-Za-z0-9_+\-]+)*", name):
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return None


def _local(iso: str, zone) -> str:
    """An ISO 8601 UTC time as the clock on the wall read it: ``2026-12-06 21:03:15``."""
    return datetime.fromisoformat(iso.replace("Z", "+00:00")).astimezone(zone) \
        .strftime("%Y-%m-%d %H:%M:%S")


def _csv_items() -> dict[str, str]:
    """Each payment's item (API.md ``payments[].item``) in the export request's language."""
    return {"win": pgettext("csv item", "Win"), "kong": pgettext("csv item", "Kong"),
            "follow_dealer": pgettext("csv item", "Following the dealer (前包)"),
            "draw_penalty": pgettext("csv item", "Draw penalty (后包)"),
            "adjustment": pgettext("csv item", "Adjustment"),
            "fee": pgettext("csv item", "Table fee"),
            POINTS: pgettext("csv item", "Points")}


def _csv_status(h: dict) -> str:
    if h["status"] == "recorded":
        return pgettext("csv status", "Counted")
    if h.get("void_code") == "undone":
        return pgettext("csv status", "Undone")
    return pgettext("csv status", "Voided")


@bp.get("/<token>/export.csv")
def export_csv(token: str):
    """The evening as a spreadsheet (UTF-8 with a BOM: Excel then reads the Chinese names
    right), in the request's language: a row for every entry, in order, with its status
    (counted, voided, undone): a counted entry's row per payment, or one row when it has
    none (a 荒庄 with no penalty); a voided or undone entry's one row, its reason in the
    detail and no amounts, as it counts no more. Then the seats with their totals, and the
    settle-up. Text cells never start a formula (:func:`csv_text`).

    Read like the evening (issue 36.4): the hand column counts the hands played (``hand_no``:
    empty for an adjustment and an undone or voided entry; the entry's id is in its own
    column), times are local in ``?tz=`` (default :data:`CSV_ZONE`, named in the header), a
    荒庄 has no tiles to check, and a corrected entry carries its revision."""
    zone = _csv_zone(request.args.get("tz"))
    if zone is None:
        return Response(_("Unknown time zone %(zone)s: use a name such as Asia/Shanghai.",
                          zone=request.args.get("tz", "")[:64]) + "\n", status=400,
                        mimetype="text/plain")
    t = _load(token)
    if wechat.in_wechat() and not request.args.get("raw"):
        return _evening_page(token, t)
    names = [csv_text(n) for n in t["names"]]
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\r\n")
    w.writerow([csv_text(c) for c in _csv_header(str(zone))])
    from ..variants.base import WIN_METHOD_LABELS

    kinds = {"adjustment": pgettext("csv", "Adjustment"), "hand": pgettext("csv", "A hand"),
             POINTS: pgettext("csv", "Free-scoring hand")}
    items = _csv_items()
    drawn, yes, unchecked = (pgettext("csv", "Drawn game"), pgettext("csv", "Yes"),
                             pgettext("csv", "Not checked"))
    for h in t["hands"]:
        s = h["request"].get("settlement") or {}
        adjustment = h["kind"] == "adjustment"
        ruled = h["kind"] == "hand"           # a free table's hand has no winner or tiles
        winner = ("" if not ruled else
                  drawn if s.get("winner") is None else names[s["winner"]])
        win_by = "" if not ruled or s.get("winner") is None else \
            localized(WIN_METHOD_LABELS.get(h["request"].get("win_by", "self_draw"), ""))
        # a 荒庄 (no winner) has no tiles to check; a free table's hand has none either
        verified = "" if not ruled or s.get("winner") is None else \
            (yes if h["verified"] else unchecked)
        dealer = "" if adjustment else names[h["dealer"]]
        head = [h.get("hand_no") or "", csv_text(kinds[h["kind"]]), csv_text(_csv_status(h)),
                dealer, winner, csv_text(win_by), csv_text(verified)]
        tail = [_local(h["recorded_at"], zone), h["number"],
                h["revision"] if h["revision"] > 1 else ""]
        if h["status"] != "recorded":
            reason = "" if h.get("void_code") == "undone" else (h.get("void_reason") or "")
            w.writerow(head + ["", "", "", "", csv_text(reason), ""] + tail)
            continue
        if not h["settlement"]["payments"]:
            note = (h["request"].get("adjustment", {}).get("note", "") if adjustment
                    else h["request"].get("note", ""))
            w.writerow(head + ["", "", "", "", csv_text(note), ""] + tail)
        for p in h["settlement"]["payments"]:
            item = p.get("item") or ""
            w.writerow(head + [names[p["from"]], names[p["to"]], _num(p["amount"]),
                               csv_text(items.get(item, item)),
                               csv_text(p.get("detail") or ""), csv_text(p.get("rule") or "")]
                       + tail)
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
    return wechat.vary(resp)


# -- round two: undo, the 荒庄 confirm, co-scorers, the links, the table's settings -------------
# (API.md "Table ledger, round two"; docs/LEDGER.md "Pages"). Every write is a POST form with
# a CSRF token; each answers 303 to the table page or the page with the error (``_write``).

def _page(token: str, table: dict, **kw):
    """The table page with a message (the one renderer of the entry's section)."""
    return _table_page(token, table, **kw)


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
    query: dict[str, Any] = request.args.to_dict()
    html = render_template("ledger_draw.html", table=t, token=token, kept=kept, pao=pao,
                           action=url_for(".record", token=token, **query),
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
                           qr_url=url_for(".qr", token=edit, link="edit"))
    return add_vary(make_response(html, 201))


@bp.post("/<token>/editors/<int:number>/revoke")
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
    args: dict[str, Any] = {"rotated": "view" if rot.view_token else "edit"}
    return redirect(url_for(".table", token=rot.edit_token, **args) + "#share", 303)


@bp.post("/<token>/settings")
def table_settings(token: str):
    """The table's settings: 跑/加钢 kept between hands or reset (``carry_bets``)."""
    def work(t, *_):
        ledger().settings(token, {"carry_bets": request.form.get("carry_bets")})
        return "links"
    return _write(token, work)
