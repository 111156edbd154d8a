"""PostgreSQL: the versions the polls' probes read, kept per process until a write anywhere
says its table changed (LISTEN/NOTIFY, and a libpq ``Sync`` barrier before each answer from
what is kept), so a poll answered 304 runs no query (:class:`_Versions`). On SQLite there is
none: each probe is one indexed query (:meth:`webcalc.ledger.storage.Storage._probe`).

What it buys, measured (``python bench/ledger_caches.py --repeats 15 --polls 40``,
2026-12-06 13:09 UTC, commit d6ed70a, PostgreSQL 15, 2 loaded cores: versions on against
``ledger._versions = None``, interleaved poll by poll, medians of 600 polls answered 304 per
path): the app process's CPU per poll 0.32 against 0.49 ms for ``GET /t/<view>/live`` and
0.28 against 0.45 ms for ``GET /api/v1/tables/<view>`` (33 %, 37 % saved; 24 % and 22 % in
the first run, commit a6fde1c), and PostgreSQL's CPU per poll (its server processes of the
app's connections, from ``/proc``) 0.025 against 0.117 ms (79 % saved; 0.025 against 0.100
in the first run). Over 10 % of its path on both sides: it stays (issue 37.2).
"""

from __future__ import annotations

import functools
import os
import threading
import time
from select import POLLIN, POLLOUT, poll
from typing import TYPE_CHECKING, Any

from . import db

if TYPE_CHECKING:
    import psycopg

    from .storage import Storage

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

    def __init__(self, ledger: Storage):
        self.ledger = ledger
        self.lock = threading.Lock()
        self.conn: psycopg.Connection[Any] | None = None
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
        db.close_quietly(self.conn)
        self.conn = None
        self._forget()

    def _drain(self) -> None:
        """Drop what the notices that have arrived name (without waiting for more)."""
        assert self.conn is not None                # listening (:meth:`_listening`)
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

        assert self.conn is not None                # listening (:meth:`_listening`)
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
                db.ABANDONED.append(self.conn)
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
                db.close_quietly(self.conn)
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
