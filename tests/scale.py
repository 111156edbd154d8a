"""One knob for how much random work a test run does: ``WEBCALC_TEST_SCALE`` (a factor, 1 by
default). ``make test`` runs at 1 (every Hypothesis property at its written number of
examples, every hand-rolled loop at its written count); ``make test-fast`` at 0.2, with the
Hypothesis ``dev`` profile (tests/conftest.py). The property is the same at every scale: only
how many random cases it tries changes.
"""

from __future__ import annotations

import os

#: the factor applied to every property's examples and every random loop's count
SCALE = float(os.environ.get("WEBCALC_TEST_SCALE") or 1)


def examples(n: int, floor: int = 5) -> int:
    """``n`` scaled by :data:`SCALE`, never below ``floor`` (nor above ``n`` × SCALE rounded)."""
    return max(floor, round(n * SCALE)) if SCALE != 1 else n


def scaled(n: int, floor: int = 5) -> int:
    """A hand-rolled random loop's count ``n`` scaled by :data:`SCALE` (as :func:`examples`)."""
    return examples(n, floor)
