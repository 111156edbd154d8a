"""The table ledger's JSON API (API.md "Table ledger") and the ledger's wiring into the app.

Routes (``<token>``: the edit or the view token; writes need the edit token):

* ``POST /api/v1/tables`` → 201 ``{"table", "edit_token", "view_token"}``
* ``GET /api/v1/tables/<token>`` → 200 T, with an ``ETag`` of the version, the link's rights
  and the language (``If-None-Match`` → 304; :func:`~webcalc.web.ledger_shared.table_etag`)
* ``POST /api/v1/tables/<token>/hands`` → 201 ``{"hand", "table"}`` (200 for an idempotent
  repeat)
* ``PUT /api/v1/tables/<token>/hands/<n>`` → 200 ``{"hand", "table"}``
* ``POST /api/v1/tables/<token>/hands/<n>/void`` → 200 T
* ``GET /api/v1/tables/<token>/export`` → 200 the export document (added; either token), and
  ``POST /api/v1/tables/import`` with that document → 201 as for create, new tokens (added)
* ``POST /api/v1/tables/<token>/undo`` ``{"number": n}`` → 200 T (409 ``conflict`` unless n
  is the last counted entry)
* ``POST /api/v1/tables/<token>/editors`` → 201 ``{"editor", "edit_token"}``; ``GET`` → 200
  ``{"editors": [...]}`` (added); ``DELETE /api/v1/tables/<token>/editors/<n>`` → 200
  ``{"editor", "revoked_at"}``: the creator's link only (403 ``not_owner``)
* ``POST /api/v1/tables/<token>/rotate`` ``{"view"?: bool}`` → 200 ``{"edit_token",
  "view_token"?}``
* ``PATCH /api/v1/tables/<token>`` ``{"carry_bets": "keep" | "reset"}`` → 200 T (added)

T and ``{"hand", "table"}`` are written from the entries' JSON the ledger keeps per table
version (:meth:`~webcalc.ledger.TableDoc.json_bytes`): a write's answer serializes only what the
write changed, however long the table.

The token is checked before the body is read: an unknown token is a 404 and a write with the
view token a 403 ``read_only``, whatever the body. Errors are ``{"error": {"code", "message",
"field"}}`` with :data:`STATUS`; a 409 ``conflict`` adds ``"table"`` (T as it is now), a 422
``too_many`` adds ``"detail": {"limit", "max"}`` to the error, a 409 ``idempotency_conflict``
``"detail": n`` (the entry the key recorded), a 429 and a 503 carry
``Retry-After``. The import takes a body up to ``IMPORT_MAX`` (2 MB; 413 ``too_large``
beyond, as every other body beyond 16 KB).

Configuration (``app.config``, else the environment): ``DATABASE_URL`` (default: SQLite at
``instance/ledger.sqlite3``), ``LEDGER_HANDS_MAX`` (500 entries per table),
``LEDGER_REVISIONS_MAX`` (20 revisions per entry), ``LEDGER_CORRECTIONS_MAX`` (200 per
table), ``LEDGER_EDITORS_MAX`` (20 edit links per table), ``LEDGER_IMPORT_COMPUTATIONS_MAX``
(2500 engine computations per import: entries plus revisions, all its tables),
``LEDGER_TABLES_PER_HOUR`` (30 per address); past a cap: 422 ``too_many``.
``LEDGER_CACHE_HANDS`` (1500): entries each process keeps of the tables it read last. The
schema is migrated when the app starts (in tests: on first use), in a child process outside
tests, so Alembic never loads in the server's processes. CLI: ``flask --app webcalc
ledger-purge --idle-days N [--dry-run]`` and ``flask --app webcalc ledger-migrate``.
"""

from __future__ import annotations

import json
import os

import click
from flask import Blueprint, Flask, current_app, jsonify, request
from flask.cli import with_appcontext
from sqlalchemy.exc import OperationalError

from ..errors import BadJsonError, BadRequestError, InputError
from ..json_checks import MAX_DEPTH, body_problem, reject_constant
from ..ledger import (
    BadKey,
    Busy,
    Conflict,
    IdempotencyConflict,
    Ledger,
    LedgerError,
    NotFound,
    NotOwner,
    RateLimited,
    ReadOnly,
    TooMany,
    Voided,
    table_in,
)
from ..ledger.circles import IMPORT_COMPUTATIONS_MAX
from ..ledger.db import BUSY_TIMEOUT_MS, Unreachable
from ..ledger.service import (
    CACHE_HANDS,
    CORRECTIONS_MAX,
    EDITORS_MAX,
    HANDS_MAX,
    IMPORT_CPU_MAX,
    REVISIONS_MAX,
)
from ..messages import M
from .i18n import current_lang, localized
from .ledger_shared import table_etag

