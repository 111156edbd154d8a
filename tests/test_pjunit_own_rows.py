"""``own_rows`` (webcalc/_pjunit_rows.c): the 14-tile 牌理 rows of a rule set with its own
search, from each allowed discard's ``(t, distance, useful kinds)``, against its Python twin
webcalc/efficiency.py ``_entry_rows``: the same rows in the same order, encoded to the same
JSON, over any held counts, indicator, visible counts, room (27 or 34 kinds) and discards;
and 盘锦's ``efficiency()`` the same with the compiled rows ruled out."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import webcalc.efficiency as E
from tests.compiled import require_compiled
from tests.scale import examples, scaled
from webcalc.analysis import analyze
from webcalc.tiles import parse_tiles

COMPILED = E._pjunit
require_compiled()

INF = E.INF


@st.composite
def calls(draw):
    """(discards, held, indicator, visible, kinds): 14 held tiles (at most four of a kind),
    each held kind a discard with a distance 1..6 or none (INF) and any useful kinds."""
    kinds = draw(st.sampled_from([34, 27]))
    wall = [k for k in range(kinds) for _ in range(4)]
    picks = draw(st.lists(st.sampled_from(range(len(wall))), min_size=14, max_size=14,
                          unique=True))
    held = [0] * 34
    for p in picks:
        held[wall[p]] += 1
    indicator = draw(st.sampled_from([-1] + list(range(kinds))))
    if draw(st.booleans()):
        visible = [draw(st.integers(0, max(0, 4 - held[k]))) if k < kinds else 0
                   for k in range(34)]
    else:
        visible = []
    discards = []
    for t in sorted({wall[p] for p in picks}):
        if draw(st.integers(0, 9)) == 0:
            continue                              # a discard the rule set does not allow
        d = draw(st.sampled_from([1, 1, 2, 3, 4, 6, INF]))
        mask = draw(st.integers(0, (1 << 34) - 1))
        discards.append((t, d, mask))
    return discards, held, indicator, visible, kinds


@settings(max_examples=examples(500))
@given(calls())
def test_own_rows_equal_the_twin(call):
    python = E._entry_rows(*call)
    compiled = COMPILED.own_rows(*call)
    assert compiled == python
    assert json.dumps(compiled) == json.dumps(python)


def test_a_row_the_rules_fix():
    # 14 tiles 1112345678999m 1z, no indicator, nothing seen: discarding 1z leaves 九莲宝灯's
    # nine waits (one tile away, d = 1); the held copies leave 1m 1, 9m 1, the rest 3
    held = [0] * 34
    for t in parse_tiles("1112345678999m1z"):
        held[int(t)] += 1
    rows = COMPILED.own_rows([(27, 1, (1 << 9) - 1), (0, 2, 1 << 27)], held, -1, [], 34)
    assert rows[0] == {"discard": "1z", "shanten": 0, "useful": [
        {"tile": f"{r}m", "remaining": 1 if r in (1, 9) else 3,
         "dead": False} for r in range(1, 10)], "useful_total": 23}
    # 1m's row: its one useful kind 1z, three copies left beside the one held
    assert rows[1] == {"discard": "1m", "shanten": 1, "useful": [
        {"tile": "1z", "remaining": 3, "dead": False}], "useful_total": 3}


def test_bad_calls_refused():
    with pytest.raises(ValueError):
        COMPILED.own_rows([], [0] * 33, -1, [], 34)
    with pytest.raises(ValueError):
        COMPILED.own_rows([(40, 1, 0)], [0] * 34, -1, [], 34)
    with pytest.raises(ValueError):
        COMPILED.own_rows([], [0] * 34, 34, [], 34)
    with pytest.raises(TypeError):
        COMPILED.own_rows([(1, 2)], [0] * 34, -1, [], 34)


@pytest.mark.parametrize("seed", range(2))
def test_panjin_efficiency_the_same_without_the_compiled_rows(seed, monkeypatch):
    rng = random.Random(9100 + seed)
    for _ in range(scaled(25)):
        wall = [k for k in range(34) for _ in range(3 if k == 4 else 4)]   # 5m: the indicator
        rng.shuffle(wall)
        hand = "".join(f"{k % 9 + 1}{'mpsz'[k // 9]}" for k in sorted(wall[:14]))
        req = {"variant": "panjin", "hand": hand, "indicator": "5m"}
        fast = analyze(req).to_json()
        with monkeypatch.context() as m:
            m.setattr(E, "_pjunit", None)
            slow = analyze(req).to_json()
        assert json.dumps(fast) == json.dumps(slow), req
