"""The engine's compiled searches: ``pjunit`` is :mod:`webcalc._pjunit` (webcalc/_pjunit.c and
the sources webcalc/_pjunit.h lists, built by setup.py when the install finds a C compiler), or
``None`` when it was not built or ``WEBCALC_PURE_PYTHON`` is set (the Python reference on
purpose: benchmarks, ruling the C part out). ``plain`` is :mod:`webcalc._plain`
(webcalc/_plain.c: a plain hand's advice from dense unit tables, what ``pjunit.free_advice``
answers for it), or ``None`` likewise, and ``None`` whenever ``pjunit`` is.
:mod:`webcalc.shanten`, :mod:`webcalc.tables` and a variant's own search
(webcalc/variants/panjin_search.py, panjin_draws.py) keep the Python functions they stand in
for; tests/test_pjunit.py holds the two equal.

Its ``search``, ``merge``, ``fold`` and ``fold_draws`` keep tables between calls and refuse
(``RuntimeError``) a call made while one of them runs; :mod:`webcalc.shanten` then runs the
Python. A guard, not a fast path: ``python bench/guard.py --hands 300`` (2026-12-06, commit
f324730, load about 12: 600 fresh ``analyze()`` calls in two threads, the switch interval
at 1 µs) counted 2,746 guarded calls (4.6 per analysis) and 0 refused; its cost is a flag
tested and set twice per call, nanoseconds against an analysis's milliseconds."""

from __future__ import annotations

import os

__all__ = ["pjunit", "plain"]

try:
    # the C module has no stub (pyproject.toml's mypy overrides), so mypy cannot see it
    from . import _pjunit as pjunit  # type: ignore[attr-defined]
except ImportError:                   # pragma: no cover - an install without a compiler
    pjunit = None
try:
    from . import _plain as plain  # type: ignore[attr-defined]
except ImportError:                   # pragma: no cover - an install without a compiler
    plain = None
if os.environ.get("WEBCALC_PURE_PYTHON") or pjunit is None:
    pjunit = plain = None
