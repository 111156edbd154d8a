"""The ledger's storage: transactions, the tables' rows read and written, the polls' probe.

* :meth:`Storage._run`: one transaction (a write one, or a REPEATABLE READ snapshot on
  PostgreSQL), retried on a locked or dropped database, :class:`~webcalc.ledger.errors.Busy`
  past SQLite's lock wait (:class:`_LockWait`, docs/LEDGER.md "Storage");
* :meth:`Storage._find`: the table a token opens and the editor it is;
* :meth:`Storage._probe`: ``(version, editor)`` in one indexed query on a connection of its
  own (the polls' 304 path), or none on PostgreSQL while :mod:`.versions` knows the answer;
* :meth:`Storage._doc`: T read from this process's snapshot (:mod:`.snapshots`) and the rows
  changed since; :meth:`Storage._rechain`: the dealer flags after a change of dealer;
  :meth:`Storage._insert_imported`: an import's rows in bulk; :meth:`Storage._changed`: the
  NOTIFY that tells every process a table changed.
"""

from __future__ import annotations

import hmac
import os
import threading
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any, Literal, TypeVar, cast, overload

from sqlalchemy import Table as CoreTable
from sqlalchemy import bindparam, insert, or_, select, text
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session

from ..messages import M
from . import db
from .checks import DEALT, Limits, _is_int
from .entries import _Derived
from .errors import Busy, NotFound, ReadOnly
from .models import Editor, Hand, Revision, SerializedJSON, Table
from .snapshots import TableDoc, _Cache, _Snapshot, _table_doc
from .texts import UNDONE
from .tokens import TOKEN_SHAPE, _iso, token_hash
from .versions import NOTIFY_CHANNEL, _Versions

R = TypeVar("R")
ATTEMPTS = 3


class Storage(Limits):
    """The database half of :class:`~webcalc.ledger.service.Ledger`: its engine, its
    transactions, the probe's connections, the snapshot cache and (PostgreSQL) the versions
    cache. Arguments as :class:`~webcalc.ledger.service.Ledger`'s."""

    def __init__(self, url: str, *, busy_timeout_ms: int, migrate_lazily: bool,
                 migrate_in_subprocess: bool, cache_hands: int):
        self.engine = db.make_engine(url, busy_timeout_ms)
        self.busy_timeout_ms = busy_timeout_ms
        self.migrate_in_subprocess = migrate_in_subprocess
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
                db.close_quietly(self._probes.pop())
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

    # -- tokens and the probe -------------------------------------------------------------
    @overload
    def _find(self, s: Session, token: Any, *, write: Literal[True]) -> tuple[Table, int]: ...
    @overload
    def _find(self, s: Session, token: Any, *, write: bool) -> tuple[Table, int | None]: ...
    def _find(self, s: Session, token: Any, *, write: bool) -> tuple[Table, int | None]:
        """The table ``token`` opens and the editor it is (0 the creator, 1… a co-scorer,
        None for the view token: never for a write, which it refuses with
        :class:`ReadOnly`). A write locks the table's row (PostgreSQL)."""
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
            db.ABANDONED.extend(self._probes)
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
                db.close_quietly(conn)
                if attempt == 1:
                    raise Busy(M("ledger.db_busy")) from err
                continue
            if len(self._probes) < PROBES_KEPT:
                self._probes.append(conn)
            else:
                db.close_quietly(conn)
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
        assert dbapi is not None                # a connection just checked out is open
        conn.detach()                         # out of the pool: this thread's alone
        if db.is_sqlite(self.engine):
            dbapi.isolation_level = None
        else:
            dbapi.autocommit = True
        return dbapi

    # -- rows -----------------------------------------------------------------------------
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
        hand = cast(CoreTable, Hand.__table__)
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

    @staticmethod
    def _insert_imported(s: Session, table_id: int, hands: list, revisions: list) -> None:
        """Step 6 of an import (:meth:`webcalc.ledger.transfer.Transfer._import`): the rows
        of one imported table, in bulk."""
        if hands:
            s.execute(_INSERT_HAND, [{**_insertable(h), "table_id": table_id} for h in hands])
        if revisions:
            ids = dict(s.execute(select(Hand.number, Hand.id)
                                 .where(Hand.table_id == table_id)).all())
            s.execute(_INSERT_REVISION, [
                {**{k: v for k, v in r.items() if k != "number"}, "hand_id": ids[r["number"]]}
                for r in revisions])


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


#: idle connections :meth:`Ledger._probe` keeps (a worker's threads share them)
PROBES_KEPT = 4


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


def _touch(t: Table, now: datetime) -> None:
    t.version += 1
    t.updated_at = now


def _insertable(h: dict) -> dict:
    return {k: v for k, v in h.items() if not k.startswith("_")}


def _inserts():
    """The two bulk inserts of an import: JSON columns bound as the text already made."""
    hand, rev = cast(CoreTable, Hand.__table__), cast(CoreTable, Revision.__table__)
    def values():
        return {c: bindparam(c, type_=SerializedJSON()) for c in ("request", "result", "codes")}
    return insert(hand).values(**values()), insert(rev).values(**values())


_INSERT_HAND, _INSERT_REVISION = _inserts()
#: the columns a table's read takes: all but ``codes``, which no answer shows
_SHOWN_HAND = [c for c in Hand.__table__.c if c.name != "codes"]
_SHOWN_REVISION = [c for c in Revision.__table__.c if c.name != "codes"]


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
