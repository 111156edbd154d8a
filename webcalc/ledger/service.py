"""The table ledger service (牌桌记账): the one Python interface to stored tables.

The JSON API (:mod:`webcalc.web.ledger_api`) and the HTML pages call this module and nothing
below it; it never imports Flask. Arrows: web → ledger → analysis/settlement → engine. Every
amount comes from the engine: a hand is stored with the request it was computed from, so it
can be re-checked by running the engine again.

Quick start::

    from webcalc.ledger import Ledger
    ledger = Ledger("sqlite:////path/ledger.sqlite3")   # or postgresql://user@host/db
    ledger.migrate()                                     # Alembic upgrade head (lock-safe)
    made = ledger.create_table({"variant": "zhengzhou", "names": ["甲", "乙", "丙", "丁"]},
                               address="203.0.113.9")
    made.edit_token, made.view_token, made.table          # tokens are shown once, never stored
    rec = ledger.record(made.edit_token, {"hand": "123m456p789s11122z", "winning_tile": "2z",
                                          "win_by": "self_draw",
                                          "settlement": {"winner": 1, "pao": [1, 0, 0, 0]}})
    rec.hand, rec.table, rec.created                       # H, T, False for an idempotent repeat
    ledger.table(made.view_token)                          # T (either token)

Methods (all take a token as the user gave it; all return plain JSON-ready dicts):

* :meth:`Ledger.create_table` ``(spec, address=None) -> Created(table, edit_token,
  view_token)``: spec ``{"variant", "options"?, "base"?, "names"?, "dealer"?}``.
* :meth:`Ledger.table` ``(token) -> T``; :meth:`Ledger.hand` ``(token, number) -> H``;
  :meth:`Ledger.version` ``(token) -> int`` (bumped by every write: an ETag for polling);
  :meth:`Ledger.access` ``(token) -> "edit" | "view"``.
* :meth:`Ledger.record` ``(edit_token, body) -> Recorded(hand, table, created)``: a hand or an
  adjustment (body as API.md "Table ledger"; ``expected_number``, ``idempotency_key``).
* :meth:`Ledger.correct` ``(edit_token, number, body) -> Recorded``: a new revision (the old
  one is kept in ``H["revisions"]``); ``created`` is False when the body changes nothing.
* :meth:`Ledger.void` ``(edit_token, number, reason) -> T``: voiding twice changes nothing.
* :meth:`Ledger.export_table` ``(token) -> dict`` (either token; no tokens inside) and
  :meth:`Ledger.import_table` ``(data, address=None) -> Created``: a new table with new tokens,
  every entry and revision recomputed by the engine (never trusted from the file), voids and
  times kept. Format ``"webcalc-ledger/1"``, see :meth:`Ledger.export_table`.
* :meth:`Ledger.purge_idle` ``(days, dry_run=False) -> int``: delete tables with no write for
  ``days`` days (the ``flask ledger-purge`` command).

T (a table) = ``{"variant", "options" (every option, defaults filled in), "base", "names",
"dealer" (who deals the next hand, SMX-8/ZZ-7/PJ-14/JC-9 from the last counted hand),
"first_dealer", "next_number", "version", "access" ("edit"|"view"), "created_at",
"updated_at", "hands": [H], "totals": [4 numbers], "settle_up": [{"from", "to", "amount"}]}``.

H (an entry) = ``{"number", "kind" ("hand"|"adjustment"), "status" ("recorded"|"voided"),
"verified" (tiles given; a 荒庄 and an adjustment need none), "dealer" (as played),
"dealer_flag" (this counted hand's dealer no longer follows the rules from the counted hands
before it), "request" (as recorded, ``settlement.dealer`` filled in), "settlement":
{"payments", "net", "next_dealer"} (``next_dealer`` null for an adjustment), "biao"?/"fan"?
(as the engine reported), "recorded_at" (first recorded, ISO 8601 UTC), "revision",
"revised_at"?, "revisions": [older revisions, oldest first, each {"revision", "request",
"settlement", "dealer", "verified", "recorded_at", "replaced_at", "biao"?, "fan"?}],
"void_reason"? (null for an entry imported as voided without one), "voided_at"?}``. Texts
in H (payment ``detail``, fan ``name``/``note``) are Chinese with English beside them
(``detail_en`` …); :func:`webcalc.ledger.texts.table_in` gives the reader's language. Counted = status ``recorded``; only counted hands move the
dealer, adjustments never do.

Errors (their ``message`` a :class:`~webcalc.messages.Message`, rendered by the web layer in
the reader's language): :class:`~webcalc.errors.InputError` (400: the analyze codes, plus
``bad_request`` for a ledger field) and the :mod:`webcalc.ledger.errors` classes — ``NotFound`` (unknown token
or hand number), ``ReadOnly`` (a write with the view token), ``Conflict`` (stale
``expected_number``/``expected_revision``; carries ``table``), ``Voided`` (correcting a voided
hand), ``TooMany`` (caps: entries, revisions per entry, corrections per table; ``detail``;
also ``TableFull``), ``RateLimited`` (tables per address per hour; ``retry_after``),
``Busy`` (the database stayed locked: nothing written, try again).

For the pages (the HTML on top of this service):

* the next hand's form: the table's ``variant``/``options``/``base``/``names``, dealer
  ``T["dealer"]``; each seat's 跑/加钢 of the previous counted hand are in its
  ``request["settlement"]`` (``pao``, ``jiagang``); put ``T["next_number"]`` in the form as
  ``expected_number`` and a fresh random ``idempotency_key`` (a double tap then records once,
  and a stale page gets :class:`Conflict` with the table as it is now);
* 荒庄 in one tap: ``{"settlement": {"winner": None}}``; the quick entry without tiles: no
  ``hand``, ``win_by`` and ``declared`` (the keys each variant accepts are in
  :func:`webcalc.settlement.settle_declared`), shown as 未验牌 where ``verified`` is false;
* correct: open ``H["request"]`` in the form, send it to :meth:`Ledger.correct`; show
  ``H["revisions"]``; greyed hands: ``status == "voided"`` with ``void_reason``; the flag:
  ``dealer_flag``;
* the view page's polling: compare :meth:`Ledger.version` with the ``ETag`` the client sent,
  answer 304 when equal; never put a token of the other kind in a page (``T["access"]``);
* the chart: running totals are the cumulative sum of ``H["settlement"]["net"]`` over the
  counted entries; the settle-up is ``T["settle_up"]``.

Limits (docs/LEDGER.md "Limits"): the caps of :class:`Ledger`; hand numbers the table does
not have are :class:`NotFound` without a query; bases and amounts as
:func:`webcalc.settlement.amount_problem` allows; an import is checked whole before the engine
computes it outside any transaction (:meth:`Ledger.import_table`). Every write reads the table
it answers with after its commit.

Safety: edit tokens are 192 random bits from :mod:`secrets` (``token_urlsafe(24)``), the
view token is derived from the edit token by HMAC (:func:`view_token_of`); only their
SHA-256 is stored, so a copied database grants no access; the stored hash is compared with
:func:`hmac.compare_digest`. SQLite writes take the write lock up front (``BEGIN IMMEDIATE``)
and wait on a busy timeout; a lock held past it is retried, then reported as ``Busy``, never
as a crash. Commits are durable (``synchronous=FULL``) before a method returns.
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import hmac
import json
import math
import re
import secrets
import threading
import time
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from fractions import Fraction
from typing import Any, Callable, TypeVar

from sqlalchemy import bindparam, delete, func, insert, or_, select, text
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session

from ..analysis import analyze, settle_without_tiles
from ..catalogue import localize
from ..errors import InputError
from ..json_checks import MAX_DEPTH, body_problem
from ..messages import M, Message, seat, to_json
from ..options import parse_options
from ..settlement import (BASE_DECIMALS, MAX_BASE, MAX_DECIMAL_BASE, SEAT_NAMES,
                          amount_problem, fmt)
from ..variants import VARIANTS
from . import db
from .errors import Busy, Conflict, NotFound, RateLimited, ReadOnly, TooMany, Voided
from .models import Creation, Hand, Revision, SerializedJSON, Table, utcnow
from .money import all_ints, exact, number, settle_up, totals

R = TypeVar("R")

DEFAULT_NAMES = tuple(str(seat(i)) for i in range(4))      # the API default: 东家 南家 西家 北家
TOKEN_BYTES = 24                        # 192 bits; token_urlsafe gives 32 characters
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{22,64}")
TABLE_FIELDS = ("variant", "options", "base", "names", "dealer")
HAND_FIELDS = ("hand", "melds", "indicator", "winning_tile", "win_by", "visible",
               "settlement", "declared", "history")
TILE_ONLY = ("melds", "indicator", "winning_tile", "visible", "history")
CONTROL_FIELDS = ("expected_number", "idempotency_key", "expected_revision")
NAME_MAX = 16
NOTE_MAX = 200
REASON_MAX = 200
KEY_MAX = 128
ADJUSTMENT_PAYMENTS_MAX = 12
ATTEMPTS = 3
EXPORT_FORMAT = "webcalc-ledger/1"
#: Default caps (docs/LEDGER.md "Limits"): far above a real evening (a long one is 30-80
#: entries with a handful of corrections), low enough that a table's every read and write,
#: and an import, have bounded work. Past them: :class:`TooMany` (422 ``too_many``).
HANDS_MAX = 500
REVISIONS_MAX = 20
CORRECTIONS_MAX = 200
#: Times an import may carry (``recorded_at``, ``revised_at``, ``voided_at``): from this …
TIME_MIN = datetime(2000, 1, 1, tzinfo=timezone.utc)
#: … to before this (UTC). Outside it a time is a mistake, or out of the databases' range.
TIME_MAX = datetime(2100, 1, 1, tzinfo=timezone.utc)


@dataclass(frozen=True)
class Created:
    """A new table: ``table`` (T) and its two tokens, which exist nowhere else."""

    table: dict
    edit_token: str
    view_token: str


@dataclass(frozen=True)
class Recorded:
    """The entry written (``hand``, H) and the table after it (``table``, T). ``created`` is
    False when nothing new was written (an idempotent repeat, an unchanged correction)."""

    hand: dict
    table: dict
    created: bool


def view_token_of(edit_token: str) -> str:
    """The view token that belongs to ``edit_token``: the first 192 bits of
    HMAC-SHA256(key=edit token, "webcalc-ledger-view"), URL-safe (32 characters). Whoever
    holds the edit link can show the view link (the pages do); the view token reveals
    nothing of the edit token, and the database still holds only the hashes of both."""
    mac = hmac.new(edit_token.encode("ascii"), b"webcalc-ledger-view", hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()[:TOKEN_BYTES]).decode("ascii")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("ascii")).hexdigest()


def _bad(field: str, code: str, **params: Any) -> InputError:
    return InputError("bad_request", Message(code, params), field)


def _iso(dt: datetime | None) -> str | None:
    if dt is None:
        return None
    return dt.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _text_ok(text: str) -> bool:
    """Printable, so storable: control characters and lone surrogates (JSON ``"\\ud800"``,
    which no database can encode) are not printable."""
    return text.isprintable()


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


class Ledger:
    """The ledger on one database.

    Args:
        url: an SQLAlchemy URL: ``sqlite:///path`` or ``postgresql://…`` (psycopg 3).
        hands_max: entries (hands and adjustments, voided ones included) per table.
        revisions_max: revisions per entry, the first one included (so ``revisions_max - 1``
            corrections of one entry).
        corrections_max: superseded revisions (corrections) kept per table, all its entries
            together: what every read of the table carries besides its entries.
        tables_per_hour: tables one address may create per hour (0: no cap).
        migrate_lazily: upgrade the schema on first use (tests); else call :meth:`migrate`.
        busy_timeout_ms: how long a SQLite writer waits for the lock before a retry.
        migrate_in_subprocess: :meth:`migrate` runs Alembic in a child process
            (:func:`webcalc.ledger.db.upgrade_in_subprocess`), so it never loads in this one
            (the app's server processes, issue 13.3).
    """

    def __init__(self, url: str, *, hands_max: int = HANDS_MAX, revisions_max: int = REVISIONS_MAX,
                 corrections_max: int = CORRECTIONS_MAX,
                 tables_per_hour: int = 30, migrate_lazily: bool = False,
                 busy_timeout_ms: int = db.BUSY_TIMEOUT_MS,
                 migrate_in_subprocess: bool = False):
        self.engine = db.make_engine(url, busy_timeout_ms)
        self.busy_timeout_ms = busy_timeout_ms
        self.migrate_in_subprocess = migrate_in_subprocess
        self.hands_max = hands_max
        self.revisions_max = revisions_max
        self.corrections_max = corrections_max
        self.tables_per_hour = tables_per_hour
        self._migrated = not migrate_lazily
        self._migrate_lock = threading.Lock()

    # -- set-up ---------------------------------------------------------------------------
    def migrate(self) -> None:
        """Upgrade the schema to head (safe from several processes at once). Raises
        SQLAlchemy's ``OperationalError``, or :class:`webcalc.ledger.db.Unreachable` from a
        subprocess, when the database cannot be reached."""
        if self.migrate_in_subprocess:
            db.upgrade_in_subprocess(self.engine, self.busy_timeout_ms)
        else:
            db.upgrade(self.engine)
        self._migrated = True

    def migrate_on_first_use(self) -> None:
        """Migrate when the ledger is next used (after :meth:`migrate` failed at start-up)."""
        self._migrated = False

    def dispose(self) -> None:
        """Close pooled connections (after start-up in a process that will fork)."""
        self.engine.dispose()

    def _ready(self) -> None:
        if not self._migrated:
            with self._migrate_lock:
                if not self._migrated:
                    self.migrate()

    def _run(self, work: Callable[[Session], R], *, write: bool) -> R:
        """Run ``work`` in one transaction (a write one when ``write``), retrying a locked or
        dropped database a few times before giving up with :class:`Busy`."""
        try:
            self._ready()
        except (OperationalError, db.Unreachable) as err:   # the database is down: no crash
            raise Busy(M("ledger.db_down")) from err
        delay = 0.05
        for attempt in range(ATTEMPTS):
            session = Session(self.engine, expire_on_commit=False, autoflush=True)
            try:
                if write:
                    session.connection(execution_options={db.WRITE: True})
                out = work(session)
                if write:
                    session.commit()
                return out
            except (OperationalError, IntegrityError) as err:
                session.rollback()
                if attempt == ATTEMPTS - 1:
                    if isinstance(err, IntegrityError):
                        raise
                    raise Busy(M("ledger.db_busy")) from err
                time.sleep(delay)
                delay *= 4
            finally:
                session.close()
        raise AssertionError("unreachable")

    # -- tokens ---------------------------------------------------------------------------
    def _find(self, s: Session, token: Any, *, write: bool) -> tuple[Table, bool]:
        if not isinstance(token, str) or not TOKEN_SHAPE.fullmatch(token):
            raise NotFound(M("ledger.no_table"))
        h = token_hash(token)
        q = select(Table).where(or_(Table.edit_hash == h, Table.view_hash == h))
        if write and not db.is_sqlite(self.engine):
            q = q.with_for_update()
        t = s.scalars(q).first()
        if t is None:
            raise NotFound(M("ledger.no_table"))
        can_write = hmac.compare_digest(t.edit_hash, h)
        if write and not can_write:
            raise ReadOnly(M("ledger.read_only"))
        return t, can_write

    # -- reading --------------------------------------------------------------------------
    def table(self, token: str) -> dict:
        """The table T (see the module docstring) by either token."""
        def work(s):
            t, can_write = self._find(s, token, write=False)
            return self._table_dict(s, t, can_write)
        return self._run(work, write=False)

    def access(self, token: str) -> str:
        """``"edit"`` or ``"view"``: what this token allows."""
        return self._run(lambda s: "edit" if self._find(s, token, write=False)[1] else "view",
                         write=False)

    def version(self, token: str) -> int:
        """The table's version, bumped by every write (cheap: for ETags and polling)."""
        return self._run(lambda s: self._find(s, token, write=False)[0].version, write=False)

    def hand(self, token: str, number: int) -> dict:
        """Entry ``number`` (H, with its revisions and its ``dealer_flag``)."""
        def work(s):
            t, can_write = self._find(s, token, write=False)
            table = self._table_dict(s, t, can_write)
            for h in table["hands"]:
                if h["number"] == number:
                    return h
            raise NotFound(M("ledger.no_hand", n=number))
        return self._run(work, write=False)

    # -- writing --------------------------------------------------------------------------
    def create_table(self, spec: Any, *, address: str | None = None) -> Created:
        """Create a table. ``spec``: ``{"variant", "options"?, "base"?, "names"?,
        "dealer"?}`` (defaults: the variant's options, base 1, 东家 南家 西家 北家, dealer 0).
        ``address`` (the client's IP) counts towards ``tables_per_hour``."""
        variant, options, base, names, dealer = _table_spec(spec)
        edit_token = secrets.token_urlsafe(TOKEN_BYTES)
        view_token = view_token_of(edit_token)

        def work(s):
            now = utcnow()
            if address is not None and self.tables_per_hour:
                self._rate_limit(s, address, now)
            t = Table(edit_hash=token_hash(edit_token), view_hash=token_hash(view_token),
                      variant=variant, options=options, base=base, names=names,
                      first_dealer=dealer, next_number=1, version=1, created_at=now,
                      updated_at=now)
            s.add(t)
            s.flush()
            return self._table_dict(s, t, True)
        return Created(self._run(work, write=True), edit_token, view_token)

    def _rate_limit(self, s: Session, address: str, now: datetime) -> None:
        ah = hashlib.sha256(f"webcalc-ledger-address:{address}".encode()).hexdigest()
        if not db.is_sqlite(self.engine):        # one address's creations queue (PostgreSQL)
            s.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": int(ah[:15], 16)})
        since = now - timedelta(hours=1)
        times = s.scalars(select(Creation.created_at).where(
            Creation.address_hash == ah, Creation.created_at > since)
            .order_by(Creation.created_at)).all()
        if len(times) >= self.tables_per_hour:
            wait = math.ceil((times[0] + timedelta(hours=1) - now).total_seconds())
            raise RateLimited(M("ledger.rate_limited", n=len(times)), max(wait, 1))
        s.add(Creation(address_hash=ah, created_at=now))

    def record(self, token: str, body: Any) -> Recorded:
        """Record the next hand or adjustment (API.md "Table ledger").

        ``body``: the analyze fields less ``variant``/``options`` (the table's), with
        ``settlement`` less ``base`` (its ``dealer`` defaults to T's ``dealer``; its
        ``winner`` must be given: a seat, or null for 荒庄); ``hand`` may be absent for a
        荒庄 or for a win recorded without tiles, whose factors go in ``declared``. Or
        ``{"adjustment": {...}}``. Optional ``expected_number`` (else :class:`Conflict`) and
        ``idempotency_key`` (a repeat returns the first entry with ``created`` False).
        """
        if not isinstance(body, dict):
            raise InputError("bad_json", M("request.not_object"), None)
        key = body.get("idempotency_key")
        if key is not None and (not isinstance(key, str) or not 0 < len(key) <= KEY_MAX
                                or not _text_ok(key)):
            raise _bad("idempotency_key", "ledger.key_bad", n=KEY_MAX)
        expected = body.get("expected_number")
        if expected is not None and not _is_int(expected):
            raise _bad("expected_number", "ledger.expected_number_bad")
        _check_body(body)

        def work(s):
            t, _ = self._find(s, token, write=True)
            if key is not None:
                found = s.scalars(select(Hand.number).where(Hand.table_id == t.id,
                                                            Hand.idempotency_key == key)).first()
                if found is not None:
                    return found, False
            if expected is not None and expected != t.next_number:
                raise Conflict(M("ledger.conflict", n=expected, next=t.next_number),
                               self._table_dict(s, t, True), "expected_number")
            if t.next_number > self.hands_max:
                raise self._too_many_entries()
            dealer = self._current_dealer(s, t)
            kind, request, result, dealer, verified = _compute(t, body, dealer)
            result, codes = _split(result)
            now = utcnow()
            h = Hand(table_id=t.id, number=t.next_number, kind=kind, status="recorded",
                     idempotency_key=key, revision=1, request=request, result=result,
                     codes=codes, dealer=dealer, verified=verified, recorded_at=now)
            s.add(h)
            t.next_number += 1
            _touch(t, now)
            return h.number, True
        number, created = self._run(work, write=True)
        return self._answer(token, number, created)

    def _answer(self, token: str, number: int, created: bool) -> Recorded:
        """The entry and the table as read right after the write committed: the whole table
        is read outside the write transaction, so the write lock (SQLite: one for the whole
        database) is held only for the write itself, never for reading a big table."""
        table = self.table(token)
        return Recorded(_pick(table, number), table, created)

    def _too_many_entries(self, field: str | None = None) -> TooMany:
        return TooMany(M("ledger.table_full", n=self.hands_max), "entries_per_table",
                       self.hands_max, field)

    def _too_many_revisions(self, field: str | None = None) -> TooMany:
        return TooMany(M("ledger.revisions_full", n=self.revisions_max - 1),
                       "revisions_per_entry", self.revisions_max, field)

    def _too_many_corrections(self, field: str | None = None) -> TooMany:
        return TooMany(M("ledger.corrections_full", n=self.corrections_max),
                       "corrections_per_table", self.corrections_max, field)

    def correct(self, token: str, number: int, body: Any) -> Recorded:
        """Correct entry ``number``: the body is a full entry as for :meth:`record` (its
        ``settlement.dealer`` defaults to the dealer the hand was played with); the current
        revision is kept in ``revisions``. ``expected_revision`` (optional) guards against a
        concurrent correction (:class:`Conflict`); ``expected_number`` and
        ``idempotency_key`` are accepted and ignored (the number is in the path, and a
        repeat of the same correction writes nothing new)."""
        if not isinstance(body, dict):
            raise InputError("bad_json", M("request.not_object"), None)
        expected = body.get("expected_revision")
        if expected is not None and not _is_int(expected):
            raise _bad("expected_revision", "ledger.expected_revision_bad")
        body = {k: v for k, v in body.items() if k not in CONTROL_FIELDS}
        _check_body(body)

        def work(s):
            t, _ = self._find(s, token, write=True)
            h = self._entry(s, t, number)
            if h.status == "voided":
                raise Voided(M("ledger.voided", n=number))
            if expected is not None and expected != h.revision:
                raise Conflict(M("ledger.revision_conflict", n=number, revision=h.revision),
                               self._table_dict(s, t, True), "expected_revision")
            kind, request, result, dealer, verified = _compute(t, body, h.dealer)
            result, codes = _split(result)
            if kind != h.kind:
                raise _bad("adjustment", "ledger.kind_change")
            if (request, dealer, verified) == (h.request, h.dealer, h.verified) \
                    and _same_result(result, h.result):
                return False
            if h.revision >= self.revisions_max:
                raise self._too_many_revisions()
            corrections = s.scalar(select(func.coalesce(func.sum(Hand.revision - 1), 0))
                                   .where(Hand.table_id == t.id))
            if corrections >= self.corrections_max:
                raise self._too_many_corrections()
            now = utcnow()
            s.add(Revision(hand_id=h.id, revision=h.revision, request=h.request,
                           result=h.result, codes=h.codes, dealer=h.dealer,
                           verified=h.verified, recorded_at=h.revised_at or h.recorded_at,
                           replaced_at=now))
            h.revision += 1
            h.request, h.result, h.codes = request, result, codes
            h.dealer, h.verified = dealer, verified
            h.revised_at = now
            _touch(t, now)
            return True
        created = self._run(work, write=True)
        return self._answer(token, number, created)

    def void(self, token: str, number: int, reason: Any) -> dict:
        """Void entry ``number`` with ``reason`` (kept, shown, counted no more). Returns T;
        voiding a voided entry changes nothing (its first reason stays)."""
        reason = _reason(reason, "reason")

        def work(s):
            t, _ = self._find(s, token, write=True)
            h = self._entry(s, t, number)
            if h.status != "voided":
                now = utcnow()
                h.status, h.void_reason, h.voided_at = "voided", reason, now
                _touch(t, now)
        self._run(work, write=True)
        return self.table(token)

    def export_table(self, token: str) -> dict:
        """The table as a JSON document for :meth:`import_table`: ``{"format":
        "webcalc-ledger/1", "variant", "options", "base", "names", "first_dealer",
        "exported_at", "entries": [{"number", "kind", "status", "dealer", "request",
        "recorded_at", "void_reason"?, "voided_at"?, "revisions": [{"request", "dealer",
        "recorded_at"}]}]}`` (revisions oldest first, the current one last in ``request``).
        Either token; the document holds no token."""
        def work(s):
            t, can_write = self._find(s, token, write=False)
            table = self._table_dict(s, t, can_write)
            entries = []
            for h in table["hands"]:
                e = {"number": h["number"], "kind": h["kind"], "status": h["status"],
                     "dealer": h["dealer"], "request": h["request"],
                     "recorded_at": h["recorded_at"],
                     "revisions": [{"request": r["request"], "dealer": r["dealer"],
                                    "recorded_at": r["recorded_at"]} for r in h["revisions"]]}
                if h.get("revised_at"):
                    e["revised_at"] = h["revised_at"]
                if h["status"] == "voided":
                    e["void_reason"], e["voided_at"] = h["void_reason"], h["voided_at"]
                entries.append(e)
            return {"format": EXPORT_FORMAT, "variant": t.variant, "options": t.options,
                    "base": t.base, "names": t.names, "first_dealer": t.first_dealer,
                    "exported_at": _iso(utcnow()), "entries": entries}
        return self._run(work, write=False)

    def import_table(self, data: Any, *, address: str | None = None,
                     raw: bytes | None = None) -> Created:
        """A new table (new tokens) from an :meth:`export_table` document. Every revision of
        every entry is computed again by the engine from its request, so a file cannot bring
        in amounts the rules do not give; statuses, void reasons and times are kept.

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
        5. every revision is computed by the engine, outside any transaction;
        6. one short write transaction inserts the table and its rows.

        Raises:
            InputError: ``bad_request`` for a document that is not an export (``format``),
                or any error of an entry's request, its field prefixed ``entries[i].``.
            TooMany: the document holds more than the caps allow (nothing is computed).
            RateLimited: too many tables from ``address`` within the hour.
        """
        if address is not None and self.tables_per_hour:
            self._run(lambda s: self._rate_limit(s, address, utcnow()), write=True)
        self._import_caps(data)
        problem = body_problem(data, raw)
        if problem is not None:
            kind, where = problem
            message = (M("ledger.too_deep", n=MAX_DEPTH, where=where) if kind == "deep"
                       else M("ledger.surrogate", where=where))
            raise InputError("bad_json", message, where)
        variant, options, base, names, dealer, entries = self._import_plan(data)
        settings = _Settings(variant, options, base)
        now = utcnow()
        rows = [_imported_entry(settings, i, e, now) for i, e in enumerate(entries)]
        edit_token = secrets.token_urlsafe(TOKEN_BYTES)
        view_token = view_token_of(edit_token)

        hands = [h for h, _ in rows]
        revisions = [r for _, olds in rows for r in olds]

        def work(s):
            at = utcnow()
            t = Table(edit_hash=token_hash(edit_token), view_hash=token_hash(view_token),
                      variant=variant, options=options, base=base, names=names,
                      first_dealer=dealer, next_number=len(rows) + 1, version=1,
                      created_at=at, updated_at=at)
            s.add(t)
            s.flush()
            if hands:
                s.execute(_INSERT_HAND, [{**h, "table_id": t.id} for h in hands])
            if revisions:
                ids = dict(s.execute(select(Hand.number, Hand.id)
                                     .where(Hand.table_id == t.id)).all())
                s.execute(_INSERT_REVISION, [
                    {**{k: v for k, v in r.items() if k != "number"}, "hand_id": ids[r["number"]]}
                    for r in revisions])
        self._run(work, write=True)
        return Created(self.table(edit_token), edit_token, view_token)

    def _import_caps(self, data: Any) -> None:
        """Step 2 of :meth:`import_table`: :class:`TooMany` when the document holds more
        than the caps allow, read from the lengths of its lists (what is not a list here is
        reported by :meth:`_import_plan`)."""
        entries = data.get("entries") if isinstance(data, dict) else None
        if not isinstance(entries, list):
            return
        if len(entries) > self.hands_max:
            raise self._too_many_entries("entries")
        corrections = 0
        for i, e in enumerate(entries):
            olds = e.get("revisions") if isinstance(e, dict) else None
            if not isinstance(olds, list):
                continue
            if len(olds) + 1 > self.revisions_max:
                raise self._too_many_revisions(f"entries[{i}].revisions")
            corrections += len(olds)
            if corrections > self.corrections_max:
                raise self._too_many_corrections(f"entries[{i}].revisions")

    def _import_plan(self, data: Any) -> tuple:
        """Step 4 of :meth:`import_table`: the table's settings and the entries, checked
        completely without the engine (a mistake anywhere is reported before any hand is
        computed)."""
        if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
            raise _bad("format", "ledger.not_export", format=EXPORT_FORMAT)
        spec = {"variant": data.get("variant"), "options": data.get("options"),
                "base": data.get("base"), "names": data.get("names"),
                "dealer": data.get("first_dealer")}
        variant, options, base, names, dealer = _table_spec(spec)
        entries = data.get("entries")
        if not isinstance(entries, list):
            raise _bad("entries", "ledger.entries_bad", n=self.hands_max)
        for i, e in enumerate(entries):
            _check_imported_entry(i, e, self.revisions_max)
        return variant, options, base, names, dealer, entries

    def purge_idle(self, days: float, *, dry_run: bool = False) -> int:
        """Delete every table with no write for ``days`` days (its hands and revisions go
        with it), and creation records older than a day. Returns how many tables."""
        if not days > 0:
            raise ValueError("days must be positive")
        cutoff = utcnow() - timedelta(days=days)

        def work(s):
            n = s.scalar(select(func.count()).select_from(Table)
                         .where(Table.updated_at < cutoff))
            if not dry_run:
                s.execute(delete(Table).where(Table.updated_at < cutoff))
                s.execute(delete(Creation).where(
                    Creation.created_at < utcnow() - timedelta(days=1)))
            return n
        return self._run(work, write=not dry_run)

    # -- helpers --------------------------------------------------------------------------
    def _entry(self, s: Session, t: Table, number: Any) -> Hand:
        h = None
        # a number the table cannot hold is not looked up: past 2^31 (PostgreSQL's integer)
        # or 2^63 (SQLite's) the database itself would refuse the query
        if _is_int(number) and 0 < number < t.next_number:
            h = s.scalars(select(Hand).where(Hand.table_id == t.id, Hand.number == number)).first()
        if h is None:
            raise NotFound(M("ledger.no_hand", n=number), "number")
        return h

    @staticmethod
    def _current_dealer(s: Session, t: Table) -> int:
        last = s.scalars(select(Hand).where(Hand.table_id == t.id, Hand.kind == "hand",
                                            Hand.status == "recorded")
                         .order_by(Hand.number.desc()).limit(1)).first()
        return t.first_dealer if last is None else last.result["settlement"]["next_dealer"]["seat"]

    @staticmethod
    def _table_dict(s: Session, t: Table, can_write: bool) -> dict:
        # plain rows, not ORM objects: every write answers with the whole table
        hands = s.execute(select(*_SHOWN_HAND).where(Hand.table_id == t.id)
                          .order_by(Hand.number)).all()
        olds: dict[int, list] = {}
        revised = [h.id for h in hands if h.revision > 1]
        if revised:
            rev = Revision.__table__
            for r in s.execute(select(*_SHOWN_REVISION).where(rev.c.hand_id.in_(revised))
                               .order_by(rev.c.hand_id, rev.c.revision)):
                olds.setdefault(r.hand_id, []).append(r)
        expected = t.first_dealer
        nets, out = [], []
        for h in hands:
            flag = False
            if h.status == "recorded":
                nets.append(h.result["settlement"]["net"])
                if h.kind == "hand":
                    flag = h.dealer != expected
                    expected = h.result["settlement"]["next_dealer"]["seat"]
            out.append(_hand_dict(h, flag, olds.get(h.id, [])))
        sums, ints = totals(nets)
        ints = ints and (bool(nets) or _is_int(t.base))
        return {
            "variant": t.variant, "options": t.options, "base": t.base, "names": t.names,
            "dealer": expected, "first_dealer": t.first_dealer, "next_number": t.next_number,
            "version": t.version, "access": "edit" if can_write else "view",
            "created_at": _iso(t.created_at), "updated_at": _iso(t.updated_at),
            "hands": out,
            "totals": [number(x, ints) for x in sums],
            "settle_up": [{"from": a, "to": b, "amount": number(x, ints)}
                          for a, b, x in settle_up(sums)],
        }


@dataclass(frozen=True)
class _Settings:
    """What computing an entry needs of its table (a :class:`Table` row has the same)."""

    variant: str
    options: dict
    base: int | float


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
    dt = dt if dt.tzinfo else dt.replace(tzinfo=timezone.utc)
    if not TIME_MIN <= dt < TIME_MAX:
        raise _bad(field, "ledger.time_bad", name=field, first=TIME_MIN.year,
                   last=TIME_MAX.year - 1)
    return dt


def _reason(reason: Any, field: str) -> str:
    """A void reason as stored: 1-200 printable characters (stripped)."""
    if not isinstance(reason, str) or not reason.strip():
        raise _bad(field, "ledger.reason_required")
    reason = reason.strip()
    if not _text_ok(reason):
        raise _bad(field, "ledger.reason_unprintable")
    if len(reason) > REASON_MAX:
        raise _bad(field, "ledger.reason_long", n=REASON_MAX)
    return reason


def _imported_reason(e: dict, where: str) -> str | None:
    """An imported entry's void reason: as :meth:`Ledger.void` takes it, or none (absent,
    null or blank: stored null, shown as "(no reason given in the import)")."""
    reason = e.get("void_reason")
    if reason is None or isinstance(reason, str) and not reason.strip():
        return None
    return _reason(reason, f"{where}.void_reason")


def _check_imported_entry(i: int, e: Any, revisions_max: int) -> None:
    """Everything about imported entry ``i`` that needs no engine (:meth:`Ledger.import_table`
    step 2) but the caps: raises the :class:`InputError` the import answers with."""
    where = f"entries[{i}]"
    if not isinstance(e, dict) or e.get("number") != i + 1 or isinstance(e.get("number"), bool):
        raise _bad(where, "ledger.entry_number", n=i + 1)
    kind, status = e.get("kind"), e.get("status", "recorded")
    if kind not in ("hand", "adjustment") or status not in ("recorded", "voided"):
        raise _bad(where, "ledger.entry_kind")
    olds = e.get("revisions") or []
    if not isinstance(olds, list):
        raise _bad(f"{where}.revisions", "ledger.revisions_bad", n=revisions_max - 1)
    now = utcnow()
    for name in ("recorded_at", "revised_at", "voided_at"):
        _time(e.get(name), f"{where}.{name}", now)
    if status == "voided":
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
    (:meth:`Ledger.import_table` step 3), as the values of its ``ledger_hand`` row and of its
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
            "void_reason": None, "voided_at": None}
    if status == "voided":
        hand["void_reason"] = _imported_reason(e, where)
        hand["voided_at"] = _time(e.get("voided_at"), f"{where}.voided_at", now)
    revisions = []
    for j, ((_, req, res, dl, ver), rat) in enumerate(versions[:-1]):
        res, codes = _split(res)
        revisions.append({"number": i + 1, "revision": j + 1, "request": json.dumps(req),
                          "result": json.dumps(res), "codes": json.dumps(codes), "dealer": dl,
                          "verified": ver, "recorded_at": rat,
                          "replaced_at": versions[j + 1][1]})
    return hand, revisions


