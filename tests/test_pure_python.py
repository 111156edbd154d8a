"""WEBCALC_PURE_PYTHON=1 rules the compiled part of the engine out (webcalc/compiled.py): every
module that would call webcalc._pjunit gets None and runs its Python twin. `make test-pure`
runs the suite that way; without the variable, an install with the C part uses it."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PROBE = ("import webcalc.compiled as c, webcalc.shanten as s, webcalc.tables as t; "
         "print(c.pjunit is None, s._pjunit is None, t._pjunit is None)")


def _probe(pure: bool) -> str:
    env = dict(os.environ)
    env.pop("WEBCALC_PURE_PYTHON", None)
    if pure:
        env["WEBCALC_PURE_PYTHON"] = "1"
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=120, check=True)
    return out.stdout.strip()


def test_pure_python_leaves_the_compiled_search_unused():
    assert _probe(pure=True) == "True True True"


def test_without_the_variable_the_built_c_part_is_used():
    built = importlib.util.find_spec("webcalc._pjunit") is not None
    assert _probe(pure=False) == ("False False False" if built else "True True True")
