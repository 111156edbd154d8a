"""Settlement: who pays whom, how much, and which rule made each number (RULES C-10, C-11,
C-14, C-15 and the per-variant payment rules).

:func:`settle` validates the request's ``settlement`` object (C-15), hands a :class:`Table`
to the variant's module (:mod:`.sanmenxia` SMX-6/7, :mod:`.zhengzhou` ZZ-4..6,
:mod:`.panjin` PJ-10..13, :mod:`.jincheng` JC-4..8) and returns a :class:`SettlementResult`:
the payments, the net per seat (summing to zero, C-11) and, where a settlement changes
them, 三门峡's 表 (SMX-5) and 盘锦's 番 list (PJ-10).

Amounts keep the type of the base: an int base gives ints, a float base (0.5) floats.
Readings chosen where RULES.md is silent are written in ``docs/settlement.md``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable

from ..errors import InputError
from ..variants.base import SELF_DRAWN, Judgement, Situation

SEAT_NAMES = ("东家", "南家", "西家", "北家")
ITEMS = ("win", "kong", "follow_dealer", "draw_penalty")
KONG_TYPES = ("exposed", "added", "concealed", "wildcard")
KONG_CHINESE = {"exposed": "明杠", "added": "补杠", "concealed": "暗杠", "wildcard": "混杠"}
FIELDS = ("base", "dealer", "winner", "discarder", "pao", "jiagang", "ready", "kongs",
          "biao_discards", "follow_dealer", "duanmen", "kong_discard")
FIELD_CHINESE = {"base": "底分", "dealer": "庄家", "winner": "胡牌者", "discarder": "点炮者",
                 "pao": "下跑", "jiagang": "加钢", "ready": "上架", "kongs": "杠",
                 "biao_discards": "表（打混次数）", "follow_dealer": "前包",
                 "duanmen": "断门", "kong_discard": "杠流泪"}
MAX_BASE = 10 ** 9          # docs/settlement.md: a sanity cap, not a rule
MAX_KONGS = 16              # four players, at most four kongs each
MAX_BIAO_DISCARDS = 3
DECIMALS = 10               # float amounts are rounded to this many decimal places       # four wildcard tiles, one kept as the eyes


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
        rule: the rule id that produced the number (``"SMX-6"``).
        detail: Chinese text with the arithmetic, ending ``= amount（rule ids）``.
    """

    payer: int
    payee: int
    amount: int | float
    item: str
    rule: str
    detail: str

    def __post_init__(self):
        assert self.payer != self.payee and self.item in ITEMS and self.amount > 0, self

    def to_dict(self) -> dict:
        return {"from": self.payer, "to": self.payee, "amount": self.amount,
                "item": self.item, "detail": self.detail, "rule": self.rule}


@dataclass(frozen=True)
class Settlement:
    """The payments of one hand and the net per seat (C-11: the net sums to zero)."""

    payments: tuple[Payment, ...]
    net: tuple[int | float, ...]

    @classmethod
    def of(cls, payments: list[Payment]) -> "Settlement":
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

    def to_dict(self) -> dict:
        return {"payments": [p.to_dict() for p in self.payments], "net": list(self.net)}


@dataclass(frozen=True)
class Kong:
    """One kong at the table: ``seat`` konged; ``supplier`` gave the tile (exposed: the
    discarder; added: whoever supplied the ponged tile), or ``None``."""

    seat: int
    type: str
    supplier: int | None = None


@dataclass
class Table:
    """The validated settlement input plus what the variant modules need of the hand."""

    variant: Any
    options: Any
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
    sit: Situation | None = None
    judgement: Judgement | None = None
    #: for a win recorded without its tiles: the factors the tiles would decide, as each
    #: variant module's ``parse_declared`` returned them (:func:`settle_declared`)
    declared: dict | None = None

    @property
    def self_drawn(self) -> bool:
        """C-14: 杠上开花 counts as a self-draw."""
        return self.win_by in SELF_DRAWN

    def others(self, seat: int) -> list[int]:
        return [s for s in range(4) if s != seat]

    @property
    def losers(self) -> list[int]:
        return self.others(self.winner)


@dataclass
class SettlementResult:
    """What :func:`settle` adds to the analysis response."""

    settlement: Settlement
    biao: int | None = None
    fan: list[dict] | None = None
    next_dealer: tuple[int, str] | None = None

    def fields(self) -> dict:
        out: dict[str, Any] = {"settlement": self.settlement.to_dict()}
        if self.next_dealer is not None:
            seat, rule = self.next_dealer
            out["settlement"]["next_dealer"] = {"seat": seat, "rule": rule}
        if self.biao is not None:
            out["biao"] = self.biao
        if self.fan is not None:
            out["fan"] = self.fan
        return out


