"""The entry of a 自由记分 table (a table with no rule set, :mod:`webcalc.ledger.points`):
four amounts, or a winner and what each other seat pays, in one plain form that works
without JavaScript (POST to the table's ``/hands`` or ``/hands/<n>``, 303 back to the page;
an error is the page again, 422, with the message under its input and what was typed kept).

The rest of the table page (totals, settle-up, hands, undo, void, adjustments, links,
exports) is the ledger's own, as on every table: :mod:`webcalc.web.ledger_table` renders it
and calls :func:`entry` for the entry, :mod:`webcalc.web.ledger_record` :func:`save` for a
record or a correction.
Nothing here knows a rule set; a free table is the ledger's (``is_free``).
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any
from urllib.parse import urlencode

from flask import abort, request, url_for
from flask_babel import gettext as _

from ..errors import InputError
from ..ledger import BadKey, Conflict, IdempotencyConflict, LedgerError, is_free
from ..ledger.checks import KEY_SHAPE, fresh_key
from ..ledger.points import amount, parse_decimal
from ..messages import Message
from .i18n import lang_param, localized
from .ledger_load import key_refused_text

SEATS = range(4)
#: ``points[i]`` in an error: seat i's amount
_SEAT_FIELD = re.compile(r"points\[(\d)\]")


class FreeEntry:
    """The entry's state: the values shown (typed, or the corrected hand's), the errors
    under the inputs (``errors[name]``), the hand it records and its idempotency key."""

    def __init__(self, table: dict, token: str, correcting: dict | None = None,
                 values: dict | None = None, key: str | None = None):
        self.table = table
        self.token = token
        self.correcting = correcting
        self.number = correcting["number"] if correcting else table["next_number"]
        self.key = key or fresh_key()
        self.errors: dict[str, list[str]] = {}
        self.general: str | None = None
        if values is None:
            values = {"mode": "points", "dealer": str(table["dealer"])}
            if correcting is not None:
                req = correcting["request"]
                values.update({f"p{i}": _text(x) for i, x in enumerate(req["points"])})
                values.update(dealer=str(req.get("dealer", correcting["dealer"])),
                              note=req.get("note", ""))
        self.values = values
        # the record's control fields ride in the action's query, as the room's 记入 does:
        # the service worker queues an entry by its URL's idempotency_key, and
        # static/js/ledger.js moves the number and the key on for a hand queued offline
        lang = lang_param()
        if correcting is not None:
            self.action = url_for("ledger_pages.correct", token=token, number=self.number,
                                  expected_revision=correcting["revision"],
                                  idempotency_key=self.key, lang=lang)
        else:
            self.action = url_for("ledger_pages.record", token=token,
                                  expected_number=self.number, idempotency_key=self.key,
                                  lang=lang)
        self.cancel = url_for("ledger_pages.table", token=token)

    def value(self, name: str) -> str:
        return self.values.get(name) or ""

    def add_error(self, name: str, text: str) -> None:
        self.errors.setdefault(name, []).append(text)


def _text(x: Any) -> str:
    from ..settlement import fmt

    return fmt(x)


def read(entry: FreeEntry, form) -> dict | None:
    """The API body of the posted form, or None with the errors put under their inputs."""
    v = entry.values
    mode = v.get("mode") if v.get("mode") in ("points", "winner") else "points"
    if mode == "points" and not any(v.get(f"p{i}", "").strip() for i in SEATS) \
            and v.get("winner"):            # Enter pressed in the winner's part
        mode = "winner"
    v["mode"] = mode
    amounts = _amounts(entry) if mode == "points" else _winner_amounts(entry)
    if amounts is None or entry.errors:
        return None
    body: dict[str, Any] = {"points": amounts}
    dealer = v.get("dealer", "")
    if dealer in ("0", "1", "2", "3"):
        body["dealer"] = int(dealer)
    if v.get("note", "").strip():
        body["note"] = v["note"].strip()
    return body


def _checked(entry: FreeEntry, d: Decimal, i: int, name: str) -> int | float:
    """A typed amount as the JSON number the API takes (an int when whole), checked as
    typed (its size and decimals) with the error under its box ``name``; 0 when refused."""
    try:
        return amount(d, i)
    except InputError as err:
        entry.add_error(name, _named(entry, err))
        return 0


def _named(entry: FreeEntry, err: InputError) -> str:
    """The error's text with the seat it names (东家 … in the API's words) named as the
    page's boxes name it: the player's name."""
    message = err.message
    who = getattr(message, "params", {}).get("seat")
    code = getattr(who, "code", "")
    if isinstance(message, Message) and code.startswith("seat.") and code[5:].isdigit():
        message = Message(message.code, {**message.params,
                                         "seat": entry.table["names"][int(code[5:])]},
                          message.rule)
    return localized(message)


def _amounts(entry: FreeEntry) -> list[int | float] | None:
    """The four amounts typed (a blank box is 0; all four blank is an error)."""
    typed = [entry.value(f"p{i}").strip() for i in SEATS]
    if not any(typed):
        entry.add_error("points", _("Type each seat's amount: what it won (+) or paid "
                                    "(−) this hand."))
        return None
    out = []
    for i in SEATS:
        d = parse_decimal(typed[i]) if typed[i] else Decimal(0)
        if d is None:
            entry.add_error(f"p{i}", _("%(name)s: “%(text)s” is not a number (such as 30, "
                                       "-10 or 2.5).", name=entry.table["names"][i],
                                       text=typed[i]))
        out.append(0 if d is None else _checked(entry, d, i, f"p{i}"))
    return out


def _winner_amounts(entry: FreeEntry) -> list[int | float] | None:
    """The winner gets what the other three pay (a blank box is 0; the winner's own box is
    not read)."""
    winner = entry.value("winner")
    if winner not in ("0", "1", "2", "3"):
        entry.add_error("winner", _("Choose who won."))
        return None
    w = int(winner)
    pays = [Decimal(0)] * 4
    for i in SEATS:
        text = entry.value(f"pay{i}").strip()
        if i == w or not text:
            continue
        d = parse_decimal(text)
        if d is None:
            entry.add_error(f"pay{i}", _("%(name)s: “%(text)s” is not a number (such as "
                                         "10 or 2.5).", name=entry.table["names"][i],
                                         text=text))
            continue
        _checked(entry, d, i, f"pay{i}")    # its decimals and size, under its own box
        if f"pay{i}" not in entry.errors:
            pays[i] = d
    total = sum(pays, Decimal(0))
    if total == 0 and not entry.errors:
        entry.add_error("winner", _("Type what each of the others pays the winner."))
    return [_number(total) if i == w else _number(-pays[i]) for i in SEATS]


def _number(d: Decimal) -> int | float:
    """A checked amount (at most 4 decimals, a sum of at most three checked ones) as the
    JSON number the API takes (an int when whole)."""
    return int(d) if d == d.to_integral_value() else float(d)


def attach(entry: FreeEntry, err: InputError) -> None:
    """The ledger's error under the input it is about (a seat's amount, the dealer, the
    note), or above the amounts (their sum, the list)."""
    text = _named(entry, err)
    field = err.field or ""
    m = _SEAT_FIELD.fullmatch(field)
    if m is not None:
        seat = int(m.group(1))
        if entry.values.get("mode") == "winner":
            won = entry.values.get("winner") == str(seat)
            entry.add_error("winner" if won else f"pay{seat}", text)
        else:
            entry.add_error(f"p{seat}", text)
    elif field in ("dealer", "note"):
        entry.add_error(field, text)
    elif entry.values.get("mode") == "winner":
        entry.add_error("winner", text)
    else:
        entry.add_error("points", text)


def posted(t: dict, token: str, correcting: dict | None, fresh_key: bool = False) -> FreeEntry:
    form = request.form
    values = {k: (form.get(k) or "")[:40] for k in
              ["mode", "dealer", "winner", "note"] + [f"p{i}" for i in SEATS]
              + [f"pay{i}" for i in SEATS]}
    values["note"] = (form.get("note") or "")[:400]
    return FreeEntry(t, token, correcting, values,
                     key=None if fresh_key else request.values.get("idempotency_key") or None)


def save(token: str, t: dict, number: int | None, *, ledger, page, load, status):
    """记入 of a free hand (``number`` None) or its correction, from the posted form: the
    ledger's :class:`~webcalc.ledger.Recorded`, which :mod:`.ledger_record` answers as it
    answers a room's (the 303, a repeat of the same form, the back button after 撤销), or
    the page again (an error, a conflict). ``ledger`` is the service, ``page(token, table,
    **kw)`` renders the table page, ``load(token)`` reads the table in the reader's
    language and ``status`` maps a ledger error to its HTTP status (the table page's own,
    :mod:`.ledger_load`)."""
    correcting = None
    if number is not None:
        correcting = next((x for x in t["hands"] if x["number"] == number), None)
        if correcting is None:
            abort(404)
    entry = posted(t, token, correcting)
    body = read(entry, request.form)
    if body is None:
        return page(token, t, status=422, free_entry=entry)
    try:
        if number is None:
            return ledger.record(token, {
                **body, "idempotency_key": entry.key,
                "expected_number": request.values.get("expected_number", type=int)})
        else:
            return ledger.correct(token, number, {
                **body, "expected_revision": request.values.get("expected_revision", type=int)})
    except InputError as err:
        attach(entry, err)
        return page(token, t, status=422, free_entry=entry)
    except Conflict as err:
        fresh = load(token)
        again = None if correcting is None else next(
            (h for h in fresh["hands"] if h["number"] == correcting["number"]), None)
        entry = posted(fresh, token, again)
        return page(token, fresh, status=409, conflict=localized(err.message),
                    conflict_hand=request.values.get("expected_number", type=int),
                    free_entry=entry)
    except (IdempotencyConflict, BadKey) as err:
        fresh = load(token)
        entry = posted(fresh, token, correcting, fresh_key=True)
        return page(token, fresh, status=status(err), message=key_refused_text(err),
                    free_entry=entry)
    except LedgerError as err:
        return page(token, load(token), status=status(err), message=localized(err.message),
                    free_entry=entry)


def sent_refusal() -> tuple[str, str] | None:
    """A calculator's hand sent here (记入牌桌, its state in the query): a free table records
    amounts, not tiles, so nothing of it is taken; the line that says so and the way back to
    the calculator's state. None for the table's own page."""
    args = request.args
    theirs = args.get("variant")
    if theirs is None and "hand" not in args or is_free(theirs):
        return None
    back = url_for("pages.index") + "?" + urlencode(
        [(k, v) for k, v in args.items(multi=True)
         if k not in ("done", "new", "correct", "idempotency_key")])
    return (_("This table is free scoring: it records each seat's amount, not a hand's tiles. "
              "Nothing of the calculator's hand was filled in: type below what each seat won "
              "or paid (the calculator's result lists it)."), back)


def entry(t: dict, token: str, given: FreeEntry | None) -> FreeEntry:
    """The entry the page shows: ``given`` (a posted form), else a correction of hand
    ``?correct=n`` (a counted hand), else the next hand; under the idempotency key its URL
    names (:func:`url_key`), as a room's entry: the page the back button draws again after a
    record is the same entry, and 记入 there records nothing new."""
    if given is not None:
        return given
    n = request.args.get("correct", type=int)
    h = next((x for x in t["hands"] if x["number"] == n), None) if n else None
    if h is not None and not (h["kind"] != "adjustment" and h["status"] == "recorded"):
        h = None
    return FreeEntry(t, token, h, key=url_key(request.args))


def table_url(token: str, variant: str, **args) -> str:
    """The table page's URL with ``args``; a free table's also names a fresh entry key, as
    its page's URL always does (``ledger_table.table`` answers a bare one with a 303 to
    one): a redirect to the page after a write goes there in one hop, not two."""
    key = fresh_key() if is_free(variant) else None
    return url_for("ledger_pages.table", token=token, **args, idempotency_key=key)


def url_key(args) -> str | None:
    """The entry's idempotency key ``args`` name, when of the shape the ledger takes (a
    free table's page URL always names one: ``ledger_table.table``), else None."""
    key = args.get("idempotency_key")
    return key if key and KEY_SHAPE.fullmatch(key) else None
