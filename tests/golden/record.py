"""``python -m tests.golden.record`` (``make golden``): replay the corpus
(:mod:`tests.golden.corpus`) on a fresh app and database, write what it answered to
``tests/golden/recorded.json.gz`` (status, meaningful headers, the body's SHA-256) and the
normalized bodies to ``tests/golden/bodies.json.xz`` (by SHA-256, so that a failing
comparison can show a diff), then print what changed against the previous recording.

:func:`explain` is what tests/test_golden.py prints when answers differ: each differing
request, its status and headers before and after, and a unified diff of the bodies.
"""

from __future__ import annotations

import difflib
import gzip
import json
import lzma
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

from tests.golden.corpus import BODIES, build, describe, replay

HERE = Path(__file__).parent
RECORDED = HERE / "recorded.json.gz"
RECORDED_BODIES = HERE / "bodies.json.xz"


def run() -> tuple[list[dict], list[dict]]:
    """The corpus and the records of its replay on a fresh app with a fresh SQLite ledger
    (the bodies are in :data:`tests.golden.corpus.BODIES` afterwards)."""
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


def load() -> tuple[dict, dict[str, str]]:
    """The recording: ``({"requests", "records"}, {sha256: body})``."""
    with gzip.open(RECORDED, "rt", encoding="utf-8") as f:
        recorded = json.load(f)
    bodies: dict[str, str] = {}
    if RECORDED_BODIES.exists():
        bodies = json.loads(lzma.decompress(RECORDED_BODIES.read_bytes()).decode("utf-8"))
    return recorded, bodies


def _readable(body: str) -> list[str]:
    """A body as lines to diff: JSON pretty-printed, HTML split at its tags' line breaks."""
    try:
        return json.dumps(json.loads(body), ensure_ascii=False, indent=1,
                          sort_keys=True).splitlines()
    except ValueError:
        return body.replace("><", ">\n<").splitlines()


def _parts(record: dict, prefix: str = "") -> dict[str, dict]:
    """The answers one record holds: the request's, the redirect followed (``then``), the
    记入 pressed (``recorded``) and its redirect."""
    out = {prefix or "answer": {k: v for k, v in record.items()
                                if k not in ("then", "recorded")}}
    if isinstance(record.get("then"), dict):
        out.update(_parts(record["then"], (prefix + " → " if prefix else "") + "redirect"))
    if isinstance(record.get("recorded"), dict):
        out.update(_parts(record["recorded"], (prefix + " → " if prefix else "") + "记入"))
    return out


def explain(req: dict, old: dict, new: dict, old_bodies: dict[str, str],
            new_bodies: dict[str, str], max_lines: int = 60) -> str:
    """What differs between two records of one request, for a person: the request, then per
    differing answer its status and headers (when they differ) and a unified diff of the
    normalized bodies (cut at ``max_lines``)."""
    lines = [describe(req)]
    was, now = _parts(old), _parts(new)
    for name in list(dict.fromkeys([*was, *now])):
        a, b = was.get(name), now.get(name)
        if a == b:
            continue
        if a is None or b is None:
            lines.append(f"  {name}: {'new' if a is None else 'gone'}")
            continue
        if a["status"] != b["status"]:
            lines.append(f"  {name}: status {a['status']} → {b['status']}")
        if a["headers"] != b["headers"]:
            lines.append(f"  {name}: headers {a['headers']} → {b['headers']}")
        if a["sha256"] != b["sha256"]:
            before, after = old_bodies.get(a["sha256"]), new_bodies.get(b["sha256"])
            if before is None:
                lines.append(f"  {name}: body changed ({a['length']} → {b['length']} "
                             "characters; the recorded body is not kept: re-record)")
                continue
            diff = list(difflib.unified_diff(_readable(before), _readable(after or ""),
                                             "recorded", "now", n=2, lineterm=""))
            lines.append(f"  {name}: body differs")
            lines += ["    " + d for d in diff[:max_lines]]
            if len(diff) > max_lines:
                lines.append(f"    … {len(diff) - max_lines} more diff lines")
    return "\n".join(lines)


def summary(corpus: list[dict], old: list[dict], new: list[dict]) -> list[str]:
    """What a re-recording changed: counts, then the first changed requests."""
    changed = [i for i, (a, b) in enumerate(zip(old, new)) if a != b]
    out = [f"{len(new)} requests; {len(changed)} answers changed, "
           f"{len(new) - len(old)} more requests than before" if len(new) != len(old)
           else f"{len(new)} requests; {len(changed)} answers changed"]
    by_kind: dict[str, int] = {}
    for i in changed:
        path = re.sub(r"\{(edit|view)\d+\}", r"{\1}", corpus[i]["path"].split("?")[0])
        kind = f"{corpus[i]['method']} {path}"
        by_kind[kind] = by_kind.get(kind, 0) + 1
    out += [f"  {n:5d} × {kind}" for kind, n in sorted(by_kind.items(), key=lambda kv: -kv[1])]
    out += ["  changed: " + describe(corpus[i]) for i in changed[:10]]
    return out


def main() -> int:
    previous: dict[str, Any] | None = None
    if RECORDED.exists():
        previous, _ = load()
    corpus, records = run()
    data = {"requests": len(corpus), "records": records}
    with open(RECORDED, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as f:
        f.write(json.dumps(data, separators=(",", ":")).encode("utf-8"))
    RECORDED_BODIES.write_bytes(lzma.compress(
        json.dumps(dict(sorted(BODIES.items())), ensure_ascii=False,
                   separators=(",", ":")).encode("utf-8"), preset=6))
    statuses: dict[int, int] = {}
    for r in records:
        statuses[r["status"]] = statuses.get(r["status"], 0) + 1
    print(f"{len(records)} requests recorded in {RECORDED}: {dict(sorted(statuses.items()))}")
    if previous is not None:
        print("\n".join(summary(corpus, previous["records"], records)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
