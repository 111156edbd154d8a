"""What the ledger service raises besides the engine's :class:`~webcalc.errors.InputError`.

Each error has a stable ``code`` (the JSON API's ``error.code``) and a ``message``: a
:class:`~webcalc.messages.Message` the web layer renders in the reader's language.
The web layer maps them to HTTP statuses (:data:`webcalc.web.ledger_api.STATUS`); the ledger
itself knows nothing of HTTP.
"""

from __future__ import annotations

from ..messages import Message


class LedgerError(Exception):
    """Base class. ``code``: stable machine code; ``message``: a
    :class:`~webcalc.messages.Message` (``str()`` gives Chinese); ``field`` or None."""

    code = "ledger_error"

    def __init__(self, message: Message, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field

    def to_dict(self) -> dict:
        return {"code": self.code, "message": self.message, "field": self.field}


class NotFound(LedgerError):
    """No table has this token (either kind), or the table has no hand with this number."""

    code = "not_found"


class ReadOnly(LedgerError):
    """A write with the view token."""

    code = "read_only"


class NotOwner(LedgerError):
    """A write only the table's creator (editor 0) may make: adding or revoking a co-scorer,
    replacing the view link."""

    code = "not_owner"


class Conflict(LedgerError):
    """``expected_number`` (or ``expected_revision``) is not the table's, or the entry an undo
    names is not the last counted one: nothing was written.
    ``table`` is the table as it is now (the dict :meth:`Ledger.table` returns)."""

    code = "conflict"

    def __init__(self, message: Message, table: dict, field: str | None = None):
        super().__init__(message, field)
        self.table = table


class IdempotencyConflict(LedgerError):
    """An ``idempotency_key`` already used on the table with another body (another entry than
    the one it recorded): nothing was written. ``detail`` is the number of the entry that key
    recorded (docs/LEDGER.md "Idempotency keys")."""

    code = "idempotency_conflict"

    def __init__(self, message: Message, number: int, field: str | None = "idempotency_key"):
        super().__init__(message, field)
        self.detail = number

    def to_dict(self) -> dict:
        return {**super().to_dict(), "detail": self.detail}


class BadKey(LedgerError):
    """An ``idempotency_key`` that is not 1-64 characters of ``[A-Za-z0-9_-]``: a value the
    request may carry but the ledger cannot take (422, code ``bad_request``, the field named).
    Nothing was written."""

    code = "bad_request"


class Voided(LedgerError):
    """A correction of a voided hand (void it, then record the hand again)."""

    code = "voided"


class TooMany(LedgerError):
    """A documented cap would be passed: entries per table, revisions per entry, corrections
    per table, or an import holding more than they allow. Nothing was written. ``detail``
    names the cap and its value: ``{"limit": "entries_per_table", "max": 500}``."""

    code = "too_many"

    def __init__(self, message: Message, limit: str, maximum: int, field: str | None = None):
        super().__init__(message, field)
        self.detail = {"limit": limit, "max": maximum}

    def to_dict(self) -> dict:
        return {**super().to_dict(), "detail": self.detail}


#: the name this error had before it became ``too_many`` (422, API.md "round two")
TableFull = TooMany


class RateLimited(LedgerError):
    """Too many tables created from one address in the last hour. ``retry_after`` seconds."""

    code = "rate_limited"

    def __init__(self, message: Message, retry_after: int):
        super().__init__(message)
        self.retry_after = retry_after


class Busy(LedgerError):
    """The database stayed locked (SQLite) or unreachable after retries: try again shortly.
    Nothing was written."""

    code = "busy"
