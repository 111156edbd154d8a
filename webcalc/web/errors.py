"""Error pages: JSON under ``/api/``, friendly Chinese HTML elsewhere.

Every HTTP error Flask raises (404, 405, 413, 414, a CSRF failure …) and every unhandled
exception (as a 500, which Flask logs first) gets a coded answer: ``{"error": {"code",
"message", "field"}}`` on ``/api/`` paths, the ``error.html`` page in Chinese elsewhere.
"""

from __future__ import annotations

from flask import Flask, render_template, request
from flask_wtf.csrf import CSRFError
from markupsafe import escape
from werkzeug.exceptions import BadRequest, HTTPException

from .api import error_response
from .security import BODY_MAX

MESSAGES = {
    400: ("bad_request", "请求有误。"),
    404: ("not_found", "没有这个页面。"),
    405: ("method_not_allowed", "不支持这种请求方法。"),
    413: ("too_large", f"请求太大了：请求体最多 {BODY_MAX // 1024} KB。"),
    414: ("uri_too_long", "网址太长了：请缩短输入的内容后再试。"),
    415: ("unsupported_media_type", "不支持的内容类型。"),
    500: ("internal", "服务器出错了，请稍后再试。"),
}
CSRF_MESSAGE = ("csrf_failed", "表单已过期或缺少安全令牌：请刷新页面后再提交。")


def _wants_json() -> bool:
    return request.path.startswith("/api/")


def _answer(status: int, code: str, message: str, exc: HTTPException | None = None):
    if _wants_json():
        resp = error_response(code, message, None, status)
    else:
        try:
            resp = render_template("error.html", status=status, message=message), status
        except Exception:  # noqa: BLE001 - the error page must not fail in turn
            html = (f'<!doctype html><html lang="zh-Hans"><meta charset="utf-8">'
                    f"<title>{status}</title><h1>{status}</h1><p>{escape(message)}</p>"
                    f'<p><a href="/">回到计算器</a></p></html>')
            resp = html, status, {"Content-Type": "text/html; charset=utf-8"}
    if exc is not None and status == 405:
        allow = dict(exc.get_headers()).get("Allow")
        if allow:
            from flask import make_response

            resp = make_response(resp)
            resp.headers["Allow"] = allow
    return resp


def handle_http(exc: HTTPException):
    status = exc.code or 500
    code, message = MESSAGES.get(status, ("http_error", exc.name))
    return _answer(status, code, message, exc)


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
