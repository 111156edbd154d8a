"""The engine's compiled part as the test modules see it: :data:`COMPILED` is
``webcalc._pjunit``, or ``None`` where it is ruled out (``WEBCALC_PURE_PYTHON=1``) or not built."""

from __future__ import annotations

import os

import pytest

from webcalc.compiled import pjunit as COMPILED

#: a test (or a parameter) that needs the compiled part: skipped without it
compiled_only = pytest.mark.skipif(COMPILED is None,
                                   reason="webcalc._pjunit not built (or ruled out)")


def require_compiled() -> None:
    """At the top of a test module about the compiled part only: skip the module where the
    Python twin is the only engine; in CI (without ``WEBCALC_PURE_PYTHON``) a missing build
    fails instead, so that CI always tests it."""
    if COMPILED is None:
        if os.environ.get("CI") and not os.environ.get("WEBCALC_PURE_PYTHON"):
            raise AssertionError("webcalc._pjunit was not built: CI must test it")
        pytest.skip("the compiled part is ruled out or not built: the Python twin is the only one",
                    allow_module_level=True)
