"""The bounded unit folds behind the free-joker variants' hand efficiency.

:func:`webcalc.shanten.free_unit_states` folds one unit into the other units' merged states
keeping only targets within a limit, and :func:`webcalc.shanten.free_unit_draws` does it for
every "this unit plus one tile" at once. Both must agree with the whole unit table
(:func:`webcalc.shanten.unit_free`, merged and finished as :func:`free_standard` does) on
every hand whose distance is within the limit, and say "not within" for the others: checked
on seeded random units, caps, jokers and merged other units. Then, at the level of the
analysis, on the hardest hands (郑州, one suit, 3–4 wildcards, 14 tiles): each discard's
useful draws are exactly the live kinds that lower the shanten (C-12, computed independently
by :func:`webcalc.waits.shanten` from the whole tables).
"""

from __future__ import annotations

import random

from tests.scale import scaled
from webcalc.analysis import analyze
from webcalc.shanten import (
    _finish_free,
    _merge_free,
    free_unit_draws,
    free_unit_states,
    unit_free,
)
from webcalc.tiles import ALL_TILES, format_tiles, parse_tiles
from webcalc.waits import shanten

from .test_engine_shanten_exact import situation_of


def _unit(rng, n, tiles):
    u = [0] * n
    for _ in range(tiles):
        k = rng.randrange(n)
        if u[k] < 4:
            u[k] += 1
    return u


def _case(rng):
    """(seeds, unit, caps, honors, any_jokers, groups, jokers, room)."""
    groups = rng.choice((4, 4, 4, 3, 2, 1))
    jokers = rng.choice((0, 0, 1, 2, 3, 4, 4))
    room = rng.choice((0, 0, 1, 2, 3))
    any_jokers = jokers + room > 0
    honors = rng.random() < 0.25
    n = 7 if honors else 9
    unit = _unit(rng, n, rng.choice((0, 2, 5, 8, 10, 12)))
    caps = [rng.choice((4, 4, 4, 3, 2, 1, 0)) for _ in range(n)]
    caps = [max(c, u) if rng.random() < 0.7 else c for c, u in zip(caps, unit)]
    seeds = {(0, 0, 0): 0}
    for _ in range(rng.randrange(4)):
        h = rng.random() < 0.3
        m = 7 if h else 9
        other = _unit(rng, m, rng.choice((0, 1, 3, 5)))
        seeds = _merge_free(seeds, unit_free(tuple(other), (4,) * m, h, any_jokers), groups)
    return seeds, unit, caps, honors, any_jokers, groups, jokers, room


def _whole(seeds, unit, caps, honors, any_jokers, groups, jokers, room):
    table = unit_free(tuple(unit), tuple(caps), honors, any_jokers)
    return _finish_free(_merge_free(seeds, table, groups), groups, jokers, room)


def test_bounded_fold_equals_the_whole_table_within_the_limit():
    rng = random.Random("free-fold")
    within = beyond = 0
    for _ in range(scaled(700)):
        seeds, unit, caps, honors, any_jokers, groups, jokers, room = _case(rng)
        exact = _whole(seeds, unit, caps, honors, any_jokers, groups, jokers, room)
        for limit in range(0, 6):
            states = free_unit_states(seeds, unit, caps, honors, any_jokers, groups, jokers,
                                      room, limit)
            got = _finish_free(states, groups, jokers, room)
            if exact is not None and exact <= limit:
                assert got == exact, (unit, caps, limit, exact, got)
                within += 1
            else:
                assert got is None or got > limit, (unit, caps, limit, exact, got)
                beyond += 1
    assert within > scaled(500, floor=50) and beyond > scaled(500, floor=50)


def test_one_fold_finds_every_draw_within_the_limit():
    rng = random.Random("free-draws")
    found = missed = 0
    for _ in range(scaled(400)):
        seeds, unit, caps, honors, any_jokers, groups, jokers, room = _case(rng)
        draws = [i for i in range(len(unit)) if unit[i] < 4 and rng.random() < 0.9]
        for limit in range(0, 5):
            got = free_unit_draws(seeds, unit, caps, honors, any_jokers, groups, jokers,
                                  room, limit, draws)
            want = set()
            for i in draws:
                plus = list(unit)
                plus[i] += 1
                d = _whole(seeds, plus, caps, honors, any_jokers, groups, jokers, room)
                if d is not None and d <= limit:
                    want.add(i)
            assert got == want, (unit, caps, draws, limit, seeds)
            found += len(want)
            missed += len(draws) - len(want)
    assert found > 1000 and missed > 1000


def _one_suit_request(rng):
    while True:
        ind = rng.randrange(34)
        wild = ind + 1 if ind < 27 and ind % 9 < 8 else ind - 8 if ind < 27 else None
        req = {"variant": "zhengzhou", "indicator": ALL_TILES[ind].code}
        out = analyze({**req, "hand": "1m2m3m4m5m6m7m8m9m1p1p1p2p2p"}).to_json()
        wild = [parse_tiles(w)[0] for w in out["wildcards"]]
        s = rng.randrange(3) * 9
        tiles = [k for k in (s + rng.randrange(9) for _ in range(14)) if k not in wild]
        w = rng.choice((3, 4))
        tiles = tiles[:14 - w] + [wild[0]] * w
        while len(tiles) < 14:
            tiles.append(rng.randrange(34))
        shown = tiles + [ind]
        if all(shown.count(k) <= 4 for k in shown):
            return {**req, "hand": format_tiles(sorted(tiles))}


def test_each_discard_of_a_one_suit_four_wildcard_hand_lists_exactly_the_lowering_draws():
    # C-12: the hardest hands of bench/worst.py (郑州, one suit, 3-4 wildcards)
    rng = random.Random("one-suit-efficiency")
    checked = 0
    for _ in range(5):
        req = _one_suit_request(rng)
        out = analyze(req).to_json()
        tiles = parse_tiles(req["hand"])
        for e in out["efficiency"]:
            rest = list(tiles)
            rest.remove(parse_tiles(e["discard"])[0])
            v, sit = situation_of({**req, "hand": format_tiles(rest)})
            kinds = v.kinds_in_play(sit.options)
            assert e["shanten"] == shanten(v, sit, kinds)
            useful = {u["tile"] for u in e["useful"]}
            held = [0] * 34
            for t in rest + [parse_tiles(req["indicator"])[0]]:
                held[t] += 1
            for k in range(kinds):
                if held[k] >= 4:
                    continue
                v2, sit2 = situation_of({**req, "hand": format_tiles(rest + [k])})
                after = shanten(v2, sit2, kinds)
                lowers = after is not None and e["shanten"] is not None and after < e["shanten"]
                assert lowers == (ALL_TILES[k].code in useful), (req, e["discard"], k)
                checked += 1
    assert checked > scaled(500, floor=50)
