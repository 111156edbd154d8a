"""The application factory."""

from __future__ import annotations

from pathlib import Path

from flask import Flask
from flask_wtf.csrf import CSRFProtect

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
    from .templating import Environment

    app.jinja_environment = Environment     # before anything makes app.jinja_env
    app.config.from_mapping(
        MAX_CONTENT_LENGTH=security.BODY_MAX,
        WTF_CSRF_TIME_LIMIT=None,
        JSON_SORT_KEYS=False,
        TRUSTED_HOSTS=security.trusted_hosts(),
        SESSION_COOKIE_SAMESITE="Lax",      # Secure too over https: security.SessionInterface
    )
    if test_config is not None:
        app.config.from_mapping(test_config)
    app.session_interface = security.SessionInterface()
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = security.secret_key(app)
    from .json_provider import MessageJSONProvider

    app.json = MessageJSONProvider(app)     # a Message renders in the response's language
    app.json.ensure_ascii = False
    app.json.sort_keys = False

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
        rules,
        templating,
    )

    i18n.init_app(app)
    templating.init_app(app)
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    csrf.exempt(api.bp)  # a JSON API for bots: no cookies, no session, no CSRF token
    app.register_blueprint(health.bp)
    rules.init_app(app)  # /rules and /rules/<id>
    ledger_api.init_app(app)  # the table ledger: database, migrations, JSON API, CLI
    csrf.exempt(ledger_api.bp)
    csrf.exempt(ledger_api.circles_bp)
    app.register_blueprint(ledger_pages.bp)  # the ledger's HTML pages (CSRF on every POST)
    circle_pages.init_app(app)  # the circles' pages (牌友圈), CSRF on every POST
    app.register_blueprint(learn.bp)  # the daily 何切 page
    logs.init_app(app)  # ledger tokens never reach a log
    errors.init_app(app)
    security.init_app(app)  # body and query limits, security headers
    _behind_proxies(app)
    assets.init_app(app)  # last: fingerprinted static files, /sw.js, page caching, compression
    return app


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

        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=n, x_proto=1)
