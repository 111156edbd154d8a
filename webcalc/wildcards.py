"""Wildcards (混) from the indicator (混皮 / 明牌 / 查混牌).

Two honor cycles exist:

* ``HENAN``, one cycle of the seven honors: 东→南→西→北→中→发→白→东, i.e.
  ``1z→2z→3z→4z→7z→6z→5z→1z`` (the default, ``Variant.cycle``);
* ``PANJIN``, winds and dragons apart: 东→南→西→北→东 and 中→发→白→中 (``7z→6z→5z→7z``).

Which cycle a rule set plays, and its rule, is its variant's ``cycle``.

Suits cycle 1→2…9→1 in both. The indicator itself is out of play (C-7).
"""

from __future__ import annotations

from .tiles import ALL_TILES, Tile

HENAN = "henan"
PANJIN = "panjin"

_HENAN_HONORS = [27, 28, 29, 30, 33, 32, 31]        # 东 南 西 北 中 发 白
_PANJIN_WINDS = [27, 28, 29, 30]
_PANJIN_DRAGONS = [33, 32, 31]                       # 中 发 白


def _cycle_for(t: Tile, cycle: str) -> list[int]:
    if not t.is_honor:
        base = (t // 9) * 9
        return list(range(base, base + 9))
    if cycle == HENAN:
        return _HENAN_HONORS
    return _PANJIN_WINDS if t < 31 else _PANJIN_DRAGONS


def step(t: Tile, cycle: str, delta: int) -> Tile:
    """The tile ``delta`` places after ``t`` (before it, for a negative ``delta``) in ``cycle``.

    >>> step(Tile.parse("9p"), HENAN, 1), step(Tile.parse("4z"), HENAN, 1)
    (Tile.parse('1p'), Tile.parse('7z'))
    """
    ring = _cycle_for(t, cycle)
    return ALL_TILES[ring[(ring.index(t) + delta) % len(ring)]]


def wildcards_from_indicator(indicator: Tile, cycle: str, both: bool = False) -> tuple[Tile, ...]:
    """The wildcard kinds named by ``indicator``, sorted.

    ``both=False``: indicator + 1 (混牌). ``both=True``: indicator − 1 and + 1 (游戏混;
    9万 → 1万, 8万); which one a room plays is its variant's rule. Read off
    :data:`_NAMED`, made once by :func:`_named` (an analysis asks once per request).
    """
    return _NAMED[cycle, both][indicator]


def _named(indicator: Tile, cycle: str, both: bool) -> tuple[Tile, ...]:
    """:func:`wildcards_from_indicator`, worked out."""
    kinds = {step(indicator, cycle, 1)}
    if both:
        kinds.add(step(indicator, cycle, -1))
    return tuple(sorted(kinds))


#: every indicator's wildcards per (cycle, both): :func:`_named` of each
_NAMED = {(cycle, both): tuple(_named(t, cycle, both) for t in ALL_TILES)
          for cycle in (HENAN, PANJIN) for both in (False, True)}
