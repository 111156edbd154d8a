"""Export and import of a table (format ``"webcalc-ledger/1"``): :meth:`Transfer.export_table`
writes a table as a JSON document without tokens, :meth:`Transfer._import` makes a new table
from one, every revision of every entry computed again by the engine (never trusted from the
file), voids and times kept. The document is checked whole without the engine first
(:func:`_check_imported_entry`), within the caps (:class:`~webcalc.ledger.checks.Limits`),
then computed outside any transaction (:func:`_imported_entry`), then inserted in one short
write (:meth:`~webcalc.ledger.storage.Storage._insert_imported`). A circle's import
(:mod:`.circles`) uses the same steps for each of its tables.
"""

from __future__ import annotations

import json
import secrets
import time
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..errors import InputError
from ..json_checks import MAX_DEPTH, body_problem
from ..messages import M
from .checks import (
    DEALT,
    KINDS,
    _bad,
    _carry_bets,
    _check_body,
    _reason,
    _seat,
    _table_spec,
    table_base,
)
from .entries import _compute, _Derived, _next_dealer, _Settings, _split
from .models import Hand, Table, utcnow
from .points import is_free
from .storage import _INSERT_HAND, _INSERT_REVISION, Storage, _insertable
from .tokens import TOKEN_BYTES, _iso, token_hash, view_token_of

EXPORT_FORMAT = "webcalc-ledger/1"
#: Times an import may carry (``recorded_at``, ``revised_at``, ``voided_at``): from this …
TIME_MIN = datetime(2000, 1, 1, tzinfo=UTC)
#: … to before this (UTC). Outside it a time is a mistake, or out of the databases' range.
TIME_MAX = datetime(2100, 1, 1, tzinfo=UTC)


