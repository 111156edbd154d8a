"""The application factory."""

from __future__ import annotations

from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

from flask import Flask, current_app, request
from flask import Request as FlaskRequest
from flask.json.provider import DefaultJSONProvider
from flask.templating import Environment as FlaskEnvironment
from flask_wtf.csrf import CSRFProtect
from werkzeug.datastructures import ImmutableMultiDict

from . import security

#: ``templates/`` and ``static/`` sit at the repository root, next to the package.
ROOT = Path(__file__).resolve().parent.parent.parent
#: a built wheel carries them inside the package instead (setup.py's build_py)
PACKAGED = Path(__file__).resolve().parent.parent


def pages_folder(name: str) -> Path:
    """Where ``name`` (``templates`` or ``static``) is: inside the installed package when the
    wheel put it there, else at the top of the checkout (an editable install, the tests)."""
    inside = PACKAGED / name
    return inside if inside.is_dir() else ROOT / name

csrf = CSRFProtect()


class Query(ImmutableMultiDict):
    """A request's query (``request.args``) and posted form: ``get`` answers a missing key
    without Werkzeug's raising and catching a ``BadRequestKeyError`` (built with its
    description each time). A calculator page asks ``?lang=`` about a dozen times
    (``i18n.lang_param``, from its templates' links) and most pages never send it: a miss
    of ``lang_param()`` 8.2 → 2.8 µs (timeit in a request context, load 7; about 60 µs of a
    page, bench/RESULTS.md "Issue 38, round 4"). Not a cache: nothing is kept."""

    # MultiDict's overloads of ``get`` take ``type`` second where this takes ``default``;
    # Werkzeug's own subclasses that override ``get`` ignore the same check
    def get(self, key, default=None, type=None):  # type: ignore[override]
        if key not in self:
            return default
        return super().get(key, default, type)


class Request(FlaskRequest):
    """Flask's request, its query, form and cookies a :class:`Query` (the session's look-up
    of its cookie misses on every request without one)."""

    parameter_storage_class = Query
    dict_storage_class = Query


class Environment(FlaskEnvironment):
    """Flask's Jinja environment, whose templates loaded without globals of their own read
    the environment's globals dict itself instead of Jinja's ``ChainMap({}, globals)``.

    Each render (``render_template``; an include or an import shares its context) starts
    a context from ``dict(template.globals, **variables)``: a ``ChainMap`` is copied key by
    key in Python, 44-67 µs for the seventy-odd globals against 2.5-3.3 µs for a dict
    (timeit, load 8, 2026-12-07), once a calculator page (its panel; the API renders
    none). The same names and values: the ``ChainMap``'s first map is the template's own
    globals, empty unless given (``get_template(name, globals=...)``, which no code does;
    given at the first load they keep Jinja's ``ChainMap``, given at a later one they would
    go into the environment's). Not a cache: nothing is kept."""

    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        return self.globals if not d else super().make_globals(d)


