"""What the ledger's page blueprints (:mod:`webcalc.web.ledger_pages`, the tables, and
:mod:`webcalc.web.circle_pages`, the circles) both draw: the QR code of a link, the chart's
colours and pygal, and the CSV export's text cells; and the ETag of a table's answers, which
the JSON API (:mod:`webcalc.web.ledger_api`) gives too. Neither blueprint imports the
other."""

from __future__ import annotations

import functools


@functools.lru_cache(maxsize=256)
def qr_png(url: str) -> bytes:
    """The QR code of a link as a PNG (segno; the same link always gives the same bytes, so a
    worker draws it once). A PNG, not an inline SVG: WeChat offers 识别图中二维码 (and 保存图片)
    on a long-pressed image only (docs/SERVING.md "Serving to WeChat users")."""
    import io

    import segno

    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="png", scale=6, border=4)
    return out.getvalue()


def qr_response(url: str):
    """The answer of a page's QR image: the PNG of ``url``, its ETag the link's digest (a
    304 while ``If-None-Match`` holds it)."""
    import hashlib

    from flask import current_app, request

    etag = "qr-" + hashlib.sha256(url.encode()).hexdigest()[:24]
    if request.if_none_match.contains(etag):
        resp = current_app.response_class(status=304)
    else:
        resp = current_app.response_class(qr_png(url), mimetype="image/png")
    resp.set_etag(etag)
    return resp


def text_width(text: str) -> int:
    """The columns ``text`` takes in a monospace font (a CJK character takes two): the
    exports' text pages line their columns up with it."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def table_etag(version: int, editor: int | None, lang: str) -> str:
    """The ETag of a table's answer (its JSON read, the page's live region, its chart): what
    the body depends on, the table's version, the link's rights (the view link, the creator's
    edit link 0, a co-scorer's n) and the reader's language, so an ETag taken with one of
    them never revalidates another (docs/LEDGER.md "ETags")."""
    rights = "view" if editor is None else f"edit{editor}"
    return f"{version}-{rights}-{lang}"


COLORS = ("#c0392b", "#1f6fb2", "#2e8b57", "#8e44ad")


def load_pygal():
    """pygal, without the import hook it adds for its map plugins: that ``sys.meta_path``
    finder has only the legacy ``find_module``, so every later import in the process warns
    (ImportWarning). We draw no maps."""
    import sys

    import pygal

    sys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ != "PluginImportFixer"]
    return pygal


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
