"""What a 盘锦 win is worth without judging it (PJ-10, :mod:`webcalc.worth`): the reading
番 of a hand's best reading (:func:`reading_fan`), and every wait's
:meth:`~webcalc.variants.panjin.Panjin.score_key` of a 13-tile hand at once
(:func:`wait_keys`, ``Panjin.wait_score_keys``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..decompose import is_seven_pairs
from ..hand import Meld
from ..tiles import ALL_TILES, Tile
from .base import Situation

if TYPE_CHECKING:
    from .panjin import PanjinOptions

ONE_BAMBOO = 18                                       # 1条, 幺鸡


def wait_keys(before: Situation[PanjinOptions], tiles: Sequence[Tile],
              real: list[Tile]) -> list[tuple[Any, ...] | None]:
    """Without 夹胡, :meth:`Panjin.score_key` of the win of the 13-tile ``before`` on each
    of ``tiles`` (``real``: its real tiles, melds included), without the 14 tiles made:
    :meth:`Panjin.hand_fan` and :func:`reading_fan` read the added tile as one more real
    tile of its kind, or a wildcard as one more joker (and one more wildcard tile held)."""
    opts = before.options
    wild = before.wildcards
    suits = {t // 9 for t in real if t < 27}            # the suits shown, as 0-2
    bamboo = ALL_TILES[ONE_BAMBOO]
    n1 = before.hand.all_tiles().count(bamboo) if opts.jihu else 0
    qiong = bool(opts.qionghu and wild and not any(
        t in wild for t in before.hand.all_tiles()))
    counts, jokers = before.real_counts, len(before.jokers)
    out: list[tuple[Any, ...] | None] = []
    for t in tiles:
        is_wild = t in wild
        keys = []
        if len(suits if is_wild or t >= 27 else suits | {t // 9}) == 1:
            keys.append("one_suit")
        if opts.jihu:
            n = n1 + (t == bamboo)
            if n == 4:
                keys.append("qunji")
            elif n:
                keys.append("jihu")
        if qiong and not is_wild:
            keys.append("qionghu")
        if is_wild:
            key = _reading_fan(opts, before.hand.melds, counts, jokers + 1)
        else:
            won = list(counts)
            won[int(t)] += 1
            key = _reading_fan(opts, before.hand.melds, won, jokers)
        out.append((tuple(keys), key))
    return out


def reading_fan(sit: Situation[PanjinOptions]) -> str:
    """Without 夹胡, the reading 番 of 盘锦's best reading (PJ-10, C-6): 飘胡 when an
    all-triplet reading exists (listed before 七对, both ×2), else 七对 when a seven-pairs
    reading exists, else none. A wildcard never sits in a triplet (PJ-2), so an
    all-triplet reading is: no chow, each real kind a multiple of 3 except the pair, which
    the wildcards complete (a pair of two wildcards included)."""
    return _reading_fan(sit.options, sit.hand.melds, sit.real_counts, len(sit.jokers))


def _reading_fan(opts: PanjinOptions, melds: tuple[Meld, ...], real_counts: Sequence[int],
                 jokers: int) -> str:
    """:func:`reading_fan` of a hand with these melds, real concealed counts and jokers."""
    if opts.piaohu and not any(m.kind == "chow" for m in melds):
        rests = [c % 3 for c in real_counts if c]
        if ((jokers == 0 and sorted(r for r in rests if r) == [2])
                or (jokers == 1 and sorted(r for r in rests if r) == [1])
                or (jokers == 2 and not any(rests))):
            return "piaohu"
    if opts.seven_pairs and not melds and is_seven_pairs(real_counts, jokers):
        return "seven_pairs"
    return ""
