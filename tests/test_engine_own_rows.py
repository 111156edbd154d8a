"""The 14-tile 牌理 rows of a rule set with its own search (盘锦), issue 38 round 3:
:func:`webcalc.efficiency.efficiency` writes them from each discard's ``useful_search``
(``_own_draws`` → ``_compiled_entries``) instead of a :class:`~webcalc.efficiency.Useful`
per discard. They equal the rows of the loop it replaced (:func:`useful_draws` of each
discard's 13 tiles at the bound of ``discards_search``, with its result, the discard seen),
row for row and in the same order (all discards at once, ``discards_useful``, and one
search per discard), with seen tiles and fewer kinds in play, with and
without the discard-win rule.

Hands: Hypothesis draws the seed of tests/test_engine_panjin_discards.py's case maker
(random 盘锦 hands of 14 tiles, near-complete and random, with melds, 0-8 wildcards)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.scale import examples
from webcalc.efficiency import INF, efficiency, useful_draws
from webcalc.variants import VARIANTS
from webcalc.waits import river

from .test_engine_panjin_discards import _cases
from .test_engine_shanten_exact import situation_of

PANJIN = VARIANTS["panjin"]


class _OneByOne(type(PANJIN)):  # type: ignore[misc]
    """盘锦 without its all-at-once ``discards_useful``: the rows from one
    ``useful_search`` per discard (``_own_draws``'s loop, the base class's default)."""

    def discards_useful(self, sit, bound, pre):
        return None


ONE_BY_ONE = _OneByOne()


def _per_discard(variant, sit, visible, kinds):
    """The loop :func:`efficiency` ran before for a rule set with its own search."""
    bound, pre = variant.discards_search(sit)
    entries = []
    for t in sorted(set(sit.hand.concealed)):
        if not variant.can_discard(sit, t):
            continue
        k = int(t)
        u = useful_draws(variant, sit.without_tile(t), river(visible, k), kinds, bound,
                         None, None, (pre[k],) if k in pre else None)
        entries.append((t, u))
    entries.sort(key=lambda e: (INF if e[1].shanten is None else e[1].shanten,
                                -e[1].total, e[0]))
    return [{"discard": t.code, **u.to_dict()} for t, u in entries]


@settings(max_examples=examples(250), deadline=None)
@given(st.integers(0, 2**31), st.sampled_from((None, "discard")), st.booleans(),
       st.sampled_from((34, 27)), st.sampled_from((PANJIN, ONE_BY_ONE)))
def test_rows_equal_the_per_discard_loop(seed, win_by, seen, kinds, variant):
    req = _cases(seed, 1)[0]
    _, sit = situation_of({**req, "win_by": win_by} if win_by else req)
    visible: list[int] = []
    if seen:
        rng = random.Random(seed)
        held = sit.hand.held_counts()
        visible = [rng.randint(0, max(0, 4 - held[k] - (k == sit.indicator)))
                   for k in range(34)]
    want = _per_discard(PANJIN, sit, visible, kinds)
    got = efficiency(variant, sit, visible, kinds)
    assert got == want
    assert [e["discard"] for e in got] == [e["discard"] for e in want]


def test_rows_of_a_ready_hand_read_values_the_rules_fix():
    # less the 9p: 23m 789m 222p 567s 11z, three suits (PJ-4), 9m and 1z (PJ-5), 222p
    # (PJ-6), 789m (PJ-7): ready on 1m and 4m; the wildcard (indicator 5z 白: 7z 中, PJ-1) sits
    # in the 23m sequence on a self-draw (PJ-2) but is no wait for a discard win (C-12)
    hand = {"variant": "panjin", "hand": "23m 789m 222p 567s 11z 9p", "indicator": "5z"}
    for win_by, useful in ((None, ["1m", "4m", "7z"]), ("discard", ["1m", "4m"])):
        _, sit = situation_of({**hand, "win_by": win_by} if win_by else hand)
        rows = efficiency(PANJIN, sit, [], 34)
        assert rows == _per_discard(PANJIN, sit, [], 34)
        assert rows[0] == {"discard": "9p", "shanten": 0,
                           "useful": [{"tile": c, "remaining": 4, "dead": False}
                                      for c in useful],
                           "useful_total": 4 * len(useful)}
        assert all(r["shanten"] >= 1 for r in rows[1:])
