"""Input errors of the engine: one exception type carrying a stable code.

Every error the engine raises for bad input is an :class:`InputError`. The JSON API
turns it into ``{"error": {"code", "message", "field"}}`` with status 400 and the page
shows ``message`` under the form field named by ``field``.

Codes (API.md): ``bad_json``, ``unknown_variant``, ``bad_tile``, ``too_many_copies``,
``wrong_tile_count``, ``bad_meld``, ``bad_option``, ``bad_settlement``, ``not_in_hand``,
``bad_win_by`` (RULES C-14), ``not_complete`` (RULES C-15); ``bad_history`` (a winner's
history the variant cannot take, or turns that cannot be replayed) and ``too_many`` (past a
documented cap: the API answers 422 with the cap in ``detail``).
"""

from __future__ import annotations

from typing import Any

from .messages import Message

CODES = frozenset({
    "bad_json", "bad_request", "unknown_variant", "bad_tile", "too_many_copies",
    "wrong_tile_count", "bad_meld", "bad_option", "bad_settlement", "not_in_hand",
    "bad_win_by", "not_complete", "too_large", "bad_history", "too_many", "bad_points",
})


class InputError(ValueError):
    """Bad input, with a stable machine code and a :class:`~webcalc.messages.Message`.

    Attributes:
        code: one of :data:`CODES`.
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

    def with_field(self, field: str, label: Message | None = None) -> InputError:
        """Return a copy of this error attributed to ``field``; ``label`` (the field's
        name, a message) is put in front of the message (code ``field_error``)."""
        message = Message("field_error", {"field": label, "text": self.message}) if label \
            else self.message
        return InputError(self.code, message, field, self.position, self.reasons, self.turn,
                          self.detail)

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
        return f"InputError({self.code!r}, {self.message!r}, field={self.field!r})"
