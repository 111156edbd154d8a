"""A house the next engineer can change in an afternoon (issue 37.1): no source file under
webcalc/ over 800 lines, and no rule set's rule id in a shared module.

The shared modules are webcalc/*.py (outside webcalc/variants/), webcalc/settlement/, the C
sources that are not a variant's own (webcalc/*.c, webcalc/*.h), the web layer
(webcalc/web/, templates/) and the ledger (webcalc/ledger/); a rule set's rules, their ids
and the words citing them live in its variant (webcalc/variants/<name>*.py, its own C source
next to it), which the shared code asks: docs/ARCHITECTURE.md "Where a rule lives"."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "webcalc"

MAX_LINES = 800
#: what counts as a source file (the translations' catalogue is data, made by pybabel)
SOURCES = (".py", ".c", ".h", ".html", ".js", ".css")

#: a rule set's rule id: 三门峡 SMX-, 郑州 ZZ-, 盘锦 PJ-, 晋城 JC- (docs/RULES.md)
RULE_ID = re.compile(r"\b(SMX|ZZ|PJ|JC)-[0-9]+")


def long_files(root: Path = PACKAGE) -> list[str]:
    """``path: lines`` of every source file under ``root`` over :data:`MAX_LINES`."""
    out = []
    for path in sorted(root.rglob("*")):
        if path.suffix not in SOURCES or not path.is_file() or "__pycache__" in path.parts:
            continue
        rel = path.relative_to(root.parent).as_posix()
        n = len(path.read_text(encoding="utf-8").splitlines())
        if n > MAX_LINES:
            out.append(f"{rel}: {n} lines")
    return out


def shared_modules(root: Path = PACKAGE) -> list[Path]:
    """The shared modules: webcalc/*.py, webcalc/settlement/, webcalc/*.c and *.h, the web
    layer (webcalc/web/, the templates beside the package) and webcalc/ledger/."""
    paths = [p for p in root.glob("*") if p.suffix in (".py", ".c", ".h")]
    for package in ("settlement", "web", "ledger"):
        paths += root.joinpath(package).rglob("*.py")
    paths += root.parent.joinpath("templates").rglob("*.html")
    return sorted(paths)


def rule_ids(root: Path = PACKAGE) -> list[str]:
    """``path:line: text`` of every line of a shared module citing a rule set's id."""
    out = []
    for path in shared_modules(root):
        rel = path.relative_to(root.parent).as_posix()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if RULE_ID.search(line):
                out.append(f"{rel}:{n}: {line.strip()}")
    return out


def _tree(tmp_path: Path) -> Path:
    pkg = tmp_path / "webcalc"
    for d in ("variants", "settlement", "web", "ledger"):
        (pkg / d).mkdir(parents=True)
    (tmp_path / "templates").mkdir()
    return pkg


def test_the_checks_find_what_they_refuse(tmp_path):
    # both searches see what they must refuse (a search that found nothing would pass)
    pkg = _tree(tmp_path)
    (pkg / "shanten.py").write_text("x = 1\n" * 801, encoding="utf-8")
    (pkg / "_search.c").write_text("int x;\n" * 801, encoding="utf-8")
    (pkg / "variants" / "panjin.py").write_text("# PJ-2\n" * 801, encoding="utf-8")
    (pkg / "web" / "page.html").write_text("<p>\n" * 800, encoding="utf-8")
    assert long_files(pkg) == ["webcalc/_search.c: 801 lines", "webcalc/shanten.py: 801 lines",
                               "webcalc/variants/panjin.py: 801 lines"]
    (pkg / "worth.py").write_text("# 杠流泪 (PJ-10)\n", encoding="utf-8")
    (pkg / "settlement" / "__init__.py").write_text('rule = "SMX-6"\n', encoding="utf-8")
    (pkg / "_search.h").write_text("/* JC-2 */\n", encoding="utf-8")
    (pkg / "tables.py").write_text("# C-12, a common rule; ZZ4 is no id\n", encoding="utf-8")
    (pkg / "catalogue_texts.py").write_text('M_("x", "PJ-2")\n', encoding="utf-8")
    (pkg / "web" / "rules_content.py").write_text('"ZZ-3"\n', encoding="utf-8")
    (pkg / "web" / "ledger_pages.py").write_text("# JC-5\n", encoding="utf-8")
    (pkg / "ledger" / "service.py").write_text("# SMX-8 deals next\n", encoding="utf-8")
    (tmp_path / "templates" / "_settlement.html").write_text(
        "<a href=\"{{ rule_url('PJ-11') }}\">\n", encoding="utf-8")
    assert rule_ids(pkg) == ["templates/_settlement.html:1: <a href=\"{{ rule_url('PJ-11') }}\">",
                             "webcalc/_search.h:1: /* JC-2 */",
                             "webcalc/catalogue_texts.py:1: M_(\"x\", \"PJ-2\")",
                             "webcalc/ledger/service.py:1: # SMX-8 deals next",
                             "webcalc/settlement/__init__.py:1: rule = \"SMX-6\"",
                             "webcalc/web/ledger_pages.py:1: # JC-5",
                             "webcalc/web/rules_content.py:1: \"ZZ-3\"",
                             "webcalc/worth.py:1: # 杠流泪 (PJ-10)"]


def test_no_source_file_over_800_lines():
    found = long_files()
    assert not found, ("split it (docs/ARCHITECTURE.md, the file map):\n" + "\n".join(found))


def test_no_rule_set_id_in_a_shared_module():
    found = rule_ids()
    assert not found, ("a rule set's rule belongs to its variant (webcalc/variants/; the "
                       "shared code asks it, its comments describe the mechanism):\n"
                       + "\n".join(found))
