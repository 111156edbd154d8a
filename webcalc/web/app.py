"""The application factory."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from flask import Flask
from flask_wtf.csrf import CSRFProtect

#: ``templates/`` and ``static/`` sit at the repository root, next to the package.
ROOT = Path(__file__).resolve().parent.parent.parent

csrf = CSRFProtect()


def create_app(test_config: dict | None = None) -> Flask:
    """Create the webcalc Flask app.

    ``test_config`` (a mapping) overrides the defaults, as in Flask's tutorial. The secret key
    comes from ``test_config``, else the environment (``WEBCALC_SECRET_KEY`` or
    ``SECRET_KEY``), else a random key kept in ``instance/secret_key`` (made on first run).
    """
    app = Flask(
        "webcalc",
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
        instance_relative_config=True,
    )
    app.config.from_mapping(
        MAX_CONTENT_LENGTH=256 * 1024,
        WTF_CSRF_TIME_LIMIT=None,
        JSON_SORT_KEYS=False,
    )
    if test_config is not None:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(app)
    app.json.ensure_ascii = False
    app.json.sort_keys = False

    csrf.init_app(app)

    from . import api, errors, pages, templating

    templating.init_app(app)
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    csrf.exempt(api.bp)  # a JSON API for bots: no cookies, no session, no CSRF token
    errors.init_app(app)
    return app


def _secret_key(app: Flask) -> str:
    env = os.environ.get("WEBCALC_SECRET_KEY") or os.environ.get("SECRET_KEY")
    if env:
        return env
    if app.testing:
        return secrets.token_hex(32)
    path = Path(app.instance_path) / "secret_key"
    try:
        return path.read_text(encoding="ascii").strip() or _new_key(path)
    except FileNotFoundError:
        return _new_key(path)
    except OSError:
        return secrets.token_hex(32)


def _new_key(path: Path) -> str:
    key = secrets.token_hex(32)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(key + "\n", encoding="ascii")
        path.chmod(0o600)
    except OSError:
        pass  # a read-only checkout still serves, with a per-process key
    return key
