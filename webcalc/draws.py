"""Every draw of a hand, or of each discard, in one call of the compiled part
(webcalc/_pjunit_draws.c ``free_draws``) for the free-joker variants: what
:class:`webcalc.efficiency.FreeOracle` answers. Used by :mod:`webcalc.waits` and
:mod:`webcalc.efficiency`; a module of its own so neither imports the other."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .compiled import pjunit as _pjunit
from .compiled import plain as _plain
from .variants.base import Situation, Variant

_SHAPE_BITS = {"seven_pairs": 1, "four_wildcards": 2, "knitted": 4, "thirteen_orphans": 8}
_shape_bits: dict[frozenset[str], int] = {}
#: the last compiled answer, (situation, kinds, discards, answer): analyze() asks for a 13-tile
#: hand's waits and useful draws, and for a 14-tile hand's discard advice and efficiency, with
#: the same situation object; the answer is computed once (an identity check, no hashing)
_last: tuple[Any, ...] = (None, None, None, None)


def compiled_draws(variant: Variant, sit: Situation, kinds: int = 34,
                   discards: tuple[int, ...] | None = None) -> Any:
    """What :class:`FreeOracle` answers, from webcalc/_pjunit_draws.c ``free_draws``, or ``None``
    when the extension is not built or the variant's searches are not the free-joker ones
    (:meth:`~webcalc.variants.base.Variant.distance_shapes` is ``None``).

    For the 13-tile hand of ``sit`` (``discards`` None): ``(d, lower, zero)`` — ``d`` the
    distance (:meth:`FreeOracle.distance`, ``INF`` when never ready), ``lower`` the bit set
    of the kinds ``k`` whose draw lowers it (:meth:`FreeOracle.lowers`), ``zero`` those with
    ``d(H + k) == 0`` (the hand completes: its waits, liveness aside). For a 14-tile hand
    and ``discards`` (kinds held): a list of the same per discard, for the 13 tiles left.
    Kinds held four times are in neither set. tests/test_free_draws.py holds it to
    :class:`FreeOracle` and :meth:`~webcalc.variants.base.Variant.winning_kinds`."""
    global _last
    if _pjunit is None:
        return None
    last = _last
    if last[0] is sit and last[1] == kinds and last[2] == discards:
        return last[3]
    args = _draw_args(variant, sit, kinds)
    if args is None:
        return None
    out = _pjunit.free_draws(*args, discards)
    _last = (sit, kinds, discards, out)
    return out


def _draw_args(variant: Variant, sit: Situation, kinds: int) -> tuple[Any, ...] | None:
    """``free_draws``' arguments but the discards, or ``None`` when the variant's searches
    are not the free-joker ones."""
    shapes = variant.distance_shapes(sit, kinds)
    if shapes is None or len(set(sit.wildcards)) != len(sit.wildcards):
        return None
    wild = 0
    for w in sit.wildcards:
        wild |= 1 << w
    bits = _bits_of(shapes)
    melds = sit.hand.melds
    return (sit.counts, [t for m in melds for t in m.tiles] if melds else (),
            -1 if sit.indicator is None else sit.indicator, kinds, wild, bits, len(melds))


def _bits_of(shapes: frozenset[str]) -> int:
    """``free_draws``' bit set of the shapes beside the standard one."""
    bits = _shape_bits.get(shapes)
    if bits is None:
        bits = _shape_bits[shapes] = sum(_SHAPE_BITS[s] for s in shapes)
    return bits


def compiled_advice(variant: Variant, sit: Situation, kinds: int, visible: Sequence[int],
                    discards: Sequence[int] | None = None) -> Any:
    """:func:`compiled_draws`' answer as the API's rows, in one call of the compiled part
    (webcalc/_pjunit_rows.c ``free_advice``, the twin of
    :func:`webcalc.advice_rows.advice_rows`, which says what the rows are), or ``None``
    when :func:`compiled_draws` would give ``None``. ``visible``: 34 counts or empty.
    ``discards`` (a 14-tile hand: the kinds it may discard, in tile order) as for
    :func:`compiled_draws`."""
    if _pjunit is None:
        return None
    if _plain is not None and kinds == 34:
        # every kind in play: webcalc/_plain.c, the same answer from dense unit tables — a
        # plain hand (no wildcard in play, no meld, no indicator) from the plain ones, a
        # hand with wildcards in play (melds too) from the relaxed ones (None: a hand it
        # does not take, or one its relaxed tables do not settle) — without free_draws'
        # other arguments
        wildcards = sit.wildcards
        melds = sit.hand.melds
        out = None
        if not wildcards and sit.indicator is None and not melds:
            shapes = variant.distance_shapes(sit, kinds)
            if shapes is None:
                return None
            out = _plain.advice(sit.counts, _bits_of(shapes), discards, visible)
        elif wildcards and len(set(wildcards)) == len(wildcards):
            shapes = variant.distance_shapes(sit, kinds)
            if shapes is None:
                return None
            wild = 0
            for w in wildcards:
                wild |= 1 << w
            ind = -1 if sit.indicator is None else sit.indicator
            if melds:
                out = _plain.advice(sit.counts, _bits_of(shapes), discards, visible, wild, ind,
                                    [t for m in melds for t in m.tiles], len(melds))
            else:
                out = _plain.advice(sit.counts, _bits_of(shapes), discards, visible, wild, ind)
        if out is not None:
            return out
    args = _draw_args(variant, sit, kinds)
    if args is None:
        return None
    return _pjunit.free_advice(*args, discards, visible)
