"""Property tests of the shared decomposer and the variants' win test.

* Any hand built from four random melds and a pair is complete, and removing any one
  tile leaves a hand that waits on it (C-4, C-8, C-9), with 0-4 wildcards.
* The engine agrees exactly with the brute-force reference in ``tests/reference.py`` on
  ``complete`` and on the waits of random ready hands with 0-2 wildcards, in every variant.
* Issue 11: it also agrees with ``reference.ref_win`` / ``ref_waits`` on hands with 0-4
  wildcards and melds of every type in every variant, 盘锦 with every option and 断门 drawn at
  random and waits asked for each win method, and 晋城 十三幺 hands holding 拾/搶 tiles.
"""

from __future__ import annotations

from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from tests.scale import examples
from webcalc.analysis import analyze
from webcalc.tiles import ALL_TILES, format_tiles
from webcalc.variants import VARIANTS
from webcalc.wildcards import HENAN, PANJIN, step, wildcards_from_indicator

from .reference import (
    ORPHANS,
    ref_has_shape,
    ref_is_win,
    ref_is_win_many,
    ref_jiahu,
    ref_waits,
    ref_win,
)

SUITED_STARTS = [s * 9 + r for s in range(3) for r in range(7)]


@st.composite
def groups(draw, chow_ok=True, exposed_ok=True):
    """Four melds and a pair: ``(concealed tiles, [(meld kind, tiles)])``."""
    concealed, melds = [], []
    for _ in range(4):
        if draw(st.booleans()):
            a = draw(st.sampled_from(SUITED_STARTS))
            tiles, kind = [a, a + 1, a + 2], "chow"
        else:
            k = draw(st.integers(0, 33))
            tiles, kind = [k, k, k], "pong"
        if exposed_ok and draw(st.integers(0, 4)) == 0 and (kind == "pong" or chow_ok):
            melds.append((kind, tiles))
        else:
            concealed += tiles
    p = draw(st.integers(0, 33))
    concealed += [p, p]
    every = concealed + [t for _, ts in melds for t in ts]
    assume(all(every.count(k) <= 4 for k in set(every)))
    return concealed, melds


def request_for(variant, concealed, melds, indicator=None, options=None, **extra):
    req = {"variant": variant, "hand": format_tiles(concealed),
           "melds": [{"type": k, "tiles": format_tiles(ts)} for k, ts in melds],
           "options": options or {}}
    if indicator is not None:
        req["indicator"] = ALL_TILES[indicator].code
    req.update(extra)
    return req


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(groups(chow_ok=False), st.one_of(st.none(), st.integers(0, 33)), st.data())
def test_built_hand_is_complete_and_each_tile_is_a_wait(hand, indicator, data):
    concealed, melds = hand
    every = concealed + [t for _, ts in melds for t in ts]
    assume(indicator is None or every.count(indicator) <= 3)          # C-2, C-7
    req = request_for("zhengzhou", concealed, melds, indicator)
    out = analyze(req).to_json()
    assert out["complete"] is True
    assert 0 <= sum(t.code in out["wildcards"] for t in map(ALL_TILES.__getitem__, concealed)) <= 4
    removed = data.draw(st.sampled_from(sorted(set(concealed))))
    rest = list(concealed)
    rest.remove(removed)
    waits = {w["tile"] for w in analyze(request_for("zhengzhou", rest, melds, indicator)).to_json()["waits"]}
    assert ALL_TILES[removed].code in waits


PANJIN_OPTIONS = st.fixed_dictionaries({
    "wildcard_mode": st.sampled_from(["none", "next", "both"]),
    "piaohu": st.booleans(), "seven_pairs": st.booleans(), "one_suit": st.booleans()})


@st.composite
def ready_cases(draw):
    variant = draw(st.sampled_from(list(VARIANTS)))
    options = draw(PANJIN_OPTIONS) if variant == "panjin" else {}
    concealed, melds = draw(groups(chow_ok=variant == "panjin"))
    if variant == "jincheng" or options.get("wildcard_mode") == "none":
        indicator, wild = None, set()
    else:
        cycle = PANJIN if variant == "panjin" else HENAN
        how = draw(st.sampled_from(["none", "any", "held", "held", "swap"]))
        if how == "none":
            indicator = None
        elif how == "any":
            indicator = draw(st.integers(0, 33))
        else:                              # make a tile of the hand a wildcard
            target = draw(st.sampled_from(concealed))
            indicator = int(step(ALL_TILES[target], cycle, -1))
            if how == "swap":              # and swap one or two other tiles for it
                for _ in range(draw(st.integers(1, 2))):
                    i = draw(st.integers(0, len(concealed) - 1))
                    concealed = concealed[:i] + [target] + concealed[i + 1:]
        wild = set() if indicator is None else set(wildcards_from_indicator(
            ALL_TILES[indicator], cycle, options.get("wildcard_mode") == "both"))
    every = concealed + [t for _, ts in melds for t in ts]
    assume(all(every.count(k) <= 4 for k in set(every)))
    assume(indicator is None or every.count(indicator) <= 3)
    assume(sum(t in wild for t in concealed) <= 2)
    if variant == "panjin":
        assume(not any(t in wild for _, ts in melds for t in ts))   # PJ-2: no wildcard melds
    removed = draw(st.sampled_from(sorted(set(concealed))))
    return variant, options, concealed, melds, indicator, wild, removed


@settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.filter_too_much,
                                                                  HealthCheck.too_slow])
@given(ready_cases())
def test_engine_agrees_with_reference(case):
    variant, options, concealed, melds, indicator, wild, removed = case
    out = analyze(request_for(variant, concealed, melds, indicator, options)).to_json()
    assert out["complete"] is ref_is_win(variant, concealed, melds, wild, options)

    rest = list(concealed)
    rest.remove(removed)
    out = analyze(request_for(variant, rest, melds, indicator, options)).to_json()
    held = rest + [t for _, ts in melds for t in ts]
    expected = set()
    for k in range(34):
        if held.count(k) + (k == indicator) >= 4:                      # C-9: no live copy
            continue
        if ref_is_win(variant, sorted(rest + [k]), melds, wild, options):
            expected.add(ALL_TILES[k].code)
    assert {w["tile"] for w in out["waits"]} == expected


@st.composite
def many_wildcard_cases(draw):
    """Random 13-tile hands (built or random) with 0-8 wildcards, every variant."""
    variant = draw(st.sampled_from(list(VARIANTS)))
    options = draw(PANJIN_OPTIONS) if variant == "panjin" else {}
    if variant == "panjin" and draw(st.booleans()):
        options["wildcard_mode"] = "both"
    if draw(st.booleans()):
        concealed, _ = draw(groups(exposed_ok=False))
    else:
        concealed = draw(st.lists(st.integers(0, 33), min_size=14, max_size=14))
    wild: set = set()
    indicator = None
    if variant != "jincheng" and options.get("wildcard_mode") != "none":
        cycle = PANJIN if variant == "panjin" else HENAN
        indicator = draw(st.integers(0, 33))
        wild = {int(t) for t in wildcards_from_indicator(
            ALL_TILES[indicator], cycle, options.get("wildcard_mode") == "both")}
        n = draw(st.integers(0, 8))
        kinds = sorted(wild)
        # swap tiles for wildcards: whole groups at times (built hands keep their groups
        # in order, the pair last), single places otherwise
        places = draw(st.sampled_from([list(range(12, 14)), list(range(9, 14)),
                                       list(range(0, 3)), list(range(14))]))
        for i in range(n):
            concealed[draw(st.sampled_from(places)) if i < len(places) else
                      draw(st.integers(0, 13))] = kinds[i % len(kinds)]
    assume(all(concealed.count(k) <= 4 for k in set(concealed)))
    assume(indicator is None or concealed.count(indicator) <= 3)
    removed = draw(st.sampled_from(sorted(set(concealed))))
    return variant, options, concealed, indicator, wild, removed


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.filter_too_much,
                                                                  HealthCheck.too_slow])
@given(many_wildcard_cases())
def test_fast_path_agrees_with_reference_up_to_eight_wildcards(case):
    """Issue 6: the table-driven complete check and waits agree with the plain joker-
    counting reference on hands with 0-8 wildcards, in every variant."""
    variant, options, concealed, indicator, wild, removed = case
    out = analyze(request_for(variant, concealed, [], indicator, options)).to_json()
    assert out["complete"] is ref_is_win_many(variant, sorted(concealed), [], wild, options)
    rest = list(concealed)
    rest.remove(removed)
    out = analyze(request_for(variant, rest, [], indicator, options)).to_json()
    expected = {ALL_TILES[k].code for k in range(34)
                if rest.count(k) + (k == indicator) < 4
                and ref_is_win_many(variant, sorted(rest + [k]), [], wild, options)}
    assert {w["tile"] for w in out["waits"]} == expected


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.filter_too_much,
                                                                  HealthCheck.too_slow])