def pay(payer: int, payee: int, amount, item: str, rule: str, text: str,
        cites: str | None = None) -> Payment:
    """A payment whose detail is ``text = amount（cites or rule）``. A float amount (a
    decimal base such as 0.1) is rounded to 10 decimal places, so 0.1 × 3 is 0.3, not
    0.30000000000000004."""
    if isinstance(amount, float):
        amount = round(amount, DECIMALS)
    return Payment(payer, payee, amount, item, rule,
                   f"{text} = {fmt(amount)}（{cites or rule}）")


def kong_payers(t: "Table", k: Kong) -> list[int]:
    """Who pays for a kong where the supplier pays (SMX-7, ZZ-5): every other player for a
    暗杠, else the one who supplied the tile (明杠: the discarder; 补杠: the ponged tile)."""
    return t.others(k.seat) if k.type == "concealed" else [k.supplier]


def flat_kong_payments(t: "Table", units_by_type: dict[str, int], rule: str) -> list[Payment]:
    """Kongs every other player pays for, a fixed number of 底 by kong type (JC-6, PJ-13):
    never multiplied by anything else."""
    out = []
    for k in t.kongs:
        units = units_by_type[k.type]
        for payer in t.others(k.seat):
            text = f"{SEAT_NAMES[k.seat]}{KONG_CHINESE[k.type]}：底{fmt(t.base)} ×{units}"
            out.append(pay(payer, k.seat, t.base * units, "kong", rule, text))
    return out


# -- validation (C-15) ---------------------------------------------------------------------

def _bad(name: str, message: str) -> InputError:
    return InputError("bad_settlement", f"结算·{FIELD_CHINESE.get(name, name)}（{name}）："
                      f"{message}", f"settlement.{name}")


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _seat(raw: dict, name: str, required: bool) -> int | None:
    v = raw.get(name)
    if v is None:
        if required:
            raise _bad(name, "必填，应为座位号 0-3（0 东家、1 南家、2 西家、3 北家）。")
        return None
    if not _is_int(v) or not 0 <= v <= 3:
        raise _bad(name, "应为座位号 0-3 的整数（0 东家、1 南家、2 西家、3 北家）。")
    return v


def _base(raw: dict) -> int | float:
    v = raw.get("base", 1)
    if v is None:
        v = 1
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise _bad("base", "应为大于 0 的数。")
    if isinstance(v, float) and not math.isfinite(v) or not 0 < v <= MAX_BASE:
        raise _bad("base", f"应为大于 0、不超过 {MAX_BASE} 的有限数。")
    return v


def _four(raw: dict, name: str, check: Callable[[Any], bool], what: str, default) -> tuple:
    v = raw.get(name)
    if v is None:
        return (default,) * 4
    if not isinstance(v, list) or len(v) != 4 or not all(check(x) for x in v):
        raise _bad(name, f"应为 4 个{what}的列表（按座位 0-3）。")
    return tuple(v)


def _flag(raw: dict, name: str) -> bool:
    v = raw.get(name, False)
    if v is None:
        return False
    if not isinstance(v, bool):
        raise _bad(name, "应为 true 或 false。")
    return v


def _pao(raw: dict, variant, opts) -> tuple[int, ...]:
    pao = _four(raw, "pao", lambda x: _is_int(x) and x >= 0, "非负整数", 0)
    limit, why = variant_pao_max(variant, opts)
    if max(pao) > limit:
        raise _bad("pao", why if limit == 0 else f"每家最多下 {limit} 跑（{why}）。")
    return pao


def variant_pao_max(variant, opts) -> tuple[int, str]:
    """The largest 跑 a seat may have, and the rule that says so (C-15, SMX-6, ZZ-4)."""
    if variant.name == "sanmenxia":
        if not opts.pao:
            return 0, "房间没有勾选带跑，不能下跑（SMX-6、C-15）。"
        return opts.pao_max, "SMX-6"
    if variant.name == "zhengzhou":
        return opts.pao_max, "ZZ-4"
    return 0, f"{variant.label}麻将没有下跑（C-15）。"


