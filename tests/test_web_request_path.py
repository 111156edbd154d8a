"""What a page's request path reads before the templates (issue 38, round 6): the form bound
as Flask-WTF binds it, with its fields' defaults handed over as the form's data."""

from __future__ import annotations

import pytest
from werkzeug.datastructures import MultiDict

from webcalc.web.forms import AnalyzeForm


@pytest.mark.parametrize("query", [
    {},
    {"hand": "123m456p789s1112z", "variant": "zhengzhou"},
    {"hand": "", "win_by": "discard", "melds": "pong 5m"},
])
def test_the_form_starts_from_each_fields_default(app, query):
    with app.test_request_context("/"):
        form = AnalyzeForm(MultiDict(query))
        assert {f.name: f.object_data for f in form} == {
            "variant": None, "hand": None, "melds": None, "indicator": None, "visible": None,
            "winning_tile": None, "history": None, "win_by": "self_draw"}
        assert form.win_by.data == query.get("win_by", "self_draw")
        assert form.hand.data == query.get("hand")
        assert form.variant.data == query.get("variant", "sanmenxia")
        assert form.validate()
