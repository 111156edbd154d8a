"""tests/conftest.py's ``SharedTemplateCode``: every app a test process makes shares compiled
templates, and an app renders from that code what it would render from its own."""

from __future__ import annotations

from flask import Flask
from jinja2 import pass_context

from webcalc import create_app

SHARED_TEMPLATE_CODE = Flask(__name__).jinja_env.bytecode_cache   # tests/conftest.py's


def _render(app: Flask, name: str) -> str:
    with app.app_context():
        return app.jinja_env.get_template(name).render(name="x")


def test_apps_with_other_filters_or_i18n_policies_get_their_own_code(tmp_path):
    """Two apps with one template folder: a filter of constants is folded into the code
    (``{{ "abc"|shout }}``), a ``pass_context`` filter is called with its context, and the
    ``ext.i18n.trimmed`` policy trims ``{% trans %}`` when compiling; an app whose filters or
    policies differ renders what its own compile gives (before: the first app's code, so
    ``ABC|x!``, a TypeError and an untrimmed text)."""
    (tmp_path / "t.html").write_text('{{ "abc"|shout }}|{{ name|shout }}', encoding="utf-8")
    (tmp_path / "trans.html").write_text("{% trans %}  a\n   b  {% endtrans %}",
                                         encoding="utf-8")

    def app_with(shout, trimmed: bool) -> Flask:
        app = Flask(__name__, template_folder=str(tmp_path))
        app.jinja_env.filters["shout"] = shout
        app.jinja_env.add_extension("jinja2.ext.i18n")
        app.jinja_env.install_null_translations()
        app.jinja_env.policies["ext.i18n.trimmed"] = trimmed
        assert app.jinja_env.bytecode_cache is SHARED_TEMPLATE_CODE
        return app

    @pass_context
    def asks(context, s):
        return f"{s}?"

    first = app_with(str.upper, False)
    assert _render(first, "t.html") == "ABC|X"
    assert _render(first, "trans.html") == "  a\n   b  "
    second = app_with(lambda s: f"{s}!", True)
    assert _render(second, "t.html") == "abc!|x!"
    assert _render(second, "trans.html") == "a b"
    assert _render(app_with(asks, False), "t.html") == "abc?|x?"
    assert _render(app_with(str.upper, False), "t.html") == "ABC|X"


def test_create_apps_still_share_their_code():
    """Two apps of create_app (the same filters, tests and policies) look a template up
    under one key: the second loads the first's code instead of compiling."""
    keys = []
    for _ in range(2):
        env = create_app({"TESTING": True}).jinja_env
        source, filename, _ = env.loader.get_source(env, "index.html")
        bucket = SHARED_TEMPLATE_CODE.get_bucket(env, "index.html", filename, source)
        keys.append(bucket.key)
    assert keys[0] == keys[1]
