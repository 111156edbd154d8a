"""``decompose.listed_dicts`` (the API form of a hand's readings) against its reference: the
listing as it stood before a group was looked at once per call (each group of each reading
stepped through in Python), kept here verbatim but for a plain group's dict, which it made
from stored parts equal to ``Group.to_dict()`` (tests/test_engine_plain_splits.py). The same
dicts, in the same order, shared alike (the API encodes a shared dict once), over complete
hands of 1-4 wildcard tiles of one or two kinds, with and without declared melds, standard
readings with the compiled part and without (its groups then built per hand), 七对 and 四混
readings among them, and the readings in another order (a variant sorts them)."""

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import webcalc.decompose as D
from tests.compiled import COMPILED, compiled_only
from tests.scale import examples
from webcalc.hand import Meld
from webcalc.tables import can_complete
from webcalc.tiles import ALL_TILES, CODES


def reference(readings, jokers) -> list[dict[Any, Any]]:
    """listed_dicts before (int46 ``ac18ef1``)."""
    out = []
    codes = CODES
    shared: dict[Any, dict[Any, Any]] = {}
    for i, r in enumerate(readings):
        groups = r.groups
        if not jokers or all(g.faces or True not in g.wild for g in groups):
            dicts = []
            for g in groups:
                d = shared.get(g)
                if d is None:
                    d = shared[g] = g.to_dict()
                dicts.append(d)
            out.append({"shape": r.shape, "groups": dicts, "best": i == 0})
            continue
        pool = sorted(jokers)
        faced = []
        for g in groups:
            if g.exposed or True not in g.wild:
                continue
            free = g.kind == "free"
            faces: list[Any] = []
            for t, w in zip(g.tiles, g.wild):
                if not w:
                    faces.append(t)
                elif not free and t in pool:
                    pool.remove(t)
                    faces.append(t)
                else:
                    faces.append(None)
            faced.append(faces)
        faced_iter = iter(faced)
        dicts = []
        for g in groups:
            if g.exposed:
                continue
            if True in g.wild:
                faces = next(faced_iter)
                for idx, f in enumerate(faces):
                    if f is None:
                        faces[idx] = pool.pop(0)
                key: Any = (g.kind, g.tiles, g.wild, tuple(faces))
                d = shared.get(key)
                if d is None:
                    face_codes = [codes[f] for f in faces]
                    d = shared[key] = {
                        "kind": g.kind,
                        "tiles": list(face_codes) if g.kind == "free"
                        else [codes[t] for t in g.tiles],
                        "wild": list(g.wild), "exposed": False, "faces": face_codes}
            else:
                key = ("shown", g.kind, g.tiles, g.wild)
                d = shared.get(key)
                if d is None:
                    tile_codes = [codes[t] for t in g.tiles]
                    d = shared[key] = {"kind": g.kind, "tiles": tile_codes,
                                       "wild": list(g.wild), "exposed": False,
                                       "faces": list(tile_codes)}
            dicts.append(d)
        for g in groups:
            if g.exposed:
                d = shared.get(g)
                if d is None:
                    d = shared[g] = g.to_dict()
                dicts.append(d)
        out.append({"shape": r.shape, "groups": dicts, "best": i == 0})
    return out


def sharing(listed) -> list[int]:
    """Which listed group dicts are one object: each group's first place among them."""
    first: dict[int, int] = {}
    return [first.setdefault(id(d), len(first)) for r in listed for d in r["groups"]]


MELDS = [Meld.parse(m) for m in ("碰555m", "吃123p", "明杠4444s", "碰777z")]


@st.composite
def hands(draw):
    """(counts, joker tiles, melds, in_triplet): a complete hand of 1-4 wildcard tiles of
    one or two kinds (wildcards are tiles like any: some held as themselves too). Drawn
    whole: ``need`` groups (a sequence or a triplet each) and a pair, w of whose tiles are
    then held as wildcards instead; can_complete still decides (a wildcard in a triplet
    needs ``in_triplet``). Drawing random tiles and keeping the complete ones threw away
    23 hands for every one kept (12.7 s for 400)."""
    melds = draw(st.lists(st.sampled_from(MELDS), max_size=2, unique=True))
    need = 4 - len(melds)
    w = draw(st.integers(1, 4))
    kinds = draw(st.lists(st.integers(0, 33), min_size=1, max_size=2, unique=True))
    jokers = sorted(ALL_TILES[kinds[j % len(kinds)]] for j in range(w))
    shape: list[int] = []
    for _ in range(need):
        if draw(st.booleans()):
            start = 9 * draw(st.integers(0, 2)) + draw(st.integers(0, 6))
            shape += [start, start + 1, start + 2]
        else:
            shape += [draw(st.integers(0, 33))] * 3
    shape += [draw(st.integers(0, 33))] * 2
    wild = set(draw(st.lists(st.integers(0, len(shape) - 1), min_size=w, max_size=w,
                             unique=True)))
    counts = [0] * 34
    for i, k in enumerate(shape):
        if i not in wild:
            counts[k] += 1
    assume(all(counts[k] <= 4 - jokers.count(k) for k in range(34)))
    in_triplet = draw(st.booleans())
    assume(can_complete(tuple(counts), w, need, 1, in_triplet))
    order = draw(st.permutations(range(3)))
    return counts, draw(st.permutations(jokers)), melds, in_triplet, order


