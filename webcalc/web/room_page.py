"""One room's page, shared by its homes: the calculator (``GET /``, :mod:`webcalc.web.pages`)
and a table's entry (``/t/<edit>``, :mod:`webcalc.web.ledger_pages`). Read → the canonical
URL (a 303 when the request is not it) → analyse once → render (:func:`room_page`), each
step its own function; a :class:`Home` says what it fixes of the room. No blueprint here:
both page blueprints import this module, and neither imports the other
(docs/decisions.md "One room, two homes", "Thin views")."""

from __future__ import annotations

import functools
import hashlib
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass
from typing import cast
from urllib.parse import urlencode, urlsplit

from flask import (
    Response,
    make_response,
    redirect,
    render_template,
    request,
)
from markupsafe import Markup
from werkzeug.datastructures import MultiDict
from werkzeug.wrappers import Response as BaseResponse

from ..analysis import VARIANT_LABELS, Analysis, SettledWithoutTiles
from ..errors import InputError
from ..variants import EXAMPLE_REQUEST
from . import tap
from .forms import TEXT_FIELDS, AnalyzeForm, attach_error
from .htmx import add_vary, is_htmx, wants_fragment
from .i18n import (
    LANGS,
    current_app_key,
    current_lang,
    lang_param,
    localized,
    localized_error,
    request_gettext,
)
from .room import Room, win_methods
from .room_url import canonical_pairs, read_options, read_page_room
from .templating import spliced

EXAMPLE_HAND = EXAMPLE_REQUEST["hand"]


QUERY_KEYS = ("variant",) + TEXT_FIELDS

#: the page lists this many readings, and each "more" link this many more, up
#: to the engine's 200 (the API's cap; ``decompositions_total`` counts them all)
READINGS_STEP = 20
READINGS_MAX = 200


def readings_shown(args) -> int:
    """How many readings the page lists: ``?readings=`` (a multiple of 20, at most 200;
    anything else is the default 20, and the canonical URL drops it)."""
    raw = args.get("readings", "")
    # isdecimal, not isdigit: "²" is a digit int() cannot read; 4 300 digits int() refuses
    if raw.isdecimal() and len(raw) <= 6 and int(raw) % READINGS_STEP == 0:
        return max(READINGS_STEP, min(int(raw), READINGS_MAX))
    return READINGS_STEP


def canonical_url(args, form: AnalyzeForm | None = None, room: Room | None = None,
                  lang: str | None = None) -> str:
    """``/`` with the non-empty form fields in a fixed order, then ``win_by`` when not 自摸,
    the non-default options and settlement inputs of the chosen variant, the palette's target
    when not the hand, and ``lang`` when chosen: the shareable URL."""
    return _url(_state_query(args, form, room), readings_shown(args), lang)


def _state_pairs(args, form: AnalyzeForm | None, room: Room | None,
                 home: Home | None = None) -> list[tuple[str, str]]:
    """The canonical URL's state as ``(key, value)`` pairs, up to ``readings`` and ``lang``:
    the text fields, ``win_by`` when not 自摸, the room's inputs, the palette's target; a
    home that fixes part of the room (:meth:`Home.state_pairs`) leaves that part out."""
    pairs = [(k, args.get(k, "")) for k in QUERY_KEYS]
    pairs = [(k, v) for k, v in pairs if v.strip()]
    if form is not None and form.win_by.data and form.win_by.data != "self_draw":
        pairs.append(("win_by", form.win_by.data))
    if room is not None:
        pairs += canonical_pairs(room)
    pairs += tap.canonical_pairs(args)
    if home is not None:
        pairs = home.state_pairs(pairs, args, room)
    return pairs


def _state_query(args, form: AnalyzeForm | None, room: Room | None,
                 home: Home | None = None) -> str:
    """The canonical URL's query up to ``readings`` and ``lang`` (encoded once for the
    page's several links)."""
    return _encode(_state_pairs(args, form, room, home))


def _encode(pairs) -> str:
    return urlencode(pairs, safe=":,@")


def _url(state: str, readings: int, lang: str | None, path: str = "/",
         flags: list[tuple[str, str]] | None = None) -> str:
    """``path`` + ``?`` + ``state`` (:func:`_state_query`), then ``readings`` when not the
    default, ``lang`` when chosen and the home's display ``flags`` when given."""
    tail = []
    if readings != READINGS_STEP:
        tail.append(("readings", str(readings)))
    if lang in LANGS:
        tail.append(("lang", lang))
    tail += flags or []
    query = "&".join(q for q in (state, urlencode(tail)) if q)
    return path + "?" + query if query else path


