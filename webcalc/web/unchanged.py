"""Unchanged answers below Flask (issue 38.3): the 304 of a live poll (``GET
/t/<token>/live``) and of a table's JSON read (``GET /api/v1/tables/<token>``), decided before
the app does any other work.

A plain revalidation (a ``GET`` with ``If-None-Match``, no body, a trusted host, a query of at
most ``lang=`` and, for the poll, ``part=`` with plain values, no longer than the app's
:data:`~webcalc.web.security.QUERY_MAX`) is answered by :func:`init_app`'s
WSGI wrapper when the ETag the app would send now is among the request's: the ETag is what it
is in the views (:func:`webcalc.web.ledger_shared.table_etag`: the table's version and the
link's rights from :meth:`Ledger.probe <webcalc.ledger.service.Ledger.probe>`, the reader's
language chosen as :func:`webcalc.web.i18n.select_locale` chooses it), so it is exactly as
current as theirs: the probe asks the database (on PostgreSQL, its version stamps kept current
by the writes' notices, :mod:`webcalc.ledger.versions`), and a revoked or rotated token is not
found there, so it never gets a 304 (it goes on to the app, which answers 404). The answer's
headers are those of the app's first 304 of that kind, its ETag replaced (the same bytes as
the app's own 304: ``tests/ledger/test_unchanged.py``). Anything else (no ``If-None-Match``,
an ETag that does not match, another query, an unknown token, a busy database) goes through
Flask as before, which answers it as it always did.

Why below Flask: the 304 itself is a probe and a string compare; Flask's request context, URL
matching, hooks and response object cost several times that (the poll's 304 was 4.2× a
minimal Flask route's CPU; below it 0.43×: ``python bench/page_cost.py --hands 300 --rounds
20``, 2026-12-06, before and after at once, load 10.4; bench/RESULTS.md "Pages and unchanged
answers (issue 38)"). Not a cache: nothing is kept but the headers of one answer per kind.
"""

from __future__ import annotations

import re

from flask import Flask
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header, parse_etags

from ..ledger import LedgerError
from .health import plain_get, run_and_capture
from .i18n import LANGS
from .ledger_shared import table_etag
from .security import QUERY_MAX

#: (kind, path pattern, query keys it may carry)
ROUTES = (
    ("live", re.compile(r"/t/([A-Za-z0-9_-]{22,64})/live"), frozenset({"lang", "part"})),
    ("read", re.compile(r"/api/v1/tables/([A-Za-z0-9_-]{22,64})"), frozenset({"lang"})),
)
_PLAIN_VALUE = re.compile(r"[a-z]{0,8}")
#: what :func:`webcalc.web.i18n.select_locale` matches Accept-Language against
_ACCEPTED = ["zh_CN", "zh_TW", "zh", "en"]


def _lang(query: str, keys: frozenset, environ) -> str | None:
    """The response's language (``zh``/``en``) as the app chooses it, or None when the query
    holds anything but plain ``keys`` (then the app reads it)."""
    chosen = None
    if query:
        for pair in query.split("&"):
            key, eq, value = pair.partition("=")
            if not eq or key not in keys or not _PLAIN_VALUE.fullmatch(value):
                return None
            if key == "lang" and chosen is None:
                chosen = value              # the first, as request.args.get reads it
    if chosen in LANGS:
        return chosen
    best = parse_accept_header(environ.get("HTTP_ACCEPT_LANGUAGE"),
                               LanguageAccept).best_match(_ACCEPTED)
    return "en" if best == "en" else "zh"


def _route(path: str):
    """``(kind, token, query keys)`` of a path this module answers, else None."""
    for kind, pattern, keys in ROUTES:
        m = pattern.fullmatch(path)
        if m:
            return kind, m.group(1), keys
    return None


def _plain(app: Flask, environ) -> bool:
    """A ``GET`` revalidation without a body to a trusted host, as the app is mounted, its
    query within the app's limit."""
    return ("HTTP_IF_NONE_MATCH" in environ
            and len(environ.get("QUERY_STRING", "")) <= QUERY_MAX and plain_get(app, environ))


def unchanged(app: Flask, environ) -> tuple[str, str] | None:
    """``(kind, etag)`` when this request is a plain revalidation of a poll or a table read
    whose ETag is the one the app would send now; None sends the request on to the app."""
    route = _route(environ.get("PATH_INFO", "")) if "HTTP_IF_NONE_MATCH" in environ else None
    if route is None or not _plain(app, environ):
        return None
    kind, token, keys = route
    lang = _lang(environ.get("QUERY_STRING", ""), keys, environ)
    if lang is None:
        return None
    try:
        version, editor = app.extensions["ledger"].probe(token)
    except LedgerError:                      # not found (revoked, rotated), busy: the app's
        return None
    except Exception:  # noqa: BLE001 - anything else: the app's, with its error handlers
        return None
    etag = table_etag(version, editor, lang)
    # a compressed answer's ETag comes back with -gzip (webcalc.web.assets._plain_validators)
    if not parse_etags(environ["HTTP_IF_NONE_MATCH"].replace('-gzip"', '"')).contains(etag):
        return None
    return kind, etag


def init_app(app: Flask) -> None:
    """Answer a plain revalidation of a poll or a table read below Flask (the module
    docstring). Call after every hook is registered, before any WSGI middleware (ProxyFix)
    wraps the app, beside :func:`webcalc.web.health.init_app`."""
    inner = app.wsgi_app
    kept: dict = {}                          # (kind, scheme) → (headers, index of the ETag)

    def wsgi_app(environ, start_response):
        found = unchanged(app, environ)
        if found is None:
            return inner(environ, start_response)
        kind, etag = found
        key = (kind, environ.get("wsgi.url_scheme"))
        if key in kept:
            headers, at = kept[key]
            headers = list(headers)
            headers[at] = ("ETag", f'"{etag}"')
            start_response("304 NOT MODIFIED", headers)
            return []
        status, headers, body = run_and_capture(inner, environ, start_response)
        if status == "304 NOT MODIFIED" and not body:
            at = [i for i, (name, _v) in enumerate(headers) if name.lower() == "etag"]
            if (len(at) == 1 and headers[at[0]] == ("ETag", f'"{etag}"')
                    and not any(name.lower() == "set-cookie" for name, _v in headers)):
                kept[key] = (tuple(headers), at[0])
        return [body]

    app.wsgi_app = wsgi_app  # type: ignore[method-assign]
