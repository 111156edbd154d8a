"""Probes for the process manager or load balancer.

* ``GET /healthz`` — liveness: 200 ``{"status": "ok"}`` while the worker answers; touches no
  engine state and no database (restart the process only when this fails).
* ``GET /readyz`` — readiness: 200 ``{"status": "ok", "database": "ok"}`` when the ledger's
  database answers a trivial query, else 503 ``{"status": "unavailable", "database":
  "unreachable"}`` with ``Retry-After`` (send no traffic here for now; the process itself is
  fine and the analysis pages still work).
"""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify

bp = Blueprint("health", __name__)

#: seconds a 503 from /readyz asks the prober to wait
READY_RETRY_AFTER = "5"


@bp.get("/healthz")
def healthz():
    """200 ``{"status": "ok"}`` while the worker answers; touches no engine state."""
    resp = jsonify({"status": "ok"})
    resp.headers["Cache-Control"] = "no-store"
    return resp


@bp.get("/readyz")
def readyz():
    """200 when the ledger's database answers ``SELECT 1`` (a connection from the pool, or a
    new one), else 503 with ``Retry-After``; never a 500."""
    from sqlalchemy import text

    ledger = current_app.extensions["ledger"]
    try:
        with ledger.engine.connect() as conn:
            conn.execute(text("SELECT 1")).scalar_one()
        resp = jsonify({"status": "ok", "database": "ok"})
    except Exception as err:  # noqa: BLE001 - whatever the driver raises, the answer is 503
        current_app.logger.warning("readyz: the ledger database does not answer: %s: %s",
                                   type(err).__name__, (str(err).splitlines() or [""])[0])
        resp = jsonify({"status": "unavailable", "database": "unreachable"})
        resp.status_code = 503
        resp.headers["Retry-After"] = READY_RETRY_AFTER
    resp.headers["Cache-Control"] = "no-store"
    return resp
