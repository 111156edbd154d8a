"""盘锦's useful draws from one search equal those found draw by draw.

:func:`webcalc.efficiency.useful_draws` and :func:`webcalc.efficiency.efficiency` read a 盘锦
hand's useful draws off the searches that find its distance (the kinds the nearest targets
draw), for the standard shape and for 七对 (PJ-8), and under the discard-win rule (PJ-2,
C-9: no discard win on a wildcard, so a target that draws no real tile is one tile
farther). The reference here is the definition, asked draw by draw: a kind ``k`` with a
live copy is useful exactly when the hand plus ``k`` is nearer than the hand
(:meth:`Panjin.missing_by_shape` of both; :func:`webcalc.variants.panjin_search.seven_pairs_panjin` for
七对 alone), which is what the engine did per draw (and per discard) before.

Hands: seeded random 盘锦 requests (melds, room options, 0–8 wildcards of 游戏混), with
``win_by`` discard or not and 七对 on or off.
"""

from __future__ import annotations

import random

import pytest

from webcalc.efficiency import _with_tile, efficiency, useful_draws
from webcalc.shanten import hand_caps
from webcalc.tiles import parse_tiles
from webcalc.variants import VARIANTS
from webcalc.variants.panjin_draws import seven_pairs_panjin_drawn
from webcalc.variants.panjin_search import seven_pairs_panjin
from webcalc.waits import find_waits

from .test_engine_panjin_discards import _many_wildcards, check_discards_at_once
from .test_engine_shanten_exact import random_case, situation_of

PANJIN = VARIANTS["panjin"]


def _requests(seed: int, n: int, tiles: int):
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        req = random_case(rng, "panjin", tiles)
        opts = {**req["options"], "seven_pairs": rng.random() < 0.6}
        if rng.random() < 0.6:
            opts["wildcard_mode"] = "both"
        req = {**req, "options": opts}
        if req.get("indicator") is None:
            continue
        _, sit = situation_of(req)
        if any(t in sit.wildcards for m in sit.hand.melds for t in m.tiles):
            continue                                     # PJ-2: no wildcard in a meld
        if rng.random() < 0.5:
            req = _many_wildcards(rng, req)
        req.pop("win_by", None)
        if rng.random() < 0.6:
            req["win_by"] = "discard"
        out.append(req)
    return out


def _live(sit) -> list[int]:
    held = sit.hand.held_counts()
    return [k for k in range(34) if held[k] + (k == sit.indicator) < 4]


def _useful_by_draws(sit) -> tuple[int | None, list[int]]:
    """The definition, draw by draw: ``(shanten, useful kinds)``. A hand ready for a
    discard win has no draw that brings it nearer under the rule (its last tile must be
    a discard): C-12 (docs/decisions.md) makes its useful draws its waits."""
    shapes = PANJIN.missing_by_shape(sit)
    if not shapes:
        return None, []
    d0 = min(shapes.values())
    if d0 == 1 and sit.win_by == "discard":
        return 0, [int(w.tile) for w in find_waits(PANJIN, sit)]
    return max(d0 - 1, 0), [k for k in _live(sit)
                            if PANJIN.missing_by_shape(_with_tile(sit, k), d0 - 1)]


@pytest.mark.parametrize("seed", range(2))
def test_useful_draws_equal_the_draw_by_draw_definition(seed):
    checked = discard_wins = sevens = 0
    for req in _requests(300 + seed, 30, 13):
        _, sit = situation_of(req)
        got = useful_draws(PANJIN, sit)
        assert (got.shanten, [int(w.tile) for w in got.useful]) == _useful_by_draws(sit), req
        checked += 1
        discard_wins += sit.win_by == "discard"
        sevens += sit.options.seven_pairs and not sit.hand.melds
    assert checked == 30 and discard_wins > 10 and sevens > 5


@pytest.mark.parametrize("seed", range(2))
def test_efficiency_equals_the_draw_by_draw_definition_per_discard(seed):
    checked = 0
    for req in _requests(400 + seed, 4, 14):
        _, sit = situation_of(req)
        for e in efficiency(PANJIN, sit):
            want = _useful_by_draws(sit.without_tile(parse_tiles(e["discard"])[0]))
            got = (e["shanten"], [int(parse_tiles(w["tile"])[0]) for w in e["useful"]])
            assert got == want, (req, e)
            checked += 1
    assert checked > 15


@pytest.mark.parametrize("need_real", [False, True])
def test_seven_pairs_drawn_equals_seven_pairs_per_draw(need_real):
    """:func:`seven_pairs_panjin_drawn`: the distance :func:`seven_pairs_panjin` gives, and
    exactly the kinds whose draw makes it smaller (a wildcard draw: one joker more)."""
    checked = 0
    for req in _requests(500 + need_real, 60, 13):
        _, sit = situation_of(req)
        if sit.hand.melds:
            continue
        _, caps, room = hand_caps(sit)
        jokers = len(sit.jokers)
        allowed = PANJIN.allowed_suit_counts(sit)
        real = sit.real_counts
        d = seven_pairs_panjin(real, caps, jokers, room, allowed, need_real, jokers)
        got = seven_pairs_panjin_drawn(real, caps, jokers, room, allowed, need_real, jokers)
        if d is None:
            assert got is None, req
            continue
        want = set()
        for k in _live(sit):
            counts, j, r = list(real), jokers, room
            if k in sit.wildcards:
                j, r = j + 1, r - 1
            else:
                counts[k] += 1
            if seven_pairs_panjin(counts, caps, j, r, allowed, need_real, j, d - 1) is not None:
                want.add(k)
        d2, mask, wild = got
        kinds = {k for k in _live(sit) if mask >> k & 1 or (wild and k in sit.wildcards)}
        assert (d2, kinds) == (d, want), req
        checked += 1
    assert checked > 15


@pytest.mark.parametrize("seed", range(1))
def test_discards_at_once_with_the_discard_win_rule(seed):
    """:func:`panjin_discards_drawn` with the discard-win rule gives, per discard, what
    :func:`panjin_standard_drawn` with it gives for the 13 tiles left."""
    checked = 0
    for req in _requests(600 + seed, 40, 14):
        req = {**req, "win_by": "discard"}
        _, sit = situation_of(req)
        checked += check_discards_at_once(req, sit, above_d14=(1,), need_real=True)
    assert checked > 40


@pytest.mark.parametrize("seed", range(2))
def test_discard_advice_read_off_efficiency_equals_waits_per_discard(seed):
    """analyze() takes 盘锦's discard advice from the 牌理 rows (ready_discards): it must be
    what discard_advice finds discard by discard (find_waits of each 13-tile hand)."""
    from webcalc.efficiency import ready_discard_rows, ready_discards
    from webcalc.waits import discard_advice
    checked = ready = 0
    for req in _requests(700 + seed, 12, 14):
        _, sit = situation_of(req)
        eff = efficiency(PANJIN, sit)
        got = ready_discards(eff)
        want = discard_advice(PANJIN, sit)
        assert got == want, req
        # the API's rows written straight from the 牌理 rows: the same as the advice's
        assert ready_discard_rows(eff) == [d.to_dict() for d in want], req
        checked += 1
        ready += bool(got)
    assert checked == 12 and ready >= 2