def readings_of(counts, jokers, melds, in_triplet, compiled: bool) -> list[D.Reading]:
    saved = D._pjunit
    if not compiled:
        D._pjunit = None
    try:
        out = D.standard_readings(counts, jokers, melds, D.JokerPolicy(in_triplet))
    finally:
        D._pjunit = saved
    if not melds:
        seven = D.seven_pairs_reading(counts, jokers)
        if seven is not None:
            out.append(seven)
        concealed = [ALL_TILES[k] for k in range(34) for _ in range(counts[k])] + list(jokers)
        four = D.four_wildcards_reading(concealed, jokers)
        if four is not None:
            out.append(four)
    return out


@settings(max_examples=examples(400), suppress_health_check=[HealthCheck.filter_too_much])
@given(hands(), st.booleans())
def test_listed_dicts_equal_the_reference(hand, compiled):
    counts, jokers, melds, in_triplet, order = hand
    readings = readings_of(counts, jokers, melds, in_triplet, compiled)
    assert readings, "a complete hand has a reading"
    # as listed, and turned about (a variant puts its best reading first)
    for rs in (readings, readings[::-1], readings[order[0]:] + readings[:order[0]]):
        got, want = D.listed_dicts(rs, jokers), reference(rs, jokers)
        assert got == want
        assert json.dumps(got, ensure_ascii=False) == json.dumps(want, ensure_ascii=False)
        assert sharing(got) == sharing(want)
        assert [r["best"] for r in got] == [i == 0 for i in range(len(rs))]


def test_two_wildcard_kinds_keep_their_own_faces_first():
    # 123m 456m 78p 3s3s 1z1z and two wildcards 9p 3s: 78p takes a joker as 6p or 9p, 3s3s
    # or 1z1z a joker as the third tile. A joker place takes first the wildcard whose face
    # it counts as (9p as 9p, 3s as 3s), then the rest in order (9p before 3s).
    counts = [0] * 34
    for k in (0, 1, 2, 3, 4, 5, 15, 16, 20, 20, 27, 27):
        counts[k] += 1
    jokers = [ALL_TILES[20], ALL_TILES[17]]          # 3s, 9p
    readings = D.standard_readings(counts, jokers, ())
    listed = D.listed_dicts(readings, jokers)
    assert [[("".join(g["tiles"]), "".join(g["faces"])) for g in r["groups"] if True in g["wild"]]
            for r in listed] == [
        [("6p7p8p", "9p7p8p"), ("1z1z1z", "1z1z3s")],
        [("7p8p9p", "7p8p9p"), ("1z1z1z", "1z1z3s")],
        [("6p7p8p", "9p7p8p"), ("3s3s3s", "3s3s3s")],
        [("7p8p9p", "7p8p9p"), ("3s3s3s", "3s3s3s")]]
    assert [r["best"] for r in listed] == [True, False, False, False]
    assert listed == reference(readings, jokers)


def python_listing(readings, jokers) -> list[dict[Any, Any]]:
    """listed_dicts with the compiled listing ruled out: the Python twin alone."""
    saved = D._pjunit
    D._pjunit = None
    try:
        return D.listed_dicts(readings, jokers)
    finally:
        D._pjunit = saved


@compiled_only
# complete hands drawn whole (hands())
@settings(max_examples=examples(150), suppress_health_check=[HealthCheck.filter_too_much])
@given(hands(), st.booleans())
def test_compiled_listing_equals_the_python_listing(hand, compiled):
    # webcalc/_pjunit_listing.c against decompose._listed_reading on the same readings:
    # standard readings of the compiled part (the compiled listing lists them) and of the
    # Python twin (left to the Python listing), mixed with 七对 and 四混 (the Python
    # listing's), in three orders
    counts, jokers, melds, in_triplet, order = hand
    readings = readings_of(counts, jokers, melds, in_triplet, compiled)
    for rs in (readings, readings[::-1], readings[order[0]:] + readings[:order[0]]):
        got, want = D.listed_dicts(rs, jokers), python_listing(rs, jokers)
        assert got == want
        assert json.dumps(got, ensure_ascii=False) == json.dumps(want, ensure_ascii=False)
        assert sharing(got) == sharing(want)
    if compiled:
        # the compiled listing took every standard reading itself
        standard = [r for r in readings if r.shape == "standard"]
        listed = COMPILED.list_readings(standard, sorted(jokers), D._LIST_STATIC, {},
                                        tuple(CODES))
        assert None not in listed and listed == python_listing(standard, jokers)