class _Args(MultiDict):
    """The query, whose ``get`` answers a missing key without Werkzeug's raising and catching
    a ``BadRequestKeyError`` (a page asks for some sixty keys that are not there)."""

    # MultiDict's overloads of ``get`` take ``type`` second where this takes ``default``;
    # Werkzeug's own subclasses that override ``get`` ignore the same check
    def get(self, key, default=None, type=None):  # type: ignore[override]
        if key not in self:
            return default
        return super().get(key, default, type)


# -- one room, two homes ------------------------------------------------------------------------

class Home:
    """Where a room lives, and what that home fixes of it: the calculator (``/``, this class:
    nothing fixed) or a table's entry (``/t/<edit>``,
    :class:`webcalc.web.ledger_home.TableHome`: the table's variant, options, base, names and
    dealer). Both read, canonicalise, analyse and render a room with the same functions below
    (:func:`read_room_state`, :func:`analyse`, :func:`render_room`); a home only binds the
    arguments (:meth:`bind`), trims the URL state (:meth:`state_pairs`) and may settle a win
    given without tiles (:meth:`handless_request`). docs/decisions.md "One room, two homes"."""

    page = "index.html"                 # the full page's template
    fragment = "_panel.html"            # what htmx swaps in
    is_table = False
    #: the full page is the fragment inside the page's head and foot, which carry nothing of
    #: the request but its language (:func:`~webcalc.web.templating.spliced`); a home whose
    #: page shows more around its panel says False
    shell = True
    #: one-off display flags kept on the URL they came with, never in the room's state
    flags: tuple[str, ...] = ()
    #: URL state that names the entry rather than its room (the table's idempotency key):
    #: no part of what the result is computed from (:attr:`RoomState.fingerprint`)
    entry_keys: tuple[str, ...] = ()

    @property
    def path(self) -> str:
        """The page's path, under the app's script root (``/calc/`` when mounted at
        ``/calc``): its canonical URL's, its form's action."""
        return request.script_root + "/"

    def bind(self, args) -> MultiDict:
        """The arguments the room is read from: ``args`` with what the home fixes put in."""
        return args

    def state_pairs(self, pairs, args, room) -> list[tuple[str, str]]:
        """The URL state of this home (the calculator keeps everything)."""
        return pairs

    def handless_request(self, form, room) -> dict | None:
        """A request for :func:`webcalc.analysis.settle_without_tiles` when this home settles
        a win typed without its tiles (the table's quick entry); the calculator does not."""
        return None

    def attach(self, err: InputError) -> bool:
        """Put an engine error the room and the form do not hold under the home's input."""
        return False

    def context(self, st: RoomState) -> dict:
        """More template variables."""
        return {}

    def room_extra(self, st: RoomState) -> Hashable | None:
        """What else the home shows in the room's option and settlement sections (part of
        their cache key, so hashable): the table's carried bets."""
        return None


CALCULATOR = Home()


@dataclass
class RoomState:
    """One request's room: what was read, its canonical URL, and (after :func:`analyse`)
    the engine's answer and the request it was computed from (``req``)."""

    home: Home
    args: MultiDict
    form: AnalyzeForm
    room: Room | None
    tap_message: str | None
    pairs: list[tuple[str, str]]
    readings: int
    lang: str | None
    canonical: str
    result: Analysis | SettledWithoutTiles | None = None
    shown: dict | None = None
    general_error: InputError | None = None
    error_reasons: list | None = None
    progress: int | None = None
    status: int = 200
    req: dict | None = None             # the request the result was computed from
    without_tiles: bool = False         # settled by settle_without_tiles (a quick entry)
    error: InputError | None = None     # the engine's error placed on the page (the first)
    marks: tuple = ()                   # the room's error marks when read (_error_marks)
    query: str | None = None            # ``pairs`` encoded when read (the canonical URL's)

    @property
    def state(self) -> str:
        """``pairs`` as a query (encoded once: the canonical URL holds it, and the page's
        language links and "more readings" link hold it again)."""
        return _encode(self.pairs) if self.query is None else self.query

    @functools.cached_property
    def entry(self) -> tap.Entry:
        """What the tap area draws: the fields as tiles, read when first asked (a 303 to the
        canonical URL never asks)."""
        return tap.read_entry(self.args)

    @property
    def fingerprint(self) -> str:
        """What the result was computed from, in 16 hex digits: the canonical state less the
        palette's own (its target does not change the result). A record posts it back, and
        the table records only when the posted fields give the same (docs/decisions.md).
        The home's :attr:`Home.entry_keys` are left out too."""
        skip = {k for k, _v in tap.canonical_pairs(self.args)} | set(self.home.entry_keys)
        room_state = _encode([(k, v) for k, v in self.pairs if k not in skip])
        return hashlib.sha256(room_state.encode()).hexdigest()[:16]


