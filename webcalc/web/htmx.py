"""A ten-line htmx 4 helper (``flask-htmx`` targets htmx 2's headers)."""

from __future__ import annotations

from typing import TypeVar

from flask import Request
from werkzeug.wrappers import Response

#: a response of Flask's or of Werkzeug's (``redirect`` makes the latter), kept as it is typed
R = TypeVar("R", bound=Response)

VARY = "HX-Request, HX-Request-Type, HX-History-Restore-Request, Accept-Language"


def is_htmx(request: Request) -> bool:
    """True for any request htmx made (``HX-Request: true``)."""
    return request.headers.get("HX-Request") == "true"


def wants_fragment(request: Request) -> bool:
    """True when htmx swaps part of the page; a history restore (Back) or a
    ``HX-Request-Type: full`` request gets the full page."""
    return (
        is_htmx(request)
        and request.headers.get("HX-History-Restore-Request") != "true"
        and request.headers.get("HX-Request-Type", "partial") != "full"
    )


def add_vary(response: R) -> R:
    """Mark a page that answers htmx and plain requests differently."""
    response.vary.update(h.strip() for h in VARY.split(","))
    return response
