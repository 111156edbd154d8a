"""Hand efficiency (牌理, API.md "Hand efficiency"; RULES C-9, C-12).

* A useful draw really lowers the shanten, and no other live kind does (every variant,
  wildcards and 盘锦's conditions included): checked by analysing the hand with the draw.
* On wildcard-free 郑州 hands without four of a kind the useful draws equal those of the
  PyPI ``mahjong`` package's shanten.
* ``remaining`` as for waits; ``efficiency`` one entry per allowed discard, best first,
  its counts over the 14 tiles (the discarded tile seen, C-9 as amended).
"""

from __future__ import annotations

import random

import pytest

from tests.scale import scaled
from webcalc.analysis import analyze
from webcalc.errors import InputError
from webcalc.tiles import ALL_TILES, format_tiles, parse_tiles
from webcalc.variants import VARIANTS
from webcalc.waits import shanten

from .test_engine_shanten_exact import random_case, situation_of

VARIANT_NAMES = tuple(VARIANTS)


def _plus(req, code):
    return {**req, "hand": format_tiles(parse_tiles(req["hand"]) + parse_tiles(code))}


def _minus(req, code, seen=False):
    """``req`` less one ``code`` from the hand; ``seen``: that tile added to ``visible``."""
    tiles = parse_tiles(req["hand"])
    tiles.remove(parse_tiles(code)[0])
    out = {**req, "hand": format_tiles(tiles)}
    if seen:
        out["visible"] = format_tiles(parse_tiles(req.get("visible") or "") + parse_tiles(code))
    return out


def held_counts(req: dict) -> list[int]:
    """How many of each of the 34 kinds the request holds or shows: its hand, its melds and
    the indicator (what C-9 takes out of the live count)."""
    held = [0] * 34
    for t in parse_tiles(req["hand"]):
        held[t] += 1
    for m in req.get("melds", []):
        for t in parse_tiles(m["tiles"]):
            held[t] += 1
    if req.get("indicator"):
        held[parse_tiles(req["indicator"])[0]] += 1
    return held


def _live(req, out):
    """Kinds with a live copy (C-9) in play, for the hand of ``req``."""
    held = held_counts(req)
    kinds = 27 if req.get("options", {}).get("with_honors") is False else 34
    return [ALL_TILES[k].code for k in range(kinds) if held[k] < 4]


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_useful_draws_really_lower_the_shanten(variant):
    rng = random.Random(f"useful-{variant}")
    checked = 0
    for _ in range(25):
        req = random_case(rng, variant, 13)
        req.pop("win_by", None)
        out = analyze(req).to_json()
        if out["shanten"] is None:
            assert out["useful"] == [] and out["useful_total"] == 0
            continue
        useful = {u["tile"] for u in out["useful"]}
        for code in _live(req, out):
            v, sit = situation_of(_plus(req, code))       # C-12's shanten of the 14 tiles
            after = shanten(v, sit, v.kinds_in_play(sit.options))
            lowered = after is not None and after < out["shanten"]
            assert lowered == (code in useful), (req, code, out["shanten"], after)
            checked += 1
        if out["shanten"] == 0:                      # ready: the useful draws are the waits
            assert useful == {w["tile"] for w in out["waits"]}
        assert out["useful_total"] == sum(u["remaining"] for u in out["useful"])
    assert checked > 300


def test_remaining_counts_visible_tiles_and_the_indicator():
    # C-9: 23m 456p 789s 11z 55z 7z, indicator 4万 (wildcard 5万, ZZ-1), 1万 seen twice and
    # 4万 once: 1万 has 4 − 2 = 2 left, 4万 4 − 1 (indicator) − 1 (seen) = 2
    req = {"variant": "zhengzhou", "hand": "23m456p789s11557z", "indicator": "4m",
           "visible": "1m1m4m"}
    out = analyze(req).to_json()
    rem = {u["tile"]: u["remaining"] for u in out["useful"]}
    assert out["shanten"] == 1
    assert rem["1m"] == 2 and rem["4m"] == 2 and rem["5m"] == 4     # a wildcard helps too
    assert set(rem) == {"1m", "4m", "5m", "1z", "5z"}               # 7z does not
    assert out["useful_total"] == sum(rem.values())


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_efficiency_lists_each_discard_best_first(variant):
    rng = random.Random(f"eff-{variant}")
    for _ in range(12):
        req = random_case(rng, variant, 14)
        req.pop("win_by", None)
        out = analyze(req).to_json()
        eff = out["efficiency"]
        discards = [e["discard"] for e in eff]
        assert len(discards) == len(set(discards))
        keys = [(99 if e["shanten"] is None else e["shanten"], -e["useful_total"])
                for e in eff]
        assert keys == sorted(keys)
        shown = {e["discard"] for e in eff}
        allowed = set(format_tiles([t]) for t in set(parse_tiles(req["hand"])))
        if variant != "panjin" or not out["wildcards"]:
            assert shown == allowed
        else:                                          # PJ-2: a wildcard is not discarded
            assert shown <= allowed
        for e in eff[:3]:
            # the row is the 13 tiles left with the discarded tile in the river, seen
            # (C-9 as amended: the copies are counted over the 14 tiles)
            rest = analyze(_minus(req, e["discard"], seen=True)).to_json()
            assert rest["shanten"] == e["shanten"]
            assert rest["useful"] == e["useful"]
        best = [e["shanten"] for e in eff if e["shanten"] is not None]
        if out["complete"]:
            assert out["shanten"] == -1
        else:
            assert out["shanten"] == (min(best) if best else None)
        # discards keeps its meaning: the discards that leave a ready hand
        assert {d["discard"] for d in out["discards"]} == {
            e["discard"] for e in eff if e["shanten"] == 0 and e["useful"]}


