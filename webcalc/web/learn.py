"""The learner's pages: ``GET /quiz``, the day's 何切 problem (what to discard) of a variant.

The problem and its answer are the engine's (:func:`webcalc.quiz.daily_problem`, the same as
``GET /api/v1/quiz``); this page only shows them. ``?variant=`` picks the rule set (the first
of the engine's variants when absent), ``?date=YYYY-MM-DD`` a day (today, UTC, when absent),
``?pick=<tile>`` the learner's answer: a tile of the hand, tapped (a link, so it works without
JavaScript). The answer shows the pick's rank and the full 牌理 ranking with the rules it rests
on. ``static/js/quiz.js`` keeps the learner's streak and accuracy on the phone (localStorage);
nothing is stored on the server. docs/decisions.md "Daily 何切".

``GET /review`` is the hand review (牌谱复盘): the state and its taps are
:mod:`webcalc.web.review`'s, the review the engine's (:func:`webcalc.story.review`).
"""

from __future__ import annotations

from datetime import UTC, datetime

from flask import Blueprint, make_response, redirect, render_template, request

from ..errors import InputError
from ..tiles import parse_tiles
from ..variants import VARIANTS
from .htmx import add_vary, is_htmx, wants_fragment
from .i18n import localized
from .room_page import asked_url

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


@bp.get("/review")
def review():
    """The hand review: a tap is a one-off URL action answered by a 303 to the canonical URL
    (under htmx: the fragment, with HX-Push-Url); the page renders the engine's review."""
    from . import review as rv

    st = rv.read_state(request.args)
    if st.canonical != asked_url() and not is_htmx(request) and st.message is None:
        return add_vary(make_response(redirect(st.canonical, 303)))
    rv.run(st)
    template = "_review.html" if wants_fragment(request) else "review.html"
    html = render_template(template, st=st, shown=st.shown, palette=rv.PALETTE,
                           MODE_LABELS=rv.MODE_LABELS, variants=list(VARIANTS),
                           turn_of=rv.review_turn)
    response = make_response(html, st.status)
    if is_htmx(request):
        response.headers["HX-Push-Url"] = st.canonical
    return add_vary(response)
