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

Hands: the two 盘锦 hands of the report (a real 刻 drawn beside two pongs, two kongs).
"""

from __future__ import annotations

import json
from functools import lru_cache

import pytest

from webcalc.analysis import analyze
from webcalc.options import parse_options
from webcalc.tiles import ALL_TILES, format_tiles, parse_tiles
from webcalc.variants import VARIANTS

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
    held = [0] * 34
    for t in parse_tiles(req["hand"]):
        held[t] += 1
    for m in req.get("melds", []):
        for t in parse_tiles(m["tiles"]):
            held[t] += 1
    if req.get("indicator"):
        held[parse_tiles(req["indicator"])[0]] += 1
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
