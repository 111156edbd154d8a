"""What the ledger accepts: the fields of a table, an entry and the settings, the bounds of
every text and number, and the caps (docs/LEDGER.md "Limits"), checked without the engine.

* the field lists and bounds (:data:`TABLE_FIELDS`, :data:`HAND_FIELDS`, :data:`NAME_MAX`,
  :data:`KEY_SHAPE` …) and the default caps of :class:`~webcalc.ledger.service.Ledger`
  (:data:`HANDS_MAX` …);
* the checks of a table's settings (:func:`_table_spec`, :func:`_carry_bets`), of an entry's
  body before the engine sees it (:func:`_check_body`), of a void reason, an amount, a seat;
  each raises :class:`~webcalc.errors.InputError` ``bad_request`` naming its field
  (:func:`_bad`);
* :class:`Limits`, the part of the ledger that holds its caps: the :class:`TooMany` each one
  raises, an import's caps read from the lengths of its lists and its CPU deadline, and the
  hourly cap on tables per address (:meth:`Limits._rate_limit`, one query in the creating
  transaction).
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import re
import secrets
import time
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select, text
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from ..errors import InputError
from ..messages import M, Message, seat
from ..options import parse_options
from ..settlement import BASE_DECIMALS, MAX_BASE, MAX_DECIMAL_BASE, amount_problem
from ..variants import VARIANTS
from . import db
from .errors import RateLimited, TooMany
from .models import Creation
from .points import FREE, POINTS, POINTS_FIELDS, is_free

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


def fresh_key() -> str:
    """A new idempotency key for an entry form: 16 URL-safe characters (96 random bits), of
    :data:`KEY_SHAPE`."""
    return secrets.token_urlsafe(12)
ADJUSTMENT_PAYMENTS_MAX = 12
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


def _bad(field: str, code: str, **params: Any) -> InputError:
    return InputError("bad_request", Message(code, params), field)


def _text_ok(text: str) -> bool:
    """Printable, so storable: control characters and lone surrogates (JSON ``"\\ud800"``,
    which no database can encode) are not printable."""
    return text.isprintable()


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


class Limits:
    """The caps of a :class:`~webcalc.ledger.service.Ledger` (set by its constructor) and
    what each one raises past it."""

    engine: Engine
    hands_max: int
    revisions_max: int
    corrections_max: int
    import_computations_max: int
    import_cpu_max: float
    tables_per_hour: int

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

    def _too_many_entries(self, field: str | None = None) -> TooMany:
        return TooMany(M("ledger.table_full", n=self.hands_max), "entries_per_table",
                       self.hands_max, field)

    def _too_many_revisions(self, field: str | None = None) -> TooMany:
        return TooMany(M("ledger.revisions_full", n=self.revisions_max - 1),
                       "revisions_per_entry", self.revisions_max, field)

    def _too_many_corrections(self, field: str | None = None) -> TooMany:
        return TooMany(M("ledger.corrections_full", n=self.corrections_max),
                       "corrections_per_table", self.corrections_max, field)

    def _import_deadline(self) -> float | None:
        """The CPU time (:func:`time.thread_time`) an import starting now must have computed
        its entries by (:attr:`import_cpu_max`; ``None``: no limit)."""
        return time.thread_time() + self.import_cpu_max if self.import_cpu_max > 0 else None

    def _too_costly(self, field: str) -> TooMany:
        """An import whose entries took more than :attr:`import_cpu_max` of CPU: refused as
        asking the engine for too much (docs/LEDGER.md "Limits"), with the same ``detail``
        as the computations cap."""
        return self._too_many_computations(field, circle=field.startswith("tables["))

    def _import_caps(self, data: Any) -> int:
        """Step 2 of an import (:meth:`webcalc.ledger.transfer.Transfer._import`):
        :class:`TooMany` when the document holds more than the caps allow, read from the
        lengths of its lists (what is not a list here is reported by :meth:`_import_plan`).
        Returns the engine computations the table asks for: its entries plus their older
        revisions (:attr:`import_computations_max`)."""
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


def _carry_bets(value: Any) -> str:
    if value is None:
        return "keep"
    if value not in CARRY_BETS:
        raise _bad("carry_bets", "ledger.carry_bets_bad")
    return value


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


def table_base(base: Any) -> int | float:
    """A table's 底分 as given (None: the default 1); raises :class:`InputError` on the field
    ``base`` when it is no amount a base may be (:func:`webcalc.settlement.amount_problem`).
    The pages ask it beside their other fields, so that its error shows with theirs."""
    if base is None:
        return 1
    problem = amount_problem(base)
    if problem == "decimals":
        raise InputError("bad_settlement", M("ledger.base_decimals", d=BASE_DECIMALS,
                                             max=MAX_DECIMAL_BASE), "base")
    if problem is not None:
        raise InputError("bad_settlement", M("ledger.base_bad", max=MAX_BASE), "base")
    return base


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
    base = table_base(spec.get("base", 1))
    if variant is None and base != 1:       # no rule set: nothing multiplies a base
        raise _bad("base", "ledger.free_base")
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
