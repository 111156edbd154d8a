"""三门峡 (sanmenxia), seed 000: self-draw only, 四混, 十三不靠 and 表 (RULES SMX-1..SMX-8).

Shapes (SMX-3): standard with wildcards anywhere in the concealed part (C-8); 七对 with
wildcards only as themselves; 四混 (the four wildcard tiles held concealed); 十三不靠.
表 (SMX-4, SMX-5): a 混单吊 win — the 13 tiles before the winning tile, less one wildcard,
are four melds, and the winning tile pairs with that wildcard — counts 1 + ``biao_discards``.

Payments (the settlement section of :class:`Sanmenxia`):
SMX-6: each of the 3 others pays ``底 × (1 + 跑_winner + 跑_payer) × 2^表``, or with
``pao_doubles_with_biao`` off ``底 × 2^表 + 底 × (跑_winner + 跑_payer)``. No dealer factor.
SMX-7: 明杠 the discarder pays 1 底, 暗杠 each other player pays 1 底, 绕杠 (``added``) the
supplier of the ponged tile pays 1 底; with ``kong_pao`` + (跑_konger + 跑_payer) 底. On 荒庄
no kong is paid. SMX-8: the winner deals next.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import permutations
from typing import Any

from ..decompose import KNITTED_RUNS, Group, Reading
from ..messages import Message
from ..options import opt
from ..settlement import (
    KONG_LABELS,
    MAX_BIAO_DISCARDS,
    SEAT_NAMES,
    Payment,
    SettlementResult,
    Table,
    _is_int,
    declared_refuse,
    fmt,
    kong_payers,
    pay,
)
from ..tables import can_complete
from ..tiles import ALL_TILES, Tile
from .base import (
    NO_SHAPES,
    SEVEN_PAIRS,
    WIN_METHOD_LABELS,
    Declarable,
    Judgement,
    Situation,
    Variant,
)
from .sanmenxia_texts import RULES, TEXTS

#: distance_shapes: (the default's, wildcards, 十三不靠) -> one object per set
_SHAPES = {(s, w, k): s | ({"four_wildcards"} if w else set()) | ({"knitted"} if k else set())
           for s in (NO_SHAPES, SEVEN_PAIRS) for w in (False, True) for k in (False, True)}


# -- 十三不靠 (SMX-3): the shape, its distance and its waits ---------------------------------

def knitted_reading(counts: Sequence[int]) -> Reading | None:
    """十三不靠 as SMX-3 reads it: 147, 258 and 369 each complete in a different suit,
    plus 5 different honors; 14 tiles, no duplicates. ``None`` otherwise."""
    if max(counts) > 1 or sum(counts) != 14:
        return None
    honors = [k for k in range(27, 34) if counts[k]]
    if len(honors) != 5:
        return None
    runs = []
    for suit in range(3):
        ranks = tuple(r for r in range(9) if counts[suit * 9 + r])
        if ranks not in KNITTED_RUNS:
            return None
        runs.append(ranks)
    if len(set(runs)) != 3:
        return None
    groups = []
    for suit, ranks in enumerate(runs):
        ts = tuple(ALL_TILES[suit * 9 + r] for r in ranks)
        groups.append(Group("knitted", ts, (False,) * 3, False, ts))
    for k in honors:
        t = ALL_TILES[k]
        groups.append(Group("single", (t,), (False,), False, (t,)))
    return Reading("knitted", tuple(groups))


def min_missing_knitted(counts: Sequence[int]) -> int:
    """Tiles to draw to make 十三不靠 as SMX-3 reads it."""
    honors = min(5, sum(1 for k in range(27, 34) if counts[k]))
    best = 0
    for runs in permutations(KNITTED_RUNS):
        have = sum(1 for s, ranks in enumerate(runs) for r in ranks if counts[s * 9 + r])
        best = max(best, have)
    return 14 - best - honors


def knitted_waits(counts: Sequence[int]) -> list[int]:
    """Kinds completing 十三不靠 (SMX-3) from 13 tiles."""
    if sum(counts) != 13 or any(c > 1 for c in counts):
        return []
    honors = [k for k in range(27, 34) if counts[k]]
    out: set[int] = set()
    for runs in permutations(KNITTED_RUNS):
        allowed = {s * 9 + r for s, ranks in enumerate(runs) for r in ranks}
        suited = {k for k in range(27) if counts[k]}
        if not suited <= allowed:
            continue
        missing = allowed - suited
        if not missing and len(honors) == 4:
            out |= {k for k in range(27, 34) if not counts[k]}
        elif len(missing) == 1 and len(honors) == 5:
            out |= missing
    return sorted(out)


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


class Sanmenxia(Variant[SanmenxiaOptions]):
    name = "sanmenxia"
    label = Message("variant.sanmenxia")
    texts = TEXTS                              # its words: sanmenxia_texts.py
    rules = RULES
    rule_prefix = "SMX"
    sample_hand = {"hand": "123m456p789s1112z"}
    seed = "000"
    Options = SanmenxiaOptions
    win_methods = frozenset({"self_draw", "kong_replacement"})
    win_rule = "SMX-2"
    chow_allowed = False
    chow_rule = "SMX-2"
    efficiency_rules = ("SMX-1", "SMX-3")
    kong_supplier_rule = "SMX-7"
    declared_fields = ("biao",)
    history_rule = "SMX-5"                      # biao_discards from the winner's turns
    field_rules = {"biao_discards": "SMX-5"}

    def wildcards_on(self, opts: SanmenxiaOptions) -> bool:
        return bool(opts.wildcard)

    def declarable(self, opts: SanmenxiaOptions) -> Declarable | None:
        """SMX-5: the 表 count of a 混单吊 win, in a room with wildcards (SMX-4)."""
        if not opts.wildcard:
            return None
        return Declarable("biao", Message("declared.biao"), "SMX-5",
                          maximum=1 + MAX_BIAO_DISCARDS)

    def kinds_in_play(self, opts: SanmenxiaOptions) -> int:
        return 34 if opts.with_honors else 27          # C-1: 108 tiles without honors

    def is_win(self, sit: Situation[SanmenxiaOptions]) -> bool:
        return bool(self.is_standard(sit) or self.is_seven_pairs_as_themselves(sit)
                    or self.has_four_wildcards(sit)
                    or (not sit.hand.melds and knitted_reading(sit.counts)))

    def judge(self, sit: Situation[SanmenxiaOptions]) -> Judgement:
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

    def special_waits(self, sit: Situation[SanmenxiaOptions]) -> set[int]:
        out = super().special_waits(sit) | self.four_wildcards_waits(sit)
        if not sit.hand.melds:
            out |= set(knitted_waits(sit.counts))
        return out

    def missing_by_shape(self, sit: Situation[SanmenxiaOptions], limit: int = 99) -> dict[str, int]:
        out = super().missing_by_shape(sit, limit)
        four = self.missing_four_wildcards(sit) if sit.wildcards else None
        if four is not None:
            out["four_wildcards"] = four
        if not sit.hand.melds and sit.options.with_honors:
            out["knitted"] = min_missing_knitted(sit.counts)
        return out

    def distance_shapes(self, sit: Situation[SanmenxiaOptions],
                        kinds_in_play: int = 34) -> frozenset[str] | None:
        """As :meth:`Variant.distance_shapes`, with 四混 when there are wildcards and 十三不靠
        without melds when the honors are in play (SMX-3, C-1)."""
        shapes = super().distance_shapes(sit, kinds_in_play)
        assert shapes is not None               # free jokers (free_joker_search)
        return _SHAPES[shapes, bool(sit.wildcards), not sit.hand.melds and kinds_in_play == 34]

    @staticmethod
    def is_wildcard_pair_reading(sit: Situation[SanmenxiaOptions], r: Reading) -> bool:
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
    def is_wildcard_pair_wait(sit: Situation[SanmenxiaOptions]) -> bool:
        """SMX-4 混单吊: the 13 tiles before ``winning_tile``, less one wildcard tile, form
        four melds (so any tile would have won with that wildcard as the eyes).

        False when no winning tile is given or no wildcard was held before it.
        """
        t = sit.winning_tile
        if t is None or not sit.wildcards:
            return False
        if not sit.counts[t]:                     # not held: without_tile refuses it
            return Sanmenxia.any_tile_wait(sit.without_tile(t))
        # any_tile_wait of the 13 tiles before t, read off this situation's counts (no
        # Situation made per wait priced: webcalc/worth.py asks this for every wait)
        jokers = len(sit.jokers)
        real = sit.real_counts
        if t in sit.wildcards:
            jokers -= 1
        else:
            real = real[:t] + (real[t] - 1,) + real[t + 1:]
        return Sanmenxia._four_melds_less_a_wildcard(real, jokers, len(sit.hand.melds))

    @staticmethod
    def any_tile_wait(sit: Situation[SanmenxiaOptions]) -> bool:
        """SMX-4's any-tile wait of a 13-tile hand: less one wildcard tile, it forms four
        melds (with its declared melds), so any tile makes the eyes with that wildcard.
        SMX-5 counts 表 from the turns spent in it (:mod:`webcalc.story`)."""
        return Sanmenxia._four_melds_less_a_wildcard(sit.real_counts, len(sit.jokers),
                                                     len(sit.hand.melds))

    @staticmethod
    def _four_melds_less_a_wildcard(real: tuple[int, ...], jokers: int, melds: int) -> bool:
        """:meth:`any_tile_wait` from the counts: ``real`` tiles and ``jokers`` wildcard
        tiles concealed, ``melds`` declared."""
        return jokers > 0 and can_complete(real, jokers - 1, 4 - melds, 0)

    def takes_history(self, opts: SanmenxiaOptions) -> bool:
        """SMX-5: a history of the winner's turns derives ``biao_discards`` (with wildcards)."""
        return bool(opts.wildcard)

    # -- settlement: SMX-5 表, SMX-6 the win, SMX-7 kongs (荒庄荒杠), SMX-8 -------------
    def pao_max(self, opts: SanmenxiaOptions) -> tuple[int, str | Message]:
        """SMX-6: up to ``pao_max`` where 下跑 (``pao``) is on."""
        if not opts.pao:
            return 0, Message("s.no_pao_option", rule="SMX-6")
        return opts.pao_max, "SMX-6"

    def settlement_fields(self, opts: SanmenxiaOptions) -> frozenset[str]:
        """With wildcards, ``biao_discards`` too (SMX-5)."""
        used = super().settlement_fields(opts)
        return used | {"biao_discards"} if opts.wildcard else used

    @staticmethod
    def biao(t: Table[SanmenxiaOptions]) -> int:
        """SMX-5: 0 unless the win is 混单吊 (SMX-4, from the judgement); then 1 +
        biao_discards. Declared without tiles: the count as declared."""
        if t.declared is not None:
            return int(t.declared["biao"])
        assert t.judgement is not None
        return 1 + t.biao_discards if t.judgement.biao else 0

    def parse_declared(self, t: Table[SanmenxiaOptions], raw: dict[Any, Any]) -> dict[Any, Any]:
        """``{"biao": n}``: the 表 count of the win (SMX-5), 0 unless it was 混单吊 (SMX-4),
        else 1 + the wildcards discarded while waiting; so ``biao_discards`` must not be
        given beside it."""
        n = raw.get("biao", 0)
        n = 0 if n is None else n
        top = 1 + MAX_BIAO_DISCARDS
        if not _is_int(n) or not 0 <= n <= top:
            raise declared_refuse("biao", Message("s.biao_range", n=top))
        if n and not t.options.wildcard:
            raise declared_refuse("biao", Message("d.smx_no_wildcards"))
        if n and t.biao_discards:
            raise declared_refuse("biao", Message("d.smx_biao_discards"))
        return {"biao": n}

    @staticmethod
    def win_payment(t: Table[SanmenxiaOptions], payer: int, b: int) -> Payment:
        """SMX-6 for one payer."""
        assert t.winner is not None
        base, pw, pp = t.base, t.pao[t.winner], t.pao[payer]
        who = Message("pay.who", seat=SEAT_NAMES[t.winner], how=WIN_METHOD_LABELS["self_draw"])
        if t.options.pao_doubles_with_biao:
            amount = base * (1 + pw + pp) * 2 ** b
            formula = Message("smx.win_doubling", base=fmt(base), pw=pw, pp=pp, b=b)
        else:
            amount = base * 2 ** b + base * (pw + pp)
            formula = Message("smx.win_adding", base=fmt(base), pw=pw, pp=pp, b=b)
        return pay(payer, t.winner, amount, "win", "SMX-6",
                   Message("pay.line", who=who, formula=formula))

    @staticmethod
    def kong_payments(t: Table[SanmenxiaOptions]) -> list[Payment]:
        """SMX-7 (only called when there is a winner: 荒庄荒杠)."""
        out = []
        for k in t.kongs:
            for payer in kong_payers(t, k):
                who = Message("pay.who", seat=SEAT_NAMES[k.seat], how=KONG_LABELS[k.type])
                amount, formula = t.base, Message("pay.base_times", base=fmt(t.base), n=1)
                if t.options.kong_pao:
                    pk, pp = t.pao[k.seat], t.pao[payer]
                    amount = t.base * (1 + pk + pp)
                    formula = Message("smx.kong_pao", base=fmt(t.base), pk=pk, pp=pp)
                out.append(pay(payer, k.seat, amount, "kong", "SMX-7",
                               Message("pay.line", who=who, formula=formula)))
        return out

    def payments(self, t: Table[SanmenxiaOptions]) -> tuple[list[Payment], dict[str, Any]]:
        if t.winner is None:
            return [], {}                          # C-10, SMX-7: 荒庄荒杠
        b = self.biao(t)
        out = [self.win_payment(t, payer, b) for payer in t.losers]
        return out + self.kong_payments(t), {"biao": b}

    def next_dealer(self, t: Table[SanmenxiaOptions]) -> tuple[int, str]:
        """SMX-8: the winner deals next; on 荒庄 the dealer stays."""
        return (t.dealer if t.winner is None else t.winner), "SMX-8"

    # -- what a wait is worth --------------------------------------------------------
    def score_key(self, sit: Situation[SanmenxiaOptions]) -> tuple[Any, ...] | None:
        """SMX-4: 混单吊 or not."""
        return (self.is_wildcard_pair_wait(sit),)

    def wait_score_keys(self, before: Situation[SanmenxiaOptions],
                        tiles: Sequence[Tile]) -> list[tuple[Any, ...] | None] | None:
        """:meth:`score_key` of every wait at once: a win on any tile is 混单吊 exactly when
        ``before`` is an any-tile wait (:meth:`is_wildcard_pair_wait` of ``before`` + the
        tile is :meth:`any_tile_wait` of ``before``)."""
        key = (bool(before.wildcards) and self.any_tile_wait(before),)
        return [key] * len(tiles)

    def pricing_judgement(self, sit: Situation[SanmenxiaOptions], key: tuple[Any,
                          ...]) -> Judgement:
        """The 表 of SMX-4 from the key."""
        judgement = super().pricing_judgement(sit, key)
        judgement.biao = 1 if key[0] else 0
        return judgement

    def win_extras(self, result: SettlementResult) -> dict[str, Any]:
        """``biao``: the 表 count of the win (SMX-5)."""
        return {"biao": result.biao or 0}


VARIANT = Sanmenxia()
