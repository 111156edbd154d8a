"""晋城 (jincheng), seed 003: no wildcards, no chow, 十三幺 with 拾/搶, 上架, 前包/后包
(RULES JC-1..JC-10).

Shapes (JC-2): standard; 七对 concealed only; 十三幺 (one each of the 13 terminals and
honors, one of them paired), concealed except for 拾/搶 tiles. Win methods (JC-4):
self-draw, discard, robbing an exposed kong, 杠上开花.

拾/搶 (JC-10): a hand going for 十三幺 may hold 幺 tiles taken from discards (melds
``shi``/``qiang``, one tile each, 1 toward C-3). Such a hand wins only as 十三幺, and a
taken tile is frozen: it counts toward the thirteen kinds but is never the pair and never
the winning tile.

Payments (the settlement section of :class:`Jincheng`):
JC-5: each of the 3 others pays ``底 × u × (2 if self-draw) × (2 if this payer discarded
the winning tile without 上架)``, u = 2 when the winner or this payer deals. A robbed
konger counts as the discarder (JC-4); 杠上开花 is a self-draw (C-14).
JC-6: 明杠/补杠 each other player pays 1 底, 暗杠 2 底; paid whoever wins; not on 荒庄.
JC-7: 前包 (``follow_dealer``) the dealer pays each other player 1 底.
JC-8: 荒庄 the dealer pays each other player ``draw_penalty`` 底; no kong money.
JC-9: who deals next.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..decompose import (
    TERMINALS_AND_HONORS,
    Group,
    Reading,
    meld_group,
)
from ..errors import BadMeldError, BadOptionError
from ..hand import MELD_LABELS, Meld
from ..messages import Joined, Message
from ..options import opt
from ..settlement import SEAT_NAMES, Payment, Table, flat_kong_payments, fmt, pay
from ..tiles import ALL_TILES, Tile, format_tiles
from .base import (
    NO_SHAPES,
    SEVEN_PAIRS,
    WIN_METHOD_LABELS,
    WIN_METHODS,
    Judgement,
    Situation,
    Variant,
)
from .jincheng_texts import RULES, TEXTS

ORPHANS = frozenset(TERMINALS_AND_HONORS)
_SEVEN_ORPHANS = SEVEN_PAIRS | {"thirteen_orphans"}           # distance_shapes without melds
#: JC-6: what each other player pays a kong, in 底
KONG_UNITS = {"exposed": 1, "added": 1, "concealed": 2}


# -- 十三幺 (JC-2): the shape, its distance and its waits ------------------------------------

def thirteen_orphans_reading(counts: Sequence[int]) -> Reading | None:
    """十三幺 (JC-2): one of each terminal and honor, one of them paired; or ``None``."""
    if sum(counts) != 14 or any(counts[k] == 0 for k in TERMINALS_AND_HONORS):
        return None
    if sum(counts[k] for k in TERMINALS_AND_HONORS) != 14:
        return None
    groups: list[Group] = []
    for k in TERMINALS_AND_HONORS:
        t = ALL_TILES[k]
        if counts[k] == 2:
            groups.insert(0, Group("pair", (t, t), (False, False), False, (t, t)))
        else:
            groups.append(Group("single", (t,), (False,), False, (t,)))
    return Reading("thirteen_orphans", tuple(groups))


def min_missing_thirteen_orphans(counts: Sequence[int]) -> int:
    """Tiles to draw to make 十三幺 (JC-2)."""
    kinds = sum(1 for k in TERMINALS_AND_HONORS if counts[k])
    paired = any(counts[k] >= 2 for k in TERMINALS_AND_HONORS)
    return 14 - kinds - (1 if paired else 0)


def thirteen_orphans_waits(counts: Sequence[int]) -> list[int]:
    """Kinds completing 十三幺 (JC-2) from 13 tiles."""
    if sum(counts) != 13 or sum(counts[k] for k in TERMINALS_AND_HONORS) != 13:
        return []
    missing = [k for k in TERMINALS_AND_HONORS if not counts[k]]
    if not missing:
        return list(TERMINALS_AND_HONORS)
    paired = any(counts[k] == 2 for k in TERMINALS_AND_HONORS)
    return missing if len(missing) == 1 and paired else []


@dataclass(frozen=True)
class JinchengOptions:
    """Room options of 晋城 (RULES, 晋城 section)."""

    draw_penalty: int = field(default=2, metadata=opt(
        Message("opt.jincheng.draw_penalty"), Message("opt.jincheng.draw_penalty.help"), "JC-8",
        minimum=0, maximum=100,
        also=("C-10",)))


class Jincheng(Variant[JinchengOptions]):
    name = "jincheng"
    label = Message("variant.jincheng")
    texts = TEXTS                              # its words: jincheng_texts.py
    rules = RULES
    rule_prefix = "JC"
    sample_hand = {"hand": "234m345p456s77z888s", "winning_tile": "8s",
                   "win_by": "discard"}
    seed = "003"
    Options = JinchengOptions
    win_methods = frozenset(WIN_METHODS)
    win_rule = "JC-4"
    efficiency_rules = ("JC-2",)

    chow_allowed = False
    chow_rule = "JC-2"
    taken_allowed = True
    #: 上架 (JC-3), the discarder's asked apart (JC-5: it doubles what they pay), 前包 (JC-7)
    field_rules = {"ready": "JC-3", "discarder_ready": "JC-5", "follow_dealer": "JC-7"}

    def check_chow(self) -> None:
        """JC-2: no chow (a discard is taken only as 拾, JC-10)."""
        raise BadMeldError(Message("jc.no_chow", rule="JC-2"), "melds")

    def check_meld(self, opts: JinchengOptions, meld: Meld, wildcards: tuple[Tile, ...],
                   index: int) -> None:
        """JC-2: no chow (:meth:`check_chow`). JC-10: a 拾/搶 tile is a 幺 tile (1, 9 or an
        honor)."""
        super().check_meld(opts, meld, wildcards, index)
        if meld.is_taken and int(meld.tiles[0]) not in ORPHANS:
            t = meld.tiles[0]
            raise BadMeldError(Message("jc.taken_not_orphan", meld=MELD_LABELS[meld.kind],
                                       tile=t, rule="JC-10"), "melds")

    def check_melds(self, opts: JinchengOptions, melds: list[Meld], wildcards: tuple[Tile,
                    ...]) -> None:
        """JC-10 across the melds: at most one 搶, no two taken tiles of one kind, and no
        pong or kong beside a taken tile (a hand holding one plays for 十三幺 only)."""
        super().check_melds(opts, melds, wildcards)
        taken = [m for m in melds if m.is_taken]
        if not taken:
            return
        if sum(m.kind == "qiang" for m in taken) > 1:
            raise BadMeldError(Message("jc.one_qiang", rule="JC-10"), "melds")
        kinds = [m.tiles[0] for m in taken]
        for t in kinds:
            if kinds.count(t) > 1:
                raise BadMeldError(Message("jc.taken_twice", tile=t, rule="JC-10"),
                                   "melds")
        other = next((m for m in melds if not m.is_taken), None)
        if other is not None:
            at = "" if other.source is None else f"@{other.source}"
            raise BadMeldError(Message(
                "jc.taken_with_meld", meld=MELD_LABELS[other.kind], tiles=format_tiles(other.tiles),
                at=at, rule="JC-10"), "melds")

    def wildcards(self, opts: JinchengOptions, indicator: Tile | None) -> tuple[Tile, ...]:
        if indicator is not None:
            raise BadOptionError(Message("jc.no_indicator", rule="JC-1"), "indicator")
        return ()

    def is_win(self, sit: Situation[JinchengOptions]) -> bool:
        if _taken(sit):
            return frozen_orphans_reading(sit) is not None
        return bool(self.is_standard(sit) or self.is_seven_pairs_as_themselves(sit)
                    or (not sit.hand.melds and thirteen_orphans_reading(sit.counts)))

    def judge(self, sit: Situation[JinchengOptions]) -> Judgement:
        if _taken(sit):
            reading = frozen_orphans_reading(sit)
            return Judgement([] if reading is None else [reading])
        readings = self.standard(sit)
        for special in (self.seven_pairs_as_themselves(sit),
                        None if sit.hand.melds else thirteen_orphans_reading(sit.counts)):
            if special is not None:
                readings.append(special)
        return Judgement(readings)


    def winning_kinds(self, sit: Situation[JinchengOptions]) -> list[Tile]:
        """With 拾/搶 tiles only 十三幺 counts: each 幺 kind whose addition to the concealed
        tiles makes it, so never a kind held only as a taken tile (JC-10)."""
        if _taken(sit):
            if any(int(t) not in ORPHANS for t in sit.hand.concealed):
                return []                   # a tile that is no 幺 never leaves 十三幺
            return [ALL_TILES[k] for k in TERMINALS_AND_HONORS
                    if frozen_orphans_reading(sit, k) is not None]
        return super().winning_kinds(sit)

    def special_waits(self, sit: Situation[JinchengOptions]) -> set[int]:
        out = super().special_waits(sit)
        if not sit.hand.melds:
            out |= set(thirteen_orphans_waits(sit.counts))
        return out

    def distance_shapes(self, sit: Situation[JinchengOptions],
                        kinds_in_play: int = 34) -> frozenset[str] | None:
        """As :meth:`Variant.distance_shapes`, with 十三幺 without melds; ``None`` for a hand
        with 拾/搶 tiles (JC-10: only 十三幺, counted by :meth:`missing_by_shape`)."""
        if sit.hand.melds:
            return None if _taken(sit) else NO_SHAPES
        return _SEVEN_ORPHANS

    def missing_by_shape(self, sit: Situation[JinchengOptions], limit: int = 99) -> dict[str, int]:
        """As :meth:`Variant.missing_by_shape`; with 拾/搶 tiles (JC-10) only 十三幺, the
        taken tiles counting as their kinds and the pair concealed. Distances above
        ``limit`` are left out (the bounded protocol :mod:`webcalc.efficiency` uses)."""
        taken = _taken(sit)
        if taken:
            d = frozen_orphans_missing(sit.counts, taken)
            return {"thirteen_orphans": d} if d is not None and d <= limit else {}
        out = super().missing_by_shape(sit)
        if not sit.hand.melds:
            out["thirteen_orphans"] = min_missing_thirteen_orphans(sit.counts)
        return {shape: d for shape, d in out.items() if d <= limit}

    # -- settlement: JC-5 the win, JC-6 kongs, JC-7 前包, JC-8 荒庄 后包, JC-9 -----------
    def settlement_fields(self, opts: JinchengOptions) -> frozenset[str]:
        """``ready`` (上架, JC-3) and ``follow_dealer`` (前包, JC-7) too."""
        return super().settlement_fields(opts) | {"ready", "follow_dealer"}

    @staticmethod
    def win_payment(t: Table[JinchengOptions], payer: int) -> Payment:
        """JC-5 for one payer."""
        assert t.winner is not None
        base, factors = t.base, []
        u = 2 if t.dealer in (t.winner, payer) else 1
        factors.append(Message("pay.factor", m=u,
                               name=Message("pay.dealer" if u == 2 else "pay.non_dealer")))
        amount = base * u
        if t.self_drawn:
            amount *= 2
            factors.append(Message("pay.factor", m=2, name=WIN_METHOD_LABELS["self_draw"]))
        if payer == t.discarder and not t.ready[payer]:
            amount *= 2
            factors.append(Message("pay.factor", m=2, name=Message("jc.unready_discard")))
        how = Message("jc.discard_win") if t.win_by == "discard" else WIN_METHOD_LABELS[t.win_by]
        who = Message("pay.who", seat=SEAT_NAMES[t.winner], how=how)
        formula = Message("jc.win", base=fmt(base), factors=Joined(factors, " ", " "))
        return pay(payer, t.winner, amount, "win", "JC-5",
                   Message("pay.line", who=who, formula=formula))

    @staticmethod
    def kong_payments(t: Table[JinchengOptions]) -> list[Payment]:
        """JC-6: each other player pays the konger a fixed number of 底."""
        return flat_kong_payments(t, KONG_UNITS, "JC-6")

    @staticmethod
    def dealer_pays_each(t: Table[JinchengOptions], units: int, item: str, rule: str,
                         what: Message) -> list[Payment]:
        """The dealer pays each other player ``units`` 底 (JC-7, JC-8)."""
        if units <= 0:
            return []
        return [pay(t.dealer, s, t.base * units, item, rule,
                    Message("jc.dealer_pays", what=what, seat=SEAT_NAMES[t.dealer],
                            base=fmt(t.base), n=units))
                for s in t.others(t.dealer)]

    def payments(self, t: Table[JinchengOptions]) -> tuple[list[Payment], dict[str, Any]]:
        out = []
        if t.follow_dealer:
            out += self.dealer_pays_each(t, 1, "follow_dealer", "JC-7",
                                         Message("jc.follow_dealer"))
        if t.winner is None:                       # C-10, JC-8: 后包, no kongs
            return out + self.dealer_pays_each(t, t.options.draw_penalty, "draw_penalty",
                                               "JC-8", Message("jc.draw_penalty")), {}
        out += [self.win_payment(t, payer) for payer in t.losers]
        return out + self.kong_payments(t), {}

    def next_dealer(self, t: Table[JinchengOptions]) -> tuple[int, str]:
        """JC-9: the dealer wins → stays; else (荒庄 included) the next seat deals."""
        return (t.dealer if t.winner == t.dealer else (t.dealer + 1) % 4), "JC-9"

    # -- what a wait is worth --------------------------------------------------------
    def score_key(self, sit: Situation[JinchengOptions]) -> tuple[Any, ...] | None:
        """JC-5: no 番; the hand never counts."""
        return ()

    def wait_score_keys(self, before: Situation[JinchengOptions],
                        tiles: Sequence[Tile]) -> list[tuple[Any, ...] | None] | None:
        """:meth:`score_key` of every wait at once: the same for every win (JC-5), so no
        win is made per wait to ask it."""
        return [()] * len(tiles)


def _taken(sit: Situation[JinchengOptions]) -> set[int]:
    """The kinds held as 拾/搶 tiles (JC-10); empty for a hand without them."""
    return {int(m.tiles[0]) for m in sit.hand.melds if m.is_taken}


def frozen_orphans_missing(counts: Sequence[int], taken: set[int]) -> int | None:
    """Tiles a hand with the 拾/搶 kinds ``taken`` and the concealed ``counts`` lacks from
    十三幺 (JC-10), or ``None`` when it can never make it.

    The nearest 十三幺 keeps each taken tile, one concealed copy of every other 幺 kind held
    and one more concealed copy of a kind that is not taken as the pair. A concealed copy
    of a taken kind is dead: it cannot pair with the frozen tile, and a second concealed
    copy beside it would be a third of the kind (15 tiles). So the distance is 14 less the
    kinds held (taken or concealed) less 1 for a concealed pair of a kind not taken. With
    all thirteen kinds taken no pair is left to make: never (docs/decisions.md). Exact (C-12):
    an exchange adds at most one kept tile, and every tile still wanted has a live copy (a
    missing kind is not held; the pair's second copy is of a kind held once)."""
    if len(taken) >= len(TERMINALS_AND_HONORS):
        return None
    kinds = sum(1 for k in TERMINALS_AND_HONORS if counts[k] or k in taken)
    paired = any(counts[k] >= 2 for k in TERMINALS_AND_HONORS if k not in taken)
    return 14 - kinds - paired


def frozen_orphans_reading(sit: Situation[JinchengOptions],
                           add: int | None = None) -> Reading | None:
    """十三幺 of a hand with 拾/搶 tiles (JC-10), with kind ``add`` drawn into the concealed
    tiles when given, or ``None``. The taken tiles count toward the thirteen kinds but are
    never the pair, so the pair is two concealed tiles and every concealed tile is a 幺.
    """
    counts = list(sit.counts)
    if add is not None:
        counts[add] += 1
    taken = [m for m in sit.hand.melds if m.is_taken]
    if sum(counts) + len(taken) != 14 or len(taken) != len(sit.hand.melds):
        return None
    frozen = {int(m.tiles[0]) for m in taken}
    if any(counts[k] for k in range(34) if k not in ORPHANS):
        return None
    pairs = [k for k in TERMINALS_AND_HONORS if counts[k] == 2 and k not in frozen]
    if len(pairs) != 1 or any(counts[k] + (k in frozen) != (2 if k in pairs else 1)
                              for k in TERMINALS_AND_HONORS):
        return None
    groups: list[Group] = []
    for k in TERMINALS_AND_HONORS:
        t = ALL_TILES[k]
        if k in pairs:
            groups.insert(0, Group("pair", (t, t), (False, False), False, (t, t)))
        elif counts[k]:
            groups.append(Group("single", (t,), (False,), False, (t,)))
    groups += [meld_group(m) for m in taken]
    return Reading("thirteen_orphans", tuple(groups))


VARIANT = Jincheng()
