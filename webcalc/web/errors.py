"""Error pages: JSON under ``/api/``, friendly Chinese HTML elsewhere."""

from __future__ import annotations

from flask import Flask, render_template, request
from werkzeug.exceptions import HTTPException

from .api import error_response

MESSAGES = {
    400: ("bad_request", "请求有误。"),
    404: ("not_found", "没有这个页面。"),
    405: ("method_not_allowed", "不支持这种请求方法。"),
    413: ("too_large", "请求太大了。"),
    415: ("unsupported_media_type", "不支持的内容类型。"),
    500: ("internal", "服务器出错了，请稍后再试。"),
}


def _wants_json() -> bool:
    return request.path.startswith("/api/")


def handle_http(exc: HTTPException):
    status = exc.code or 500
    code, message = MESSAGES.get(status, ("http_error", exc.name))
    if _wants_json():
        return error_response(code, message, None, status)
    return render_template("error.html", status=status, message=message), status


def init_app(app: Flask) -> None:
    # Unhandled exceptions reach this as InternalServerError (Flask logs them first).
    app.register_error_handler(HTTPException, handle_http)
