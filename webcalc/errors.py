"""Input errors of the engine: one exception class per stable code.

Every error the engine raises for bad input is an :class:`InputError`, and each code has its
own subclass (as the ledger's errors, :mod:`webcalc.ledger.errors`), so a caller may catch
exactly what it can handle: ``except BadTileError``. The JSON API turns any of them into
``{"error": {"code", "message", "field"}}`` with status 400 and the page shows ``message``
under the form field named by ``field``. The wording is the caller's: ``message`` is a
:class:`~webcalc.messages.Message`, a code of the catalogue (``webcalc.catalogue``) with its
parameters, rendered in the reader's language by the web layer.

Codes (API.md), their classes in :data:`ERROR_CLASSES`:

============================  ====================================================
``bad_json``                  :class:`BadJsonError`: not JSON, or not an object
``bad_request``               :class:`BadRequestError`: a field of a request that is
                              not a hand (a quiz's date, a ledger's number)
``unknown_variant``           :class:`UnknownVariantError`
``bad_tile``                  :class:`BadTileError`: a tile string (``position``)
``too_many_copies``           :class:`TooManyCopiesError`: a fifth copy (C-4)
``wrong_tile_count``          :class:`WrongTileCountError`: not 13 or 14 (C-3)
``bad_meld``                  :class:`BadMeldError`
``bad_option``                :class:`BadOptionError`: a room option
``bad_settlement``            :class:`BadSettlementError`: ``settlement``, ``declared``
``not_in_hand``               :class:`NotInHandError`: a tile asked about is not held
``bad_win_by``                :class:`BadWinByError`: RULES C-14
``not_complete``              :class:`NotCompleteError`: RULES C-15 (``reasons``)
``too_large``                 :class:`TooLargeError`: past a size the server takes
``bad_history``               :class:`BadHistoryError`: a winner's history the variant
                              cannot take, or a review's turns that cannot be replayed (``turn``)
``too_many``                  :class:`TooManyError`: past a documented cap (the API
                              answers 422 with the cap in ``detail``)
``bad_points``                :class:`BadPointsError`: a free table's points
============================  ====================================================

Each class is built from the message alone (``BadTileError(message, None, position)``);
:class:`InputError` itself still takes the code first (``InputError("bad_tile", message)``)
for the code paths that carry a code they did not choose.
"""

from __future__ import annotations

from typing import Any, TypeVar

from .messages import Message

CODES = frozenset({
    "bad_json", "bad_request", "unknown_variant", "bad_tile", "too_many_copies",
    "wrong_tile_count", "bad_meld", "bad_option", "bad_settlement", "not_in_hand",
    "bad_win_by", "not_complete", "too_large", "bad_history", "too_many", "bad_points",
})

E = TypeVar("E", bound="InputError")


class InputError(ValueError):
    """Bad input, with a stable machine code and a :class:`~webcalc.messages.Message`.

    Attributes:
        code: one of :data:`CODES` (each subclass's own).
        message: a :class:`~webcalc.messages.Message` naming the field and, where there
            is one, the offending tile (the web layer renders it in the reader's language;
            ``str()`` gives Simplified Chinese).
        field: the request field at fault (``"hand"``, ``"melds"``, ``"options.pao_max"``,
            ``"settlement.winner"`` …) or ``None`` for the body as a whole.
        position: for tile strings, the 0-based index of the offending character in the
            field's text, else ``None``.
        reasons: for ``not_complete``, a list of ``{"rule", "message"}`` dicts (``message``
            a :class:`~webcalc.messages.Message`).
        turn: the 0-based turn of a history or review the error is about, else ``None``.
        detail: for ``too_many``, the cap passed: ``{"limit": name, "max": n}``.
    """

    def __init__(self, code: str, message: Message, field: str | None = None,
                 position: int | None = None, reasons: list[dict[Any, Any]] | None = None,
                 turn: int | None = None, detail: dict[Any, Any] | None = None):
        if code not in CODES:
            raise AssertionError(f"unknown error code {code!r}")
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field
        self.position = position
        self.reasons = reasons or []
        self.turn = turn
        self.detail = detail

    def replace(self: E, **changes: Any) -> E:
        """A copy of this error, of its class, with the attributes ``changes`` names
        (``message``, ``field``, ``position``, ``reasons``, ``turn``, ``detail``) replaced:
        an error re-worded or re-placed by the code that caught it keeps its class."""
        unknown = set(changes) - {"message", "field", "position", "reasons", "turn", "detail"}
        if unknown:
            raise TypeError(f"not an attribute of an input error: {sorted(unknown)}")
        new = type(self).__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.__dict__.update(changes)
        new.args = (new.message,)
        return new

    def with_field(self: E, field: str, label: Message | None = None) -> E:
        """Return a copy of this error, of its class, attributed to ``field``; ``label``
        (the field's name, a message) is put in front of the message (code
        ``field_error``)."""
        message = Message("field_error", {"field": label, "text": self.message}) if label \
            else self.message
        return self.replace(message=message, field=field)

    def to_dict(self) -> dict[Any, Any]:
        """The API error object: ``{"code", "message", "field"}`` (+ position, reasons, turn,
        detail), with
        :class:`~webcalc.messages.Message` values the web layer renders."""
        out = {"code": self.code, "message": self.message, "field": self.field}
        if self.position is not None:
            out["position"] = self.position
        if self.reasons:
            out["reasons"] = self.reasons
        if self.turn is not None:
            out["turn"] = self.turn
        if self.detail is not None:
            out["detail"] = self.detail
        return out

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r}, field={self.field!r})"


