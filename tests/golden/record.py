"""``python -m tests.golden.record``: replay the corpus (:mod:`tests.golden.corpus`) on a fresh
app and database and write what it answered to ``tests/golden/recorded.json.gz``."""

from __future__ import annotations

import gzip
import json
import sys
import tempfile
from pathlib import Path

from tests.golden.corpus import build, replay

HERE = Path(__file__).parent
RECORDED = HERE / "recorded.json.gz"


def run() -> tuple[list[dict], list[dict]]:
    """The corpus and the records of its replay on a fresh app with a fresh SQLite ledger."""
    from webcalc import create_app

    corpus = build()
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp}/golden.sqlite3",
                          "LEDGER_TABLES_PER_HOUR": 0, "SECRET_KEY": "golden"})
        try:
            records = replay(app.test_client(), corpus)
        finally:
            app.extensions["ledger"].dispose()
    return corpus, records


def main() -> int:
    corpus, records = run()
    data = {"requests": len(corpus), "records": records}
    with gzip.open(RECORDED, "wt", encoding="utf-8") as f:
        json.dump(data, f, separators=(",", ":"))
    statuses: dict[int, int] = {}
    for r in records:
        statuses[r["status"]] = statuses.get(r["status"], 0) + 1
    print(f"{len(records)} requests recorded in {RECORDED}: {dict(sorted(statuses.items()))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
