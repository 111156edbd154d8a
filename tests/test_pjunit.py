"""The compiled 盘锦 unit search (webcalc/variants/panjin_unit.c, in webcalc._pjunit) against
the Python reference it replaces (webcalc/variants/panjin_search.py: unit_panjin;
webcalc/variants/panjin_draws.py: unit_panjin_drawn, unit_panjin_drawn_drops):
the same tables for random units, caps, jokers, bounds and dropped tiles.

The tables are compared as sets of rows (the order of rows carries no meaning). The Python
``unit_panjin`` leaves out dominated rows only while its tables are large, the C search
always at the end: both are compared after the same dominance pruning (``_prune_flags``),
which never changes a hand's result (a dominated row's every completion is matched by its
dominator's)."""

import os
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import webcalc.shanten as S
import webcalc.variants.panjin_draws as PD
import webcalc.variants.panjin_search as PS
from tests.scale import examples, scaled

SEARCHES = (S, PS, PD)             # the modules whose Python twin of the C part is compared

COMPILED = S._pjunit
if COMPILED is None:
    if os.environ.get("WEBCALC_PURE_PYTHON"):
        pytest.skip("WEBCALC_PURE_PYTHON=1 rules the C part out (make test-pure); make test "
                    "runs these", allow_module_level=True)
    if os.environ.get("CI"):
        raise AssertionError("webcalc._pjunit was not built: CI installs a C compiler-built "
                             "extension (setup.py) and must test it")
    pytest.skip("webcalc._pjunit not built (no C compiler at install): the Python search runs",
                allow_module_level=True)


def _both(func, *args):
    """(Python reference, compiled) results of ``func`` (its uncached body) for ``args``."""
    for m in SEARCHES:
        m._pjunit = None
    try:
        py = func.__wrapped__(*args)
    finally:
        for m in SEARCHES:
            m._pjunit = COMPILED
    return py, func.__wrapped__(*args)


def _unit(rng, n):
    while True:
        u = [0] * n
        for _ in range(rng.choice((0, 1, 2, 3, 4, 5, 6, 8, 10))):
            u[rng.randrange(n)] += 1
        if max(u) <= 4:
            return tuple(u)


def _case(rng):
    ui = rng.randrange(4)
    a, b, honors = S.UNITS[ui]
    n = b - a
    unit = _unit(rng, n)
    caps = tuple(max(rng.choice((4, 4, 4, 3, 2, 1, 0)), c) for c in unit)
    jokers = rng.randint(0, 8)
    real = [rng.choice((0, 0, 1, 1, 2)) for _ in range(34)]
    real[a:b] = unit
    all_caps = [4] * 34
    all_caps[a:b] = caps
    max_x = jokers + rng.randint(0, 8)
    return dict(unit=unit, caps=caps, start=a, honors=honors, jokers=jokers, max_x=max_x,
                groups=rng.randint(1, 4), limit=rng.randint(0, 7), others=rng.randint(0, 13),
                rest=PS.panjin_rest_places(real, all_caps, ui, max_x > 0))


def _canon(rows):
    pruned = PS._prune_flags({(0, 0, g, p, x, f): r for g, p, x, f, r in rows})
    return {(g, p, x, f, r) for (_, _, g, p, x, f), r in pruned.items()}


@pytest.mark.parametrize("seed", range(4))
def test_unit_panjin_same_tables(seed):
    rng = random.Random(seed)
    for _ in range(scaled(60)):
        c = _case(rng)
        track_rd = rng.random() < 0.5
        if rng.random() < 0.3:                                   # unbounded
            args = (c["unit"], c["caps"], c["start"], c["honors"], c["max_x"], track_rd)
        else:
            args = (c["unit"], c["caps"], c["start"], c["honors"], c["max_x"], track_rd,
                    c["limit"], c["jokers"], c["groups"], c["others"], c["rest"])
        py, cc = _both(PS.unit_panjin, *args)
        assert _canon(py) == _canon(cc), args


