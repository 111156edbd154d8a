"""Fresh hands for the benchmarks (issue 13.1): every request distinct, none seen before.

:func:`fresh_requests` yields JSON API requests (API.md) drawn from a seeded generator and
never repeats one (it remembers what it gave): all four variants, with and without
wildcards (0–4, and up to 8 under 盘锦 游戏混), complete, ready and random hands, 13 and 14
tiles, a 14-tile hand sometimes with a winning tile and a settlement. :func:`page_query`
turns one into the page's query string when the page form can express it. bench/soak.py
(``make load``/``make soak``) and bench/memory.py send these; bench/bench.py draws its
wildcard-free hands for the comparison with the peers from :func:`fresh_apart` (timed) and
:func:`special_tiles` (the shape check).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from urllib.parse import urlencode

from webcalc.options import parse_options
from webcalc.tiles import ALL_TILES, format_tiles
from webcalc.variants import VARIANTS
from webcalc.warmup import complete_tiles  # noqa: F401  (worst.py takes it from here)

VARIANT_NAMES = ("sanmenxia", "zhengzhou", "panjin", "jincheng")
PAGE_KEYS = ("variant", "hand", "indicator", "winning_tile", "win_by")


def random_tiles(rng: random.Random, n: int = 14) -> list[int]:
    """``n`` tiles drawn from a full wall (4 of each kind)."""
    return sorted(rng.sample([k for k in range(34) for _ in range(4)], n))


def with_wildcards(rng: random.Random, base: list[int], n: int, wild: list[int],
                   w: int) -> list[int]:
    """``n`` tiles, sorted: ``base``'s tiles that are not wildcards, shuffled and cut to
    ``n - w``, then ``w`` wildcard tiles (the kinds of ``wild`` in turn), then random other
    tiles (never a wildcard, at most four of a kind) up to ``n``."""
    tiles = [t for t in base if t not in wild]
    rng.shuffle(tiles)
    tiles = tiles[: n - w] + [wild[i % len(wild)] for i in range(w)]
    while len(tiles) < n:                           # top up with other tiles
        t = rng.randrange(34)
        if t not in wild and tiles.count(t) < 4:
            tiles.append(t)
    return sorted(tiles)


def panjin_requests(rng: random.Random, tiles: int, count: int) -> list[tuple[int, dict]]:
    """``count`` fresh 盘锦 requests of ``tiles`` tiles (13 or 14) per wildcard count 0-2,
    each ``(wildcard tiles, request)``: half complete shapes (less one tile for 13), half
    random, the indicator random, 30 % won on a discard (bench/pj_table.py,
    bench/pj_unit_rows.py)."""
    panjin = VARIANTS["panjin"]
    out: list[tuple[int, dict]] = []
    seen: set[str] = set()
    for w in (0, 1, 2):
        made = 0
        while made < count:
            indicator = ALL_TILES[rng.randrange(34)]
            wild = [int(t) for t in panjin.wildcards(panjin.Options(), indicator)]
            base = complete_tiles(rng) if rng.random() < 0.5 else random_tiles(rng, 14)
            if tiles == 13:
                base.remove(rng.choice(base))
            hand = with_wildcards(rng, base, tiles, wild, w)
            shown = hand + [int(indicator)]
            key = format_tiles(hand) + indicator.code
            if any(shown.count(k) > 4 for k in shown) or key in seen:
                continue
            seen.add(key)
            req = {"variant": "panjin", "hand": format_tiles(hand), "indicator": indicator.code}
            if rng.random() < 0.3:
                req["win_by"] = "discard"
            out.append((w, req))
            made += 1
    return out


def fresh_tiles(rng: random.Random, n: int, seen: set) -> list[int]:
    """A wildcard-free hand of ``n`` (13 or 14) tiles not in ``seen`` (then added to it):
    half complete/ready shapes (a complete hand, less one tile for 13), half random."""
    while True:
        if rng.random() < 0.5:
            tiles = complete_tiles(rng)
            if n == 13:
                tiles.remove(rng.choice(tiles))
        else:
            tiles = random_tiles(rng, n)
        key = tuple(sorted(tiles))
        if key not in seen:
            seen.add(key)
            return list(key)


def neighbours(tiles: list[int]) -> list[tuple[int, ...]]:
    """The hands one tile from ``tiles`` (sorted tuples): a 14-tile hand's 13-tile hands (one
    tile less), a 13-tile hand's 14-tile hands (one tile more, at most 4 of a kind)."""
    if len(tiles) == 14:
        return [tuple(tiles[:i] + tiles[i + 1:]) for i in range(14)
                if i == 0 or tiles[i] != tiles[i - 1]]
    return [tuple(sorted(tiles + [k])) for k in range(34) if tiles.count(k) < 4]