def read_room_state(home: Home, raw) -> RoomState:
    """Read a room from ``raw`` (the query, or a posted form) as ``home`` binds it: a palette
    tap applied, the form and the room read, the canonical URL made."""
    args = _without_history(home, raw)
    tap_message = None  # why a palette tap changed nothing
    if "meld_src" in args:
        args = tap.apply_meld_sources(args)
    if tap.has_action(args):
        args, tap_message = tap.apply(args)
    args = _Args(home.bind(args))
    form = AnalyzeForm(args)
    room = None
    if form.variant.data in VARIANT_LABELS:
        marker = args.get("form_variant")
        form.set_variant(win_methods(form.variant.data),
                         stale=marker is not None and marker != form.variant.data)
        room = read_page_room(args, form.variant.data, form.win_by.data)
    lang = lang_param()
    pairs = _state_pairs(args, form, room, home)
    shown_readings = readings_shown(args)
    flags = [(k, request.args[k]) for k in home.flags if request.args.get(k)]
    query = _encode(pairs)
    canonical = _url(query, shown_readings, lang, home.path, flags)
    st = RoomState(home, args, form, room, tap_message, pairs, shown_readings, lang,
                   canonical, marks=_error_marks(room), query=query)
    st.status = 200
    options_ok = room is None or not any(o.error for o in room.options)
    if room is not None and (room.errors or not options_ok):
        st.status = 422
    return st


def _error_marks(room: Room | None) -> tuple:
    """What of a room an error placed after reading (the engine's, the ledger's) can change
    in its canonical state: which inputs have an error (those keep the text as typed) and
    which options do."""
    if room is None:
        return ()
    return tuple(room.errors), tuple(o.error is None for o in room.options)


def _without_history(home: Home, raw):
    """``raw`` less the winner's turns where the variant takes none (a stale URL, a switched
    variant): the field, and the palette's 摸/打 target, which becomes the hand's so a tap still
    lands somewhere. Only read when the request has either (its options read then)."""
    if "history" not in raw and raw.get("target") != "history":
        return raw
    bound = _Args(home.bind(raw))
    variant = bound.get("variant") or next(iter(VARIANT_LABELS))
    if variant in VARIANT_LABELS and read_options(bound, variant).takes_history:
        return raw
    out = MultiDict(raw)
    out.poplist("history")
    if out.get("target") == "history":
        out.setlist("target", ["hand"])
    return out


def asked_url() -> str:
    """The path and query this request asked for, under the app's script root, as a
    canonical URL (made with ``url_for`` or the script root) writes them: what one is
    compared with (without the root, a page mounted under a prefix answered 303 to
    itself)."""
    return request.script_root + request.full_path.rstrip("?")


def needs_redirect(st: RoomState) -> bool:
    """A plain GET whose URL is not the canonical one (a tap, a form's extra fields)."""
    return st.canonical != asked_url() and not is_htmx(request) and st.tap_message is None


def analyse(st: RoomState) -> None:
    """The engine's answer for the room, computed once: the hand's analysis with the room's
    options and settlement; a drawn game (or, on the calculator, a winner without a hand) by
    the variant and indicator alone; a win without tiles where the home settles one."""
    form, room, entry = st.form, st.room, st.entry
    options_ok = room is None or not any(o.error for o in room.options)
    # C-10: a drawn game needs no hand; the settlement inputs alone settle it. A winner
    # chosen without a hand is asked of the engine the same way, which answers as the API
    # does (bad_tile: 手牌：必填) under the hand field.
    settle_only = not form.submitted and room is not None and room.settles
    handless = (not form.submitted and room is not None and options_ok and not room.errors
                and _analyse_handless(st))
    if handless:
        pass                            # settled (or refused) without tiles
    elif form.submitted or settle_only:
        if not form.validate():
            st.status = 422
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
                st.result = _analyze(req)
                st.shown = _shown_tiles(req, entry if form.submitted else None)
                st.req = req
            except InputError as first_err:
                failure = first_err
                st.status = 422
                # A settlement that fails still shows the hand's own analysis, with the
                # message under the settlement input it names.
                if req is not None and "settlement" in req and not settle_only:
                    try:
                        bare = {k: v for k, v in req.items() if k != "settlement"}
                        st.result = _analyze(bare)
                        st.shown = _shown_tiles(bare, entry)
                    except InputError as bare_err:
                        failure = bare_err
                err = localized_error(failure)
                if (err.code == "wrong_tile_count" and entry.hand is not None
                        and entry.melds is not None and 0 < entry.count < 13):
                    # still tapping the hand in: a count, not an error
                    st.progress = entry.count
                    st.status = 422 if room is not None and room.errors else 200
                else:
                    _place(st, err)
                if err.reasons and not (isinstance(st.result, Analysis) and st.result.reasons):
                    st.error_reasons = err.reasons
    elif "variant" in st.args and not form.variant.validate(form):
        st.status = 422
    if st.tap_message:
        st.status = 422


