"""Useful draws are exactly the draws the product itself rates nearer to ready.

docs/API.md "Hand efficiency": a 13-tile hand's ``useful`` lists every kind whose draw lowers
the shanten (RULES C-12, wildcards and variant conditions included), a kind counted only
while it has a live copy (C-9: held fewer than four times with the indicator, whatever the
``remaining`` copies); each ``efficiency`` row of a 14-tile hand does the same for the 13
tiles its discard leaves. The reference here is the product's own answer, asked draw by
draw: a kind is useful exactly when :func:`webcalc.analysis.analyze` of the 14 tiles after
its draw gives a lower ``shanten`` than the 13 tiles had (−1 for a complete hand; a hand
that can never be ready has no useful draw).

The draws are the self-draws of C-12 (``win_by`` left at its default): a hand ready for a
discard win takes its last tile from a discard, so its useful draws are its waits
(tests/test_engine_panjin_useful.py covers that rule).

Hands: every variant of :data:`webcalc.variants.VARIANTS` with its room options drawn from
its own option specs (each at its default half the time), the meld types it has
(:attr:`Variant.meld_kinds`), an indicator and wildcard tiles where it has wildcards, and
concealed parts built near a complete hand (groups and a pair, pairs and two-tile parts of
sequences, pairs, 幺 tiles) with a few tiles exchanged, a third of them of the simples only
(no 幺 tile, so that 盘锦's PJ-5 weighs on every target).
"""

from __future__ import annotations

import json
from functools import lru_cache

import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from tests.scale import examples
from webcalc.analysis import analyze
from webcalc.decompose import TERMINALS_AND_HONORS
from webcalc.errors import InputError
from webcalc.hand import KONG_KINDS, TAKEN_KINDS
from webcalc.options import option_specs, parse_options
from webcalc.tiles import ALL_TILES, format_tiles, parse_tiles
from webcalc.variants import VARIANTS

from .test_engine_efficiency import held_counts

NAMES = tuple(VARIANTS)
SUITED_STARTS = tuple(s * 9 + r for s in range(3) for r in range(7))
SLOW = [HealthCheck.too_slow, HealthCheck.filter_too_much]


# -- the reference: the product's own shanten, draw by draw ------------------------------------

@lru_cache(maxsize=4096)
def _shanten(key: str) -> int | None:
    """``shanten`` of the analysis of a request (its JSON text: cached within a run, since
    the rows of one 14-tile hand ask for the same hands again)."""
    return analyze(json.loads(key)).to_json()["shanten"]


def shanten_of(req: dict) -> int | None:
    return _shanten(json.dumps(req, sort_keys=True))


def lower(after: int | None, before: int | None) -> bool:
    """``after`` is nearer to ready than ``before`` (``None``: never ready)."""
    return after is not None and (before is None or after < before)


def live_kinds(req: dict) -> list[int]:
    """The kinds of the request's 13 tiles with a live copy (C-9): held (concealed and
    melds) fewer than four times, the indicator counted, in the variant's kinds in play."""
    v = VARIANTS[req["variant"]]
    kinds = v.kinds_in_play(parse_options(v.Options, req.get("options")))
    held = held_counts(req)
    return [k for k in range(kinds) if held[k] < 4]


def lowering_draws(req: dict, before: int | None) -> list[str]:
    """The kinds whose draw the product rates at a lower shanten than ``before``, in tile
    order: each 14-tile hand after a draw analysed in full."""
    tiles = list(parse_tiles(req["hand"]))
    out = []
    for k in live_kinds(req):
        after = shanten_of({**req, "hand": format_tiles(sorted(tiles + [ALL_TILES[k]]))})
        if lower(after, before):
            out.append(ALL_TILES[k].code)
    return out


def check_useful(req: dict) -> None:
    out = analyze(req).to_json()
    got = [u["tile"] for u in out["useful"]]
    assert got == lowering_draws(req, out["shanten"]), (req, out["shanten"])


def check_efficiency(req: dict) -> None:
    out = analyze(req).to_json()
    hand = list(parse_tiles(req["hand"]))
    for row in out["efficiency"]:
        rest = list(hand)
        rest.remove(parse_tiles(row["discard"])[0])
        left = {**req, "hand": format_tiles(sorted(rest))}
        assert row["shanten"] == shanten_of(left), (req, row)
        got = [u["tile"] for u in row["useful"]]
        assert got == lowering_draws(left, row["shanten"]), (req, row)


