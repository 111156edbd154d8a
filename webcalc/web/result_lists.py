"""The result panel's lists written in Python (docs/ARCHITECTURE.md, "Rendering"): the
牌理 rows and their fold-outs, the wait list with each wait's worth, the waits in the gist
under the hand, and the readings with their groups, each written by one :class:`_Writer`
(the request's catalogue and drawing key looked up once, each message translated once for
the list, the tiles joined from the cached HTML of :mod:`webcalc.web.templating`) in the
bytes of the template loop or macro it replaced (their outline in
tests/old_result_macros.html, held equal by tests/test_web_render_cache.py). Template
globals, registered by :func:`init_app`."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from flask import Flask, current_app
from markupsafe import Markup, escape

from .i18n import _gettext, _request_i18n, app_lang, list_sep
from .templating import (
    FACES,
    KIND_LABELS,
    N_,
    SHAPE_LABELS,
    _tile,
    _useful_item,
    points,
    tile_text,
)

#: the template globals this module gives (:func:`init_app` registers them)
GLOBALS = ("useful_list", "eff_rows", "wait_items", "quick_waits", "group", "reading_groups",
           "reading", "reading_items", "worth", "shanten_label")


def init_app(app: Flask) -> None:
    """Registers :data:`GLOBALS` as the templates' globals (after
    :func:`webcalc.web.templating.init_app`, whose tiles they draw)."""
    app.jinja_env.globals.update({name: globals()[name] for name in GLOBALS})


#: an exposed group's tag, by how it was taken (``meld``): 拾 and 搶 (盘锦), else exposed
_TAKEN = {"shi": N_("taken (拾)"), "qiang": N_("taken (搶)")}


def group(g) -> Markup:
    """One group of a reading (a result dict's ``decompositions[i].groups[j]``): see
    :meth:`_Writer.group`. Not cached: a cache per language and content (with the
    headings', worths' and shanten labels') bought 3.4 % of page CPU on fresh hands
    (bench/RESULTS.md "Machinery (issue 37.2)"), so it went."""
    return Markup(_Writer().group(g))


def reading_groups(groups) -> Markup:
    """A reading's groups as :func:`group` draws them, the concealed ones first, then the
    exposed ones: one call per reading."""
    return Markup(_Writer().groups(groups))


def worth(win) -> Markup:
    """What winning on a wait is worth (``waits[i].win``: its 番/表 and amount), the bytes
    ``_worth.html`` renders (the outline, held equal by tests/test_web_render_cache.py),
    written here: a template render per wait was 60-70 µs of it."""
    return Markup(_Writer().worth(win))


def reading(d, best=False) -> Markup:
    """One reading of the result (``decompositions[i]``): its heading (its shape, and
    ``best`` marked) and its groups (:func:`reading_groups`)."""
    return Markup(_Writer().reading(d, best))


def reading_items(readings, first) -> Markup:
    """The readings of ``readings`` but ``first`` (the one shown above them), each
    ``<li class="reading">`` with :func:`reading` (not marked best) inside, joined by a new
    line and eight spaces: the "other readings" list in one call, its labels translated once
    for the list (:class:`_Writer`)."""
    w = _Writer()
    return Markup("\n        ".join([f'<li class="reading">{w.reading(d, False)}</li>'
                                     for d in readings if d is not first]))


_NEVER_NOTE = N_("Never ready: no exchange of tiles can ever make this hand a win (a condition "
                 "of the variant cannot be met, or the wildcards have no place). Nothing drawn "
                 "helps.")


def useful_list(useful, shanten, wild=None) -> Markup:
    """A 牌理 row's fold-out (what ``_result.html``'s ``useful_list`` macro drew): never ready,
    else the useful draws (:func:`useful_items`; a wait list when ready), else none helps."""
    return Markup(_Writer().useful_list(useful, shanten, wild or ()))


class _Writer:
    """The result panel's lists written in Python, one writer per list (it lives for one
    call: not a cache): the request's catalogue and drawing key looked up once, each message
    translated once for the list (a head, a label, a count with the same numbers), and the
    tiles joined from their cached HTML (:func:`_tile`, ``_useful_item``). What
    :func:`eff_rows`, :func:`useful_list`, :func:`wait_items`, :func:`reading_items` and
    :func:`worth` write, each list one piece of text instead of a template call or a
    request look-up per row; their bytes are the old templates' (their outline kept in
    tests/old_result_macros.html, held equal by tests/test_web_render_cache.py)."""

    __slots__ = ("translations", "app_id", "lang", "_texts", "_msgs", "_labels", "_shanten",
                 "_groups")

    def __init__(self) -> None:
        self.translations = _request_i18n()[0]
        self.app_id, self.lang = app_lang()
        self._texts: dict[str, str] = {}
        self._msgs: dict[tuple, Markup] = {}
        self._labels: dict[tuple, str] = {}
        self._shanten: dict = {}
        self._groups: dict[tuple, str] = {}

    def text(self, msgid: str) -> str:
        """A message without variables, translated once per list."""
        t = self._texts.get(msgid)
        if t is None:
            t = self._texts[msgid] = str(_gettext(self.translations, msgid, {}))
        return t

    def msg(self, msgid: str, **variables) -> Markup:
        """A message with ``variables`` (numbers or text), translated and filled once per list
        and values (a wait list's ``%(n)s left`` has a handful of counts)."""
        key = (msgid, *variables.items(), *map(type, variables.values()))
        t = self._msgs.get(key)
        if t is None:
            t = self._msgs[key] = _gettext(self.translations, msgid, variables)
        return t

    def label(self, labels: dict, key) -> str:
        """``labels``' lazy message for ``key`` (else ``key``), translated and escaped once per
        list."""
        k = (id(labels), key)
        t = self._labels.get(k)
        if t is None:
            t = self._labels[k] = str(escape(labels.get(key, key)))
        return t

    def shanten(self, n) -> str:
        """:func:`shanten_label` of ``n``, once per list and value."""
        t = self._shanten.get(n)
        if t is None:
            t = self._shanten[n] = str(shanten_label(n))
        return t

    def useful_list(self, useful, shanten, wild) -> str:
        """:func:`useful_list`'s HTML (the same bytes)."""
        if shanten is None:
            return f'<p class="never-note">{self.text(_NEVER_NOTE)}</p>'
        if not useful:
            return f'<p class="muted">{self.text(N_("No draw brings it nearer."))}</p>'
        ready = shanten == 0
        head = self.text(N_("Ready; waits (left):") if ready else N_("Useful draws (left):"))
        app_id, lang = self.app_id, self.lang
        parts = ['<p class="useful-head">', head, '</p>\n<ul class="useful-list">']
        for u in useful:
            parts += ("  ", _useful_item(app_id, lang, str(u["tile"]), int(u["remaining"]),
                                         u["tile"] in wild, ready), "\n")
        parts.append("</ul>")
        return "".join(parts)

    def group(self, g) -> str:
        """One group as ``<li class="group …">``: its tiles (each :func:`tile`'s cached HTML,
        a wildcard drawn as its face with the tile it plays as), its kind, an exposed group's
        tag and what each wildcard counts as: the bytes of the ``group_markup`` macro it
        replaced (issue 38.2: the result panel without a template call per tile)."""
        get = g.get if hasattr(g, "get") else (lambda k, d=None: getattr(g, k, d))
        kind, tiles = get("kind"), list(get("tiles") or ())
        wild, faces = list(get("wild") or ()), list(get("faces") or ()) or tiles
        exposed, meld = bool(get("exposed")), get("meld")
        app_id, lang = self.app_id, self.lang
        parts = ['<li class="group group-', escape(kind), " group-exposed" if exposed else "",
                 '">\n<span class="tiles">']
        stand = []
        for i, c in enumerate(tiles):
            w = bool(wild[i]) if i < len(wild) else False
            face = faces[i] if i < len(faces) else None
            parts.append(_tile(app_id, lang, str(c), w, False, "", None if face is None else
                               str(face), False))
            if w:
                real = face if i < len(faces) and face != c else ""
                stand.append(self.msg(N_("%(real)s as %(tile)s"),
                                      real=tile_text(real) if real else "",
                                      tile=tile_text(c)))
        parts.append('</span>\n<span class="group-label">')
        if exposed:
            parts += ('<span class="exposed-tag">', self.text(_TAKEN.get(meld, N_("exposed"))),
                      "</span>")
        parts.append(self.label(KIND_LABELS, kind))
        if stand and kind != "free":
            parts += (' <span class="wild-note">',
                      _gettext(self.translations, N_("wild: %(list)s"),
                               {"list": escape(list_sep()).join(stand)}), "</span>")
        parts.append("</span>\n</li>")
        return "".join(parts)

    def groups(self, groups) -> str:
        """A reading's groups (:meth:`group`), the concealed ones first, then the exposed;
        each distinct group written once per list (the readings of a hand share most of
        their groups: 19 readings of a hand with wildcards hold 95 groups, 22 distinct).
        Not a cache: the writer lives for one list. The "other readings" list of three
        hands 206 → 122 µs (timeit, interleaved, medians of 15, load 1.1, 2026-12-07)."""
        seen = self._groups
        out = []
        for exposed in (False, True):
            for g in groups:
                if bool(g.get("exposed")) is not exposed:
                    continue
                key = (g.get("kind"), tuple(g.get("tiles") or ()), tuple(g.get("wild") or ()),
                       tuple(g.get("faces") or ()), exposed, g.get("meld"))
                html = seen.get(key)
                if html is None:
                    html = seen[key] = self.group(g)
                out.append(html)
        return "".join(out)

    def reading(self, d, best) -> str:
        """:func:`reading`'s HTML: the heading (the shape, ``best`` marked) and the groups."""
        head = self.label(SHAPE_LABELS, d.get("shape"))
        if best:
            head += f' <span class="best">{self.text(N_("best"))}</span>'
        return (f'<p class="reading-head">{head}</p>\n<ul class="groups">\n'
                f'{self.groups(d.get("groups") or ())}</ul>')

    def worth(self, win) -> str:
        """:func:`worth`'s HTML."""
        from ..variants import FAN_MULTIPLIERS

        fan_label = cast("Callable[[str], str]",      # rules.py's, as the template's
                         current_app.jinja_env.globals["fan_label"])
        parts = ['<span class="worth">']
        for k in win.get("fan") or ():
            parts += ('<span class="fan-tag fan-', escape(k), '">', escape(fan_label(k)), " ×",
                      escape(FAN_MULTIPLIERS.get(k, 2)), "</span>")
        if win.get("biao"):
            parts += ('<span class="fan-tag biao">', self.msg(N_("%(n)s 表"), n=win["biao"]),
                      "</span>")
        parts += ('  <span class="win-amount">',
                  self.msg(N_("wins %(n)s"), n=points(win.get("amount"))), "</span>\n</span>")
        return "".join(parts)

    def wait(self, w, wild) -> str:
        """One item of :func:`wait_items`: the tile, how many are left, the dead-wait flag
        and the worth."""
        code, remaining, win = w["tile"], w["remaining"], w.get("win")
        dead = w["dead"] if "dead" in w else remaining == 0
        parts = ['<li class="wait', " wait-dead" if dead else "", '">',
                 _tile(self.app_id, self.lang, str(code), False, bool(code in wild), "", None,
                       False),
                 '\n        <span class="remaining">', self.msg(N_("%(n)s left"), n=remaining),
                 "</span>"]
        if dead:
            parts += (' <span class="flag">', self.text(N_("dead wait")), "</span>")
        if win:
            parts.append(self.worth(win))
        parts.append("</li>")
        return "".join(parts)


def wait_items(waits, wild=None, any_tile=False) -> Markup:
    """The items of the result's wait list (``waits[i]``: ``tile``, ``remaining``, ``dead``
    when given, ``win``), ``<li>`` … ``</li>`` joined by a new line and six spaces: the tile
    (marked when a wildcard), how many are left, the dead-wait flag (``dead``, else none
    left) and what winning on it is worth (:func:`worth`). One call for the list instead of
    four template calls per wait (:class:`_Writer`).

    A 混单吊 (``any_tile``: the answer's ``any_tile_wait``) where every tile wins the same
    is one item, 任意牌（混单吊）, with the tiles left and the worth once, not 30-odd equal
    rows (issue 36.5; the JSON keeps every wait)."""
    w = _Writer()
    wild = wild or ()
    if any_tile and waits and all(x.get("win") == waits[0].get("win") for x in waits):
        win = waits[0].get("win")
        left = sum(x["remaining"] for x in waits)
        parts = ['<li class="wait wait-any"><span class="wait-any-name" data-tile="any">',
                 w.text(N_("Any tile (混单吊)")), "</span>",
                 '\n        <span class="remaining">', w.msg(N_("%(n)s left"), n=left),
                 "</span>"]
        if win:
            parts.append(w.worth(win))
        parts.append("</li>")
        return Markup("".join(parts))
    return Markup("\n      ".join([w.wait(x, wild) for x in waits]))


def quick_waits(waits) -> Markup:
    """The waits in the gist under the hand (``_panel.html``'s ``#quick``): each wait's tile,
    small, with how many are left, dead when none: one call for the line instead of a
    template call per tile."""
    app_id, lang = app_lang()
    return Markup("".join([
        f'<span class="quick-wait{" wait-dead" if w["remaining"] == 0 else ""}">'
        f'{_tile(app_id, lang, str(w["tile"]), False, False, "xs", None, False)}'
        f'<small>{escape(w["remaining"])}</small></span>' for w in waits]))


def _plain(x) -> str:
    """``escape(x)`` as text, an int (a count, a shanten) written as it is: it has nothing to
    escape, and the 牌理 rows write three a row."""
    return str(x) if type(x) is int else str(escape(x))


def eff_rows(eff, complete=False, wild=None) -> Markup:
    """The rows of the 牌理 list of a 14-tile hand (``efficiency[i]``: ``discard``,
    ``shanten``, ``useful``, ``useful_total``), ``<li>`` … ``</li>`` joined by a new line and
    six spaces: the best ones (the first row's shanten and total) marked, the first open
    unless the hand is already a win, each folding out to :func:`useful_list`. Each row is
    written as one piece (:class:`_Writer`): its tiles from the cached tile HTML, its
    messages translated once for the list; a discard's tile code (:data:`FACES`) and the
    counts written as they are, with nothing to escape."""
    w = _Writer()
    app_id, lang, wild = w.app_id, w.lang, wild or ()
    discard_word, draw_word = w.text(N_("Discard")), w.text(N_("draw"))
    best = f' <span class="best">{w.text(N_("best"))}</span>'
    top_shanten, top_total = eff[0]["shanten"], eff[0]["useful_total"]
    counts: dict = {}                   # "%(kinds)s kinds, %(n)s tiles" by its two numbers
    rows = []
    for i, e in enumerate(eff):
        shanten, useful, total, discard = e["shanten"], e["useful"], e["useful_total"], \
            e["discard"]
        is_best = shanten == top_shanten and total == top_total
        kinds = len(useful)
        count = counts.get((kinds, total))
        if count is None:
            count = counts[kinds, total] = str(w.msg(N_("%(kinds)s kinds, %(n)s tiles"),
                                                     kinds=kinds, n=total))
        parts = [
            '<li class="eff-row', " eff-best" if is_best else "", '" data-discard="',
            discard if discard in FACES else str(escape(discard)), '" data-shanten="',
            "null" if shanten is None else _plain(shanten), '" data-kinds="', str(kinds),
            '" data-total="', _plain(total), '">\n        <details',
            " open" if i == 0 and not complete else "",
            '>\n          <summary>\n            <span class="eff-discard">', discard_word,
            _tile(app_id, lang, str(discard), False, False, "sm", None, False),
            "</span>\n"]
        if useful:
            parts += ('<span class="eff-draw">', draw_word, '<span class="eff-tiles">')
            parts += [_tile(app_id, lang, str(u["tile"]), False, u["tile"] in wild, "xs", None,
                            False) for u in useful]
            parts.append("</span></span>")
        parts += ('            <span class="eff-count">', count,
                  '</span>\n            <span class="eff-shanten',
                  " eff-never" if shanten is None else "", '">', w.shanten(shanten),
                  "</span>", best if is_best else "",
                  "          </summary>\n          ", w.useful_list(useful, shanten, wild),
                  "\n        </details>\n      </li>")
        rows.append("".join(parts))
    return Markup("\n      ".join(rows))


def shanten_label(n) -> Markup:
    """How far a hand is from ready: none = never, below 0 = won, 0 = ready, else n from
    ready (what the ``shanten_label_markup`` macro drew, the same bytes)."""
    translations = _request_i18n()[0]
    if n is None:
        return Markup('<span class="never-ready" title="%s">%s</span>') % (
            _gettext(translations, N_("No exchange of tiles can ever make this hand a win."),
                     {}), _gettext(translations, N_("never ready"), {}))
    if n < 0:
        return _gettext(translations, N_("Won"), {})
    if n == 0:
        return _gettext(translations, N_("Ready"), {})
    return _gettext(translations, N_("%(n)s from ready"), {"n": n})