def _inserts():
    """The two bulk inserts of an import: JSON columns bound as the text already made."""
    hand, rev = Hand.__table__, Revision.__table__
    def values():
        return {c: bindparam(c, type_=SerializedJSON()) for c in ("request", "result", "codes")}
    return insert(hand).values(**values()), insert(rev).values(**values())


_INSERT_HAND, _INSERT_REVISION = _inserts()
#: the columns a table's read takes: all but ``codes``, which no answer shows
_SHOWN_HAND = [c for c in Hand.__table__.c if c.name != "codes"]
_SHOWN_REVISION = [c for c in Revision.__table__.c if c.name != "codes"]


def _split(result: dict) -> tuple[dict, dict | None]:
    """A computed result as stored: what the answers show (``result``), and its message
    codes apart (the ``codes`` column, which reading a table never decodes)."""
    return {k: v for k, v in result.items() if k != "messages"}, result.get("messages")


def _touch(t: Table, now: datetime) -> None:
    t.version += 1
    t.updated_at = now


def _pick(table: dict, number: int) -> dict:
    return next(h for h in table["hands"] if h["number"] == number)


def _result_fields(result: dict) -> dict:
    out = {"settlement": result["settlement"]}
    for key in ("biao", "fan"):
        if key in result:
            out[key] = result[key]
    return out


