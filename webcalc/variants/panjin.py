"""盘锦 (panjin), seed 002: wildcards only in sequences and the pair, 三色全, 幺九, 刻, 顺,
and the 番 of PJ-10 (RULES PJ-1..PJ-14).

A win needs, besides the standard shape (or 七对 with its option):

* PJ-2 — wildcard tiles only in concealed sequences and the pair, never in a triplet or kong
  (not even as their own face); no meld holds a wildcard tile, except 混杠 (``wildcard_kong``);
* PJ-4 — the real suited tiles (melds included) show all three suits; exactly two after the
  dealer's 断门; one more allowed with ``one_suit``;
* PJ-5 — a real 1 or 9 or a real honor somewhere;
* PJ-6 — a pong, kong or concealed triplet of real tiles, or a real honor pair as the eyes;
* PJ-7 — a sequence, unless ``piaohu`` (then an all-triplet hand wins as 飘胡); 手把一 (four
  melds declared) only as 飘胡. 七对 (PJ-8) is exempt from PJ-6 and PJ-7.

Payments (the settlement section of :class:`Panjin`):
PJ-10: every 番 doubles (群鸡 ×4), multiplied together; with a settlement the situational
ones join the hand's own: 自摸 (and 杠上开花, a self-draw by C-14), 点炮, 杠上开花
(``kong_bloom``), 杠流泪 (``kong_discard``).
PJ-11, per loser: ×2 when the winner or this loser deals (never ×4); ×2 when the winner has
加钢, ×2 when this loser has (``all_jiagang``: everyone).
PJ-12: self-draw — each loser pays its share; discard — the discarder pays all three shares
(点炮包三家), the 点炮 ×2 on its own share only, or on all three with
``discard_doubles_all``.
PJ-13 (option ``kong``): 明杠/补杠 each other player pays 1 底, 暗杠 2, 混杠 64; never
multiplied; paid on 荒庄 too. PJ-14: who deals next.
"""

from __future__ import annotations

import dataclasses
import math
import operator
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..compiled import pjunit as _pjunit
from ..decompose import (
    TERMINALS_AND_HONORS,
    JokerPolicy,
    Reading,
    achievable_flags,
    is_seven_pairs,
    seven_pairs_reading,
    seven_pairs_waits,
)
from ..errors import BadMeldError, BadWinByError
from ..hand import Meld
from ..messages import Joined, Message
from ..options import opt
from ..settlement import (
    KONG_TYPES,
    SEAT_NAMES,
    Payment,
    SettlementResult,
    Table,
    declared_keys,
    declared_refuse,
    flat_kong_payments,
    fmt,
    pay,
)
from ..shanten import hand_caps
from ..tables import fits_standard, standard_waits
from ..tiles import ALL_TILES, Tile
from ..wildcards import PANJIN, wildcards_from_indicator
from .base import WIN_METHOD_LABELS, Declarable, Judgement, Situation, Variant, reason
from .panjin_advice import discards_advice, own_advice, useful_search
from .panjin_draws import discards_search, discards_useful, panjin_standard_drawn
from .panjin_lower import count_lower
from .panjin_search import panjin_meld_flags, panjin_missing
from .panjin_texts import RULES, TEXTS
from .panjin_worth import ONE_BAMBOO, reading_fan, wait_keys

PJ_POLICY = JokerPolicy(in_triplet=False)            # PJ-2
_yaojiu_of = operator.itemgetter(*TERMINALS_AND_HONORS)   # 幺九 counts of 34 (PJ-5)


@dataclass(frozen=True)
class PanjinOptions:
    """Room options of 盘锦, all from the seed's room list (RULES, 盘锦 section)."""

    wildcard_mode: str = field(default="next", metadata=opt(
        Message("opt.panjin.wildcard_mode"), Message("opt.panjin.wildcard_mode.help"), "PJ-1",
        choices=(("none", Message("opt.panjin.choice.none")),
                 ("next", Message("opt.panjin.choice.next")),
                 ("both", Message("opt.panjin.choice.both"))),
        also=("C-2", "C-7", "PJ-2", "PJ-10")))
    jiagang: bool = field(default=False, metadata=opt(
        Message("opt.panjin.jiagang"), Message("opt.panjin.jiagang.help"), "PJ-11"))
    all_jiagang: bool = field(default=False, metadata=opt(
        Message("opt.panjin.all_jiagang"), Message("opt.panjin.all_jiagang.help"), "PJ-11"))
    duanmen: bool = field(default=False, metadata=opt(
        Message("opt.panjin.duanmen"), Message("opt.panjin.duanmen.help"), "PJ-4"))
    qionghu: bool = field(default=False, metadata=opt(
        Message("opt.panjin.qionghu"), Message("opt.panjin.qionghu.help"), "PJ-10"))
    jihu: bool = field(default=False, metadata=opt(
        Message("opt.panjin.jihu"), Message("opt.panjin.jihu.help"), "PJ-10"))
    kong: bool = field(default=True, metadata=opt(
        Message("opt.panjin.kong"), Message("opt.panjin.kong.help"), "PJ-13",
        also=("C-10",)))
    no_dealer_repeat: bool = field(default=False, metadata=opt(
        Message("opt.panjin.no_dealer_repeat"), Message("opt.panjin.no_dealer_repeat.help"), "PJ-14"))
    piaohu: bool = field(default=False, metadata=opt(
        Message("opt.panjin.piaohu"), Message("opt.panjin.piaohu.help"), "PJ-7",
        also=("PJ-10",)))
    one_suit: bool = field(default=False, metadata=opt(
        Message("opt.panjin.one_suit"), Message("opt.panjin.one_suit.help"), "PJ-4",
        also=("PJ-10",)))
    no_pass_win: bool = field(default=False, metadata=opt(
        Message("opt.panjin.no_pass_win"), Message("opt.panjin.no_pass_win.help"), "PJ-9"))
    seven_pairs: bool = field(default=False, metadata=opt(
        Message("opt.panjin.seven_pairs"), Message("opt.panjin.seven_pairs.help"), "PJ-8",
        also=("PJ-10",)))
    kong_discard: bool = field(default=False, metadata=opt(
        Message("opt.panjin.kong_discard"), Message("opt.panjin.kong_discard.help"), "PJ-10"))
    kong_bloom: bool = field(default=False, metadata=opt(
        Message("opt.panjin.kong_bloom"), Message("opt.panjin.kong_bloom.help"), "PJ-10",
        also=("C-14",)))
    jiahu: bool = field(default=False, metadata=opt(
        Message("opt.panjin.jiahu"), Message("opt.panjin.jiahu.help"), "PJ-10"))
    wildcard_kong: bool = field(default=False, metadata=opt(
        Message("opt.panjin.wildcard_kong"), Message("opt.panjin.wildcard_kong.help"), "PJ-13",
        also=("PJ-2",)))
    discard_doubles_all: bool = field(default=False, metadata=opt(
        Message("opt.panjin.discard_doubles_all"), Message("opt.panjin.discard_doubles_all.help"),
        "PJ-12"))


