"""The HTML pages: ``GET /`` (full page, or the panel fragment for htmx)."""

from __future__ import annotations

from collections import OrderedDict
from urllib.parse import urlencode, urlsplit

from flask import Blueprint, current_app, make_response, redirect, render_template, request
from markupsafe import Markup
from werkzeug.datastructures import MultiDict

from ..analysis import VARIANT_LABELS
from ..errors import InputError
from . import tap
from .forms import TEXT_FIELDS, AnalyzeForm
from .htmx import add_vary, is_htmx, wants_fragment
from .i18n import LANGS, current_lang, lang_param, localized, request_gettext
from .room import Room, read_page_room, win_methods

bp = Blueprint("pages", __name__)

EXAMPLE_HAND = "123m456p789s1134z"


QUERY_KEYS = ("variant",) + TEXT_FIELDS

#: the page lists this many readings, and each "more" link this many more (issue 13.4), up
#: to the engine's 200 (the API's cap; ``decompositions_total`` counts them all)
READINGS_STEP = 20
READINGS_MAX = 200


def readings_shown(args) -> int:
    """How many readings the page lists: ``?readings=`` (a multiple of 20, at most 200;
    anything else is the default 20, and the canonical URL drops it)."""
    raw = args.get("readings", "")
    if raw.isdigit() and int(raw) % READINGS_STEP == 0:
        return max(READINGS_STEP, min(int(raw), READINGS_MAX))
    return READINGS_STEP


def canonical_url(args, form: AnalyzeForm | None = None, room: Room | None = None,
                  lang: str | None = None) -> str:
    """``/`` with the non-empty form fields in a fixed order, then ``win_by`` when not 自摸,
    the non-default options and settlement inputs of the chosen variant, the palette's target
    when not the hand, and ``lang`` when chosen: the shareable URL."""
    return _url(_state_query(args, form, room), readings_shown(args), lang)


def _state_query(args, form: AnalyzeForm | None, room: Room | None) -> str:
    """The canonical URL's query up to ``readings`` and ``lang`` (encoded once for the
    page's several links)."""
    pairs = [(k, args.get(k, "")) for k in QUERY_KEYS]
    pairs = [(k, v) for k, v in pairs if v.strip()]
    if form is not None and form.win_by.data and form.win_by.data != "self_draw":
        pairs.append(("win_by", form.win_by.data))
    if room is not None:
        pairs += room.canonical_pairs()
    pairs += tap.canonical_pairs(args)
    return urlencode(pairs, safe=":,@")


def _url(state: str, readings: int, lang: str | None) -> str:
    """``/?`` + ``state`` (:func:`_state_query`), then ``readings`` when not the default and
    ``lang`` when chosen."""
    tail = []
    if readings != READINGS_STEP:
        tail.append(("readings", str(readings)))
    if lang in LANGS:
        tail.append(("lang", lang))
    query = "&".join(q for q in (state, urlencode(tail)) if q)
    return "/?" + query if query else "/"


class _Args(MultiDict):
    """The query, whose ``get`` answers a missing key without Werkzeug's raising and catching
    a ``BadRequestKeyError`` (a page asks for some sixty keys that are not there)."""

    def get(self, key, default=None, type=None):
        if key not in self:
            return default
        return super().get(key, default, type)


@bp.get("/")
def index():
    args = request.args
    tap_message = None  # why a palette tap changed nothing
    if "meld_src" in args:
        args = tap.apply_meld_sources(args)
    if tap.has_action(args):
        args, tap_message = tap.apply(args)
    args = _Args(args)
    form = AnalyzeForm(args)
    room = None
    if form.variant.data in VARIANT_LABELS:
        marker = args.get("form_variant")
        form.set_variant(win_methods(form.variant.data),
                         stale=marker is not None and marker != form.variant.data)
        room = read_page_room(args, form.variant.data, form.win_by.data)

    lang = lang_param()
    state = _state_query(args, form, room)
    shown_readings = readings_shown(args)
    canonical = _url(state, shown_readings, lang)
    here = request.full_path.rstrip("?")
    if canonical != here and not is_htmx(request) and tap_message is None:
        return add_vary(redirect(canonical, 303))
    entry = tap.read_entry(args)
    progress = None  # tiles entered so far, while fewer than 13

    result = None
    shown = None  # the typed hand and melds, as tile codes, to draw above the result
    general_error = None  # an InputError that belongs to no form field
    error_reasons = None  # the rules behind a not_complete error (C-15)
    status = 200
    options_ok = room is None or not any(o.error for o in room.options)
    if room is not None and (room.errors or not options_ok):
        status = 422

    # C-10: a drawn game needs no hand; the settlement inputs alone settle it. A winner
    # chosen without a hand is asked of the engine the same way, which answers as the API
    # does (bad_tile: 手牌：必填) under the hand field.
    settle_only = not form.submitted and room is not None and room.settles
    if form.submitted or settle_only:
        if not form.validate():
            status = 422
        elif options_ok:  # a bad settlement input still lets the hand be analysed
            req = None
            try:
                req = form.to_request() if form.submitted else _drawn_request(form)
                if room is not None:
                    options = room.options_request()
                    if options:
                        req["options"] = options
                    settlement = None if room.errors else room.settlement_request()
                    if settlement is not None:
                        req["settlement"] = settlement
                result = _analyze(req, shown_readings)
                shown = _shown_tiles(req)
            except InputError as err:
                status = 422
                # A settlement that fails still shows the hand's own analysis, with the
                # message under the settlement input it names.
                if req is not None and "settlement" in req and not settle_only:
                    try:
                        bare = {k: v for k, v in req.items() if k != "settlement"}
                        result = _analyze(bare, shown_readings)
                        shown = _shown_tiles(bare)
                    except InputError as bare_err:
                        err = bare_err
                err = _localized_error(err)
                if (err.code == "wrong_tile_count" and entry.hand is not None
                        and entry.melds is not None and 0 < entry.count < 13):
                    # still tapping the hand in: a count, not an error
                    progress = entry.count
                    status = 422 if room is not None and room.errors else 200
                elif not (_attach(form, err)
                        or (room is not None and room.attach(err.field, err.message))):
                    general_error = err
                if err.reasons and not (result and result.get("reasons")):
                    error_reasons = err.reasons
    elif "variant" in request.args and not form.variant.validate(form):
        status = 422

    if tap_message:
        status = 422
    template = "_panel.html" if wants_fragment(request) else "index.html"
    variant_label = localized(dict(VARIANT_LABELS).get(form.variant.data, form.variant.data))
    state = _state_query(args, form, room)  # again: an engine error may name a room input
    html = render_template(
        template,
        form=form,
        entry=entry,
        palette=tap.PALETTE,
        tap_message=tap_message,
        progress=progress,
        canonical=canonical,
        lang_urls={code: _url(state, shown_readings, code) for code in LANGS},
        readings_shown=shown_readings,
        more_readings_url=_url(state, min(shown_readings + READINGS_STEP, READINGS_MAX), lang),
        kinds_in_play=_kinds_in_play(form, room),
        room=room,
        result=result,
        general_error=general_error,
        error_reasons=error_reasons,
        shown=shown,
        example_hand=EXAMPLE_HAND,
        variant_label=variant_label,
        room_html=None if room is None else room_sections(room, form, variant_label),
        _=request_gettext(),
    )
    response = make_response(html, status)
    if is_htmx(request):
        # The form pushes its raw URL; name the canonical one instead, and replace rather
        # than push when the page already shows it (a submit right after a change).
        current = urlsplit(request.headers.get("HX-Current-URL", ""))
        shown = current.path + ("?" + current.query if current.query else "")
        header = "HX-Replace-Url" if shown == canonical else "HX-Push-Url"
        response.headers[header] = canonical
    return add_vary(response)


