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
  view_token)``: spec ``{"variant", "options"?, "base"?, "names"?, "dealer"?}``; ``variant``
  ``"free"`` (:data:`~.points.FREE`) is a table with no rule set, whose hands are
  ``{"points": [a, b, c, d], "dealer"?, "note"?}`` (:mod:`.points`).
* :meth:`Ledger.table` ``(token) -> T``; :meth:`Ledger.hand` ``(token, number) -> H``;
  :meth:`Ledger.version` ``(token) -> int`` (bumped by every write: an ETag for polling);
  :meth:`Ledger.probe` ``(token) -> (version, editor)`` (the same query: what an ETag holds);
  :meth:`Ledger.access` ``(token) -> "edit" | "view"``.
* :meth:`Ledger.record` ``(edit_token, body) -> Recorded(hand, table, created)``: a hand or an
  adjustment (body as API.md "Table ledger"; ``expected_number``, ``idempotency_key``).
* :meth:`Ledger.correct` ``(edit_token, number, body) -> Recorded``: a new revision (the old
  one is kept in ``H["revisions"]``); ``created`` is False when the body changes nothing.
* :meth:`Ledger.void` ``(edit_token, number, reason) -> T``: voiding twice changes nothing.
* :meth:`Ledger.undo` ``(edit_token, number) -> T``: void the last counted entry with the code
  ``undone``; any other number (the same one again: a double tap) is :class:`Conflict`.
* :meth:`Ledger.settings` ``(edit_token, {"carry_bets"}) -> T``.
* Edit links: :meth:`Ledger.add_editor` ``(edit_token) -> (n, token)``,
  :meth:`Ledger.revoke_editor` ``(edit_token, n)``, :meth:`Ledger.editors` ``(edit_token)``
  (the creator's link only, else :class:`NotOwner`), :meth:`Ledger.rotate` ``(edit_token,
  view=False) -> Rotated``, :meth:`Ledger.view_token` ``(edit_token)`` (the view token any
  edit link's page shows), :meth:`Ledger.editor_of` ``(token)`` (0 the creator, 1… a
  co-scorer, None the view token).
* :meth:`Ledger.export_table` ``(token) -> dict`` (either token; no tokens inside) and
  :meth:`Ledger.import_table` ``(data, address=None) -> Created``: a new table with new tokens,
  every entry and revision recomputed by the engine (never trusted from the file), voids and
  times kept. Format ``"webcalc-ledger/1"``, see :meth:`Ledger.export_table`.
* :meth:`Ledger.purge_idle` ``(days, dry_run=False) -> int``: delete tables with no write for
  ``days`` days (the ``flask ledger-purge`` command).

T (a table, a :class:`TableDoc`: a dict, read only, that also writes its JSON) =
``{"variant", "options" (every option, defaults filled in), "base", "names", "dealer" (who
deals the next hand, SMX-8/ZZ-7/PJ-14/JC-9 from the last counted hand), "first_dealer",
"next_number" (the next entry's id), "next_hand_no" (the place of the next hand played: counted
hands + 1), "version", "access" ("edit"|"view"), "created_at", "updated_at", "hands": [H],
"totals": [4 numbers], "settle_up": [{"from", "to", "amount"}], "carry_bets" ("keep"|"reset"),
"last_counted" (the entry an undo takes, or None)}``.

H (an entry) = ``{"number" (its id, kept for good), "hand_no" (its place among the hands
played: counted hands numbered 1, 2, … without gaps; null for an adjustment and for a voided
or undone entry), "kind" ("hand"|"adjustment"|"points": a 自由记分 table's hand,
:mod:`.points`), "status" ("recorded"|"voided"),
"verified" (tiles given; a 荒庄 and an adjustment need none), "dealer" (as played),
"dealer_flag" (this counted hand's dealer no longer follows the rules from the counted hands
before it), "request" (as recorded, ``settlement.dealer`` filled in), "settlement":
{"payments", "net", "next_dealer"} (``next_dealer`` null for an adjustment), "biao"?/"fan"?
(as the engine reported), "recorded_at" (first recorded, ISO 8601 UTC), "revision",
"revised_at"?, "revisions": [older revisions, oldest first, each {"revision", "request",
"settlement", "dealer", "verified", "recorded_at", "replaced_at", "biao"?, "fan"?}],
"void_reason"? (null for an entry imported as voided without one; 撤销 for an undone one),
"void_code"? ("undone" or null), "voided_at"?, "voided_by"?, "editor" (who wrote this
revision; each of "revisions" has its own)}``. Texts
in H (payment ``detail``, fan ``name``/``note``) are Chinese with English beside them
(``detail_en`` …); :func:`webcalc.ledger.texts.table_in` gives the reader's language.
Counted = status ``recorded``; only counted hands move the dealer, adjustments never do.

Errors (their ``message`` a :class:`~webcalc.messages.Message`, rendered by the web layer in the
reader's language): :class:`~webcalc.errors.InputError` (400: the analyze codes, plus
``bad_request`` for a ledger field) and the :mod:`webcalc.ledger.errors` classes — ``NotFound``
(unknown token or hand number), ``ReadOnly`` (a write with the view token), ``Conflict`` (stale
``expected_number``/``expected_revision``; carries ``table``), ``IdempotencyConflict`` (an
``idempotency_key`` the table used with another body; ``detail``), ``BadKey`` (a key not 1-64 of
``[A-Za-z0-9_-]``), ``Voided`` (correcting a voided hand), ``TooMany`` (caps: entries, revisions
per entry, corrections per table; ``detail``; also ``TableFull``), ``RateLimited`` (tables per
address per hour; ``retry_after``), ``Busy`` (the database stayed locked: nothing written, try
again).

For the pages (the HTML on top of this service):

* the next hand's form: the table's ``variant``/``options``/``base``/``names``, dealer
  ``T["dealer"]``; each seat's 跑/加钢 of the previous counted hand are in its
  ``request["settlement"]`` (``pao``, ``jiagang``), offered again when ``T["carry_bets"]``
  is ``"keep"`` (shown as "same as last hand") and not when ``"reset"``; put
  ``T["next_number"]`` in the form as ``expected_number`` and a fresh random
  ``idempotency_key`` (a double tap then records once, and a stale page gets
  :class:`Conflict` with the table as it is now);
* 荒庄 in one tap: ``{"settlement": {"winner": None}}``; the quick entry without tiles: no
  ``hand``, ``win_by`` and ``declared`` (the keys each variant accepts are in
  :func:`webcalc.settlement.settle_declared`), shown as 未验牌 where ``verified`` is false;
* correct: open ``H["request"]`` in the form, send it to :meth:`Ledger.correct`; show
  ``H["revisions"]``; greyed hands: ``status == "voided"`` with ``void_reason``; the flag:
  ``dealer_flag``;
* the view page's polling: make the ``ETag`` of :meth:`Ledger.probe` (version and editor)
  and the reader's language, answer 304 when the client sent it (docs/LEDGER.md "ETags");
  never put a token of the other kind in a page (``T["access"]``);
* the chart: running totals are the cumulative sum of ``H["settlement"]["net"]`` over the
  counted entries; the settle-up is ``T["settle_up"]``.

Limits (docs/LEDGER.md "Limits"): the caps of :class:`Ledger`; hand numbers the table does
not have are :class:`NotFound` without a query; bases and amounts as
:func:`webcalc.settlement.amount_problem` allows; an import is checked whole before the engine
computes it outside any transaction (:meth:`Ledger.import_table`). Every write reads the table
it answers with after its commit.

Safety: edit tokens are 192 random bits from :mod:`secrets` (``token_urlsafe(24)``), the
view token is derived from the creator's edit token by HMAC (:func:`view_token_of`) and, once
a link is replaced, kept sealed with each edit link (:func:`_seal`: XOR with an HMAC of that
link); only the tokens' SHA-256 is stored, so a copied database grants no access; the stored
hash is compared with :func:`hmac.compare_digest`.

Cost: a write reads its own entry, updates the table's kept sums (``ledger_table.derived``),
and answers from what this process keeps of the table (:class:`_Cache`), reading only the
rows changed since (``seq``): the same at entry 200 as at entry 1. :meth:`version` is one
indexed query (PostgreSQL: none while no write has been notified, :class:`_Versions`).
SQLite writes take the write lock up front (``BEGIN IMMEDIATE``) and wait on a busy timeout
that bounds all of a write's waiting, its retries included; a lock held past it is reported as
``Busy``, never as a crash. Commits are
durable (``synchronous=FULL``) before a method returns.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import hmac
import json
import math
import os
import re
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from select import POLLIN, POLLOUT, poll
from typing import Any, TypeVar

from sqlalchemy import bindparam, delete, func, insert, or_, select, text
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session

from ..analysis import analyze, settle_without_tiles
from ..catalogue import localize
from ..errors import InputError
from ..json_checks import MAX_DEPTH, body_problem
from ..message_json import to_json
from ..messages import M, Message, seat
from ..options import parse_options
from ..settlement import BASE_DECIMALS, MAX_BASE, MAX_DECIMAL_BASE, SEAT_NAMES, amount_problem, fmt
from ..variants import VARIANTS
from . import db
from .circles import IMPORT_COMPUTATIONS_MAX, CircleMixin, apply_seats
from .errors import (
    BadKey,
    Busy,
    Conflict,
    IdempotencyConflict,
    NotFound,
    NotOwner,
    RateLimited,
    ReadOnly,
    TooMany,
    Voided,
)
from .models import Creation, Editor, Hand, Revision, SerializedJSON, Table, utcnow
from .money import all_ints, exact, number, settle_up
from .points import FREE, POINTS, POINTS_FIELDS, is_free, points_entry
from .texts import UNDONE, hand_in, table_in
from .tokens import (  # noqa: F401 - view_token_of, token_hash: part of this module's API
    TOKEN_BYTES,
    TOKEN_SHAPE,
    _iso,
    _pad,
    _seal,
    _unseal,
    token_hash,
    view_token_of,
)

