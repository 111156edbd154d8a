"""``make bench`` rewrites its own part of bench/RESULTS.md and keeps what the other scripts
wrote there: the Targets section's other rows and the notes under its table."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _bench():
    spec = importlib.util.spec_from_file_location("bench_bench", ROOT / "bench" / "bench.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


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