bp = Blueprint("ledger_api", __name__, url_prefix="/api/v1/tables")
#: circles (API.md "Circles"): ``POST /api/v1/circles``, ``POST …/<edit>/players``,
#: ``GET …/<token>``, ``GET …/<token>/players/<id>`` (added), ``GET …/<token>/export`` and
#: ``POST /api/v1/circles/import`` (added; body up to ``CIRCLE_IMPORT_MAX``)
circles_bp = Blueprint("circles_api", __name__, url_prefix="/api/v1/circles")

STATUS = {NotFound: 404, ReadOnly: 403, NotOwner: 403, Conflict: 409, Voided: 409,
          IdempotencyConflict: 409, TooMany: 422, BadKey: 422, RateLimited: 429, Busy: 503}


def init_app(app: Flask) -> None:
    """Make the app's :class:`~webcalc.ledger.Ledger` (``app.extensions["ledger"]``),
    migrate its schema, register the API and the CLI commands."""
    url = (app.config.get("DATABASE_URL") or os.environ.get("DATABASE_URL")
           or f"sqlite:///{os.path.join(app.instance_path, 'ledger.sqlite3')}")
    lazily = bool(app.testing or app.config.get("LEDGER_MIGRATE_LAZILY"))
    ledger = Ledger(url, hands_max=int(_setting(app, "LEDGER_HANDS_MAX", HANDS_MAX)),
                    revisions_max=int(_setting(app, "LEDGER_REVISIONS_MAX", REVISIONS_MAX)),
                    corrections_max=int(_setting(app, "LEDGER_CORRECTIONS_MAX",
                                                 CORRECTIONS_MAX)),
                    editors_max=int(_setting(app, "LEDGER_EDITORS_MAX", EDITORS_MAX)),
                    import_computations_max=int(_setting(app, "LEDGER_IMPORT_COMPUTATIONS_MAX",
                                                         IMPORT_COMPUTATIONS_MAX)),
                    import_cpu_max=float(_setting(app, "LEDGER_IMPORT_CPU_MAX", IMPORT_CPU_MAX)),
                    cache_hands=int(_setting(app, "LEDGER_CACHE_HANDS", CACHE_HANDS)),
                    tables_per_hour=int(_setting(app, "LEDGER_TABLES_PER_HOUR", 30)),
                    busy_timeout_ms=int(_setting(app, "LEDGER_BUSY_TIMEOUT_MS",
                                                 BUSY_TIMEOUT_MS)),
                    migrate_lazily=lazily, migrate_in_subprocess=not app.testing)
    if not lazily:
        try:
            ledger.migrate()
        except (OperationalError, Unreachable):   # the database is down: pages work; retry later
            app.logger.exception("ledger database unreachable at start-up; "
                                 "the ledger will migrate on first use")
            ledger.migrate_on_first_use()
        ledger.dispose()                  # no pooled connection survives a fork
    app.extensions["ledger"] = ledger
    app.register_blueprint(bp)
    app.register_blueprint(circles_bp)
    app.cli.add_command(purge_command)
    app.cli.add_command(migrate_command)


def _setting(app: Flask, name: str, default):
    """``app.config[name]``, else the environment's, else ``default`` (0 is a value: no cap)."""
    for value in (app.config.get(name), os.environ.get(name)):
        if value not in (None, ""):
            return value
    return default


def ledger() -> Ledger:
    return current_app.extensions["ledger"]


def _error(err: InputError | LedgerError):
    resp = jsonify({"error": localized(err.to_dict()), **({"table": _table(err.table)}
                                                          if isinstance(err, Conflict) else {})})
    resp.status_code = 400 if isinstance(err, InputError) else STATUS.get(type(err), 400)
    resp.vary.add("Accept-Language")
    if isinstance(err, RateLimited):
        resp.headers["Retry-After"] = str(err.retry_after)
    elif isinstance(err, Busy):
        resp.headers["Retry-After"] = "1"
    return resp


def _body():
    body, raw = _decoded()
    check_body(body, raw)
    return body


