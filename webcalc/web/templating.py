"""Template helpers: tile codes from the result dict → faces to draw, Chinese labels, and the
cached tile drawing.

A page draws hundreds of tiles, each once through a Jinja macro with gettext was most of a
page's CPU. :func:`tile`, :func:`palette_key` and the like (template globals) render each
distinct tile and palette key once per language with the macros of
``templates/_tiles.html`` and reuse the :class:`~markupsafe.Markup` after that: bounded LRU
caches keyed by the language and the arguments, so the HTML is exactly the macro's.
What they buy on fresh hands (bench/machinery.py, 2026-12-06, commit f324730, load 12-16,
``python bench/machinery.py --hands 60 --repeats 7``, median of 7 repeats): the tile caches
(``_tile``, ``_useful_item``, ``_hand_key``, ``_hand_key_tail``) 40.5 % of page CPU, the
palette, tap-target and meld-builder caches 12.3 % (the tap-target cache went in issue 38
round 6: :func:`tap_targets` written in Python costs less than it did on fresh hands; the
result's lists are :mod:`webcalc.web.result_lists`). Caches of the reading groups, reading
headings, waits' worth and shanten labels bought 3.4 % together and went (issue 37.2: under
10 % of its path).

A piece whose only per-request parts are a few plain values (the full page's head and foot,
the toolbar, the typed hand's line, the typed-input fold) is rendered once per language and
key with the values spliced in (:func:`spliced`; its figure at :data:`SPLICED`).

The templates run in Flask's own Jinja environment. A patched one (its ``escape`` returning
a Markup as is, ``d.key`` on a dict read as ``d[key]``, plain functions called without
Jinja's checks) bought 3.9 % of page CPU on fresh hands (range 1.6-26 %, each part alone
-2.8 to 1.3 %: bench/machinery.py, 2026-12-06, commit f324730, load 12-16) and went
(issue 37.2: under 10 % of its path).
"""

from __future__ import annotations

import re
from functools import lru_cache
from numbers import Number
from types import SimpleNamespace
from typing import TYPE_CHECKING, cast

from flask import Flask, current_app, request
from markupsafe import Markup, escape

from .i18n import (
    SEAT_LABELS,
    VARIANT_NAMES,
    _gettext,
    _request_i18n,
    app_key,
    app_lang,
    current_lang,
    lang_param,
    list_sep,
)
from .i18n import lazy_gettext as _l
from .settlement_form import KONG_TYPES
from .tap import MELD_TYPE_LABELS, TARGET_LABELS

if TYPE_CHECKING:
    from werkzeug.local import LocalProxy


def N_(string: str) -> str:
    """A msgid for ``pybabel extract`` (translated where it is shown)."""
    return string


KIND_LABELS = {
    "pair": _l("Pair"),
    "sequence": _l("Sequence"),
    "triplet": _l("Triplet"),
    "kong": _l("Kong"),
    "free": _l("Any"),
    "single": _l("Single"),
    "knitted": _l("Knitted run (147/258/369)"),
}

SHAPE_LABELS = {
    "standard": _l("Four sets and a pair"),
    "seven_pairs": _l("Seven pairs"),
    "thirteen_orphans": _l("Thirteen orphans"),
    "knitted": _l("Knitted (十三不靠)"),
    "four_wildcards": _l("Four wildcards"),
}

MELD_LABELS = MELD_TYPE_LABELS

ITEM_LABELS = {
    "win": _l("Win"),
    "kong": _l("Kong"),
    "follow_dealer": _l("Following the dealer (前包)"),
    "draw_penalty": _l("Draw penalty (后包)"),
}

#: the engine's win methods, named in the page's language (Chinese = the engine's names)
WIN_BY_LABELS = {
    "self_draw": _l("Self-drawn"),
    "discard": _l("On a discard"),
    "kong_replacement": _l("On a kong replacement"),
    "robbing_kong": _l("Robbing a kong"),
}

SUIT_EN = {"m": "Characters", "p": "Dots", "s": "Bamboo"}
HONOR_EN = ("East wind", "South wind", "West wind", "North wind", "White dragon", "Green dragon",
            "Red dragon")


def tile_name(code) -> str:
    """A tile's spoken name: ``五万`` in Chinese, ``5 Characters`` in English."""
    face = tile_face(code)
    if current_lang() == "zh" or not face.code[:1].isdigit():
        return face.chinese                    # Chinese, or not a tile: as drawn
    rank = int(face.code[0])
    return HONOR_EN[rank - 1] if face.suit == "z" else f"{rank} {SUIT_EN[face.suit]}"


