"""The share pictures (分享图片): a hand's card and a table's evening card, PNG images drawn on
the server (docs/API.md "Pictures (share cards)", docs/decisions.md "Share cards").

* The hand card, ``GET /card.png?<the calculator's query>`` (:func:`hand_card`): the room is
  read, made canonical and analysed by the calculator page's own functions
  (:mod:`webcalc.web.room_page`), so the picture is the result that page shows for that
  query: the hand, melds, winning tile and wildcards, the best reading with what each
  wildcard plays as, the settlement's payments with their rule ids, the nets, the variant
  and options, and a QR code of the calculator page's absolute URL. A query the page answers
  with an error gets the same status and the error as JSON.
* The evening card (:func:`evening_card`, served at ``GET /t/<token>/card.png`` by
  :mod:`webcalc.web.ledger_exports`): the table's variant, the day it was opened, the hands
  counted, each seat's total, the settle-up and a QR code of the view link.

Nothing here decides a rule or names a variant: the words are the engine's messages and the
catalogue's, in the reader's language; the drawing is :mod:`webcalc.web.card_draw`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

from flask import Response, current_app, jsonify, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from ..messages import seat as seat_name
from .card_draw import Pen, canvas, draw_qr, draw_tile, fonts_found, png
from .htmx import add_vary
from .i18n import SEAT_LABELS, VARIANT_NAMES, _request_i18n, current_lang, list_sep, localized

WIDTH = 1080                      # px: 3 × a 360 px phone screen, so crisp at 3× density
MARGIN = 56
BG, PANEL, INK, MUTED, LINE = "#f6f3ec", "#fffdf8", "#1f2328", "#5f6670", "#d9d3c5"
ACCENT, ON_ACCENT, GAIN, LOSS, EXPOSED = "#0b6e4f", "#ffffff", "#0b6e4f", "#b42318", "#eef1f4"
KICKER = "#cfe8dd"
#: every colour a card draws with (exact in its palette, card_draw.png)
COLOURS = (BG, PANEL, INK, MUTED, LINE, ACCENT, ON_ACCENT, LOSS, EXPOSED, KICKER, "#000000")
#: the hand card's Cache-Control: the calculator page's (a picture of a URL changes only
#: with the code; webcalc/web/assets.py PAGE_CACHE), revalidated by its ETag after that
HAND_CACHE = "public, max-age=600"
#: the evening card's: like every answer under /t/ (a secret link, webcalc/web/security.py),
#: no cache keeps it; its ETag (the table's version …) still answers a revalidation with 304
EVENING_CACHE = "no-store"


def _(string: str, **variables: Any) -> str:
    """A message of the catalogue in the reader's language, as plain text (a picture escapes
    nothing), with the request's catalogue looked up once (webcalc/web/i18n.py)."""
    text = _request_i18n()[0].ugettext(string)
    return text % variables if variables else text


# -- what a picture depends on -----------------------------------------------------------------

@lru_cache(maxsize=1)
def code_stamp() -> str:
    """A digest of the code and messages that draw a picture (the package's Python files and
    compiled catalogues) and of the fonts found: a deploy that could change a picture changes
    every ETag."""
    root = Path(__file__).resolve().parent.parent
    h = hashlib.sha256(repr(fonts_found()).encode())
    for path in sorted(root.rglob("*.py")) + sorted(root.rglob("*.mo")):
        h.update(path.relative_to(root).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:12]


def _etag(*parts: object) -> str:
    key = "\x00".join(str(p) for p in (code_stamp(), current_lang(), *parts))
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:24]


def _image(data: bytes | None, etag: str, cache: str) -> Response:
    """The PNG answer (``data`` None: the 304 of a matching ``If-None-Match``)."""
    if data is None:
        resp = current_app.response_class(status=304)
    else:
        resp = current_app.response_class(data, mimetype="image/png")
    resp.set_etag(etag)
    resp.headers["Cache-Control"] = cache
    resp.vary.add("Accept-Language")              # the words are in the reader's language
    return resp


# -- the hand card -------------------------------------------------------------------------------