#: rendered option and settlement sections kept (least recently used dropped first); one is
#: about 10 KB, and most pages show a variant's defaults
ROOM_HTML_MAX = 256
_room_html: OrderedDict = OrderedDict()


def room_sections(room: Room, form: AnalyzeForm, variant_label: str) -> Markup:
    """The room options and settlement inputs (``_room.html``), rendered once per room state
    (:meth:`Room.state_key`), language, ``?lang=`` (in the rule links) and win method, then
    reused: they are the same on most pages, and were a fifth of a page's rendering."""
    key = (id(current_app._get_current_object()), current_lang(), lang_param(),
           form.win_by.data, str(variant_label), room.state_key())
    html = _room_html.pop(key, None)
    if html is None:
        html = Markup(render_template("_room.html", room=room, form=form,
                                      variant_label=variant_label))
    _room_html[key] = html                  # (again) the most recently used
    while len(_room_html) > ROOM_HTML_MAX:
        try:
            _room_html.popitem(last=False)
        except KeyError:                    # emptied meanwhile by another thread
            break
    return html


def _drawn_request(form: AnalyzeForm) -> dict:
    """The request of a drawn game typed without a hand: the variant and indicator only."""
    req: dict = {"variant": form.variant.data}
    indicator = (form.indicator.data or "").strip()
    if indicator:
        req["indicator"] = indicator
    return req


def _kinds_in_play(form: AnalyzeForm, room: Room | None) -> int:
    """34, or 27 when the chosen variant and options leave the honors out (the engine says)."""
    from ..options import parse_options
    from ..variants import VARIANTS

    if room is None or form.variant.data not in VARIANTS:
        return 34
    variant = VARIANTS[form.variant.data]
    try:
        return variant.kinds_in_play(parse_options(variant.Options, room.options_request()))
    except InputError:
        return 34


def _analyze(req: dict, readings: int = READINGS_MAX) -> dict:
    """The engine's answer with its messages in this response's language; of the readings
    only the first ``readings`` (those the page lists) are rendered, the others only counted."""
    from ..analysis import analyze

    result = analyze(req)
    return {k: (localized(v[:readings]) + v[readings:] if k == "decompositions"
                and isinstance(v, list) else localized(v)) for k, v in result.items()}


def _localized_error(err: InputError) -> InputError:
    """``err`` with its message and reasons rendered in this response's language."""
    return InputError(err.code, localized(err.message), err.field, err.position,
                      localized(err.reasons))


def _shown_tiles(req: dict) -> dict:
    """The hand (sorted) and the melds as tile codes, only for drawing them."""
    from ..tiles import parse_tiles

    return {
        "hand": [t.code for t in sorted(parse_tiles(req.get("hand", "")))],
        "indicator": [t.code for t in parse_tiles(req.get("indicator", ""))],
        "winning": next((t.code for t in parse_tiles(req.get("winning_tile", ""))), None),
        "win_by": req.get("win_by"),
        "melds": [
            {"type": m.get("type"), "tiles": [t.code for t in parse_tiles(m.get("tiles", ""))]}
            for m in req.get("melds", [])
        ],
    }


def _field_of(err: InputError) -> str | None:
    """The form field an engine error belongs to (``"melds"`` for ``"melds.0.tiles"``)."""
    top = (err.field or "").split(".")[0]
    if top in ("variant", "win_by") or top in TEXT_FIELDS:
        return top
    return None


def _attach(form: AnalyzeForm, err: InputError) -> bool:
    """Put ``err`` under its form field; False when it names none."""
    name = _field_of(err)
    if name:
        field = getattr(form, name)
        field.errors = list(field.errors or []) + [err.message]
        field.error_position = err.position
        return True
    return False