def hand_title(text, tiles=None) -> str:
    """A typed hand as a page title names it: in Chinese the tiles' own notation, a suit's
    run under one suit character (``一二三万 四五六筒 东东``), in English the canonical codes
    (``123m456p11z``); text that is not tiles, as typed. ``tiles``: ``text``'s tiles in the
    order typed where the caller has read them already (the tap area's
    :attr:`~webcalc.web.tap.Entry.typed`), else they are parsed here."""
    from ..tiles import parse_tiles

    text = str(text or "").strip()
    if tiles is None:
        try:
            tiles = parse_tiles(text)
        except Exception:  # noqa: BLE001 - a title never fails
            return text
    if not tiles:
        return text
    if current_lang() != "zh":
        from ..tiles import format_tiles

        return format_tiles([int(t) for t in tiles], sort=False)
    from itertools import groupby

    from ..tiles import SUIT_CHINESE

    return " ".join("".join(t.rank_char for t in run) + SUIT_CHINESE[suit]
                    for suit, run in groupby(tiles, key=lambda t: t.suit))


def tile_text(code) -> str:
    """A tile as a short text note writes it: its face (``一筒``, ``白``) in Chinese, its
    code (``1p``, ``5z``) in English, as the English messages name tiles."""
    face = tile_face(code)
    return face.chinese if current_lang() == "zh" else face.code


def tile_names(text) -> str:
    """A tile string read aloud (``"555m"`` → ``五万 五万 五万``), for labels a screen reader
    speaks: never the codes."""
    return " ".join(tile_name(c) for c in tile_codes(text))


def tile_codes(text) -> list[str]:
    """The tile codes of a tile string (a meld's ``"555m"``)."""
    from ..tiles import parse_tiles

    try:
        return [t.code for t in parse_tiles(str(text or ""))]
    except Exception:  # noqa: BLE001 - drawing never fails
        return []

_RULE_TAIL = re.compile(r"\s*[（(]([A-Z]{1,3}-\d+(?:[、,，]\s*[A-Z]{1,3}-\d+)*)[）)]\s*$")


def split_rule(detail) -> tuple[str, list[str]]:
    """An engine ``detail`` → (text, [rule ids]) when it ends with its rule ids, ``（C-11、C-15）``
    (or, in English, `` (C-11, C-15)``)."""
    text = str(detail or "")
    m = _RULE_TAIL.search(text)
    if not m:
        return text, []
    return text[:m.start()], re.split(r"[、,，]\s*", m.group(1))


def points(x, sign: bool = False) -> str:
    """A settlement amount as the engine's details print it (no exponent); ``sign`` adds +."""
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return str(x)
    if isinstance(x, float) and x.is_integer() and abs(x) < 1e15:
        x = int(x)
    text = str(x) if isinstance(x, int) else repr(x)
    return ("+" + text) if sign and x > 0 else text


class TileFace:
    """What the tile macro needs to draw one tile."""

    __slots__ = ("code", "chinese", "rank_char", "suit_char", "suit")

    def __init__(self, code: str, chinese: str, rank_char: str, suit_char: str):
        self.code = code
        self.chinese = chinese
        self.rank_char = rank_char
        self.suit_char = suit_char
        self.suit = code[-1:] if code else ""


def _faces() -> dict[str, TileFace]:
    from ..tiles import NUM_KINDS, Tile

    return {t.code: TileFace(t.code, t.chinese, t.rank_char, t.suit_char)
            for t in map(Tile, range(NUM_KINDS))}


#: the 34 tiles' faces by their canonical codes: a table of constants, not a cache (reading a
#: code with ``Tile.parse`` was about 3 µs, a few dozen times a page)
FACES = _faces()


def tile_face(code: str) -> TileFace:
    """Map a canonical tile code (``"5m"``) to its face; an unknown code is drawn as text."""
    face = FACES.get(code) if isinstance(code, str) else None
    if face is not None:
        return face
    from ..tiles import Tile

    try:
        t = Tile.parse(str(code))
    except Exception:  # noqa: BLE001 - drawing never fails on an odd code
        return TileFace(str(code), str(code), str(code), "")
    return TileFace(t.code, t.chinese, t.rank_char, t.suit_char)


