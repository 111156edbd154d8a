"""晋城 牌理 with 拾/搶 tiles (RULES JC-10, C-12): shanten, ``useful`` and ``efficiency`` are
exact. A concealed copy of a taken kind is dead — a taken tile is never the pair, and a
concealed pair beside it would be a third copy (15 tiles) — so it neither makes the pair nor
helps when drawn.

The property compares the API with the exchange search of tests/exchange_search.py (which
knows nothing of the engine's distances: it tries tile exchanges and asks the waits) on
seeded random 晋城 hands with 拾/搶 melds: the hand's shanten, every 13-tile hand's useful
draws when it is at most one from ready, and a 14-tile hand's rows (each discard's shanten,
and its useful draws when at most one from ready).
"""

from __future__ import annotations

import random

from tests.scale import scaled
from webcalc.analysis import analyze
from webcalc.decompose import TERMINALS_AND_HONORS
from webcalc.tiles import ALL_TILES, format_tiles, parse_tiles

from .exchange_search import _discards, _live_draws, _ready, exchange_shanten, ready_within
from .test_engine_shanten_exact import situation_of

ORPHANS = list(TERMINALS_AND_HONORS)
JC = "jincheng"


def taken(*codes: str, qiang: str | None = None) -> list[dict]:
    out = [{"type": "shi", "tiles": c} for c in codes]
    if qiang:
        out.append({"type": "qiang", "tiles": qiang})
    return out


def oracle_shanten(req: dict, most: int = 2) -> int | None:
    """The fewest exchanges that make the hand ready, by the exchange search, when at
    most ``most``; else ``None`` (more than ``most``, or never)."""
    v, sit = situation_of(req)
    for n in range(most + 1):
        if ready_within(v, sit, 34, n):
            return n
    return None


def check_shanten(req: dict, got: int | None, exhaustive: int = 1) -> None:
    """``got``, the API's shanten of ``req``, is what the exchange search finds.

    Not fewer: the search finds no ready hand within ``min(got, exhaustive + 1) − 1``
    exchanges (it tries them all; a hand two or more from ready is proved so, not more,
    to keep the run short). Not more: the engine's advice — draw its first useful tile,
    throw the discard of its best row — reaches a hand the search calls ready in ``got``
    exchanges, each a legal exchange (a live draw, an allowed discard) by the search's
    own rules. ``None`` (never ready): nothing within ``exhaustive`` + 1 exchanges."""
    v, sit = situation_of(req)
    if got == -1:
        assert v.is_win(sit), req
        return
    if got is None:
        assert not ready_within(v, sit, 34, exhaustive + 1), req
        return
    below = min(got, exhaustive + 1) - 1
    assert below < 0 or not ready_within(v, sit, 34, below), (req, got, "fewer do")
    assert advice_reaches_ready(req, got), (req, got, "not enough")


def advice_reaches_ready(req: dict, n: int) -> bool:
    """Following the API's own advice reaches, within ``n`` exchanges, a hand the exchange
    search calls ready (its draws and discards checked against the search's rules)."""
    v, sit = situation_of(req)
    conc = tuple(sorted(int(t) for t in sit.hand.concealed))
    if sit.hand.tile_count == 14:
        out = analyze(req).to_json()
        row = out["efficiency"][0]
        rest = minus(req, row["discard"])
        assert _discards_of(v, sit, conc, rest), (req, row)
        return row["shanten"] == n and advice_reaches_ready(rest, n)
    if _ready(v, sit, conc, 34):
        return True
    if n == 0:
        return False
    out = analyze(req).to_json()
    if not out["useful"]:
        return False
    k = parse_tiles(out["useful"][0]["tile"])[0]
    assert int(k) in _live_draws(sit, conc, 34), (req, k)
    return advice_reaches_ready(plus(req, int(k)), n - 1)


def _discards_of(v, sit, conc14, rest_req) -> bool:
    """Whether ``rest_req``'s hand is ``conc14`` less one tile the search may discard."""
    rest = tuple(sorted(int(t) for t in parse_tiles(rest_req["hand"])))
    return rest in _discards(v, sit, conc14)


def plus(req: dict, k: int) -> dict:
    return {**req, "hand": req["hand"] + ALL_TILES[k].code}


def minus(req: dict, code: str) -> dict:
    tiles = parse_tiles(req["hand"])
    tiles.remove(parse_tiles(code)[0])
    return {**req, "hand": format_tiles(tiles)}


def live(req: dict) -> list[int]:
    """Kinds with a copy outside the hand (C-9), counted here from the request."""
    held = [0] * 34
    for t in parse_tiles(req["hand"]):
        held[t] += 1
    for m in req.get("melds", []):
        held[parse_tiles(m["tiles"])[0]] += 1
    return [k for k in range(34) if held[k] < 4]


def check_useful(req: dict, shanten: int, useful: list[dict]) -> None:
    """For a 13-tile hand at most one from ready: a kind is useful exactly when the hand
    with it drawn is one exchange nearer (for a ready hand: complete), by the search."""
    assert shanten <= 1
    got = {u["tile"] for u in useful}
    for k in live(req):
        v, sit = situation_of(plus(req, k))
        if shanten == 0:
            nearer = v.is_win(sit)
        else:
            nearer = ready_within(v, sit, 34, 0)
        assert nearer == (ALL_TILES[k].code in got), (req, ALL_TILES[k].code, shanten)


# -- the two hands of the report, and the end cases -----------------------------------