def _analyse_handless(st: RoomState) -> bool:
    """A win its home settles without tiles (the table's quick entry), settled as the ledger
    settles it; False when the home does not (the calculator: the engine asks for a hand)."""
    try:
        req = st.home.handless_request(st.form, st.room)
        if req is None:
            return False
        st.result = _settle_without_tiles(req)
        st.req = req
        st.without_tiles = True
    except InputError as err:           # the home's own input (a declared factor) first
        st.status = 422
        st.result = st.req = None
        st.error = st.error or localized_error(err)
        if not st.home.attach(err):
            _place(st, localized_error(err))
    return True


def _place(st: RoomState, err: InputError) -> None:
    """An engine error under its input: the form's, the room's, the home's, else general
    (and kept as ``st.error``: the share picture answers with it, webcalc/web/cards.py)."""
    if st.error is None:
        st.error = err
    if not (attach_error(st.form, err)
            or (st.room is not None
                and st.room.attach(err.field, cast(str, err.message)))   # rendered by localized_error
            or st.home.attach(err)):
        st.general_error = err


def calculator_title(form, tiles=None) -> str:
    """The calculator page's ``<title>``, what a chat list shows of a shared link (WeChat
    ignores Open Graph): the hand in the reader's notation and the variant, then the site.
    ``tiles``: the hand's tiles as typed where the tap area has read them (``None``: the
    text does not parse, or not read: then it is parsed for the title)."""
    from .i18n import VARIANT_NAMES
    from .templating import hand_title

    site = request_gettext()("Mahjong calculator") + " · webcalc"
    if not form.submitted:
        return site
    variant = form.variant.data
    return (f"{hand_title(form.hand.data, tiles)} · {VARIANT_NAMES.get(variant, variant)}"
            f" · {site}")


def render_room(st: RoomState, template: str | None = None, status: int | None = None,
                **extra) -> Response:
    """The page (or, for htmx, the panel) of a room: the same template variables on both
    homes, then the home's own (:meth:`Home.context`) and ``extra``."""
    form, room = st.form, st.room
    home = st.home
    if template is None:
        template = home.fragment if wants_fragment(request) else home.page
    variant_label = localized(VARIANT_LABELS.get(form.variant.data, form.variant.data))
    # the calculator's title names the hand; an htmx swap carries it too (htmx 4 sets
    # document.title from a <title> in the answer), so a link shared after a tap reads right
    calc_title = None if home.is_table else calculator_title(form, st.entry.typed)
    # the state read (st.pairs), unless an error placed since names a room input: then again
    state = (st.state if _error_marks(room) == st.marks
             else _state_query(st.args, form, room, home))
    context = dict(
        home=home,
        form=form,
        entry=st.entry,
        palette=tap.PALETTE,
        tap_message=st.tap_message,
        progress=st.progress,
        canonical=st.canonical,
        state_pairs=st.pairs,
        lang_urls={code: _url(state, st.readings, code, home.path) for code in LANGS},
        readings_shown=st.readings,
        more_readings_url=_url(state, min(st.readings + READINGS_STEP, READINGS_MAX),
                               st.lang, home.path),
        kinds_in_play=_kinds_in_play(form, room),
        room=room,
        result=st.result,
        without_tiles=st.without_tiles,
        general_error=st.general_error,
        error_reasons=st.error_reasons,
        shown=st.shown,
        example_hand=EXAMPLE_HAND,
        example=EXAMPLE_REQUEST,
        variant_label=variant_label,
        calc_title=calc_title,
        fragment_title=calc_title if template == home.fragment else None,
        room_html=None if room is None else room_sections(room, form, variant_label, home,
                                                          home.room_extra(st)),
        _=request_gettext(),
        **home.context(st),
        **extra,
    )
    if template == home.page and home.shell:
        # the panel as htmx gets it, in the page's head and foot, which carry nothing of the
        # request but its language: rendered once per language and spliced around it
        html: str = spliced(template, calc_title=calc_title,
                            panel_html=Markup(render_template(home.fragment, **context)))
    else:
        html = render_template(template, **context)
    response = make_response(html, st.status if status is None else status)
    if is_htmx(request) and request.method == "GET":
        # The form pushes its raw URL; name the canonical one instead, and replace rather
        # than push when the page already shows it (a submit right after a change).
        try:
            current = urlsplit(request.headers.get("HX-Current-URL", ""))
            shown = current.path + ("?" + current.query if current.query else "")
        except ValueError:              # "http://[::1": no page the browser could show
            shown = None
        header = "HX-Replace-Url" if shown == st.canonical else "HX-Push-Url"
        response.headers[header] = st.canonical
    return add_vary(response)


