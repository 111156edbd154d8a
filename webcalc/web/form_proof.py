"""Forms under ``/t/`` that prove themselves without a session cookie (issue 35).

A table's forms live on its token URL (``/t/<edit token>/…``): the token is already the
capability. Flask-WTF's CSRF token is checked against the session cookie, and iOS WeChat drops
that cookie when it is killed, so a page loaded before then (or the offline queue's replay)
met "the form has expired". Here the hidden ``csrf_token`` field of a table's forms is instead
a **table proof**, ``t1.`` + HMAC-SHA256(the app's secret key, the token in the URL): a page
from this server for this token holds it; a cross-site page has neither the token nor the
key, so it cannot forge a write, as with the session token. The proof is checked against the
token of the URL it is posted to, so one table's proof writes nothing on another; a revoked or
replaced token still names no table (the ledger answers 404), whatever the proof.

新开一桌 (``/t/new``, ``/t/import``) has no token: its forms carry a **signed form token**
(itsdangerous, salted, dated; :data:`NEW_MAX_AGE`), which needs no cookie either. A request the
browser marks cross-site (``Sec-Fetch-Site: cross-site`` or ``same-site``) is never let through
by a proof; it falls back to the session check, which SameSite=Lax keeps from being sent.

Any other POST form (the circles' pages, a form without a token) keeps Flask-WTF's session
token. The session token still works on a table's forms too (a page rendered before this
change). docs/decisions.md "Forms without a session cookie".
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

from flask import current_app, request
from itsdangerous import BadData, URLSafeTimedSerializer

PREFIX = "t1."
_TABLE_SALT = b"webcalc.table-form\x00"
_NEW_SALT = "webcalc.new-table-form"
#: seconds a 新开一桌 page's form stays good (a page left open over a long weekend)
NEW_MAX_AGE = 30 * 24 * 3600


def _key() -> bytes:
    key = current_app.config["SECRET_KEY"]
    return key if isinstance(key, bytes) else str(key).encode("utf-8")


def table_proof(token: str) -> str:
    """The table proof of ``token``: what a form on ``/t/<token>/…`` posts as ``csrf_token``."""
    mac = hmac.new(_key(), _TABLE_SALT + token.encode("utf-8"), hashlib.sha256).digest()
    return PREFIX + base64.urlsafe_b64encode(mac).rstrip(b"=").decode("ascii")


def _serializer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(_key(), salt=_NEW_SALT)


def new_table_proof() -> str:
    """A signed form token for 新开一桌 and import (no table yet, no cookie needed)."""
    return str(_serializer().dumps(secrets.token_hex(8)))


def new_table_ok(sent: str | None) -> bool:
    if not sent or sent.startswith(PREFIX) or len(sent) > 200:
        return False
    try:
        _serializer().loads(sent, max_age=NEW_MAX_AGE)
    except BadData:
        return False
    return True


def table_ok(sent: str | None, token: str | None) -> bool:
    """``sent`` is the proof of ``token``."""
    if not sent or not token or not sent.startswith(PREFIX):
        return False
    return hmac.compare_digest(sent.encode("utf-8", "replace"), table_proof(token).encode("ascii"))


def sent_token() -> str | None:
    """The form's ``csrf_token`` (or the header htmx sends), as Flask-WTF looks for it."""
    name = current_app.config["WTF_CSRF_FIELD_NAME"]
    value = request.form.get(name)
    if value:
        return value
    for header in current_app.config["WTF_CSRF_HEADERS"]:
        value = request.headers.get(header)
        if value:
            return value
    return None


def cross_site() -> bool:
    """The browser says the request comes from another site (Fetch Metadata). Browsers that
    send no ``Sec-Fetch-Site`` (older WebViews) are judged by the proof alone. ``Origin`` is
    not used: a page with ``Referrer-Policy: no-referrer`` (every ``/t/`` page) posts
    ``Origin: null``."""
    return request.headers.get("Sec-Fetch-Site", "").lower() in ("cross-site", "same-site")


def form_token(token: str | None) -> str:
    """What a form on the page for ``token`` posts as ``csrf_token`` (a table proof), or for
    a page without a token (新开一桌) the signed form token."""
    return table_proof(token) if token else new_table_proof()


def proven(token: str | None, *, new_table: bool = False) -> bool:
    """This POST proves itself without the session: the table proof of the URL's token, or
    (``new_table``) a good signed form token; never when the browser says cross-site."""
    if cross_site():
        return False
    sent = sent_token()
    if token is not None:
        return table_ok(sent, token)
    return new_table and new_table_ok(sent)
