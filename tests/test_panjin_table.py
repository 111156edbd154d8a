"""盘锦's rows table (webcalc/variants/panjin_table.py, panjin_table.c; issue 38): the unit
rows built at install time and the hands answered from them.

- A unit's key: every unit the table covers has one, distinct units distinct keys, and the
  units it does not cover (eight tiles or more, melds' caps, three jokers, mode "both") none.
- The rows a key holds are the unbounded search's rows for its unit, packed and read back.
- A covered hand's answer equals the bounded search's (``standard_drawn``) and the Python
  twin's (:func:`table_standard`); ``analyze()`` answers 13- and 14-tile hands the same with
  the table as without it (the differential test of the two compiled paths).
- A file that is damaged, cut short, of another format, older than the compiled part or
  whose rows differ from a fresh search is refused: no table, the searches answer.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import webcalc.variants.panjin_advice as PA
import webcalc.variants.panjin_table as T
from tests.scale import examples
from webcalc.analysis import analyze
from webcalc.build_tables import stale
from webcalc.shanten import hand_caps
from webcalc.tiles import ALL_TILES, format_tiles
from webcalc.variants import VARIANTS
from webcalc.variants.panjin_draws import panjin_standard_drawn
from webcalc.variants.panjin_search import panjin_meld_flags
from webcalc.warmup import complete_tiles

from .compiled import COMPILED, require_compiled
from .test_engine_shanten_exact import situation_of

require_compiled()
if PA.ROWS_TABLE is None:
    if os.environ.get("CI"):
        raise AssertionError("no rows table: make builds it (python -m webcalc.build_tables)")
    pytest.skip("no rows table built (make builds it)", allow_module_level=True)

PANJIN = VARIANTS["panjin"]


@pytest.fixture
def table_back():
    """Whatever a test maps or unmaps, the installed table is mapped again after it."""
    yield
    assert T.load() is not None


def _next(honors, i):
    return T._next_of(27 if honors else 0, i)


def _unit(rng, honors, tiles):
    """A unit's counts (``tiles`` real tiles, each kind at most 4)."""
    n = 7 if honors else 9
    counts = [0] * n
    while sum(counts) < tiles:
        k = rng.randrange(n)
        if counts[k] < 4:
            counts[k] += 1
    return counts


def _caps(rng, honors, counts):
    """Caps a hand without melds gives the unit: 4 each, or the indicator's kind 3 and its
    wildcard 0 (mode "next") when the counts allow it; with the form's number."""
    n = len(counts)
    free = [i for i in range(n) if counts[i] <= 3 and counts[_next(honors, i)] == 0]
    if free and rng.random() < 0.6:
        i = rng.choice(free)
        caps = [4] * n
        caps[i], caps[_next(honors, i)] = 3, 0
        return caps, True
    return [4] * n, False


@settings(max_examples=examples(300), deadline=None)
@given(seed=st.integers(0, 2**31))
def test_every_covered_unit_has_its_key_and_its_searched_rows(seed):
    rng = random.Random(seed)
    honors = rng.random() < 0.3
    counts = _unit(rng, honors, rng.randrange(0, T.TILES + 1))
    caps, shown = _caps(rng, honors, counts)
    jokers = rng.randrange(3)
    key = COMPILED.rows_table_key(honors, counts, caps, jokers, 4)
    assert key is not None
    # the key's rows are the search's rows for that unit, as the build searched them
    rows, rel = COMPILED.rows_table_rows(honors, key)
    fresh = COMPILED.rows_table_chunk(honors, key, key + 1)
    assert (rows, rel) == (fresh[0], fresh[2])
    # and, read back, the rows of the search the Python calls (no bound, the mask from 0)
    n = 7 if honors else 9
    yj = [1 if honors or i in (0, 8) else 0 for i in range(n)]
    searched = COMPILED.search(counts, caps, yj, 0, honors, 4, 99, jokers, jokers, 4, None,
                               (), False, True, None)[0]
    read = [(w >> 21 & 7, w >> 20 & 1, w >> 17 & 7, w >> 13 & 15, w >> 9 & 15, w & 511)
            for (w,) in struct.iter_unpack("=I", rows)]
    assert sorted(read) == sorted(tuple(r) for r in searched)
    assert [g * 2 + p for g, p, *_ in read] == sorted(g * 2 + p for g, p, *_ in read)
    # its least r + x by (g, p): of every row, and of the rows that show the suit
    least = [99] * 20
    for g, p, x, fl, r, _ in read:
        least[g * 2 + p] = min(least[g * 2 + p], r + x)
        if fl & 1:
            least[10 + g * 2 + p] = min(least[10 + g * 2 + p], r + x)
    assert list(rel) == least
    # no wildcard in play: the key of max_x 0 (only without an indicator's caps)
    bare = COMPILED.rows_table_key(honors, counts, caps, 0, 0)
    assert (bare is None) == shown
    # another unit, another key
    other = _unit(rng, honors, rng.randrange(0, T.TILES + 1))
    if other != counts:
        assert COMPILED.rows_table_key(honors, other, [4] * n, jokers, 4) != \
            COMPILED.rows_table_key(honors, counts, [4] * n, jokers, 4)


