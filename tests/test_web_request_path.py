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


@pytest.mark.parametrize("url, header, lang", [
    ("/", "zh-CN,zh;q=0.9,en;q=0.8", "zh"),
    ("/", "en-US,en;q=0.9", "en"),
    ("/?lang=zh", "en-US,en;q=0.9", "zh"),
    ("/?lang=en", "zh-CN", "en"),
    ("/", "", "zh"),
])
def test_the_language_is_chosen_once_per_request(app, url, header, lang):
    """``select_locale`` keeps its choice on the request: the room's reading
    (``current_lang``) and Flask-Babel's catalogue agree, and the next request chooses
    again."""
    import flask_babel

    from webcalc.web.i18n import current_lang, select_locale

    for first, second in ((header, "en-GB" if lang == "zh" else "zh-TW"), (header, header)):
        with app.test_request_context(url, headers={"Accept-Language": first}):
            assert current_lang() == lang
            assert str(flask_babel.get_locale()) == ("en" if lang == "en" else "zh_Hans_CN")
            assert select_locale() == select_locale()
        with app.test_request_context("/", headers={"Accept-Language": second}):
            assert current_lang() == ("en" if second.startswith("en") else "zh")
    resp = app.test_client().get(url, headers={"Accept-Language": header})
    html = resp.get_data(as_text=True)
    assert ('<html lang="en">' if lang == "en" else '<html lang="zh-Hans">') in html



@pytest.mark.parametrize("url, header", [
    ("/", "zh-CN,zh;q=0.9,en;q=0.8"), ("/", "en-US,en;q=0.9"), ("/?lang=en", "zh-CN"),
    ("/?lang=zh", "en"), ("/", ""),
])
def test_the_requests_catalogue_is_flask_babels(app, url, header):
    """The request's catalogue, taken from Flask-Babel's cache by the locale chosen
    (``RequestDomain._catalogue``), is the one Flask-Babel's own look-up gives, in a request
    whose locale Flask-Babel's cache has not yet seen too; Flask-Babel's gettext reads it."""
    import flask_babel

    from webcalc.web.i18n import _request_i18n, babel

    babel.domain_instance.cache.clear()
    for _ in range(2):                  # Flask-Babel's cache empty (filled by the miss), full
        with app.test_request_context(url, headers={"Accept-Language": header}):
            translations, lang = _request_i18n()
            assert lang == ("en" if str(flask_babel.get_locale()) == "en" else "zh")
            assert flask_babel.gettext("Result") == translations.ugettext("Result")
        with app.test_request_context(url, headers={"Accept-Language": header}):
            assert flask_babel.Domain.get_translations(babel.domain_instance) is translations


#: Vary values a response may carry before the pages' hooks add theirs
_VARY_BEFORE = [None, "Accept-Language", "Origin, Accept-Language", "origin",
                "HX-Request, HX-Request-Type, HX-History-Restore-Request, Accept-Language",
                "Cookie,Origin", "Cookie ,  Origin", '"quoted", Cookie', "a,,b", "", "*",
                ("Cookie", "Origin")]


@pytest.mark.parametrize("before", _VARY_BEFORE)
@pytest.mark.parametrize("names", [("Accept-Language",), ("Accept-Encoding",),
                                   ("HX-Request", "HX-Request-Type",
                                    "HX-History-Restore-Request", "Accept-Language"),
                                   ("origin", "Cookie")])
def test_vary_on_writes_what_werkzeug_writes(before, names):
    from werkzeug.wrappers import Response

    from webcalc.web.htmx import vary_on

    ours, theirs = Response("x"), Response("x")
    for r in (ours, theirs):
        for value in ((before,) if isinstance(before, str) else before or ()):
            r.headers.add("Vary", value)
    vary_on(ours, names)
    theirs.vary.update(names)
    assert ours.headers.to_wsgi_list() == theirs.headers.to_wsgi_list()
    assert ours.headers.getlist("Vary") == theirs.headers.getlist("Vary")
