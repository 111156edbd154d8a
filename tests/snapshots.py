"""What a snapshot test prints when an answer changed, and how it is re-recorded.

The message snapshots (tests/messages_zh.json, tests/ledger/messages_zh.json) and the golden
corpus (tests/golden/) fail with the request and a readable diff of the first differing
answers. ``make golden`` re-records all three (``WEBCALC_WRITE_SNAPSHOTS=1`` for the message
snapshots) and prints what changed.
"""

from __future__ import annotations

import json
import os
from typing import Any


def writing() -> bool:
    """Whether this run re-records the snapshots instead of comparing (``make golden``)."""
    return bool(os.environ.get("WEBCALC_WRITE_SNAPSHOTS")
                or os.environ.get("WEBCALC_WRITE_LEDGER_GOLDEN"))


def _show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def explain(changed: list[tuple[Any, Any, Any]], limit: int = 3) -> str:
    """``changed``: (request, recorded, now) triples → the first ``limit`` as a request line
    and a line-by-line diff (``-`` recorded, ``+`` now) of the list of messages."""
    out = [f"{len(changed)} answers changed"]
    for request, was, now in changed[:limit]:
        out.append("request: " + _show(request))
        was_l = was if isinstance(was, list) else [was]
        now_l = now if isinstance(now, list) else [now]
        for i in range(max(len(was_l), len(now_l))):
            a = was_l[i] if i < len(was_l) else None
            b = now_l[i] if i < len(now_l) else None
            if a == b:
                out.append("    " + _show(a))
            else:
                if i < len(was_l):
                    out.append("  - " + _show(a))
                if i < len(now_l):
                    out.append("  + " + _show(b))
    return "\n".join(out)


def summary(name: str, was: dict | list, now: dict | list) -> str:
    """One line per re-recorded snapshot: how many answers changed."""
    if isinstance(was, dict) and isinstance(now, dict):
        changed = [k for k in now if was.get(k) != now[k]]
        gone = [k for k in was if k not in now]
        return (f"{name}: {len(now)} answers, {len(changed)} changed, {len(gone)} gone"
                + (f"; changed: {', '.join(map(str, changed[:10]))}" if changed else ""))
    changed_n = sum(1 for a, b in zip(was, now) if a != b) + abs(len(was) - len(now))
    return f"{name}: {len(now)} answers, {changed_n} changed"