# -- the two hands of the report: a real 刻 drawn beside two pongs, beside two kongs ------------

PONGS = {"variant": "panjin", "hand": "78m33p244s", "indicator": "1s",
         "melds": [{"type": "pong", "tiles": "666s"}, {"type": "pong", "tiles": "444p"}]}
KONGS = {**PONGS, "melds": [{"type": "kong", "tiles": "6666s"},
                            {"type": "kong", "tiles": "4444p"}]}


@pytest.mark.parametrize("req", [PONGS, KONGS], ids=["pongs", "kongs"])
def test_panjin_useful_holds_the_draw_that_makes_a_real_triplet(req):
    # 2s is the wildcard (PJ-1). Drawn, 3p makes 333p real (PJ-6), the wildcard pairs a 4s
    # (PJ-2: a pair, the other 4s thrown) and 78m waits on 9m (PJ-5): one exchange from
    # ready, as the analysis of 78m 333p 244s says. 4s likewise (444s, the wildcard pairs 3p).
    out = analyze(req).to_json()
    assert out["shanten"] == 1
    for draw in ("3p", "4s"):
        assert shanten_of({**req, "hand": "78m33p244s" + draw}) == 0
    useful = [u["tile"] for u in out["useful"]]
    assert {"3p", "4s"} <= set(useful)
    assert useful == lowering_draws(req, 1)
    assert out["useful_total"] == sum(u["remaining"] for u in out["useful"])
    # each row of a 14-tile hand that leaves these 13 tiles says the same
    full = analyze({**req, "hand": "78m33p244s9p"}).to_json()
    row = next(e for e in full["efficiency"] if e["discard"] == "9p")
    assert [u["tile"] for u in row["useful"]] == useful


def test_panjin_pongs_useful_total_is_37():
    out = analyze(PONGS).to_json()
    assert out["useful_total"] == 37


# -- the property, over random hands of every variant ------------------------------------------

def _option_values(spec: dict) -> st.SearchStrategy:
    """A room option's values: its default as often as any other (a room mostly plays the
    defaults), else any value it may take."""
    if spec["type"] == "bool":
        values = st.booleans()
    elif spec["type"] == "choice":
        values = st.sampled_from([c[0] for c in spec["choices"]])
    else:
        lo = spec["minimum"] if spec["minimum"] is not None else spec["default"]
        hi = spec["maximum"] if spec["maximum"] is not None else spec["default"]
        values = st.integers(lo, max(lo, hi))
    return st.one_of(st.just(spec["default"]), values)


@st.composite
def _melds(draw, v, kinds: list[int], in_play: int,
           taken: bool) -> list[tuple[str, list[int]]]:
    """Declared melds of types the variant has: sets (pong, chow, kongs) of ``kinds``, or
    拾/搶 tiles (幺 tiles of the ``in_play`` kinds, JC-10)."""
    if taken:
        types = [k for k in v.meld_kinds if k in TAKEN_KINDS]
        n = draw(st.integers(1, 3))
        tiles = draw(st.lists(st.sampled_from([k for k in TERMINALS_AND_HONORS
                                               if k < in_play]),
                              min_size=n, max_size=n, unique=True))
        return [(draw(st.sampled_from(types)), [t]) for t in tiles]
    types = [k for k in v.meld_kinds if k not in TAKEN_KINDS]
    starts = _starts(kinds)
    out = []
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from(types))
        if kind == "chow" and starts:
            a = draw(st.sampled_from(starts))
            out.append((kind, [a, a + 1, a + 2]))
        elif kind != "chow":
            k = draw(st.sampled_from(kinds))
            out.append((kind, [k] * (4 if kind in KONG_KINDS else 3)))
    return out


def _starts(kinds: list[int]) -> list[int]:
    """The sequences (by their lowest kind) made of ``kinds`` only."""
    have = set(kinds)
    return [a for a in SUITED_STARTS if {a, a + 1, a + 2} <= have]