class Transfer(Storage):
    """The export and import methods of :class:`~webcalc.ledger.service.Ledger`."""

    def export_table(self, token: str) -> dict:
        """The table as a JSON document for :meth:`Ledger.import_table`: ``{"format":
        "webcalc-ledger/1", "variant", "options", "base", "names", "first_dealer",
        "carry_bets", "exported_at", "entries": [{"number", "kind", "status", "dealer",
        "request", "recorded_at", "editor", "net", "void_reason"?, "void_code"?, "voided_at"?,
        "revisions": [{"request", "dealer", "recorded_at"}]}], "totals", "settle_up"}``
        (revisions oldest first, the current one last in ``request``; ``net`` the entry's
        nets, counted or not; ``totals``/``settle_up`` as in T). Either token; the document
        holds no token. An import reads what it needs and ignores ``net``, ``editor``,
        ``totals`` and ``settle_up`` (it computes them again)."""
        def work(s):
            t, editor = self._find(s, token, write=False)
            return self._export_doc(s, t, editor)
        return self._run(work, write=False)

    def _export_by_id(self, table_id: int) -> dict:
        """:meth:`export_table` of the table with this row id (a circle's export)."""
        def work(s):
            return self._export_doc(s, s.get(Table, table_id), None)
        return self._run(work, write=False)

    def _export_doc(self, s: Session, t: Table, editor: int | None) -> dict:
        table = self._doc(s, t, editor)
        entries = []
        for h in table["hands"]:
            e = {"number": h["number"], "kind": h["kind"], "status": h["status"],
                 "dealer": h["dealer"], "request": h["request"],
                 "recorded_at": h["recorded_at"], "editor": h["editor"],
                 "net": h["settlement"]["net"],
                 "revisions": [{"request": r["request"], "dealer": r["dealer"],
                                "recorded_at": r["recorded_at"]} for r in h["revisions"]]}
            if h.get("revised_at"):
                e["revised_at"] = h["revised_at"]
            if h["status"] == "voided":
                e["void_reason"], e["voided_at"] = h["void_reason"], h["voided_at"]
                if h.get("void_code"):
                    e["void_code"] = h["void_code"]
                    e["void_reason"] = None
            entries.append(e)
        return {"format": EXPORT_FORMAT, "variant": t.variant, "options": t.options,
                "base": t.base, "names": t.names, "first_dealer": t.first_dealer,
                "carry_bets": t.carry_bets, "exported_at": _iso(utcnow()),
                "entries": entries, "totals": table["totals"],
                "settle_up": table["settle_up"]}

    def _import(self, data: Any, *, address: str | None = None,
                raw: bytes | None = None) -> tuple[str, str]:
        """:meth:`~webcalc.ledger.service.Ledger.import_table`: a new table from an
        :meth:`export_table` document; returns its ``(edit_token, view_token)``. Every revision of
        every entry is computed again by the engine from its request, so a file cannot bring
        in amounts the rules do not give; statuses, void reasons and codes, and times are
        kept; every entry is the importer's (editor 0).

        In this order, so that no import costs more than its size allows and none holds the
        write lock for longer than a record does:

        1. ``address`` is counted towards ``tables_per_hour`` (its own short transaction):
           every import counts, whatever its outcome (:class:`RateLimited` past the cap);
        2. the caps, from the lengths of its lists alone (:class:`TooMany`: entries,
           revisions per entry, corrections), so a document past them costs its decoding
           and nothing more;
        3. the document as JSON (:func:`webcalc.json_checks.body_problem`: nesting, lone
           surrogates; ``raw``, the bytes it was decoded from, spares the surrogate search
           when they hold no such escape);
        4. the whole document is checked without the engine: its shape, every entry's
           number, kind, status, times and void reason, every revision's request fields;
        5. every revision is computed by the engine, outside any transaction, and the
           table's derived state from them;
        6. one short write transaction inserts the table and its rows.

        Raises:
            InputError: ``bad_request`` for a document that is not an export (``format``),
                or any error of an entry's request, its field prefixed ``entries[i].``.
            TooMany: the document holds more than the caps allow (nothing is computed), or
                its entries took more than :attr:`import_cpu_max` of CPU (nothing stored).
            RateLimited: too many tables from ``address`` within the hour.
        """
        deadline = self._import_deadline()
        wait = self._lock_wait()                 # one wait for the lock, both writes together
        if address is not None and self.tables_per_hour:
            self._run(lambda s: self._rate_limit(s, address, utcnow()), write=True, wait=wait)
        self._import_caps(data)
        problem = body_problem(data, raw)
        if problem is not None:
            kind, where = problem
            message = (M("ledger.too_deep", n=MAX_DEPTH, where=where) if kind == "deep"
                       else M("ledger.surrogate", where=where))
            raise InputError("bad_json", message, where)
        variant, options, base, names, dealer, carry, entries = self._import_plan(data)
        now = utcnow()
        hands, revisions, derived = self._imported_rows(
            variant, options, base, dealer, entries, now, deadline, "entries")
        edit_token = secrets.token_urlsafe(TOKEN_BYTES)
        view_token = view_token_of(edit_token)

        def work(s):
            at = utcnow()
            t = Table(edit_hash=token_hash(edit_token), view_hash=token_hash(view_token),
                      variant=variant, options=options, base=base, names=names,
                      first_dealer=dealer, carry_bets=carry, next_number=len(hands) + 1,
                      version=1, derived=derived.to_json(), created_at=at, updated_at=at)
            s.add(t)
            s.flush()
            if hands:
                s.execute(_INSERT_HAND, [{**_insertable(h), "table_id": t.id} for h in hands])
            if revisions:
                ids = dict(s.execute(select(Hand.number, Hand.id)
                                     .where(Hand.table_id == t.id)).all())
                s.execute(_INSERT_REVISION, [
                    {**{k: v for k, v in r.items() if k != "number"}, "hand_id": ids[r["number"]]}
                    for r in revisions])
        self._run(work, write=True, wait=wait)
        return edit_token, view_token

    def _imported_rows(self, variant: str, options: dict, base, dealer: int, entries: list,
                       now: datetime, deadline: float | None = None,
                       field: str = "entries") -> tuple[list, list, _Derived]:
        """Steps 5 of :meth:`_import` for one table (a circle's import too): its rows
        computed by the engine, and its derived state. ``deadline``: this thread's CPU time
        (:func:`time.thread_time`) past which the import is refused with :class:`TooMany`
        naming ``field`` (:meth:`_import_deadline`)."""
        settings = _Settings(variant, options, base)
        rows = []
        for i, e in enumerate(entries):
            if deadline is not None and time.thread_time() > deadline:
                raise self._too_costly(field)
            rows.append(_imported_entry(settings, i, e, now))
        hands = [h for h, _ in rows]
        revisions = [r for _, olds in rows for r in olds]
        return hands, revisions, _derive(dealer, hands, len(revisions))

    def _import_plan(self, data: Any) -> tuple:
        """Step 4 of :meth:`_import`: the table's settings and the entries, checked
        completely without the engine (a mistake anywhere is reported before any hand is
        computed)."""
        if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
            raise _bad("format", "ledger.not_export", format=EXPORT_FORMAT)
        spec = {"variant": data.get("variant"), "options": data.get("options"),
                "base": data.get("base"), "names": data.get("names"),
                "dealer": data.get("first_dealer")}
        if is_free(spec["variant"]) and spec["base"] is not None:
            # a free table kept a base given to the API unread until stop 47, and its export
            # carries it: nothing multiplies one there, so the file imports as that table
            # was, with the default (still a base: one out of range is refused on ``base``)
            table_base(spec["base"])
            spec["base"] = None
        variant, options, base, names, dealer = _table_spec(spec)
        carry = _carry_bets(data.get("carry_bets"))
        entries = data.get("entries")
        if not isinstance(entries, list):
            raise _bad("entries", "ledger.entries_bad", n=self.hands_max)
        for i, e in enumerate(entries):
            _check_imported_entry(i, e, self.revisions_max)
        return variant, options, base, names, dealer, carry, entries


