"""The HTML pages: ``GET /`` (full page, or the panel fragment for htmx)."""

from __future__ import annotations

from urllib.parse import urlencode, urlsplit

from flask import Blueprint, make_response, redirect, render_template, request

from ..analysis import VARIANT_LABELS
from ..errors import InputError
from .forms import TEXT_FIELDS, AnalyzeForm
from .htmx import add_vary, is_htmx, wants_fragment

bp = Blueprint("pages", __name__)

EXAMPLE_HAND = "123m456p789s1134z"


QUERY_KEYS = ("variant",) + TEXT_FIELDS


def canonical_url() -> str:
    """``/`` with the non-empty form fields in a fixed order: the shareable URL."""
    pairs = [(k, request.args.get(k, "")) for k in QUERY_KEYS]
    query = urlencode([(k, v) for k, v in pairs if v.strip()])
    return "/?" + query if query else "/"


@bp.get("/")
def index():
    canonical = canonical_url()
    here = request.full_path.rstrip("?")
    if canonical != here and not is_htmx(request):
        return add_vary(redirect(canonical, 303))

    form = AnalyzeForm(request.args)
    result = None
    shown = None  # the typed hand and melds, as tile codes, to draw above the result
    general_error = None  # an InputError that belongs to no form field
    status = 200

    if form.submitted:
        if not form.validate():
            status = 422
        else:
            try:
                req = form.to_request()
                result = _analyze(req)
                shown = _shown_tiles(req)
            except InputError as err:
                status = 422
                _attach(form, err)
                if not _field_of(err):
                    general_error = err
    elif "variant" in request.args and not form.variant.validate(form):
        status = 422

    template = "_panel.html" if wants_fragment(request) else "index.html"
    html = render_template(
        template,
        form=form,
        result=result,
        general_error=general_error,
        shown=shown,
        example_hand=EXAMPLE_HAND,
        variant_label=dict(VARIANT_LABELS).get(form.variant.data, form.variant.data),
    )
    response = make_response(html, status)
    if is_htmx(request):
        # The form pushes its raw URL; name the canonical one instead, and replace rather
        # than push when the page already shows it (a submit right after a change).
        current = urlsplit(request.headers.get("HX-Current-URL", ""))
        shown = current.path + ("?" + current.query if current.query else "")
        header = "HX-Replace-Url" if shown == canonical else "HX-Push-Url"
        response.headers[header] = canonical
    return add_vary(response)


def _analyze(req: dict) -> dict:
    from ..analysis import analyze

    return analyze(req)


def _shown_tiles(req: dict) -> dict:
    """The hand (sorted) and the melds as tile codes, only for drawing them."""
    from ..tiles import parse_tiles

    return {
        "hand": [t.code for t in sorted(parse_tiles(req["hand"]))],
        "indicator": [t.code for t in parse_tiles(req.get("indicator", ""))],
        "melds": [
            {"type": m.get("type"), "tiles": [t.code for t in parse_tiles(m.get("tiles", ""))]}
            for m in req.get("melds", [])
        ],
    }


def _field_of(err: InputError) -> str | None:
    """The form field an engine error belongs to (``"melds"`` for ``"melds.0.tiles"``)."""
    top = (err.field or "").split(".")[0]
    if top == "variant" or top in TEXT_FIELDS:
        return top
    return None


def _attach(form: AnalyzeForm, err: InputError) -> None:
    name = _field_of(err)
    if name:
        field = getattr(form, name)
        field.errors = list(field.errors or []) + [err.message]
        field.error_position = err.position
