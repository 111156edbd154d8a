"""郑州 (zhengzhou), seed 001: 下跑, self-draw or 杠开 only, 四混 (RULES ZZ-1..ZZ-7).

Shapes (ZZ-3): standard with wildcards anywhere in the concealed part (C-8); 七对 with
wildcards only as themselves; 四混. No 十三不靠. The best reading (C-6) is the one with
the most enabled doubles (ZZ-4: 七对加倍, 四混加倍).

Payments (the settlement section of :class:`Zhengzhou`), with the corrections of ZZ-6:
ZZ-4: each of the 3 others pays
``底 × (1 + 跑_winner + 跑_payer [+1 dealer_plus_base when winner or payer deals]) × 2^d``,
d = the enabled doubles that apply: 七对 (``seven_pairs_double``), 杠上花
(``kong_bloom_double``, C-14), 四混 (``four_wildcards_double``).
ZZ-5: ``底 × (1 [+ 跑_konger + 跑_payer with kong_pao] [+1 dealer_plus_base])``: 暗杠 each
other player, 明杠 the discarder, 补杠 the supplier of the ponged tile; never doubled; on
荒庄 only with ``draw_settles_kongs``.
ZZ-6: the seed's worked examples that contradict this formula are seed errors; the formula
wins (tests/cases.json zz-pao-seed-error, zz-big-example). A settlement in which one of
those examples, read as a referee would read it, gives another number carries one note
saying so (:meth:`Zhengzhou.seed_notes`, ``settlement.notes``); the payments themselves
say nothing of it. ZZ-7: the winner deals next.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..decompose import Reading
from ..messages import Joined, Message
from ..options import opt
from ..settlement import (
    KONG_LABELS,
    SEAT_NAMES,
    Payment,
    SettlementResult,
    Table,
    declared_keys,
    declared_refuse,
    fmt,
    kong_payers,
    pay,
)
from ..tiles import Tile
from .base import (
    NO_SHAPES,
    SEVEN_PAIRS,
    WIN_METHOD_LABELS,
    Declarable,
    Judgement,
    Situation,
    Variant,
)
from .zhengzhou_texts import RULES, TEXTS

#: distance_shapes with 四混 added, one object per set
_WITH_FOUR = {s: s | {"four_wildcards"} for s in (NO_SHAPES, SEVEN_PAIRS)}


@dataclass(frozen=True)
class ZhengzhouOptions:
    """Room options of 郑州 (RULES, 郑州 section)."""

    wildcard: bool = field(default=True, metadata=opt(
        Message("opt.zhengzhou.wildcard"), Message("opt.zhengzhou.wildcard.help"), "ZZ-1",
        also=("C-2", "C-7", "ZZ-3")))
    pao_max: int = field(default=3, metadata=opt(
        Message("opt.zhengzhou.pao_max"), Message("opt.zhengzhou.pao_max.help"), "ZZ-4",
        minimum=0, maximum=10,
        also=("C-15",)))
    kong_pao: bool = field(default=True, metadata=opt(
        Message("opt.zhengzhou.kong_pao"), Message("opt.zhengzhou.kong_pao.help"), "ZZ-5",
        also=("ZZ-6",)))
    draw_settles_kongs: bool = field(default=True, metadata=opt(
        Message("opt.zhengzhou.draw_settles_kongs"), Message("opt.zhengzhou.draw_settles_kongs.help"), "ZZ-5",
        also=("C-10",)))
    seven_pairs_double: bool = field(default=False, metadata=opt(
        Message("opt.zhengzhou.seven_pairs_double"), Message("opt.zhengzhou.seven_pairs_double.help"),
        "ZZ-4"))
    kong_bloom_double: bool = field(default=False, metadata=opt(
        Message("opt.zhengzhou.kong_bloom_double"), Message("opt.zhengzhou.kong_bloom_double.help"), "ZZ-4",
        also=("C-14",)))
    four_wildcards_double: bool = field(default=False, metadata=opt(
        Message("opt.zhengzhou.four_wildcards_double"), Message("opt.zhengzhou.four_wildcards_double.help"),
        "ZZ-4"))
    dealer_plus_base: bool = field(default=False, metadata=opt(
        Message("opt.zhengzhou.dealer_plus_base"), Message("opt.zhengzhou.dealer_plus_base.help"), "ZZ-4",
        also=("ZZ-5",)))


#: ZZ-4's doubles a win without tiles may declare: key → (its name, the room option that
#: enables it). 杠上花 (``kong_bloom``) is no factor of the tiles: the win method says it
#: (``kong_replacement``), so it is accepted as declared but never needs declaring.
DECLARED_DOUBLES = {"seven_pairs": (Message("fan.seven_pairs"), "seven_pairs_double"),
                    "kong_bloom": (Message("zz.kong_bloom"), "kong_bloom_double"),
                    "four_wildcards": (Message("fan.four_wildcards"), "four_wildcards_double")}


class Zhengzhou(Variant[ZhengzhouOptions]):
    name = "zhengzhou"
    label = Message("variant.zhengzhou")
    texts = TEXTS                              # its words: zhengzhou_texts.py
    rules = RULES
    rule_prefix = "ZZ"
    sample_hand = {"hand": "123m456p789s11122z", "winning_tile": "2z",
                   "win_by": "self_draw"}
    seed = "001"
    Options = ZhengzhouOptions
    win_methods = frozenset({"self_draw", "kong_replacement"})
    win_rule = "ZZ-2"
    efficiency_rules = ("ZZ-1", "ZZ-3")
    chow_allowed = False
    chow_rule = "ZZ-2"
    kong_supplier_rule = "ZZ-5"
    declared_fields = ("doubles",)

    def wildcards_on(self, opts: ZhengzhouOptions) -> bool:
        return bool(opts.wildcard)

    def is_win(self, sit: Situation[ZhengzhouOptions]) -> bool:
        return bool(self.is_standard(sit) or self.is_seven_pairs_as_themselves(sit)
                    or self.has_four_wildcards(sit))

    def judge(self, sit: Situation[ZhengzhouOptions]) -> Judgement:
        readings = self.standard(sit)
        specials = [s for s in (self.seven_pairs_as_themselves(sit), self.four_wildcards(sit))
                    if s is not None]
        if specials:
            # a standard reading brings no double: with none but them the order stands
            readings += specials
            readings.sort(key=lambda r: -self.shape_doubles(sit.options, r.shape))
        return Judgement(readings)

    def special_waits(self, sit: Situation[ZhengzhouOptions]) -> set[int]:
        return super().special_waits(sit) | self.four_wildcards_waits(sit)

    def missing_by_shape(self, sit: Situation[ZhengzhouOptions], limit: int = 99) -> dict[str, int]:
        out = super().missing_by_shape(sit, limit)
        four = self.missing_four_wildcards(sit) if sit.wildcards else None
        if four is not None:
            out["four_wildcards"] = four
        return out

    def distance_shapes(self, sit: Situation[ZhengzhouOptions],
                        kinds_in_play: int = 34) -> frozenset[str] | None:
        """As :meth:`Variant.distance_shapes`, with 四混 when there are wildcards (ZZ-3)."""
        out = super().distance_shapes(sit, kinds_in_play)
        assert out is not None                  # free jokers (free_joker_search)
        return _WITH_FOUR[out] if sit.wildcards else out

    def declarable(self, opts: ZhengzhouOptions) -> Declarable | None:
        """ZZ-4: 七对 with ``seven_pairs_double``, 四混 with ``four_wildcards_double`` in a
        room with wildcards (ZZ-3); 杠上花 is the win method's, not declared."""
        keys = tuple((k, DECLARED_DOUBLES[k][0]) for k in ("seven_pairs", "four_wildcards")
                     if getattr(opts, DECLARED_DOUBLES[k][1])
                     and (k != "four_wildcards" or opts.wildcard))
        if not keys:
            return None
        return Declarable("doubles", Message("declared.doubles"), "ZZ-4", keys)

    @classmethod
    def hand_doubles(cls, opts: ZhengzhouOptions, readings: list[Reading]) -> list[str]:
        """ZZ-4: the keys of the enabled shape doubles that apply to the hand — ``seven_pairs``
        (七对) when some legal reading is seven pairs, 四混 when the hand holds the four wildcards;
        a hand that is both gets both (docs/decisions.md)."""
        shapes = {r.shape for r in readings}
        out = []
        if opts.seven_pairs_double and "seven_pairs" in shapes:
            out.append("seven_pairs")
        if opts.four_wildcards_double and "four_wildcards" in shapes:
            out.append("four_wildcards")
        return out

    @staticmethod
    def shape_doubles(opts: ZhengzhouOptions, shape: str) -> int:
        """ZZ-4: how many enabled doubles a reading's shape brings (七对, 四混)."""
        return int((shape == "seven_pairs" and opts.seven_pairs_double)
                   or (shape == "four_wildcards" and opts.four_wildcards_double))

    # -- settlement: ZZ-4 the win, ZZ-5 kongs, ZZ-6 the seed's examples, ZZ-7 ------------
    def pao_max(self, opts: ZhengzhouOptions) -> tuple[int, str | Message]:
        """ZZ-4: up to ``pao_max`` (0: none, a cap)."""
        return opts.pao_max, "ZZ-4"

    @staticmethod
    def doubles(t: Table[ZhengzhouOptions]) -> list[str]:
        """ZZ-4: the keys of the enabled doubles that apply to this win (``seven_pairs``,
        ``four_wildcards``, ``kong_bloom``)."""
        opts = t.options
        if t.declared is not None:                 # no tiles: the hand's doubles as declared
            out = [k for k in ("seven_pairs", "four_wildcards") if k in t.declared["doubles"]]
        else:
            assert t.judgement is not None
            out = Zhengzhou.hand_doubles(opts, t.judgement.readings)
        if opts.kong_bloom_double and t.win_by == "kong_replacement":
            out.append("kong_bloom")
        return out

    @staticmethod
    def seed_notes(t: Table[ZhengzhouOptions]) -> list[dict[Any, Any]]:
        """ZZ-6: one note, ``[{"rule": "ZZ-6", "message"}]``, naming the seed's miscounted
        worked examples that, applied to this settlement, would give a number the formula
        does not (docs/decisions.md, "ZZ-6 once per settlement"); empty for most hands.

        * A 跑1, B 跑2, B wins: the seed has each seat without 跑 pay 2 底 (the formula: 3).
          The seed is right when A wins and for a lone 跑 seat, so its reckoning is "a seat
          without 跑 pays 1 + the smallest 跑 at the table": it differs when a seat without
          跑 pays a winner whose 跑 is above another payer's (not 0).
        * A 跑3 with one 暗杠, B 跑2, A wins: the seed has 7 底 from each seat without 跑 and
          9 from B, that is 底 × (1 + 2 × 跑_winner + 跑_payer) for the win and the winner's
          kong together; the formula is (1 + 跑_w + 跑_p) + (1 + 跑_w + 跑_p) with
          ``kong_pao``, else (1 + 跑_w + 跑_p) + 1. They differ whenever the winner has 跑
          and a kong of their own, except without ``kong_pao`` at 跑_winner 1.
        """
        if t.winner is None:
            return []
        examples = []
        w = t.pao[t.winner]
        payers = [t.pao[s] for s in t.losers]
        if 0 in payers and any(0 < p < w for p in payers):
            examples.append(Message("zz.seed_example_pao"))
        if (w > 0 and any(k.seat == t.winner for k in t.kongs)
                and (t.options.kong_pao or w != 1)):
            examples.append(Message("zz.seed_example_kong"))
        if not examples:
            return []
        return [{"rule": "ZZ-6", "message": Message(
            "zz.seed_differs", examples=Joined(examples, "；", "; "), rule="ZZ-6")}]

    def parse_declared(self, t: Table[ZhengzhouOptions], raw: dict[Any, Any]) -> dict[Any, Any]:
        """``{"doubles": [keys]}`` (ZZ-4): each must be enabled in the room;
        ``four_wildcards`` needs wildcards, ``kong_bloom`` a win by ``kong_replacement``
        (which doubles anyway)."""
        keys = declared_keys(raw, "doubles", {k: v[0] for k, v in DECLARED_DOUBLES.items()})
        opts = t.options
        for k in keys:
            name, option = DECLARED_DOUBLES[k]
            if not getattr(opts, option):
                raise declared_refuse("doubles", Message("d.zz_off", name=name))
        if "four_wildcards" in keys and not opts.wildcard:
            raise declared_refuse("doubles", Message("d.zz_no_wildcards"))
        if "kong_bloom" in keys and t.win_by != "kong_replacement":
            raise declared_refuse("doubles", Message("d.zz_kong_bloom"))
        return {"doubles": keys}

    @staticmethod
    def _units(t: Table[ZhengzhouOptions], a: int, b: int, with_pao: bool) -> tuple[int, Joined]:
        """1 [+ 跑_a + 跑_b] [+1 庄 with dealer_plus_base], and its parts."""
        n = 1
        parts: list[str | Message] = ["1"]
        if with_pao:
            n += t.pao[a] + t.pao[b]
            parts += [Message("zz.pao", n=t.pao[a]), Message("zz.pao", n=t.pao[b])]
        if t.options.dealer_plus_base and t.dealer in (a, b):
            n += 1
            parts.append(Message("zz.dealer_base"))
        return n, Joined(parts, "+", "+")

    def win_payment(self, t: Table[ZhengzhouOptions], payer: int, dbl: list[str]) -> Payment:
        """ZZ-4 for one payer."""
        assert t.winner is not None
        n, units = self._units(t, t.winner, payer, True)
        d = len(dbl)
        amount = t.base * n * 2 ** d
        how = WIN_METHOD_LABELS["kong_replacement" if t.win_by == "kong_replacement"
                                else "self_draw"]
        who = Message("pay.who", seat=SEAT_NAMES[t.winner], how=how)
        formula = (Message("zz.units_doubled", base=fmt(t.base), units=units, d=d,
                           doubles=[DECLARED_DOUBLES[k][0] for k in dbl]) if d else
                   Message("zz.units", base=fmt(t.base), units=units))
        return pay(payer, t.winner, amount, "win", "ZZ-4",
                   Message("pay.line", who=who, formula=formula))

    def kong_payments(self, t: Table[ZhengzhouOptions]) -> list[Payment]:
        """ZZ-5."""
        out = []
        for k in t.kongs:
            for payer in kong_payers(t, k):
                n, units = self._units(t, k.seat, payer, t.options.kong_pao)
                who = Message("pay.who", seat=SEAT_NAMES[k.seat], how=KONG_LABELS[k.type])
                text = Message("pay.line", who=who,
                               formula=Message("zz.units", base=fmt(t.base), units=units))
                out.append(pay(payer, k.seat, t.base * n, "kong", "ZZ-5", text))
        return out

    def payments(self, t: Table[ZhengzhouOptions]) -> tuple[list[Payment], dict[str, Any]]:
        if t.winner is None:                       # C-10
            return (self.kong_payments(t) if t.options.draw_settles_kongs else []), {}
        dbl = self.doubles(t)
        out = [self.win_payment(t, payer, dbl) for payer in t.losers]
        notes = self.seed_notes(t)
        return out + self.kong_payments(t), ({"notes": notes} if notes else {})

    def next_dealer(self, t: Table[ZhengzhouOptions]) -> tuple[int, str]:
        """ZZ-7: the winner deals next; on 荒庄 the dealer stays."""
        return (t.dealer if t.winner is None else t.winner), "ZZ-7"

    # -- what a wait is worth --------------------------------------------------------
    def score_key(self, sit: Situation[ZhengzhouOptions]) -> tuple[Any, ...] | None:
        """ZZ-4: the 七对 and 四混 doubles, where the room has them on."""
        opts = sit.options
        return (opts.seven_pairs_double and self.is_seven_pairs_as_themselves(sit),
                opts.four_wildcards_double and self.has_four_wildcards(sit))

    def wait_score_keys(self, before: Situation[ZhengzhouOptions],
                        tiles: Sequence[Tile]) -> list[tuple[Any, ...] | None] | None:
        """:meth:`score_key` of every wait at once, read off ``before``: the win on ``t``
        pairs off as 七对 exactly when ``before`` has no melds, 13 concealed tiles and
        ``t`` is its one kind held an odd number of times (every count of the 14 even);
        it holds 四混 when a wildcard kind ``w`` is held ``4 - (t == w)`` times or more."""
        opts = before.options
        sp_on, four_on = opts.seven_pairs_double, opts.four_wildcards_double
        if not sp_on and not four_on:
            return [(sp_on, four_on)] * len(tiles)
        counts = before.counts
        single = None                       # the one odd kind of a 七对 wait
        if not before.hand.melds and len(before.hand.concealed) == 13:
            odd = [k for k, c in enumerate(counts) if c & 1]
            if len(odd) == 1:
                single = odd[0]
        wild = before.wildcards
        return [(sp_on and t == single,
                 four_on and any(counts[w] + (t == w) >= 4 for w in wild)) for t in tiles]

    def pricing_judgement(self, sit: Situation[ZhengzhouOptions], key: tuple[Any,
                          ...]) -> Judgement:
        """The shapes present (七对, 四混) from the key, for ZZ-4's doubles."""
        shapes = ["standard"] + [shape for shape, on in zip(("seven_pairs", "four_wildcards"), key)
                                 if on]
        return Judgement([Reading(shape, ()) for shape in shapes])

    def win_fan_keys(self, sit: Situation[ZhengzhouOptions], judgement: Judgement,
                     result: SettlementResult) -> list[str]:
        """ZZ-4: the doubles of the win."""
        keys = self.hand_doubles(sit.options, judgement.readings)
        if sit.options.kong_bloom_double and sit.win_by == "kong_replacement":
            keys.append("kong_bloom")
        return keys


VARIANT = Zhengzhou()
