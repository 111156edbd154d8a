"""``GET /healthz``: a liveness probe for the process manager or load balancer."""

from __future__ import annotations

from flask import Blueprint, jsonify

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz():
    """200 ``{"status": "ok"}`` while the worker answers; touches no engine state."""
    resp = jsonify({"status": "ok"})
    resp.headers["Cache-Control"] = "no-store"
    return resp
