"""Every property of :class:`~webcalc.hand.Meld` and :class:`~webcalc.hand.Hand` can be read
(mypy found two Hand properties copied from Meld that raised AttributeError when read)."""

from __future__ import annotations

import pytest

from tests.scale import scaled
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


def _every_meld():
    """Every meld the rules allow: each kind on each tile it can be built on, from no seat
    and from each seat."""
    for kind in MELD_KINDS:
        for t in range(34):
            if kind == "chow":
                if t >= 27 or t % 9 > 6:
                    continue
                tiles = (t, t + 1, t + 2)
            else:
                tiles = (t,) * {"pong": 3, "shi": 1, "qiang": 1}.get(kind, 4)
            for source in (None, 0, 1, 2, 3):
                yield Meld(kind, tuple(Tile(x) for x in tiles), source)


def test_every_meld_prints_back_as_it_parses():
    """``Meld.parse(str(m)) == m``, and ``repr`` is the call that rebuilds it."""
    melds = list(_every_meld())
    assert len(melds) == 5 * (21 + 34 * 6)
    for m in melds:
        assert Meld.parse(str(m)) == m
        assert eval(repr(m), {"Meld": Meld}) == m
        assert Meld.build(m.kind, m.to_dict()["tiles"], m.source) == m


def test_hands_print_back_as_they_parse():
    """``Hand.parse(str(h)) == h`` on seeded random hands of 0-4 melds, and the printed form
    is the canonical one (concealed tiles sorted first, then the melds in their order)."""
    import random

    rng = random.Random(22)
    melds = list(_every_meld())
    for _ in range(scaled(2000)):
        ms = rng.sample(melds, rng.randrange(5))
        concealed = [Tile(rng.randrange(34)) for _ in range(13 - 3 * len(ms) + rng.randrange(2))]
        h = Hand.of(concealed, ms)
        text = str(h)
        assert Hand.parse(text) == h
        assert str(Hand.parse(text)) == text
        assert eval(repr(h), {"Hand": Hand}) == h


def test_hand_parse_errors_name_the_field_and_position():
    from webcalc.errors import InputError

    with pytest.raises(InputError) as bad_tile:
        Hand.parse("123m 45x")
    assert (bad_tile.value.code, bad_tile.value.field, bad_tile.value.position) == \
        ("bad_tile", "hand", 7)
    with pytest.raises(InputError) as bad_meld:
        Hand.parse("123m 碰556m")
    assert (bad_meld.value.code, bad_meld.value.field) == ("bad_meld", "melds")