@pytest.mark.parametrize("seed", range(4))
def test_unit_panjin_drawn_same_tables(seed):
    rng = random.Random(100 + seed)
    for _ in range(scaled(60)):
        c = _case(rng)
        args = (c["unit"], c["caps"], c["start"], c["honors"], c["max_x"], c["limit"],
                c["jokers"], c["groups"], c["others"], c["rest"])
        py, cc = _both(PD.unit_panjin_drawn, *args)
        assert set(py) == set(cc), args


@pytest.mark.parametrize("seed", range(4))
def test_unit_panjin_drawn_drops_same_tables(seed):
    rng = random.Random(200 + seed)
    for _ in range(scaled(60)):
        c = _case(rng)
        which = (tuple(i for i, k in enumerate(c["unit"]) if k and rng.random() < 0.7)
                 if rng.random() < 0.7 else None)
        rest = c["rest"] if rng.random() < 0.8 else None
        args = (c["unit"], c["caps"], c["start"], c["honors"], c["max_x"], c["limit"],
                c["jokers"], c["groups"], c["others"], rest, which)
        py, cc = _both(PD.unit_panjin_drawn_drops, *args)
        assert set(py[0]) == set(cc[0]), args
        assert [(j, set(t)) for j, t in py[1]] == [(j, set(t)) for j, t in cc[1]], args
        assert [j for j, _ in cc[1]] == [i for i, k in enumerate(c["unit"])
                                        if k and (which is None or i in which)]


def test_bad_arguments_raise_value_error():
    with pytest.raises(ValueError):
        COMPILED.search((0,) * 10, (4,) * 10, (0,) * 10, 0, False, 4, 4, 0, 0, 4, None, (),
                        False, False)                            # more than 9 kinds
    with pytest.raises(ValueError):
        COMPILED.search((0,) * 9, (4,) * 9, (0,) * 9, 0, False, 4, 4, 0, 0, 4, None, (3,),
                        False, True)                             # a drop the unit lacks
    with pytest.raises(ValueError):
        COMPILED.search((1,) * 9, (4,) * 9, (0,) * 9, 0, False, 40, 4, 0, 0, 4, None, (),
                        False, False)                            # max_x out of range
    with pytest.raises(ValueError):
        COMPILED.search((1,) * 9, (4,) * 9, (0,) * 9, 0, False, 4, 4, 0, 0, 4, (1, 2), (),
                        False, False)                            # a bound of the wrong size
    with pytest.raises(ValueError):
        COMPILED.search((-1,) + (0,) * 8, (4,) * 9, (0,) * 9, 0, False, 4, 4, 0, 0, 4,
                        (0,) * 10, (), False, False)             # a negative count
    with pytest.raises(ValueError):
        COMPILED.merge({(9, 0, 0, 0, 0): (0, 0)}, [], 4, 8, 0, 5, True, 0, 0)   # 9 groups
    with pytest.raises(ValueError):
        COMPILED.merge({(0, 0, 0, 0, 0): (0, 0)}, [(0, 0, 40, 0, 0, 0)], 4, 8, 0, 5, True, 0,
                       0)                                        # 40 jokers placed


def _clear_unit_caches():
    for f in (PS.unit_panjin, PD.unit_panjin_drawn, PD.unit_panjin_drawn_drops):
        f.cache_clear()


def _random_panjin_request(rng):
    """A 盘锦 request: 13 or 14 tiles, up to eight wildcards, random options."""
    from webcalc.options import parse_options
    from webcalc.tiles import ALL_TILES, format_tiles
    from webcalc.variants import VARIANTS
    v = VARIANTS["panjin"]
    opts = {"wildcard_mode": rng.choice(("none", "next", "both", "both")),
            "seven_pairs": rng.random() < 0.5, "piaohu": rng.random() < 0.3,
            "duanmen": rng.random() < 0.2}
    while True:
        ind = ALL_TILES[rng.randrange(34)]
        wild = [int(t) for t in v.wildcards(parse_options(v.Options, opts), ind)]
        n = rng.choice((13, 14))
        w = rng.randint(0, min(8, 4 * len(wild)))
        tiles = [wild[i % len(wild)] for i in range(w)] if wild else []
        while len(tiles) < n:
            k = rng.randrange(34)
            if k not in wild and tiles.count(k) < 4:
                tiles.append(k)
        if all(tiles.count(k) + (k == int(ind)) <= 4 for k in set(tiles)):
            break
    req = {"variant": "panjin", "hand": format_tiles(sorted(tiles)), "indicator": ind.code,
           "options": opts}
    if rng.random() < 0.2:
        req["win_by"] = "discard"
    return req


