"""The yardstick of issue 26.3: a minimal Flask app, one route returning a short text and
nothing else (no hooks, no session, no templates). bench/pages.py serves it exactly as it
serves webcalc (the Flask test client in-process, gunicorn with 2 workers) and reports
webcalc's ``/healthz`` and page/API mix as ratios against it.

``gunicorn 'minimal_app:create_app()'`` from bench/.
"""

from __future__ import annotations

from flask import Flask


def create_app() -> Flask:
    app = Flask("minimal")

    @app.get("/")
    def index():
        return "ok"

    return app