def seat_label(seat) -> str:
    if isinstance(seat, int) and 0 <= seat < len(SEAT_LABELS):
        return SEAT_LABELS[seat]
    return "—" if seat is None else str(seat)


def seat(room, i) -> Markup:
    """A seat as the result names it (what ``_result.html``'s ``seat`` macro drew, the same
    bytes): in ``room`` (``None`` where there is none) a renamed seat by its name, then its
    seat in small type (``Ann（东家）``), else the seat's label; out of a room,
    :func:`seat_label`. One call instead of a macro call, a dozen of them per settlement."""
    # Jinja's ``is number``: bools too
    if room and isinstance(i, Number) and 0 <= cast(float, i) < 4:
        if not isinstance(i, int):      # SEAT_NAMES[1.0]: undefined in the macro, nothing
            return Markup("")
        label = escape(SEAT_LABELS[i])
        if not room.seat_renamed(i):
            return label
        seat_of = f"（{label}）" if current_lang() == "zh" else f" ({label})"
        return Markup(f'{escape(room.seat_name(i))}<small class="seat-of">{seat_of}</small>')
    return escape(seat_label(i))


# -- cached drawing ---------------------------------------------------------------------------

#: bounds of the drawing caches (entries; a tap area is about 1–2 KB of HTML, so a few MB in all)
TILE_CACHE_MAX = 1 << 11
GROUP_CACHE_MAX = 1 << 9


def _macros():
    """The ``_tiles.html`` template module of the current app and language (the template is
    compiled once per language, its module made once per template)."""
    return current_app.jinja_env.get_template("_tiles.html").module


@lru_cache(maxsize=TILE_CACHE_MAX)
def _tile(app_id: int, lang: str, code, wild, mark, size, face, plain) -> Markup:
    return Markup(_macros().tile_markup(code, wild=wild, mark=mark, size=size, face=face,
                                        plain=plain))


def tile(code, wild=False, mark=False, size="", face=None, plain=False) -> Markup:
    """One tile's HTML (``_tiles.html`` ``tile_markup``), rendered once per language and
    arguments. ``code`` and ``face`` are tile codes; the flags as in the macro."""
    return _tile(*app_lang(), str(code), bool(wild),
                 bool(mark), str(size or ""), None if face is None else str(face), bool(plain))


def tile_row(items, size="", marks=None, key=None) -> Markup:
    """``tile(code, mark=(code in marks), size=size)`` for each of ``items`` (tile codes, or
    dicts whose ``key`` is the code), joined: one template call for a row of tiles."""
    app_id, lang, size, marks = *app_lang(), \
        str(size or ""), marks or ()
    codes = [item[key] for item in items] if key else items
    return Markup("".join([_tile(app_id, lang, str(c), False, c in marks, size, None, False)
                           for c in codes]))


@lru_cache(maxsize=TILE_CACHE_MAX)
def _useful_item(app_id: int, lang: str, code: str, remaining: int, mark: bool,
                 ready: bool) -> Markup:
    return Markup(_macros().useful_item_markup(code, remaining, mark, ready))


def useful_items(useful, wild=None, ready=False) -> Markup:
    """The items of a 牌理 useful-draw list (``useful``: ``{"tile", "remaining"}`` dicts),
    each on its own line, indented by two spaces: ``useful_item_markup`` (its tile, how many
    are left and, ``ready`` (a wait) with none left, the dead-wait flag), rendered once per
    language and arguments."""
    app_id, lang, wild, ready = *app_lang(), \
        wild or (), bool(ready)
    parts: list[str] = []
    for u in useful:
        parts += ("  ", _useful_item(app_id, lang, str(u["tile"]), int(u["remaining"]),
                                     u["tile"] in wild, ready), "\n")
    return Markup("".join(parts))


@lru_cache(maxsize=TILE_CACHE_MAX)
def _hand_key(app_id: int, lang: str, index: int, code: str, mark: bool,
              action: str) -> Markup:
    return Markup(_macros().hand_key_markup(index, code, mark, action))


#: how every ``hand_key_markup`` begins, up to its index (``value="<index>"``)
_HAND_KEY_HEAD = '<button type="submit" name="remove" value="'