def settlement_fields(variant, opts) -> frozenset[str]:
    """The ``settlement`` fields this variant uses under these room options — what a form
    should offer. Any other field is accepted only at its neutral value (0, false, none).

    ``base``, ``dealer``, ``winner``, ``discarder`` always; ``pao`` where 下跑 is on (SMX-6,
    ZZ-4); ``kongs`` unless 盘锦's ``kong`` is off (PJ-13); ``biao_discards`` with 三门峡's
    wildcards (SMX-5); ``jiagang`` with 盘锦 加钢 but not 死钢 (PJ-11); ``duanmen`` and
    ``kong_discard`` with their 盘锦 options (PJ-4, PJ-10); ``ready`` and ``follow_dealer``
    in 晋城 (JC-3, JC-7).
    """
    used = {"base", "dealer", "winner", "discarder"}
    name = variant.name
    if variant_pao_max(variant, opts)[0] > 0:
        used.add("pao")
    if name != "panjin" or opts.kong:
        used.add("kongs")
    if name == "sanmenxia" and opts.wildcard:
        used.add("biao_discards")
    if name == "panjin":
        if opts.jiagang and not opts.all_jiagang:
            used.add("jiagang")
        if opts.duanmen:
            used.add("duanmen")
        if opts.kong_discard:
            used.add("kong_discard")
    if name == "jincheng":
        used |= {"ready", "follow_dealer"}
    return frozenset(used)


def kong_types(variant, opts) -> tuple[str, ...]:
    """The kong types of :data:`KONG_TYPES` this variant allows (混杠 only in 盘锦 with
    ``wildcard_kong``, PJ-13)."""
    if variant.name == "panjin" and opts.wildcard_kong:
        return KONG_TYPES
    return KONG_TYPES[:3]


def _kongs(raw: dict, variant, opts) -> tuple[Kong, ...]:
    v = raw.get("kongs")
    if v is None:
        return ()
    if not isinstance(v, list) or len(v) > MAX_KONGS:
        raise _bad("kongs", f"应为杠的列表（最多 {MAX_KONGS} 个）。")
    if v and variant.name == "panjin" and not opts.kong:
        raise _bad("kongs", "房间没有勾选“杠”，不能有杠分（PJ-13）。")
    supplier_needed = variant.name in ("sanmenxia", "zhengzhou")
    out = []
    for i, k in enumerate(v):
        where = f"第 {i + 1} 个杠"
        if not isinstance(k, dict) or set(k) - {"seat", "type", "from"}:
            raise _bad("kongs", f"{where}应为 {{\"seat\", \"type\", \"from\"}} 对象。")
        seat = k.get("seat")
        if not _is_int(seat) or not 0 <= seat <= 3:
            raise _bad("kongs", f"{where}的 seat 应为座位号 0-3。")
        typ = k.get("type")
        if typ not in KONG_TYPES:
            raise _bad("kongs", f"{where}的 type 应为 exposed、added、concealed 或 wildcard。")
        if typ not in kong_types(variant, opts):
            raise _bad("kongs", f"{where}是混杠：只有盘锦勾选“混杠”时才有（PJ-13）。")
        src = k.get("from")
        if src is not None and (not _is_int(src) or not 0 <= src <= 3 or src == seat):
            raise _bad("kongs", f"{where}的 from 应为另一家的座位号 0-3。")
        if typ in ("concealed", "wildcard") and src is not None:
            raise _bad("kongs", f"{where}是{KONG_CHINESE[typ]}，没有供牌者，不应给 from。")
        if typ in ("exposed", "added") and src is None and supplier_needed:
            rule = "SMX-7" if variant.name == "sanmenxia" else "ZZ-5"
            who = "点杠的一家" if typ == "exposed" else "供碰牌的一家"
            raise _bad("kongs", f"{where}是{KONG_CHINESE[typ]}，要给 from（{who}，由其付杠分，{rule}）。")
        out.append(Kong(seat, typ, src))
    return tuple(out)