def test_useful_tiles_equal_mahjong_on_plain_zhengzhou():
    # ZZ-3: standard and 七对, no 十三幺 (so mahjong's kokushi is off); "without four of a
    # kind": the hands hold at most three of a kind and the draws compared do not make a
    # fourth (mahjong's 七对 does not count four of a kind as two pairs, C-5 does)
    mahjong = pytest.importorskip("mahjong.shanten")
    sh = mahjong.Shanten
    rng = random.Random("mahjong-useful")
    done = 0
    while done < 150:
        tiles = [rng.randrange(34) for _ in range(13)]
        if rng.random() < 0.5:                       # nearer ready: a few pairs and runs
            tiles[:6] = [tiles[0], tiles[0], tiles[1] // 9 * 9 + 3, tiles[1] // 9 * 9 + 4,
                         tiles[2], tiles[2]]
        if any(tiles.count(k) > 3 for k in tiles):
            continue
        counts = [tiles.count(k) for k in range(34)]
        base = sh.calculate_shanten(counts, use_chiitoitsu=True, use_kokushi=False)
        theirs = set()
        for k in range(34):
            if counts[k] < 3:
                counts[k] += 1
                if sh.calculate_shanten(counts, use_chiitoitsu=True, use_kokushi=False) < base:
                    theirs.add(ALL_TILES[k].code)
                counts[k] -= 1
        out = analyze({"variant": "zhengzhou", "options": {"wildcard": False},
                       "hand": format_tiles(tiles)}).to_json()
        assert out["shanten"] == base
        ours = {u["tile"] for u in out["useful"] if counts[parse_tiles(u["tile"])[0]] < 3}
        assert ours == theirs, format_tiles(tiles)
        done += 1


@pytest.mark.parametrize("variant", ["panjin", "jincheng"])    # ZZ-2, SMX: self-draw only
def test_ready_for_a_discard_win_useful_draws_are_the_waits(variant):
    """C-12 (docs/decisions.md): a ready hand's useful draws are exactly its waits, for a
    ``discard`` win too (盘锦 counts a target whose last tile is no real discard one tile
    farther, PJ-2, so no draw lowers its distance: the waits must come from the waits), and
    each ready discard's efficiency row lists the waits discard advice gives for it."""
    from webcalc.warmup import complete_tiles
    rng = random.Random(f"ready-discard-{variant}")
    ready = 0
    for _ in range(scaled(60)):
        tiles = complete_tiles(rng)
        tiles[rng.randrange(14)] = rng.randrange(34)   # one tile off: ready discards
        indicator = ALL_TILES[rng.randrange(34)]
        if any(tiles.count(k) + (k == int(indicator)) > 4 for k in tiles):
            continue
        req = {"variant": variant, "hand": format_tiles(sorted(tiles)), "win_by": "discard"}
        if variant != "jincheng":
            req["indicator"] = indicator.code
        try:
            out14 = analyze(req).to_json()
        except InputError:
            continue
        advice = {d["discard"]: {w["tile"] for w in d["waits"]} for d in out14["discards"]}
        for row in out14["efficiency"]:
            if row["shanten"] == 0:
                assert {u["tile"] for u in row["useful"]} == advice[row["discard"]], (req, row)
                ready += 1
        code = ALL_TILES[tiles[rng.randrange(14)]].code
        out13 = analyze(_minus(req, code)).to_json()
        if out13["shanten"] == 0:
            assert {u["tile"] for u in out13["useful"]} == {w["tile"] for w in out13["waits"]}
            assert out13["useful"], req
    assert ready > scaled(20, floor=2)