class _OneCode(InputError):
    """The base of the classes of one code each: the code is the class's, so they are
    built from the message on (the arguments of :class:`InputError` after ``code``)."""

    code = ""

    def __init__(self, message: Message, field: str | None = None,
                 position: int | None = None, reasons: list[dict[Any, Any]] | None = None,
                 turn: int | None = None, detail: dict[Any, Any] | None = None):
        super().__init__(type(self).code, message, field, position, reasons, turn, detail)


class BadJsonError(_OneCode):
    """The body is not JSON, or not the object the endpoint takes."""

    code = "bad_json"


class BadRequestError(_OneCode):
    """A field of a request that is no hand is not what the endpoint takes (a quiz's date,
    a ledger entry's number, a review's request)."""

    code = "bad_request"


class UnknownVariantError(_OneCode):
    """``variant`` names no rule set of :data:`webcalc.variants.VARIANTS`."""

    code = "unknown_variant"


class BadTileError(_OneCode):
    """A tile string that is not tiles (``position``: the character at fault), or a tile
    the room does not have (C-1: no honors)."""

    code = "bad_tile"


class TooManyCopiesError(_OneCode):
    """A fifth copy of a kind among the tiles given (C-4)."""

    code = "too_many_copies"


class WrongTileCountError(_OneCode):
    """A hand that is neither 13 nor 14 tiles, melds counted (C-3), or a winner's hand that
    is not 14 (C-15)."""

    code = "wrong_tile_count"


class BadMeldError(_OneCode):
    """A meld that is not one, or that the rule set forbids (a chow in 三门峡, 郑州, 晋城)."""

    code = "bad_meld"


class BadOptionError(_OneCode):
    """A room option that is unknown or of the wrong type or range (``field``
    ``options.<name>``), or an input the room's options exclude (an indicator in 晋城)."""

    code = "bad_option"


class BadSettlementError(_OneCode):
    """A ``settlement`` or ``declared`` field the rules refuse (C-15); ``field`` names it."""

    code = "bad_settlement"


class NotInHandError(_OneCode):
    """A tile asked about (a discard, the winning tile) that the hand does not hold."""

    code = "not_in_hand"


class BadWinByError(_OneCode):
    """A win method the rule set does not have, or a tile it cannot be won on (C-14)."""

    code = "bad_win_by"


class NotCompleteError(_OneCode):
    """A winner given for a hand that is no legal win (C-15); ``reasons`` says why where a
    rule of the variant decides."""

    code = "not_complete"


class TooLargeError(_OneCode):
    """Past a size the server takes (a body, an import)."""

    code = "too_large"


class BadHistoryError(_OneCode):
    """A winner's ``history`` the variant cannot take, or a review's turns that cannot be
    replayed; ``turn`` is the first turn at fault."""

    code = "bad_history"


class TooManyError(_OneCode):
    """Past a documented cap (history turns, review turns …): the API answers 422 with the
    cap in ``detail``: ``{"limit": name, "max": n}``."""

    code = "too_many"


class BadPointsError(_OneCode):
    """The points of a hand at a table without a rule set that do not add up."""

    code = "bad_points"


#: code → its class, one for each of :data:`CODES`
ERROR_CLASSES: dict[str, type[_OneCode]] = {cls.code: cls for cls in (
    BadJsonError, BadRequestError, UnknownVariantError, BadTileError, TooManyCopiesError,
    WrongTileCountError, BadMeldError, BadOptionError, BadSettlementError, NotInHandError,
    BadWinByError, NotCompleteError, TooLargeError, BadHistoryError, TooManyError,
    BadPointsError)}
assert set(ERROR_CLASSES) == CODES, "one class per code"