FAN_KEYS = ("self_draw", "discard", "qionghu", "jihu", "qunji", "piaohu", "one_suit",
            "seven_pairs", "kong_bloom", "kong_discard", "jiahu")
FAN_NAMES = {k: Message(f"fan.{k}") for k in FAN_KEYS}   # 自摸 点炮 穷胡 鸡胡 群鸡 飘胡 …


#: PJ-10: the hand's own 番 (what the tiles decide, so what a win without tiles declares) →
#: the room option without which it is none (群鸡 and 鸡胡 both by ``jihu``)
HAND_FAN_OPTION = {"piaohu": "piaohu", "one_suit": "one_suit", "seven_pairs": "seven_pairs",
                   "jihu": "jihu", "qunji": "jihu", "qionghu": "qionghu", "jiahu": "jiahu"}


#: what each 番 multiplies by where it is not ×2 (PJ-10: 群鸡 ×4); every other key doubles
FAN_MULTIPLIERS = {"qunji": 4}
#: PJ-13: what each other player pays a kong, in 底
KONG_UNITS = {"exposed": 1, "added": 1, "concealed": 2, "wildcard": 64}
CITES = ("PJ-10", "PJ-11", "PJ-12")


def fan(key: str, multiplier: int = 2) -> dict[Any, Any]:
    """One 番 entry: ``{"name", "key", "multiplier"}`` (PJ-10)."""
    return {"name": FAN_NAMES[key], "key": key, "multiplier": multiplier}