@pytest.mark.parametrize("seed", range(3))
def test_whole_analysis_same_with_and_without_the_compiled_search(seed):
    """analyze() of random 盘锦 hands (every shape, wait, shanten and 牌理 figure) is the
    same with the compiled search and the merge as with the Python reference."""
    from webcalc.analysis import analyze
    from webcalc.errors import InputError

    def run(req):
        try:
            return analyze(req).to_json()
        except InputError as e:
            return type(e).__name__
    rng = random.Random(300 + seed)
    for _ in range(12):
        req = _random_panjin_request(rng)
        _clear_unit_caches()
        for m in SEARCHES:
            m._pjunit = None
        try:
            py = run(req)
        finally:
            for m in SEARCHES:
                m._pjunit = COMPILED
            _clear_unit_caches()
        assert run(req) == py, req


@pytest.mark.parametrize("seed", range(3))
def test_unit_free_same_tables(seed):
    """unit_free with jokers (the free-joker variants' table, and 盘锦's looser bounds) and
    without (_plain_rows): the compiled tables have the same rows as the Python reference."""
    rng = random.Random(400 + seed)
    for _ in range(scaled(300)):
        a, b, honors = S.UNITS[rng.randrange(4)]
        unit = _unit(rng, b - a)
        caps = tuple(max(rng.choice((4, 4, 4, 3, 2, 1, 0)), c) for c in unit)
        for jokers in (True, False):            # False: _plain_rows / plain_unit
            py, cc = _both(S.unit_free, unit, caps, honors, jokers)
            assert set(py) == set(cc), (unit, caps, honors, jokers)
            assert len(set(cc)) == len(cc)


@settings(max_examples=examples(400), deadline=None)
@given(st.lists(st.integers(0, 33), max_size=14), st.lists(st.sampled_from((4, 4, 3, 2, 1, 0)),
                                                           min_size=34, max_size=34),
       st.integers(0, 8), st.integers(0, 8), st.integers(0, 4), st.sampled_from((34, 27)))
def test_free_standard_same_merge(tiles, caps, jokers, room, melds, kinds):
    """free_standard (the standard distance with free jokers: the lower bound 盘锦's searches
    start from, and other rule sets' Python path) merges its unit tables in C
    (free_merge): the same distance as the Python merge (_merge_free, _finish_free), for
    any counts, caps, jokers, wildcard tiles left, melds and kinds in play."""
    real = [0] * 34
    for k in tiles:
        real[k] = min(4, real[k] + 1)
    caps = [max(real[k], c) for k, c in enumerate(caps)]
    args = (real, caps, jokers, room, melds, kinds)
    S._pjunit = None
    try:
        py = S.free_standard(*args)
    finally:
        S._pjunit = COMPILED
    assert S.free_standard(*args) == py


def _rest_places_reference(real, caps, skip, any_jokers):
    """panjin_rest_places as first written: the other units' unit_free tables merged row by
    row, then fresh groups (3 places) and pair (2) for what they leave."""
    acc = {(0, 0): 0}
    for u, (a, b, honors) in enumerate(S.UNITS):
        if u == skip:
            continue
        new = {}
        for (g, p), d in acc.items():
            for g2, p2, _, d2 in S.unit_free(tuple(real[a:b]), tuple(caps[a:b]), honors,
                                             any_jokers):
                key = (g + g2, p + p2)
                if key[0] <= 4 and key[1] <= 1 and d + d2 < new.get(key, S.INF):
                    new[key] = d + d2
        acc = new
    return tuple(tuple(min((d + 3 * (g - g0) + 2 * (p - p0) for (g0, p0), d in acc.items()
                            if g0 <= g and p0 <= p), default=S.INF) for p in range(2))
                 for g in range(5))