@pytest.mark.parametrize("honors", [False, True])
def test_units_the_table_does_not_cover_have_no_key(honors):
    rng = random.Random(5)
    n = 7 if honors else 9
    small = _unit(rng, honors, 5)
    assert COMPILED.rows_table_key(honors, _unit(rng, honors, T.TILES + 1), [4] * n, 0, 4) is None
    assert COMPILED.rows_table_key(honors, small, [4] * n, 3, 4) is None     # three jokers
    assert COMPILED.rows_table_key(honors, small, [4] * n, 1, 3) is None     # max_x 3
    assert COMPILED.rows_table_key(honors, small, [4] * n, 1, 8) is None     # mode "both"
    melded = [4] * n
    melded[1] = 1                                                            # a meld's copies
    assert COMPILED.rows_table_key(honors, small, melded, 0, 4) is None
    both = [4] * n
    both[2], both[1], both[3] = 3, 0, 0                                      # two wildcards
    assert COMPILED.rows_table_key(honors, [0] * n, both, 0, 4) is None


def _request(rng, tiles, covered=True):
    """A fresh 盘锦 request without melds: half complete shapes, half random; 0-2 wildcard
    tiles, the indicator random (now and then none, or no wildcards at all), a discard win
    three times in ten, the options that change the merge (飘胡, 一门) now and then;
    ``covered``: redrawn until every unit holds at most the table's tiles."""
    while True:
        opts = {}
        if rng.random() < 0.15:
            opts["piaohu"] = True
        if rng.random() < 0.15:
            opts["one_suit"] = True
        if rng.random() < 0.1:
            opts["wildcard_mode"] = "none"
        indicator = None if rng.random() < 0.08 else ALL_TILES[rng.randrange(34)]
        if opts.get("wildcard_mode") == "none":
            indicator = None                  # a room without wildcards takes none
        options = PANJIN.Options(**opts)
        wild = [int(t) for t in PANJIN.wildcards(options, indicator)]
        if rng.random() < 0.5:
            base = complete_tiles(rng)
        else:
            wall = [k for k in range(34) for _ in range(4)]
            base = rng.sample(wall, 14)
        base = [t for t in base if t not in wild]
        while len(base) > tiles:
            base.remove(rng.choice(base))
        jokers = rng.randrange(3) if wild else 0
        while len(base) < tiles:
            if jokers and wild:
                base.append(wild[0])
                jokers -= 1
            else:
                base.append(rng.randrange(34))
        shown = base + ([int(indicator)] if indicator is not None else [])
        if any(shown.count(k) > 4 for k in shown):
            continue
        real = [t for t in base if t not in wild]
        if covered and any(sum(1 for t in real if a <= t < b) > T.TILES
                           for a, b in ((0, 9), (9, 18), (18, 27), (27, 34))):
            continue
        req = {"variant": "panjin", "hand": format_tiles(sorted(base)), "options": opts}
        if indicator is not None:
            req["indicator"] = indicator.code
        if rng.random() < 0.3:
            req["win_by"] = "discard"
        return req


def _args(req):
    """rows_table_answer's arguments for the request's hand."""
    _, sit = situation_of(req)
    _, caps, room = hand_caps(sit)
    jokers = len(sit.jokers)
    suits0, yj0, trip0, seq0 = panjin_meld_flags(sit)
    want = (0 if yj0 else 2) | (0 if trip0 else 4)
    if not sit.options.piaohu and not seq0:
        want |= 8
    allowed = sum(1 << a for a in PANJIN.allowed_suit_counts(sit) if 0 <= a <= 3)
    return sit, (sit.real_counts, caps, jokers, jokers + room, 4 - len(sit.hand.melds), suits0,
                 want, allowed, sit.win_by == "discard")


@settings(max_examples=examples(200), deadline=None)
@given(seed=st.integers(0, 2**31), tiles=st.sampled_from((13, 14)))
def test_a_covered_hand_answers_as_the_bounded_search(seed, tiles):
    rng = random.Random(seed)
    req = _request(rng, tiles)
    sit, args = _args(req)
    got = COMPILED.rows_table_answer(*args)
    assert got is not False, req
    real, caps, jokers, max_x, groups, _, _, _, need_real = args
    searched = panjin_standard_drawn(real, caps, jokers, max_x - jokers, 0,
                                     panjin_meld_flags(sit), PANJIN.allowed_suit_counts(sit),
                                     sit.options.piaohu, jokers, 20, need_real, False)
    assert got == searched, req