def _derive(first_dealer: int, hands: list[dict], corrections: int) -> _Derived:
    """The derived state of rows about to be inserted (an import), setting each row's
    ``next_dealer``, ``dealer_flag`` and ``seq`` (1) as the writes would have."""
    d = _Derived.empty(first_dealer)
    d.corrections = corrections
    for h in hands:
        result = h["_result"]
        h["next_dealer"] = _next_dealer(h["kind"], result)
        h["dealer_flag"] = False
        h["seq"] = 1
        if h["status"] == "recorded":
            d.count(result["settlement"]["net"], +1)
            d.last = h["number"]
            if h["kind"] in DEALT:
                h["dealer_flag"] = h["kind"] == "hand" and h["dealer"] != d.dealer
                d.dealer = h["next_dealer"]
    return d


def _time(v: Any, field: str, default: datetime) -> datetime:
    """An imported time: absent (null) → ``default``; else an ISO 8601 string between
    :data:`TIME_MIN` and :data:`TIME_MAX` (no zone: UTC)."""
    if v is None:
        return default
    dt = None
    if isinstance(v, str) and len(v) <= 40:
        try:
            dt = datetime.fromisoformat(v.replace("Z", "+00:00"))
        except ValueError:
            dt = None
    # the year is checked before any time-zone arithmetic: 0001-01-01T00:00:00+14:00 is a
    # valid ISO time whose conversion to UTC falls before year 1 (OverflowError)
    if dt is None or not TIME_MIN.year <= dt.year < TIME_MAX.year:
        raise _bad(field, "ledger.time_bad", name=field, first=TIME_MIN.year,
                   last=TIME_MAX.year - 1)
    dt = dt if dt.tzinfo else dt.replace(tzinfo=UTC)
    if not TIME_MIN <= dt < TIME_MAX:
        raise _bad(field, "ledger.time_bad", name=field, first=TIME_MIN.year,
                   last=TIME_MAX.year - 1)
    return dt


def _imported_reason(e: dict, where: str) -> str | None:
    """An imported entry's void reason: as :meth:`Ledger.void` takes it, or none (absent,
    null or blank: stored null, shown as "(no reason given in the import)")."""
    reason = e.get("void_reason")
    if reason is None or isinstance(reason, str) and not reason.strip():
        return None
    return _reason(reason, f"{where}.void_reason")