def _hand_dict(h, flag: bool, olds: list) -> dict:
    """H from a ``ledger_hand`` row and its superseded ``ledger_revision`` rows."""
    out = {"number": h.number, "kind": h.kind, "status": h.status, "verified": h.verified,
           "dealer": h.dealer, "dealer_flag": flag, "request": h.request,
           **_result_fields(h.result), "recorded_at": _iso(h.recorded_at),
           "revision": h.revision}
    if h.revised_at is not None:
        out["revised_at"] = _iso(h.revised_at)
    out["revisions"] = [{"revision": r.revision, "request": r.request,
                         **_result_fields(r.result), "dealer": r.dealer,
                         "verified": r.verified, "recorded_at": _iso(r.recorded_at),
                         "replaced_at": _iso(r.replaced_at)} for r in olds]
    if h.status == "voided":
        out["void_reason"] = h.void_reason
        out["voided_at"] = _iso(h.voided_at)
    return out


# -- input ------------------------------------------------------------------------------

def _table_spec(spec: Any) -> tuple[str, dict, int | float, list[str], int]:
    if not isinstance(spec, dict):
        raise InputError("bad_json", M("request.not_object"), None)
    for key in spec:
        if key not in TABLE_FIELDS:
            raise _bad(str(key), "request.unknown_key", key=key, known=list(TABLE_FIELDS))
    name = spec.get("variant")
    variant = VARIANTS.get(name) if isinstance(name, str) else None
    if variant is None:
        raise InputError("unknown_variant", M("ledger.variant"), "variant")
    options = dataclasses.asdict(parse_options(variant.Options, spec.get("options")))
    base = spec.get("base", 1)
    if base is None:
        base = 1
    problem = amount_problem(base)
    if problem == "decimals":
        raise InputError("bad_settlement", M("ledger.base_decimals", d=BASE_DECIMALS,
                                             max=MAX_DECIMAL_BASE), "base")
    if problem is not None:
        raise InputError("bad_settlement", M("ledger.base_bad", max=MAX_BASE), "base")
    names = spec.get("names")
    if names is None:
        names = list(DEFAULT_NAMES)
    if not isinstance(names, list) or len(names) != 4 or not all(isinstance(n, str) for n in names):
        raise _bad("names", "ledger.names_list")
    names = [n.strip() for n in names]
    for i, n in enumerate(names):
        if not 0 < len(n) <= NAME_MAX or not _text_ok(n):
            raise _bad("names", "ledger.name_bad", n=i + 1, max=NAME_MAX)
    dealer = spec.get("dealer", 0)
    dealer = 0 if dealer is None else dealer
    if not _is_int(dealer) or not 0 <= dealer <= 3:
        raise _bad("dealer", "ledger.first_dealer")
    return variant.name, options, base, names, dealer


