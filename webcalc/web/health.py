"""Probes for the process manager or load balancer.

* ``GET /healthz`` — liveness: 200 ``{"status": "ok"}`` while the worker answers; touches no
  engine state and no database (restart the process only when this fails).
* ``GET /readyz`` — readiness: 200 ``{"status": "ok", "database": "ok"}`` when the ledger's
  database answers a trivial query, else 503 ``{"status": "unavailable", "database":
  "unreachable"}`` with ``Retry-After`` (send no traffic here for now; the process itself is
  fine and the analysis pages still work).

A plain ``GET /healthz`` (no query, no body, a trusted host) is answered by :func:`init_app`'s
WSGI wrapper with the bytes the app answered the first such request: the same status, headers
(the security headers, ``Cache-Control``) and body, without Flask's request context and hooks,
which cost more than the answer (docs/decisions.md, "`/healthz` answered below Flask"): 4 µs
of CPU against 117 µs through Flask, 96.5 % of the request (``python bench/machinery.py
--hands 60 --repeats 7``, 2026-12-06, commit f324730, load 12-16; bench/RESULTS.md
"Machinery (issue 37.2)").
Anything else (``HEAD``, a query string, an untrusted host, a body) goes through Flask.
"""

from __future__ import annotations

from flask import Blueprint, Flask, current_app, jsonify
from werkzeug.exceptions import SecurityError
from werkzeug.sansio.utils import get_host

bp = Blueprint("health", __name__)

#: seconds a 503 from /readyz asks the prober to wait
READY_RETRY_AFTER = "5"


@bp.get("/healthz")
def healthz():
    """200 ``{"status": "ok"}`` while the worker answers; touches no engine state."""
    resp = jsonify({"status": "ok"})
    resp.headers["Cache-Control"] = "no-store"
    return resp


@bp.get("/readyz")
def readyz():
    """200 when the ledger's database answers ``SELECT 1`` (a connection from the pool, or a
    new one), else 503 with ``Retry-After``; never a 500."""
    from sqlalchemy import text

    ledger = current_app.extensions["ledger"]
    try:
        with ledger.engine.connect() as conn:
            conn.execute(text("SELECT 1")).scalar_one()
        resp = jsonify({"status": "ok", "database": "ok"})
    except Exception as err:  # noqa: BLE001 - whatever the driver raises, the answer is 503
        current_app.logger.warning("readyz: the ledger database does not answer: %s: %s",
                                   type(err).__name__, (str(err).splitlines() or [""])[0])
        resp = jsonify({"status": "unavailable", "database": "unreachable"})
        resp.status_code = 503
        resp.headers["Retry-After"] = READY_RETRY_AFTER
    resp.headers["Cache-Control"] = "no-store"
    return resp


def plain_get(app: Flask, environ) -> bool:
    """A ``GET`` without a body to a trusted host, with the app mounted at the root: what a
    wrapper below Flask may answer itself (this module's and :mod:`webcalc.web.unchanged`'s);
    anything else goes through Flask."""
    if (environ.get("REQUEST_METHOD") != "GET" or environ.get("SCRIPT_NAME")
            or environ.get("CONTENT_LENGTH") not in (None, "", "0")
            or "HTTP_TRANSFER_ENCODING" in environ or app.config.get("SERVER_NAME")):
        return False
    try:
        get_host(environ.get("wsgi.url_scheme", "http"), environ.get("HTTP_HOST"),
                 (environ.get("SERVER_NAME", ""), environ.get("SERVER_PORT")),
                 app.config.get("TRUSTED_HOSTS"))
    except SecurityError:
        return False
    return True


def run_and_capture(inner, environ, start_response) -> tuple[str | None, list, bytes]:
    """Run the WSGI app ``inner`` on ``environ``, passing its answer on to
    ``start_response``, and return the status and headers it started with (``None`` and
    ``[]`` if it never did) and its whole body, read and closed."""
    seen: list = []

    def capture(status, headers, exc_info=None):
        seen.append((status, list(headers)))
        return start_response(status, headers, exc_info) if exc_info else \
            start_response(status, headers)

    out = inner(environ, capture)
    try:
        body = b"".join(out)
    finally:
        close = getattr(out, "close", None)
        if close is not None:
            close()
    status, headers = seen[0] if seen else (None, [])
    return status, headers, body


def init_app(app: Flask) -> None:
    """Answer a plain ``GET /healthz`` from the first such answer (see the module docstring).
    Call after every hook is registered, before any WSGI middleware (ProxyFix) wraps the app."""
    inner = app.wsgi_app
    kept: list = []                          # [(status, headers, body)] once answered 200

    def wsgi_app(environ, start_response):
        if (environ.get("PATH_INFO") != "/healthz" or environ.get("QUERY_STRING")
                or not plain_get(app, environ)):
            return inner(environ, start_response)
        if kept:
            status, headers, body = kept[0]
            start_response(status, list(headers))
            return [body]
        status, headers, body = run_and_capture(inner, environ, start_response)
        if status is not None and status.startswith("200 ") and not any(
                name.lower() == "set-cookie" for name, _ in headers):
            kept.append((status, tuple(headers), body))
        return [body]

    app.wsgi_app = wsgi_app  # type: ignore[method-assign]
