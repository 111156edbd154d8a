"""The import graph of webcalc/, read from the source (ast: nothing is imported, so no import
side effects): no module imports itself back through others, the engine (webcalc/*.py outside
web/, with its variants/ and settlement/, and the ledger) never reaches Flask, and nothing
outside ledger/ and web/ reaches SQLAlchemy (the project's layering, docs/ARCHITECTURE.md).

Every import counts, also one inside a function (an import moved into a function still ties
the two modules together); only ``if TYPE_CHECKING:`` blocks are left out."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "webcalc"

#: third-party packages of the web layer: the engine must not reach them
WEB_ONLY = ("flask", "flask_babel", "flask_wtf", "werkzeug", "wtforms", "jinja2")
#: the database packages: only the ledger and the web layer may reach them
DB_ONLY = ("sqlalchemy", "alembic", "psycopg")

#: circles known today, each with the change that removes it; the test fails when one goes,
#: so that its entry goes too
KNOWN_CIRCLES: set[frozenset[str]] = set()


def _modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


MODULES = _modules()


def _is_module(name: str) -> bool:
    """``name`` is a module of the package (a .py file, a package, or a compiled part)."""
    if name in MODULES:
        return True
    path = PACKAGE.parent.joinpath(*name.split("."))
    return path.is_dir() or any(path.parent.glob(path.name + ".*"))


def _targets(module: str, node: ast.Import | ast.ImportFrom) -> list[str]:
    """The full names ``node`` (in ``module``) imports."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    base = node.module or ""
    if node.level:
        package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]
        parts = package.split(".")
        parts = parts[:len(parts) - (node.level - 1)]
        base = ".".join(parts + ([node.module] if node.module else []))
    # ``from p import x``: the submodule p.x when x is one, else p itself
    return [f"{base}.{a.name}" if _is_module(f"{base}.{a.name}") else base for a in node.names]


def _type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


@cache
def imports(module: str) -> frozenset[str]:
    """Every name ``module`` imports (internal modules and third-party ones)."""
    found: set[str] = set()

    def walk(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if _type_checking(child):
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                found.update(_targets(module, child))
            walk(child)

    walk(ast.parse(MODULES[module].read_text(encoding="utf-8")))
    return frozenset(found)


def internal(module: str) -> set[str]:
    """The package's Python modules that ``module`` imports (a compiled part, such as
    webcalc._pjunit, imports nothing back)."""
    out = set()
    for name in imports(module):
        if name not in MODULES and _is_module(name):
            continue
        while name not in MODULES and "." in name:
            name = name.rpartition(".")[0]
        if name in MODULES and name != module:
            out.add(name)
    return out


def circles() -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in internal(v):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                out.append(frozenset(part))

    for v in sorted(MODULES):
        if v not in index:
            visit(v)
    return out


def _reached(start: str) -> dict[str, list[str]]:
    """Every module reachable from ``start`` with the path to it. The package itself
    (webcalc/__init__.py) is not followed: importing any submodule runs it, and it imports the
    web layer only inside create_app()."""
    paths = {start: [start]}
    todo = [start]
    while todo:
        v = todo.pop()
        for w in sorted(internal(v)):
            if w not in paths and w != "webcalc":
                paths[w] = paths[v] + [w]
                todo.append(w)
    return paths


def _third_party(module: str, packages: tuple[str, ...]) -> list[str]:
    return sorted(n for n in imports(module) if n.split(".")[0] in packages)


def _violations(layer, packages) -> list[str]:
    bad = []
    for m in sorted(MODULES):
        if not layer(m):
            continue
        for v, path in _reached(m).items():
            for name in _third_party(v, packages):
                bad.append(f"{' -> '.join(path)} imports {name}")
    return bad


def _in(m: str, *packages: str) -> bool:
    return any(m == p or m.startswith(p + ".") for p in packages)


def test_the_graph_is_read():
    # the walk sees the imports it must judge (a parser that found nothing would pass)
    assert len(MODULES) > 50
    assert "webcalc.variants.base" in internal("webcalc.analysis")
    assert "flask" in {n.split(".")[0] for n in imports("webcalc.web.app")}
    assert any(n.startswith("sqlalchemy") for n in imports("webcalc.ledger.models"))


def test_no_import_circles():
    found = set(circles())
    new = sorted(sorted(c) for c in found - KNOWN_CIRCLES)
    gone = sorted(sorted(c) for c in KNOWN_CIRCLES - found)
    assert not new, f"modules that import each other: {new}"
    assert not gone, f"a known circle is gone: remove it from KNOWN_CIRCLES: {gone}"


def test_the_engine_never_reaches_flask():
    engine = lambda m: m != "webcalc" and not _in(m, "webcalc.web")  # noqa: E731
    assert not _violations(engine, WEB_ONLY)


def test_only_the_ledger_and_the_web_layer_reach_the_database():
    outside = lambda m: m != "webcalc" and not _in(m, "webcalc.web", "webcalc.ledger")  # noqa: E731
    assert not _violations(outside, DB_ONLY)


def _blueprints() -> set[str]:
    """The web modules that make a Flask blueprint (``Blueprint(`` in their source)."""
    return {m for m in MODULES if _in(m, "webcalc.web")
            and "Blueprint(" in MODULES[m].read_text(encoding="utf-8")}


def test_no_blueprint_imports_another():
    """What two blueprints share lives in a module of its own (webcalc/web/room_page.py,
    ledger_shared.py), so that a view module never reaches into another's private helpers
    (docs/decisions.md "Thin views")."""
    blueprints = _blueprints()
    # the blueprints that shared helpers this way before are among those found
    assert {"webcalc.web.pages", "webcalc.web.ledger_pages", "webcalc.web.circle_pages",
            "webcalc.web.rules"} <= blueprints
    assert "webcalc.web.room_page" not in blueprints
    bad = sorted(f"{m} imports {w}" for m in blueprints for w in internal(m) & blueprints)
    assert not bad, bad