R = TypeVar("R")

DEFAULT_NAMES = tuple(str(seat(i)) for i in range(4))      # the API default: 东家 南家 西家 北家
TABLE_FIELDS = ("variant", "options", "base", "names", "dealer", "carry_bets")
#: what a table's creation takes besides :data:`TABLE_FIELDS`: its circle and seats' players
CIRCLE_FIELDS = ("circle", "players")
SETTING_FIELDS = ("carry_bets",)
#: the carried-bets setting: the last counted hand's 跑/加钢 offered again ("keep"), or not
CARRY_BETS = ("keep", "reset")
HAND_FIELDS = ("hand", "melds", "indicator", "winning_tile", "win_by", "visible",
               "settlement", "declared", "history")
TILE_ONLY = ("melds", "indicator", "winning_tile", "visible", "history")
CONTROL_FIELDS = ("expected_number", "idempotency_key", "expected_revision")
#: the entry kinds that are hands played: they count as hands and say who deals next (a
#: ruled table's ``hand``, a free table's ``points``); an adjustment is neither
DEALT = ("hand", POINTS)
KINDS = ("hand", "adjustment", POINTS)
NAME_MAX = 16
NOTE_MAX = 200
REASON_MAX = 200
#: an ``idempotency_key``: 1 to KEY_MAX characters of ``[A-Za-z0-9_-]`` (else :class:`BadKey`)
KEY_MAX = 64
KEY_SHAPE = re.compile(rf"[A-Za-z0-9_-]{{1,{KEY_MAX}}}")
ADJUSTMENT_PAYMENTS_MAX = 12
ATTEMPTS = 3
EXPORT_FORMAT = "webcalc-ledger/1"
#: Default caps (docs/LEDGER.md "Limits"): far above a real evening (a long one is 30-80
#: entries with a handful of corrections), low enough that a table's every read and write,
#: and an import, have bounded work. Past them: :class:`TooMany` (422 ``too_many``).
HANDS_MAX = 500
REVISIONS_MAX = 20
CORRECTIONS_MAX = 200
#: edit links per table: the creator's and 19 co-scorers' (revoked ones included: numbers
#: are never given again)
EDITORS_MAX = 20
#: seconds of CPU one import may spend from its checks to its last computed entry (a
#: table's, or a circle's with all its tables): the computations cap keeps fresh hands under
#: 2 s in all, this keeps the hardest hands there too, decoding the body included
#: (bench/RESULTS.md "Circle imports", docs/LEDGER.md "Limits")
IMPORT_CPU_MAX = 1.8
#: entries a process keeps of the tables it read last (:class:`_Cache`): about 6 KB each
CACHE_HANDS = 1500
#: Times an import may carry (``recorded_at``, ``revised_at``, ``voided_at``): from this …
TIME_MIN = datetime(2000, 1, 1, tzinfo=UTC)
#: … to before this (UTC). Outside it a time is a mistake, or out of the databases' range.
TIME_MAX = datetime(2100, 1, 1, tzinfo=UTC)


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

    def json_bytes(self, lang: str) -> bytes:
        """``{"hand": H, "table": T}`` as UTF-8 JSON in ``lang``, from the entries' JSON
        this process keeps (:meth:`TableDoc.json_bytes`)."""
        t = self.table
        if not isinstance(t, TableDoc):
            return _dumps({"hand": hand_in(self.hand, lang),
                           "table": table_in(t, lang)}).encode("utf-8")
        return b"".join((b'{"hand":', t.hand_json(self.hand["number"], lang), b',"table":',
                         t.json_bytes(lang), b"}"))


def _bad(field: str, code: str, **params: Any) -> InputError:
    return InputError("bad_request", Message(code, params), field)


def _text_ok(text: str) -> bool:
    """Printable, so storable: control characters and lone surrogates (JSON ``"\\ud800"``,
    which no database can encode) are not printable."""
    return text.isprintable()


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