def parse_table(variant, sit: Situation | None, raw: Any, judgement: Judgement | None, *,
                options: Any = None, win_by: str | None = None) -> Table:
    """Validate the ``settlement`` object (C-15); every error is ``bad_settlement``.
    Without tiles (``sit`` ``None``) the room ``options`` and ``win_by`` are given instead."""
    if not isinstance(raw, dict):
        raise InputError("bad_settlement", "结算（settlement）应为一个对象。", "settlement")
    for key in raw:
        if key not in FIELDS:
            raise InputError("bad_settlement", f"结算：未知字段 “{key}”。可用字段："
                             f"{'、'.join(FIELDS)}。", f"settlement.{key}")
    opts = sit.options if sit is not None else options
    name = variant.name
    base = _base(raw)
    dealer = _seat(raw, "dealer", True)
    winner = _seat(raw, "winner", False)
    win_by = sit.win_by if sit is not None else win_by
    discarder = _seat(raw, "discarder", False)
    if winner is not None and win_by in ("discard", "robbing_kong"):
        what = "点炮" if win_by == "discard" else "被抢杠"
        if discarder is None:
            raise _bad("discarder", f"{what}胡牌要给{what}的一家（座位号 0-3）。")
        if discarder == winner:
            raise _bad("discarder", f"{what}的一家不能是胡牌者自己。")
    else:
        discarder = None                     # docs/settlement.md: ignored without a discard
    pao = _pao(raw, variant, opts)
    jiagang = _four(raw, "jiagang", lambda x: isinstance(x, bool), " true/false ", False)
    if any(jiagang) and not (name == "panjin" and (opts.jiagang or opts.all_jiagang)):
        raise _bad("jiagang", "只有盘锦勾选“加钢”或“死钢”时才有加钢（PJ-11）。")
    if name == "panjin" and opts.all_jiagang:
        if any(jiagang) and not all(jiagang):
            raise _bad("jiagang", "房间勾选了“死钢”，人人加钢，不能只给部分座位加钢（PJ-11）。")
        jiagang = (True,) * 4                # PJ-11: 死钢, everyone has 加钢
    ready = _four(raw, "ready", lambda x: isinstance(x, bool), " true/false ", True)
    if name == "jincheng" and winner is not None and not ready[winner]:
        raise _bad("ready", f"{SEAT_NAMES[winner]}没有上架，不能胡牌（JC-3）。")
    kongs = _kongs(raw, variant, opts)
    bd = raw.get("biao_discards", 0)
    bd = 0 if bd is None else bd
    if not _is_int(bd) or not 0 <= bd <= MAX_BIAO_DISCARDS:
        raise _bad("biao_discards", f"应为 0 到 {MAX_BIAO_DISCARDS} 的整数（SMX-5）。")
    if bd and "biao_discards" not in settlement_fields(variant, opts):
        raise _bad("biao_discards", "只有带混的三门峡才有表（SMX-4、SMX-5）。")
    follow = _flag(raw, "follow_dealer")
    if follow and name != "jincheng":
        raise _bad("follow_dealer", "只有晋城有前包（JC-7）。")
    duanmen = _flag(raw, "duanmen")
    if duanmen and not (name == "panjin" and opts.duanmen):
        raise _bad("duanmen", "只有盘锦勾选“选断门”时庄家才能断门（PJ-4）。")
    kong_discard = _flag(raw, "kong_discard")
    if kong_discard and not (name == "panjin" and opts.kong_discard):
        raise _bad("kong_discard", "只有盘锦勾选“杠后炮”时才有杠流泪（PJ-10）。")
    if kong_discard and (winner is None or win_by != "discard"):
        raise _bad("kong_discard", "杠流泪只在点炮胡牌时才有（PJ-10）。")
    return Table(variant, opts, base, dealer, winner, discarder, win_by, pao, jiagang,
                 ready, kongs, bd, follow, duanmen, kong_discard, sit, judgement)


def _check_winner(sit: Situation, judgement: Judgement | None, win_by_given: bool) -> None:
    """C-15: a winner needs a 14-tile hand, ``winning_tile``, ``win_by`` and a win."""
    if sit.hand.tile_count != 14 or judgement is None:
        raise InputError("wrong_tile_count", f"手牌：给了胡牌者时，手牌应是胡牌者和牌后的 14 张"
                         f"（现在 {sit.hand.tile_count} 张）（C-3、C-15）。", "hand")
    if sit.winning_tile is None:
        raise InputError("not_complete", "和牌张：给了胡牌者时必须给出和牌张（C-15）。",
                         "winning_tile", reasons=judgement.reasons)
    if not win_by_given:
        raise InputError("not_complete", "胡法：给了胡牌者时必须给出胡法（win_by）（C-15）。",
                         "win_by", reasons=judgement.reasons)
    if not judgement.complete:
        why = "；".join(f"{r['message']}（{r['rule']}）" for r in judgement.reasons)
        raise InputError("not_complete", "手牌：给了胡牌者，但这手牌不能胡"
                         f"{'：' + why if why else '（C-15）'}。", "hand",
                         reasons=judgement.reasons)


# -- entry point ------------------------------------------------------------------------

