"""The table as the ledger's pages read it: the service (:func:`ledger`), a table in the
page's language kept per worker by token, version and language (:func:`load_table`), the
ETag of a table page's parts, the view link and the links block an edit page shows, and a
ledger error's HTTP status and text.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from flask import abort, current_app
from flask_babel import gettext as _

from ..ledger import (
    BadKey,
    Busy,
    Conflict,
    IdempotencyConflict,
    NotFound,
    NotOwner,
    RateLimited,
    ReadOnly,
    TableFull,
    Voided,
    table_in,
)
from .errors import TableLinkGone
from .i18n import current_lang, localized
from .ledger_shared import table_etag

STATUS = {NotFound: 404, ReadOnly: 403, NotOwner: 403, Conflict: 409, Voided: 409,
          IdempotencyConflict: 409, TableFull: 422, BadKey: 422, RateLimited: 429, Busy: 503}


def ledger():
    """The ledger service (:class:`webcalc.ledger.service.Ledger`) of the app."""
    return current_app.extensions["ledger"]


def error_text(err: Exception) -> str:
    """The error's message in the page's language."""
    return localized(getattr(err, "message", None) or str(err))


def key_refused_text(err: Exception) -> str:
    """What a page says when the ledger refused its entry's idempotency key: the key recorded
    another entry before (:class:`IdempotencyConflict`: a page kept from before it, Back then
    other values) or is not one the ledger takes (:class:`BadKey`: an edited URL). The API's
    message names the ``idempotency_key`` field, which a page's reader never sees; the page
    offers the entry again under a fresh key, and says so."""
    if isinstance(err, IdempotencyConflict):
        return _("This form already recorded hand %(n)s, with other values: nothing was "
                 "recorded this time. What you entered is kept below as a new entry: check "
                 "it and record it again.", n=err.detail)
    return _("This form's entry number could not be read: nothing was recorded. What you "
             "entered is kept below as a new entry: check it and record it again.")


#: tables kept per worker (by token, version and language): a tap on the table's entry reads
#: the table's version (one small query) and, while nobody wrote, not the whole table again
TABLE_CACHE_MAX = 8
_tables: OrderedDict = OrderedDict()
_tables_lock = threading.Lock()


def load_table(token: str) -> dict:
    """The table in the page's language (read only: it may be shared with other requests)."""
    return load_probed(token)[0]


def load_probed(token: str) -> tuple[dict, int | None]:
    """:func:`load_table`'s table and the editor the token is (None: the view link), which its
    version's query gives too."""
    try:
        version, editor = ledger().probe(token)
        key = (token, version, current_lang())
        with _tables_lock:
            t = _tables.get(key)
            if t is not None:
                _tables.move_to_end(key)
                return t, editor
        t = table_in(ledger().table(token), current_lang())
    except NotFound:
        raise TableLinkGone() from None       # revoked, replaced or copied wrong: the page says so
    except Busy:
        abort(503)
    with _tables_lock:
        _tables[(token, t["version"], current_lang())] = t
        while len(_tables) > TABLE_CACHE_MAX:
            _tables.popitem(last=False)
    return t, editor


def page_etag(table: dict | int, editor: int | None) -> str:
    """The ETag of a table page part: the table's version, the link's rights and the page's
    language (:func:`~webcalc.web.ledger_shared.table_etag`)."""
    version = table if isinstance(table, int) else table["version"]
    return table_etag(version, editor, current_lang())


def view_token_of(token: str) -> str | None:
    """The view token the edit page shows (any editor's: docs/LEDGER.md "Tokens"); None when
    this co-scorer's link no longer knows it (the creator replaced the view link)."""
    try:
        return ledger().view_token(token)
    except (NotFound, ReadOnly):
        return None


def links_of(token: str) -> dict:
    """What the links block of the edit page shows: whose link this is, and for the creator
    the co-scorers' links (numbers and dates: the links themselves are not kept)."""
    editor = ledger().editor_of(token)
    return {"editor": editor, "owner": editor == 0,
            "editors": ledger().editors(token)[1:] if editor == 0 else []}
