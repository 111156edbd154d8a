"""Settlement: who pays whom, how much, and which rule made each number (RULES C-10, C-11,
C-14, C-15); what every rule set shares.

:func:`settle` validates the request's ``settlement`` object (C-15), asking the variant which
fields it uses, and hands a :class:`Table` to the variant's own payments
(:meth:`webcalc.variants.base.Variant.payments`: each rule set's payment rules are in its
variant module) and returns a :class:`SettlementResult`: the payments, the net per seat
(summing to zero, C-11) and, where a settlement changes them, the variant's 表 count and 番
list. Nothing here names a rule set
(docs/decisions.md, "One home per rule set"); this package imports no variant, the variants
import it.

Amounts keep the type of the base: an int base gives ints, a float base (0.5) floats.
Readings chosen where RULES.md is silent are written in ``docs/settlement.md``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Generic, TypeGuard

from ..errors import (
    BadSettlementError,
    BadWinByError,
    InputError,
    NotCompleteError,
    WrongTileCountError,
)
from ..messages import Joined, Message
from ..messages import seat as seat_name
from ..options import OptionsT

if TYPE_CHECKING:
    from ..variants.base import Judgement, Situation, Variant

SEAT_NAMES = tuple(seat_name(i) for i in range(4))        # 东家 南家 西家 北家
ITEMS = ("win", "kong", "follow_dealer", "draw_penalty")
KONG_TYPES = ("exposed", "added", "concealed", "wildcard")
KONG_LABELS = {k: Message(f"kong.{k}") for k in KONG_TYPES}   # 明杠 补杠 暗杠 混杠
FIELDS = ("base", "dealer", "winner", "discarder", "pao", "jiagang", "ready", "kongs",
          "biao_discards", "follow_dealer", "duanmen", "kong_discard")
FIELD_LABELS = {f: Message(f"sfield.{f}") for f in FIELDS}     # 底分 庄家 胡牌者 点炮者 …
MAX_BASE = 10 ** 9          # docs/settlement.md: a sanity cap, not a rule
#: A base (or a ledger amount) with a fractional part has at most this many decimal places and
#: is at most MAX_DECIMAL_BASE, so every amount (base × a whole number of units), net and sum
#: stays an exact decimal of at most 15 significant digits, which a float holds exactly
#: (docs/settlement.md). A whole number may go up to MAX_BASE.
BASE_DECIMALS = 4
MAX_DECIMAL_BASE = 10 ** 6
MAX_KONGS = 16              # four players, at most four kongs each
#: at most this many wildcards discarded while in the any-tile wait (the other three of the
#: four), so 表 is at most 1 + this; the field's range whatever the variant (the rule that
#: counts them is its variant's)
MAX_BIAO_DISCARDS = 3
SELF_DRAWN = frozenset({"self_draw", "kong_replacement"})   # C-14: 杠上开花 is a self-draw
DECIMALS = 10               # float amounts are rounded to this many decimal places


# -- values ------------------------------------------------------------------------------

def fmt(x: int | float) -> str:
    """A number as the detail texts print it; ``float(fmt(x)) == x`` always."""
    if isinstance(x, float) and x.is_integer() and abs(x) < 1e15:
        return str(int(x))
    return repr(x) if isinstance(x, float) else str(x)


@dataclass(frozen=True)
class Payment:
    """One payment ``payer`` → ``payee``.

    Attributes:
        payer, payee: seats 0-3, never equal (C-11).
        amount: a positive number in points (底 × factors).
        item: one of :data:`ITEMS`.
        rule: the rule id that produced the number (its variant's, or ``"C-…"``).
        detail: a :class:`~webcalc.messages.Message` with the arithmetic as parameters
            (``pay.detail``: ``text = amount（rule ids）``).
    """

    payer: int
    payee: int
    amount: int | float
    item: str
    rule: str
    detail: Message

    def __post_init__(self) -> None:
        assert self.payer != self.payee and self.item in ITEMS and self.amount > 0, self

    def to_dict(self) -> dict[Any, Any]:
        return {"from": self.payer, "to": self.payee, "amount": self.amount,
                "item": self.item, "detail": self.detail, "rule": self.rule}


@dataclass(frozen=True)
class Settlement:
    """The payments of one hand and the net per seat (C-11: the net sums to zero)."""

    payments: tuple[Payment, ...]
    net: tuple[int | float, ...]

    @classmethod
    def of(cls, payments: list[Payment]) -> Settlement:
        exact = [Fraction(0)] * 4
        for p in payments:
            # a float amount is read as the decimal it prints as (0.3, not its binary value)
            amount = Fraction(repr(p.amount)) if isinstance(p.amount, float) else Fraction(p.amount)
            exact[p.payer] -= amount
            exact[p.payee] += amount
        assert sum(exact) == 0, "C-11: the net of a settlement sums to zero"
        ints = all(isinstance(p.amount, int) for p in payments)
        net = tuple(int(n) if ints else float(n) for n in exact)
        return cls(tuple(payments), net)

    def to_dict(self) -> dict[Any, Any]:
        return {"payments": [p.to_dict() for p in self.payments], "net": list(self.net)}


@dataclass(frozen=True)
class Kong:
    """One kong at the table: ``seat`` konged; ``supplier`` gave the tile (exposed: the
    discarder; added: whoever supplied the ponged tile), or ``None``."""

    seat: int
    type: str
    supplier: int | None = None


@dataclass
class Table(Generic[OptionsT]):
    """The validated settlement input plus what the variant modules need of the hand:
    ``options`` is the room's, of the variant's own options type (``OptionsT``)."""

    variant: Variant[OptionsT]
    options: OptionsT
    base: int | float
    dealer: int
    winner: int | None
    discarder: int | None
    win_by: str
    pao: tuple[int, ...]
    jiagang: tuple[bool, ...]
    ready: tuple[bool, ...]
    kongs: tuple[Kong, ...]
    biao_discards: int
    follow_dealer: bool
    duanmen: bool
    kong_discard: bool
    sit: Situation[OptionsT] | None = None
    judgement: Judgement | None = None
    #: for a win recorded without its tiles: the factors the tiles would decide, as each
    #: variant module's ``parse_declared`` returned them (:func:`settle_declared`)
    declared: dict[Any, Any] | None = None

    @property
    def self_drawn(self) -> bool:
        """C-14: 杠上开花 counts as a self-draw."""
        return self.win_by in SELF_DRAWN

    def others(self, seat: int) -> list[int]:
        return [s for s in range(4) if s != seat]

    @property
    def losers(self) -> list[int]:
        assert self.winner is not None, "asked only of a win"
        return self.others(self.winner)


@dataclass
class SettlementResult:
    """What :func:`settle` adds to the analysis response."""

    settlement: Settlement
    biao: int | None = None
    fan: list[dict[Any, Any]] | None = None
    next_dealer: tuple[int, str] | None = None
    #: what the settlement as a whole notes, ``{"rule", "message"}`` (a variant's: where the
    #: seed's worked examples would give another number); ``settlement.notes`` when any
    notes: list[dict[Any, Any]] | None = None

    def fields(self) -> dict[Any, Any]:
        out: dict[str, Any] = {"settlement": self.settlement.to_dict()}
        if self.next_dealer is not None:
            seat, rule = self.next_dealer
            out["settlement"]["next_dealer"] = {"seat": seat, "rule": rule}
        if self.notes:
            out["settlement"]["notes"] = list(self.notes)
        if self.biao is not None:
            out["biao"] = self.biao
        if self.fan is not None:
            out["fan"] = self.fan
        return out


def pay(payer: int, payee: int, amount: int | float, item: str, rule: str, text: Message,
        cites: tuple[str, ...] | None = None) -> Payment:
    """A payment whose detail is ``text = amount（cites or rule）``. A float amount (a
    decimal base such as 0.1) is rounded to 10 decimal places, so 0.1 × 3 is 0.3, not
    0.30000000000000004. (What the settlement as a whole notes is ``SettlementResult.notes``,
    not a payment's.)"""
    if isinstance(amount, float):
        amount = round(amount, DECIMALS)
    rules = Joined(cites or (rule,))
    detail = Message("pay.detail", text=text, amount=fmt(amount), rules=rules, rule=rule)
    return Payment(payer, payee, amount, item, rule, detail)


def kong_payers(t: Table, k: Kong) -> list[int]:
    """Who pays for a kong where the supplier pays (``Variant.kong_supplier_rule``): every
    other player for a 暗杠, else the one who supplied the tile (明杠: the discarder; 补杠:
    the ponged tile)."""
    if k.type == "concealed":
        return t.others(k.seat)
    assert k.supplier is not None, "C-15: where the supplier pays, a kong names it"
    return [k.supplier]


def flat_kong_payments(t: Table, units_by_type: dict[str, int], rule: str) -> list[Payment]:
    """Kongs every other player pays for, a fixed number of 底 by kong type (the variant's
    ``units_by_type``, cited as ``rule``):
    never multiplied by anything else."""
    out = []
    for k in t.kongs:
        units = units_by_type[k.type]
        for payer in t.others(k.seat):
            text = Message("pay.line", who=Message("pay.who", seat=SEAT_NAMES[k.seat],
                                                   how=KONG_LABELS[k.type]),
                           formula=Message("pay.base_times", base=fmt(t.base), n=units))
            out.append(pay(payer, k.seat, t.base * units, "kong", rule, text))
    return out


#: a meld type of the request (API.md) → the kong type of ``settlement.kongs``
MELD_KONG_TYPES: dict[Any, str] = {"kong": "exposed", "added_kong": "added", "concealed_kong": "concealed"}


def kongs_of_melds(variant: Variant[OptionsT], opts: OptionsT, melds: list[dict[Any, Any]],
                   seat: int,
                   indicator: str | None = None) -> list[dict[Any, Any] | None]:
    """The ``settlement.kongs`` entries for the kongs among one seat's melds (API meld
    dicts), one per meld (``None`` for a meld that is no kong): 明杠/补杠 keep the meld's
    ``from`` when given; four wildcard tiles as a 暗杠 are a 混杠 where the room has one
    (the variant's ``kong_types``). A form uses this so the winner's melded kongs need no
    second entry; the API itself still reckons kong money from ``settlement.kongs`` alone (C-15)."""
    from ..tiles import parse_tiles

    wild: tuple[Any, ...] = ()
    if "wildcard" in variant.kong_types(opts) and indicator:
        try:
            tiles = parse_tiles(indicator)
            wild = variant.wildcards(opts, tiles[0]) if len(tiles) == 1 else ()
        except InputError:
            wild = ()
    out: list[dict[Any, Any] | None] = []
    for m in melds:
        typ = MELD_KONG_TYPES.get(m.get("type"))
        if typ is None:
            out.append(None)
            continue
        k: dict[Any, Any] = {"seat": seat, "type": typ}
        if typ == "concealed":
            try:
                kinds = set(parse_tiles(m.get("tiles") or ""))
            except InputError:
                kinds = set()
            if wild and kinds and kinds <= set(wild):
                k["type"] = "wildcard"
        elif m.get("from") is not None:
            k["from"] = m["from"]
        out.append(k)
    return out


# -- validation (C-15) ---------------------------------------------------------------------

def _bad(name: str, code: str, **params: Any) -> InputError:
    return BadSettlementError(Message("s.field_error", field=FIELD_LABELS.get(name, name),
                                      text=Message(code, params)),
                              f"settlement.{name}")


def _is_int(v: Any) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


def _seat(raw: dict[Any, Any], name: str, required: bool) -> int | None:
    v = raw.get(name)
    if v is None:
        if required:
            raise _bad(name, "s.seat_required")
        return None
    if not _is_int(v) or not 0 <= v <= 3:
        raise _bad(name, "s.seat_bad")
    return v


def amount_problem(v: Any, maximum: int | float = MAX_BASE) -> str | None:
    """Why ``v`` cannot be a base or an amount, or None: ``"type"`` (not a number),
    ``"range"`` (not above 0, or a whole number above ``maximum``), ``"decimals"`` (more than
    :data:`BASE_DECIMALS` decimal places, or a fractional number above
    :data:`MAX_DECIMAL_BASE`; 1e-300 has 300)."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return "type"
    if isinstance(v, float) and not math.isfinite(v) or not 0 < v <= maximum:
        return "range"
    if isinstance(v, int) or v.is_integer():
        return None
    if v > MAX_DECIMAL_BASE:
        return "decimals"
    exponent = Decimal(repr(v)).as_tuple().exponent        # an int: v is finite
    if -int(exponent) > BASE_DECIMALS:
        return "decimals"
    return None


def _base(raw: dict[Any, Any]) -> int | float:
    v = raw.get("base", 1)
    if v is None:
        v = 1
    problem = amount_problem(v)
    if problem == "type":
        raise _bad("base", "s.base_bad")
    if problem == "range":
        raise _bad("base", "s.base_range", max=MAX_BASE)
    if problem == "decimals":
        raise _bad("base", "s.base_decimals", d=BASE_DECIMALS, max=MAX_DECIMAL_BASE)
    base: int | float = v             # a number: amount_problem said so
    return base


def _four(raw: dict[Any, Any], name: str, check: Callable[[Any], bool], what: str,
          default: Any) -> tuple[Any, ...]:
    v = raw.get(name)
    if v is None:
        return (default,) * 4
    if not isinstance(v, list) or len(v) != 4 or not all(check(x) for x in v):
        raise _bad(name, what)
    return tuple(v)


def _flag(raw: dict[Any, Any], name: str) -> bool:
    v = raw.get(name, False)
    if v is None:
        return False
    if not isinstance(v, bool):
        raise _bad(name, "s.bool")
    return v


def _pao(raw: dict[Any, Any], variant: Variant[OptionsT], opts: OptionsT) -> tuple[int, ...]:
    pao = _four(raw, "pao", lambda x: _is_int(x) and x >= 0, "s.four_ints", 0)
    limit, why = variant_pao_max(variant, opts)
    if max(pao) > limit:
        if isinstance(why, Message):        # none at all, and why (a 郑州 pao_max 0 is a cap)
            raise _bad("pao", why.code, **why.params)
        raise _bad("pao", "s.pao_max", limit=limit, rule_id=why)
    return pao


def variant_pao_max(variant: Variant[OptionsT], opts: OptionsT) -> tuple[int, str | Message]:
    """The largest 跑 a seat may have, and the rule that says so (C-15, the variant's); for
    none, the message saying why: :meth:`~webcalc.variants.base.Variant.pao_max`."""
    return variant.pao_max(opts)


def settlement_fields(variant: Variant[OptionsT], opts: OptionsT) -> frozenset[str]:
    """The ``settlement`` fields this variant uses under these room options — what a form
    should offer: :meth:`~webcalc.variants.base.Variant.settlement_fields`. Any other field
    is accepted only at its neutral value (0, false, none)."""
    return variant.settlement_fields(opts)


def kong_types(variant: Variant[OptionsT], opts: OptionsT) -> tuple[str, ...]:
    """The kong types of :data:`KONG_TYPES` this variant allows:
    :meth:`~webcalc.variants.base.Variant.kong_types`."""
    return variant.kong_types(opts)


def _kongs(raw: dict[Any, Any], variant: Variant[OptionsT], opts: OptionsT) -> tuple[Kong, ...]:
    v = raw.get("kongs")
    if v is None:
        return ()
    if not isinstance(v, list) or len(v) > MAX_KONGS:
        raise _bad("kongs", "s.kongs_list", n=MAX_KONGS)
    if v and "kongs" not in variant.settlement_fields(opts):
        raise _bad("kongs", "s.kongs_off")
    supplier_rule = variant.kong_supplier_rule      # the supplier pays: named on each kong
    out = []
    for i, k in enumerate(v):
        where = i + 1
        if not isinstance(k, dict) or set(k) - {"seat", "type", "from"}:
            raise _bad("kongs", "s.kong_object", i=where)
        seat = k.get("seat")
        if not _is_int(seat) or not 0 <= seat <= 3:
            raise _bad("kongs", "s.kong_seat", i=where)
        typ = k.get("type")
        if typ not in KONG_TYPES:
            raise _bad("kongs", "s.kong_type", i=where)
        if typ not in variant.kong_types(opts):
            raise _bad("kongs", "s.kong_wild", i=where)
        src = k.get("from")
        if src is not None and (not _is_int(src) or not 0 <= src <= 3 or src == seat):
            raise _bad("kongs", "s.kong_from", i=where)
        if typ in ("concealed", "wildcard") and src is not None:
            raise _bad("kongs", "s.kong_no_from", i=where, kong=KONG_LABELS[typ])
        if typ in ("exposed", "added") and src is None and supplier_rule:
            who = Message("s.who_exposed" if typ == "exposed" else "s.who_added")
            raise _bad("kongs", "s.kong_need_from", i=where, kong=KONG_LABELS[typ], who=who,
                       rule_id=supplier_rule)
        out.append(Kong(seat, typ, src))
    return tuple(out)


def parse_table(variant: Variant[OptionsT], sit: Situation[OptionsT] | None, raw: Any,
                judgement: Judgement | None, *, options: OptionsT | None = None,
                win_by: str | None = None) -> Table[OptionsT]:
    """Validate the ``settlement`` object (C-15); every error is ``bad_settlement``.
    Without tiles (``sit`` ``None``) the room ``options`` and ``win_by`` are given instead."""
    if not isinstance(raw, dict):
        raise BadSettlementError(Message("settlement.not_object"), "settlement")
    for key in raw:
        if key not in FIELDS:
            raise BadSettlementError(Message("s.unknown_key", key=key, known=list(FIELDS)),
                                     f"settlement.{key}")
    opts = sit.options if sit is not None else options
    assert opts is not None, "the situation's, or given beside the win method"
    fields = variant.settlement_fields(opts)
    base = _base(raw)
    dealer = _seat(raw, "dealer", True)
    assert dealer is not None                # required: _seat raised without it
    winner = _seat(raw, "winner", False)
    win_by = sit.win_by if sit is not None else win_by
    assert win_by is not None, "the situation's, or given beside the options"
    discarder = _seat(raw, "discarder", False)
    if winner is not None and win_by in ("discard", "robbing_kong"):
        what = Message("s.what_discard" if win_by == "discard" else "s.what_robbed")
        if discarder is None:
            raise _bad("discarder", "s.discarder_needed", what=what)
        if discarder == winner:
            raise _bad("discarder", "s.discarder_self", what=what)
    else:
        discarder = None                     # docs/settlement.md: ignored without a discard
    pao = _pao(raw, variant, opts)
    jiagang = _four(raw, "jiagang", lambda x: isinstance(x, bool), "s.four_bools", False)
    everyone = variant.everyone_jiagang(opts)
    if any(jiagang) and not ("jiagang" in fields or everyone):
        raise _bad("jiagang", "s.jiagang_off")
    if everyone:
        if any(jiagang) and not all(jiagang):
            raise _bad("jiagang", "s.jiagang_partial")
        jiagang = (True,) * 4                # the variant's 死钢: everyone has 加钢
    ready = _four(raw, "ready", lambda x: isinstance(x, bool), "s.four_bools", True)
    if "ready" in fields and winner is not None and not ready[winner]:
        raise _bad("ready", "s.not_ready", seat=SEAT_NAMES[winner])
    kongs = _kongs(raw, variant, opts)
    bd = raw.get("biao_discards", 0)
    bd = 0 if bd is None else bd
    if not _is_int(bd) or not 0 <= bd <= MAX_BIAO_DISCARDS:
        raise _bad("biao_discards", "s.biao_range", n=MAX_BIAO_DISCARDS)
    if bd and "biao_discards" not in fields:
        raise _bad("biao_discards", "s.biao_off")
    follow = _flag(raw, "follow_dealer")
    if follow and "follow_dealer" not in fields:
        raise _bad("follow_dealer", "s.follow_off")
    duanmen = _flag(raw, "duanmen")
    if duanmen and "duanmen" not in fields:
        raise _bad("duanmen", "s.duanmen_off")
    kong_discard = _flag(raw, "kong_discard")
    if kong_discard and "kong_discard" not in fields:
        raise _bad("kong_discard", "s.kong_discard_off")
    if kong_discard and (winner is None or win_by != "discard"):
        raise _bad("kong_discard", "s.kong_discard_not_discard")
    return Table(variant, opts, base, dealer, winner, discarder, win_by, pao, jiagang,
                 ready, kongs, bd, follow, duanmen, kong_discard, sit, judgement)


def _check_winner(sit: Situation[Any], judgement: Judgement | None, win_by_given: bool) -> None:
    """C-15: a winner needs a 14-tile hand, ``winning_tile``, ``win_by`` and a win."""
    if sit.hand.tile_count != 14 or judgement is None:
        raise WrongTileCountError(Message("w.count", n=sit.hand.tile_count, rule="C-15"),
                                  "hand")
    if sit.winning_tile is None:
        raise NotCompleteError(Message("w.no_winning_tile", rule="C-15"),
                               "winning_tile", reasons=judgement.reasons)
    if not win_by_given:
        raise BadWinByError(Message("w.no_win_by", rule="C-15"), "win_by")
    if not judgement.complete:
        why = [Message("w.reason", message=r["message"], rule_id=r["rule"])
               for r in judgement.reasons]
        message = (Message("w.not_complete_why", why=Joined(why, "；", "; "), rule="C-15")
                   if why else Message("w.not_complete", rule="C-15"))
        raise NotCompleteError(message, "hand", reasons=judgement.reasons)


# -- entry point ------------------------------------------------------------------------

def settle(variant: Variant[OptionsT], sit: Situation[OptionsT], judgement: Judgement | None,
           raw_settlement: Any, *, win_by_given: bool = True) -> SettlementResult:
    """Validate ``raw_settlement`` (C-15) and settle the hand by the variant's rules.

    Args:
        variant: the variant object (its ``payments`` and ``next_dealer`` settle).
        sit: the analysed situation (the winner's hand when a winner is given).
        judgement: the variant's judgement of a 14-tile hand, or ``None`` for 13 tiles.
        raw_settlement: the request's ``settlement`` object.
        win_by_given: whether the request named ``win_by`` (C-15 needs it with a winner).

    Raises:
        BadSettlementError: naming the field.
        NotCompleteError: (with reasons) when a winner is given for a hand that is no win.
        WrongTileCountError: when a winner is given for a hand that is not 14 tiles.
        BadWinByError: when a winner is given and the request named no ``win_by``.
    """
    table = parse_table(variant, sit, raw_settlement, judgement)
    if table.winner is not None:
        _check_winner(sit, judgement, win_by_given)
    return _result(table)


def _result(table: Table[Any]) -> SettlementResult:
    """The variant's payments and next dealer for a validated table."""
    variant = table.variant
    payments, extra = variant.payments(table)
    extra["next_dealer"] = variant.next_dealer(table)
    for p in payments:
        if isinstance(p.amount, float) and not math.isfinite(p.amount):
            raise _bad("base", "s.too_large")
    return SettlementResult(Settlement.of(payments), **extra)


def settle_declared(variant: Variant[OptionsT], options: OptionsT, win_by: str, raw_settlement: Any,
                    declared: Any) -> SettlementResult:
    """Settle a hand recorded without its tiles (a 荒庄, or a win whose tiles nobody typed).

    The factors the tiles would decide are ``declared`` instead, as the variant's
    ``declared_fields`` and ``parse_declared`` say: ``{"biao": n}`` (the 表 count of the
    win), ``{"doubles": [keys]}`` or ``{"fan": [keys]}`` (the hand's own 番); a variant
    whose payments need no factor of the tiles declares none. ``None`` or ``{}`` declares no
    factor. Everything else (跑, 加钢, kongs, who won and how) is settled exactly as :func:`settle` does.

    Args:
        variant: the variant object.
        options: the room options dataclass.
        win_by: one of the variant's win methods (ignored on 荒庄).
        raw_settlement: the ``settlement`` object, as for :func:`settle`.
        declared: the declared factors (a dict) or ``None``.

    Raises:
        BadSettlementError: naming the field (``declared.fan`` …) for a factor the variant
            or the room does not have, or for the settlement object itself as
            :func:`settle` does.
    """
    table = parse_table(variant, None, raw_settlement, None, options=options, win_by=win_by)
    if declared is None:
        declared = {}
    if not isinstance(declared, dict):
        raise BadSettlementError(Message("d.not_object"), "declared")
    allowed = variant.declared_fields
    for key in declared:
        if key not in allowed:
            what = list(allowed) if allowed else Message("d.nothing")
            raise BadSettlementError(Message("d.unknown", variant=variant.label, key=key,
                                             allowed=what), f"declared.{key}")
    if table.winner is None and any(declared.values()):
        raise BadSettlementError(Message("d.drawn"), "declared")
    table.declared = variant.parse_declared(table, declared)
    return _result(table)


def declared_keys(raw: dict[Any, Any], name: str, allowed: dict[str, Message]) -> list[str]:
    """A declared list of keys (``fan``, ``doubles``): each one of ``allowed`` (key →
    name message), no repeats; ``bad_settlement`` on ``declared.<name>`` otherwise."""
    v = raw.get(name)
    if v is None:
        return []
    if not isinstance(v, list) or not all(isinstance(k, str) for k in v):
        raise BadSettlementError(Message("d.not_list", name=name, allowed=list(allowed)),
                                 f"declared.{name}")
    for k in v:
        if k not in allowed:
            raise BadSettlementError(Message("d.unknown_key", name=name, key=k,
                                             allowed=list(allowed)), f"declared.{name}")
    if len(set(v)) != len(v):
        raise BadSettlementError(Message("d.repeated", name=name), f"declared.{name}")
    return list(v)


def declared_refuse(name: str, message: Message) -> InputError:
    """A declared factor the room's options do not allow."""
    return BadSettlementError(Message("d.refused", name=name, text=message),
                              f"declared.{name}")
