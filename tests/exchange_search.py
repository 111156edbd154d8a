"""A brute-force reading of C-12 for the tests: breadth-first search over tile exchanges.

A hand is ``n`` from ready when some ``n`` exchanges — draw a kind that still has a live copy
(C-9: held fewer than 4 times, 3 for the indicator's kind; in play, C-1), then discard a tile
the variant lets go (PJ-2) — leave a 13-tile hand with waits, and no ``n − 1`` do. This
module searches those exchanges level by level, judging "ready" by the engine's waits
(whose complete check the other property tests hold against tests/reference.py). It knows
nothing of webcalc.shanten or the per-unit tables.
"""

from __future__ import annotations

from webcalc.hand import Hand
from webcalc.tiles import ALL_TILES
from webcalc.variants.base import Situation
from webcalc.waits import find_waits


def _sit(base: Situation, concealed: tuple[int, ...]) -> Situation:
    return Situation(Hand.of(concealed, base.hand.melds), base.wildcards, base.options,
                     base.win_by, None, base.indicator, base.settlement)


def _ready(variant, base: Situation, concealed, kinds: int) -> bool:
    return bool(find_waits(variant, _sit(base, concealed), (), kinds))


def _live_draws(base: Situation, concealed, kinds: int) -> list[int]:
    held = [0] * 34
    for t in concealed:
        held[t] += 1
    for m in base.hand.melds:
        for t in m.tiles:
            held[t] += 1
    if base.indicator is not None:
        held[base.indicator] += 1
    return [k for k in range(kinds) if held[k] < 4]


def _discards(variant, base: Situation, concealed14) -> list[tuple[int, ...]]:
    sit14 = _sit(base, concealed14)
    out = []
    for t in sorted(set(concealed14)):
        if variant.can_discard(sit14, ALL_TILES[t]):
            rest = list(concealed14)
            rest.remove(t)
            out.append(tuple(rest))
    return out


def exchange_shanten(variant, sit: Situation, kinds: int, max_depth: int,
                     max_states: int = 200_000) -> tuple[int | None, bool]:
    """``(n, exhaustive)``: the fewest exchanges that make ``sit`` ready when at most
    ``max_depth`` (−1 for a complete 14-tile hand), else ``None``; ``exhaustive`` is true
    when ``None`` was proved for every depth (the reachable hands ran out)."""
    start = tuple(sorted(int(t) for t in sit.hand.concealed))
    if sit.hand.tile_count == 14:
        if variant.is_win(sit):
            return -1, True
        frontier = set(_discards(variant, sit, start))
    else:
        frontier = {start}
    seen = set(frontier)
    for depth in range(max_depth + 1):
        if any(_ready(variant, sit, h, kinds) for h in frontier):
            return depth, True
        if depth == max_depth:
            break
        nxt = set()
        for h in frontier:
            for k in _live_draws(sit, h, kinds):
                drawn = tuple(sorted(h + (k,)))
                for rest in _discards(variant, sit, drawn):
                    if rest not in seen:
                        seen.add(rest)
                        nxt.add(rest)
        if not nxt:
            return None, True
        if len(seen) > max_states:
            break
        frontier = nxt
    return None, False


def ready_within(variant, sit: Situation, kinds: int, n: int) -> bool:
    """Whether some ``n`` exchanges or fewer make ``sit`` ready (a complete 14-tile hand
    counts as within any ``n``): the same exchanges as :func:`exchange_shanten`, searched
    depth first so that a yes stops at the first ready hand it finds (a no still visits
    every hand within ``n``)."""
    memo: dict[tuple[tuple[int, ...], int], bool] = {}

    def within(h: tuple[int, ...], m: int) -> bool:
        key = (h, m)
        if key not in memo:
            memo[key] = _ready(variant, sit, h, kinds) or (m > 0 and any(
                within(rest, m - 1) for k in _live_draws(sit, h, kinds)
                for rest in _discards(variant, sit, tuple(sorted(h + (k,))))))
        return memo[key]

    start = tuple(sorted(int(t) for t in sit.hand.concealed))
    if sit.hand.tile_count == 14:
        return variant.is_win(sit) or any(within(rest, n)
                                          for rest in _discards(variant, sit, start))
    return within(start, n)
