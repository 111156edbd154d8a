"""WeChat's in-app browser (docs/SERVING.md "Serving to WeChat users"): the one place that
says whether a request comes from it. Its User-Agent carries ``MicroMessenger/<version>``
on Android (XWeb) and iOS (WKWebView) alike. An answer that differs with it says so with
``Vary: User-Agent`` (:func:`vary`), so a shared cache never hands WeChat's page to another
browser or the other way round."""

from __future__ import annotations

from typing import TypeVar

from flask import request
from werkzeug.wrappers import Response

R = TypeVar("R", bound=Response)

MARK = "micromessenger"


def in_wechat() -> bool:
    """True when the request comes from WeChat's in-app browser."""
    return MARK in (request.headers.get("User-Agent") or "").lower()


def vary(response: R) -> R:
    """Mark an answer that depends on :func:`in_wechat`."""
    response.vary.add("User-Agent")
    return response
