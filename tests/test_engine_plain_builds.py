"""The analysis's plain path builds its Hand (``Hand.of_sorted``) and its Situation
(``Situation.counted``) without the frozen dataclasses' ``__init__``: each is the instance
the general constructors make, field for field and in the same order, with the same counts
derived, so that everything reading it (equality, hashing, ``replace``, the judgement)
sees no difference. A field added to either class and not set here fails these tests."""

import random
from dataclasses import FrozenInstanceError, fields, replace

import pytest

from webcalc.analysis import Analysis, _plain_hand, analyze
from webcalc.hand import Hand, Meld
from webcalc.options import parse_options
from webcalc.tiles import ALL_TILES, format_tiles
from webcalc.variants import VARIANTS, Situation
from webcalc.warmup import complete_tiles


def test_of_sorted_is_of():
    rng = random.Random(38)
    for _ in range(200):
        tiles = sorted(complete_tiles(rng))
        concealed, counts = _plain_hand(format_tiles(tiles), 34)
        fast, general = Hand.of_sorted(concealed, counts), Hand.of(tiles)
        assert fast == general and hash(fast) == hash(general)
        assert list(vars(fast)) == [f.name for f in fields(Hand)] + ["_held"]
        assert fast.held_counts() == general.held_counts() == counts
        assert fast.concealed is concealed and fast.melds == ()
    meld = Meld.parse("碰111m")
    with_meld = Hand.of_sorted(concealed[:11], counts, [meld])
    assert with_meld == Hand.of(concealed[:11], [meld]) and "_held" not in vars(with_meld)


def test_counted_is_the_constructor():
    variant = VARIANTS["jincheng"]
    options = parse_options(variant.Options, None)
    concealed, counts = _plain_hand("123m456p789s1122z", 34)
    hand = Hand.of_sorted(concealed, counts)
    for args in [((), "self_draw", None, None, None),
                 ((ALL_TILES[27],), "discard", ALL_TILES[28], ALL_TILES[4], {"dealer": 1})]:
        wild, win_by, winning, indicator, settlement = args
        fast = Situation.counted(hand, wild, options, win_by, winning, indicator, settlement,
                                 list(counts))
        general = Situation(hand, wild, options, win_by, winning, indicator, settlement)
        assert general.counts == counts                 # derived from the hand, on first read
        assert fast == general
        assert list(vars(fast).items()) == list(vars(general).items())
        assert fast.real_counts == general.real_counts and fast.jokers == general.jokers
        assert replace(fast, win_by="self_draw") == replace(general, win_by="self_draw")
    assert vars(fast)["jokers"] == (ALL_TILES[27],) * 2     # the two 1z held, wild here



def test_analysis_built_is_the_constructor():
    """``Analysis.built`` (one ``__dict__`` update; the fields not given read the class's
    defaults) makes the instance ``Analysis(...)`` makes: equal, the same ``to_json()``,
    every field the same value, frozen, rebuilt by ``replace``."""
    seen = []
    for hand in ["123m456p789s1122z", "19m19p19s1234567z", "1358m2p4679s1357z",
                 "123m456p789s11222z", "123m456p789s1122z9s"]:
        got = analyze({"variant": "jincheng", "hand": hand})
        given = {f.name: getattr(got, f.name) for f in fields(Analysis)}
        general = Analysis(**given)
        assert got == general and got.to_json() == general.to_json()
        assert replace(got, shanten=9) == replace(general, shanten=9)
        with pytest.raises(FrozenInstanceError):
            got.shanten = 9                                          # type: ignore[misc]
        seen.append((got.tile_count, got.complete, got.shanten, len(got.waits)))
    assert seen == [(13, False, 0, 2), (13, False, 0, 13), (13, False, 5, 0),
                    (14, True, -1, 0), (14, False, 0, 0)]
    short = Analysis.built("jincheng", (), 13, {"shanten": 1, "useful": (), "useful_total": 0})
    assert short == Analysis("jincheng", (), 13, shanten=1, useful=(), useful_total=0)
    assert short.waits == () and short.discards is None and short.reasons == ()
    assert short.to_json()["useful_total"] == 0 and "discards" not in short.to_json()
