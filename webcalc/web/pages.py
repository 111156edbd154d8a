"""The HTML pages: ``GET /`` (full page, or the panel fragment for htmx), the calculator's
home of a room (the read → redirect → analyse → render steps: :mod:`webcalc.web.room_page`),
and its share picture ``GET /card.png`` (:mod:`webcalc.web.cards`)."""

from __future__ import annotations

from flask import Blueprint

from .room_page import CALCULATOR, room_page

bp = Blueprint("pages", __name__)


@bp.get("/")
def index():
    return room_page(CALCULATOR)


@bp.get("/card.png")
def card():
    """The hand card: the picture of what ``/`` shows for the same query (docs/API.md
    "Pictures (share cards)")."""
    from .cards import hand_card

    return hand_card()