def hand_card() -> BaseResponse:
    """``GET /card.png?<query>`` (see the module docstring): 303 to the canonical query as the
    page would redirect, 304 when ``If-None-Match`` holds this picture's ETag, the PNG, or
    the calculator's error status with the error as JSON."""
    from flask import redirect

    from .room_page import CALCULATOR, analyse, asked_url, read_room_state

    st = read_room_state(CALCULATOR, request.args)
    query = st.canonical.partition("?")[2]
    here = url_for("pages.card") + ("?" + query if query else "")
    if here != asked_url() and st.tap_message is None:
        return add_vary(redirect(here, 303))
    page_url = url_for("pages.index", _external=True) + ("?" + query if query else "")
    etag = _etag("hand", page_url)
    if st.tap_message is None and request.if_none_match.contains(etag):
        return _image(None, etag, HAND_CACHE)
    analyse(st)
    if st.status != 200:
        return _error(room_error(st), st.status)
    if st.result is None:
        return _error({"code": "no_result", "field": "hand", "message": _(
            "Nothing to picture: type a hand, or choose the winner or a drawn game.")}, 422)
    return _image(draw_hand(st, page_url), etag, HAND_CACHE)


def _error(err: dict, status: int) -> Response:
    resp = jsonify({"error": err})
    resp.status_code = status
    resp.vary.add("Accept-Language")
    return resp


def room_error(st) -> dict:
    """The error the calculator page shows for this room, as the API writes one
    (``{"code", "message", "field"}``, API.md): the engine's, else the first input the page
    marks red."""
    if st.error is not None:
        return localized(st.error.to_dict())
    if st.tap_message:
        return {"code": "bad_request", "message": str(st.tap_message), "field": "add"}
    form = st.form
    for name in ("variant",) + tuple(n for n in form._fields if n != "variant"):
        errors = getattr(form, name).errors
        if errors:
            code = {"variant": "unknown_variant", "win_by": "bad_win_by"}.get(name, "bad_tile")
            return {"code": code, "message": str(errors[0]), "field": name}
    room = st.room
    if room is not None:
        for o in room.options:
            if o.error:
                return {"code": "bad_option", "message": str(o.error), "field": o.field}
        for key, messages in room.errors.items():
            if messages:
                return {"code": "bad_settlement", "message": str(messages[0]), "field": key}
    return {"code": "bad_request", "message": _("The request is not right."), "field": None}


def draw_hand(st, page_url: str) -> bytes:
    """The hand card's PNG for an analysed room ``st`` (:class:`~webcalc.web.room_page.RoomState`
    with a result)."""
    return render(lambda sheet: _hand(sheet, st, page_url))


def _hand(sheet: Sheet, st, page_url: str) -> None:
    from .templating import SHAPE_LABELS, WIN_BY_LABELS

    r, shown, room = st.result, st.shown or {}, st.room
    variant = str(VARIANT_NAMES.get(r.variant, r.variant))
    sheet.header(_("Mahjong calculator"), variant, _verdict(r, room, shown))
    if room is not None:
        sheet.line(_("Options: %(what)s", what=room.options_summary), 30, MUTED)
    wild = set(r.wildcards)
    if shown.get("hand") or shown.get("melds"):
        sheet.label(_("Hand"))
        sheet.tiles(_hand_groups(shown, wild), 64)
    facts = []
    if shown.get("winning"):
        facts.append((_("Won on"), [shown["winning"]], str(WIN_BY_LABELS.get(
            shown.get("win_by") or "self_draw", ""))))
    if shown.get("indicator"):
        facts.append((_("Indicator"), shown["indicator"], ""))
    if r.wildcards or r.tile_count:
        facts.append((_("Wildcards"), list(r.wildcards), "" if r.wildcards else _("none")))
    if facts:
        sheet.facts(facts, wild)
    readings = getattr(r, "readings", ())
    if readings:
        best = next((d for d in readings if d.get("best")), readings[0])
        sheet.label(_("Reading: %(shape)s", shape=SHAPE_LABELS.get(best["shape"], best["shape"])))
        groups = _reading_groups(best)
        sheet.tiles(groups, 56)
        # said only when a wildcard plays as another tile (one playing as itself shows none)
        if any(it.plays for g in groups for it in g.items):
            sheet.line(_("Under a wildcard: the tile it plays as."), 26, MUTED)
    if r.settlement:
        _settlement(sheet, r, room)
    else:
        _analysis(sheet, r)
    sheet.footer(page_url, _("Scan to open this hand in the calculator"))


