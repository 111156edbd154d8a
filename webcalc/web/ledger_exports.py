"""A table's pictures and files: the QR code (``/qr.png``), the evening card (``/card.png``),
the chart (``/chart.svg``), and the exports (``/export.json``, ``/export.csv``; in WeChat, whose
browser saves no download, a page with the evening as text and as its card).
"""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import datetime

from flask import Response, abort, make_response, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import pgettext

from ..ledger import POINTS, Busy, NotFound
from ..settlement import fmt
from . import wechat
from .htmx import add_vary
from .i18n import current_lang, lang_param, localized
from .ledger_load import ledger, load_probed, load_table, page_etag, view_token_of
from .ledger_shared import COLORS, csv_text, load_pygal, qr_png, qr_response, text_width
from .ledger_view import filename, named_details, view_helpers


def preload() -> None:
    """Import the chart and QR libraries (pygal, segno) and draw one QR code, outside any
    cache. gunicorn's master calls it before it forks (webcalc.web.warmup), so every worker
    shares those modules' pages instead of importing its own copy on its first table page."""
    load_pygal()
    import pygal.style  # noqa: F401
    qr_png.__wrapped__("https://localhost/t/preload")


# GET /t/<token>/qr.png
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
        target = token if editor is None else view_token_of(token)
    if target is None:
        abort(404)
    return qr_response(url_for(".table", token=target, _external=True))


# GET /t/<token>/card.png
def card(token: str):
    """The evening card (分享图片, :mod:`webcalc.web.cards`): the same picture for every link
    of the table, its QR code the view link; 304 while ``If-None-Match`` holds its ETag."""
    from .cards import evening_card

    try:
        version, editor = ledger().probe(token)      # one cheap query for the common 304
        view = token if editor is None else view_token_of(token)
    except NotFound:
        abort(404)
    except Busy:
        abort(503)
    view_url = url_for(".table", token=view, _external=True) if view else None
    return evening_card(version, editor, view_url, lambda: load_table(token))