@given(many_wildcard_cases())
def test_cheap_win_test_agrees_with_the_listing(case):
    """Each variant's is_win (the fast path waits and shanten use) says exactly what its
    judge (the listing the page shows) says, on 14-tile hands with 0-8 wildcards."""
    from webcalc.hand import Hand
    from webcalc.options import parse_options
    from webcalc.variants import VARIANTS, Situation
    variant_name, options, concealed, indicator, wild, _ = case
    variant = VARIANTS[variant_name]
    opts = parse_options(variant.Options, options)
    ind = None if indicator is None else ALL_TILES[indicator]
    sit = Situation(Hand.of(concealed), variant.wildcards(opts, ind), opts, indicator=ind)
    assert variant.is_win(sit) is variant.judge(sit).complete


# -- every variant, 0-4 wildcards, every meld type, every 盘锦 option ----------------

PANJIN_ALL_OPTIONS = st.fixed_dictionaries({
    "wildcard_mode": st.sampled_from(["none", "next", "both"]),
    **{name: st.booleans() for name in (
        "jiagang", "all_jiagang", "duanmen", "qionghu", "jihu", "kong", "no_dealer_repeat",
        "piaohu", "one_suit", "no_pass_win", "seven_pairs", "kong_discard", "kong_bloom",
        "jiahu", "wildcard_kong", "discard_doubles_all")}})
KONG_TYPES = ("kong", "added_kong", "concealed_kong")


@st.composite
def taken_hands(draw):
    """晋城 十三幺 hands holding 1-3 拾/搶 tiles (at most one 搶): the thirteen kinds plus a
    pair, at times a tile swapped for another 幺 tile so the hand is not a win."""
    tiles = list(ORPHANS) + [draw(st.sampled_from(ORPHANS))]
    if draw(st.integers(0, 3)) == 0:
        tiles[draw(st.integers(0, 13))] = draw(st.sampled_from(ORPHANS))
    n = draw(st.integers(1, 3))
    kinds = draw(st.lists(st.sampled_from(sorted(set(tiles))), min_size=n, max_size=n,
                          unique=True))
    concealed = list(tiles)
    melds = []
    qiang = draw(st.integers(-1, n - 1))
    for i, k in enumerate(kinds):
        concealed.remove(k)
        melds.append(("qiang" if i == qiang else "shi", [k]))
    return concealed, melds