def _verdict(r, room, shown) -> str:
    """The header's one line: who won and how, a drawn game, else how far the hand is."""
    from .templating import WIN_BY_LABELS

    if r.settlement and room is not None:
        if room.winner is None:
            return _("Drawn game (nobody won)")
        how = WIN_BY_LABELS.get(shown.get("win_by") or "self_draw", "")
        return f"{_seat(room, room.winner)} · {how}"
    if r.tile_count == 14:
        return _("Complete (a win)") if r.complete else _("Not a win")
    if r.tile_count == 13:
        return _("Ready") if r.shanten == 0 else (_("never ready") if r.shanten is None
                                                 else _("%(n)s from ready", n=r.shanten))
    return ""


def _seat(room, seat) -> str:
    """A seat as the result names it: its name with the seat (``小王（东家）``), or the seat."""
    if not isinstance(seat, int) or not 0 <= seat < 4:
        return "—"
    if room is not None and room.seat_renamed(seat):
        label = str(SEAT_LABELS[seat])
        return f"{room.names[seat]}（{label}）" if current_lang() == "zh" else \
            f"{room.names[seat]} ({label})"
    return str(SEAT_LABELS[seat])


def _hand_groups(shown: dict, wild: set) -> list[Group]:
    """The concealed tiles (the winning tile set apart, last) and each meld."""
    hand = list(shown.get("hand") or ())
    winning = shown.get("winning")
    groups = []
    if winning in hand:
        hand.remove(winning)
    if hand:
        groups.append(Group([Item(c, mark=c in wild) for c in hand]))
    if winning:
        groups.append(Group([Item(winning, mark=winning in wild, lift=True)]))
    for m in shown.get("melds") or ():
        groups.append(Group([Item(c, mark=c in wild) for c in m["tiles"]], exposed=True))
    return groups


def _reading_groups(reading: dict) -> list[Group]:
    """A reading's groups as the page draws them (concealed first, then the melds): a
    wildcard place shows the wildcard's own face, with the tile it plays as under it."""
    groups = reading["groups"]
    out = []
    for g in [g for g in groups if not g.get("exposed")] + [g for g in groups if g.get("exposed")]:
        tiles, wild = g["tiles"], list(g.get("wild") or ())
        faces = g.get("faces") or tiles
        items = []
        for i, c in enumerate(tiles):
            w = i < len(wild) and wild[i]
            face = faces[i] if i < len(faces) else c
            items.append(Item(face, wild=w, plays=c if w and face != c and g["kind"] != "free"
                              else None))
        out.append(Group(items, exposed=bool(g.get("exposed"))))
    return out


def _settlement(sheet: Sheet, r, room) -> None:
    """The payments (payer → payee, amount, item, reckoning and rule ids), 番/表, the notes,
    the nets and the next dealer."""
    from .templating import ITEM_LABELS, points, split_rule

    st = r.settlement
    head = _("Settlement")
    if room is not None:
        head += " · " + _("base %(base)s", base=points(room.base)).strip()
        if room.dealer is not None:
            head += _(", dealer %(seat)s", seat=_seat(room, room.dealer))
    sheet.label(head)
    if r.fan:
        sheet.line(_("Fan: %(list)s", list=list_sep().join(
            f"{localized(f['name'])} ×{f['multiplier']}" for f in r.fan)), 30, INK)
    if r.biao is not None:
        sheet.line(_("Biao: %(n)s", n=r.biao), 30, INK)
    rows = []
    for p in st.get("payments") or ():
        text, rules = split_rule(localized(p.get("detail") or ""))
        if not rules and p.get("rule"):
            rules = [p["rule"]]
        item = str(ITEM_LABELS.get(p.get("item"), p.get("item") or ""))
        rows.append((f"{_seat(room, p['from'])} → {_seat(room, p['to'])}", points(p["amount"]),
                     f"{item} {text}".strip(), rules))
    if rows:
        sheet.payments(rows)
    else:
        sheet.line(_("Nobody pays in this hand."), 30, MUTED)
    for n in st.get("notes") or ():
        sheet.line(f"{localized(n.get('message'))} ({n.get('rule')})", 26, MUTED)
    if st.get("net"):
        sheet.nets([(_seat(room, i), n) for i, n in enumerate(st["net"])],
                   _("Net per seat (sums to 0)"))
    nd = st.get("next_dealer")
    if nd:
        sheet.line(_("Next hand's dealer: %(seat)s", seat=_seat(room, nd.get("seat"))) +
                   f" ({nd.get('rule')})", 28, MUTED)


