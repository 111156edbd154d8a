"""Templates compiled once per language with their literal messages folded into the code
(webcalc.web.i18n.FoldedMessages): the same bytes as the runtime ``_()``."""

from __future__ import annotations

import pytest
from jinja2 import ChoiceLoader, DictLoader

from webcalc import create_app

#: each form a message takes in a template: alone, filtered, set, with variables (escaped),
#: with HTML in it, as adjacent literals, not a literal (a runtime call), inside an expression
SOURCE = ('{{ _("Result") }}|{{ _("Result")|lower }}|{% set t = _("Result") %}{{ t }}|'
          '{{ _("%(n)s tiles", n=n) }}|{{ _("%(n)s tiles", n="<b>") }}|'
          '{{ _("<strong>混单吊</strong>: any tile drawn wins (the wildcard is the pair).") }}|'
          '{{ _("Res" "ult") }}|{{ _(word) }}|{{ [_("Result"), "<i>"]|join(",") }}|'
          '{{- _("Result") -}} |')


@pytest.fixture()
def app():
    app = create_app({"TESTING": True})
    app.jinja_env.loader = ChoiceLoader([DictLoader({"folded.html": SOURCE}),
                                         app.jinja_env.loader])
    return app


@pytest.mark.parametrize("lang, result", [("zh", "分析结果"), ("en", "Result")])
def test_folded_messages_render_what_the_runtime_calls_render(app, lang, result):
    with app.test_request_context(f"/?lang={lang}"):
        folded = app.jinja_env.get_template("folded.html").render(n=3, word="Result")
        runtime = app.jinja_env.from_string(SOURCE).render(n=3, word="Result")
    assert folded == runtime
    parts = folded.split("|")
    assert parts[0] == parts[2] == parts[6] == parts[7] == parts[9] == result
    assert parts[3] == ("3 张" if lang == "zh" else "3 tiles")
    assert parts[4] == ("&lt;b&gt; 张" if lang == "zh" else "&lt;b&gt; tiles")
    assert parts[5].startswith("<strong>")
    assert parts[8] == f"{result},&lt;i&gt;"


@pytest.mark.parametrize("lang, skip", [("zh", "跳到正文"), ("en", "Skip to the content")])
def test_the_code_holds_each_language_s_text_not_a_lookup(app, lang, skip):
    """base.html's messages are all literals: its code for a language writes their text and
    never asks for ``_``; ``_result.html``'s messages with variables call ``_msg`` with the
    text already translated."""
    env = app.jinja_env
    with app.test_request_context(f"/?lang={lang}"):
        source, filename, _ = env.loader.get_source(env, "base.html")
        code = env.compile(source, "base.html", filename, raw=True)
        result_code = env.compile(*env.loader.get_source(env, "_result.html")[:1],
                                  "_result.html", raw=True)
    assert "resolve('_')" not in code
    assert repr(skip)[1:-1] in code
    assert "'_msg'" in result_code or "resolve('_msg')" in result_code
    assert ("Cannot analyse" in result_code) == (lang == "en")
    assert ("无法分析" in result_code) == (lang == "zh")


def test_each_language_compiles_a_template_once(app):
    env = app.jinja_env
    with app.test_request_context("/?lang=zh"):
        zh = env.get_template("base.html")
    with app.test_request_context("/", headers={"Accept-Language": "en"}):
        en = env.get_template("base.html")
    with app.test_request_context("/"):
        assert env.get_template("base.html") is zh
    assert en is not zh
    unfolded = env.get_template("base.html")     # no app: no language, the runtime ``_()``
    assert unfolded not in (zh, en)
    with app.app_context():                      # no request to choose a language: the same
        assert env.get_template("base.html") is unfolded


def test_a_shared_bytecode_cache_keeps_each_language_s_code():
    """The tests' apps share compiled code (tests/conftest.py): an app whose templates were
    compiled for Chinese first still renders English in English."""
    first = create_app({"TESTING": True})
    assert "分析结果" in first.test_client().get("/?variant=zhengzhou&hand=123m456p789s1122z",
                                              follow_redirects=True).text
    second = create_app({"TESTING": True})
    page = second.test_client().get("/?variant=zhengzhou&hand=123m456p789s1122z&lang=en",
                                    follow_redirects=True).text
    assert "Result" in page and "分析结果" not in page and "Rules explained" in page


@pytest.mark.parametrize("text", [
    "%(n)s left", "%(n)s 种 %(m)s 张", "<b>%(n)s</b> and %(m)s", "50%% of %(n)s", "%%(n)s",
    "no conversion", "%(n)d tiles", "%(x).1f", "%(n)r", "%(n)s%%%(m)s"])
def test_fill_is_markups_percent(text):
    """:func:`i18n.fill` gives what ``Markup(text) % variables`` gives (its fast path takes
    only ``%(name)s`` and ``%%``), escaping every kind of value; a malformed text fails as
    Markup's ``%`` fails."""
    from markupsafe import Markup

    from webcalc.web.i18n import fill

    for n, m in ((3, "<i>&"), (2.5, Markup("<em>ok</em>")), (None, True), ("'\"", 0)):
        variables = {"n": n, "m": m, "x": 1.25, "extra": "<x>"}
        try:
            want = Markup(text) % variables
        except (TypeError, ValueError) as err:
            with pytest.raises(type(err)):
                fill(text, variables)
            continue
        got = fill(text, variables)
        assert got == want and isinstance(got, Markup), (text, variables)
    assert fill("%(n)s left", {"n": "<b>"}) == "&lt;b&gt; left"
    with pytest.raises(ValueError):
        fill("%(n)s at 100%", {"n": 1})


#: a message followed by what Jinja allows after any expression: a subscript, a method
POSTFIX = {"index.html": '{{ _("Result")[0] }}|{{ _("Result")[1:] }}',
           "method.html": '{{ _("Result").upper() }}|{{ _("Result").replace("R", "r") }}'}


@pytest.mark.parametrize("lang, result", [("zh", "分析结果"), ("en", "Result")])
@pytest.mark.parametrize("name", sorted(POSTFIX))
def test_a_folded_message_takes_a_subscript_or_a_method(lang, result, name):
    """``_("Result")[0]`` and ``_("Result").upper()`` are valid Jinja the runtime ``_()``
    renders; folded, the constant was written ``"分析结果"|safe``, so the subscript became a
    syntax error and the method a filter named ``safe.upper``: such a template failed to
    compile in a request (a 500 on its page, and warm_pages raising in gunicorn's master)
    though it compiled outside one."""
    app = create_app({"TESTING": True})
    app.jinja_env.loader = ChoiceLoader([DictLoader(POSTFIX), app.jinja_env.loader])
    with app.test_request_context(f"/?lang={lang}"):
        folded = app.jinja_env.get_template(name).render()
        runtime = app.jinja_env.from_string(POSTFIX[name]).render()
    assert folded == runtime
    expected = {"index.html": f"{result[0]}|{result[1:]}",
                "method.html": f"{result.upper()}|{result.replace('R', 'r')}"}[name]
    assert folded == expected
