"""Fill the engine's tables before serving.

gunicorn calls :func:`warm_up` in its master process (``on_starting`` in gunicorn.conf.py,
after ``preload_app`` has loaded the app), so every worker forks with the per-suit tables
(:mod:`webcalc.tables`) already holding the patterns of ordinary hands, shared copy-on-write,
and a worker's first analysis is as fast as the rest. The tables are bounded LRU caches, so
this cannot grow memory beyond their bounds.
"""

from __future__ import annotations

import gc
import random
import time
from typing import Any

from .analysis import analyze
from .compiled import pjunit, plain
from .errors import InputError
from .tiles import ALL_TILES, format_tiles
from .variants import VARIANTS

#: how many seeded hands :func:`warm_up` analyses at most by default
WARM_HANDS = 400
#: the most seconds it spends: start-up stays quick on a slow or busy machine (the tables
#: fill lazily anyway; warming only moves the first fills before the fork)
WARM_SECONDS = 3.0
#: the compiled unit tables filled first: suit patterns of up to this many tiles, without
#: and with wildcards in play (the plain and the relaxed tables, 42,253 each, about 0.35 s)
WARM_PLAIN_TILES = 9
WARM_WILD_TILES = 9


def complete_tiles(rng: random.Random, melds: int = 4) -> list[int]:
    """``melds`` random sequences/triplets and a pair, each kind at most 4 times (tile
    indices, unsorted). bench/hands.py draws its complete hands from here too."""
    while True:
        tiles: list[int] = []
        for _ in range(melds):
            if rng.random() < 0.6:
                a = rng.randrange(3) * 9 + rng.randrange(7)
                tiles += [a, a + 1, a + 2]
            else:
                tiles += [rng.randrange(34)] * 3
        tiles += [rng.randrange(34)] * 2
        if all(tiles.count(k) <= 4 for k in tiles):
            return tiles


def _hand(rng: random.Random) -> list[int]:
    """13 or 14 tiles: a complete hand (less one tile for 13) or a random draw from a wall."""
    if rng.random() < 0.5:
        tiles = complete_tiles(rng)
    else:
        tiles = rng.sample([k for k in range(34) for _ in range(4)], 14)
    if rng.random() < 0.5:
        tiles.remove(rng.choice(tiles))
    return sorted(tiles)


def warm_up(hands: int = WARM_HANDS, seed: int = 2026, seconds: float = WARM_SECONDS) -> dict[Any, Any]:
    """Analyse ``hands`` seeded hands — every variant, with wildcards (the indicator drawn at
    random) and without — through :func:`webcalc.analysis.analyze`, which fills every table
    an analysis uses, stopping early once ``seconds`` have passed. Returns ``{"hands": n,
    "seconds": s}`` (``n`` the hands analysed); a hand the rules refuse (a coded
    :class:`~webcalc.errors.InputError`) is skipped."""
    rng = random.Random(seed)
    names = sorted(VARIANTS)
    t0 = time.perf_counter()
    if pjunit is not None:
        # the compiled distance search's unit tables (webcalc/_pjunit_draws.c free_draws): every
        # suit pattern of up to 9 tiles and honors pattern, without wildcards in play and with
        # (about 0.35 s; a hand's units and the units a draw makes)
        pjunit.free_warm(WARM_PLAIN_TILES, False)
        pjunit.free_warm(WARM_WILD_TILES, True)
    if plain is not None:
        # a plain hand's dense unit tables (webcalc/_plain.c): every suit pattern of up to 14
        # tiles and every honors pattern, 3.9 MB, about 0.3-0.6 s; and the relaxed ones a
        # hand with wildcards in play reads (webcalc/_plain_wild.c), 3.9 MB more, about
        # 0.5-0.9 s; a table not there is built when a hand first needs it
        plain.warm()
        plain.warm(True)
    done = 0
    for i in range(hands):
        if time.perf_counter() - t0 > seconds:
            break
        done += 1
        req: dict[Any, Any] = {"variant": names[i % len(names)], "hand": format_tiles(_hand(rng))}
        if rng.random() < 0.7:
            req["indicator"] = ALL_TILES[rng.randrange(34)].code
        try:
            analyze(req)
        except InputError:
            pass
    # what is loaded and filled by now lives as long as the process: moved out of the
    # collector's generations, a full collection later walks only what requests made
    # (tens of milliseconds less per full collection; and the workers forked after this
    # do not touch these pages to count them, so they stay shared)
    gc.collect()
    gc.freeze()
    return {"hands": done, "seconds": time.perf_counter() - t0}