def settle(variant, sit: Situation, judgement: Judgement | None, raw_settlement: Any, *,
           win_by_given: bool = True) -> SettlementResult:
    """Validate ``raw_settlement`` (C-15) and settle the hand by the variant's rules.

    Args:
        variant: the variant object (``variant.name`` picks the payment module).
        sit: the analysed situation (the winner's hand when a winner is given).
        judgement: the variant's judgement of a 14-tile hand, or ``None`` for 13 tiles.
        raw_settlement: the request's ``settlement`` object.
        win_by_given: whether the request named ``win_by`` (C-15 needs it with a winner).

    Raises:
        InputError: ``bad_settlement`` naming the field; ``not_complete`` (with reasons) or
            ``wrong_tile_count`` when a winner is given for a hand that is not a win.
    """
    from . import jincheng, panjin, sanmenxia, zhengzhou
    modules = {"sanmenxia": sanmenxia, "zhengzhou": zhengzhou, "panjin": panjin,
               "jincheng": jincheng}
    table = parse_table(variant, sit, raw_settlement, judgement)
    if table.winner is not None:
        _check_winner(sit, judgement, win_by_given)
    return _result(modules[variant.name], table)


def _result(module, table: Table) -> SettlementResult:
    """The variant module's payments and next dealer for a validated table."""
    payments, extra = module.payments(table)
    extra["next_dealer"] = module.next_dealer(table)
    for p in payments:
        if isinstance(p.amount, float) and not math.isfinite(p.amount):
            raise _bad("base", "底分太大，结果超出范围。")
    return SettlementResult(Settlement.of(payments), **extra)


def settle_declared(variant, options, win_by: str, raw_settlement: Any,
                    declared: Any) -> SettlementResult:
    """Settle a hand recorded without its tiles (a 荒庄, or a win whose tiles nobody typed).

    The factors the tiles would decide are ``declared`` instead: ``{"biao": n}`` (三门峡,
    SMX-5, the 表 count of the win), ``{"doubles": [keys]}`` (郑州, ZZ-4: ``seven_pairs``,
    ``kong_bloom``, ``four_wildcards``) or ``{"fan": [keys]}`` (盘锦, PJ-10: the hand's own
    番 ``piaohu``, ``one_suit``, ``seven_pairs``, ``jihu``, ``qunji``, ``qionghu``,
    ``jiahu``); 晋城's payments need none. ``None`` or ``{}`` declares no factor. Everything
    else (跑, 加钢, kongs, who won and how) is settled exactly as :func:`settle` does.

    Args:
        variant: the variant object.
        options: the room options dataclass.
        win_by: one of the variant's win methods (ignored on 荒庄).
        raw_settlement: the ``settlement`` object, as for :func:`settle`.
        declared: the declared factors (a dict) or ``None``.

    Raises:
        InputError: ``bad_settlement`` naming the field (``declared.fan`` …) for a factor the
            variant or the room does not have, or any error :func:`settle` would raise for
            the settlement object itself.
    """
    from . import jincheng, panjin, sanmenxia, zhengzhou
    modules = {"sanmenxia": sanmenxia, "zhengzhou": zhengzhou, "panjin": panjin,
               "jincheng": jincheng}
    module = modules[variant.name]
    table = parse_table(variant, None, raw_settlement, None, options=options, win_by=win_by)
    if declared is None:
        declared = {}
    if not isinstance(declared, dict):
        raise InputError("bad_settlement", "声明（declared）应为一个对象。", "declared")
    allowed = module.DECLARED
    for key in declared:
        if key not in allowed:
            what = "、".join(allowed) if allowed else "无（此玩法的分数不取决于牌型）"
            raise InputError("bad_settlement", f"声明（declared）：{variant.label}麻将没有 “{key}”。"
                             f"可声明：{what}。", f"declared.{key}")
    if table.winner is None and any(declared.values()):
        raise InputError("bad_settlement", "声明（declared）：荒庄没有胡牌者，不能声明番数或表。",
                         "declared")
    table.declared = module.parse_declared(table, declared)
    return _result(module, table)


def declared_keys(raw: dict, name: str, allowed: dict[str, str]) -> list[str]:
    """A declared list of keys (``fan``, ``doubles``): each one of ``allowed`` (key →
    Chinese name), no repeats; ``bad_settlement`` on ``declared.<name>`` otherwise."""
    v = raw.get(name)
    if v is None:
        return []
    if not isinstance(v, list) or not all(isinstance(k, str) for k in v):
        raise InputError("bad_settlement", f"声明·{name}：应为键名的列表，可用："
                         f"{'、'.join(allowed)}。", f"declared.{name}")
    for k in v:
        if k not in allowed:
            raise InputError("bad_settlement", f"声明·{name}：未知的 “{k}”，可用："
                             f"{'、'.join(allowed)}。", f"declared.{name}")
    if len(set(v)) != len(v):
        raise InputError("bad_settlement", f"声明·{name}：有重复的键。", f"declared.{name}")
    return list(v)


def declared_refuse(name: str, message: str) -> InputError:
    """A declared factor the room's options do not allow."""
    return InputError("bad_settlement", f"声明·{name}：{message}", f"declared.{name}")
