"""The URLs a page asks for that are the same on every page (static files, fixed pages in
the reader's language) built once per app (webcalc.web.assets.fixed_urls): ``url_for``'s
own, for each script root."""

from __future__ import annotations

from webcalc import create_app
from webcalc.web.assets import fixed_urls


def test_fixed_urls_are_url_for_s_per_script_root():
    app = create_app({"TESTING": True})
    url_for = app.jinja_env.globals["url_for"]
    for root in ("", "/calc", "", "/other", "/calc"):
        with app.test_request_context("/?lang=en", base_url=f"http://localhost{root}"):
            for endpoint, values in (("static", {"filename": "css/app.css"}),
                                     ("pages.index", {"lang": "en"}),
                                     ("pages.index", {"lang": None}),
                                     ("ledger_pages.new_table", {})):
                url = url_for(endpoint, **values)
                assert url == app.url_for(endpoint, **values)
                assert url.startswith(f"{root}/")
            assert url_for("static", filename="css/app.css").startswith(
                f"{root}/static/css/app.")


def test_fixed_urls_are_built_once_and_only_the_fixed_ones():
    app = create_app({"TESTING": True})
    built = []
    real = app.url_for
    app.url_for = lambda endpoint, **values: built.append(endpoint) or real(endpoint, **values)
    url_for = fixed_urls(app)
    with app.test_request_context("/"):
        for _ in range(3):
            url_for("static", filename="css/app.css")
            url_for("rules.index", lang="en")
        assert built == ["static", "rules.index"]
        url_for("pages.index", variant="zhengzhou", lang="en")      # a hand's URL: built
        url_for("pages.index", variant="zhengzhou", lang="en")
        assert len(built) == 4
        app.debug = True                                         # files may change: built
        url_for("static", filename="css/app.css")
        assert len(built) == 5