class Panjin(Variant[PanjinOptions]):
    name = "panjin"
    label = Message("variant.panjin")
    texts = TEXTS                              # its words: panjin_texts.py
    rules = RULES
    rule_prefix = "PJ"
    sample_hand = {"hand": "123m456p789s1112z", "indicator": "5m"}
    sample_rule = "PJ-10"                       # the rules page's example id (杠流泪)
    seed = "002"
    Options = PanjinOptions
    cycle = PANJIN
    win_methods = frozenset({"self_draw", "discard", "kong_replacement"})
    win_rule = "PJ-9"
    efficiency_rules = ("PJ-1", "PJ-2", "PJ-4", "PJ-5", "PJ-6", "PJ-7", "PJ-8")
    policy = PJ_POLICY
    free_joker_search = False                   # PJ-2, PJ-4..PJ-7: its own 牌理 search
    fan_multipliers = FAN_MULTIPLIERS
    declared_fields = ("fan",)
    discard_win_fields = frozenset({"kong_discard"})    # PJ-10: 杠流泪 is a 点炮 factor only
    #: 断门 (PJ-4), 杠流泪 (PJ-10), 加钢 (PJ-11)
    field_rules = {"duanmen": "PJ-4", "kong_discard": "PJ-10", "jiagang": "PJ-11"}

    def wildcards_on(self, opts: PanjinOptions) -> bool:
        return bool(opts.wildcard_mode != "none")

    def declarable(self, opts: PanjinOptions) -> Declarable | None:
        """PJ-10: the hand's own 番 whose room option is on (穷胡 needs wildcards too)."""
        keys = tuple((k, FAN_NAMES[k]) for k, option in HAND_FAN_OPTION.items()
                     if getattr(opts, option)
                     and (k != "qionghu" or self.wildcards_on(opts)))
        if not keys:
            return None
        return Declarable("fan", Message("declared.fan"), "PJ-10", keys)

    def wildcards(self, opts: PanjinOptions, indicator: Tile | None) -> tuple[Tile, ...]:
        if indicator is None or not self.wildcards_on(opts):
            return ()
        return wildcards_from_indicator(indicator, PANJIN, both=opts.wildcard_mode == "both")

    def check_meld(self, opts: PanjinOptions, meld: Meld, wildcards: tuple[Tile, ...],
                   index: int) -> None:
        super().check_meld(opts, meld, wildcards, index)                # no 拾/搶 (JC-10)
        if meld.is_kong and not opts.kong:
            raise BadMeldError(Message("pj.no_kong_option", rule="PJ-13"), "melds")
        wild = [t for t in meld.tiles if t in wildcards]
        if wild:
            if meld.is_kong and len(wild) == 4 and opts.wildcard_kong:
                return                                  # 混杠
            code = "pj.wild_in_kong" if meld.is_kong else "pj.wild_in_meld"
            raise BadMeldError(Message(code, tile=wild[0], rule="PJ-2"), "melds")

    def special_waits(self, sit: Situation[PanjinOptions]) -> set[int]:
        """七对 with jokers standing in (PJ-8), only with its option."""
        if not sit.options.seven_pairs or sit.hand.melds:
            return set()
        out = set(seven_pairs_waits(sit.real_counts, len(sit.jokers)))
        wild = {int(w) for w in sit.wildcards}
        out -= wild
        if sum(c % 2 for c in sit.real_counts) <= len(sit.jokers) + 1:
            out |= wild
        return out

    def check_winning_tile(self, win_by: str, winning: Tile | None, wildcards: tuple[Tile,
                           ...]) -> None:
        """C-14, PJ-2: a wildcard is never discarded, so it cannot be won on a discard."""
        if win_by == "discard" and winning is not None and winning in wildcards:
            raise BadWinByError(Message("pj.discard_wild", tile=winning, rule="PJ-2"),
                                "win_by")

    def can_discard(self, sit: Situation[PanjinOptions], t: Tile) -> bool:
        """PJ-2: a wildcard is never discarded (unless the hand holds nothing else)."""
        return t not in sit.wildcards or len(sit.jokers) == len(sit.hand.concealed)

    def missing_by_shape(self, sit: Situation[PanjinOptions], limit: int = 99) -> dict[str, int]:
        """Exact distances (C-12) of the standard shape with PJ-2's joker places and
        PJ-4..PJ-7, and of 七对 with its option (PJ-8), those ≤ ``limit``:
        :func:`webcalc.variants.panjin_search.panjin_missing`."""
        return panjin_missing(sit, self.allowed_suit_counts(sit), limit)

    # -- hand-level conditions ------------------------------------------------------
    def useful_search(self, sit: Situation, bound: int | None = None,
                      standard: tuple[Any, ...] | None = None) -> tuple[int, set[int]]:
        """PJ-2, PJ-4..PJ-8: :func:`webcalc.variants.panjin_advice.useful_search`."""
        return useful_search(sit, self.allowed_suit_counts(sit),
                             lambda: [int(t) for t in self.winning_kinds(sit)], bound, standard)

    def own_advice(self, sit: Situation, kinds: int, visible: Sequence[int],
                   useful: bool = True) -> tuple[Any, ...] | None:
        """A 13-tile hand's waits and 牌理 in one pass: :func:`own_advice`."""
        return own_advice(self, sit, kinds, visible, useful)

    def own_discards_advice(self, sit: Situation, kinds: int,
                            visible: Sequence[int]) -> tuple[Any, ...] | None:
        """A 14-tile hand's 牌理 and ready discards in one compiled call:
        :func:`webcalc.variants.panjin_advice.discards_advice`."""
        return discards_advice(self, sit, kinds, visible)

    def discards_search(self, sit: Situation) -> tuple[int | None, dict[int, Any]]:
        """Every discard at once: :func:`webcalc.variants.panjin_draws.discards_search`."""
        return discards_search(sit, self.allowed_suit_counts(sit))

    def discards_useful(self, sit: Situation, bound: int,
                        pre: dict[int, Any]) -> dict[int, tuple[int, int]] | None:
        """Every discard's :meth:`useful_search` at once:
        :func:`webcalc.variants.panjin_draws.discards_useful`."""
        return discards_useful(sit, self.allowed_suit_counts(sit),
                               lambda s: [int(t) for t in self.winning_kinds(s)], bound, pre)

    @staticmethod
    def real_tiles(sit: Situation[PanjinOptions]) -> list[Tile]:
        """Every non-wildcard tile of the hand, melds included (a 混杠 is all wildcards)."""
        wild = set(sit.wildcards)
        return [t for t in sit.hand.all_tiles() if t not in wild]

    @staticmethod
    def allowed_suit_counts(sit: Situation[PanjinOptions]) -> set[int]:
        """PJ-4: 3 suits; 2 after 断门; 1 more with ``one_suit``."""
        duanmen = sit.settlement is not None and sit.settlement.get("duanmen") is True
        if sit.options.one_suit:
            return {1, 2} if duanmen else {1, 3}
        return {2} if duanmen else {3}

    def _suits_shown(self, sit: Situation[PanjinOptions]) -> int:
        """How many suits the hand's real tiles show, melds included (PJ-4, 清一色):
        without melds read off the real counts."""
        if sit.hand.melds:
            return len({t.suit for t in self.real_tiles(sit) if not t.is_honor})
        c = sit.real_counts
        return (any(c[0:9]) + any(c[9:18])) + any(c[18:27])

    def hand_reasons(self, sit: Situation[PanjinOptions]) -> list[dict[Any, Any]]:
        """The failures of PJ-4 and PJ-5, which no reading can change (without melds read
        off the real counts, as :meth:`_hand_ok`)."""
        n_suits = self._suits_shown(sit)
        if sit.hand.melds:
            yaojiu = any(t.is_terminal_or_honor for t in self.real_tiles(sit))
        else:
            yaojiu = any(_yaojiu_of(sit.real_counts))
        out = []
        allowed = self.allowed_suit_counts(sit)
        if n_suits not in allowed:
            want = [Message(f"pj.suits_want.{n}") for n in sorted(allowed, reverse=True)]
            out.append(reason("PJ-4", "pj.suits", n=n_suits, want=want))
        if not yaojiu:
            out.append(reason("PJ-5", "pj.no_terminal"))
        return out

    # -- reading-level conditions ---------------------------------------------------
    def reading_reasons(self, sit: Situation[PanjinOptions], r: Reading) -> list[dict[Any, Any]]:
        """The failures of PJ-6 and PJ-7 for one standard reading."""
        if r.shape == "seven_pairs":
            return []
        out = []
        if not self.has_triplet(r, sit.wildcards):
            out.append(reason("PJ-6", "pj.no_triplet"))
        has_seq = self.has_sequence(r)
        if not has_seq and not sit.options.piaohu:
            out.append(reason("PJ-7", "pj.no_sequence"))
        elif len(sit.hand.melds) == 4 and has_seq:
            out.append(reason("PJ-7", "pj.single_wait_piaohu"))
        return out

    @staticmethod
    def has_triplet(r: Reading, wildcards: tuple[Tile, ...]) -> bool:
        """PJ-6: a pong/kong/triplet of real tiles (a 混杠 is not), or a real honor pair
        as the eyes."""
        for g in r.groups:
            kind = g.kind                          # (a triplet's tiles are one kind)
            if (kind == "triplet" or kind == "kong" or (kind == "pair" and g.tiles[0].is_honor)) \
                    and True not in g.wild and g.tiles[0] not in wildcards:
                return True
        return False

    @staticmethod
    def has_sequence(r: Reading) -> bool:
        """PJ-7: a chow or concealed sequence (three wildcards are any sequence, C-13)."""
        for g in r.groups:
            if g.kind == "sequence" or (g.kind == "free" and len(g.tiles) == 3):
                return True
        return False

    # -- judging --------------------------------------------------------------------
    def structural_readings(self, sit: Situation[PanjinOptions]) -> list[Reading]:
        readings = self.standard(sit, PJ_POLICY)
        if sit.options.seven_pairs and not sit.hand.melds:
            sp = seven_pairs_reading(sit.real_counts, sit.jokers)
            if sp is not None:
                readings.append(sp)
        return readings

    def is_win(self, sit: Situation[PanjinOptions]) -> bool:
        """Cheap form of :meth:`judge`: PJ-4/PJ-5 first, then a split search that tracks
        only whether a 刻 (PJ-6) and a sequence (PJ-7) can be had, instead of listing."""
        if not self._hand_ok(sit):
            return False
        meld_trip, meld_seq = self._meld_flags(sit)
        return self._structure_ok(sit.options, sit.real_counts, len(sit.jokers),
                                  len(sit.hand.melds), meld_trip, meld_seq)

    def winning_kinds(self, sit: Situation[PanjinOptions],
                      caps: tuple[list[int], list[int], int] | None = None,
                      ready: tuple[tuple[int, int, bool] | None] | None = None,
                      live_only: bool = False) -> list[Tile]:
        """Waits without building a hand per candidate: the shape candidates from the
        unit tables (unless :meth:`_ready_search` finds no standard hand one tile away and
        nothing else could keep one: then 七对's alone), narrowed by
        :meth:`_standard_filter`; a real kind its search shows a
        complete standard hand drawing wins outright, the others (七对, wildcard kinds,
        kinds with no copy left to hold) go through PJ-4/PJ-5 updated by the one added tile
        and the PJ-6/PJ-7 split search. No wildcard kind for a ``discard`` win (C-9, PJ-2).
        ``caps``, ``ready``: :func:`hand_caps` and ``(``:meth:`_ready_search```)`` of ``sit``
        when the caller has them. ``live_only``: the caller drops the kinds with no live
        copy (C-9), so those only :meth:`_kept_unsearched` keeps are not looked for (each
        is dead: a real kind held to its cap, a wildcard kind with none left to draw)."""
        keep = self.special_waits(sit)
        if caps is None:
            caps = hand_caps(sit)          # the caps every step below reads, once
        found = self._ready_search(sit, caps) if ready is None else ready[0]
        # no kind _standard_filter keeps without the search: with no standard hand one tile
        # away only 七对's candidates stay, with one the search's own kinds (neither asks
        # standard_waits)
        searched_only = live_only or not self._kept_unsearched(sit)
        only_keep = found is None and searched_only
        candidates, proven = set(keep), set[int]()
        if found is not None and searched_only:
            candidates |= _drawn_kinds(found, sit.wildcards)
        elif not only_keep:
            candidates |= set(standard_waits(sit.real_counts, len(sit.jokers),
                                             len(sit.hand.melds), sit.wildcards, False))
        wild = set(sit.wildcards)
        if sit.win_by == "discard":
            candidates -= {int(w) for w in wild}   # C-9, PJ-2: a wildcard is never discarded
        if not only_keep:
            candidates, proven = self._standard_filter(sit, candidates, found, caps, keep)
        if candidates <= proven:                   # no split search: nothing more to read
            return [ALL_TILES[k] for k in sorted(candidates)]
        real = self.real_tiles(sit)
        suits = {t.suit for t in real if not t.is_honor}
        yaojiu = any(t.is_terminal_or_honor for t in real)
        allowed = self.allowed_suit_counts(sit)
        meld_trip, meld_seq = self._meld_flags(sit)
        out = []
        for k in sorted(candidates):
            if k in proven:                        # a complete standard hand draws it
                out.append(ALL_TILES[k])
                continue
            t = ALL_TILES[k]
            counts, jokers = list(sit.real_counts), len(sit.jokers)
            if t in wild:
                jokers += 1
                k_suits, k_yaojiu = suits, yaojiu
            else:
                counts[k] += 1
                k_suits = suits if t.is_honor else suits | {t.suit}
                k_yaojiu = yaojiu or t.is_terminal_or_honor
            if len(k_suits) in allowed and k_yaojiu and self._structure_ok(
                    sit.options, tuple(counts), jokers, len(sit.hand.melds), meld_trip, meld_seq):
                out.append(t)
        return out

    def _ready_search(self, sit: Situation[PanjinOptions],
                      caps: tuple[list[int], list[int], int] | None = None,
                      ) -> tuple[int, int, bool] | None:
        """The bounded search :meth:`_standard_filter` reads: the complete standard hands
        one tile away (:func:`webcalc.variants.panjin_draws.panjin_standard_drawn` at limit
        1, exact under PJ-2, PJ-4..PJ-7): ``(1, kinds they draw, one draws a wildcard)``,
        or ``None`` when there is none. ``caps``: :func:`hand_caps` of ``sit`` when the
        caller has them."""
        face, real_caps, room = caps if caps is not None else hand_caps(sit)
        jokers = len(sit.jokers)
        allowed = self.allowed_suit_counts(sit)
        # the count (PJ-4..PJ-6 seen, never above the distance) skips a search that would
        # find nothing; compiled it costs a fraction of the search, but its Python twin costs
        # more than this limit-1 search itself (about 3.4 ms against 0.25 ms a hand), so
        # without the compiled part the search runs unchecked, to the same answer
        if _pjunit is not None:
            lower = count_lower(sit, real_caps, allowed)
            if lower is None or lower > 1:
                return None                                  # no complete hand one tile away
        return panjin_standard_drawn(
            sit.real_counts, real_caps, jokers, room, len(sit.hand.melds),
            panjin_meld_flags(sit), allowed, sit.options.piaohu, jokers, 1)

    @staticmethod
    def _kept_unsearched(sit: Situation[PanjinOptions]) -> bool:
        """Whether :meth:`_standard_filter` may keep a standard candidate the search does not
        prove: a real kind no complete hand can hold one more of, or a wildcard kind when
        no wildcard tile is left to draw (and the win may be on one)."""
        face, real_caps, room = hand_caps(sit)
        wild = {int(w) for w in sit.wildcards}
        if wild and room < 1 and sit.win_by != "discard":
            return True
        counts = sit.real_counts
        return any(counts[k] >= real_caps[k] for k in range(34) if k not in wild)

    def _standard_filter(self, sit: Situation[PanjinOptions], candidates: set[int],
                         found: tuple[int, int, bool] | None,
                         caps: tuple[list[int], list[int], int] | None = None,
                         keep: set[int] | None = None) -> tuple[set[int], set[int]]:
        """``(may, proven)``: the candidates that may complete the hand, and those of them
        known to. ``found``: :meth:`_ready_search`, which keeps the kinds the complete
        standard hands one tile away draw: those real kinds are proven; of the rest only the
        七对 candidates (:meth:`special_waits`), the wildcard kinds when some such hand draws
        a wildcard, and kinds no complete hand can hold one more of (left to the split
        search as before) may complete it. A hand that is not ready loses its standard
        candidates before any split search. ``caps``, ``keep``: :func:`hand_caps` and
        :meth:`special_waits` of ``sit`` when the caller has them."""
        face, real_caps, room = caps if caps is not None else hand_caps(sit)
        mask, wild_draw = (found[1], found[2]) if found is not None else (0, False)
        if keep is None:
            keep = self.special_waits(sit)
        counts = sit.real_counts
        out, proven = set(), set()
        for k in candidates:
            if k in sit.wildcards:
                if wild_draw or room < 1 or k in keep:
                    out.add(k)
            elif mask >> k & 1:
                out.add(k)
                proven.add(k)
            elif k in keep or counts[k] >= real_caps[k]:
                out.add(k)
        return out, proven

    def _hand_ok(self, sit: Situation[PanjinOptions]) -> bool:
        """Cheap form of ``not hand_reasons(sit)`` (PJ-4, PJ-5), read off the counts."""
        real = sit.real_counts
        if sit.hand.melds:
            return not self.hand_reasons(sit)
        if not any(map(real.__getitem__, TERMINALS_AND_HONORS)):
            return False                                             # PJ-5
        suits = bool(any(real[0:9])) + bool(any(real[9:18])) + bool(any(real[18:27]))
        return suits in self.allowed_suit_counts(sit)                # PJ-4

    @staticmethod
    def _meld_flags(sit: Situation[PanjinOptions]) -> tuple[bool, bool]:
        """Whether the declared melds already give a 刻 (a real pong/kong) and a 顺 (a chow)."""
        if not sit.hand.melds:
            return False, False
        wild = set(sit.wildcards)
        meld_trip = any(m.kind != "chow" and not (set(m.tiles) & wild) for m in sit.hand.melds)
        meld_seq = any(m.kind == "chow" for m in sit.hand.melds)
        return meld_trip, meld_seq

    @staticmethod
    def _structure_ok(opts: PanjinOptions, counts: tuple[int, ...], jokers: int, melds: int,
                      meld_trip: bool, meld_seq: bool) -> bool:
        """七对 with its option (PJ-8), or a standard split with PJ-2's joker places that
        has a 刻 (PJ-6) and a 顺 unless 飘胡, 手把一 only as 飘胡 (PJ-7)."""
        if opts.seven_pairs and not melds and is_seven_pairs(counts, jokers):
            return True
        need = 4 - melds
        if sum(counts) + jokers != 3 * need + 2:
            return False
        for trip, seq in achievable_flags(counts, jokers, need, 1, False):
            seq = seq or meld_seq
            if not (trip or meld_trip):
                continue                                 # PJ-6
            if seq and need == 0:
                continue                                 # PJ-7: 手把一 only as 飘胡
            if seq or opts.piaohu:
                return True                              # PJ-7
        return False

    def judge(self, sit: Situation[PanjinOptions]) -> Judgement:
        hand_reasons = self.hand_reasons(sit)
        if hand_reasons:
            # PJ-4/PJ-5 fail (from the counts): no reading can win, so the readings are
            # not listed; the closest reading's PJ-6/PJ-7 reasons come from the flags
            # the splits can reach
            closest = self._closest_reasons(sit)
            if closest is not None:
                return Judgement([], hand_reasons + closest)
            structural = self.structural_readings(sit)
            legal = []
        else:
            structural = self.structural_readings(sit)
            legal = [r for r in structural if not self.reading_reasons(sit, r)]
        if not legal:
            # API reasons: only for a hand that has a winning shape and fails a rule of
            # the variant; a hand with no shape at all gets none.
            if structural:
                closest = min((self.reading_reasons(sit, r) for r in structural), key=len)
                return Judgement([], hand_reasons + closest)
            # (without jokers the two policies split the same hands: no shape is no shape)
            if sit.jokers and fits_standard(sit.real_counts, len(sit.jokers),
                                            len(sit.hand.melds)):
                return Judgement([], hand_reasons + [
                    reason("PJ-2", "pj.wild_as_triplet")])
            if not sit.options.seven_pairs and not sit.hand.melds and is_seven_pairs(
                    sit.real_counts, len(sit.jokers)):
                return Judgement([], hand_reasons + [
                    reason("PJ-8", "pj.seven_pairs_off")])
            return Judgement([])
        jiahu_ok = self.jiahu_possible(sit)
        scored = [(self.reading_fan(sit, r, jiahu_ok), r) for r in legal]
        scored.sort(key=lambda fr: -math.prod([f["multiplier"] for f in fr[0]]))
        best_fan = scored[0][0] + self.hand_fan(sit)
        return Judgement([r for _, r in scored], fan=best_fan)

    def _closest_reasons(self, sit: Situation[PanjinOptions]) -> list[dict[Any, Any]] | None:
        """What :meth:`judge` reports beside PJ-4/PJ-5 for a hand that has a winning shape:
        the fewest PJ-6/PJ-7 reasons of any reading, found from the ``(刻, 顺)`` flags the
        splits reach (:func:`achievable_flags`) instead of listing the readings. ``None``
        when that is not enough: the hand has no winning shape (the caller's other
        reasons apply), or two different reason lists tie for fewest (the first reading
        listed decides)."""
        melds = len(sit.hand.melds)
        need = 4 - melds
        real, jokers = sit.real_counts, len(sit.jokers)
        lists = []
        if need >= 0 and sum(real) + jokers == 3 * need + 2:
            meld_trip, meld_seq = self._meld_flags(sit)
            piaohu = sit.options.piaohu
            for trip, seq in achievable_flags(tuple(real), jokers, need, 1, False):
                trip, seq = trip or meld_trip, seq or meld_seq
                out = [] if trip else [reason("PJ-6", "pj.no_triplet")]
                if not seq and not piaohu:
                    out.append(reason("PJ-7", "pj.no_sequence"))
                elif melds == 4 and seq:
                    out.append(reason("PJ-7", "pj.single_wait_piaohu"))
                lists.append(out)
        if sit.options.seven_pairs and not melds and seven_pairs_reading(
                real, sit.jokers) is not None:
            lists.append([])                     # 七对 is exempt from PJ-6/PJ-7 (PJ-8)
        if not lists:
            return None
        fewest = min(len(x) for x in lists)
        tied = [x for x in lists if len(x) == fewest]
        if any(x != tied[0] for x in tied):
            return None
        return tied[0]

    def reading_fan(self, sit: Situation[PanjinOptions], r: Reading,
                    jiahu_ok: bool) -> list[dict[Any, Any]]:
        """The 番 that depend on the reading (PJ-10): 飘胡, 七对, 夹胡."""
        out = []
        if r.shape == "seven_pairs":
            out.append(fan("seven_pairs"))
        elif not self.has_sequence(r):
            out.append(fan("piaohu"))
        if jiahu_ok and any(g.kind == "sequence" and not g.exposed and not g.wild[1]
                            and g.tiles[1] == sit.winning_tile for g in r.groups):
            out.append(fan("jiahu"))
        return out

    def hand_fan(self, sit: Situation[PanjinOptions]) -> list[dict[Any, Any]]:
        """The 番 that any reading has (PJ-10): 清一色, 鸡胡/群鸡, 穷胡."""
        opts = sit.options
        out = []
        if self._suits_shown(sit) == 1:
            out.append(fan("one_suit"))
        if opts.jihu:
            n = sit.hand.all_tiles().count(ALL_TILES[ONE_BAMBOO])
            if n == 4:
                out.append(fan("qunji", 4))
            elif n:
                out.append(fan("jihu"))
        if opts.qionghu and sit.wildcards and not any(
                t in sit.wildcards for t in sit.hand.all_tiles()):
            out.append(fan("qionghu"))
        return out

    def jiahu_possible(self, sit: Situation[PanjinOptions]) -> bool:
        """PJ-10 夹胡: with ``jiahu`` on and a real winning tile given, the 13 tiles before
        the win waited on that one kind only, waits counted as C-9 counts them (a kind
        with no live copy outside the hand is no wait) and the wildcard kinds left out
        (drawing a wildcard completes any ready hand)."""
        if not sit.options.jiahu or sit.winning_tile is None or sit.winning_tile in sit.wildcards:
            return False
        before = sit.without_tile(sit.winning_tile)
        held = before.hand.held_counts()
        kinds = [k for k in self.winning_kinds(before) if k not in sit.wildcards
                 and held[k] + (k == sit.indicator) < 4]                     # C-9
        return kinds == [sit.winning_tile]

    # -- settlement: PJ-10 番, PJ-11 pair factors, PJ-12 who pays, PJ-13 kongs, PJ-14 ----
    def settlement_fields(self, opts: PanjinOptions) -> frozenset[str]:
        """``kongs`` only with ``kong`` (PJ-13); ``jiagang`` with 加钢 but not 死钢 (PJ-11);
        ``duanmen`` and ``kong_discard`` with their options (PJ-4, PJ-10)."""
        used = set(super().settlement_fields(opts))
        if not opts.kong:
            used.discard("kongs")
        if opts.jiagang and not opts.all_jiagang:
            used.add("jiagang")
        if opts.duanmen:
            used.add("duanmen")
        if opts.kong_discard:
            used.add("kong_discard")
        return frozenset(used)

    def kong_types(self, opts: PanjinOptions) -> tuple[str, ...]:
        """混杠 too with ``wildcard_kong`` (PJ-13)."""
        return KONG_TYPES if opts.wildcard_kong else super().kong_types(opts)

    def everyone_jiagang(self, opts: PanjinOptions) -> bool:
        """PJ-11: 死钢 (``all_jiagang``), everyone has 加钢."""
        return bool(opts.all_jiagang)

    @staticmethod
    def fan_list(t: Table[PanjinOptions]) -> list[dict[Any, Any]]:
        """PJ-10: the hand's 番 (judgement) plus the situational ones."""
        if t.declared is not None:
            out = list(t.declared["fan"])
        else:
            assert t.judgement is not None
            out = list(t.judgement.fan or [])
        if t.self_drawn:
            out.append(fan("self_draw"))
        if t.win_by == "discard":
            out.append({**fan("discard"), "note": Message(
                "pj.note_all" if t.options.discard_doubles_all else "pj.note_own", rule="PJ-12")})
        if t.win_by == "kong_replacement" and t.options.kong_bloom:
            out.append(fan("kong_bloom"))
        if t.kong_discard:
            out.append(fan("kong_discard"))
        return out

    def parse_declared(self, t: Table[PanjinOptions], raw: dict[Any, Any]) -> dict[Any, Any]:
        """``{"fan": [keys]}``: the hand's own 番 (PJ-10), each allowed by its room option
        (群鸡 ×4 and 鸡胡 by ``jihu``; 穷胡 needs wildcards); 鸡胡 and 群鸡, 七对 and 飘胡
        exclude each other. The situational 番 (自摸, 点炮, 杠开, 杠流泪) come from the
        settlement."""
        keys = declared_keys(raw, "fan", {k: FAN_NAMES[k] for k in HAND_FAN_OPTION})
        labels = {f.name: f.metadata["label"] for f in dataclasses.fields(PanjinOptions)}
        for k in keys:
            option = HAND_FAN_OPTION[k]
            if not getattr(t.options, option):
                raise declared_refuse("fan", Message("d.pj_off", option=labels[option],
                                                     fan=FAN_NAMES[k]))
        if "qionghu" in keys and t.options.wildcard_mode == "none":
            raise declared_refuse("fan", Message("d.pj_no_wildcards"))
        for a, b in (("jihu", "qunji"), ("seven_pairs", "piaohu")):
            if a in keys and b in keys:
                raise declared_refuse("fan", Message("d.pj_exclusive", a=FAN_NAMES[a],
                                                     b=FAN_NAMES[b]))
        return {"fan": [fan(k, FAN_MULTIPLIERS.get(k, 2)) for k in keys]}

    @staticmethod
    def share(t: Table[PanjinOptions], loser: int, fans: list[dict[Any,
              Any]]) -> tuple[int | float, Joined]:
        """One loser's share of the win (PJ-10, PJ-11, PJ-12) and its arithmetic (the parts)."""
        assert t.winner is not None
        amount, parts = t.base, [Message("pay.base", base=fmt(t.base))]
        for f in fans:
            if f["key"] == "discard" and not (loser == t.discarder
                                              or t.options.discard_doubles_all):
                continue                           # PJ-12: 点炮 ×2 on the discarder's share
            amount *= f["multiplier"]
            parts.append(Message("pay.factor", m=f["multiplier"], name=f["name"]))
        if t.dealer in (t.winner, loser):
            amount *= 2
            parts.append(Message("pay.factor", m=2, name=Message("pay.dealer")))
        if t.jiagang[t.winner]:
            amount *= 2
            parts.append(Message("pay.factor", m=2, name=Message("pj.winner_jiagang")))
        if t.jiagang[loser]:
            amount *= 2
            parts.append(Message("pay.factor", m=2, name=Message("pj.loser_jiagang")))
        return amount, Joined(parts, " ", " ")

    def win_payments(self, t: Table[PanjinOptions], fans: list[dict[Any, Any]]) -> list[Payment]:
        """PJ-12: each loser's share, paid by the loser (self-draw) or the discarder."""
        assert t.winner is not None
        out = []
        for loser in t.losers:
            amount, text = self.share(t, loser, fans)
            if t.self_drawn:
                how = WIN_METHOD_LABELS["kong_replacement" if t.win_by == "kong_replacement"
                                        else "self_draw"]
                who = Message("pay.who", seat=SEAT_NAMES[t.winner], how=how)
                out.append(pay(loser, t.winner, amount, "win", "PJ-12",
                               Message("pay.line", who=who, formula=text), CITES))
            else:
                assert t.discarder is not None
                whose = (Message("pj.own_share") if loser == t.discarder
                         else Message("pj.share_of", seat=SEAT_NAMES[loser]))
                out.append(pay(t.discarder, t.winner, amount, "win", "PJ-12",
                               Message("pj.discard_line", whose=whose, formula=text), CITES))
        return out

    @staticmethod
    def kong_payments(t: Table[PanjinOptions]) -> list[Payment]:
        """PJ-13: each other player pays the konger a fixed number of 底."""
        return flat_kong_payments(t, KONG_UNITS, "PJ-13")

    def payments(self, t: Table[PanjinOptions]) -> tuple[list[Payment], dict[str, Any]]:
        kongs = self.kong_payments(t) if t.options.kong else []   # PJ-13: paid on 荒庄 too
        if t.winner is None:                                       # C-10
            return kongs, {}
        fans = self.fan_list(t)
        return self.win_payments(t, fans) + kongs, {"fan": fans}

    def next_dealer(self, t: Table[PanjinOptions]) -> tuple[int, str]:
        """PJ-14: the dealer wins or 荒庄 → the dealer stays; else the next seat deals.
        ``no_dealer_repeat`` (不连庄): the deal always passes."""
        if t.options.no_dealer_repeat or t.winner not in (None, t.dealer):
            return (t.dealer + 1) % 4, "PJ-14"
        return t.dealer, "PJ-14"

    # -- what a wait is worth --------------------------------------------------------
    def score_key(self, sit: Situation[PanjinOptions]) -> tuple[Any, ...] | None:
        """The hand's 番 and the best reading's (PJ-10); ``None`` for a wait that could be
        夹胡 (at most one wait: judged in full)."""
        if sit.options.jiahu and self.jiahu_possible(sit):
            return None
        return (tuple(f["key"] for f in self.hand_fan(sit)), reading_fan(sit))

    def wait_score_keys(self, before: Situation[PanjinOptions],
                        tiles: Sequence[Tile]) -> list[tuple[Any, ...] | None] | None:
        """:meth:`score_key` of the win on each of ``tiles`` at once, read off ``before``
        and the added tile (:func:`wait_keys`); ``None`` with ``jiahu`` (夹胡 asks each
        wait's full judgement)."""
        if before.options.jiahu:
            return None
        return wait_keys(before, tiles, self.real_tiles(before))

    def pricing_judgement(self, sit: Situation[PanjinOptions], key: tuple[Any, ...]) -> Judgement:
        """番 (PJ-10) from the key: the best reading's 番 first, then the hand's, as
        :meth:`judge` orders them."""
        judgement = super().pricing_judgement(sit, key)
        hand_fan, best_reading_fan = key
        judgement.fan = ([fan(best_reading_fan)] if best_reading_fan else []) + [
            fan(k, FAN_MULTIPLIERS.get(k, 2)) for k in hand_fan]
        return judgement

    def win_fan_keys(self, sit: Situation[PanjinOptions], judgement: Judgement,
                     result: SettlementResult) -> list[str]:
        """PJ-10: every 番 of the win, the situational ones included."""
        return [f["key"] for f in (result.fan or [])]


def _drawn_kinds(found: tuple[int, int, bool], wildcards: tuple[Tile, ...]) -> set[int]:
    """The waits' standard candidates read off :meth:`Panjin._ready_search`'s ``found``
    when no kind is kept without the search (:meth:`Panjin._kept_unsearched`): the real
    kinds its complete hands draw, and the wildcard kinds when one draws a wildcard. Of
    ``standard_waits``' kinds :meth:`Panjin._standard_filter` keeps exactly these (and
    七对's, added apart): each complete 盘锦 hand one tile away is a complete hand with
    PJ-2's joker places, so its kind is one of ``standard_waits``' (and a wildcard drawn
    is one joker more, which makes them list every wildcard kind)."""
    kinds = {k for k in range(34) if found[1] >> k & 1}
    if found[2]:
        kinds |= {int(w) for w in wildcards}
    return kinds


VARIANT = Panjin()
