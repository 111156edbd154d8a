"""``make bench`` rewrites its own part of bench/RESULTS.md and keeps what the other scripts
wrote there: the Targets section's other rows and the notes under its table."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _load(name: str):
    """bench/<name>.py as a module (bench/ is scripts, not a package)."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / "bench" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _bench():
    return _load("bench")


OLD = """# Benchmark results

## Targets (issues 6, 13 and 26)

Peer ratios: median of the repeats (min–max); met when the worst repeat is.

| target | measured | |
|---|---:|---|
| issue 26: the same, 14 tiles ≤ 3× | 16.41× | **missed** |
| issue 26.3: page CPU ≤ 1.5× the API's | 2.56× | **missed** |
| issue 26.4: poll p99 ≤ 50 ms | 828.6 ms | **missed** |

Why the page misses: templates.

## Tables and memory

- nothing
"""


def test_make_bench_keeps_the_other_scripts_rows_and_notes(tmp_path):
    path = tmp_path / "RESULTS.md"
    path.write_text(OLD, encoding="utf-8")
    kept = _bench().kept_targets(str(path), {"| issue 26: the same, 14 tiles ≤ 3×"})
    assert kept == ["| issue 26.3: page CPU ≤ 1.5× the API's | 2.56× | **missed** |",
                    "| issue 26.4: poll p99 ≤ 50 ms | 828.6 ms | **missed** |",
                    "", "Why the page misses: templates."]


def test_no_results_file_or_no_targets_section_keeps_nothing(tmp_path):
    bench = _bench()
    assert bench.kept_targets(str(tmp_path / "missing.md"), set()) == []
    (tmp_path / "other.md").write_text("# Benchmark results\n\n## Load\n\n| a | b |\n",
                                       encoding="utf-8")
    assert bench.kept_targets(str(tmp_path / "other.md"), set()) == []


def _issue38():
    return _load("issue38")


def test_issue38_judges_a_rule_set_by_its_worst_seed_and_wildcard_count(monkeypatch):
    """``make bench-38``: a rule set meets "≤ 2× 晋城" only if every seed at every wildcard
    count 0-2 does; one seed at 2.1× with two wildcards is a miss."""
    m = _issue38()
    fast = {f"{v} {n} w{w}": 100.0 * (1 if v == "jincheng" else 1.5)
            for v in ("jincheng", *m.RULE_SETS) for n in (13, 14) for w in (0, 1, 2)}
    slow = dict(fast, **{"panjin 14 w2": 210.0})
    runs = iter([fast, fast, slow])
    monkeypatch.setattr(m, "run_json", lambda args: next(runs))
    rows = m.rule_sets([1, 2, 3], 10)
    verdicts = {r.split(" | ")[0][2:]: r.split(" | ")[2] for r in rows}
    assert verdicts["panjin ÷ 晋城, 14 tiles, 0-2 wildcard tiles (≤ 2×)"] == "**missed**"
    assert verdicts["panjin ÷ 晋城, 13 tiles, 0-2 wildcard tiles (≤ 2×)"] == "met"
    assert "w2 1.50× (1.50–2.10)" in rows[-1]


def test_issue38_misses_the_peers_on_any_other_answer(monkeypatch):
    """Fast but one answer that is neither equal nor a C-5 difference: not met."""
    m = _issue38()
    compared = {"timed": {"hands": 10, "equal": 9, "c5": 0, "other": 1},
                "special": {"hands": 3, "equal": 3, "c5": 0, "other": 0}}
    job = {"us": {"webcalc": [10.0], "riichienv": [20.0]}, "ratio": {"riichienv": [0.5]},
           "compared": {"riichienv": compared}}
    monkeypatch.setattr(m, "run_json", lambda args: {"jobs": {"13": job, "14": job}})
    rows = m.peers(1, 1, 10, 10)
    assert [r.split(" | ")[2] for r in rows] == ["**missed**", "**missed**"]
    compared["timed"].update(equal=10, other=0)
    assert [r.split(" | ")[2] for r in m.peers(1, 1, 10, 10)] == ["met", "met"]
