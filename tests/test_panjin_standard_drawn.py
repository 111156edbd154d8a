"""盘锦's standard search in one compiled call (issue 38 round 3): ``_pjunit.standard_drawn``
(webcalc/variants/panjin_unit.c) answers :func:`webcalc.variants.panjin_draws.
panjin_standard_drawn` — its four unit searches, their merges and ``_drawn_best`` — exactly
as the Python reference does (the same distance, the same kinds whose draw lowers it, the
same wildcard-draw flag, ``None`` alike), for 13-tile hands of every kind the case maker of
tests/test_engine_shanten_exact.py draws (melds, room options, 0-8 wildcards), at every
limit from the loose count to two above the distance, with and without the discard-win
rule. And 盘锦's waits: a hand with no standard hand one tile away skips the standard
candidates (``standard_waits``) when nothing but the search could keep one — the same waits
as narrowing them (:meth:`Panjin._standard_filter`)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import webcalc.shanten as S
import webcalc.variants.panjin_draws as PD
import webcalc.variants.panjin_search as PS
from tests.scale import examples
from webcalc.shanten import hand_caps
from webcalc.variants import VARIANTS
from webcalc.variants.panjin_search import panjin_meld_flags

from .compiled import compiled_only
from .test_engine_panjin_discards import _cases
from .test_engine_shanten_exact import situation_of

PANJIN = VARIANTS["panjin"]
COMPILED = PD._pjunit


def _clear():
    for f in (PD.unit_panjin_drawn, PD._standard_drawn_compiled, PS._rest_places_all,
              PS._unit_free_min, S.unit_free):
        f.cache_clear()


def _python(*args):
    for m in (S, PS, PD):
        m._pjunit = None
    _clear()                               # no table the compiled search made
    try:
        return PD.panjin_standard_drawn(*args)
    finally:
        for m in (S, PS, PD):
            m._pjunit = COMPILED
        _clear()


@compiled_only
@settings(max_examples=examples(200), deadline=None)
@given(st.integers(0, 2**31), st.booleans(), st.integers(0, 3))
def test_standard_drawn_same_compiled_and_in_python(seed, need_real, discard):
    req = _cases(seed, 1)[0]
    _, sit14 = situation_of(req)
    real = [k for k in sorted({int(t) for t in sit14.hand.concealed})
            if k not in sit14.wildcards]
    if not real:
        return
    sit = sit14.without_tile(real[discard % len(real)])           # 13 tiles
    allowed = PANJIN.allowed_suit_counts(sit)
    _, caps, room = hand_caps(sit)
    jokers = len(sit.jokers)
    lower = S.free_standard(sit.real_counts, caps, jokers, room, len(sit.hand.melds))
    if lower is None:
        return
    for limit in range(lower, lower + 4):
        args = (sit.real_counts, caps, jokers, room, len(sit.hand.melds),
                panjin_meld_flags(sit), allowed, sit.options.piaohu, jokers, limit,
                need_real)
        assert PD.panjin_standard_drawn(*args) == _python(*args), (req, limit)


@compiled_only
def test_standard_drawn_of_a_known_hand():
    """Values the rules fix: 111m 234m 567p 78s 99s (no wildcard in play) has a 刻, a 顺,
    幺九 and three suits (PJ-4..PJ-7): one tile from complete (d = 1), and the draws that
    complete it are 6s and 9s (678s or 789s, 99s the pair). With the discard-win rule the
    distance is the same and no draw lowers it (a complete hand comes from a discard,
    PJ-2 / C-9: _drawn_best)."""
    _, sit = situation_of({"variant": "panjin", "hand": "111234m567p7899s"})
    allowed = PANJIN.allowed_suit_counts(sit)
    _, caps, room = hand_caps(sit)
    for need_real, want in ((False, (1, 1 << 23 | 1 << 26, False)), (True, (1, 0, False))):
        args = (sit.real_counts, caps, 0, room, 0, panjin_meld_flags(sit), allowed,
                sit.options.piaohu, 0, 2, need_real)
        assert PD.panjin_standard_drawn(*args) == want
        assert _python(*args) == want


@settings(max_examples=examples(300), deadline=None)
@given(st.integers(0, 2**31), st.sampled_from((None, "discard")), st.integers(0, 3))
def test_waits_without_the_standard_candidates_equal_those_narrowed(seed, win_by, discard):
    req = _cases(seed, 1)[0]
    _, sit14 = situation_of({**req, "win_by": win_by} if win_by else req)
    real = sorted({int(t) for t in sit14.hand.concealed if t not in sit14.wildcards})
    if not real:
        return
    sit = sit14.without_tile(real[discard % len(real)])           # 13 tiles
    cls = type(PANJIN)
    kept = cls.__dict__["_kept_unsearched"]
    got = PANJIN.winning_kinds(sit)
    cls._kept_unsearched = staticmethod(lambda s: True)           # always the filter
    try:
        want = PANJIN.winning_kinds(sit)
    finally:
        cls._kept_unsearched = kept
    assert got == want, req