@compiled_only
def test_compiled_listing_leaves_other_groups_to_python():
    # a 七对 reading (groups with faces of their own) and a hand-made group are not the
    # compiled listing's: None in their place, the standard reading's dict beside them
    counts = [0] * 34
    for k in (0, 0, 1, 1, 2, 2, 9, 9, 10, 10, 11, 11, 27, 27):
        counts[k] += 1
    seven = D.seven_pairs_reading(counts)
    standard = D.standard_readings(counts, [], ())
    odd = D.Reading("standard", (D.Group("pair", (ALL_TILES[0],) * 2, (False, False)),))
    got = COMPILED.list_readings([seven, *standard, odd], [], D._LIST_STATIC, {},
                                 tuple(CODES))
    assert got[0] is None and got[-1] is None
    whole = python_listing([seven, *standard, odd], [])
    assert got[1:-1] == whole[1:-1]
    assert [r["best"] for r in got[1:-1]] == [False] * len(standard)
    assert D.listed_dicts([seven, *standard, odd], []) == whole


@compiled_only
@pytest.mark.parametrize("args", [
    ([("standard", "x")], [], {}, {}, tuple(CODES)),
    ([("standard", (("pair",),))], [], {}, {}, tuple(CODES)),
    ([("standard", (D._PLAIN_BY_ID[0],))], [], {id(D._PLAIN_BY_ID[0]): (0, "x")}, {},
     tuple(CODES)),
    ([("standard", (D._PLAIN_BY_ID[0],))], [], {id(D._PLAIN_BY_ID[0]): (2,) * 10}, {},
     tuple(CODES)),
    ([], [40], {}, {}, tuple(CODES)),
    ([], [3, 1], {}, {}, tuple(CODES)),
    ([], list(range(17)), {}, {}, tuple(CODES)),
    ([], [], {}, {}, ("1m",)),
    (None, [], {}, {}, tuple(CODES)),
    ([], [], [], {}, tuple(CODES)),
])
def test_compiled_listing_refuses_what_is_not_a_listing(args):
    with pytest.raises((TypeError, ValueError)):
        COMPILED.list_readings(*args)


@compiled_only
def test_compiled_calls_survive_code_that_changes_their_dicts():
    # Python code the compiled calls run (a key's __eq__, a meld group's to_dict) empties
    # the dicts they read: they answer or refuse, never read a freed group
    free2 = 3 << 21 | 2 << 14 | 2 << 7
    groups = {free2 | 1 << 28: D._free_group(ALL_TILES[0], 2)}
    seq = 1 << 21 | (1 * 2 + 1) << 14 | (2 * 2 + 1) << 7 | (3 * 2 + 1)

    class Clearing(int):
        def __hash__(self):
            return hash(int(self))

        def __eq__(self, other):
            groups.clear()
            return False

    groups[Clearing(seq)] = D._PLAIN_BY_ID[34]
    got = COMPILED.coded_readings([(free2, seq), (free2,)], groups, 0, (), D.Reading,
                                  "standard")
    assert got is None

    shared: dict[Any, Any] = {}

    class Clearing_meld(D.Group):
        def to_dict(self):
            statics.clear()
            shared.clear()
            return super().to_dict()

    meld = Clearing_meld("triplet", (ALL_TILES[4],) * 3, (False,) * 3, True, (ALL_TILES[4],) * 3, None)
    counts = [0] * 34
    for k in (0, 1, 2, 9, 10, 11, 18, 19, 27, 27):
        counts[k] += 1
    jokers = [ALL_TILES[33]]
    readings = [r._replace(groups=r.groups + (meld,))
                for r in D.standard_readings(counts, jokers, [Meld.parse("碰555m")])]
    assert readings
    statics = dict(D._LIST_STATIC)                 # with the groups the readings hold
    listed = COMPILED.list_readings(readings, [33], statics, shared, tuple(CODES))
    assert len(listed) == len(readings) and None not in listed
    assert listed == python_listing(readings, jokers)
