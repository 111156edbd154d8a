"""Waits (听牌) of a 13-tile hand, with remaining counts (RULES C-9).

A wait is a kind that, added to the 13 tiles, gives a legal win under the variant and the
win method asked for. A kind none of whose live copies is outside the hand — held four
times, or three times when it is the indicator's kind (C-7) — is not a wait. ``remaining``
is 4 − held − indicator − visible, never below 0; a wait with 0 remaining is a dead wait
(空听) and is still listed. For a 14-tile hand's discards (C-9 as amended) the copies are
counted over the 14 tiles: the discarded tile lies in the river, so it counts as seen
(:func:`river`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from .tiles import ALL_TILES, CODES, Tile
from .variants.base import Situation, Variant


class Wait(NamedTuple):
    """One wait: the ``tile`` kind and how many copies are still unseen (``remaining``)."""

    tile: Tile
    remaining: int

    @property
    def dead(self) -> bool:
        """空听: no copy left to draw."""
        return self.remaining == 0

    def to_dict(self) -> dict[str, Any]:
        remaining = self.remaining
        return {"tile": CODES[self.tile], "remaining": remaining, "dead": remaining == 0}


def find_waits(variant: Variant, sit: Situation, visible: Sequence[int] = (),
               kinds_in_play: int = 34) -> list[Wait]:
    """The waits of the 13-tile hand of ``sit`` (C-9), in tile order.

    Args:
        variant: the rule set judging each completed hand.
        sit: a situation whose hand has 13 tiles (``win_by`` is the method tried).
        visible: 34-vector of tiles seen elsewhere (may be empty).
        kinds_in_play: 34, or 27 for a 三门峡 room without honors (C-1).
    """
    held = sit.hand.held_counts()
    indicator = sit.indicator
    out = []
    fast = None
    if sit.hand.tile_count == 13:
        # the free-joker variants, compiled: the kinds that complete the hand (the same as
        # winning_kinds, tests/test_free_draws.py), found with its useful draws
        from .draws import compiled_draws

        fast = compiled_draws(variant, sit, kinds_in_play)
    if fast is not None:
        zero = fast[2] & ((1 << kinds_in_play) - 1)
        while zero:
            low = zero & -zero
            k = low.bit_length() - 1
            zero ^= low
            out_of_play = held[k] + (k == indicator)
            if out_of_play < 4:                             # C-9: a live copy exists
                seen = visible[k] if visible else 0
                out.append(Wait(ALL_TILES[k], max(0, 4 - out_of_play - seen)))
        return out
    for t in variant.winning_kinds(sit):
        out_of_play = held[t] + (1 if t == indicator else 0)
        if out_of_play < 4 and t < kinds_in_play:          # C-9: a live copy exists
            seen = visible[t] if visible else 0
            out.append(Wait(t, max(0, 4 - out_of_play - seen)))
    return out


def is_any_tile_wait(sit: Situation, waits: Sequence[Wait], kinds_in_play: int = 34) -> bool:
    """混单吊 state: every live kind completes the hand (and there is at least one)."""
    held = sit.hand.held_counts()[:kinds_in_play]
    # the kinds with no live copy: held four times, or three times beside the indicator
    dead = sum(map((4).__le__, held))
    indicator = sit.indicator
    if indicator is not None and indicator < kinds_in_play and held[indicator] == 3:
        dead += 1
    live = len(held) - dead
    return bool(live) and len(waits) == live


def shanten(variant: Variant, sit: Situation, kinds_in_play: int = 34,
            complete: bool | None = None, ready: bool | None = None) -> int | None:
    """向听 (C-12) of a 13- or 14-tile hand under the variant's shapes and conditions, with
    wildcards: exact (:mod:`webcalc.shanten`).

    Returns −1 for a complete 14-tile hand, 0 for a ready hand, else ``n``: some ``n`` tile
    exchanges (draw a live tile, discard one the variant lets go) make the hand ready and
    no ``n − 1`` do. A 13-tile hand whose every completing kind is excluded by C-9 is not
    ready (≥ 1). ``None`` when no exchanges ever make it ready (docs/decisions.md).
    ``complete`` (the 14 tiles win), when the caller knows it, saves recomputing;
    ``ready`` is accepted for compatibility and not needed (the count is exact).
    """
    if sit.hand.tile_count == 14:
        if complete is None:
            complete = variant.is_win(sit)
        if complete:
            return -1
    missing = variant.missing_by_shape(sit).values()
    if not missing:
        return None
    return max(min(missing) - 1, 0)


def river(visible: Sequence[int], t: int) -> list[int]:
    """``visible`` with one more copy of ``t`` seen: the tile just discarded from a 14-tile
    hand lies in the river and is not live (C-9 as amended, counted over the 14 tiles, as
    on Tenhou's 牌理). It only lowers ``remaining`` (never below 0): the 13 tiles left
    keep the waits, useful draws and shanten they have, as with any seen tile
    (docs/decisions.md)."""
    out = list(visible) if visible else [0] * 34
    out[int(t)] += 1
    return out


@dataclass(frozen=True)
class Discard:
    """Discard advice: throwing ``tile`` leaves a hand ready on ``waits``."""

    tile: Tile
    waits: tuple[Wait, ...]

    @property
    def remaining(self) -> int:
        """Total unseen copies of all the waits."""
        return sum(w.remaining for w in self.waits)

    def to_dict(self) -> dict[Any, Any]:
        return {"discard": self.tile.code, "waits": [w.to_dict() for w in self.waits],
                "remaining": self.remaining}


def discard_advice(variant: Variant, sit: Situation, visible: Sequence[int] = (),
                   kinds_in_play: int = 34) -> list[Discard]:
    """For a 14-tile hand: each discard that leaves a ready hand, with its waits as
    :func:`find_waits` reports them for the 13 tiles left, the discarded tile counted as
    seen (:func:`river`, C-9 as amended); best first (most unseen copies, then most kinds,
    then tile order). Tiles the variant forbids discarding (``can_discard``) are not offered.
    """
    out = []
    tiles = sorted(set(sit.hand.concealed))
    fast = None
    if sit.hand.tile_count == 14:
        # the free-joker variants, compiled: every discard's completing kinds in one call
        from .draws import compiled_draws

        fast = compiled_draws(variant, sit, kinds_in_play, tuple(int(t) for t in tiles))
    if fast is not None:
        # as find_waits of the 13 tiles left, the discarded tile seen (river): a kind is
        # gone when the 14 tiles and the indicator hold four (t itself: five); the copies
        # left are those of the 14 tiles
        held = sit.hand.held_counts()
        indicator = sit.indicator
        live = 0
        for k in range(kinds_in_play):
            if held[k] + (k == indicator) < 4:
                live |= 1 << k
        for t, (_, _, zero) in zip(tiles, fast):
            if not zero or not variant.can_discard(sit, t):
                continue
            if t < kinds_in_play and held[t] + (t == indicator) < 5:
                zero &= live | 1 << t
            else:
                zero &= live
            waits = []
            while zero:
                low = zero & -zero
                k = low.bit_length() - 1
                left = 4 - held[k] - (k == indicator) - (visible[k] if visible else 0)
                waits.append(Wait(ALL_TILES[k], left if left > 0 else 0))
                zero ^= low
            if waits:
                out.append(Discard(t, tuple(waits)))
        out.sort(key=lambda d: (-d.remaining, -len(d.waits), d.tile))
        return out
    for t in tiles:
        if not variant.can_discard(sit, t):
            continue
        waits = find_waits(variant, sit.without_tile(t), river(visible, t), kinds_in_play)
        if waits:
            out.append(Discard(t, tuple(waits)))
    out.sort(key=lambda d: (-d.remaining, -len(d.waits), d.tile))
    return out