@lru_cache(maxsize=TILE_CACHE_MAX)
def _hand_key_tail(app_id: int, lang: str, code: str, mark: bool, action: str) -> str | None:
    """What follows the index in ``hand_key_markup(index, code, mark, action)`` (the same for
    every index: a fresh hand's tiles miss the per-index cache, hardly ever this one), or
    ``None`` if the macro does not begin with :data:`_HAND_KEY_HEAD` and the index."""
    html = str(_macros().hand_key_markup(0, code, mark, action))
    head = _HAND_KEY_HEAD + "0"
    return html[len(head):] if html.startswith(head) else None


def hand_keys(tiles, wild=None, action="") -> Markup:
    """The tapped-in hand's tiles (``hand_key_markup``: the button that takes out the i-th
    tile, marked when a wildcard), each rendered once per language and arguments but the
    index, which is written in between. ``tiles``: the hand's tiles (the tap area's ``Tile``
    objects) or their codes; each tile's code is read here, not by a Jinja ``map`` over
    the hand, which was about half of this call."""
    app_id, lang, wild, action = *app_lang(), \
        wild or (), str(action)
    parts: list[str] = []
    for i, t in enumerate(tiles):
        code = str(getattr(t, "code", t))
        mark = code in wild
        tail = _hand_key_tail(app_id, lang, code, mark, action)
        parts += ((_HAND_KEY_HEAD, str(i), tail) if tail is not None
                  else (_hand_key(app_id, lang, i, code, mark, action),))
    return Markup("".join(parts))


def tap_targets(entry, room) -> Markup:
    """The tap area's targets: a radio per target (摸/打 only where ``room`` takes the
    winner's turns), each with up to six of the tiles it holds now (``entry.indicator``,
    ``entry.winning``, ``entry.visible``). Written here, the bytes of ``_tap_targets.html``
    (kept as the outline, held equal by tests/test_web_render_cache.py), instead of that
    template rendered and kept per language, target and held tiles: on fresh hands the held
    tiles are new on about half the pages (a render of 100-110 µs each), and this costs
    about what a cache hit did (bench/RESULTS.md, "Issue 38, round 6: the template
    bodies")."""
    translations = _request_i18n()[0]
    app_id, lang = app_lang()
    history = bool(room and room.takes_history)
    held = {"indicator": entry.indicator, "winning_tile": entry.winning,
            "visible": entry.visible}
    parts = ['<fieldset class="targets">\n      <legend>',
             _gettext(translations, N_("Tapped tiles go to"), {}),
             '</legend>\n      <div class="target-list">\n']
    for name, label in TARGET_LABELS.items():
        if name == "history" and not history:
            continue
        on, now = entry.target == name, held.get(name)
        parts += ('        <label class="target', " target-on" if on else "",
                  '"><input type="radio" name="target" value="', escape(name),
                  '" checked>' if on else '">', '\n          <span class="target-name">',
                  escape(label), "</span>")
        if now:
            parts.append('<span class="target-now">')
            parts += [_tile(app_id, lang, str(t.code), False, False, "xs", None, True)
                      for t in now[:6]]
            if len(now) > 6:
                parts.append(f"<small>+{len(now) - 6}</small>")
            parts.append("</span>")
        parts.append("</label>\n")
    parts += ('      </div>\n      <noscript><p class="help">',
              _gettext(translations,
                       N_("Without JavaScript the choice takes effect with the next tap."), {}),
              "</p></noscript>\n    </fieldset>")
    return Markup("".join(parts))


@lru_cache(maxsize=GROUP_CACHE_MAX)
def _meld_builder(app_id: int, lang: str, target, meld_types: tuple, meld_type,
                  meld_from) -> Markup:
    entry = SimpleNamespace(target=target, meld_types=meld_types, meld_type=meld_type,
                            meld_from=meld_from)
    return Markup(current_app.jinja_env.get_template("_meld_builder.html").render(entry=entry))


def meld_builder(entry) -> Markup:
    """The meld builder under the palette (``_meld_builder.html``), rendered once per
    language, target, meld types offered and the chosen type and seat."""
    return _meld_builder(*app_lang(), entry.target, tuple(entry.meld_types), entry.meld_type,
                         entry.meld_from)


@lru_cache(maxsize=1 << 10)
def _palette_key(app_id: int, lang: str, code: str, n: int, off: bool, action: str) -> Markup:
    return Markup(_macros().palette_key_markup(code, n, off, action))