def _check_imported_entry(i: int, e: Any, revisions_max: int) -> None:
    """Everything about imported entry ``i`` that needs no engine (:meth:`Transfer._import`
    step 2) but the caps: raises the :class:`InputError` the import answers with."""
    where = f"entries[{i}]"
    if not isinstance(e, dict) or e.get("number") != i + 1 or isinstance(e.get("number"), bool):
        raise _bad(where, "ledger.entry_number", n=i + 1)
    kind, status = e.get("kind"), e.get("status", "recorded")
    if kind not in KINDS or status not in ("recorded", "voided"):
        raise _bad(where, "ledger.entry_kind")
    olds = e.get("revisions") or []
    if not isinstance(olds, list):
        raise _bad(f"{where}.revisions", "ledger.revisions_bad", n=revisions_max - 1)
    now = utcnow()
    for name in ("recorded_at", "revised_at", "voided_at"):
        _time(e.get(name), f"{where}.{name}", now)
    if e.get("void_code") not in (None, "undone") or (
            e.get("void_code") is not None and status != "voided"):
        raise _bad(f"{where}.void_code", "ledger.void_code_bad")
    if status == "voided" and e.get("void_code") is None:
        _imported_reason(e, where)
    for j, r in enumerate([*olds, e]):
        at = where if r is e else f"{where}.revisions[{j}]"
        if not isinstance(r, dict) or not isinstance(r.get("request"), dict):
            raise _bad(at, "ledger.revision_request")
        if r is not e:
            _time(r.get("recorded_at"), f"{at}.recorded_at", now)
        dealer = r.get("dealer")
        if dealer is not None:
            _seat(dealer, f"{at}.dealer")
        try:
            _check_body(r["request"])
        except InputError as err:
            raise _entry_error(i, err) from None


def _entry_error(i: int, err: InputError) -> InputError:
    field = f"entries[{i}].{err.field}" if err.field else f"entries[{i}]"
    return InputError(err.code, M("ledger.entry_error", n=i + 1, text=err.message), field)


def _imported_entry(t: _Settings, i: int, e: dict, now: datetime) -> tuple[dict, list[dict]]:
    """Imported entry ``i`` (checked by :func:`_check_imported_entry`) computed by the engine
    (:meth:`Transfer._import` step 3), as the values of its ``ledger_hand`` row and of its
    ``ledger_revision`` rows (``number`` in them says whose), JSON already serialized."""
    where = f"entries[{i}]"
    kind, status = e["kind"], e.get("status", "recorded")
    olds = e.get("revisions") or []
    versions = []
    for r in [*olds, e]:
        dealer = r.get("dealer")
        try:
            got = _compute(t, r["request"], 0 if dealer is None else dealer)
        except InputError as err:
            raise _entry_error(i, err) from None
        if got[0] != kind:
            raise _bad(where, "ledger.entry_kind_mismatch", n=i + 1)
        name = "revised_at" if r is e and olds else "recorded_at"
        versions.append((got, _time(r.get(name), f"{where}.{name}", now)))
    (_, request, result, dealer, verified), at = versions[-1]
    result, codes = _split(result)
    hand = {"number": i + 1, "kind": kind, "status": status, "idempotency_key": None,
            "revision": len(versions), "request": json.dumps(request),
            "result": json.dumps(result), "codes": json.dumps(codes), "dealer": dealer,
            "verified": verified,
            "recorded_at": versions[0][1], "revised_at": at if len(versions) > 1 else None,
            "void_reason": None, "voided_at": None, "void_code": None, "voided_by": None,
            "editor": 0, "_result": result}
    if status == "voided":
        if e.get("void_code") == "undone":
            hand["void_code"] = "undone"
        else:
            hand["void_reason"] = _imported_reason(e, where)
        hand["voided_at"] = _time(e.get("voided_at"), f"{where}.voided_at", now)
        hand["voided_by"] = 0
    revisions = []
    for j, ((_, req, res, dl, ver), rat) in enumerate(versions[:-1]):
        res, codes = _split(res)
        revisions.append({"number": i + 1, "revision": j + 1, "request": json.dumps(req),
                          "result": json.dumps(res), "codes": json.dumps(codes), "dealer": dl,
                          "verified": ver, "editor": 0, "recorded_at": rat,
                          "replaced_at": versions[j + 1][1]})
    return hand, revisions
