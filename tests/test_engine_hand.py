"""Every property of :class:`~webcalc.hand.Meld` and :class:`~webcalc.hand.Hand` can be read
(mypy found two Hand properties copied from Meld that raised AttributeError when read)."""

from __future__ import annotations

import pytest

from webcalc.hand import MELD_KINDS, Hand, Meld
from webcalc.tiles import Tile

TILES = {"pong": (0, 0, 0), "chow": (0, 1, 2), "kong": (5, 5, 5, 5), "added_kong": (5, 5, 5, 5),
         "concealed_kong": (9, 9, 9, 9), "shi": (27,), "qiang": (33,)}


def _properties(cls) -> list[str]:
    return sorted(n for n in dir(cls) if isinstance(getattr(cls, n), property))


@pytest.mark.parametrize("kind", MELD_KINDS)
def test_every_property_reads(kind):
    meld = Meld(kind, tuple(Tile(t) for t in TILES[kind]), None if kind == "concealed_kong" else 1)
    hand = Hand.of([10, 11, 12, 20, 20], [meld])
    for obj in (meld, hand):
        for name in _properties(type(obj)):
            getattr(obj, name)
    assert hand.tile_count == 5 + meld.size