def test_JC10_a_concealed_copy_of_a_taken_kind_is_no_pair():
    # 拾1p: the concealed 1p 1p cannot be the pair (the taken tile is never the pair, and the
    # three 1p would be 15 tiles). 11 kinds held (9m 1p 9p 1s 9s 1z..6z): 1m, 7z and a pair
    # are missing, 3 tiles: 2 向听 (the engine said 1, counting 1p 1p as the pair)
    req = {"variant": JC, "hand": "9m119p19s123456z", "melds": taken("1p")}
    out = analyze(req).to_json()
    assert out["shanten"] == 2
    assert oracle_shanten(req) == 2
    useful = [u["tile"] for u in out["useful"]]
    assert "1p" not in useful
    assert useful == ["1m", "9m", "9p", "1s", "9s", "1z", "2z", "3z", "4z", "5z", "6z", "7z"]


def test_JC10_a_taken_kind_drawn_again_is_not_useful():
    # 拾1m beside a concealed 1m: 12 kinds, no pair, 1 向听. Drawing 7z or a pair of a kind
    # not taken helps; a second concealed 1m is dead (the engine listed it)
    req = {"variant": JC, "hand": "1m9m19p19s123456z", "melds": taken("1m")}
    out = analyze(req).to_json()
    assert out["shanten"] == 1 == oracle_shanten(req)
    useful = {u["tile"] for u in out["useful"]}
    assert "1m" not in useful
    assert useful == {ALL_TILES[k].code for k in ORPHANS} - {"1m"}
    check_useful(req, 1, out["useful"])


def test_JC10_fourteen_tiles_with_a_taken_tile():
    # the first hand with 7z drawn: throwing a dead 1p leaves 12 kinds without a pair (1 向听,
    # the pair from any kind not taken); keeping both 1p is farther
    req = {"variant": JC, "hand": "9m119p19s1234567z", "melds": taken("1p")}
    out = analyze(req).to_json()
    assert out["shanten"] == 1
    rows = {e["discard"]: e for e in out["efficiency"]}
    assert rows["1p"]["shanten"] == 1 and out["efficiency"][0]["discard"] == "1p"
    assert {u["tile"] for u in rows["1p"]["useful"]} == {
        ALL_TILES[k].code for k in ORPHANS} - {"1p"}
    assert all(e["shanten"] == 2 for d, e in rows.items() if d != "1p")
    check_shanten(req, out["shanten"])


def test_JC10_all_thirteen_kinds_taken_can_never_be_ready():
    # the pair must be two concealed tiles of a kind not taken: with all thirteen taken
    # there is none (the search runs out of hands: every exchange keeps one lone tile)
    melds = taken(*(ALL_TILES[k].code for k in ORPHANS[:-1]), qiang=ALL_TILES[ORPHANS[-1]].code)
    for hand in ("", "5m"):
        req = {"variant": JC, "hand": hand, "melds": melds}
        out = analyze(req).to_json()
        assert out["shanten"] is None and out["waits"] == []
        assert out.get("useful", []) == [] and out["complete"] is False
        v, sit = situation_of(req)
        assert exchange_shanten(v, sit, 34, 20) == (None, True)
    # twelve taken (all but 7z): 7z alone is ready, on its pair
    req = {"variant": JC, "hand": "7z", "melds": melds[:-1]}
    out = analyze(req).to_json()
    assert out["shanten"] == 0 and [w["tile"] for w in out["waits"]] == ["7z"]


# -- the property ------------------------------------------------------------------------

def random_taken_case(rng: random.Random, tiles: int) -> dict:
    """A valid 晋城 request with 1..12 拾/搶 tiles (at most one 搶) and ``tiles`` tiles in
    all, near 十三幺: a complete one (the other 幺 kinds concealed, a pair of a kind not
    taken), a tile less for 13, then a few tiles changed — to a copy of a taken kind (dead),
    another 幺 or any tile."""
    while True:
        n = rng.randint(1, 12)
        kinds = rng.sample(ORPHANS, n)
        melds = taken(*(ALL_TILES[k].code for k in kinds))
        if rng.random() < 0.3:
            melds[-1]["type"] = "qiang"
        rest = [k for k in ORPHANS if k not in kinds]
        conc = rest + [rng.choice(rest)]
        rng.shuffle(conc)
        conc = conc[:tiles - n]
        for _ in range(rng.choice([0, 1, 1, 2, 2, 3])):
            r = rng.random()
            new = (rng.choice(kinds) if r < 0.45 else rng.choice(ORPHANS) if r < 0.8
                   else rng.randrange(34))
            conc[rng.randrange(len(conc))] = new
        held = conc + kinds
        if any(held.count(k) > 4 for k in set(held)):
            continue
        return {"variant": JC, "hand": format_tiles(conc), "melds": melds}


def test_JC10_C12_taken_tiles_against_the_exchange_search():
    rng = random.Random("jincheng-taken")
    seen13, seen14, useful_checked = [], [], 0
    for _ in range(scaled(80)):
        req = random_taken_case(rng, 13)
        out = analyze(req).to_json()
        check_shanten(req, out["shanten"])
        seen13.append(out["shanten"])
        if out["shanten"] is not None and out["shanten"] <= 1:
            check_useful(req, out["shanten"], out["useful"])
            useful_checked += 1
    for _ in range(25):
        req = random_taken_case(rng, 14)
        out = analyze(req).to_json()
        check_shanten(req, out["shanten"], exhaustive=0)
        seen14.append(out["shanten"])
        for i, e in enumerate(out["efficiency"]):
            rest = minus(req, e["discard"])
            check_shanten(rest, e["shanten"], exhaustive=0)
            if i < 2 and e["shanten"] is not None and e["shanten"] <= 1:
                check_useful(rest, e["shanten"], e["useful"])
    # the sample reaches ready hands, hands farther away and complete ones
    assert {0, 1, 2} <= set(seen13) and {-1, 0, 1} <= set(seen14) and useful_checked >= scaled(40, floor=4)