def _check_body(body: dict) -> None:
    """The checks of an entry's body that need no engine: its keys, and the settlement's
    presence and winner (:func:`_compute` does the rest)."""
    for key in body:
        if key in ("variant", "options"):
            raise _bad(key, "ledger.table_decides")
        if key not in HAND_FIELDS + CONTROL_FIELDS + ("adjustment",):
            raise _bad(str(key), "request.unknown_key", key=key,
                       known=[*HAND_FIELDS, "adjustment", "expected_number", "idempotency_key"])
    if "adjustment" in body:
        extra = [k for k in body if k in HAND_FIELDS]
        if extra:
            raise _bad(extra[0], "ledger.adjustment_alone")
        return
    raw = body.get("settlement")
    if not isinstance(raw, dict):
        raise InputError("bad_settlement", M("ledger.settlement_required"), "settlement")
    if "base" in raw:
        raise InputError("bad_settlement", M("ledger.base_table"), "settlement.base")
    if "winner" not in raw:
        raise InputError("bad_settlement", M("ledger.winner_required"), "settlement.winner")


def _compute(t: Table | _Settings, body: dict, default_dealer: int):
    """Validate an entry's body and compute it with the engine.
    Returns ``(kind, request as recorded, result, dealer, verified)``."""
    _check_body(body)
    if "adjustment" in body:
        return _adjustment(t, body["adjustment"], default_dealer)
    raw = body["settlement"]
    settlement = dict(raw)
    if settlement.get("dealer") is None:
        settlement["dealer"] = default_dealer
    request = {k: body[k] for k in HAND_FIELDS if body.get(k) is not None}
    request["settlement"] = settlement
    engine_settlement = {**settlement, "base": t.base}
    if request.get("hand") not in (None, ""):
        if "declared" in request:
            raise _bad("declared", "ledger.declared_with_hand")
        out = analyze({"variant": t.variant, "options": t.options,
                       **{k: v for k, v in request.items() if k != "settlement"},
                       "settlement": engine_settlement}, advice=False)
        verified = True
    else:
        request.pop("hand", None)
        for k in TILE_ONLY:
            if request.get(k):
                raise _bad(k, "ledger.tiles_without_hand", key=k)
            request.pop(k, None)
        bare = {"variant": t.variant, "options": t.options, "settlement": engine_settlement}
        for k in ("win_by", "declared"):
            if k in request:
                bare[k] = request[k]
        out = settle_without_tiles(bare)
        verified = settlement["winner"] is None        # a 荒庄 has no tiles to check
    out = _stored(out)
    result = {"settlement": out["settlement"]}
    for key in ("biao", "fan", "messages"):
        if key in out:
            result[key] = out[key]
    return "hand", request, result, settlement["dealer"], verified