def test_rest_places_same_as_the_row_by_row_merge():
    rng = random.Random(500)
    for _ in range(scaled(400)):
        real = [0] * 34
        for _ in range(rng.randint(0, 14)):
            k = rng.randrange(34)
            real[k] = min(4, real[k] + 1)
        caps = [max(real[k], rng.choice((4, 4, 3, 2, 1, 0))) for k in range(34)]
        any_jokers = rng.random() < 0.7
        for skip in range(4):
            assert (PS.panjin_rest_places(real, caps, skip, any_jokers)
                    == _rest_places_reference(real, caps, skip, any_jokers)), (real, caps, skip)


@pytest.mark.parametrize("seed", range(3))
def test_free_folds_same_results(seed):
    """free_unit_states and free_unit_draws (the free-joker variants' bounded folds): the
    compiled folds give the same states and the same draws as the Python reference."""
    rng = random.Random(600 + seed)
    for _ in range(scaled(400)):
        a, b, honors = S.UNITS[rng.randrange(4)]
        n = b - a
        unit = list(_unit(rng, n))
        caps = [max(rng.choice((4, 4, 4, 3, 2, 1, 0)), c) for c in unit]
        groups, jokers, room = rng.randint(0, 4), rng.randint(0, 8), rng.randint(0, 6)
        states = {(rng.randint(0, groups), rng.randint(0, 1), rng.randint(0, jokers + room + 1)):
                  rng.randint(0, 8) for _ in range(rng.randint(0, 12))}
        limit, any_jokers, after = rng.randint(-1, 6), rng.random() < 0.8, rng.randint(0, 10)
        draws = [i for i in range(n) if rng.random() < 0.6]
        args = (states, unit, caps, honors, any_jokers, groups, jokers, room, limit)
        S._pjunit = None
        try:
            py = (S.free_unit_states(*args, after), S.free_unit_draws(*args, draws))
        finally:
            S._pjunit = COMPILED
        assert (S.free_unit_states(*args, after), S.free_unit_draws(*args, draws)) == py, args


@pytest.mark.parametrize("in_triplet", [True, False])
def test_unit_needs_same_as_the_recursive_search(in_triplet):
    """tables.unit_needs (jokers completing a unit into groups, and groups and a pair): the
    compiled DP gives the numbers of the recursive search tables._need."""
    import webcalc.tables as T
    rng = random.Random(f"needs-{in_triplet}")
    checked = 0
    while checked < 3000:
        honors = rng.random() < 0.25
        unit = [0] * (7 if honors else 9)
        for _ in range(rng.randint(0, 14)):
            unit[rng.randrange(len(unit))] += 1
        if max(unit) > 4:
            continue
        if rng.random() < 0.3:              # as unit_additions asks: one more, a 5th maybe
            unit[rng.randrange(len(unit))] += 1
        canon = T._canonical(tuple(unit), honors)
        assert COMPILED.needs(canon, honors, in_triplet) == (
            T._need(canon, 0, honors, in_triplet), T._need(canon, 1, honors, in_triplet)), unit
        checked += 1


def test_a_refused_call_runs_the_python_search(monkeypatch):
    """The module refuses a call into a function another thread is inside (RuntimeError:
    its tables are shared); the wrappers then run the Python reference, same answer."""
    from webcalc.analysis import analyze

    class Busy:
        def __getattr__(self, name):
            real = getattr(COMPILED, name)
            if name in ("search", "merge", "fold", "fold_draws"):
                def refuse(*args):
                    raise RuntimeError(f"{name}: called while running")
                return refuse
            return real
    reqs = [{"variant": "panjin", "hand": "2223456799m56p49s", "indicator": "1m",
             "options": {"wildcard_mode": "both"}},
            {"variant": "zhengzhou", "hand": "123m456p789s11345z", "indicator": "3z"}]
    _clear_unit_caches()
    want = [analyze(r).to_json() for r in reqs]
    _clear_unit_caches()
    monkeypatch.setattr(S, "_pjunit", Busy())
    assert [analyze(r).to_json() for r in reqs] == want
    _clear_unit_caches()
