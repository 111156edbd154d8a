"""RULES C-9 as amended: for a 14-tile hand's discards the copies held are counted over the
14 tiles — the discarded tile lies in the river and is not live, so its kind has one copy
fewer — in ``discards[].waits[].remaining``, ``discards[].remaining``,
``efficiency[].useful[].remaining`` and ``useful_total`` (API.md "Counts after a discard"),
with ``dead`` where none is left.

The property counts, for random 14-tile hands of every variant with seen tiles, each listed
kind's copies over the 14 tiles, the melds, the indicator and the visible tiles, here in the
test, and holds every count of the answer to it.
"""

from __future__ import annotations

import random

import pytest

from webcalc.analysis import analyze
from webcalc.tiles import format_tiles, parse_tiles
from webcalc.variants import VARIANTS

from .test_engine_shanten_exact import random_case

VARIANT_NAMES = tuple(VARIANTS)
RULES_EXAMPLE = {"variant": "jincheng", "hand": "123m456m789p555s11z"}


def by_discard(rows: list[dict], field: str) -> dict[str, dict[str, int]]:
    return {r["discard"]: {w["tile"]: w["remaining"] for w in r[field]} for r in rows}


def test_C9_the_rules_example():
    # 晋城 123m 456m 789p 555s 11z (a win already), 打1m → 摸 1m 4m 7m: 3 + 3 + 4 = 10, not
    # 11 (the 1m thrown is in the river; 4m is held once among the 14)
    out = analyze(RULES_EXAMPLE).to_json()
    waits = by_discard(out["discards"], "waits")
    assert waits["1m"] == {"1m": 3, "4m": 3, "7m": 4}
    row = next(d for d in out["discards"] if d["discard"] == "1m")
    assert row["remaining"] == 10
    eff = {e["discard"]: e for e in out["efficiency"]}
    assert by_discard(out["efficiency"], "useful")["1m"] == {"1m": 3, "4m": 3, "7m": 4}
    assert eff["1m"]["useful_total"] == 10 and eff["1m"]["shanten"] == 0
    # 打4m → 4m 7m: 3 + 4 (the 4m thrown), 打9p → 6p 9p: 4 + 3
    assert waits["4m"] == {"4m": 3, "7m": 4} and waits["9p"] == {"6p": 4, "9p": 3}
    # the best row is still 打1m, now with 10
    assert out["efficiency"][0]["discard"] == "1m"


def test_C9_the_discarded_copy_can_leave_none():
    # 1111m 23m 456p 789s 55z, 打1m: 111m 23m waits on 1m (and 4m, and 5z with 11m as the
    # pair); the fourth 1m is in the river, so 1m is listed with 0 left, a dead wait (空听),
    # as a wait whose last copies are seen is (C-9)
    out = analyze({"variant": "jincheng", "hand": "1111m23m456p789s55z"}).to_json()
    row = next(d for d in out["discards"] if d["discard"] == "1m")
    assert [(w["tile"], w["remaining"], w["dead"]) for w in row["waits"]] == [
        ("1m", 0, True), ("4m", 4, False), ("5z", 2, False)]
    assert row["remaining"] == 6
    eff = next(e for e in out["efficiency"] if e["discard"] == "1m")
    assert eff["useful"] == row["waits"] and eff["useful_total"] == 6
    # three 1m seen on the table and the one thrown: none left either
    out = analyze({**RULES_EXAMPLE, "visible": "1m1m1m"}).to_json()
    row = next(d for d in out["discards"] if d["discard"] == "1m")
    assert row["waits"][0] == {"tile": "1m", "remaining": 0, "dead": True}


def test_C9_waits_before_the_winning_tile_are_not_a_discard():
    # with a winning tile the waits are the 13 tiles' before it was drawn: nothing was
    # thrown, and the tile that came is counted as it was then, live (docs/decisions.md)
    out = analyze({**RULES_EXAMPLE, "winning_tile": "1z"}).to_json()
    assert out["waits"] == [{"tile": "1z", "remaining": 3, "dead": False,
                             "win": out["waits"][0]["win"]}]
    # the 13 tiles themselves: unchanged by the amendment
    out = analyze({"variant": "jincheng", "hand": "23m456m789p555s11z"}).to_json()
    assert {w["tile"]: w["remaining"] for w in out["waits"]} == {"1m": 4, "4m": 3, "7m": 4}


def _counts_over_14(req: dict) -> list[int]:
    """Copies out of reach for each kind, counted here: the 14 tiles (concealed and
    melds), the indicator and the visible tiles."""
    out = [0] * 34
    for t in parse_tiles(req["hand"]):
        out[t] += 1
    for m in req.get("melds", []):
        for t in parse_tiles(m["tiles"]):
            out[t] += 1
    for field in ("indicator", "visible"):
        for t in parse_tiles(req.get(field) or ""):
            out[t] += 1
    return out


def _with_visible(rng: random.Random, req: dict) -> dict:
    """``req`` with a few seen tiles (C-2: at most 4 of a kind in all, 3 of the
    indicator's), often copies of the hand's own kinds so that counts reach 0."""
    out_of_reach = _counts_over_14(req)          # the indicator counts as one of four
    hand = parse_tiles(req["hand"])
    kinds = 27 if req.get("options", {}).get("with_honors") is False else 34
    seen = []
    for _ in range(rng.choice([0, 2, 4, 8])):
        k = int(rng.choice(hand)) if rng.random() < 0.6 else rng.randrange(kinds)
        if out_of_reach[k] < 4:
            out_of_reach[k] += 1
            seen.append(k)
    return {**req, "visible": format_tiles(seen)} if seen else req


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_C9_counts_after_a_discard_are_over_the_14_tiles(variant):
    rng = random.Random(f"river-{variant}")
    rows = dead = 0
    for _ in range(30):
        req = _with_visible(rng, random_case(rng, variant, 14))
        out = analyze(req).to_json()
        out_of_reach = _counts_over_14(req)
        for field, listed in (("waits", out["discards"]), ("useful", out["efficiency"])):
            for row in listed:
                for w in row[field]:
                    k = int(parse_tiles(w["tile"])[0])
                    expected = max(0, 4 - out_of_reach[k])
                    assert w["remaining"] == expected, (req, row["discard"], w)
                    assert w["dead"] is (expected == 0)
                    dead += w["dead"]
                    rows += 1
                total = sum(w["remaining"] for w in row[field])
                assert row["remaining" if field == "waits" else "useful_total"] == total
    assert rows > 100 and dead > 0