@settings(max_examples=examples(12, floor=3), deadline=None)
@given(seed=st.integers(0, 2**31))
def test_the_python_twin_answers_as_the_table(seed):
    rng = random.Random(seed)
    req = _request(rng, 13)
    _, args = _args(req)
    assert T.table_standard(*args) == COMPILED.rows_table_answer(*args), req


def _analysed(reqs):
    return [json.dumps(analyze(r).to_json(), default=str, sort_keys=True, ensure_ascii=False)
            for r in reqs]


@settings(max_examples=examples(60), deadline=None)
@given(seed=st.integers(0, 2**31))
def test_analyze_answers_the_same_with_and_without_the_table(seed):
    rng = random.Random(seed)
    # covered hands and not (a unit of eight tiles: the search), 13 and 14 tiles
    reqs = [_request(rng, tiles, covered) for tiles in (13, 14) for covered in (True, False)]
    with_table = _analysed(reqs)
    T.unload()
    try:
        assert _analysed(reqs) == with_table
    finally:
        assert T.load() is not None


def test_hands_the_table_does_not_cover_answer_false():
    rng = random.Random(9)
    req = _request(rng, 13)
    sit, args = _args(req)
    real, caps, jokers, max_x, groups, suits0, want, allowed, need_real = args
    assert COMPILED.rows_table_answer(*args) is not False
    assert COMPILED.rows_table_answer(real, caps, jokers, max_x, 3, suits0, want, allowed,
                                      need_real) is False                    # a meld
    assert COMPILED.rows_table_answer(real, caps, jokers, max_x, groups, 1, want, allowed,
                                      need_real) is False                    # a meld's suit
    assert COMPILED.rows_table_answer(real, caps, 3, max_x, groups, suits0, want, allowed,
                                      need_real) is False                    # three jokers
    assert T.table_standard(real, caps, 3, max_x, groups, suits0, want, allowed,
                            need_real) is False


def _copy(tmp_path):
    path = tmp_path / "rows.bin"
    shutil.copyfile(T.TABLE_PATH, path)
    return path


def _rewrite(path, change):
    """The file with its body changed by ``change(bytearray)`` and the checksum made again
    (a file that passes the checksum, its rows another build's)."""
    data = bytearray(path.read_bytes())
    body = data[T.HEADER.size:]
    change(body)
    head = list(T.HEADER.unpack_from(data))
    head[-1] = COMPILED.rows_table_fnv(bytes(body))
    path.write_bytes(T.HEADER.pack(*head) + body)


def test_a_damaged_short_foreign_or_stale_file_is_refused(tmp_path, table_back):
    path = _copy(tmp_path)
    assert T.load(path) is not None and not stale(path)
    size = path.stat().st_size
    data = path.read_bytes()
    # a byte flipped in the rows: the checksum
    flipped = bytearray(data)
    flipped[size - 5] ^= 0x10
    path.write_bytes(flipped)
    assert T.load(path) is None and stale(path)
    # cut short, another format, nothing but a header
    path.write_bytes(data[:size - 4])
    assert T.load(path) is None
    path.write_bytes(b"PJROWS\x00\x02" + data[8:])
    assert T.load(path) is None
    path.write_bytes(data[:T.HEADER.size])
    assert T.load(path) is None
    # older than the compiled part it would answer for
    path.write_bytes(data)
    os.utime(path, (1, 1))
    assert T.load(path) is None and stale(path)
    # rows that pass the checksum but not a fresh search: a spot-checked key's first row
    path.write_bytes(data)
    n0, n1 = COMPILED.rows_table_keys(False), COMPILED.rows_table_keys(True)
    key = (n0 - 1) // (T.SPOT_CHECKS // 2 + 1)                 # load()'s first suit key
    offsets = struct.unpack_from(f"={n0 + 1}I", data, T.HEADER.size)
    row_at = (n0 + 1 + n1 + 1 + offsets[key]) * 4 + (n0 + n1) * 20     # past the rel block

    def change(body):
        body[row_at] ^= 1                                      # the row's drawn kinds
    assert offsets[key + 1] > offsets[key]
    _rewrite(path, change)
    assert T.load(path) is None
    # with no table mapped the hands are searched, and answer as before
    req = _request(random.Random(3), 13)
    _, args = _args(req)
    assert COMPILED.rows_table_answer(*args) is False
    assert COMPILED.rows_table_key(False, [1] * 7 + [0, 0], [4] * 9, 0, 4) is not None


def test_make_builds_the_table_again_only_when_stale(tmp_path):
    assert not stale(T.TABLE_PATH)
    assert stale(tmp_path / "missing.bin")


@pytest.mark.slow
def test_the_build_writes_the_installed_table_again(tmp_path):
    """The build is deterministic: the file it writes is the installed one, byte for byte
    (CI's extras; 35 s on two cores)."""
    path = tmp_path / "rows.bin"
    done = T.build(path, quiet=True)
    assert done["bytes"] == path.stat().st_size
    assert path.read_bytes() == T.TABLE_PATH.read_bytes()
