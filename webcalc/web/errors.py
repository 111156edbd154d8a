"""Error pages: JSON under ``/api/``, friendly HTML in the reader's language elsewhere.

Every HTTP error Flask raises (404, 405, 413, 414, a CSRF failure …) and every unhandled
exception (as a 500, which Flask logs first) gets a coded answer: ``{"error": {"code",
"message", "field"}}`` on ``/api/`` paths, the ``error.html`` page (or, when even that
fails, a bare page) in the reader's language elsewhere.
"""

from __future__ import annotations

from flask import Flask, render_template, request
from flask_babel import lazy_gettext as _l
from flask_wtf.csrf import CSRFError
from markupsafe import escape
from werkzeug.exceptions import BadRequest, HTTPException, NotFound

from .api import error_response
from .security import BODY_MAX

MESSAGES = {
    400: ("bad_request", _l("The request is not right.")),
    404: ("not_found", _l("There is no such page.")),
    405: ("method_not_allowed", _l("This request method is not supported.")),
    413: ("too_large", _l("The request is too large: the body may be at most %(kb)s KB.",
                          kb=BODY_MAX // 1024)),
    414: ("uri_too_long", _l("The address is too long: shorten what you typed and try again.")),
    415: ("unsupported_media_type", _l("This content type is not supported.")),
    500: ("internal", _l("Something went wrong on the server; please try again later.")),
    503: ("busy", _l("The server is busy or cannot reach its database right now; please try "
                     "again in a moment.")),
}
#: a table link (``/t/<token>``) that opens no table: revoked, replaced or copied wrong. The
#: page says so and whom to ask, and nothing of the table (the status stays 404)
LINK_GONE = _l("This table link no longer opens a table: whoever opened the table may have "
               "revoked or replaced it, or it was copied wrong. Ask whoever gave it to you for "
               "the current link. A view link you were given still opens the table (read "
               "only) unless it was replaced too.")
CSRF_MESSAGE = ("csrf_failed", _l("The form has expired or lacks its security token: reload "
                                  "the page and submit again."))


class TableLinkGone(NotFound):
    """404 for a table link that opens no table (:data:`LINK_GONE`)."""


def _wants_json() -> bool:
    return request.path.startswith("/api/")


def _answer(status: int, code: str, message, exc: HTTPException | None = None):
    try:
        message = str(message)
    except Exception:  # noqa: BLE001 - outside a request context the lazy text cannot render
        message = code
    if _wants_json():
        resp = error_response(code, message, None, status)
    else:
        try:
            resp = render_template("error.html", status=status, message=message), status
        except Exception:  # noqa: BLE001 - the error page must not fail in turn
            lang, back = _fallback_words()
            html = (f'<!doctype html><html lang="{lang}"><meta charset="utf-8">'
                    f"<title>{status}</title><h1>{status}</h1><p>{escape(message)}</p>"
                    f'<p><a href="/">{escape(back)}</a></p></html>')
            resp = html, status, {"Content-Type": "text/html; charset=utf-8"}
    if exc is not None and status == 405:
        allow = dict(exc.get_headers()).get("Allow")
        if allow:
            from flask import make_response

            resp = make_response(resp)
            resp.headers["Allow"] = allow
    return resp


def _fallback_words() -> tuple[str, str]:
    """The bare error page's ``lang`` and its link back, in the reader's language when the
    request's language can still be told (Chinese, the default, when it cannot)."""
    try:
        from .i18n import html_lang

        return html_lang(), str(_l("Back to the calculator"))
    except Exception:  # noqa: BLE001 - no request or no catalogue: the default language
        return "zh-Hans", "回到计算器"


def handle_http(exc: HTTPException):
    status = exc.code or 500
    code, message = MESSAGES.get(status, ("http_error", exc.name))
    if isinstance(exc, TableLinkGone):
        message = LINK_GONE
    if status == 413:
        return _too_large()
    return _answer(status, code, message, exc)


def _too_large():
    """413 ``too_large`` naming the limit of this request's view (16 KB, or the import's
    2 MB): in the message, and under ``/api/`` as ``detail: {"limit": "body_bytes", "max"}``
    (API.md)."""
    limit = BODY_MAX
    try:
        limit = request.max_content_length or BODY_MAX
    except Exception:  # noqa: BLE001 - outside a request: the general limit
        pass
    message = _l("The request is too large: the body may be at most %(kb)s KB.",
                 kb=limit // 1024)
    if not _wants_json():
        return _answer(413, "too_large", message)
    from flask import jsonify

    resp = jsonify({"error": {"code": "too_large", "message": str(message), "field": None,
                              "detail": {"limit": "body_bytes", "max": limit}}})
    resp.status_code = 413
    return resp


def handle_csrf(exc: CSRFError):
    code, message = CSRF_MESSAGE
    return _answer(400, code, message, exc)


def handle_bad_body(exc: Exception):
    """A body the server cannot read (malformed chunked encoding, cut off mid-way): the
    client's fault, so 400, not 500."""
    return handle_http(BadRequest())


def _server_body_errors() -> tuple[type[Exception], ...]:
    """gunicorn's exceptions for an unreadable request body, raised while a view reads it."""
    try:
        from gunicorn.http.errors import NoMoreData, ParseException
    except ImportError:  # another WSGI server
        return ()
    return (ParseException, NoMoreData)


def init_app(app: Flask) -> None:
    # Unhandled exceptions reach handle_http as InternalServerError (Flask logs them first).
    app.register_error_handler(CSRFError, handle_csrf)
    app.register_error_handler(HTTPException, handle_http)
    for exc_class in _server_body_errors():
        app.register_error_handler(exc_class, handle_bad_body)
