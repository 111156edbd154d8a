"""The JSON API (API.md): ``POST /api/v1/analyze``. Never a 500 for any body."""

from __future__ import annotations

import json
import re

from flask import Blueprint, jsonify, request
from flask_babel import gettext as _

from ..errors import InputError
from .i18n import localized

bp = Blueprint("api", __name__, url_prefix="/api/v1")


def error_response(code: str, message: str, field: str | None = None, status: int = 400):
    resp = jsonify({"error": {"code": code, "message": message, "field": field}})
    resp.status_code = status
    return resp


def _reject_constant(name: str):
    raise ValueError(f"not JSON: {name}")


#: How deep a JSON body may nest arrays and objects. The deepest real body (a table import:
#: document → entries → entry → revisions → revision → request → settlement → kongs → kong)
#: is 9 levels; past this limit the body is ``bad_json`` before any code walks it (a value
#: nested a few hundred levels deep would otherwise exhaust the recursion limit where an error
#: message quotes it).
MAX_DEPTH = 32


def _has_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


#: a JSON escape that can decode to a lone surrogate (\ud800-\udfff); without one in the raw
#: text, no string of the decoded body can hold one (raw UTF-8 cannot encode a surrogate)
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


def body_problem(value, raw: bytes | None = None) -> tuple[str, str] | None:
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
    stack = [(value, None, 0)]           # (container, its crumbs: (key, parent crumbs), depth)
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


def _path(crumbs) -> str:
    parts = []
    while crumbs is not None:
        key, crumbs = crumbs
        parts.append(key)
    out = ""
    for key in reversed(parts):
        out += f"[{key}]" if isinstance(key, int) else (f".{key}" if out else key)
    out = out.encode("utf-8", "backslashreplace").decode()
    return (out if len(out) <= 120 else out[:119] + "…") or "(body)"


@bp.post("/analyze")
def analyze():
    raw = request.get_data(cache=False)
    try:
        body = json.loads(raw.decode("utf-8"), parse_constant=_reject_constant)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return error_response("bad_json", _("The body is not valid JSON (a JSON object in UTF-8 "
                                            "is needed)."))
    problem = body_problem(body, raw)
    if problem is not None:
        kind, where = problem
        if kind == "deep":
            return error_response("bad_json", _("The body is nested too deeply: at most "
                                                "%(n)s levels of arrays and objects (at "
                                                "%(where)s).", n=MAX_DEPTH, where=where), where)
        # json.loads accepts "\ud800"; such a string cannot be encoded as UTF-8 (API.md: UTF-8)
        return error_response("bad_json", _("The body holds an unpaired UTF-16 surrogate (such as "
                                            "\\ud800), which is not Unicode text: %(where)s.",
                                            where=where), where)
    if not isinstance(body, dict):
        return error_response("bad_json", _("The body must be a JSON object, such as "
                                            "%(example)s.", example='{"variant": "zhengzhou", '
                                            '"hand": "123m456p789s1134z"}'))

    from ..analysis import analyze as run

    try:
        result = run(body)
    except InputError as err:
        return jsonify({"error": localized(err.to_dict())}), 400
    return jsonify(localized(result))


@bp.get("/variants")
def variants():
    """``GET /api/v1/variants`` (API.md): every variant with its room options, labels and
    help in the request's language. ``choices`` (choice options) is ``[{"value", "label"}]``;
    ``minimum``/``maximum`` only for whole-number options; ``win_methods`` is
    ``[{"name", "label"}]`` in API order."""
    from ..options import option_specs
    from ..variants import VARIANTS
    from ..variants.base import WIN_METHOD_LABELS, WIN_METHODS

    out = []
    for name, variant in VARIANTS.items():
        options = []
        for spec in option_specs(variant.Options):
            o = {k: spec[k] for k in ("name", "type", "default", "label", "help", "rule")}
            if spec["type"] == "choice":
                o["choices"] = [{"value": v, "label": label} for v, label in spec["choices"]]
            if spec["type"] == "int":
                o["minimum"], o["maximum"] = spec["minimum"], spec["maximum"]
            options.append(o)
        methods = [{"name": m, "label": WIN_METHOD_LABELS[m]} for m in WIN_METHODS
                   if m in variant.win_methods]
        out.append({"name": name, "label": variant.label, "options": options,
                    "win_methods": methods})
    return jsonify(localized({"variants": out}))