def _stored(out: dict) -> dict:
    """The engine's answer as the ledger computes it: what was said as message codes
    (``messages``: ``{"payments": [detail], "fan": [{"name", "note"?}]}``, stored apart in
    the ``codes`` column by :func:`_split`, see
    :func:`webcalc.messages.to_json`), and rendered in both languages: Chinese in ``detail``
    and the fan's ``name``/``note`` (as before issue 15), English beside them (``detail_en``,
    ``name_en``, ``note_en``). The edge shows the reader's language (:mod:`.texts`)."""
    zh, en = localize(out, "zh"), localize(out, "en")
    codes: dict = {"payments": [to_json(p["detail"]) for p in out["settlement"]["payments"]]}
    for p, p_en in zip(zh["settlement"]["payments"], en["settlement"]["payments"]):
        p["detail_en"] = p_en["detail"]
    if out["settlement"].get("notes"):
        codes["notes"] = [to_json(n["message"]) for n in out["settlement"]["notes"]]
        for n, n_en in zip(zh["settlement"]["notes"], en["settlement"]["notes"]):
            n["message_en"] = n_en["message"]
    if out.get("fan"):
        codes["fan"] = [{k: to_json(f[k]) for k in ("name", "note") if k in f}
                        for f in out["fan"]]
    for f, f_en in zip(zh.get("fan") or [], en.get("fan") or []):
        f["name_en"] = f_en["name"]
        if "note" in f_en:
            f["note_en"] = f_en["note"]
    zh["messages"] = codes
    return zh