def palette_key(code, n=0, off=False, action="") -> Markup:
    """A palette button (``palette_key_markup``): 34 kinds × in-use counts × in play or not,
    per language — the palette is built from these once and reused."""
    return _palette_key(*app_lang(), str(code),
                        int(n or 0), bool(off), str(action))


def palette_row(row, used, honors_off=False, action="") -> Markup:
    """A palette row's keys (:func:`palette_key` of each code, ``used`` its in-use count,
    honors off when ``honors_off``), one per line indented by eight spaces after the first."""
    app_id, lang = app_lang()
    return Markup(_palette_keys(app_id, lang, row, used, honors_off, str(action)))


def _palette_keys(app_id: int, lang: str, row, used, honors_off: bool, action: str) -> str:
    """:func:`palette_row`'s HTML, the drawing key and ``action`` given."""
    return "\n        ".join([
        _palette_key(app_id, lang, code, int(used.get(code, 0) or 0),
                     bool(honors_off and code.endswith("z")), action) for code in row])


def palette_rows(palette, used, honors_off=False, action="") -> Markup:
    """The tap area's palette (``palette``: rows of tile codes), each row its
    ``<div class="palette-row palette-<suit>">`` around :func:`palette_row`'s keys, indented
    as ``_panel.html`` nests them, the rows joined by a new line: one template call for the
    four rows instead of a template loop calling :func:`palette_row` per row."""
    app_id, lang, action = *app_lang(), str(action)
    return Markup("\n".join([
        f'      <div class="palette-row palette-{escape(row[0][-1])}">\n'
        f"        {_palette_keys(app_id, lang, row, used, honors_off, action)}\n      </div>"
        for row in palette]))


# -- form inputs ------------------------------------------------------------------------------
# The analysis form's inputs, written out directly instead of through WTForms' widgets (whose
# generic attribute sorting and escaping were about a sixth of a page's rendering):
# the same HTML, byte for byte, as ``field.label()``, ``StringField(...)`` and ``SelectField``
# render it (attributes sorted by name, as ``wtforms.widgets.html_params`` sorts them).

def form_label(f) -> Markup:
    """``f.label()``: ``<label for="id">text</label>``."""
    return Markup(f'<label for="{escape(f.id)}">{escape(f.label.text)}</label>')


def text_input(f, placeholder="", describedby="", invalid=False, value=None) -> Markup:
    """A WTForms text field as ``f(placeholder=…, autocomplete="off",
    autocapitalize="off", spellcheck="false", aria-describedby=…[, aria-invalid="true"])``
    renders it, with ``maxlength`` from its Length validator; ``value``: its value when
    given (:func:`field_value`), else the field's."""
    maxlength = getattr(f.flags, "maxlength", None)
    invalid = ' aria-invalid="true"' if invalid else ""
    maxlength = "" if maxlength is None else f' maxlength="{escape(maxlength)}"'
    if value is None:
        value = field_value(f)
    return Markup(
        f'<input aria-describedby="{escape(describedby)}"{invalid} autocapitalize="off" '
        f'autocomplete="off" id="{escape(f.id)}"{maxlength} name="{escape(f.name)}" '
        f'placeholder="{escape(placeholder)}" spellcheck="false" type="text" '
        f'value="{escape(value)}">')


def field_value(f) -> str:
    """What a text field's input shows: its data, or nothing."""
    return "" if f.data is None else f.data


def field(f, help, placeholder="", cls="", value=None) -> Markup:
    """A text field of the analysis form with its label, errors and help (what
    ``_panel.html``'s ``field`` macro drew): ``<div class="field …">`` with the label, the
    input (:func:`text_input`, described by its errors and help; ``value``: its value when
    given, else the field's), the errors under it with the place of the bad character
    (``f.error_position``) marked, and the help text."""
    err_id, help_id, errors = f"{f.id}-error", f"{f.id}-help", f.errors
    parts = ['<div class="field', f" {escape(cls)}" if cls else "",
             " has-error" if errors else "", '">\n  ', form_label(f), "\n  ",
             text_input(f, placeholder, f"{err_id} {help_id}" if errors else help_id, errors,
                        value)]
    if errors:
        parts += ('  <p class="field-error" id="', escape(err_id), '">')
        parts += [f"<span>{escape(e)}</span>" for e in errors]
        pos, data = getattr(f, "error_position", None), f.data
        if pos is not None and data and 0 <= pos < len(data):
            parts += ('    <span class="err-at">',
                      _gettext(_request_i18n()[0], N_("At %(n)s:"), {"n": pos + 1}),
                      " <code>", escape(data[:pos]), "<mark>", escape(data[pos]), "</mark>",
                      escape(data[pos + 1:]), "</code></span>")
        parts.append("  </p>")
    parts += ('  <p class="help" id="', escape(help_id), '">', escape(help), "</p>\n</div>")
    return Markup("".join(parts))

