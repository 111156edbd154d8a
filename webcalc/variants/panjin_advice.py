"""盘锦's 牌理 of a 13-tile hand and its waits in one pass (issue 38, "one compiled call per
hand", the step Python can take toward it): :func:`own_advice` (``Panjin.own_advice``, which
:func:`webcalc.analysis.analyze` asks for a 13-tile hand's advice instead of
:func:`webcalc.waits.find_waits` and :func:`webcalc.efficiency.useful_draws`) looks the
hand's caps, its count (:func:`webcalc.variants.panjin_lower.count_lower`) and melds' flags
up once, runs the waits' limit-1 search once for the waits and the useful draws both, and
writes the API's rows as :func:`webcalc.advice_rows.advice_rows` writes the free-joker rule
sets' (one ``{"tile", "remaining", "dead"}`` dict per kind, shared by the rows that list
it). The same answers as the two calls it stands in for (tests/test_panjin_own_advice.py).
:func:`useful_search` (the ``Panjin.useful_search`` hook) moved here from panjin_draws.py.

Compiled: the whole pass is one call, webcalc/variants/panjin_advice.c ``panjin_advice``
(the count, the searches, the waits' candidates, filter and split search, and the rows;
``None`` for 七对 with its option, where the Python below answers). The Python below is
its twin (tests/test_panjin_advice_c.py holds the two equal).

A 14-tile hand's advice (every discard) is one compiled call too, :func:`discards_advice`
(webcalc/variants/panjin_advice14.c); its reference is the general path it stands in for,
:func:`webcalc.efficiency.efficiency` with this rule set's hooks
(:meth:`Panjin.discards_search`, :meth:`Panjin.discards_useful`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from ..advice_rows import row_cells
from ..compiled import pjunit as _pjunit
from ..shanten import INF, hand_caps
from .panjin_draws import panjin_standard_drawn, seven_pairs_panjin_drawn
from .panjin_lower import count_lower
from .panjin_search import panjin_meld_flags
from .panjin_table import load as _load_rows_table

if TYPE_CHECKING:
    from .base import Situation
    from .panjin import Panjin

#: the rows table the compiled calls answer covered hands from (panjin_table.py), mapped
#: once when the engine is imported (gunicorn's master, before it forks); ``None``: none
ROWS_TABLE = _load_rows_table()


class Known(NamedTuple):
    """What :func:`own_advice` has of a hand before its searches: :func:`hand_caps`, the
    count (:func:`count_lower`) and the waits' limit-1 search (``None`` also when the count
    is above 1: then it is not run)."""

    caps: tuple[list[int], list[int], int]
    lower: int | None
    ready: tuple[int, int, bool] | None


def own_advice(variant: Panjin, sit: Situation, kinds: int, visible: Sequence[int],
               useful: bool = True) -> tuple[Any, ...] | None:
    """The 13-tile hand's advice as :func:`webcalc.draws.compiled_advice` gives the
    free-joker rule sets': ``(shanten, waits, useful, useful_total, any_tile_wait)``, the
    rows those of :func:`webcalc.waits.find_waits` (:meth:`Panjin.winning_kinds` with a live
    copy, C-9), :func:`webcalc.waits.is_any_tile_wait` and
    :func:`webcalc.efficiency.useful_draws` (:func:`useful_search`, the kinds with a copy
    left), ``shanten`` ``None`` when never ready. ``useful`` false (a 14-tile hand's
    waits before its winning tile): no useful draws searched (``None, …, [], 0``).
    ``visible``: 34 counts or empty. ``None`` for a hand of only wildcards (the general
    path searches it)."""
    jokers = len(sit.jokers)
    if jokers and jokers == len(sit.hand.concealed):
        return None
    allowed = variant.allowed_suit_counts(sit)
    if _pjunit is not None:
        # the whole pass in one compiled call (webcalc/variants/panjin_advice.c), the caps
        # its own; None where it does not answer (七对 with its option, …): the Python below
        try:
            done: tuple[Any, ...] | None = _pjunit.panjin_advice(
                *_compiled_args(sit, None, allowed, kinds, visible), useful)
        except RuntimeError:          # a search already running in another thread
            done = None
        if done is not None:
            return done
    caps = hand_caps(sit)
    lower = count_lower(sit, caps[1], allowed)
    ready = None
    if lower is not None and lower <= 1:           # Panjin._ready_search, its count known
        ready = panjin_standard_drawn(
            sit.real_counts, caps[1], jokers, caps[2], len(sit.hand.melds),
            panjin_meld_flags(sit), allowed, sit.options.piaohu, jokers, 1)
    # the kinds with no live copy are dropped below: winning_kinds need not look for them
    waits = [int(t) for t in variant.winning_kinds(sit, caps, (ready,), live_only=True)]
    gone = sit.hand.held_counts()
    if sit.indicator is not None:
        gone[sit.indicator] += 1
    cell = row_cells(gone, visible)
    wait_rows = [cell(k) for k in waits if k < kinds and gone[k] < 4]
    live = kinds - sum(1 for k in range(kinds) if gone[k] >= 4)
    any_tile = bool(live) and len(wait_rows) == live
    if not useful:
        return None, wait_rows, [], 0, any_tile
    d0, drawn = useful_search(sit, allowed, lambda: waits, None, None,
                              Known(caps, lower, ready))
    if d0 >= INF:
        return None, wait_rows, [], 0, any_tile
    rows = [cell(k) for k in sorted(drawn) if k < kinds and gone[k] < 4]
    return (d0 - 1 if d0 > 1 else 0, wait_rows, rows, sum([c["remaining"] for c in rows]),
            any_tile)


def _compiled_args(sit: Situation, caps: tuple[list[int], list[int], int] | None,
                   allowed: Collection[int], kinds: int,
                   visible: Sequence[int]) -> tuple[Any, ...]:
    """The arguments webcalc/variants/panjin_advice.c ``panjin_advice`` and
    panjin_advice14.c ``panjin_advice14`` take of a hand (all but ``useful``): its real
    counts, caps and joker room (:func:`hand_caps`; ``caps`` ``None``: ``None`` and 0, the
    call works them out of the counts held and the indicator, as :func:`hand_caps` does),
    melds' flags as bits, the suit counts PJ-4 allows as a bit set, the options and win
    that decide, its wildcards, the counts held (melds included), the indicator's kind (-1:
    none), ``visible`` (34 counts or empty), the kinds in play."""
    hand, opts = sit.hand, sit.options
    flags = 0
    if hand.melds:
        suits, yj, trip, seq = panjin_meld_flags(sit)
        flags = suits | yj << 3 | trip << 4 | seq << 5
    bits = 0
    for a in allowed:
        if 0 <= a <= 3:
            bits |= 1 << a
    return (sit.real_counts, None if caps is None else caps[1], len(sit.jokers),
            0 if caps is None else caps[2], 4 - len(hand.melds), flags,
            bits, opts.piaohu, sit.win_by == "discard", opts.seven_pairs, sit.wildcards,
            hand.held_counts(), -1 if sit.indicator is None else sit.indicator, visible,
            kinds)


def discards_advice(variant: Panjin, sit: Situation, kinds: int,
                    visible: Sequence[int]) -> tuple[Any, ...] | None:
    """The 14-tile hand's advice in one compiled call (webcalc/variants/panjin_advice14.c
    ``panjin_advice14``), as :func:`webcalc.draws.compiled_advice` gives the free-joker
    rule sets' with ``discards``: ``(efficiency, discards, shanten)``, the rows of
    :func:`webcalc.efficiency.efficiency` and :func:`webcalc.efficiency.ready_discard_rows`
    and the least shanten of the rows (``None``: no discard is ever ready; a complete
    hand's -1 is the caller's). ``None`` where it does not answer — no compiled part, 七对
    with its option and no melds, a hand of (nearly) only wildcards, a search already
    running in another thread —: :func:`webcalc.analysis.analyze` then asks those two
    functions, the reference (tests/test_panjin_advice14_c.py holds the two equal)."""
    if _pjunit is None:
        return None
    try:
        done: tuple[Any, ...] | None = _pjunit.panjin_advice14(
            *_compiled_args(sit, None, variant.allowed_suit_counts(sit), kinds, visible))
    except RuntimeError:              # a search already running in another thread
        return None
    return done


def useful_search(sit: Situation, allowed: Collection[int],
                  winning: Callable[[], Iterable[int]], bound: int | None = None,
                  standard: tuple[Any, ...] | None = None,
                  known: Known | None = None) -> tuple[int, set[int]]:
    """PJ-2, PJ-4..PJ-8: the distance ``d`` of the 13-tile hand (``INF``: never ready) and the
    kinds whose draw lowers it, for the standard shape and 七对 (with its option), each from
    one search that keeps the kinds its nearest targets draw (:func:`panjin_standard_drawn`,
    :func:`seven_pairs_panjin_drawn`). A ``discard`` win counts as
    :func:`webcalc.variants.panjin_search.panjin_missing` does: a target that draws no real
    tile is one tile farther (C-9, PJ-2), and the draws that lower the distance are read
    accordingly (:func:`webcalc.variants.panjin_draws._drawn_best`); a hand ready for it
    has its waits (``winning()``) as its useful draws (C-12). ``bound`` and ``standard``: as
    :meth:`webcalc.variants.base.Variant.useful_search` says; ``known``: what
    :func:`own_advice` already has of this hand (not looked up or searched again)."""
    face, real_caps, room = hand_caps(sit) if known is None else known.caps
    jokers = len(sit.jokers)
    melds = len(sit.hand.melds)
    need_real = sit.win_by == "discard"            # C-9, PJ-2: no discard win on a wildcard
    shapes: dict[str, int] = {}
    found = None
    lower: int | None
    if standard is not None and bound is not None:
        # the caller's search at ``bound`` (exact: None when no target is within it)
        found = standard[0]
        if found is not None:
            shapes["standard"] = found[0]
        lower = None
    else:
        # standard: bounded searches from a count at most the distance up (PJ-4..PJ-6
        # seen: :func:`webcalc.variants.panjin_lower.count_lower`)
        lower = count_lower(sit, real_caps, allowed) if known is None else known.lower
    if lower is not None:
        bounds = range(lower, 15) if bound is None else (bound,) if bound >= lower else ()
        flags = panjin_meld_flags(sit)
        for b in bounds:
            if b == 1 and known is not None and not need_real:
                found = known.ready                 # the waits' search: the same one
            else:
                found = panjin_standard_drawn(
                    sit.real_counts, real_caps, jokers, room, melds, flags, allowed,
                    sit.options.piaohu, jokers, b, need_real)
            if found is not None:
                shapes["standard"] = found[0]
                break
    seven = None
    if sit.options.seven_pairs and not melds:
        # only wanted when not farther than the standard shape
        seven = seven_pairs_panjin_drawn(sit.real_counts, real_caps, jokers, room, allowed,
                                         need_real, jokers, INF if found is None else found[0])
        if seven is not None:
            shapes["seven_pairs"] = seven[0]
    if not shapes:
        return INF, set()
    d0 = min(shapes.values())
    if need_real and d0 == 1:
        # ready for a discard win: under the rule no draw brings it nearer (the last tile
        # must come from a discard), and C-12 makes a ready hand's useful draws its waits
        return d0, set(winning())
    kinds: set[int] = set()
    for res in (found, seven):
        if res is not None and res[0] == d0:
            _, mask, wild = res
            kinds |= {k for k in range(34) if mask >> k & 1}
            if wild:
                kinds |= {int(w) for w in sit.wildcards}
    return d0, kinds
