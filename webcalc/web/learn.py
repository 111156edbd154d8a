"""The learner's pages: ``GET /quiz``, the day's 何切 problem (what to discard) of a variant.

The problem and its answer are the engine's (:func:`webcalc.quiz.daily_problem`, the same as
``GET /api/v1/quiz``); this page only shows them. ``?variant=`` picks the rule set (the first
of the engine's variants when absent), ``?date=YYYY-MM-DD`` a day (today, UTC, when absent),
``?pick=<tile>`` the learner's answer: a tile of the hand, tapped (a link, so it works without
JavaScript). The answer shows the pick's rank and the full 牌理 ranking with the rules it rests
on. ``static/js/quiz.js`` keeps the learner's streak and accuracy on the phone (localStorage);
nothing is stored on the server. docs/decisions.md "Daily 何切".
"""

from __future__ import annotations

from datetime import UTC, datetime

from flask import Blueprint, make_response, render_template, request

from ..errors import InputError
from ..tiles import parse_tiles
from ..variants import VARIANTS
from .htmx import add_vary
from .i18n import localized

bp = Blueprint("learn", __name__)


def _pick(problem: dict, text: str | None) -> tuple[dict | None, str | None]:
    """The ranking row of the picked discard, or why the pick cannot be read."""
    if not text:
        return None, None
    rows = {r["discard"]: r for r in problem["ranking"]}
    try:
        tiles = parse_tiles(text)
    except InputError:
        tiles = []
    if len(tiles) == 1 and tiles[0].code in rows:
        return rows[tiles[0].code], None
    return None, text


@bp.get("/quiz")
def quiz():
    from ..quiz import daily_problem

    variant = request.args.get("variant") or next(iter(VARIANTS))
    day = request.args.get("date") or datetime.now(UTC).date().isoformat()
    status = 200
    try:
        problem = daily_problem(variant, day)
    except InputError as err:
        problem, status = None, 422
        error, field = localized(err.message), err.field
    else:
        error = field = None
    picked, bad_pick = _pick(problem, request.args.get("pick")) if problem else (None, None)
    if bad_pick is not None:
        status = 422
    hand = [t.code for t in parse_tiles(problem["hand"])] if problem else []
    html = render_template("quiz.html", problem=problem, picked=picked, bad_pick=bad_pick,
                           hand=hand,
                           error=error, error_field=field, variant=variant, day=day,
                           variants=list(VARIANTS))
    return add_vary(make_response(html, status))