def _same_result(a: dict, b: dict) -> bool:
    """Two stored results say the same (a correction that changes nothing), whether or not
    one was stored before the messages were kept as codes (no ``messages``, ``detail_en``)."""
    def plain(r: dict) -> dict:
        s = r["settlement"]
        return {**{k: v for k, v in r.items() if k not in ("messages", "fan")},
                "settlement": {**s, "payments": [{k: v for k, v in p.items() if k != "detail_en"}
                                                 for p in s["payments"]]},
                "fan": [{k: v for k, v in f.items() if k not in ("name_en", "note_en")}
                        for f in r.get("fan") or []]}
    return plain(a) == plain(b)


def _amount(v: Any, field: str) -> int | float:
    """An adjustment's amount or fee: as a base (:func:`webcalc.settlement.amount_problem`),
    so that its shares and every sum stay exact decimals."""
    problem = amount_problem(v)
    if problem == "decimals":
        raise _bad(field, "ledger.amount_decimals", d=BASE_DECIMALS, max=MAX_DECIMAL_BASE)
    if problem is not None:
        raise _bad(field, "ledger.amount_bad", max=MAX_BASE)
    return v


def _seat(v: Any, field: str) -> int:
    if not _is_int(v) or not 0 <= v <= 3:
        raise _bad(field, "ledger.seat_bad")
    return v


