"""Limits, security headers and the secret key.

* **Limits.** A request body over :data:`BODY_MAX` bytes is refused with 413 before any view
  reads it (a chunked body, without ``Content-Length``, is read here up to the cap first); a
  query string over :data:`QUERY_MAX` bytes gets 414. A body the server cannot parse (broken
  chunked encoding) is a 400 (:mod:`webcalc.web.errors`). The engine caps each tile field at
  200 characters and lists at most 200 readings (``decompositions_total`` still counts them
  all). The error pages themselves (JSON under ``/api/``, Chinese HTML elsewhere) are in
  :mod:`webcalc.web.errors`.
* **Headers** on every response Flask makes: :data:`HEADERS`. The Content-Security-Policy
  allows no inline script and no inline style: pages load only ``/static/`` files (htmx is
  vendored, its indicator style is a constructed stylesheet, which CSP does not govern, and
  the page uses no ``hx-on`` or ``js:`` attributes, so htmx never needs ``eval``).
* **Secret links.** Every answer under ``/t/`` and ``/api/v1/tables`` (the ledger, whose URLs
  and bodies carry the edit and view tokens) gets :data:`PRIVATE_HEADERS`: ``no-store`` (no
  browser history cache, no shared cache keeps a copy), ``X-Robots-Tag: noindex`` and
  ``Referrer-Policy: no-referrer`` (a link followed from a table page does not tell the next
  site the table's address). Every 503 carries ``Retry-After`` (:data:`RETRY_AFTER` unless the
  view set one).
* **Cookies.** The session cookie (it holds only the CSRF token) is ``HttpOnly``,
  ``SameSite=Lax`` and, when the request came over https, ``Secure`` (:class:`SessionInterface`;
  behind a TLS-terminating proxy that is the proxy's ``X-Forwarded-Proto``, read by gunicorn
  from a loopback proxy, or by ProxyFix when ``WEBCALC_TRUSTED_PROXIES`` is set).
* **Proxies.** ``WEBCALC_TRUSTED_PROXIES=N`` (:func:`trusted_proxies`, default 0): the app sits
  behind N proxies that each append the address they saw to ``X-Forwarded-For``; the client's
  address (``request.remote_addr``, which the ledger's creation cap counts) is then the N-th
  value from the right (Werkzeug's ``ProxyFix``, set up in the app factory). Set it without
  such a proxy and any client can choose its own address by sending the header.
* **Host.** ``TRUSTED_HOSTS`` (Flask) lists the host names the app answers to; any other
  ``Host`` header is a 400 before routing, so nothing the app builds (the redirect of
  ``/static//x`` to ``/static/x``, absolute URLs) echoes a forged host. Default: loopback
  names only (``make run``, the tests); set ``WEBCALC_TRUSTED_HOSTS`` in production
  (:func:`trusted_hosts`). Host names compare without case: the list is kept in lower case
  and the ``Host`` header is put in lower case before anything reads it (:func:`lower_host`),
  so ``Host: LOCALHOST`` is localhost and every URL the app builds is in lower case.
* **CSRF.** :class:`flask_wtf.csrf.CSRFProtect` (set up in the app factory) guards every
  POST, PUT, PATCH and DELETE view. The page form is a GET form (nothing changes on the
  server) and the JSON API is exempt: it sets no cookie and reads no session, so a
  cross-site request carries no credential the API would honour.
* **Secret key.** From the environment (``WEBCALC_SECRET_KEY`` or ``SECRET_KEY``), else made
  once and kept in ``instance/secret_key``: every gunicorn worker reads the same file, and
  the first worker to get there wins the race to create it (:func:`secret_key`).
"""

from __future__ import annotations

import io
import os
import re
import secrets
import time
from pathlib import Path

from flask import Flask, abort, has_request_context, request
from flask.sessions import SecureCookieSessionInterface

#: Largest request body accepted, in bytes (the biggest real API request is about 2 KB).
BODY_MAX = 16 * 1024

#: Largest table import (the page's upload or pasted text, the API's body), in bytes: an
#: export of a table at every cap of docs/LEDGER.md "Limits", every text at its longest, is
#: about 1.3 MB.
IMPORT_MAX = 2 * 1024 * 1024

#: Largest circle import, in bytes: 100 evenings of 16 hands export to about 1.5 MB.
CIRCLE_IMPORT_MAX = 4 * 1024 * 1024

#: Views that take a bigger body: importing a table's or a circle's exported JSON.
BODY_MAX_BY_ENDPOINT = {"ledger_pages.import_table": IMPORT_MAX, "ledger_api.import_": IMPORT_MAX,
                        "circle_pages.import_circle": CIRCLE_IMPORT_MAX,
                        "circles_api.import_circle": CIRCLE_IMPORT_MAX}

