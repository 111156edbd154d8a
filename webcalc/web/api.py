"""The JSON API (API.md): ``POST /api/v1/analyze``, ``POST /api/v1/review``, ``GET
/api/v1/quiz``, ``GET /api/v1/variants``. Never a 500 for any body."""

from __future__ import annotations

import json
from datetime import UTC

from flask import Blueprint, jsonify, request
from flask_babel import gettext as _

from ..errors import InputError
from ..json_checks import MAX_DEPTH, body_problem, reject_constant
from ..variants import EXAMPLE_REQUEST
from .i18n import localized

bp = Blueprint("api", __name__, url_prefix="/api/v1")
#: the request an error about the body's shape shows as an example
_EXAMPLE_BODY = json.dumps({k: EXAMPLE_REQUEST[k] for k in ("variant", "hand")},
                           ensure_ascii=False)


def error_response(code: str, message: str, field: str | None = None, status: int = 400):
    resp = jsonify({"error": {"code": code, "message": message, "field": field}})
    resp.status_code = status
    return resp


def _json_body():
    """The request's JSON object, or the ``bad_json`` error response to answer with."""
    raw = request.get_data(cache=False)
    try:
        body = json.loads(raw.decode("utf-8"), parse_constant=reject_constant)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None, error_response("bad_json", _("The body is not valid JSON (a JSON object in "
                                                  "UTF-8 is needed)."))
    problem = body_problem(body, raw)
    if problem is not None:
        kind, where = problem
        if kind == "deep":
            return None, error_response("bad_json", _("The body is nested too deeply: at most "
                                                      "%(n)s levels of arrays and objects (at "
                                                      "%(where)s).", n=MAX_DEPTH, where=where),
                                        where)
        # json.loads accepts "\ud800"; such a string cannot be encoded as UTF-8 (API.md: UTF-8)
        return None, error_response("bad_json", _("The body holds an unpaired UTF-16 surrogate (such as "
                                                  "\\ud800), which is not Unicode text: %(where)s.",
                                                  where=where), where)
    if not isinstance(body, dict):
        return None, error_response("bad_json", _("The body must be a JSON object, such as "
                                                  "%(example)s.", example=_EXAMPLE_BODY))
    return body, None


def _engine_answer(run, *args):
    """``run(*args)`` as the API's answer: 200 with the result, or the engine's input error
    (400; 422 for ``too_many``, a documented cap passed), in the reader's language."""
    try:
        result = run(*args)
    except InputError as err:
        return jsonify({"error": localized(err.to_dict())}), 422 if err.code == "too_many" else 400
    return jsonify(localized(result))


@bp.post("/analyze")
def analyze():
    body, error = _json_body()
    if error is not None:
        return error
    from ..analysis import analyze as run

    return _engine_answer(lambda b: run(b).to_json(), body)


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
    from datetime import datetime

    from ..quiz import daily_problem

    day = request.args.get("date") or datetime.now(UTC).date().isoformat()
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
