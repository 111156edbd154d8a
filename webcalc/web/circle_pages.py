"""The circles' pages (牌友圈)."""

from __future__ import annotations

from flask import Blueprint, Flask

bp = Blueprint("circle_pages", __name__, url_prefix="/c")


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