def room_page(home: Home, **extra) -> BaseResponse:
    """A home's GET: read → the canonical URL (303 when this is not it) → analyse once →
    render."""
    st = read_room_state(home, request.args)
    if needs_redirect(st):
        return add_vary(redirect(st.canonical, 303))
    analyse(st)
    return render_room(st, **extra)


#: rendered option and settlement sections kept (least recently used dropped first); one is
#: about 10 KB, and most pages show a variant's defaults
ROOM_HTML_MAX = 256
_room_html: OrderedDict = OrderedDict()


def room_sections(room: Room, form: AnalyzeForm, variant_label: str,
                  home: Home = CALCULATOR, extra: Hashable | None = None) -> Markup:
    """The room options and settlement inputs (``_room.html``), rendered once per room state
    (:meth:`Room.state_key`), language, ``?lang=`` and script root (in the rule links: the
    warm-up draws at the root, webcalc.web.warmup), win method (and its
    errors: 胡法 is drawn beside 胡牌者) and home
    (a table shows its options and dealer fixed; ``extra``: what else the home shows there,
    hashable), then reused: they are the same on most pages, and were a fifth of a page's
    rendering. On fresh hands in fresh rooms (random options and settlement inputs) this
    buys 18.2 % of page CPU (range 13.1-28.0 % over 7 repeats: ``python bench/machinery.py
    --hands 60 --repeats 7``, 2026-12-06, commit f324730, load 12-16; bench/RESULTS.md
    "Machinery (issue 37.2)")."""
    key = (current_app_key(), current_lang(),
           lang_param(), request.script_root,
           form.win_by.data, tuple(str(e) for e in form.win_by.errors), str(variant_label),
           room.state_key(), home.is_table, extra)
    html = _room_html.pop(key, None)
    if html is None:
        html = Markup(render_template("_room.html", room=room, form=form, home=home,
                                      room_extra=extra, variant_label=variant_label))
    _room_html[key] = html                  # (again) the most recently used
    while len(_room_html) > ROOM_HTML_MAX:
        try:
            _room_html.popitem(last=False)
        except KeyError:                    # emptied meanwhile by another thread
            break
    return html


def _settle_without_tiles(req: dict) -> SettledWithoutTiles:
    """A win given without its tiles, settled as the ledger settles it, drawn by the page
    as a handless result (``tile_count`` 0), its messages in this response's language."""
    from ..analysis import settle_without_tiles

    return settle_without_tiles(req).localized(localized)


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
        # no option changed (most rooms): the defaults, without building the option specs
        return variant.kinds_in_play(parse_options(variant.Options,
                                                   room.options_request() or None))
    except InputError:
        return 34


def _analyze(req: dict) -> Analysis:
    """The engine's answer with its messages in this response's language (the readings
    hold none: they are passed on as they are)."""
    from ..analysis import analyze

    return analyze(req).localized(localized)


def _shown_tiles(req: dict, entry: tap.Entry | None = None) -> dict:
    """The hand (sorted) and the melds as tile codes, only for drawing them. ``entry``: the
    tap area's reading of the same fields (a typed hand's request is those fields as typed,
    less trailing spaces), whose tiles are taken as they are instead of parsed again."""
    from ..tiles import parse_tiles

    hand = entry.hand if entry is not None else None
    indicator = entry.indicator if entry is not None else None
    winning = entry.winning if entry is not None else None
    if hand is None:
        hand = sorted(parse_tiles(req.get("hand", "")))
    if indicator is None:
        indicator = parse_tiles(req.get("indicator", ""))
    if winning is None:
        winning = parse_tiles(req.get("winning_tile", ""))
    return {
        "hand": [t.code for t in hand],
        "indicator": [t.code for t in indicator],
        "winning": winning[0].code if winning else None,
        "win_by": req.get("win_by"),
        "melds": [
            {"type": m.get("type"), "tiles": [t.code for t in parse_tiles(m.get("tiles", ""))]}
            for m in req.get("melds", [])
        ],
    }
