"""Rules the test suite keeps about itself (docs/TESTING.md).

Every variant, always: property, fuzz, corpus and ledger tests iterate
``webcalc.variants.VARIANTS``, so a fifth rule set is tested the day it is registered. Only the
independent oracle (tests/reference.py) spells the rule sets out, on purpose: it must not
learn them from the code it checks.

One scale knob: every Hypothesis property's ``max_examples`` goes through
``tests.scale.examples`` (``WEBCALC_TEST_SCALE``), so ``make test-fast`` runs a fifth of each
and ``make test`` all of it; a literal count would run in full in the edit loop.
"""

from __future__ import annotations

import ast
from pathlib import Path

from webcalc.variants import VARIANTS

TESTS = Path(__file__).resolve().parent
ORACLE = {TESTS / "reference.py"}


def _literal_lists_of_every_variant(path: Path) -> list[int]:
    """Line numbers of list, tuple and set literals that hold every registered variant's
    name as a string constant."""
    names = set(VARIANTS)
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.List | ast.Tuple | ast.Set):
            consts = {e.value for e in node.elts
                      if isinstance(e, ast.Constant) and isinstance(e.value, str)}
            if names <= consts:
                found.append(node.lineno)
    return found


def test_no_test_module_but_the_oracle_lists_the_variants():
    offenders = {str(p.relative_to(TESTS)): lines
                 for p in sorted(TESTS.rglob("*.py")) if p not in ORACLE
                 if (lines := _literal_lists_of_every_variant(p))}
    assert offenders == {}, ("iterate webcalc.variants.VARIANTS instead of naming the rule "
                             f"sets: {offenders}")


def test_the_check_finds_a_literal_list(tmp_path):
    bad = tmp_path / "test_bad.py"
    bad.write_text(f"NAMES = {list(VARIANTS)!r}\nfor v in {tuple(VARIANTS)!r}:\n    pass\n",
                   encoding="utf-8")
    assert _literal_lists_of_every_variant(bad) == [1, 2]
    fine = tmp_path / "test_fine.py"
    fine.write_text("from webcalc.variants import VARIANTS\nNAMES = list(VARIANTS)\n"
                    f"SOME = {list(VARIANTS)[:2]!r}\n", encoding="utf-8")
    assert _literal_lists_of_every_variant(fine) == []


def _literal_example_counts(path: Path) -> list[int]:
    """Line numbers of ``max_examples=<a number>`` keywords (not scaled by ``examples``)."""
    return [node.lineno for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.keyword) and node.arg == "max_examples"
            and isinstance(node.value, ast.Constant)]


def test_every_property_s_examples_follow_the_scale_knob():
    offenders = {str(p.relative_to(TESTS)): lines for p in sorted(TESTS.rglob("*.py"))
                 if (lines := _literal_example_counts(p))}
    assert offenders == {}, f"write max_examples=examples(n) (tests/scale.py): {offenders}"


def test_the_check_finds_a_literal_example_count(tmp_path):
    bad = tmp_path / "test_bad.py"
    bad.write_text("@settings(max_examples=300, deadline=None)\ndef f(): pass\n"
                   "@settings(max_examples=examples(30))\ndef g(): pass\n", encoding="utf-8")
    assert _literal_example_counts(bad) == [1]


def test_a_changed_message_is_explained_with_the_request_and_a_diff():
    from tests.snapshots import explain

    text = explain([({"hand": "12x"}, ["不是牌：x", "第 3 张"], ["不是牌：“x”", "第 3 张"])])
    assert text.splitlines() == ["1 answers changed", 'request: {"hand": "12x"}',
                                 '  - "不是牌：x"', '  + "不是牌：“x”"', '    "第 3 张"']