def select_input(f, describedby="", invalid=False) -> Markup:
    """A WTForms select field as ``f(**{"aria-describedby": …, "aria-invalid": "true"})``
    renders it (no option groups)."""
    parts = ["<select "]
    if describedby:
        parts.append(f'aria-describedby="{escape(describedby)}" ')
    if invalid:
        parts.append('aria-invalid="true" ')
    parts.append(f'id="{escape(f.id)}" name="{escape(f.name)}">')
    data, coerce = f.data, f.coerce
    for c in f.choices:
        value = str(c.value) if isinstance(c.value, bool) else c.value
        parts.append(f'<option {"selected " if coerce(c.value) == data else ""}'
                     f'value="{escape(value)}">{escape(c.label or c.value)}</option>')
    parts.append("</select>")
    return Markup("".join(parts))


# -- pieces rendered once per language, the request's values spliced in -----------------------

#: False renders every spliced piece whole at each request (the same bytes:
#: tests/test_web_spliced.py). What the pieces buy together (the full page's head and foot,
#: the toolbar, the hand line, the typed-input fold): 14.9 % of the full page's CPU
#: (11.5-16.1 %; 7.6 % of the htmx fragment, 6.3-12.1 %, which has no head and foot):
#: ``python bench/machinery.py --hands 200 --repeats 11 --only spliced``, 2026-12-07
#: 08:48 UTC, branch h48w, load 3.6-4.5 (the head and foot alone bought 7.4 %, range
#: 3.8-9.9 %, in the same instrument at load 1.3: under 10 % alone, as in round 2)
SPLICED = True
#: the copies kept, a few KB each (per app, script root and the four language and
#: ``?lang=`` pairs in use: the head and foot, the hand line, the fold with and without the
#: winner's turns and a toolbar per home and rule set, about 13, so about 52); when full,
#: emptied
SPLICED_MAX = 128
_spliced: dict = {}
_SENTINEL = re.compile("\x00([a-z_]+)\x00")


def spliced(template: str, key: tuple | None = (), fixed: dict | None = None,
            **values) -> Markup:
    """``template`` rendered with ``fixed`` (the same on every request of ``key``) and
    ``values`` (what differs per request); ``key`` ``None``: rendered whole (a piece showing
    an error under one of its inputs). Else from a copy rendered once per app (its
    :func:`~webcalc.web.i18n.app_key`, never reused as an id is), language,
    ``?lang=`` (in its links), script root (``url_for``) and ``key`` with a sentinel
    standing for each value, each value then written where its sentinel stands, escaped as
    ``{{ value }}`` escapes it (a :class:`Markup` as it is). The copy holds no request's data,
    so one language's is never served in another (its key); the template may read only
    plain ``{{ value }}`` of these values, or hand one to a helper that writes it escaped (a
    filter or a method of one would act on the sentinel), and ``key`` must hold whatever
    else of the request it shows. The copy is kept only when, spliced with the first
    request's values, it gives what that request's own render gives, and never while
    templates reload (tests/test_web_spliced.py holds the bytes equal on a sample of
    pages). Its static URLs are fixed for the copy's life: a fingerprint is the file's when
    the copy was made (a file changed under a running app is answered ``no-cache``,
    :func:`webcalc.web.assets.static_view`)."""
    app = cast("LocalProxy[Flask]", current_app)._get_current_object()
    fixed = fixed or {}
    if key is None or not SPLICED:
        return Markup(app.jinja_env.get_template(template).render({**fixed, **values}))
    full_key = (app_key(app), template, _request_i18n()[1], lang_param(), request.script_root, key)
    parts = _spliced.get(full_key)
    if parts is None:
        tpl = app.jinja_env.get_template(template)
        parts = _SENTINEL.split(            # text, name, text, name, …, text
            tpl.render({**fixed, **{name: Markup(f"\x00{name}\x00") for name in values}}))
        whole = Markup(tpl.render({**fixed, **values}))
        if (not set(parts[1::2]) <= values.keys() or _splice(parts, values) != whole
                or app.jinja_env.auto_reload):   # (a template may change under the app)
            return whole
        if len(_spliced) >= SPLICED_MAX:
            _spliced.clear()
        _spliced[full_key] = parts
    return _splice(parts, values)


