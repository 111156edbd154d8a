"""The engine's tables built at install time (``make`` runs ``python -m webcalc.build_tables
--if-stale`` after each install): today 盘锦's rows table
(:mod:`webcalc.variants.panjin_table`: the file, its format, what it covers). Without a
compiled part (an install without a C compiler) there is nothing to build it from: the
engine's searches answer, only slower."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from .variants.panjin_table import TABLE_PATH, build, load, unload


def stale(path: Path = TABLE_PATH) -> bool:
    """Whether the table at ``path`` must be built again: missing, older than the compiled
    part it was built from, or refused by it (:func:`load`)."""
    from .compiled import pjunit as pj
    if pj is None:
        return True
    if not path.exists() or path.stat().st_mtime < Path(pj.__file__).stat().st_mtime:
        return True
    refused = load(path) is None
    unload()
    return refused


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Build the engine's install-time tables "
                                             "(make runs this).")
    ap.add_argument("--path", type=Path, default=TABLE_PATH)
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--if-stale", action="store_true",
                    help="only when the table is missing, older than the compiled part, or "
                         "refused by it")
    args = ap.parse_args(argv)
    if args.if_stale and not stale(args.path):
        return 0
    try:
        build(args.path, args.jobs)
    except RuntimeError as exc:
        # no compiled part (an install without a C compiler): no table, the searches answer
        print(f"{exc}: no rows table built", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
