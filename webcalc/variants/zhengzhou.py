"""郑州 (zhengzhou), seed 001: 下跑, self-draw or 杠开 only, 四混 (RULES ZZ-1..ZZ-7).

Shapes (ZZ-3): standard with wildcards anywhere in the concealed part (C-8); 七对 with
wildcards only as themselves; 四混. No 十三不靠. The best reading (C-6) is the one with
the most enabled doubles (ZZ-4: 七对加倍, 四混加倍).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..messages import Message
from ..options import opt
from .base import NO_SHAPES, SEVEN_PAIRS, Declarable, Judgement, Situation, Variant

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


class Zhengzhou(Variant):
    name = "zhengzhou"
    label = Message("variant.zhengzhou")
    seed = "001"
    Options = ZhengzhouOptions
    win_methods = frozenset({"self_draw", "kong_replacement"})
    win_rule = "ZZ-2"
    efficiency_rules = ("ZZ-1", "ZZ-3")
    chow_allowed = False
    chow_rule = "ZZ-2"

    def wildcards_on(self, opts) -> bool:
        return opts.wildcard

    def is_win(self, sit: Situation) -> bool:
        return bool(self.is_standard(sit) or self.is_seven_pairs_as_themselves(sit)
                    or self.has_four_wildcards(sit))

    def judge(self, sit: Situation) -> Judgement:
        readings = self.standard(sit)
        for special in (self.seven_pairs_as_themselves(sit), self.four_wildcards(sit)):
            if special is not None:
                readings.append(special)
        readings.sort(key=lambda r: -self.shape_doubles(sit.options, r.shape))
        return Judgement(readings)

    def special_waits(self, sit: Situation) -> set[int]:
        return super().special_waits(sit) | self.four_wildcards_waits(sit)

    def missing_by_shape(self, sit: Situation, limit: int = 99) -> dict[str, int]:
        out = super().missing_by_shape(sit, limit)
        four = self.missing_four_wildcards(sit) if sit.wildcards else None
        if four is not None:
            out["four_wildcards"] = four
        return out

    def distance_shapes(self, sit: Situation, kinds_in_play: int = 34) -> frozenset[str] | None:
        """As :meth:`Variant.distance_shapes`, with 四混 when there are wildcards (ZZ-3)."""
        out = super().distance_shapes(sit, kinds_in_play)
        return _WITH_FOUR[out] if sit.wildcards else out

    def declarable(self, opts) -> Declarable | None:
        """ZZ-4: 七对 with ``seven_pairs_double``, 四混 with ``four_wildcards_double`` in a
        room with wildcards (ZZ-3); 杠上花 is the win method's, not declared."""
        keys = tuple((k, DECLARED_DOUBLES[k][0]) for k in ("seven_pairs", "four_wildcards")
                     if getattr(opts, DECLARED_DOUBLES[k][1])
                     and (k != "four_wildcards" or opts.wildcard))
        if not keys:
            return None
        return Declarable("doubles", Message("declared.doubles"), "ZZ-4", keys)

    @classmethod
    def hand_doubles(cls, opts, readings) -> list[str]:
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
    def shape_doubles(opts, shape: str) -> int:
        """ZZ-4: how many enabled doubles a reading's shape brings (七对, 四混)."""
        return int((shape == "seven_pairs" and opts.seven_pairs_double)
                   or (shape == "four_wildcards" and opts.four_wildcards_double))


VARIANT = Zhengzhou()
