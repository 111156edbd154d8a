"""The JSON API (API.md): ``POST /api/v1/analyze``, ``POST /api/v1/review``, ``GET
/api/v1/quiz``, ``GET /api/v1/variants``. Never a 500 for any body."""

from __future__ import annotations

import json

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


def _has_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _lone_surrogate(value, path: str = "") -> str | None:
    """The path (``melds.0.type``) of the first string, key or value, holding a lone
    surrogate (``"\ud800"`` is valid JSON but no Unicode text), else ``None``."""
    stack = [(value, path)]
    while stack:
        v, at = stack.pop()
        if isinstance(v, str):
            if _has_surrogate(v):
                return at or "(body)"
        elif isinstance(v, dict):
            for k, item in v.items():
                key = f"{at}.{k}" if at else str(k)
                if _has_surrogate(k):
                    return (at + "." if at else "") + k.encode("utf-8", "backslashreplace").decode()
                stack.append((item, key))
        elif isinstance(v, list):
            stack.extend((item, f"{at}.{i}" if at else str(i)) for i, item in enumerate(v))
    return None


def _json_body():
    """The request's JSON object, or the ``bad_json`` error response to answer with."""
    raw = request.get_data(cache=False)
    try:
        body = json.loads(raw.decode("utf-8"), parse_constant=_reject_constant)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None, error_response("bad_json", _("The body is not valid JSON (a JSON object in "
                                                  "UTF-8 is needed)."))
    where = _lone_surrogate(body)
    if where is not None:
        # json.loads accepts "\ud800"; such a string cannot be encoded as UTF-8 (API.md: UTF-8)
        return None, error_response("bad_json", _("The body holds an unpaired UTF-16 surrogate "
                                                  "(such as \\ud800), which is not Unicode "
                                                  "text: %(where)s.", where=where))
    if not isinstance(body, dict):
        return None, error_response("bad_json", _("The body must be a JSON object, such as "
                                                  "%(example)s.", example='{"variant": '
                                                  '"zhengzhou", "hand": "123m456p789s1134z"}'))
    return body, None


def _engine_answer(run, *args):
    """``run(*args)`` as the API's answer: 200 with the result, or the engine's input error
    (400; 422 for ``too_many``, a documented cap passed), in the reader's language."""
    try:
        result = run(*args)
    except InputError as err:
        return jsonify({"error": localized(err.to_dict())}), 422 if err.code == "too_many" \
            else 400
    return jsonify(localized(result))


@bp.post("/analyze")
def analyze():
    body, error = _json_body()
    if error is not None:
        return error
    from ..analysis import analyze as run

    return _engine_answer(run, body)


@bp.post("/review")
def review():
    """``POST /api/v1/review`` (API.md "Hand review"): one player's hand turn by turn."""
    body, error = _json_body()
    if error is not None:
        return error
    from ..story import review as run

    return _engine_answer(run, body)


@bp.get("/quiz")
def quiz():
    """``GET /api/v1/quiz?variant=…&date=YYYY-MM-DD`` (docs/API.md): the day's 何切 problem
    of a variant, with its answer; ``date`` defaults to today (UTC)."""
    from datetime import datetime, timezone

    from ..quiz import daily_problem

    day = request.args.get("date") or datetime.now(timezone.utc).date().isoformat()
    return _engine_answer(daily_problem, request.args.get("variant"), day)


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