def create_app(test_config: dict | None = None) -> Flask:
    """Create the webcalc Flask app.

    ``test_config`` (a mapping) overrides the defaults, as in Flask's tutorial. The secret key
    comes from ``test_config``, else the environment (``WEBCALC_SECRET_KEY`` or
    ``SECRET_KEY``), else a random key kept in ``instance/secret_key`` (made once, race-safe
    across gunicorn workers: :func:`webcalc.web.security.secret_key`).
    """
    app = Flask(
        "webcalc",
        template_folder=str(pages_folder("templates")),
        static_folder=str(pages_folder("static")),
        instance_relative_config=True,
    )
    app.jinja_environment = Environment     # before anything asks for app.jinja_env
    app.config.from_mapping(
        MAX_CONTENT_LENGTH=security.BODY_MAX,
        WTF_CSRF_TIME_LIMIT=None,
        JSON_SORT_KEYS=False,
        TRUSTED_HOSTS=security.trusted_hosts(),
        SESSION_COOKIE_SAMESITE="Lax",      # Secure too over https: security.SessionInterface
    )
    if test_config is not None:
        app.config.from_mapping(test_config)
    app.request_class = Request
    app.session_interface = security.SessionInterface()
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = security.secret_key(app)
    # the engine's messages are rendered before they are encoded (i18n.localized); rendering
    # them while encoding (a provider of its own, with each shared reading group encoded
    # once) bought 6.3 % of API CPU on fresh hands and went (issue 37.2, bench/RESULTS.md
    # "Machinery (issue 37.2)")
    provider = DefaultJSONProvider(app)
    provider.ensure_ascii = False
    provider.sort_keys = False
    app.json = provider

    csrf.init_app(app)

    from . import (
        api,
        assets,
        circle_pages,
        errors,
        health,
        i18n,
        learn,
        ledger_api,
        ledger_pages,
        logs,
        pages,
        result_lists,
        rules,
        templating,
        unchanged,
    )

    i18n.init_app(app)
    templating.init_app(app)
    result_lists.init_app(app)  # the result's lists (templating's tiles)
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    csrf.exempt(api.bp)  # a JSON API for bots: no cookies, no session, no CSRF token
    app.register_blueprint(health.bp)
    rules.init_app(app)  # /rules and /rules/<id>
    ledger_api.init_app(app)  # the table ledger: database, migrations, JSON API, CLI
    csrf.exempt(ledger_api.bp)
    csrf.exempt(ledger_api.circles_bp)
    app.register_blueprint(ledger_pages.bp)  # the ledger's HTML pages (CSRF on every POST:
    csrf.exempt(ledger_pages.bp)             # its own hook, a table proof or the session's)
    circle_pages.init_app(app)  # the circles' pages (牌友圈), CSRF on every POST
    app.register_blueprint(learn.bp)  # the daily 何切 page
    logs.init_app(app)  # ledger tokens never reach a log
    errors.init_app(app)
    security.init_app(app)  # body and query limits, security headers
    health.init_app(app)  # /healthz answered without the per-request hooks (the same bytes)
    unchanged.init_app(app)  # a poll's or a table read's 304 decided below Flask (the same bytes)
    _behind_proxies(app)
    security.lower_host(app)  # host names without case: around every other WSGI layer
    assets.init_app(app)  # last: fingerprinted static files, /sw.js, page caching, compression
    _merge_hooks(app)
    return app


def _csrf_protect() -> None:
    """Flask-WTF's before-request check, with the request method looked at first: a GET (a
    page, the API's reads) returns at once instead of after the endpoint and exemption
    look-ups. The same answers: every other return of the check is a ``None`` too."""
    app = current_app
    if request.method not in app.config["WTF_CSRF_METHODS"]:
        return
    if not app.config["WTF_CSRF_ENABLED"] or not app.config["WTF_CSRF_CHECK_DEFAULT"]:
        return
    csrf.protect(apply_exemptions=True)


def _merge_hooks(app: Flask) -> None:
    """The app-wide before- and after-request hooks, each list run by one function in Flask's
    order (before: as registered, stopping at the first answer; after: last registered
    first): Flask looks each hook up and checks it for a coroutine on every request. Hooks
    registered later (the tests' own) still run, before ours as Flask orders them."""
    before = [(_csrf_protect if getattr(f, "__qualname__", "").startswith(
        "CSRFProtect.init_app.") and f.__name__ == "csrf_protect" else f)
        for f in app.before_request_funcs.get(None, [])]
    after = list(reversed(app.after_request_funcs.get(None, [])))

    def before_request():
        for func in before:
            rv = func()
            if rv is not None:
                return rv
        return None

    def after_request(response):
        for func in after:
            response = func(response)
        return response

    if before:
        app.before_request_funcs[None] = [before_request]
    if after:
        app.after_request_funcs[None] = [after_request]


def _behind_proxies(app: Flask) -> None:
    """``TRUSTED_PROXIES`` (``app.config``, else ``WEBCALC_TRUSTED_PROXIES``; default 0): with
    N > 0, the client's address is the N-th ``X-Forwarded-For`` value from the right (each
    trusted proxy appends the address it saw, so the values a client sends itself are further
    left and ignored), and the scheme is the nearest proxy's ``X-Forwarded-Proto`` (so a
    session cookie is ``Secure`` when the client used https). docs/SERVING.md says when to
    set it; set without a proxy, any client could pick its own address."""
    raw = app.config.get("TRUSTED_PROXIES")
    n = security.trusted_proxies() if raw is None else security.trusted_proxies(
        {"WEBCALC_TRUSTED_PROXIES": raw})
    app.config["TRUSTED_PROXIES"] = n
    if n:
        from werkzeug.middleware.proxy_fix import ProxyFix

        # Flask's documented way to wrap its WSGI callable (a method, to mypy)
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=n, x_proto=1)  # type: ignore[method-assign]