class Ledger(CircleMixin):
    """The ledger on one database.

    Args:
        url: an SQLAlchemy URL: ``sqlite:///path`` or ``postgresql://…`` (psycopg 3).
        hands_max: entries (hands and adjustments, voided ones included) per table.
        revisions_max: revisions per entry, the first one included (so ``revisions_max - 1``
            corrections of one entry).
        corrections_max: superseded revisions (corrections) kept per table, all its entries
            together: what every read of the table carries besides its entries.
        editors_max: edit links per table, the creator's and the revoked ones included.
        import_computations_max: engine computations one import may ask for (entries plus
            their older revisions, all the tables of a circle's import together).
        import_cpu_max: seconds of this thread's CPU one import may spend from its start to
            its last computed entry; past it the import is refused (:class:`TooMany`,
            nothing stored), so an import of the hardest hands at the computations cap still
            ends in time.
        tables_per_hour: tables one address may create per hour (0: no cap).
        migrate_lazily: upgrade the schema on first use (tests); else call :meth:`migrate`.
        busy_timeout_ms: how long a SQLite write waits for the lock in all, its retries
            included (:meth:`_run`), before it is :class:`Busy`.
        migrate_in_subprocess: :meth:`migrate` runs Alembic in a child process
            (:func:`webcalc.ledger.db.upgrade_in_subprocess`), so it never loads in this one
            (the app's server processes).
        cache_hands: entries this process keeps of the tables it read last (:class:`_Cache`;
            0: none, every read decodes the whole table).
    """

    def __init__(self, url: str, *, hands_max: int = HANDS_MAX, revisions_max: int = REVISIONS_MAX,
                 corrections_max: int = CORRECTIONS_MAX, editors_max: int = EDITORS_MAX,
                 import_computations_max: int = IMPORT_COMPUTATIONS_MAX,
                 import_cpu_max: float = IMPORT_CPU_MAX,
                 tables_per_hour: int = 30, migrate_lazily: bool = False,
                 busy_timeout_ms: int = db.BUSY_TIMEOUT_MS,
                 migrate_in_subprocess: bool = False, cache_hands: int = CACHE_HANDS):
        self.engine = db.make_engine(url, busy_timeout_ms)
        self.busy_timeout_ms = busy_timeout_ms
        self.migrate_in_subprocess = migrate_in_subprocess
        self.hands_max = hands_max
        self.revisions_max = revisions_max
        self.corrections_max = corrections_max
        self.editors_max = editors_max
        self.import_computations_max = import_computations_max
        self.import_cpu_max = import_cpu_max
        self.tables_per_hour = tables_per_hour
        self._migrated = not migrate_lazily
        self._migrate_lock = threading.Lock()
        self._cache = _Cache(cache_hands)
        self._probes: list = []               # idle connections of :meth:`_probe`
        self._probe_pid = os.getpid()
        #: PostgreSQL: the versions this process read, until a write notifies (None: SQLite)
        self._versions = None if db.is_sqlite(self.engine) else _Versions(self)
        self._probe_sql = _PROBE_SQL.replace(
            "?", "%s" if self.engine.dialect.paramstyle in ("format", "pyformat") else "?")

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
        """Close pooled connections and the probe's and listener's (after start-up in a
        process that will fork)."""
        if self._probe_pid == os.getpid():
            while self._probes:
                _close(self._probes.pop())
        if self._versions is not None:
            self._versions.close()
        self.engine.dispose()

    def forget_cached(self) -> None:
        """Drop what this process keeps of the tables (:class:`_Cache`): after the database
        was changed by other means than this service (a test, a repair by hand)."""
        self._cache = _Cache(self._cache.max_hands)

    def _ready(self) -> None:
        if not self._migrated:
            with self._migrate_lock:
                if not self._migrated:
                    self.migrate()

    def _lock_wait(self) -> _LockWait:
        """A new allowance of ``busy_timeout_ms`` to wait for SQLite's write lock."""
        return _LockWait(self.busy_timeout_ms)

    def _run(self, work: Callable[[Session], R], *, write: bool,
             wait: _LockWait | None = None) -> R:
        """Run ``work`` in one transaction (a write one when ``write``), retrying a locked or
        dropped database a few times before giving up with :class:`Busy`. A read on
        PostgreSQL is one snapshot (REPEATABLE READ), as a SQLite read transaction is: the
        table row and the entries it reads belong to the same version.

        A SQLite write waits for the lock (``BEGIN IMMEDIATE``) at most ``busy_timeout_ms``
        in all, its retries and the pauses between them included: each attempt may wait only
        what is left of ``wait`` (by default a new allowance; an import's two writes share
        one), and none is made once it is spent, so a database locked throughout is
        :class:`Busy` after that long, not after each attempt's full timeout
        (docs/LEDGER.md "Storage")."""
        try:
            self._ready()
        except (OperationalError, db.Unreachable) as err:   # the database is down: no crash
            raise Busy(M("ledger.db_down")) from err
        sqlite = db.is_sqlite(self.engine)
        lock = (wait or self._lock_wait()) if write and sqlite else None
        delay = 0.05
        for attempt in range(ATTEMPTS):
            session = Session(self.engine, expire_on_commit=False, autoflush=True)
            try:
                if lock is not None:
                    left = lock.left_ms()
                    if left <= 0:
                        raise Busy(M("ledger.db_busy"))
                    began = time.monotonic()
                    try:
                        session.connection(execution_options={db.WRITE: True,
                                                              db.LOCK_WAIT_MS: left})
                    finally:
                        lock.spend(time.monotonic() - began)
                elif write:
                    session.connection(execution_options={db.WRITE: True})
                elif not sqlite:
                    session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
                out = work(session)
                if write:
                    session.commit()
                    if self._versions is not None and "changed" in session.info:
                        # this process's own writes: forgotten now, not when the notice comes
                        self._versions.drop(session.info["changed"])
                return out
            except (OperationalError, IntegrityError) as err:
                session.rollback()
                spent = lock is not None and lock.left_ms() <= 0
                if attempt == ATTEMPTS - 1 or (spent and not isinstance(err, IntegrityError)):
                    if isinstance(err, IntegrityError):
                        raise
                    raise Busy(M("ledger.db_busy")) from err
                pause = delay if lock is None else min(delay, lock.left_ms() / 1000)
                time.sleep(max(pause, 0))
                if lock is not None:
                    lock.spend(pause)
                delay *= 4
            finally:
                session.close()
        raise AssertionError("unreachable")

    # -- tokens ---------------------------------------------------------------------------
    def _find(self, s: Session, token: Any, *, write: bool) -> tuple[Table, int | None]:
        """The table ``token`` opens and the editor it is (0 the creator, 1… a co-scorer,
        None for the view token). A write locks the table's row (PostgreSQL)."""
        if not isinstance(token, str) or not TOKEN_SHAPE.fullmatch(token):
            raise NotFound(M("ledger.no_table"))
        h = token_hash(token)
        q = select(Table).where(or_(Table.edit_hash == h, Table.view_hash == h))
        if write and not db.is_sqlite(self.engine):
            q = q.with_for_update()
        t = s.scalars(q).first()
        editor: int | None = None
        if t is not None:
            editor = 0 if hmac.compare_digest(t.edit_hash, h) else None
        else:
            e = s.execute(select(Editor.table_id, Editor.number, Editor.edit_hash)
                          .where(Editor.edit_hash == h, Editor.revoked_at.is_(None))).first()
            if e is None or not hmac.compare_digest(e.edit_hash, h):
                raise NotFound(M("ledger.no_table"))
            q = select(Table).where(Table.id == e.table_id)
            if write and not db.is_sqlite(self.engine):
                q = q.with_for_update()
            t = s.scalars(q).one()
            editor = e.number
        if write and editor is None:
            raise ReadOnly(M("ledger.read_only"))
        return t, editor

    def _probe(self, token: Any) -> tuple[int, int | None]:
        """``(version, editor)`` of the table ``token`` opens, in one indexed query on an
        autocommit connection of the probe's own (:meth:`_probe_connection`: taken and put
        back without the pool's checkout, ping and session), for the polls' 304 path. As
        exact as a read: it asks the database every time (several server processes share
        nothing else) and sees every committed write. A dropped connection is replaced once,
        then :class:`Busy`."""
        if not isinstance(token, str) or not TOKEN_SHAPE.fullmatch(token):
            raise NotFound(M("ledger.no_table"))
        h = token_hash(token)
        try:
            self._ready()
        except (OperationalError, db.Unreachable) as err:
            raise Busy(M("ledger.db_down")) from err
        if self._probe_pid != os.getpid():        # forked: the parent's are never used here
            _ABANDONED.extend(self._probes)
            self._probes, self._probe_pid = [], os.getpid()
        known, ticket = self._versions.get(h) if self._versions is not None else (None, None)
        if known is not None:
            return known
        row = None
        for attempt in range(2):
            try:
                conn = self._probes.pop()
            except IndexError:
                try:
                    conn = self._probe_connection()
                except Exception as err:  # noqa: BLE001 - the driver's: the database is down
                    raise Busy(M("ledger.db_down")) from err
            try:
                cur = conn.cursor()
                cur.execute(self._probe_sql, (h, h, h))
                row = cur.fetchone()
                cur.close()
            except Exception as err:  # noqa: BLE001 - the driver's own: a dropped connection
                _close(conn)
                if attempt == 1:
                    raise Busy(M("ledger.db_busy")) from err
                continue
            if len(self._probes) < PROBES_KEPT:
                self._probes.append(conn)
            else:
                _close(conn)
            break
        if row is None or not hmac.compare_digest(row[2], h):
            raise NotFound(M("ledger.no_table"))
        if self._versions is not None:
            self._versions.put(h, row[3], row[0], row[1], ticket)
        return row[0], row[1]

    def _changed(self, s: Session, table_id: int | None) -> None:
        """Tell every process that table ``table_id`` (None: any) changed, when this write
        commits (PostgreSQL's NOTIFY, which :class:`_Versions` listens to)."""
        if not db.is_sqlite(self.engine):
            s.execute(text("SELECT pg_notify(:c, :p)"),
                      {"c": NOTIFY_CHANNEL, "p": "*" if table_id is None else str(table_id)})
            s.info.setdefault("changed", set()).add(table_id)

    def _probe_connection(self):
        """A DBAPI connection for :meth:`_probe` alone (up to :data:`PROBES_KEPT` are kept
        idle), set up as the pool's (:func:`webcalc.ledger.db.make_engine`: SQLite's
        pragmas) and in autocommit: each probe sees the last committed version."""
        conn = self.engine.raw_connection()
        dbapi = conn.dbapi_connection
        conn.detach()                         # out of the pool: this thread's alone
        if db.is_sqlite(self.engine):
            dbapi.isolation_level = None
        else:
            dbapi.autocommit = True
        return dbapi

    # -- reading --------------------------------------------------------------------------
    def table(self, token: str) -> TableDoc:
        """The table T (see the module docstring) by either token."""
        def work(s):
            t, editor = self._find(s, token, write=False)
            return self._doc(s, t, editor)
        return self._run(work, write=False)

    def access(self, token: str) -> str:
        """``"edit"`` or ``"view"``: what this token allows (one query, as :meth:`version`)."""
        return "view" if self._probe(token)[1] is None else "edit"

    def editor_of(self, token: str) -> int | None:
        """The editor this token is: 0 the creator, 1… a co-scorer, None the view token."""
        return self._probe(token)[1]

    def version(self, token: str) -> int:
        """The table's version, bumped by every write (one indexed query: ETags, polling)."""
        return self._probe(token)[0]

    def probe(self, token: str) -> tuple[int, int | None]:
        """``(version, editor)`` in the one query of :meth:`version`: what the table's answers
        to this token depend on besides the reader's language, so what their ETags are made
        of (docs/LEDGER.md "ETags"). A revoked or replaced link is :class:`NotFound`."""
        return self._probe(token)

    def hand(self, token: str, number: int) -> dict:
        """Entry ``number`` (H, with its revisions and its ``dealer_flag``)."""
        table = self.table(token)
        if _is_int(number) and 0 < number <= len(table["hands"]):
            return table["hands"][number - 1]
        raise NotFound(M("ledger.no_hand", n=number))

    def view_token(self, edit_token: str) -> str | None:
        """The view token of the table ``edit_token`` edits (any editor's), for its pages to
        show; None when this co-scorer's link was made before the creator replaced the view
        link (docs/LEDGER.md "Tokens"). The view token: :class:`ReadOnly`."""
        return self._run(lambda s: self._view_of(s, *self._find(s, edit_token, write=False),
                                                 edit_token), write=False)

    def _view_of(self, s: Session, t: Table, editor: int | None, edit_token: str) -> str | None:
        if editor is None:
            raise ReadOnly(M("ledger.read_only"))
        if editor == 0:
            seal = t.view_seal
        else:
            seal = s.scalar(select(Editor.view_seal).where(Editor.table_id == t.id,
                                                           Editor.number == editor))
        if seal is None:
            return view_token_of(edit_token)
        return _unseal(seal, edit_token) if seal else None

    def editors(self, token: str) -> list[dict]:
        """The table's edit links (creator only): ``[{"editor", "created_at",
        "revoked_at"?}]``, the creator's (0) first. The links themselves are not kept."""
        def work(s):
            t, editor = self._find(s, token, write=False)
            self._owner(editor)
            out = [{"editor": 0, "created_at": _iso(t.created_at)}]
            for e in s.execute(select(Editor).where(Editor.table_id == t.id)
                               .order_by(Editor.number)).scalars():
                item = {"editor": e.number, "created_at": _iso(e.created_at)}
                if e.revoked_at is not None:
                    item["revoked_at"] = _iso(e.revoked_at)
                out.append(item)
            return out
        return self._run(work, write=False)

    # -- writing --------------------------------------------------------------------------
    def create_table(self, spec: Any, *, address: str | None = None) -> Created:
        """Create a table. ``spec``: ``{"variant", "options"?, "base"?, "names"?,
        "dealer"?, "carry_bets"?}`` (defaults: the variant's options, base 1, 东家 南家 西家
        北家, dealer 0, ``keep``). ``address`` (the client's IP) counts towards
        ``tables_per_hour``. With ``"circle"`` (a circle's edit token) and ``"players"``
        (four distinct player ids of that circle, seat by seat) the table is one of the
        circle's evenings; ``names`` then default to the players' names."""
        circle_token, players = None, None
        if isinstance(spec, dict) and ("circle" in spec or "players" in spec):
            if spec.get("circle") is None:
                raise _bad("circle", "circle.players_need_circle")
            circle_token, players = spec["circle"], spec.get("players")
            named = spec.get("names") is not None
            spec = {k: v for k, v in spec.items() if k not in CIRCLE_FIELDS}
        variant, options, base, names, dealer = _table_spec(spec)
        carry = _carry_bets(spec.get("carry_bets"))
        edit_token = secrets.token_urlsafe(TOKEN_BYTES)
        view_token = view_token_of(edit_token)

        def work(s):
            now = utcnow()
            if address is not None and self.tables_per_hour:
                self._rate_limit(s, address, now)
            circle = None
            if circle_token is not None:
                circle, seated = self._circle_for_table(s, circle_token, players)
            t = Table(edit_hash=token_hash(edit_token), view_hash=token_hash(view_token),
                      variant=variant, options=options, base=base,
                      names=names if circle is None or named else [p.name for p in seated],
                      first_dealer=dealer, carry_bets=carry, next_number=1, version=1,
                      derived=_Derived.empty(dealer).to_json(), created_at=now,
                      updated_at=now)
            s.add(t)
            s.flush()
            if circle is not None:
                self._join_circle(s, t, circle, seated, view_token, circle_token)
                s.flush()
            return self._doc(s, t, 0)
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
        ``idempotency_key`` (1-64 characters of ``[A-Za-z0-9_-]``, else :class:`BadKey`): a
        repeat of the same body returns the first entry with ``created`` False; another body
        under a key the table has used is :class:`IdempotencyConflict` and writes nothing
        (:meth:`_same_entry` says what "the same" is).

        Reads no other entry: who deals and the totals are the table row's ``derived``,
        updated here in the same transaction.
        """
        if not isinstance(body, dict):
            raise InputError("bad_json", M("request.not_object"), None)
        key = body.get("idempotency_key")
        if key is not None and (not isinstance(key, str) or not KEY_SHAPE.fullmatch(key)):
            raise BadKey(M("ledger.key_bad", n=KEY_MAX), "idempotency_key")
        expected = body.get("expected_number")
        if expected is not None and not _is_int(expected):
            raise _bad("expected_number", "ledger.expected_number_bad")
        _check_body(body)

        def work(s):
            t, editor = self._find(s, token, write=True)
            if key is not None:
                found = s.execute(select(Hand.id, Hand.number, Hand.revision, Hand.request,
                                         Hand.dealer)
                                  .where(Hand.table_id == t.id, Hand.idempotency_key == key)
                                  ).first()
                if found is not None:
                    if not self._same_entry(s, t, found, body):
                        raise IdempotencyConflict(M("ledger.key_used", n=found.number),
                                                  found.number)
                    return found.number, False
            if expected is not None and expected != t.next_number:
                raise Conflict(M("ledger.conflict", n=expected, next=t.next_number),
                               self._doc(s, t, editor), "expected_number")
            if t.next_number > self.hands_max:
                raise self._too_many_entries()
            d = _Derived.of(t)
            kind, request, result, dealer, verified = _compute(t, body, d.dealer)
            result, codes = _split(result)
            now = utcnow()
            version = t.version + 1
            nxt = _next_dealer(kind, result)
            h = Hand(table_id=t.id, number=t.next_number, kind=kind, status="recorded",
                     idempotency_key=key, revision=1, request=request, result=result,
                     codes=codes, dealer=dealer, verified=verified, recorded_at=now,
                     editor=editor, next_dealer=nxt,
                     dealer_flag=kind == "hand" and dealer != d.dealer, seq=version)
            s.add(h)
            apply_seats(s, t, [(h.number, kind, request, result, +1)])
            d.count(result["settlement"]["net"], +1)
            d.last = h.number
            if kind in DEALT:
                d.dealer = nxt
            t.derived = d.to_json()
            t.next_number += 1
            _touch(t, now)
            self._changed(s, t.id)
            return h.number, True
        number, created = self._run(work, write=True)
        return self._answer(token, number, created)

    @staticmethod
    def _same_entry(s: Session, t: Table, found, body: dict) -> bool:
        """Whether ``body`` is a repeat of the body that recorded entry ``found`` under its
        idempotency key: it would record the same request as the entry's first revision did
        (the key, ``expected_number`` and ``expected_revision`` aside), a ``settlement``
        without ``dealer`` read as the dealer that revision was recorded with (the default it
        had then). So a resend matches after the entry was corrected, voided or undone, or
        the dealer moved on; a body the ledger would refuse matches nothing. Found without
        the engine (docs/LEDGER.md "Idempotency keys")."""
        request, dealer = found.request, found.dealer
        if found.revision > 1:
            first = s.execute(select(Revision.request, Revision.dealer).where(
                Revision.hand_id == found.id, Revision.revision == 1)).first()
            if first is not None:
                request, dealer = first.request, first.dealer
        try:
            return _entry_request(t, body, dealer) == request
        except InputError:
            return False

    def _answer(self, token: str, number: int, created: bool) -> Recorded:
        """The entry and the table as read right after the write committed, outside the
        write transaction, so the write lock (SQLite: one for the whole database) is held
        only for the write itself. The read takes only the rows changed since the version
        this process holds (:meth:`_doc`)."""
        table = self.table(token)
        return Recorded(table["hands"][number - 1], table, created)

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
        repeat of the same correction writes nothing new).

        Reads this entry alone, and when its dealer or next dealer changed, the dealer
        columns of the entries after it (their ``dealer_flag``), never their payloads."""
        if not isinstance(body, dict):
            raise InputError("bad_json", M("request.not_object"), None)
        expected = body.get("expected_revision")
        if expected is not None and not _is_int(expected):
            raise _bad("expected_revision", "ledger.expected_revision_bad")
        body = {k: v for k, v in body.items() if k not in CONTROL_FIELDS}
        _check_body(body)

        def work(s):
            t, editor = self._find(s, token, write=True)
            h = self._entry(s, t, number)
            if h.status == "voided":
                raise Voided(M("ledger.voided", n=number))
            if expected is not None and expected != h.revision:
                raise Conflict(M("ledger.revision_conflict", n=number, revision=h.revision),
                               self._doc(s, t, editor), "expected_revision")
            kind, request, result, dealer, verified = _compute(t, body, h.dealer)
            result, codes = _split(result)
            if kind != h.kind:
                raise _bad("adjustment", "ledger.kind_change")
            if (request, dealer, verified) == (h.request, h.dealer, h.verified) \
                    and _same_result(result, h.result):
                return False
            if h.revision >= self.revisions_max:
                raise self._too_many_revisions()
            d = _Derived.of(t)
            if d.corrections >= self.corrections_max:
                raise self._too_many_corrections()
            now = utcnow()
            version = t.version + 1
            s.add(Revision(hand_id=h.id, revision=h.revision, request=h.request,
                           result=h.result, codes=h.codes, dealer=h.dealer,
                           verified=h.verified, editor=h.editor,
                           recorded_at=h.revised_at or h.recorded_at, replaced_at=now))
            d.count(h.result["settlement"]["net"], -1)
            d.count(result["settlement"]["net"], +1)
            d.corrections += 1
            apply_seats(s, t, [(number, h.kind, h.request, h.result, -1),
                               (number, kind, request, result, +1)])
            nxt = _next_dealer(kind, result)
            rechain = kind in DEALT and (dealer, nxt) != (h.dealer, h.next_dealer)
            h.revision += 1
            h.request, h.result, h.codes = request, result, codes
            h.dealer, h.verified, h.next_dealer = dealer, verified, nxt
            h.editor, h.revised_at, h.seq = editor, now, version
            if rechain:
                s.flush()
                self._rechain(s, t, d, number, version)
            t.derived = d.to_json()
            _touch(t, now)
            self._changed(s, t.id)
            return True
        created = self._run(work, write=True)
        return self._answer(token, number, created)

    def void(self, token: str, number: int, reason: Any) -> TableDoc:
        """Void entry ``number`` with ``reason`` (kept, shown, counted no more). Returns T;
        voiding a voided entry changes nothing (its first reason stays)."""
        reason = _reason(reason, "reason")

        def work(s):
            t, editor = self._find(s, token, write=True)
            h = self._entry(s, t, number)
            if h.status != "voided":
                self._void(s, t, h, editor, reason, None)
        self._run(work, write=True)
        return self.table(token)

    def undo(self, token: str, number: Any) -> TableDoc:
        """Undo entry ``number``, the last counted entry (API.md "Table ledger, round two"):
        voided with the code ``undone`` (read 撤销 / "Undone"). Any other number, this one
        again included (a double tap), is a :class:`Conflict` and changes nothing."""
        if not _is_int(number):
            raise _bad("number", "ledger.undo_number")

        def work(s):
            t, editor = self._find(s, token, write=True)
            last = _Derived.of(t).last
            if number != last:
                raise Conflict(M("ledger.undo_conflict", n=number) if last is None else
                               M("ledger.undo_not_last", n=number, last=last),
                               self._doc(s, t, editor), "number")
            h = self._entry(s, t, number)
            self._void(s, t, h, editor, None, "undone")
        self._run(work, write=True)
        return self.table(token)

    def _void(self, s: Session, t: Table, h: Hand, editor: int, reason: str | None,
              code: str | None) -> None:
        d = _Derived.of(t)
        now = utcnow()
        version = t.version + 1
        d.count(h.result["settlement"]["net"], -1)
        apply_seats(s, t, [(h.number, h.kind, h.request, h.result, -1)])
        h.status, h.void_reason, h.void_code, h.voided_at = "voided", reason, code, now
        h.voided_by, h.dealer_flag, h.seq = editor, False, version
        s.flush()
        if d.last == h.number:
            d.last = s.scalar(select(func.max(Hand.number)).where(
                Hand.table_id == t.id, Hand.number < h.number, Hand.status == "recorded"))
        if h.kind in DEALT:
            self._rechain(s, t, d, h.number, version)
        t.derived = d.to_json()
        _touch(t, now)
        self._changed(s, t.id)

    def settings(self, token: str, body: Any) -> TableDoc:
        """Change the table's settings (any edit link): ``{"carry_bets": "keep" | "reset"}``.
        Returns T; the version is bumped when something changed."""
        if not isinstance(body, dict):
            raise InputError("bad_json", M("request.not_object"), None)
        for k in body:
            if k not in SETTING_FIELDS:
                raise _bad(str(k), "request.unknown_key", key=k, known=list(SETTING_FIELDS))
        carry = _carry_bets(body.get("carry_bets")) if "carry_bets" in body else None

        def work(s):
            t, _editor = self._find(s, token, write=True)
            if carry is not None and carry != t.carry_bets:
                t.carry_bets = carry
                _touch(t, utcnow())
                self._changed(s, t.id)
        self._run(work, write=True)
        return self.table(token)

    # -- edit links -----------------------------------------------------------------------
    @staticmethod
    def _owner(editor: int | None) -> None:
        if editor is None:
            raise ReadOnly(M("ledger.read_only"))
        if editor != 0:
            raise NotOwner(M("ledger.not_owner"))

    def add_editor(self, token: str) -> tuple[int, str]:
        """A co-scorer's edit link (creator only): ``(editor number, edit token)``; the token
        exists nowhere else. Numbers are never reused."""
        new = secrets.token_urlsafe(TOKEN_BYTES)

        def work(s):
            t, editor = self._find(s, token, write=True)
            self._owner(editor)
            view = self._view_of(s, t, 0, token)
            n = s.scalar(select(func.count()).select_from(Editor)
                         .where(Editor.table_id == t.id))
            if n + 1 >= self.editors_max:
                raise TooMany(M("ledger.editors_full", n=self.editors_max - 1),
                              "editors_per_table", self.editors_max)
            s.add(Editor(table_id=t.id, number=n + 1, edit_hash=token_hash(new),
                         view_seal=_seal(view, new), created_at=utcnow()))
            return n + 1
        return self._run(work, write=True), new

    def revoke_editor(self, token: str, number: Any, *, view: bool = False) -> dict:
        """Revoke co-scorer ``number``'s link (creator only): from then on it answers
        :class:`NotFound`. Revoking a revoked link changes nothing. Returns
        ``{"editor", "revoked_at"}``.

        The view link the co-scorer's page showed still reads the table; with ``view`` it is
        replaced in the same transaction (docs/LEDGER.md "Tokens"): the creator's edit link
        stays, the old view link answers :class:`NotFound`, the other co-scorers' pages no
        longer know the view link (as after :meth:`rotate` with ``view``); the answer then
        has ``"view_token"``, the new one."""
        if not isinstance(view, bool):
            raise _bad("view", "ledger.rotate_view")
        new_view = secrets.token_urlsafe(TOKEN_BYTES) if view else None

        def work(s):
            t, editor = self._find(s, token, write=True)
            self._owner(editor)
            if number == 0:
                raise _bad("editor", "ledger.revoke_owner")
            e = None
            if _is_int(number) and 0 < number < self.editors_max:
                e = s.scalars(select(Editor).where(Editor.table_id == t.id,
                                                   Editor.number == number)).first()
            if e is None:
                raise NotFound(M("ledger.no_editor", n=number), "editor")
            changed = e.revoked_at is None
            if changed:
                e.revoked_at = utcnow()
            out = {"editor": e.number, "revoked_at": _iso(e.revoked_at)}
            if new_view is not None:
                self._new_view(s, t, new_view, _seal(new_view, token))
                out["view_token"] = new_view
            if changed or new_view is not None:
                self._changed(s, t.id)
            return out
        return self._run(work, write=True)

    @staticmethod
    def _new_view(s: Session, t: Table, view: str, seal: str | None) -> None:
        """The table's view link is now ``view`` (the old one answers :class:`NotFound`),
        the creator's link knowing it by ``seal`` (None: the view token its edit token
        derives); the co-scorers' links and the circle no longer know it."""
        t.view_hash, t.view_seal = token_hash(view), seal
        if t.circle_id is not None:
            t.circle_seal = ""                    # the circle no longer knows the view link
        for e in s.execute(select(Editor).where(Editor.table_id == t.id)).scalars():
            e.view_seal = ""                      # sealed with the old view token: unknown now

    def rotate(self, token: str, *, view: bool = False) -> Rotated:
        """Replace this edit link (any editor: their own), and with ``view`` the table's view
        link too (creator only: :class:`NotOwner` otherwise). The old links answer
        :class:`NotFound` from then on; co-scorers keep theirs (after a new view link their
        pages no longer know the view link: :meth:`view_token` says None)."""
        if not isinstance(view, bool):
            raise _bad("view", "ledger.rotate_view")
        new = secrets.token_urlsafe(TOKEN_BYTES)

        def work(s):
            t, editor = self._find(s, token, write=True)
            if view:
                self._owner(editor)
            current = self._view_of(s, t, editor, token)
            new_view = view_token_of(new) if view else None
            if editor == 0:
                t.edit_hash = token_hash(new)
                if new_view is not None:
                    self._new_view(s, t, new_view, None)
                else:
                    t.view_seal = _seal(current, new)
            else:
                e = s.scalars(select(Editor).where(Editor.table_id == t.id,
                                                   Editor.number == editor)).one()
                e.edit_hash = token_hash(new)
                e.view_seal = "" if current is None else _seal(current, new)
            self._changed(s, t.id)
            return Rotated(new, new_view, editor)
        return self._run(work, write=True)

    # -- export and import ----------------------------------------------------------------
    def export_table(self, token: str) -> dict:
        """The table as a JSON document for :meth:`import_table`: ``{"format":
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

    def import_table(self, data: Any, *, address: str | None = None,
                     raw: bytes | None = None) -> Created:
        """A new table (new tokens) from an :meth:`export_table` document. Every revision of
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
        return Created(self.table(edit_token), edit_token, view_token)

    def _imported_rows(self, variant: str, options: dict, base, dealer: int, entries: list,
                       now: datetime, deadline: float | None = None,
                       field: str = "entries") -> tuple[list, list, _Derived]:
        """Steps 5 of :meth:`import_table` for one table (a circle's import too): its rows
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

    def _import_deadline(self) -> float | None:
        """The CPU time (:func:`time.thread_time`) an import starting now must have computed
        its entries by (:attr:`import_cpu_max`; ``None``: no limit)."""
        return time.thread_time() + self.import_cpu_max if self.import_cpu_max > 0 else None

    def _too_costly(self, field: str) -> TooMany:
        """An import whose entries took more than :attr:`import_cpu_max` of CPU: refused as
        asking the engine for too much (docs/LEDGER.md "Limits"), with the same ``detail``
        as the computations cap."""
        return self._too_many_computations(field, circle=field.startswith("tables["))

    @staticmethod
    def _insert_imported(s: Session, table_id: int, hands: list, revisions: list) -> None:
        """Step 6 of :meth:`import_table`: the rows of one imported table, in bulk."""
        if hands:
            s.execute(_INSERT_HAND, [{**_insertable(h), "table_id": table_id} for h in hands])
        if revisions:
            ids = dict(s.execute(select(Hand.number, Hand.id)
                                 .where(Hand.table_id == table_id)).all())
            s.execute(_INSERT_REVISION, [
                {**{k: v for k, v in r.items() if k != "number"}, "hand_id": ids[r["number"]]}
                for r in revisions])

    def _import_caps(self, data: Any) -> int:
        """Step 2 of :meth:`import_table`: :class:`TooMany` when the document holds more
        than the caps allow, read from the lengths of its lists (what is not a list here is
        reported by :meth:`_import_plan`). Returns the engine computations the table asks
        for: its entries plus their older revisions (:attr:`import_computations_max`)."""
        entries = data.get("entries") if isinstance(data, dict) else None
        if not isinstance(entries, list):
            return 0
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
        if len(entries) + corrections > self.import_computations_max:
            raise self._too_many_computations("entries")
        return len(entries) + corrections

    def _too_many_computations(self, field: str, circle: bool = False) -> TooMany:
        """An import asking the engine for more than :attr:`import_computations_max`
        computations (docs/LEDGER.md "Limits")."""
        code = "circle.import_computations_full" if circle else "ledger.import_computations_full"
        return TooMany(M(code, n=self.import_computations_max),
                       "computations_per_import", self.import_computations_max, field)

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
        carry = _carry_bets(data.get("carry_bets"))
        entries = data.get("entries")
        if not isinstance(entries, list):
            raise _bad("entries", "ledger.entries_bad", n=self.hands_max)
        for i, e in enumerate(entries):
            _check_imported_entry(i, e, self.revisions_max)
        return variant, options, base, names, dealer, carry, entries

    def purge_idle(self, days: float, *, dry_run: bool = False) -> int:
        """Delete every table with no write for ``days`` days (its hands and revisions go
        with it), and creation records older than a day. Returns how many tables."""
        if not days > 0:
            raise ValueError("days must be positive")
        cutoff = utcnow() - timedelta(days=days)

        def work(s):
            # a circle's evenings stay as long as the circle (docs/decisions.md "Circles")
            idle = (Table.updated_at < cutoff) & Table.circle_id.is_(None)
            n = s.scalar(select(func.count()).select_from(Table).where(idle))
            if not dry_run:
                s.execute(delete(Table).where(idle))
                if n:
                    self._changed(s, None)
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
    def _rechain(s: Session, t: Table, d: _Derived, start: int, version: int) -> None:
        """After entry ``start`` changed who deals (a correction, a void, an undo): the
        ``dealer_flag`` of the counted hands from it on, from their dealer columns alone
        (rows whose flag changes get ``seq`` = ``version``), and who deals next."""
        hand = Hand.__table__
        counted = (hand.c.table_id == t.id) & (hand.c.kind.in_(DEALT)) \
            & (hand.c.status == "recorded")
        expected = s.scalar(select(hand.c.next_dealer).where(counted, hand.c.number < start)
                            .order_by(hand.c.number.desc()).limit(1))
        if expected is None:
            expected = t.first_dealer
        changed = []
        for r in s.execute(select(hand.c.id, hand.c.kind, hand.c.status, hand.c.dealer,
                                  hand.c.next_dealer, hand.c.dealer_flag)
                           .where(hand.c.table_id == t.id, hand.c.number >= start)
                           .order_by(hand.c.number)):
            flag = False
            if r.status == "recorded" and r.kind in DEALT:
                flag = r.kind == "hand" and r.dealer != expected
                expected = r.next_dealer
            if flag != bool(r.dealer_flag):
                changed.append({"row_id": r.id, "flag": flag})
        if changed:
            s.execute(hand.update().where(hand.c.id == bindparam("row_id"))
                      .values(dealer_flag=bindparam("flag"), seq=version), changed)
        d.dealer = expected

    def _doc(self, s: Session, t: Table, editor: int | None) -> TableDoc:
        """T at ``t``'s version: the entries from this process's copy (:class:`_Cache`)
        with the rows changed since (``seq`` > the copy's version) read again, or all of
        them when there is no copy; the sums from ``t.derived``."""
        key = (t.id, t.created_at)
        snap = self._cache.get(key)
        if snap is None or snap.version != t.version:
            since = snap.version if snap is not None and snap.version < t.version else None
            q = select(*_SHOWN_HAND).where(Hand.table_id == t.id)
            if since is not None:
                q = q.where(Hand.seq > since)
            rows = s.execute(q.order_by(Hand.number)).all()
            olds: dict[int, list] = {}
            revised = [h.id for h in rows if h.revision > 1]
            if revised:
                rev = Revision.__table__
                for r in s.execute(select(*_SHOWN_REVISION).where(rev.c.hand_id.in_(revised))
                                   .order_by(rev.c.hand_id, rev.c.revision)):
                    olds.setdefault(r.hand_id, []).append(r)
            changed = {h.number: _hand_dict(h, olds.get(h.id, [])) for h in rows}
            snap = _Snapshot.after(snap if since is not None else None, t.version,
                                   t.next_number - 1, changed)
            if snap is None:                       # a gap: read every row (never expected)
                return self._doc_full(s, t, editor)
            self._cache.put(key, snap)
        return _table_doc(t, editor, snap)

    def _doc_full(self, s: Session, t: Table, editor: int | None) -> TableDoc:
        self._cache.drop((t.id, t.created_at))
        return self._doc(s, t, editor)


class _LockWait:
    """How long a write may still wait for SQLite's write lock (:meth:`Ledger._run`): the
    ledger's ``busy_timeout_ms``, less what its attempts waited in ``BEGIN IMMEDIATE`` and
    slept between them (the time a write's own work takes is not waiting)."""

    __slots__ = ("left",)

    def __init__(self, ms: int):
        self.left = ms / 1000

    def left_ms(self) -> int:
        return int(self.left * 1000)

    def spend(self, seconds: float) -> None:
        self.left -= seconds


@dataclass(frozen=True)
class Rotated:
    """New links from :meth:`Ledger.rotate`: ``edit_token`` (replacing the one used),
    ``view_token`` (None unless asked for), ``editor`` (whose link it is)."""

    edit_token: str
    view_token: str | None
    editor: int


#: idle connections :meth:`Ledger._probe` keeps (a worker's threads share them)
PROBES_KEPT = 4


def _close(conn) -> None:
    try:
        conn.close()
    except Exception:  # noqa: BLE001 - closing a broken connection
        pass


#: probe connections a forked child inherited: kept, never closed, so that closing them cannot
#: end the parent's session (PostgreSQL) or release its locks (SQLite)
_ABANDONED: list = []

#: the 304 path's one query (:meth:`Ledger._probe`): (version, editor, the hash matched, the
#: table's id); the
#: creator's link and the view link are columns of the table row, a co-scorer's a row of
#: ``ledger_editor`` (a revoked one matches nothing)
_PROBE_SQL = ("SELECT version, 0, edit_hash, id FROM ledger_table WHERE edit_hash = ? "
              "UNION ALL SELECT version, NULL, view_hash, id FROM ledger_table "
              "WHERE view_hash = ? "
              "UNION ALL SELECT t.version, e.number, e.edit_hash, t.id FROM ledger_editor e "
              "JOIN ledger_table t ON t.id = e.table_id "
              "WHERE e.edit_hash = ? AND e.revoked_at IS NULL")


def _carry_bets(value: Any) -> str:
    if value is None:
        return "keep"
    if value not in CARRY_BETS:
        raise _bad("carry_bets", "ledger.carry_bets_bad")
    return value


def _next_dealer(kind: str, result: dict) -> int | None:
    return result["settlement"]["next_dealer"]["seat"] if kind in DEALT else None


@dataclass
class _Derived:
    """What a table's counted entries add up to, kept on its row (``ledger_table.derived``)
    and updated by every write in its transaction: ``totals`` (exact), ``floats`` (counted
    entries with an amount that is not an int: the totals are then written as floats),
    ``counted``, ``dealer`` (who deals next), ``last`` (the last counted entry's number, for
    undo) and ``corrections`` (superseded revisions, all entries)."""

    totals: list[Fraction]
    floats: int
    counted: int
    dealer: int
    last: int | None
    corrections: int

    @classmethod
    def empty(cls, dealer: int) -> _Derived:
        return cls([Fraction(0)] * 4, 0, 0, dealer, None, 0)

    @classmethod
    def of(cls, t: Table) -> _Derived:
        d = t.derived
        return cls([Fraction(x) for x in d["totals"]], d["floats"], d["counted"], d["dealer"],
                   d["last"], d["corrections"])

    def to_json(self) -> dict:
        return {"totals": [str(x) for x in self.totals], "floats": self.floats,
                "counted": self.counted, "dealer": self.dealer, "last": self.last,
                "corrections": self.corrections}

    def count(self, net: list, sign: int) -> None:
        """Add (``sign`` 1) or take out (-1) one counted entry's nets."""
        for i, x in enumerate(net):
            self.totals[i] += sign * exact(x)
        self.floats += sign * (not all_ints(net))
        self.counted += sign


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


def _insertable(h: dict) -> dict:
    return {k: v for k, v in h.items() if not k.startswith("_")}


_dumps = functools.partial(json.dumps, ensure_ascii=False, separators=(",", ":"))


class _Snapshot:
    """One table's entries (H, in number order) at ``version``, as this process last read
    them, and their JSON per language, made when first asked (:meth:`fragment`). Never
    changed once shared: a newer version is a new snapshot (:meth:`after`)."""

    __slots__ = ("version", "hands", "frags", "next_hand_no")

    def __init__(self, version: int, hands: list, frags: dict | None = None,
                 next_hand_no: int = 1):
        self.version = version
        self.hands = hands
        self.frags = frags if frags is not None else {}
        #: the place the next hand played takes (counted hands + 1)
        self.next_hand_no = next_hand_no

    @classmethod
    def after(cls, old: _Snapshot | None, version: int, count: int,
              changed: dict[int, dict]) -> _Snapshot | None:
        """``old`` with the entries in ``changed`` (number → H) replaced or appended;
        None when they leave a gap (then the caller reads every row)."""
        hands = list(old.hands) if old is not None else []
        frags = {lang: list(v) for lang, v in old.frags.items()} if old is not None else {}
        for n in sorted(changed):
            i = n - 1
            if i < len(hands):
                hands[i] = changed[n]
                for v in frags.values():
                    v[i] = None
            elif i == len(hands):
                hands.append(changed[n])
                for v in frags.values():
                    v.append(None)
            else:
                return None
        if len(hands) != count:
            return None
        # hand_no: the place of a counted hand among the hands played (an undone or voided
        # entry and an adjustment have none); a void shifts the later ones, which are then
        # copied with their new place and written again
        n = 0
        for i, h in enumerate(hands):
            no = None
            if h["kind"] in DEALT and h["status"] == "recorded":
                n += 1
                no = n
            if h.get("hand_no", -1) != no:
                hands[i] = {**h, "hand_no": no}
                for v in frags.values():
                    v[i] = None
        return cls(version, hands, frags, n + 1)

    def fragment(self, i: int, lang: str) -> bytes:
        """Entry ``i``'s JSON in ``lang`` (:func:`~webcalc.ledger.texts.hand_in`), UTF-8."""
        per = self.frags.get(lang)
        if per is None:
            per = self.frags.setdefault(lang, [None] * len(self.hands))
        data = per[i]
        if data is None:
            data = per[i] = _dumps(hand_in(self.hands[i], lang)).encode("utf-8")
        return data


NOTIFY_CHANNEL = "webcalc_ledger"
#: tokens :class:`_Versions` keeps, and how long it trusts one without asking the database
VERSIONS_KEPT = 20000
VERSIONS_MAX_AGE = 300.0
#: seconds :meth:`_Versions._barrier` waits for PostgreSQL's answer before it takes the
#: listening connection for dead (and the probe asks the database)
BARRIER_TIMEOUT = 2.0


class _Versions:
    """PostgreSQL: the versions this process's probes read (token hash → version, editor),
    kept until a write anywhere says its table changed. Every write sends ``NOTIFY
    webcalc_ledger, '<table id>'`` in its transaction (:meth:`Ledger._changed`: delivered when
    it commits, to every process on every host); each process LISTENs on a connection of its
    own. A poll answered 304 then runs no query and no transaction in PostgreSQL.

    Reading what has arrived on that connection is not enough: PostgreSQL signals the
    listeners when a write commits, but a listener's server process sends the notice when it
    next runs, which may be after the writer's answer reached the client and the client's
    next poll reached this process (measured: 50 of 300 such polls answered the old version).
    So before it answers from what it keeps, :meth:`get` sends a bare ``Sync`` on the
    listening connection (:meth:`_barrier`: no query, no transaction) and reads up to its
    ``ReadyForQuery``: PostgreSQL sends every notice of a write committed before that
    ``Sync`` arrived ahead of the answer, so every write whose answer the client saw is
    known here before the poll is answered.

    A probe's database read is kept only if no notice for its table (and no gap in listening)
    came after :meth:`get` handed out its ticket, so a read that raced a write is never kept.
    When the listening connection is down (or does not answer within
    :data:`BARRIER_TIMEOUT`), or an entry is older than :data:`VERSIONS_MAX_AGE` seconds, the
    probe asks the database, as on SQLite."""

    def __init__(self, ledger: Ledger):
        self.ledger = ledger
        self.lock = threading.Lock()
        self.conn = None
        self.pid = os.getpid()
        self.by_token: dict[str, tuple[int, int | None, int, float]] = {}
        self.by_table: dict[int, set[str]] = {}
        #: notices read so far (a ticket is this count when it was handed out); the count at
        #: each table's last notice; tickets below ``floor`` are never kept (a gap, a "*")
        self.seq = 0
        self.notified: dict[int, int] = {}
        self.floor = 0

    def _forget(self) -> None:
        self.by_token.clear()
        self.by_table.clear()
        self.notified.clear()
        self.seq += 1
        self.floor = self.seq

    def _down(self) -> None:
        _close(self.conn)
        self.conn = None
        self._forget()

    def _drain(self) -> None:
        """Drop what the notices that have arrived name (without waiting for more)."""
        pg = self.conn.pgconn
        pg.consume_input()
        while True:
            n = pg.notifies()
            if n is None:
                return
            payload = n.extra.decode("ascii", "replace")
            if payload == "*":
                self._forget()
                continue
            table_id = int(payload)
            self.seq += 1
            if len(self.notified) >= VERSIONS_KEPT:
                self.notified.clear()
                self.floor = self.seq
            self.notified[table_id] = self.seq
            for h in self.by_table.pop(table_id, ()):
                self.by_token.pop(h, None)

    def _barrier(self) -> None:
        """A ``Sync`` on the listening connection, and its answer read: every notice of a
        write committed before it is then drained. Raises when the connection is broken or
        silent for :data:`BARRIER_TIMEOUT` seconds."""
        from psycopg import pq

        pg = self.conn.pgconn
        pg.enter_pipeline_mode()
        try:
            pg.pipeline_sync()
            deadline = time.monotonic() + BARRIER_TIMEOUT
            while pg.flush():
                if not _wait(pg.socket, deadline, write=True):
                    raise TimeoutError("listening connection: no answer")
            while True:
                pg.consume_input()
                if not pg.is_busy():
                    res = pg.get_result()
                    if res is None:
                        continue
                    if res.status == pq.ExecStatus.PIPELINE_SYNC:
                        break
                    raise RuntimeError(f"listening connection: {res.status!r}")
                if not _wait(pg.socket, deadline):
                    raise TimeoutError("listening connection: no answer")
        finally:
            try:
                pg.exit_pipeline_mode()
            except Exception:  # noqa: BLE001 - busy after a failure: the caller closes it
                pass
        self._drain()

    def _listening(self) -> bool:
        """Listening (connected now if need be) and the notices that have arrived read;
        False when not listening (then nothing is kept)."""
        if self.pid != os.getpid():                 # forked: the parent's connection is not ours
            if self.conn is not None:
                _ABANDONED.append(self.conn)
            self.conn, self.pid = None, os.getpid()
            self._forget()
        if self.conn is None:
            if not _has_pipeline():                 # libpq < 14: no Sync barrier, keep nothing
                return False
            try:
                conn = self.ledger._probe_connection()
                conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
            except Exception:  # noqa: BLE001 - the database is down: ask it each time
                return False
            self.conn = conn
            self._forget()                          # what changed while no one listened
            return True
        try:
            self._drain()
        except Exception:  # noqa: BLE001 - the connection dropped: forget, listen again later
            self._down()
            return False
        return True

    def get(self, h: str) -> tuple[tuple[int, int | None] | None, int | None]:
        """``(known, ticket)``: ``known`` the ``(version, editor)`` kept for token hash ``h``,
        exact as of now (None: ask the database); ``ticket`` what :meth:`put` needs to keep
        the answer the database gives next (None: it will not be kept)."""
        with self.lock:
            if not self._listening():
                return None, None
            known = self.by_token.get(h)
            if known is None or time.monotonic() - known[3] > VERSIONS_MAX_AGE:
                return None, self.seq
            try:
                self._barrier()
            except Exception:  # noqa: BLE001 - broken or silent: ask the database
                self._down()
                return None, None
            known = self.by_token.get(h)
            if known is None:
                return None, self.seq
            return (known[0], known[1]), None

    def put(self, h: str, table_id: int, version: int, editor: int | None,
            ticket: int | None) -> None:
        """Keep what the database answered for ``h``, unless a notice for its table (or a
        gap in listening) came after ``ticket`` was handed out (the read may predate it)."""
        with self.lock:
            if ticket is None or self.conn is None or self.pid != os.getpid():
                return
            if ticket < self.floor or self.notified.get(table_id, -1) > ticket:
                return
            if len(self.by_token) >= VERSIONS_KEPT:
                self.by_token.clear()
                self.by_table.clear()
            self.by_token[h] = (version, editor, table_id, time.monotonic())
            self.by_table.setdefault(table_id, set()).add(h)

    def drop(self, table_ids) -> None:
        with self.lock:
            for table_id in table_ids:
                if table_id is None:
                    self._forget()
                    return
                self.seq += 1
                self.notified[table_id] = self.seq
                for h in self.by_table.pop(table_id, ()):
                    self.by_token.pop(h, None)

    def close(self) -> None:
        with self.lock:
            if self.conn is not None and self.pid == os.getpid():
                _close(self.conn)
            self.conn = None
            self._forget()


@functools.cache
def _has_pipeline() -> bool:
    """libpq ≥ 14 (pipeline mode, which :meth:`_Versions._barrier` needs)."""
    try:
        from psycopg import pq
    except ImportError:
        return False
    return pq.version() >= 140000


def _wait(sock: int, deadline: float, write: bool = False) -> bool:
    """Wait until ``sock`` is readable (writable), at most until ``deadline``; False if not."""
    left = deadline - time.monotonic()
    if left <= 0:
        return False
    poller = poll()
    poller.register(sock, POLLOUT if write else POLLIN)
    return bool(poller.poll(left * 1000))


class _Cache:
    """The snapshots of the tables this process read last, up to ``max_hands`` entries in
    all (least recently used first out). Keyed by the table's id and creation time (an id
    SQLite gives again after a purge is another table). Every use asks the database for the
    table's version first, so a snapshot is never served stale: another process's write
    shows as a newer version, and only the rows it changed are read."""

    def __init__(self, max_hands: int):
        self.max_hands = max_hands
        self.lock = threading.Lock()
        self.items: OrderedDict = OrderedDict()
        self.size = 0

    def get(self, key) -> _Snapshot | None:
        with self.lock:
            snap = self.items.get(key)
            if snap is not None:
                self.items.move_to_end(key)
            return snap

    def put(self, key, snap: _Snapshot) -> None:
        if len(snap.hands) > self.max_hands:
            return
        with self.lock:
            old = self.items.get(key)
            if old is not None:
                if old.version >= snap.version:
                    return
                self.size -= len(old.hands)
            self.items[key] = snap
            self.items.move_to_end(key)
            self.size += len(snap.hands)
            while self.size > self.max_hands and self.items:
                _k, out = self.items.popitem(last=False)
                self.size -= len(out.hands)

    def drop(self, key) -> None:
        with self.lock:
            old = self.items.pop(key, None)
            if old is not None:
                self.size -= len(old.hands)


class TableDoc(dict):
    """T: a plain dict to every reader (read only: its entries are shared with this
    process's snapshot), which also writes itself as JSON in a reader's language
    (:meth:`json_bytes`) from the entries' JSON the snapshot keeps, so an answer with a
    200-entry table serializes only what changed and joins the rest."""

    __slots__ = ("_snap",)

    def _shared(self) -> _Snapshot | None:
        snap = getattr(self, "_snap", None)
        hands = self["hands"]
        if snap is None or len(snap.hands) != len(hands) or \
                not all(a is b for a, b in zip(snap.hands, hands)):
            return None                    # changed by its reader: written from the dicts
        return snap

    def json_bytes(self, lang: str) -> bytes:
        """T as the UTF-8 JSON of ``table_in(T, lang)`` (compact, as Flask writes JSON)."""
        snap = self._shared()
        head = _dumps({k: v for k, v in self.items() if k != "hands"}).encode("utf-8")
        if snap is None:
            hands = b",".join(_dumps(hand_in(h, lang)).encode("utf-8") for h in self["hands"])
        else:
            hands = b",".join([snap.fragment(i, lang) for i in range(len(snap.hands))])
        return b"".join((head[:-1], b',"hands":[', hands, b"]}"))

    def hand_json(self, number: int, lang: str) -> bytes:
        """Entry ``number``'s UTF-8 JSON in ``lang``."""
        snap = self._shared()
        if snap is not None and 0 < number <= len(snap.hands):
            return snap.fragment(number - 1, lang)
        return _dumps(hand_in(self["hands"][number - 1], lang)).encode("utf-8")


def _table_doc(t: Table, editor: int | None, snap: _Snapshot) -> TableDoc:
    d = _Derived.of(t)
    ints = d.floats == 0 and (d.counted > 0 or _is_int(t.base))
    doc = TableDoc(
        variant=t.variant, options=t.options, base=t.base, names=t.names, dealer=d.dealer,
        first_dealer=t.first_dealer, next_number=t.next_number,
        next_hand_no=snap.next_hand_no, version=t.version,
        access="view" if editor is None else "edit", created_at=_iso(t.created_at),
        updated_at=_iso(t.updated_at), hands=list(snap.hands),
        totals=[number(x, ints) for x in d.totals],
        settle_up=[{"from": a, "to": b, "amount": number(x, ints)}
                   for a, b, x in settle_up(d.totals)],
        carry_bets=t.carry_bets, last_counted=d.last)
    doc._snap = snap
    return doc


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
    dt = dt if dt.tzinfo else dt.replace(tzinfo=UTC)
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


def _result_fields(result: dict) -> dict:
    out = {"settlement": result["settlement"]}
    for key in ("biao", "fan"):
        if key in result:
            out[key] = result[key]
    return out


def _hand_dict(h, olds: list) -> dict:
    """H from a ``ledger_hand`` row and its superseded ``ledger_revision`` rows."""
    out = {"number": h.number, "kind": h.kind, "status": h.status, "verified": h.verified,
           "dealer": h.dealer, "dealer_flag": bool(h.dealer_flag), "editor": h.editor,
           "request": h.request, **_result_fields(h.result),
           "recorded_at": _iso(h.recorded_at), "revision": h.revision}
    if h.revised_at is not None:
        out["revised_at"] = _iso(h.revised_at)
    out["revisions"] = [{"revision": r.revision, "request": r.request,
                         **_result_fields(r.result), "dealer": r.dealer,
                         "verified": r.verified, "editor": r.editor,
                         "recorded_at": _iso(r.recorded_at),
                         "replaced_at": _iso(r.replaced_at)} for r in olds]
    if h.status == "voided":
        out["void_reason"] = h.void_reason if h.void_code is None else str(UNDONE)
        out["void_code"] = h.void_code
        out["voided_at"] = _iso(h.voided_at)
        out["voided_by"] = h.voided_by
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
    if is_free(name):                       # no rule set: nothing to choose
        if spec.get("options") not in (None, {}):
            raise _bad("options", "ledger.free_options")
        options: dict = {}
    elif variant is None:
        raise InputError("unknown_variant", M("ledger.variant"), "variant")
    else:
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
    return FREE if variant is None else variant.name, options, base, names, dealer


def _check_body(body: dict) -> None:
    """The checks of an entry's body that need no engine: its keys, and the settlement's
    presence and winner (:func:`_compute` does the rest)."""
    for key in body:
        if key in ("variant", "options"):
            raise _bad(key, "ledger.table_decides")
    if "points" in body:                    # a free table's hand
        for key in body:
            if key not in POINTS_FIELDS + CONTROL_FIELDS:
                raise _bad(str(key), "request.unknown_key", key=key,
                           known=[*POINTS_FIELDS, "expected_number", "idempotency_key"])
        return
    for key in body:
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


def _hand_request(body: dict, default_dealer: int) -> dict:
    """A hand's body as it is recorded (``request``), before the engine sees it: the hand's
    fields that are given, ``settlement.dealer`` filled in, no tile field without ``hand``."""
    settlement = dict(body["settlement"])
    if settlement.get("dealer") is None:
        settlement["dealer"] = default_dealer
    request = {k: body[k] for k in HAND_FIELDS if body.get(k) is not None}
    request["settlement"] = settlement
    if request.get("hand") in (None, ""):
        request.pop("hand", None)
        for k in TILE_ONLY:
            if request.get(k):
                raise _bad(k, "ledger.tiles_without_hand", key=k)
            request.pop(k, None)
    return request


def _entry_request(t: Table | _Settings, body: dict, default_dealer: int) -> dict:
    """The request :func:`_compute` records for ``body``, without the engine (an adjustment
    is read as it would be, which needs none)."""
    _check_body(body)
    if "adjustment" in body:
        return _adjustment(t, body["adjustment"], default_dealer)[1]
    if "points" in body:
        return points_entry(body, default_dealer)[0]
    return _hand_request(body, default_dealer)


def _compute(t: Table | _Settings, body: dict, default_dealer: int):
    """Validate an entry's body and compute it with the engine.
    Returns ``(kind, request as recorded, result, dealer, verified)``."""
    _check_body(body)
    if "adjustment" in body:
        return _adjustment(t, body["adjustment"], default_dealer)
    if is_free(t.variant) != ("points" in body):   # points are a free table's hands only
        if is_free(t.variant):
            raise InputError("bad_points", M("ledger.points_required"), "points")
        raise _bad("points", "ledger.points_free_only")
    if "points" in body:
        request, result, dealer = points_entry(body, default_dealer)
        return POINTS, request, _stored(result), dealer, True
    request, out, verified = _settle(t, body, default_dealer)
    settlement = request["settlement"]
    settled: dict = {"settlement": out.settlement}
    if out.biao is not None:
        settled["biao"] = out.biao
    if out.fan is not None:
        settled["fan"] = out.fan
    stored = _stored(settled)
    result = {"settlement": stored["settlement"]}
    for key in ("biao", "fan", "messages"):
        if key in stored:
            result[key] = stored[key]
    return "hand", request, result, settlement["dealer"], verified


def _settle(t: Table | _Settings, body: dict, default_dealer: int):
    """A hand's body (checked) through the engine: ``(request as recorded, the engine's
    answer, verified)``, before its messages are rendered for storing."""
    request = _hand_request(body, default_dealer)
    settlement = request["settlement"]
    engine_settlement = {**settlement, "base": t.base}
    if "hand" in request:
        if "declared" in request:
            raise _bad("declared", "ledger.declared_with_hand")
        out = analyze({"variant": t.variant, "options": t.options,
                       **{k: v for k, v in request.items() if k != "settlement"},
                       "settlement": engine_settlement}, advice=False)
        verified = True
    else:
        bare = {"variant": t.variant, "options": t.options, "settlement": engine_settlement}
        for k in ("win_by", "declared"):
            if k in request:
                bare[k] = request[k]
        out = settle_without_tiles(bare)
        verified = settlement["winner"] is None        # a 荒庄 has no tiles to check
    return request, out, verified


def preview(variant: str, options: dict, base: int | float, body: Any,
            dealer: int) -> tuple[list, int | None]:
    """What :meth:`Ledger.record` would store for the hand ``body`` on a table with these
    settings whose next hand ``dealer`` deals (``settlement.dealer`` unset), nothing
    written: the hand's nets and the next dealer, by the same checks and engine call as a
    record (:func:`_compute`, less the rendering of its messages). The table page asks for
    these for the outcomes of a win without tiles and of a 荒庄, so a hand queued without a
    network shows what the server will record (issue 36). Raises :class:`InputError` as a
    record would."""
    _check_body(body)
    if not isinstance(body, dict) or "adjustment" in body:
        raise _bad("adjustment", "bad_request")
    _request, out, _verified = _settle(_Settings(variant, options, base), body, dealer)
    nxt = out.settlement["next_dealer"]
    return list(out.settlement["net"]), None if nxt is None else nxt["seat"]


def _stored(out: dict) -> dict:
    """The engine's answer as the ledger computes it: what was said as message codes
    (``messages``: ``{"payments": [detail], "fan": [{"name", "note"?}]}``, stored apart in
    the ``codes`` column by :func:`_split`, see
    :func:`webcalc.message_json.to_json`), and rendered in both languages: Chinese in
    ``detail`` and the fan's ``name``/``note`` (as entries stored before messages had codes),
    English beside them (``detail_en``, ``name_en``, ``note_en``). The edge shows the reader's
    language (:mod:`.texts`)."""
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
