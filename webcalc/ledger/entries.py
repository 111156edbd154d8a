"""An entry computed: a hand's, a free table's or an adjustment's body checked and run through
the engine (:func:`_compute`), the result as the ledger stores it (rendered in both languages,
its message codes apart: :func:`_stored`, :func:`_split`), and the sums a table keeps of its
counted entries (:class:`_Derived`, the ``ledger_table.derived`` column).

Every amount the ledger stores comes from here: :func:`_settle` calls
:func:`webcalc.analysis.analyze` for a hand with tiles and
:func:`webcalc.analysis.settle_without_tiles` for one without; :func:`preview` is the same
computation with nothing written (the table page's outcomes). No database here.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..analysis import Analysis, SettledWithoutTiles, analyze, settle_without_tiles
from ..catalogue import localize
from ..errors import InputError
from ..message_json import to_json
from ..messages import M
from ..settlement import SEAT_NAMES, fmt
from .checks import (
    ADJUSTMENT_PAYMENTS_MAX,
    DEALT,
    HAND_FIELDS,
    NOTE_MAX,
    TILE_ONLY,
    _amount,
    _bad,
    _check_body,
    _is_int,
    _seat,
    _text_ok,
)
from .models import Table
from .money import all_ints, exact, number
from .points import POINTS, is_free, points_entry


@dataclass(frozen=True)
class _Settings:
    """What computing an entry needs of its table (a :class:`Table` row has the same)."""

    variant: str
    options: dict
    base: int | float


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
        assert d is not None                    # every table row has it (migration 0003)
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


def _split(result: dict) -> tuple[dict, dict | None]:
    """A computed result as stored: what the answers show (``result``), and its message
    codes apart (the ``codes`` column, which reading a table never decodes)."""
    return {k: v for k, v in result.items() if k != "messages"}, result.get("messages")


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
    out: Analysis | SettledWithoutTiles
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


def _adjustment(t: Table | _Settings, raw: Any, dealer: int):
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
        payments: list[dict[str, Any]] = []
        clean: list[dict[str, Any]] = []
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
        request: dict[str, Any] = {"adjustment": {"payments": clean, "note": note}}
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
