"""The JSON API (API.md): ``POST /api/v1/analyze``. Never a 500 for any body."""

from __future__ import annotations

import json

from flask import Blueprint, jsonify, request

from ..errors import InputError

bp = Blueprint("api", __name__, url_prefix="/api/v1")


def error_response(code: str, message: str, field: str | None = None, status: int = 400):
    resp = jsonify({"error": {"code": code, "message": message, "field": field}})
    resp.status_code = status
    return resp


def _reject_constant(name: str):
    raise ValueError(f"not JSON: {name}")


@bp.post("/analyze")
def analyze():
    raw = request.get_data(cache=False)
    try:
        body = json.loads(raw.decode("utf-8"), parse_constant=_reject_constant)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return error_response("bad_json", "请求体不是合法的 JSON（需 UTF-8 编码的 JSON 对象）。")
    if not isinstance(body, dict):
        return error_response("bad_json", "请求体必须是一个 JSON 对象，例如 {\"variant\": \"zhengzhou\", \"hand\": \"123m456p789s1134z\"}。")

    from ..analysis import analyze as run

    try:
        result = run(body)
    except InputError as err:
        return jsonify({"error": err.to_dict()}), 400
    return jsonify(result)