def _decoded():
    """The request's JSON body, decoded but not yet checked, and its bytes."""
    raw = request.get_data(cache=False)
    try:
        return json.loads(raw.decode("utf-8"), parse_constant=reject_constant), raw
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise BadJsonError(M("ledger.bad_json")) from None


def check_body(body, raw: bytes | None = None) -> None:
    """A decoded body that nothing may walk: nested past
    :data:`~webcalc.json_checks.MAX_DEPTH`, or holding a lone surrogate, which no database
    stores and no answer can quote (:func:`~webcalc.json_checks.body_problem`). An import
    is checked so by the service itself, after its cheaper checks."""
    problem = body_problem(body, raw)
    if problem is None:
        return
    kind, where = problem
    if kind == "deep":
        raise BadJsonError(M("ledger.too_deep", n=MAX_DEPTH, where=where), where)
    raise BadJsonError(M("ledger.surrogate", where=where), where)


def _writable(token: str) -> None:
    """404 for an unknown token, 403 for the view token: before the body is read."""
    if ledger().access(token) != "edit":
        raise ReadOnly(M("ledger.read_only"))


def _answer(fn):
    try:
        return fn()
    except (InputError, LedgerError) as err:
        return _error(err)


def _uncached(resp):
    resp.headers["Cache-Control"] = "no-cache, private"
    resp.vary.add("Accept-Language")          # details and messages are in the reader's language
    return resp


def _table(t: dict) -> dict:
    """T in this request's language (payment details, fan names)."""
    return table_in(t, current_lang())


def _made(made, status: int = 201):
    """``{"table", "edit_token", "view_token"}``: T from the entries' JSON (so the table's
    next answers join what is made here)."""
    tokens = json.dumps({"edit_token": made.edit_token, "view_token": made.view_token})
    return _json(b'{"table":' + made.table.json_bytes(current_lang()) + b"," +
                 tokens[1:].encode("ascii"), status)


def _json(data: bytes, status: int = 200):
    """An answer whose JSON the ledger wrote (as ``jsonify`` would: compact, UTF-8)."""
    return _uncached(current_app.response_class(data + b"\n", status=status,
                                                mimetype="application/json"))


def _doc(t) -> bytes:
    """T as JSON in this request's language."""
    return t.json_bytes(current_lang())


def _optional_body() -> dict:
    """The body of a write whose fields are all optional: an empty body is ``{}``."""
    if not request.get_data(cache=True):
        return {}
    body = _body()
    if not isinstance(body, dict):
        raise BadJsonError(M("request.not_object"))
    return body


@bp.post("")
def create():
    def run():
        made = ledger().create_table(_body(), address=request.remote_addr)
        return _made(made)
    return _answer(run)


@bp.get("/<token>/export")
def export(token: str):
    def run():
        resp = jsonify(ledger().export_table(token))
        resp.headers["Content-Disposition"] = 'attachment; filename="webcalc-table.json"'
        return _uncached(resp)
    return _answer(run)


@bp.post("/import")
def import_():
    def run():
        data, raw = _decoded()
        made = ledger().import_table(data, address=request.remote_addr, raw=raw)
        return _made(made)
    return _answer(run)


@bp.get("/<token>")
def read(token: str):
    def run():
        version, editor = ledger().probe(token)      # a revoked or replaced link: 404
        etag = table_etag(version, editor, current_lang())
        if request.if_none_match.contains(etag):
            resp = _uncached(current_app.response_class(status=304))
        else:
            table = ledger().table(token)
            resp = _json(_doc(table))
            etag = table_etag(table["version"], editor, current_lang())
        resp.set_etag(etag)
        return resp
    return _answer(run)


@bp.patch("/<token>")
def settings(token: str):
    def run():
        _writable(token)
        return _json(_doc(ledger().settings(token, _optional_body())))
    return _answer(run)


@bp.post("/<token>/hands")
def record(token: str):
    def run():
        _writable(token)
        rec = ledger().record(token, _body())
        return _json(rec.json_bytes(current_lang()), 201 if rec.created else 200)
    return _answer(run)


@bp.put("/<token>/hands/<int:number>")
def correct(token: str, number: int):
    def run():
        _writable(token)
        rec = ledger().correct(token, number, _body())
        return _json(rec.json_bytes(current_lang()))
    return _answer(run)


@bp.post("/<token>/hands/<int:number>/void")
def void(token: str, number: int):
    def run():
        _writable(token)
        body = _body()
        if not isinstance(body, dict):
            raise BadJsonError(M("ledger.void_body"))
        return _json(_doc(ledger().void(token, number, body.get("reason"))))
    return _answer(run)