# GET /t/<token>/chart.svg
def chart(token: str):
    """Each seat's running total over the counted entries (pygal, no script). Served as an
    image with its own CSP: an SVG image runs no script, and its ``<style>`` is its own."""
    pygal = load_pygal()
    from pygal.style import Style

    t, editor = load_probed(token)
    counted = [h for h in t["hands"] if h["status"] == "recorded"]
    style = Style(background="#ffffff", plot_background="#ffffff", colors=COLORS,
                  font_family='"Noto Sans CJK SC","Noto Sans SC",sans-serif',
                  label_font_size=12, major_label_font_size=12, legend_font_size=14,
                  value_font_size=11, tooltip_font_size=11, title_font_size=14)
    columns = legend_columns(t["names"])
    c = pygal.Line(js=[], width=390, height=300, style=style, legend_at_bottom=True,
                   legend_at_bottom_columns=columns, show_dots=True, dots_size=2.5,
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
        c.add(legend_name(name, LEGEND_ROOM[columns]), series[i])
    svg = c.render(is_unicode=True)
    svg = re.sub(r"<script\b.*?</script>", "", svg, flags=re.S)
    resp = Response(svg, mimetype="image/svg+xml")
    resp.headers["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'"
    resp.set_etag(page_etag(t, editor))
    resp.vary.add("Accept-Language")                 # its labels are in the reader's language
    return resp.make_conditional(request)


#: the width a seat's name has in the chart's legend under the 390-px plot, at its 14 px,
#: with four names a row and with two (measured in Chromium: a column every 84 px, its name
#: 17 px after it; the widths with the share cards' fonts, the chart's own)
LEGEND_ROOM = {4: 62, 2: 140}


def legend_columns(names, size: int = 14) -> int:
    """Four names a row when each fits its quarter, else two (a name of five Chinese
    characters, or "Grandma Li", ran into the next one)."""
    from .card_draw import Pen

    return 4 if all(Pen.width(n, size) <= LEGEND_ROOM[4] for n in names) else 2


def legend_name(name: str, room: float, size: int = 14) -> str:
    """``name`` as the chart's legend shows it: whole when it fits ``room`` px at ``size``,
    else cut with "…" (pygal's own cut counts every character as 0.6 em: a Chinese name ran
    into the next one)."""
    from .card_draw import Pen, clusters

    if Pen.width(name, size) <= room:
        return name
    kept = list(clusters(name))
    while kept and Pen.width("".join(kept) + "…", size) > room:
        kept.pop()
    return "".join(kept) + "…"


def evening_text(t: dict) -> str:
    """The evening as plain text, in the reader's language, for a chat or a note (the export
    page WeChat gets, :func:`_evening_page`): the table, the day, every entry with its nets,
    the totals and the settle-up. Lines stay short and columns line up in a monospace font."""
    from .templating import VARIANT_NAMES

    helpers = view_helpers(t)
    who, method = helpers["who"], helpers["method"]
    names = t["names"]
    counted = [h for h in t["hands"] if h.get("hand_no")]
    day = (t.get("created_at") or "")[:10]
    lines = [" · ".join((_("Table ledger"), str(VARIANT_NAMES.get(t["variant"], t["variant"])),
                         _("base %(base)s", base=fmt(t["base"])))),
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
                  + fmt(x["amount"]) for x in t["settle_up"]]
    else:
        lines.append("  " + _("Nothing to settle yet."))
    return "\n".join(lines) + "\n"


def _net_text(x) -> str:
    """A net as the table shows it: ``+3``, ``-1``, ``0``."""
    text = fmt(x)
    return "+" + text if x > 0 else text


def _evening_page(token: str, t: dict):
    """The export as WeChat gets it (its browser saves no download, :mod:`webcalc.web.wechat`):
    the evening as text to copy and as the evening card to long-press, with the files' own
    links for another browser."""
    view_token = token if t["access"] != "edit" else view_token_of(token)
    from .templating import VARIANT_NAMES

    html = render_template(
        "export_text.html", heading=_("The evening as text"),
        subject=str(VARIANT_NAMES.get(t["variant"], t["variant"])), text=evening_text(t),
        card_url=url_for(".card", token=view_token or token, lang=lang_param()),
        csv_url=url_for(".export_csv", token=token, raw=1, lang=lang_param()),
        csv_label=_("CSV (every entry, the totals and the settle-up)"),
        json_url=url_for(".export_json_view", token=token, raw=1, lang=lang_param()),
        json_label=_("JSON (the whole table, for import)"),
        back_url=url_for(".table", token=token, lang=lang_param()),
        back_label=_("Back to the table"))
    return wechat.vary(add_vary(make_response(html)))


# GET /t/<token>/export.json
def export_json_view(token: str):
    t = load_table(token)
    if wechat.in_wechat() and not request.args.get("raw"):
        return _evening_page(token, t)
    body = json.dumps(ledger().export_table(token), ensure_ascii=False, indent=1)
    resp = Response(body, mimetype="application/json")
    resp.headers["Content-Disposition"] = f'attachment; filename="{filename(t, "json")}"'
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


# GET /t/<token>/export.csv
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
    荒庄 has no tiles to check, and a corrected entry carries its revision. A payment's
    detail names the players as the table does, not the seats
    (:func:`.ledger_view.named_details`)."""
    zone = _csv_zone(request.args.get("tz"))
    if zone is None:
        return Response(_("Unknown time zone %(zone)s: use a name such as Asia/Shanghai.",
                          zone=request.args.get("tz", "")[:64]) + "\n", status=400,
                        mimetype="text/plain")
    t = load_table(token)
    if wechat.in_wechat() and not request.args.get("raw"):
        return _evening_page(token, t)
    names = [csv_text(n) for n in t["names"]]
    codes, lang = ledger().payment_codes(token), current_lang()
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
        details = named_details(h, codes, t["names"], lang)
        for p, detail in zip(h["settlement"]["payments"], details, strict=True):
            item = p.get("item") or ""
            w.writerow(head + [names[p["from"]], names[p["to"]], fmt(p["amount"]),
                               csv_text(items.get(item, item)), csv_text(detail),
                               csv_text(p.get("rule") or "")] + tail)
    w.writerow([])
    w.writerow([csv_text(pgettext("csv", "Seat"))] + names)
    w.writerow([csv_text(pgettext("csv", "Totals"))] + [fmt(x) for x in t["totals"]])
    w.writerow([])
    w.writerow([csv_text(pgettext("csv", "Settle up")), csv_text(pgettext("csv", "From")),
                csv_text(pgettext("csv", "To")), csv_text(pgettext("csv", "Amount"))])
    for x in t["settle_up"]:
        w.writerow(["", names[x["from"]], names[x["to"]], fmt(x["amount"])])
    # mimetype, not content_type: Werkzeug adds "; charset=utf-8" once
    resp = Response("\ufeff" + out.getvalue(), mimetype="text/csv")
    resp.headers["Content-Disposition"] = f'attachment; filename="{filename(t, "csv")}"'
    resp.vary.add("Accept-Language")
    return wechat.vary(resp)
