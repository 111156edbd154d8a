"""盘锦's waits of a ready hand (issue 38 round 5): when the limit-1 search finds complete
standard hands one tile away and no kind is kept without the search
(:meth:`Panjin._kept_unsearched`), :meth:`Panjin.winning_kinds` reads the standard
candidates off the search (``panjin._drawn_kinds``) instead of listing ``standard_waits``
and narrowing them (:meth:`Panjin._standard_filter`): the same waits, in the same order,
on ready and near-ready 13-tile hands with 0-3 wildcard tiles, every room option that
changes the whole-hand conditions (PJ-4..PJ-8), self-draw and discard wins."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.scale import examples
from webcalc.tiles import ALL_TILES, format_tiles
from webcalc.variants import VARIANTS
from webcalc.warmup import complete_tiles

from .test_engine_shanten_exact import situation_of

PANJIN = VARIANTS["panjin"]


def _filtered(sit):
    """:meth:`Panjin.winning_kinds` through ``standard_waits`` and the filter, always."""
    cls = type(PANJIN)
    kept = cls.__dict__["_kept_unsearched"]
    cls._kept_unsearched = staticmethod(lambda s: True)
    try:
        return PANJIN.winning_kinds(sit)
    finally:
        cls._kept_unsearched = kept


def _request(seed: int) -> dict:
    """A 13-tile 盘锦 hand one or two tiles from complete: a complete hand less one tile
    (sometimes one more swapped for a random one), some tiles turned into wildcards."""
    rng = random.Random(seed)
    while True:
        ind = rng.randrange(34)
        options = {"wildcard_mode": rng.choice(("next", "both")),
                   "piaohu": rng.random() < 0.5, "seven_pairs": rng.random() < 0.5,
                   "one_suit": rng.random() < 0.3}
        req = {"variant": "panjin", "hand": "", "indicator": ALL_TILES[ind].code,
               "options": options}
        _, probe = situation_of({**req, "hand": "1m"})
        wild = sorted(int(w) for w in probe.wildcards)
        tiles = complete_tiles(rng)
        tiles.remove(rng.choice(tiles))
        if rng.random() < 0.3:
            tiles[rng.randrange(13)] = rng.randrange(34)
        for _ in range(rng.choice((0, 0, 1, 2, 3))):
            tiles[rng.randrange(13)] = rng.choice(wild)
        vis = tiles + [ind]
        if any(vis.count(k) > 4 for k in vis):
            continue
        if rng.random() < 0.5:
            req["win_by"] = "discard"
        return {**req, "hand": format_tiles(sorted(tiles))}


@settings(max_examples=examples(400), deadline=None)
@given(st.integers(0, 2**31))
def test_ready_waits_read_off_the_search_equal_those_narrowed(seed):
    req = _request(seed)
    _, sit = situation_of(req)
    assert PANJIN.winning_kinds(sit) == _filtered(sit), req


def test_ready_waits_of_a_known_hand():
    """Values the rules fix: 111m 234m 567p 78s 99s (wildcards 1z/3z: indicator 2z, none
    held) has a 刻, a 顺, 幺九 and three suits (PJ-4..PJ-7), and completes on 6s (678s) and
    9s (789s, 99s the pair); a wildcard (one joker more) would make 78s+J a sequence too,
    but no wildcard is drawn on a discard win (PJ-2). The search path is the one taken
    (no kind the hand holds four of, a wildcard left to draw)."""
    for win_by, want in (("self_draw", ["6s", "9s", "1z", "3z"]), ("discard", ["6s", "9s"])):
        req = {"variant": "panjin", "hand": "111234m567p7899s", "indicator": "2z",
               "options": {"wildcard_mode": "both"}, "win_by": win_by}
        _, sit = situation_of(req)
        assert not type(PANJIN)._kept_unsearched(sit)
        assert PANJIN._ready_search(sit) is not None
        got = [t.code for t in PANJIN.winning_kinds(sit)]
        assert sorted(got) == sorted(want)
        assert got == [t.code for t in _filtered(sit)]