def fresh_apart(rng: random.Random, n: int, seen: set, tag=None) -> list[int]:
    """As :func:`fresh_tiles`, and no hand one tile from it was used either: the 14-tile
    hands a 13-tile hand's analysis tries (each draw) and the 13-tile hands a 14-tile
    hand's analysis tries (each discard) are new too, so no whole-hand result of an earlier
    analysis can serve it. Keys in ``seen`` are ``(tag, sorted tuple)``; the hand and its
    neighbours are added."""
    while True:
        tiles = fresh_tiles(rng, n, set())
        keys = [(tag, tuple(tiles))] + [(tag, h) for h in neighbours(tiles)]
        if not any(k in seen for k in keys):
            seen.update(keys)
            return tiles


def special_tiles(rng: random.Random, n: int) -> list[int]:
    """A wildcard-free hand of ``n`` tiles near the two special shapes: seven pairs of
    distinct kinds (a third of them with four of a kind as two pairs, RULES C-5), or the
    thirteen orphans; then 0-2 tiles swapped for random ones."""
    roll = rng.random()
    if roll < 0.45:
        kinds = rng.sample(range(34), 7)
        tiles = [k for k in kinds for _ in range(2)]
    elif roll < 0.65:
        kinds = rng.sample(range(34), 6)
        tiles = [k for k in kinds for _ in range(2)] + [kinds[0]] * 2
    else:
        orphans = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]
        tiles = orphans + [rng.choice(orphans)]
    rng.shuffle(tiles)
    tiles = tiles[:n]
    for _ in range(rng.randrange(3)):
        i = rng.randrange(n)
        k = rng.randrange(34)
        if tiles.count(k) < 4:
            tiles[i] = k
    return sorted(tiles)


def _room(rng: random.Random) -> tuple[str, dict, int | None]:
    """(variant, options, indicator kind or None)."""
    variant = rng.choice(VARIANT_NAMES)
    options: dict = {}
    indicator = rng.randrange(34)
    roll = rng.random()
    if variant == "zhengzhou" and roll < 0.3:
        options, indicator = {"wildcard": False}, None
    elif variant == "panjin":
        if roll < 0.25:
            options, indicator = {"wildcard_mode": "none"}, None
        elif roll < 0.5:
            options = {"wildcard_mode": "both"}
    elif variant == "jincheng" or roll < 0.15:
        indicator = None
    return variant, options, indicator


def fresh_requests(seed: int = 13) -> Iterator[dict]:
    """Endless distinct API requests (see the module docstring)."""
    rng = random.Random(seed)
    seen: set = set()
    while True:
        variant, options, ind = _room(rng)
        v = VARIANTS[variant]
        indicator = None if ind is None else ALL_TILES[ind]
        wild = [int(t) for t in v.wildcards(parse_options(v.Options, options), indicator)]
        n = rng.choice((13, 14))
        base = complete_tiles(rng) if rng.random() < 0.5 else random_tiles(rng, 14)
        if n == 13:
            base.remove(rng.choice(base))
        w = 0
        if wild:
            w = rng.choice((0, 1, 1, 2, 2, 3, 4) + ((5, 6, 8) if len(wild) == 2 else ()))
        tiles = with_wildcards(rng, base, n, wild, w)
        visible = tiles + ([ind] if ind is not None else [])
        if any(visible.count(k) > 4 for k in visible):
            continue
        key = (variant, tuple(sorted(options.items())), ind, tuple(tiles))
        if key in seen:
            continue
        seen.add(key)
        req = {"variant": variant, "hand": format_tiles(tiles)}
        if indicator is not None:
            req["indicator"] = indicator.code
        if options:
            req["options"] = options
        if n == 14 and rng.random() < 0.5:
            req["winning_tile"] = ALL_TILES[rng.choice(tiles)].code
            req["win_by"] = rng.choice([m for m in ("self_draw", "discard")
                                        if m in v.win_methods])
            if rng.random() < 0.5:
                req["settlement"] = {"base": 1, "dealer": rng.randrange(4),
                                     "winner": rng.randrange(4)}
                if req["win_by"] == "discard":
                    req["settlement"]["discarder"] = (req["settlement"]["winner"] + 1) % 4
        yield req


def page_query(req: dict) -> str | None:
    """The page URL (``/?…``) for a request the page form can express, else None."""
    if set(req) - set(PAGE_KEYS):
        return None
    return "/?" + urlencode({k: req[k] for k in PAGE_KEYS if req.get(k)})