@st.composite
def full_cases(draw):
    """A 14-tile hand of four groups and a pair, some groups declared as melds of any type
    the variant has, 0-4 tiles swapped for wildcards; or a 晋城 hand with 拾/搶 tiles."""
    variant = draw(st.sampled_from([*VARIANTS, "panjin"]))
    options = draw(PANJIN_ALL_OPTIONS) if variant == "panjin" else {}
    settlement = None
    duanmen = False
    if options.get("duanmen") and draw(st.booleans()):
        duanmen = draw(st.booleans())
        settlement = {"dealer": 0, "duanmen": duanmen}
    wild_on = variant != "jincheng" and options.get("wildcard_mode") != "none"
    indicator, wild = None, set()
    if wild_on and draw(st.integers(0, 4)):
        cycle = PANJIN if variant == "panjin" else HENAN
        indicator = draw(st.integers(0, 33))
        wild = {int(t) for t in wildcards_from_indicator(
            ALL_TILES[indicator], cycle, options.get("wildcard_mode") == "both")}
    if variant == "jincheng" and draw(st.integers(0, 3)) == 0:
        concealed, melds = draw(taken_hands())
    else:
        concealed, melds, seq_places = [], [], []
        kongs_ok = variant != "panjin" or options["kong"]
        # half the 盘锦 hands are shaped to pass PJ-4..PJ-7 (a sequence in each of two
        # suits, a 幺九 pong, the pair in the third suit) so that wins are common
        suits = draw(st.permutations([0, 9, 18]))
        shaped = variant == "panjin" and draw(st.booleans())
        for i in range(4):
            if shaped and i in (0, 2):
                a = suits[i // 2] + draw(st.integers(0, 6))
                tiles, kind = [a, a + 1, a + 2], "chow"
            elif shaped and i == 1:
                k = draw(st.sampled_from(ORPHANS))
                tiles, kind = [k, k, k], "pong"
            elif draw(st.booleans()):
                a = draw(st.sampled_from(SUITED_STARTS))
                tiles, kind = [a, a + 1, a + 2], "chow"
            else:
                k = draw(st.integers(0, 33))
                tiles, kind = [k, k, k], "pong"
            exposed = draw(st.integers(0, 3)) == 0 and (kind == "pong" or variant == "panjin")
            if exposed:
                if kind == "pong" and kongs_ok and draw(st.booleans()):
                    kind, tiles = draw(st.sampled_from(KONG_TYPES)), tiles + tiles[:1]
                melds.append((kind, tiles))
            else:
                if kind == "chow":
                    seq_places += range(len(concealed), len(concealed) + 3)
                concealed += tiles
        seq_places += [len(concealed), len(concealed) + 1]
        p = suits[2] + draw(st.integers(0, 8)) if shaped else draw(st.integers(0, 33))
        concealed += [p, p]
        if wild:                                  # swap 0-4 concealed tiles for wildcards
            kinds = sorted(wild)
            if (variant == "panjin" and options["wildcard_kong"] and options["kong"]
                    and melds and draw(st.booleans())):
                melds[0] = ("concealed_kong", [kinds[0]] * 4)      # 混杠 (PJ-13)
                kinds = kinds[1:]
            # (盘锦: in a shaped hand, only where PJ-2 lets a wildcard stand in)
            places = seq_places if shaped else range(len(concealed))
            for i in range(draw(st.integers(0, 4)) if kinds else 0):
                concealed[draw(st.sampled_from(places))] = kinds[i % len(kinds)]
        if draw(st.integers(0, 3)) == 0:          # a random tile instead of one in place
            concealed[draw(st.integers(0, len(concealed) - 1))] = draw(st.integers(0, 33))
    every = concealed + [t for _, ts in melds for t in ts]
    assume(all(every.count(k) <= 4 for k in set(every)))
    assume(indicator is None or every.count(indicator) <= 3)
    if variant == "panjin":                       # PJ-2: no wildcard in a meld but 混杠,
        assume(not any(set(ts) & wild and not (   # and that only with its option (PJ-13)
            kind == "concealed_kong" and len(set(ts)) == 1 and options["wildcard_kong"])
            for kind, ts in melds))
    removed = draw(st.sampled_from(sorted(set(concealed))))
    win_by = draw(st.sampled_from(["self_draw", "discard"] if variant in ("panjin", "jincheng")
                                  else ["self_draw", "kong_replacement"]))
    return variant, options, settlement, duanmen, concealed, melds, indicator, wild, removed, win_by


@settings(max_examples=examples(600), deadline=None, suppress_health_check=[HealthCheck.filter_too_much,
                                                                  HealthCheck.too_slow])
@given(full_cases())
def test_engine_agrees_with_the_full_reference(case):
    """Issue 11 done-when: ``complete`` of the 14 tiles and the waits of the 13 left (by the
    win method drawn) agree with reference.ref_win / ref_waits, read from RULES.md."""
    (variant, options, settlement, duanmen, concealed, melds, indicator, wild, removed,
     win_by) = case
    extra = {"settlement": settlement} if settlement else {}
    out = analyze(request_for(variant, concealed, melds, indicator, options, **extra)).to_json()
    assert out["complete"] is ref_win(variant, concealed, melds, wild, options, duanmen)
    if variant == "panjin" and not out["complete"]:     # API reasons: only with a shape
        assert bool(out.get("reasons")) is ref_has_shape(concealed, melds, wild)
    elif variant != "panjin":
        assert "reasons" not in out
    event(f"{variant} complete={out['complete']} wildcards={sum(t in wild for t in concealed)}"
          f" taken={any(k in ('shi', 'qiang') for k, _ in melds)}")
    rest = list(concealed)
    rest.remove(removed)
    out = analyze(request_for(variant, rest, melds, indicator, options, win_by=win_by, **extra)).to_json()
    expected = ref_waits(variant, rest, melds, wild, options, indicator, win_by, duanmen)
    assert {w["tile"] for w in out["waits"]} == {ALL_TILES[k].code for k in expected}


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.filter_too_much,
                                                                  HealthCheck.too_slow])
@given(full_cases())
def test_jiahu_agrees_with_the_reference(case):
    """PJ-10 夹胡 as amended (waits counted as C-9 does, wildcard kinds left out) on random
    盘锦 wins with 0-4 wildcards, the winning tile drawn from the hand."""
    (variant, options, settlement, duanmen, concealed, melds, indicator, wild, winning,
     _) = case
    assume(variant == "panjin")
    options = {**options, "jiahu": True, "piaohu": False, "seven_pairs": False}
    assume(ref_win(variant, concealed, melds, wild, options, duanmen))
    extra = {"settlement": settlement} if settlement else {}
    out = analyze(request_for(variant, concealed, melds, indicator, options,
                              winning_tile=ALL_TILES[winning].code, **extra)).to_json()
    assert out["complete"] is True
    expected = ref_jiahu(concealed, melds, wild, options, winning, indicator, duanmen)
    event(f"jiahu={expected}")
    assert ("jiahu" in {f["key"] for f in out["fan"]}) is expected
