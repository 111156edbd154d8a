"""The engine's doctests run in ``make test``: every module of webcalc/ outside web/ and
ledger/ (the engine, with its variants/ and settlement/) through :func:`doctest.testmod`;
a module whose examples fail fails here. The examples that show how ``Tile``, ``Meld`` and
``Hand`` print back in the notation they parse from must be there and run."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "webcalc"


def _engine_modules() -> list[str]:
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[1:2] in (["web"], ["ledger"]):
            continue
        if parts[-1] == "__init__":
            parts.pop()
        out.append(".".join(parts))
    return out


ENGINE = _engine_modules()


@pytest.mark.parametrize("name", ENGINE)
def test_doctests_pass(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples failed"


@pytest.mark.parametrize("name, objects", [
    ("webcalc.tiles", ["Tile"]),
    ("webcalc.hand", ["Meld", "Hand"]),
    ("webcalc.analysis", ["Analysis.to_json"]),
])
def test_the_notation_examples_are_there(name, objects):
    """Tile's, Meld's and Hand's parse-and-print examples exist (a module with none would
    pass the test above with nothing run)."""
    found = {t.name.removeprefix(name + "."): len(t.examples)
             for t in doctest.DocTestFinder().find(importlib.import_module(name))}
    for obj in objects:
        assert found.get(obj, 0) >= 1, f"{name}.{obj} has no doctest"


def test_the_engine_modules_are_found():
    assert {"webcalc.tiles", "webcalc.hand", "webcalc.analysis", "webcalc.notation"} <= set(ENGINE)
    assert not any(n.startswith(("webcalc.web", "webcalc.ledger")) for n in ENGINE)