def _splice(parts: list[str], values: dict) -> Markup:
    """``parts`` (text, name, text, …) with each name's value, escaped, in its place."""
    out = list(parts)
    for i in range(1, len(out), 2):
        out[i] = escape(values[out[i]])
    return Markup("".join(out))


def hand_line(form, at_table: bool, home_path: str, canonical: str) -> Markup:
    """The typed hand with its actions (``_hand_line.html``): on the calculator
    :func:`spliced` with the hand and the link to copy (the canonical URL ``canonical`` on
    this site) written in; at a table, or with an error under the hand, rendered whole."""
    from ..variants import EXAMPLE_REQUEST

    fixed = {"form": form, "at_table": at_table, "home_path": home_path,
             "example_hand": EXAMPLE_REQUEST["hand"]}
    values = {"hand": field_value(form.hand),
              "link": "" if at_table else request.url_root.rstrip("/") + canonical}
    return spliced("_hand_line.html", None if at_table or form.hand.errors else (home_path,),
                   fixed, **values)


def toolbar_line(form, at_table: bool, lang_urls: dict) -> Markup:
    """The rule set's choice (not at a table) and the language switch (``_toolbar.html``):
    :func:`spliced` per home and chosen rule set with the two language links (``lang_urls``:
    ``zh``, ``en``) written in; with an error under the rule set, rendered whole."""
    fixed = {"form": form, "at_table": at_table}
    values = {"zh_url": lang_urls["zh"], "en_url": lang_urls["en"]}
    return spliced("_toolbar.html",
                   None if form.variant.errors else (at_table, str(form.variant.data)),
                   fixed, **values)


#: the typed-input fold's fields, as ``_typed_inputs.html`` names their values
TYPED_FIELDS = ("melds", "indicator", "visible", "winning_tile", "history")


def typed_inputs(form, room) -> Markup:
    """The typed-input fold (``_typed_inputs.html``): :func:`spliced` per rule set's turns
    (whether ``room`` takes the winner's turns, and their help) with the fields' values
    written in; with an error under one of them, rendered whole."""
    takes_history = bool(room and room.takes_history)
    history_help = room.history_help if takes_history else ""
    fixed = {"form": form, "takes_history": takes_history, "history_help": history_help}
    fields = [getattr(form, name) for name in TYPED_FIELDS]
    values = {name: field_value(f) for name, f in zip(TYPED_FIELDS, fields)}
    return spliced("_typed_inputs.html",
                   None if any(f.errors for f in fields) else (takes_history, str(history_help)),
                   fixed, **values)


def init_app(app: Flask) -> None:
    app.jinja_env.globals.update(
        form_label=form_label,
        field=field,
        hand_line=hand_line,
        toolbar_line=toolbar_line,
        typed_inputs=typed_inputs,
        text_input=text_input,
        select_input=select_input,
        tile=tile,
        tile_row=tile_row,
        useful_items=useful_items,
        palette_row=palette_row,
        palette_rows=palette_rows,
        tap_targets=tap_targets,
        meld_builder=meld_builder,
        hand_keys=hand_keys,
        palette_key=palette_key,
        tile_face=tile_face,
        tile_name=tile_name,
        hand_title=hand_title,
        tile_text=tile_text,
        list_sep=list_sep,
        tile_codes=tile_codes,
        tile_names=tile_names,
        TARGET_LABELS=TARGET_LABELS,
        MELD_TYPE_LABELS=MELD_TYPE_LABELS,
        VARIANT_NAMES=VARIANT_NAMES,
        KIND_LABELS=KIND_LABELS,
        SHAPE_LABELS=SHAPE_LABELS,
        ITEM_LABELS=ITEM_LABELS,
        MELD_LABELS=MELD_LABELS,
        KONG_LABELS=KONG_TYPES,
        seat_label=seat_label,
        seat=seat,
        SEAT_NAMES=SEAT_LABELS,
        WIN_BY_LABELS=WIN_BY_LABELS,
        split_rule=split_rule,
        points=points,
    )
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