@st.composite
def _concealed(draw, kinds: list[int], size: int) -> list[int]:
    """``size`` tiles of ``kinds`` near a complete hand: groups and a pair, pairs and
    two-tile parts of sequences, pairs (七对), 幺 tiles (十三幺), or any tiles; then up to
    three exchanged for a new kind or a copy of a kind held."""
    style = draw(st.sampled_from(["groups", "groups", "partial", "partial", "pairs", "orphans",
                                  "any"]))
    tile = st.sampled_from(kinds)
    orphans = [k for k in TERMINALS_AND_HONORS if k in kinds]
    if style == "orphans" and not orphans:
        style = "pairs"
    if style == "any":
        return draw(st.lists(tile, min_size=size, max_size=size))
    starts = _starts(kinds)
    pool: list[int] = []
    while len(pool) < size + 2:
        if style == "pairs":
            pool += [draw(tile)] * 2
        elif style == "orphans":
            pool.append(draw(st.sampled_from(orphans)))
        elif style == "partial" and starts and draw(st.booleans()):
            a = draw(st.sampled_from(starts))                 # two of a sequence
            pool += draw(st.sampled_from([[a, a + 1], [a, a + 2], [a + 1, a + 2]]))
        elif style == "partial":
            pool += [draw(tile)] * 2
        elif starts and draw(st.booleans()):
            a = draw(st.sampled_from(starts))
            pool += [a, a + 1, a + 2]
        else:
            pool += [draw(tile)] * draw(st.sampled_from([2, 3]))
    out = draw(st.permutations(pool))[:size]
    for _ in range(draw(st.integers(0, 3))):
        out[draw(st.integers(0, size - 1))] = draw(st.one_of(tile, st.sampled_from(out)))
    return out


@st.composite
def requests(draw, name: str, tiles: int) -> dict:
    """A valid analyse request of variant ``name`` with ``tiles`` tiles (13 or 14): its
    tiles from every kind in play, or from the simples only (no 幺 tile: 盘锦's PJ-5 then
    weighs on every target), the wildcards (where the room has them) over any kind."""
    v = VARIANTS[name]
    options = {s["name"]: draw(_option_values(s)) for s in option_specs(v.Options)}
    opts = parse_options(v.Options, options)
    in_play = list(range(v.kinds_in_play(opts)))
    kinds = in_play
    if draw(st.integers(0, 2)) == 0:
        kinds = [k for k in in_play if k < 27 and k not in TERMINALS_AND_HONORS]
    taken = v.taken_allowed and draw(st.integers(0, 4)) == 0
    melds = draw(_melds(v, kinds, len(in_play), taken))
    size = tiles - sum(len(ts) if kind in TAKEN_KINDS else 3 for kind, ts in melds)
    concealed = draw(_concealed(kinds, size))
    req: dict = {"variant": name, "options": options, "hand": ""}
    if v.wildcards_on(opts) and draw(st.integers(0, 4)):
        indicator = draw(st.sampled_from(in_play))
        req["indicator"] = ALL_TILES[indicator].code
        wild = [int(w) for w in v.wildcards(opts, ALL_TILES[indicator])]
        for _ in range(draw(st.sampled_from([0, 1, 1, 2, 2, 3, 4]))):
            concealed[draw(st.integers(0, size - 1))] = draw(st.sampled_from(wild))
    if "duanmen" in v.settlement_fields(opts) and draw(st.booleans()):
        req["settlement"] = {"dealer": 0, "winner": None, "duanmen": True}
    req["hand"] = format_tiles(sorted(concealed))
    if melds:
        req["melds"] = [{"type": kind, "tiles": format_tiles(ts)} for kind, ts in melds]
    try:
        analyze(req, advice=False)
    except InputError:
        reject()                    # too many copies, a meld the variant forbids, …
    return req


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=examples(40), deadline=None, suppress_health_check=SLOW)
@given(data=st.data())
def test_useful_is_every_draw_that_lowers_the_shanten(name, data):
    check_useful(data.draw(requests(name, 13)))


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=examples(8), deadline=None, suppress_health_check=SLOW)
@given(data=st.data())
def test_each_efficiency_row_is_every_draw_that_lowers_its_shanten(name, data):
    check_efficiency(data.draw(requests(name, 14)))
