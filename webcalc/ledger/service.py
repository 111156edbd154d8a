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
deals the next hand, the variant's next_dealer from the last counted hand), "first_dealer",
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
a link is replaced, kept sealed with each edit link (:func:`.tokens._seal`: XOR with an HMAC of that
link); only the tokens' SHA-256 is stored, so a copied database grants no access; the stored
hash is compared with :func:`hmac.compare_digest`.

Cost: a write reads its own entry, updates the table's kept sums (``ledger_table.derived``),
and answers from what this process keeps of the table (:mod:`.snapshots`), reading only the
rows changed since (``seq``): the same at entry 200 as at entry 1. :meth:`version` is one
indexed query (PostgreSQL: none while no write has been notified, :mod:`.versions`).
SQLite writes take the write lock up front (``BEGIN IMMEDIATE``) and wait on a busy timeout
that bounds all of a write's waiting, its retries included; a lock held past it is reported as
``Busy``, never as a crash. Commits are
durable (``synchronous=FULL``) before a method returns.

Modules: this one holds the operations (and re-exports what the web layer takes from the
ledger: the default caps, :func:`preview`); below it, one job each: :mod:`.checks` (fields,
bounds and caps, checked without the engine; the hourly cap), :mod:`.entries` (an entry
through the engine, as stored; the kept sums), :mod:`.storage` (transactions, queries, the
polls' probe, T read), :mod:`.snapshots` and :mod:`.versions` (the two caches, each with what
it buys), :mod:`.transfer` (export and import), :mod:`.circles`. ``Ledger`` is
``Ledger(CircleMixin, Transfer)``, ``Transfer(Storage)``, ``Storage(Limits)``.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from ..errors import InputError
from ..messages import M
from . import db
from .checks import (
    CIRCLE_FIELDS,
    CONTROL_FIELDS,
    CORRECTIONS_MAX,
    DEALT,
    EDITORS_MAX,
    HANDS_MAX,
    IMPORT_CPU_MAX,
    KEY_MAX,
    KEY_SHAPE,
    REVISIONS_MAX,
    SETTING_FIELDS,
    _bad,
    _carry_bets,
    _check_body,
    _is_int,
    _reason,
    _table_spec,
)
from .circles import IMPORT_COMPUTATIONS_MAX, CircleMixin, apply_seats
from .entries import (
    _compute,
    _Derived,
    _entry_request,
    _next_dealer,
    _same_result,
    _split,
    preview,  # noqa: F401 - the web layer's door to a hand's outcome
)
from .errors import (
    BadKey,
    Conflict,
    IdempotencyConflict,
    NotFound,
    NotOwner,
    ReadOnly,
    TooMany,
    Voided,
)
from .models import Creation, Editor, Hand, Revision, Table, utcnow
from .snapshots import CACHE_HANDS, TableDoc, _dumps
from .storage import _touch
from .texts import hand_in, table_in
from .tokens import (  # noqa: F401 - view_token_of, token_hash: part of this module's API
    TOKEN_BYTES,
    _iso,
    _seal,
    _unseal,
    token_hash,
    view_token_of,
)
from .transfer import Transfer


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


class Ledger(CircleMixin, Transfer):
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
            included (:meth:`~.storage.Storage._run`), before it is :class:`Busy`.
        migrate_in_subprocess: :meth:`migrate` runs Alembic in a child process
            (:func:`webcalc.ledger.db.upgrade_in_subprocess`), so it never loads in this one
            (the app's server processes).
        cache_hands: entries this process keeps of the tables it read last (:mod:`.snapshots`;
            0: none, every read decodes the whole table).
    """

    def __init__(self, url: str, *, hands_max: int = HANDS_MAX, revisions_max: int = REVISIONS_MAX,
                 corrections_max: int = CORRECTIONS_MAX, editors_max: int = EDITORS_MAX,
                 import_computations_max: int = IMPORT_COMPUTATIONS_MAX,
                 import_cpu_max: float = IMPORT_CPU_MAX,
                 tables_per_hour: int = 30, migrate_lazily: bool = False,
                 busy_timeout_ms: int = db.BUSY_TIMEOUT_MS,
                 migrate_in_subprocess: bool = False, cache_hands: int = CACHE_HANDS):
        super().__init__(url, busy_timeout_ms=busy_timeout_ms, migrate_lazily=migrate_lazily,
                         migrate_in_subprocess=migrate_in_subprocess, cache_hands=cache_hands)
        self.hands_max = hands_max
        self.revisions_max = revisions_max
        self.corrections_max = corrections_max
        self.editors_max = editors_max
        self.import_computations_max = import_computations_max
        self.import_cpu_max = import_cpu_max
        self.tables_per_hour = tables_per_hour

    # -- reading --------------------------------------------------------------------------
    def table(self, token: str) -> TableDoc:
        """The table T (see the module docstring) by either token."""
        def work(s):
            t, editor = self._find(s, token, write=False)
            return self._doc(s, t, editor)
        return self._run(work, write=False)

    def payment_codes(self, token: str) -> dict[int, list]:
        """Each entry's payment details as the message codes stored beside their text
        (``{number: [detail, …]}``, in the order of its payments; an entry stored before
        codes were kept is left out): for a reader that renders them otherwise than the
        stored text, such as the CSV export naming the players (one query, the ``codes``
        column that reading a table leaves deferred)."""
        def work(s):
            t, _editor = self._find(s, token, write=False)
            rows = s.execute(select(Hand.number, Hand.codes).where(Hand.table_id == t.id))
            return {r.number: r.codes["payments"] for r in rows
                    if isinstance(r.codes, dict) and isinstance(r.codes.get("payments"), list)}
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
        circle_token: Any = None                 # as the user gave it (checked with the circle)
        players = None
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
                assert nxt is not None           # a hand played says who deals next
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

    # -- export and import (:mod:`.transfer`) ---------------------------------------------
    def import_table(self, data: Any, *, address: str | None = None,
                     raw: bytes | None = None) -> Created:
        """A new table (new tokens) from an :meth:`export_table` document, every revision of
        every entry computed again by the engine; the steps, the checks and the errors are
        :meth:`webcalc.ledger.transfer.Transfer._import`'s."""
        edit_token, view_token = self._import(data, address=address, raw=raw)
        return Created(self.table(edit_token), edit_token, view_token)

    # -- upkeep ---------------------------------------------------------------------------
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


@dataclass(frozen=True)
class Rotated:
    """New links from :meth:`Ledger.rotate`: ``edit_token`` (replacing the one used),
    ``view_token`` (None unless asked for), ``editor`` (whose link it is)."""

    edit_token: str
    view_token: str | None
    editor: int