def _analysis(sheet: Sheet, r) -> None:
    """An unsettled hand: its waits (13 tiles, or before the winning tile), else its reasons."""
    waits = getattr(r, "waits", ())
    if waits:
        sheet.label(_("Waits") + " · " + _("%(kinds)s kinds, %(n)s tiles left", kinds=len(waits),
                                          n=sum(w["remaining"] for w in waits)))
        sheet.tiles([Group([Item(w["tile"], mark=w["tile"] in r.wildcards,
                                 dim=w["remaining"] == 0, count=w["remaining"])])
                     for w in waits], 52)
    elif getattr(r, "any_tile_wait", False):
        sheet.line(_("Any tile drawn wins (混单吊)."), 30, INK)
    for x in getattr(r, "reasons", ()) or ():
        sheet.line(f"{localized(x.get('message'))} ({x.get('rule')})", 28, MUTED)


# -- the evening card ----------------------------------------------------------------------------

def evening_card(version: int, editor: int | None, view_url: str | None,
                 load: Callable[[], dict]) -> Response:
    """``GET /t/<token>/card.png`` for a table at ``version`` read with a link of rights
    ``editor`` (None: the view link): 304 when ``If-None-Match`` holds its ETag (the table's
    version, the link's rights, the language, the view link the QR names), else the PNG of
    the table ``load()`` reads (in the reader's language)."""
    etag = evening_etag(version, editor, view_url)
    if request.if_none_match.contains(etag):
        return _image(None, etag, EVENING_CACHE)
    table = load()
    return _image(draw_evening(table, view_url), evening_etag(table["version"], editor, view_url),
                  EVENING_CACHE)


def evening_etag(version: int, editor: int | None, view_url: str | None) -> str:
    """The evening card's ETag (docs/LEDGER.md "ETags": what the picture depends on)."""
    rights = "view" if editor is None else f"edit{editor}"
    return _etag("evening", version, rights, view_url or "")


def draw_evening(table: dict, view_url: str | None) -> bytes:
    """The evening card's PNG of ``table`` (T in the reader's language, docs/LEDGER.md)."""
    return render(lambda sheet: _evening(sheet, table, view_url))


def evening_subtitle(table: dict) -> str:
    """The evening card's line under its title: the day, the base (a table with a rule set
    only: a 自由记分 table has none, as its page shows none) and the hands counted."""
    from ..ledger import is_free
    from .templating import points

    counted = [h for h in table["hands"]
               if h["status"] == "recorded" and h["kind"] != "adjustment"]
    day = (table.get("created_at") or "")[:10]
    base = None if is_free(table["variant"]) else \
        _("base %(base)s", base=points(table["base"])).strip()
    return " · ".join(x for x in (day, base, _("Hands counted: %(n)s", n=len(counted))) if x)


def totals_rows(table: dict) -> list[tuple[str, str, Any]]:
    """The evening card's totals: ``(seat, name, total)`` per seat, the seat left out ("")
    where the player's name is that very word, or the seat's default name (a table with the
    default names: 东家 once, not 东家 above 东家; "East", not "East seat" above "East")."""
    rows = []
    for i, x in enumerate(table["totals"]):
        label, name = str(SEAT_LABELS[i]), table["names"][i]
        rows.append(("" if name.strip() in (label, localized(seat_name(i))) else label, name, x))
    return rows


def _evening(sheet: Sheet, table: dict, view_url: str | None) -> None:
    from .templating import points

    sub = evening_subtitle(table)
    sheet.header(_("Table ledger"), str(VARIANT_NAMES.get(table["variant"], table["variant"])),
                 sub)
    names = table["names"]
    sheet.label(_("Totals"))
    sheet.totals(totals_rows(table))
    sheet.label(_("Settle up"))
    if table["settle_up"]:
        sheet.payments([(f"{names[x['from']]} → {names[x['to']]}", points(x["amount"]), "", [])
                        for x in table["settle_up"]])
    else:
        sheet.line(_("Nobody owes anybody."), 30, MUTED)
    if view_url:
        sheet.footer(view_url, _("Scan to follow the table (read only)"))
    else:
        sheet.line(_("The table's creator replaced the view link after this link was made: ask "
                     "them for the new one."), 26, MUTED)


