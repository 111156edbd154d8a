"""One home per rule set (docs/decisions.md, "One home per rule set"): every per-variant
answer is the ``Variant`` class's, so no code outside webcalc/variants/ names a rule set, and
the shared settlement imports no variant (the variants import it)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from webcalc.options import parse_options
from webcalc.variants import VARIANTS

from .test_imports import _reached

PACKAGE = Path(__file__).resolve().parent.parent / "webcalc"
#: the search of the done-when check, as grep runs it:
#: grep -rn '\.name ==\|\.name in\|name == "\(sanmenxia\|zhengzhou\|panjin\|jincheng\)"'
SWITCH = re.compile(r'\.name ==|\.name in|name == "(sanmenxia|zhengzhou|panjin|jincheng)')


def switches(root: Path = PACKAGE) -> list[str]:
    """``path:line: text`` of every line outside webcalc/variants/ that the search finds."""
    out = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root.parent).as_posix()
        if rel.startswith("webcalc/variants/"):
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if SWITCH.search(line):
                out.append(f"{rel}:{n}: {line.strip()}")
    return out


def test_the_search_finds_a_switch(tmp_path):
    # the search sees what it must refuse (a pattern that found nothing would pass)
    pkg = tmp_path / "webcalc"
    (pkg / "variants").mkdir(parents=True)
    (pkg / "worth.py").write_text('if variant.name == "panjin":\n    pass\n'
                                  'ok = variant.name in ("a", "b")\n', encoding="utf-8")
    (pkg / "variants" / "panjin.py").write_text('if v.name == "panjin": pass\n',
                                                encoding="utf-8")
    assert switches(pkg) == ['webcalc/worth.py:1: if variant.name == "panjin":',
                             'webcalc/worth.py:3: ok = variant.name in ("a", "b")']


def test_no_code_outside_the_variants_names_a_variant():
    found = switches()
    assert not found, "ask the Variant instead (webcalc/variants/base.py):\n" + "\n".join(found)


def test_the_shared_settlement_imports_no_variant():
    reached = _reached("webcalc.settlement")
    assert not [m for m in reached if m.startswith("webcalc.variants")], reached


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_the_free_joker_search_is_where_jokers_are_free(name):
    # the attribute says what policy.in_triplet stood for: the 牌理 search that counts here
    v = VARIANTS[name]
    assert v.free_joker_search is v.policy.in_triplet
    assert v.free_joker_search is (name != "panjin")        # PJ-2, PJ-4..PJ-7


@pytest.mark.parametrize("name, rule", [("sanmenxia", "SMX-7"), ("zhengzhou", "ZZ-5"),
                                        ("panjin", ""), ("jincheng", "")])
def test_who_names_a_kong_supplier(name, rule):
    # SMX-7, ZZ-5: the supplier pays an exposed or added kong; PJ-13, JC-6: everyone pays
    v = VARIANTS[name]
    assert v.kong_supplier_rule == rule
    assert v.kong_names_supplier is bool(rule)


@pytest.mark.parametrize("name, fields", [
    ("sanmenxia", {"base", "dealer", "winner", "discarder", "kongs", "pao", "biao_discards"}),
    ("zhengzhou", {"base", "dealer", "winner", "discarder", "kongs", "pao"}),
    ("panjin", {"base", "dealer", "winner", "discarder", "kongs"}),
    ("jincheng", {"base", "dealer", "winner", "discarder", "kongs", "ready", "follow_dealer"}),
])
def test_each_variant_says_its_settlement_fields(name, fields):
    # the default rooms (SMX-5, SMX-6, ZZ-4, PJ-13, JC-3, JC-7)
    v = VARIANTS[name]
    assert v.settlement_fields(parse_options(v.Options, {})) == fields
