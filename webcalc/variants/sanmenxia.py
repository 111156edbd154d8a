"""三门峡 (sanmenxia), seed 000: self-draw only, 四混, 十三不靠 and 表 (RULES SMX-1..SMX-8).

Shapes (SMX-3): standard with wildcards anywhere in the concealed part (C-8); 七对 with
wildcards only as themselves; 四混 (the four wildcard tiles held concealed); 十三不靠.
表 (SMX-4, SMX-5): a 混单吊 win — the 13 tiles before the winning tile, less one wildcard,
are four melds, and the winning tile pairs with that wildcard — counts 1 + ``biao_discards``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..decompose import knitted_reading, knitted_waits, min_missing_knitted
from ..messages import Message
from ..options import opt
from ..tables import can_complete
from .base import NO_SHAPES, SEVEN_PAIRS, Declarable, Judgement, Situation, Variant

#: distance_shapes: (the default's, wildcards, 十三不靠) -> one object per set
_SHAPES = {(s, w, k): s | ({"four_wildcards"} if w else set()) | ({"knitted"} if k else set())
           for s in (NO_SHAPES, SEVEN_PAIRS) for w in (False, True) for k in (False, True)}

#: SMX-5: at most this many wildcards discarded while in the any-tile wait (the other three
#: of the four), so 表 is at most 1 + this
MAX_BIAO_DISCARDS = 3


@dataclass(frozen=True)
class SanmenxiaOptions:
    """Room options of 三门峡 (RULES, 三门峡 section)."""

    with_honors: bool = field(default=True, metadata=opt(
        Message("opt.sanmenxia.with_honors"), Message("opt.sanmenxia.with_honors.help"), "C-1",
        also=("SMX-3",)))
    wildcard: bool = field(default=True, metadata=opt(
        Message("opt.sanmenxia.wildcard"), Message("opt.sanmenxia.wildcard.help"), "SMX-1",
        also=("C-2", "C-7", "SMX-3", "SMX-4", "SMX-5")))
    pao: bool = field(default=True, metadata=opt(
        Message("opt.sanmenxia.pao"), Message("opt.sanmenxia.pao.help"), "SMX-6",
        also=("C-15",)))
    pao_max: int = field(default=1, metadata=opt(
        Message("opt.sanmenxia.pao_max"), Message("opt.sanmenxia.pao_max.help"), "SMX-6",
        minimum=0, maximum=10,
        also=("C-15",)))
    pao_doubles_with_biao: bool = field(default=True, metadata=opt(
        Message("opt.sanmenxia.pao_doubles_with_biao"), Message("opt.sanmenxia.pao_doubles_with_biao.help"),
        "SMX-6"))
    kong_pao: bool = field(default=False, metadata=opt(
        Message("opt.sanmenxia.kong_pao"), Message("opt.sanmenxia.kong_pao.help"), "SMX-7"))


class Sanmenxia(Variant):
    name = "sanmenxia"
    label = Message("variant.sanmenxia")
    seed = "000"
    Options = SanmenxiaOptions
    win_methods = frozenset({"self_draw", "kong_replacement"})
    win_rule = "SMX-2"
    chow_allowed = False
    chow_rule = "SMX-2"
    efficiency_rules = ("SMX-1", "SMX-3")

    def wildcards_on(self, opts) -> bool:
        return opts.wildcard

    def declarable(self, opts) -> Declarable | None:
        """SMX-5: the 表 count of a 混单吊 win, in a room with wildcards (SMX-4)."""
        if not opts.wildcard:
            return None
        return Declarable("biao", Message("declared.biao"), "SMX-5",
                          maximum=1 + MAX_BIAO_DISCARDS)

    def kinds_in_play(self, opts) -> int:
        return 34 if opts.with_honors else 27          # C-1: 108 tiles without honors

    def is_win(self, sit: Situation) -> bool:
        return bool(self.is_standard(sit) or self.is_seven_pairs_as_themselves(sit)
                    or self.has_four_wildcards(sit)
                    or (not sit.hand.melds and knitted_reading(sit.counts)))

    def judge(self, sit: Situation) -> Judgement:
        readings = self.standard(sit)
        for special in (self.seven_pairs_as_themselves(sit), self.four_wildcards(sit),
                        None if sit.hand.melds else knitted_reading(sit.counts)):
            if special is not None:
                readings.append(special)
        dandiao = bool(readings) and self.is_wildcard_pair_wait(sit)
        if dandiao:
            # C-6: show first the reading in which the wildcard makes the eyes
            readings.sort(key=lambda r: not self.is_wildcard_pair_reading(sit, r))
        return Judgement(readings, biao=1 if dandiao else 0)

    def special_waits(self, sit: Situation) -> set[int]:
        out = super().special_waits(sit) | self.four_wildcards_waits(sit)
        if not sit.hand.melds:
            out |= set(knitted_waits(sit.counts))
        return out

    def missing_by_shape(self, sit: Situation, limit: int = 99) -> dict[str, int]:
        out = super().missing_by_shape(sit, limit)
        four = self.missing_four_wildcards(sit) if sit.wildcards else None
        if four is not None:
            out["four_wildcards"] = four
        if not sit.hand.melds and sit.options.with_honors:
            out["knitted"] = min_missing_knitted(sit.counts)
        return out

    def distance_shapes(self, sit: Situation, kinds_in_play: int = 34) -> frozenset[str] | None:
        """As :meth:`Variant.distance_shapes`, with 四混 when there are wildcards and 十三不靠
        without melds when the honors are in play (SMX-3, C-1)."""
        return _SHAPES[super().distance_shapes(sit, kinds_in_play), bool(sit.wildcards),
                       not sit.hand.melds and kinds_in_play == 34]

    @staticmethod
    def is_wildcard_pair_reading(sit: Situation, r) -> bool:
        """SMX-4's reading of a 混单吊 win: the eyes are the winning tile and a held
        wildcard — two wildcards (a ``free`` pair) when the winning tile is one, else the
        winning tile beside one wildcard standing in for it."""
        p = r.pair
        if p is None:
            return False
        if sit.winning_tile in sit.wildcards:
            return p.kind == "free"
        return p.kind == "pair" and sum(p.wild) == 1 and sit.winning_tile in p.real_tiles

    @staticmethod
    def is_wildcard_pair_wait(sit: Situation) -> bool:
        """SMX-4 混单吊: the 13 tiles before ``winning_tile``, less one wildcard tile, form
        four melds (so any tile would have won with that wildcard as the eyes).

        False when no winning tile is given or no wildcard was held before it.
        """
        if sit.winning_tile is None or not sit.wildcards:
            return False
        return Sanmenxia.any_tile_wait(sit.without_tile(sit.winning_tile))

    @staticmethod
    def any_tile_wait(sit: Situation) -> bool:
        """SMX-4's any-tile wait of a 13-tile hand: less one wildcard tile, it forms four
        melds (with its declared melds), so any tile makes the eyes with that wildcard.
        SMX-5 counts 表 from the turns spent in it (:mod:`webcalc.story`)."""
        if not sit.jokers:
            return False
        need = 4 - len(sit.hand.melds)
        return can_complete(sit.real_counts, len(sit.jokers) - 1, need, 0)

    def takes_history(self, opts) -> bool:
        """SMX-5: a history of the winner's turns derives ``biao_discards`` (with wildcards)."""
        return opts.wildcard


VARIANT = Sanmenxia()
