"""晋城 (jincheng), seed 003: no wildcards, 十三幺, 上架, 前包/后包 (RULES JC-1..JC-9).

Shapes (JC-2): standard; 七对 concealed only; 十三幺 concealed (one each of the 13
terminals and honors, one of them paired). Win methods (JC-4): self-draw, discard, robbing
an exposed kong, 杠上开花.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..decompose import (min_missing_thirteen_orphans, thirteen_orphans_reading,
                         thirteen_orphans_waits)
from ..errors import InputError
from ..options import opt
from .base import WIN_METHODS, Judgement, Situation, Variant


@dataclass(frozen=True)
class JinchengOptions:
    """Room options of 晋城 (RULES, 晋城 section)."""

    draw_penalty: int = field(default=2, metadata=opt(
        "后包", "荒庄时庄家付给每位闲家的底数（种子规则也有 1 的说法）。", "JC-8",
        minimum=0, maximum=100))


class Jincheng(Variant):
    name = "jincheng"
    label = "晋城"
    seed = "003"
    Options = JinchengOptions
    win_methods = frozenset(WIN_METHODS)
    win_rule = "JC-4"

    def wildcards(self, opts, indicator):
        if indicator is not None:
            raise InputError("bad_option", "混皮：晋城麻将没有混牌，不能给指示牌（JC-1）。",
                             "indicator")
        return ()

    def is_win(self, sit: Situation) -> bool:
        return bool(self.is_standard(sit) or self.is_seven_pairs_as_themselves(sit)
                    or (not sit.hand.melds and thirteen_orphans_reading(sit.counts)))

    def judge(self, sit: Situation) -> Judgement:
        readings = self.standard(sit)
        for special in (self.seven_pairs_as_themselves(sit),
                        None if sit.hand.melds else thirteen_orphans_reading(sit.counts)):
            if special is not None:
                readings.append(special)
        return Judgement(readings)


    def special_waits(self, sit: Situation) -> set[int]:
        out = super().special_waits(sit)
        if not sit.hand.melds:
            out |= set(thirteen_orphans_waits(sit.counts))
        return out

    def missing_by_shape(self, sit: Situation) -> dict[str, int]:
        out = super().missing_by_shape(sit)
        if not sit.hand.melds:
            out["thirteen_orphans"] = min_missing_thirteen_orphans(sit.counts)
        return out


VARIANT = Jincheng()