# -- the layout ----------------------------------------------------------------------------------

class Item:
    """One tile of a row: its face (a code), a wildcard standing in (``wild``, with the tile
    it ``plays`` as) or a wildcard kind (``mark``), set apart (``lift``: the winning tile),
    greyed (``dim``), with a count under it (``count``: a wait's tiles left)."""

    __slots__ = ("code", "wild", "mark", "plays", "lift", "dim", "count")

    def __init__(self, code: str, *, wild: bool = False, mark: bool = False,
                 plays: str | None = None, lift: bool = False, dim: bool = False,
                 count: int | None = None):
        self.code, self.wild, self.mark, self.plays = code, wild, mark, plays
        self.lift, self.dim, self.count = lift, dim, count


class Group:
    """Tiles drawn together (a meld on a grey ground)."""

    __slots__ = ("items", "exposed")

    def __init__(self, items: list[Item], exposed: bool = False):
        self.items, self.exposed = items, exposed


class _NoDraw:
    """The measuring pass's drawing: nothing."""

    def __getattr__(self, name: str) -> Callable[..., None]:
        return lambda *args, **kwargs: None


class Sheet:
    """A card drawn top to bottom. Drawn twice (:func:`render`): once without a canvas to
    find its height, then on a canvas of that height (a tall canvas cut down after cost more
    than the drawing)."""

    def __init__(self, height: int | None = None):
        self.dry = height is None
        self.img = canvas(WIDTH, height, BG) if height else canvas(1, 1, BG)
        self.pen = Pen(self.img, dry=self.dry)
        self.draw: Any = _NoDraw() if self.dry else self.pen.draw
        self.y: float = 0
        self.inner = WIDTH - 2 * MARGIN

    def _tile(self, x: float, y: float, w: int, h: int, code: str, **flags: bool) -> None:
        if not self.dry:
            draw_tile(self.img, x, y, w, h, code, **flags)

    def header(self, kicker: str, title: str, sub: str | None) -> None:
        pen = self.pen
        title_size = pen.fit(title, 60, self.inner, 36, bold=True)
        sub_lines = pen.wrap(sub, 36, self.inner) if sub else []
        height = 60 + 40 + title_size + 26 + len(sub_lines) * 50 + 24
        self.draw.rectangle((0, 0, WIDTH, height), fill=ACCENT)
        y = 60
        pen.text(MARGIN, y, kicker, 28, KICKER)
        y += 24 + title_size
        pen.text(MARGIN, y, title, title_size, ON_ACCENT, bold=True)
        y += 22
        for ln in sub_lines:
            y += 48
            pen.text(MARGIN, y, ln, 36, ON_ACCENT)
        self.y = height + 28

    def label(self, text: str) -> None:
        self.y += 22
        for ln in self.pen.wrap(text, 32, self.inner, bold=True):
            self.y += 40
            self.pen.text(MARGIN, self.y, ln, 32, ACCENT, bold=True)
        self.y += 18

    def line(self, text: str, size: int, fill: str) -> None:
        for ln in self.pen.wrap(text, size, self.inner):
            self.y += round(size * 1.45)
            self.pen.text(MARGIN, self.y, ln, size, fill)
        self.y += 6

    def facts(self, facts: list[tuple[str, list[str], str]], wild: set) -> None:
        """``label [tiles] words`` side by side, wrapped: the winning tile, indicator and
        wildcards under the hand."""
        pen, size, w = self.pen, 30, 40
        h = round(w * 1.375)
        x: float = MARGIN
        top = self.y + 14
        for label, codes, words in facts:
            need = pen.width(label, size) + 12 + len(codes) * (w + 4) + \
                (pen.width(words, size) + 8 if words else 0)
            if x > MARGIN and x + need > WIDTH - MARGIN:
                x, top = MARGIN, top + h + 18
            pen.text(x, top + h * 0.7, label, size, MUTED)
            x += pen.width(label, size) + 12
            for c in codes:
                self._tile(x, top, w, h, c, mark=c in wild)
                x += w + 4
            if words:
                pen.text(x + 4, top + h * 0.7, words, size, INK)
                x += pen.width(words, size) + 8
            x += 36
        self.y = top + h + 10

    def tiles(self, groups: list[Group], w: int) -> None:
        """Rows of tile groups, shrunk (down to 3/4) to fit a line, then wrapped by group."""
        gap, sep = 4, 18
        count = sum(len(g.items) for g in groups)
        natural = count * (w + gap) + (len(groups) - 1) * sep
        if natural > self.inner:
            w = max(round(w * 0.75), int((self.inner - (len(groups) - 1) * sep) / count) - gap)
        h = round(w * 1.375)
        under = any(it.plays or it.count is not None for g in groups for it in g.items)
        row_h = h + (round(w * 0.8) if under else 0) + 14
        x, top = MARGIN, self.y + 14
        for g in groups:
            width = len(g.items) * (w + gap) - gap
            if x > MARGIN and x + width > WIDTH - MARGIN:
                x, top = MARGIN, top + row_h
            self._group(g, x, top, w, h)
            x += width + sep
        self.y = top + row_h

    def _group(self, g: Group, x: float, top: float, w: int, h: int) -> None:
        pen = self.pen
        if g.exposed:
            self.draw.rounded_rectangle((x - 6, top - 6, x + len(g.items) * (w + 4) + 2,
                                        top + h + 6), 8, fill=EXPOSED)
        for it in g.items:
            y = top - (round(h * 0.12) if it.lift else 0)
            self._tile(x, y, w, h, it.code, wild=it.wild, mark=it.mark, dim=it.dim)
            if it.plays:
                mw = round(w * 0.52)
                word = _("as")
                ws = round(w * 0.3)
                ww = pen.width(word, ws)
                left = x + (w - (ww + 3 + mw)) / 2
                pen.text(left, top + h + mw * 1.0, word, ws, MUTED)
                self._tile(left + ww + 3, top + h + 6, mw, round(mw * 1.375),
                          it.plays)
            elif it.count is not None:
                text = str(it.count)
                size = round(w * 0.45)
                pen.text(x + (w - pen.width(text, size)) / 2, top + h + size * 1.1, text, size,
                         LOSS if it.count == 0 else INK)
            x += w + 4

    def payments(self, rows: list[tuple[str, str, str, list[str]]]) -> None:
        """A panel of rows: ``who → whom`` and the amount on one line, what it is for (the
        item, the reckoning, the rule ids) under it."""
        pen = self.pen
        size, small, pad = 34, 27, 26
        amount_w = max(pen.width(r[1], size, True) for r in rows)
        who_w = self.inner - 2 * pad - amount_w - 24
        laid = []
        for who, amount, what, rules in rows:
            tail = " ".join(f"[{x}]" for x in rules)
            what = f"{what} {tail}".strip()
            laid.append((pen.wrap(who, size, who_w), amount,
                         pen.wrap(what, small, self.inner - 2 * pad) if what else []))
        top = self.y + 8
        height = 10 + sum(len(w) * 48 + len(d) * 38 + 16 for w, _a, d in laid) + 14
        if not self.dry:
            self.draw.rounded_rectangle((MARGIN, top, WIDTH - MARGIN, top + height), 14,
                                       fill=PANEL, outline=LINE, width=2)
        y = top + 10
        for i, (who_lines, amount, what_lines) in enumerate(laid):
            if i and not self.dry:
                self.draw.line((MARGIN + pad, y, WIDTH - MARGIN - pad, y), fill=LINE, width=1)
            y += 4
            pen.right(WIDTH - MARGIN - pad, y + 42, amount, size, INK, bold=True)
            for ln in who_lines:
                y += 48
                pen.text(MARGIN + pad, y - 6, ln, size, INK)
            for ln in what_lines:
                y += 38
                pen.text(MARGIN + pad, y - 4, ln, small, MUTED)
            y += 12
        self.y = top + height + 8

    def nets(self, nets: list[tuple[str, Any]], caption: str) -> None:
        """Four boxes: each seat and its net, coloured as gains and losses."""
        from .templating import points

        pen = self.pen
        self.line(caption, 26, MUTED)
        gap = 16
        bw = (self.inner - 3 * gap) / 4
        top = self.y + 8
        name_lines = [pen.wrap(name, pen.fit(name, 28, bw - 20, 22), bw - 20) for name, _n in nets]
        sizes = [pen.fit(name, 28, bw - 20, 22) for name, _n in nets]
        rows = max(len(x) for x in name_lines)
        bh = 30 + rows * 36 + 70
        for i, (_name, n) in enumerate(nets):
            x = MARGIN + i * (bw + gap)
            self.draw.rounded_rectangle((x, top, x + bw, top + bh), 14, fill=PANEL, outline=LINE,
                                       width=2)
            y = top + 10
            for ln in name_lines[i]:
                y += 36
                pen.text(x + (bw - pen.width(ln, sizes[i])) / 2, y, ln, sizes[i], MUTED)
            text = points(n, sign=True)
            size = pen.fit(text, 48, bw - 20, 28, bold=True)
            color = GAIN if n > 0 else LOSS if n < 0 else INK
            pen.text(x + (bw - pen.width(text, size, True)) / 2, top + bh - 22, text, size,
                     color, bold=True)
        self.y = top + bh + 10

    def totals(self, seats: list[tuple[str, str, Any]]) -> None:
        """A row per seat: the seat, the player's name (any script, shrunk or wrapped to fit)
        and the total, coloured."""
        from .templating import points

        pen = self.pen
        top = self.y + 4
        y = top
        drawn = []
        for seat, name, total in seats:
            text = points(total, sign=True)
            tw = pen.width(text, 52, True)
            name_w = self.inner - 48 - tw - 40
            size = pen.fit(name, 44, name_w, 30)
            lines = pen.wrap(name, size, name_w)
            head = 34 if seat else 12           # no seat line: the name alone ("" seat)
            height = head + len(lines) * round(size * 1.3) + 20
            drawn.append((y, seat, lines, size, text, total, height, head))
            y += height + 12
        for y0, seat, lines, size, text, total, height, head in drawn:
            self.draw.rounded_rectangle((MARGIN, y0, WIDTH - MARGIN, y0 + height), 14,
                                       fill=PANEL, outline=LINE, width=2)
            if seat:
                pen.text(MARGIN + 24, y0 + 34, seat, 24, MUTED)
            yy = y0 + head
            for ln in lines:
                yy += round(size * 1.3)
                pen.text(MARGIN + 24, yy, ln, size, INK, bold=True)
            color = GAIN if total > 0 else LOSS if total < 0 else INK
            pen.right(WIDTH - MARGIN - 24, y0 + height / 2 + 20, text, 52, color, bold=True)
        self.y = y

    def footer(self, url: str, caption: str) -> None:
        """The QR code of ``url`` with its caption and the site's host beside it (under it
        when the code is wide), or, for a URL too long for any QR code, a line saying so."""
        from urllib.parse import urlsplit

        pen = self.pen
        self.y += 30
        self.draw.line((MARGIN, self.y, WIDTH - MARGIN, self.y), fill=LINE, width=2)
        top = self.y + 30
        side = draw_qr(self.img, MARGIN, round(top), url, 300, dry=self.dry)
        if not side:
            self.y = top
            self.line(_("This page's address is too long for a QR code: copy it from the "
                        "browser instead."), 28, MUTED)
            return
        beside = side <= 440
        x = MARGIN + side + 36 if beside else MARGIN
        width = WIDTH - MARGIN - x
        y = top + 40 if beside else top + side
        for ln in pen.wrap(caption, 34, width, bold=True):
            y += 48
            pen.text(x, y, ln, 34, INK, bold=True)
        for ln in pen.wrap(urlsplit(url).netloc, 28, width):
            y += 44
            pen.text(x, y, ln, 28, MUTED)
        self.y = max(top + side, y) + 20

    @property
    def height(self) -> int:
        return round(self.y) + MARGIN // 2


def render(build) -> bytes:
    """The PNG of the card ``build(sheet)`` draws (:class:`Sheet`)."""
    dry = Sheet()
    build(dry)
    sheet = Sheet(dry.height)
    build(sheet)
    return png(sheet.img, COLOURS)