@bp.post("/<token>/undo")
def undo(token: str):
    def run():
        _writable(token)
        body = _body()
        if not isinstance(body, dict) or "number" not in body:
            raise BadRequestError(M("ledger.undo_number"), "number")
        for key in body:
            if key != "number":
                raise BadRequestError(M("request.unknown_key", key=key,
                                        known=["number"]), str(key))
        return _json(_doc(ledger().undo(token, body["number"])))
    return _answer(run)


@bp.post("/<token>/editors")
def add_editor(token: str):
    def run():
        _writable(token)
        body = _optional_body()
        if body:
            key = next(iter(body))
            raise BadRequestError(M("request.no_fields", key=key), str(key))
        number, edit_token = ledger().add_editor(token)
        return _uncached(jsonify({"editor": number, "edit_token": edit_token})), 201
    return _answer(run)


@bp.get("/<token>/editors")
def editors(token: str):
    def run():
        return _uncached(jsonify({"editors": ledger().editors(token)}))
    return _answer(run)


@bp.delete("/<token>/editors/<int:number>")
def revoke_editor(token: str, number: int):
    def run():
        _writable(token)
        return _uncached(jsonify(ledger().revoke_editor(token, number)))
    return _answer(run)


@bp.post("/<token>/rotate")
def rotate(token: str):
    def run():
        _writable(token)
        body = _optional_body()
        for key in body:
            if key != "view":
                raise BadRequestError(M("request.unknown_key", key=key,
                                        known=["view"]), str(key))
        view = body.get("view", False)
        if view is None:
            view = False
        rot = ledger().rotate(token, view=view)
        out = {"edit_token": rot.edit_token}
        if rot.view_token is not None:
            out["view_token"] = rot.view_token
        return _uncached(jsonify(out))
    return _answer(run)


# -- circles --------------------------------------------------------------------------------

def _circle_writable(token: str) -> None:
    """404 for an unknown circle token, 403 ``read_only`` for its view token: before the
    body is read."""
    if ledger().circle_access(token) != "edit":
        raise ReadOnly(M("ledger.read_only"))


def _circle_made(made, status: int = 201):
    return _uncached(jsonify({"circle": made.circle, "edit_token": made.edit_token,
                              "view_token": made.view_token})), status


@circles_bp.post("")
def create_circle():
    def run():
        return _circle_made(ledger().create_circle(_body(), address=request.remote_addr))
    return _answer(run)


@circles_bp.post("/import")
def import_circle():
    def run():
        data, raw = _decoded()
        return _circle_made(ledger().import_circle(data, address=request.remote_addr, raw=raw))
    return _answer(run)


@circles_bp.get("/<token>")
def read_circle(token: str):
    def run():
        return _uncached(jsonify(ledger().circle(token)))
    return _answer(run)


@circles_bp.post("/<token>/players")
def add_player(token: str):
    def run():
        _circle_writable(token)
        return _uncached(jsonify(ledger().add_player(token, _body()))), 201
    return _answer(run)


@circles_bp.get("/<token>/players/<int:player>")
def circle_player(token: str, player: int):
    def run():
        return _uncached(jsonify(ledger().circle_player(token, player)))
    return _answer(run)


@circles_bp.get("/<token>/export")
def export_circle(token: str):
    def run():
        resp = jsonify(ledger().export_circle(token))
        resp.headers["Content-Disposition"] = 'attachment; filename="webcalc-circle.json"'
        return _uncached(resp)
    return _answer(run)


@click.command("ledger-purge")
@click.option("--idle-days", type=click.FloatRange(min=0, min_open=True), default=180.0,
              show_default=True, help="delete tables with no write for this many days")
@click.option("--dry-run", is_flag=True, help="only count them")
@with_appcontext
def purge_command(idle_days: float, dry_run: bool) -> None:
    """Delete ledger tables nobody has written to for --idle-days days."""
    n = current_app.extensions["ledger"].purge_idle(idle_days, dry_run=dry_run)
    verb = "would delete" if dry_run else "deleted"
    click.echo(f"{verb} {n} table(s) idle for more than {idle_days:g} days")


@click.command("ledger-migrate")
@with_appcontext
def migrate_command() -> None:
    """Upgrade the ledger database to the newest schema (the app also does it on start)."""
    current_app.extensions["ledger"].migrate()
    click.echo("ledger schema at head")
