"""The engine's compiled searches: ``pjunit`` is :mod:`webcalc._pjunit` (webcalc/_pjunit.c and
the sources webcalc/_pjunit.h lists, built by setup.py when the install finds a C compiler), or
``None`` when it was not built or ``WEBCALC_PURE_PYTHON`` is set (the Python reference on
purpose: benchmarks, ruling the C part out). :mod:`webcalc.shanten`, :mod:`webcalc.tables` and
a variant's own search (webcalc/variants/panjin_search.py, panjin_draws.py) keep the Python
functions it stands in for; tests/test_pjunit.py holds the two equal."""

from __future__ import annotations

import os

__all__ = ["pjunit"]

try:
    # the C module has no stub (pyproject.toml's mypy overrides), so mypy cannot see it
    from . import _pjunit as pjunit  # type: ignore[attr-defined]
except ImportError:                   # pragma: no cover - an install without a compiler
    pjunit = None
if os.environ.get("WEBCALC_PURE_PYTHON"):
    pjunit = None
