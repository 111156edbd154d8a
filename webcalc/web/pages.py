"""The HTML pages: ``GET /`` (full page, or the panel fragment for htmx), the calculator's
home of a room (the read → redirect → analyse → render steps: :mod:`webcalc.web.room_page`)."""

from __future__ import annotations

from flask import Blueprint

from .room_page import CALCULATOR, room_page

bp = Blueprint("pages", __name__)


@bp.get("/")
def index():
    return room_page(CALCULATOR)
