"""Checks of a decoded JSON body before anything walks it (no Flask: the web layer and the
ledger service both use them).

:func:`body_problem` finds arrays and objects nested more than :data:`MAX_DEPTH` levels (a
value a few hundred levels deep passes ``json.loads`` and then exhausts the recursion limit
where an error message quotes it) and strings or keys holding a lone UTF-16 surrogate
(``"\\ud800"`` is valid JSON, but no Unicode text: no database stores it and no answer can
quote it)."""

from __future__ import annotations

import re
from typing import Any, NoReturn

#: How deep a JSON body may nest arrays and objects. The deepest real body (a table import:
#: document → entries → entry → revisions → revision → request → settlement → kongs → kong)
#: is 9 levels; past this limit the body is ``bad_json`` before any code walks it (a value
#: nested a few hundred levels deep would otherwise exhaust the recursion limit where an error
#: message quotes it).
MAX_DEPTH = 32


def reject_constant(name: str) -> NoReturn:
    """``json.loads``'s ``parse_constant``: ``NaN``, ``Infinity`` and ``-Infinity`` are not
    JSON (RFC 8259), so a body holding one is refused as any other invalid JSON."""
    raise ValueError(f"not JSON: {name}")


def _has_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


#: a JSON escape that can decode to a lone surrogate (\ud800-\udfff); without one in the raw
#: text, no string of the decoded body can hold one (raw UTF-8 cannot encode a surrogate)
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


def body_problem(value: Any, raw: bytes | None = None) -> tuple[str, str] | None:
    """What makes a decoded JSON body unusable, if anything: ``("deep", path)`` for arrays or
    objects nested more than :data:`MAX_DEPTH` levels, ``("surrogate", path)`` for a string,
    key or value, holding a lone surrogate (``"\ud800"`` is valid JSON but no Unicode text).
    ``path`` names the place (``melds[0].type``; a key with a surrogate is shown escaped, a
    long path is cut at 120 characters); ``(body)`` is the whole body. ``raw``, the body's
    bytes, if given, spares the string checks when it holds no escape of a surrogate.
    Iterative, so any depth json.loads accepts is walked; a path is spelled out only for the
    place at fault."""
    strings = raw is None or _SURROGATE_ESCAPE.search(raw) is not None
    if isinstance(value, str):
        return ("surrogate", "(body)") if strings and _has_surrogate(value) else None
    if not isinstance(value, (dict, list)):
        return None
    # (container, its crumbs: (key, parent crumbs), depth)
    stack: list[tuple[dict[Any, Any] | list[Any], Any, int]] = [(value, None, 0)]
    while stack:
        v, crumbs, depth = stack.pop()
        if depth >= MAX_DEPTH:
            return "deep", _path(crumbs)
        for k, item in (v.items() if isinstance(v, dict) else enumerate(v)):
            if strings and isinstance(k, str) and _has_surrogate(k):
                return "surrogate", _path((k, crumbs))
            if isinstance(item, (dict, list)):
                stack.append((item, (k, crumbs), depth + 1))
            elif strings and isinstance(item, str) and _has_surrogate(item):
                return "surrogate", _path((k, crumbs))
    return None


def _path(crumbs: Any) -> str:
    parts: list[Any] = []
    while crumbs is not None:
        key, crumbs = crumbs
        parts.append(key)
    out = ""
    for key in reversed(parts):
        out += f"[{key}]" if isinstance(key, int) else (f".{key}" if out else key)
    out = out.encode("utf-8", "backslashreplace").decode()
    return (out if len(out) <= 120 else out[:119] + "…") or "(body)"