#: Longest query string accepted, in bytes, percent-encoded. Every text field of the page is
#: capped at a few hundred characters; 8000 bytes leaves room for all of them typed in
#: Chinese (9 bytes a character encoded) and stays under gunicorn's request-line limit
#: (``limit_request_line = 8190`` in gunicorn.conf.py).
QUERY_MAX = 8000

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'")

HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
}

#: Every answer under a secret link (:data:`PRIVATE_PATH`) carries these, replacing the view's.
PRIVATE_HEADERS = {
    "Cache-Control": "no-store",
    "X-Robots-Tag": "noindex, nofollow",
    "Referrer-Policy": "no-referrer",
}
#: The ledger's paths: the pages (``/t/<token>…``, ``/t/new``, ``/t/import``, the circles'
#: ``/c/…``) and the JSON API (``/api/v1/tables…``, ``/api/v1/circles…``): their URLs,
#: redirects and bodies carry tokens.
PRIVATE_PATH = re.compile(r"/(?:t|c|api/v1/tables|api/v1/circles)(?:/|$)")

#: Seconds a 503 asks the client to wait when the view did not say (the ledger API says 1 for
#: a write lock held too long).
RETRY_AFTER = "5"


#: Hosts answered when ``WEBCALC_TRUSTED_HOSTS`` is unset: the loopback names ``make run`` binds
#: to and the Flask test client sends (any port).
LOCAL_HOSTS = ("localhost", "127.0.0.1")


def trusted_hosts(environ=os.environ) -> list[str] | None:
    """The ``TRUSTED_HOSTS`` list: ``WEBCALC_TRUSTED_HOSTS`` split on commas (a leading dot
    matches subdomains, as in Werkzeug), :data:`LOCAL_HOSTS` when unset, ``None`` (any host)
    when it is ``*`` (only when a proxy in front already checks the host)."""
    raw = environ.get("WEBCALC_TRUSTED_HOSTS", "").strip()
    if not raw:
        return list(LOCAL_HOSTS)
    if raw == "*":
        return None
    return [h.strip().lower() for h in raw.split(",") if h.strip()]


def lower_host(app: Flask) -> None:
    """Host names compare without case (RFC 3986, 3.2.2), which Werkzeug's trusted-host check
    does not do: the app's ``TRUSTED_HOSTS`` are put in lower case, and so is each request's
    ``Host`` header before anything reads it (Flask's check, /healthz's, the URLs the app
    builds). Installed last, so it wraps every other WSGI layer."""
    hosts = app.config.get("TRUSTED_HOSTS")
    if hosts:
        app.config["TRUSTED_HOSTS"] = [h.lower() for h in hosts]
    inner = app.wsgi_app

    def wsgi_app(environ, start_response):
        host = environ.get("HTTP_HOST")
        if host and host.isascii():
            environ["HTTP_HOST"] = host.lower()
        return inner(environ, start_response)

    app.wsgi_app = wsgi_app  # type: ignore[method-assign]


def trusted_proxies(environ=os.environ) -> int:
    """``WEBCALC_TRUSTED_PROXIES``: how many proxies in front of the app append to
    ``X-Forwarded-For`` (0 when unset). Anything but a whole number ≥ 0 stops the start."""
    raw = str(environ.get("WEBCALC_TRUSTED_PROXIES", "")).strip()
    if not raw:
        return 0
    if not re.fullmatch(r"[0-9]{1,3}", raw):
        raise ValueError(f"WEBCALC_TRUSTED_PROXIES must be a whole number ≥ 0 (the proxies in "
                         f"front of the app), not {raw!r}")
    return int(raw)


class SessionInterface(SecureCookieSessionInterface):
    """Flask's signed-cookie session, with ``Secure`` on the cookie whenever the request came
    over https (or always, with ``SESSION_COOKIE_SECURE``).

    Cheaper per request than Flask's own, with the same cookies: the signing serializer is
    made once per secret key (Flask makes one per request, about 60 µs), a request without a
    session cookie gets its empty session without one, and an empty session nobody changed
    is saved without reading the cookie settings (Flask's own returns there too; it only adds
    ``Vary: Cookie`` when the session was read, as this does)."""

    _serializers: dict = {}

    def get_signing_serializer(self, app: Flask):
        if not app.secret_key:
            return None
        key = (app.secret_key, tuple(app.config["SECRET_KEY_FALLBACKS"] or ()), self.salt)
        found = self._serializers.get(key)
        if found is None:
            found = super().get_signing_serializer(app)
            if len(self._serializers) > 16:       # keys of apps gone (the tests make many)
                self._serializers.clear()
            self._serializers[key] = found
        return found

    def open_session(self, app: Flask, request):
        if not app.secret_key:
            return None
        if not request.cookies.get(self.get_cookie_name(app)):
            return self.session_class()
        return super().open_session(app, request)

    def save_session(self, app: Flask, session, response) -> None:
        if not session and not session.modified:
            if session.accessed:
                response.vary.add("Cookie")
            return
        super().save_session(app, session, response)

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]
                    or (has_request_context() and request.is_secure))