def _adjustment(t: Table, raw: Any, dealer: int):
    """A penalty or transfer (``payments``) or a fee split evenly (``fee``, ``paid_by``)."""
    if not isinstance(raw, dict):
        raise _bad("adjustment", "ledger.adjustment_object")
    for key in raw:
        if key not in ("payments", "fee", "paid_by", "note"):
            raise _bad(f"adjustment.{key}", "ledger.adjustment_unknown", key=key)
    note = raw.get("note") or ""
    if not isinstance(note, str) or len(note.strip()) > NOTE_MAX or (
            note and not _text_ok(note.strip())):
        raise _bad("adjustment.note", "ledger.note_bad", n=NOTE_MAX)
    note = note.strip()
    if ("payments" in raw) == ("fee" in raw):
        raise _bad("adjustment", "ledger.adjustment_either")
    if "payments" in raw:
        pays = raw["payments"]
        if not isinstance(pays, list) or not 0 < len(pays) <= ADJUSTMENT_PAYMENTS_MAX:
            raise _bad("adjustment.payments", "ledger.payments_list", n=ADJUSTMENT_PAYMENTS_MAX)
        payments, clean = [], []
        for i, p in enumerate(pays):
            where = f"adjustment.payments[{i}]"
            if not isinstance(p, dict) or set(p) != {"from", "to", "amount"}:
                raise _bad(where, "ledger.payment_shape")
            a, b = _seat(p["from"], f"{where}.from"), _seat(p["to"], f"{where}.to")
            if a == b:
                raise _bad(where, "ledger.payment_same")
            amount = _amount(p["amount"], f"{where}.amount")
            clean.append({"from": a, "to": b, "amount": amount})
            detail = M("ledger.transfer_detail", what=note or M("ledger.adjustment"),
                       payer=SEAT_NAMES[a], payee=SEAT_NAMES[b], amount=fmt(amount))
            payments.append({"from": a, "to": b, "amount": amount, "item": "adjustment",
                             "detail": detail, "rule": None})
        request = {"adjustment": {"payments": clean, "note": note}}
    else:
        if "paid_by" not in raw:
            raise _bad("adjustment.paid_by", "ledger.paid_by_required")
        fee = _amount(raw["fee"], "adjustment.fee")
        payer = _seat(raw["paid_by"], "adjustment.paid_by")
        share = number(exact(fee) / 4, _is_int(fee))
        detail = M("ledger.fee_detail", what=note or M("ledger.fee"), fee=fmt(fee),
                   payer=SEAT_NAMES[payer], share=fmt(share))
        payments = [{"from": s, "to": payer, "amount": share, "item": "fee",
                     "detail": detail, "rule": None}
                    for s in range(4) if s != payer]
        request = {"adjustment": {"fee": fee, "paid_by": payer, "note": note}}
    net = [Fraction(0)] * 4
    for p in payments:
        net[p["from"]] -= exact(p["amount"])
        net[p["to"]] += exact(p["amount"])
    ints = all_ints(p["amount"] for p in payments)
    result = _stored({"settlement": {"payments": payments, "net": [number(x, ints) for x in net],
                                     "next_dealer": None}})
    return "adjustment", request, result, dealer, True