def init_app(app: Flask) -> None:
    # first of all before-request hooks (CSRFProtect's would read a form body first)
    app.before_request_funcs.setdefault(None, []).insert(0, _check_limits)
    app.after_request(_add_headers)


def _check_limits():
    req = request._get_current_object()  # type: ignore[attr-defined]  # one context look-up
    environ = req.environ
    if len(environ.get("QUERY_STRING", "")) > QUERY_MAX and len(req.query_string) > QUERY_MAX:
        abort(414)
    length = req.content_length
    endpoint = req.endpoint
    if endpoint in BODY_MAX_BY_ENDPOINT:
        req.max_content_length = BODY_MAX_BY_ENDPOINT[endpoint]
    limit = req.max_content_length
    if length is not None and limit is not None and length > limit:
        abort(413)
    if (length is None and limit is not None and environ.get("wsgi.input_terminated")
            and "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()):
        _buffer_streamed_body(environ, limit)
    return None


def _buffer_streamed_body(environ: dict, limit: int) -> None:
    """Read a chunked body (no Content-Length) here, at most ``limit`` bytes, and hand it on
    with a Content-Length. Werkzeug alone would stop reading at the limit and pass the first
    ``limit`` bytes on as if they were the whole body (a cut-off JSON → a misleading
    ``bad_json``, a cut-off form → missing fields) instead of answering 413."""
    stream = environ["wsgi.input"]
    data = bytearray()
    while len(data) <= limit:
        chunk = stream.read(min(64 * 1024, limit + 1 - len(data)))
        if not chunk:
            break
        data += chunk
    if len(data) > limit:
        abort(413)
    environ["wsgi.input"] = io.BytesIO(bytes(data))
    environ["CONTENT_LENGTH"] = str(len(data))
    environ.pop("HTTP_TRANSFER_ENCODING", None)


_HEADER_NAMES = tuple((name.lower(), name, value) for name, value in HEADERS.items())


def _add_headers(response):
    headers = response.headers
    if PRIVATE_PATH.match(request.path):
        for name, value in PRIVATE_HEADERS.items():
            headers[name] = value
    present = {name.lower() for name in headers.keys()}
    for lower, name, value in _HEADER_NAMES:     # as headers.setdefault, without its KeyError
        if lower not in present:
            headers.add(name, value)
    if response.status_code == 503 and "retry-after" not in present:
        headers.add("Retry-After", RETRY_AFTER)
    return response


# --- the secret key -------------------------------------------------------------------------

ENV_KEYS = ("WEBCALC_SECRET_KEY", "SECRET_KEY")


def secret_key(app: Flask) -> str:
    """The app's secret key: the environment's, else the one in ``instance/secret_key``.

    The file is created once, atomically: the key is written to a private temporary file
    which is then hard-linked to ``secret_key``. ``link`` fails when the name exists, so when
    several workers start at once exactly one key wins and the others read it, never a
    half-written file. A checkout where the instance folder cannot be written falls back to
    a per-process key (sessions and CSRF tokens then hold only within one worker).
    """
    for name in ENV_KEYS:
        if os.environ.get(name):
            return os.environ[name]
    if app.testing:
        return secrets.token_hex(32)
    try:
        return _shared_key(Path(app.instance_path) / "secret_key")
    except OSError:
        app.logger.warning("instance/secret_key cannot be read or written: using a per-process "
                           "secret key; set WEBCALC_SECRET_KEY when running several workers")
        return secrets.token_hex(32)


def _read_key(path: Path) -> str | None:
    try:
        return path.read_text(encoding="ascii").strip() or None
    except FileNotFoundError:
        return None


def _shared_key(path: Path) -> str:
    key = _read_key(path)
    if key:
        return key
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_hex(32)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(key + "\n")
            f.flush()
            os.fsync(f.fileno())
        try:
            os.link(tmp, path)           # atomic; fails if another worker got there first
        except FileExistsError:
            pass
        except OSError:                  # no hard links here: first O_EXCL creator wins
            _create_exclusive(path, key)
    finally:
        tmp.unlink(missing_ok=True)
    for _ in range(50):                  # an empty file: the O_EXCL winner is still writing
        found = _read_key(path)
        if found:
            return found
        time.sleep(0.01)
    raise OSError(f"{path} stays empty")


def _create_exclusive(path: Path, key: str) -> None:
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(key + "\n")
