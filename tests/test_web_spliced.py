"""The calculator's full page from its head and foot rendered once per language, the panel
spliced in (templating.spliced, room_page.SHELL_CACHE), is byte for byte what a render at
each request gives, in either language, with or without ``?lang=``, under a script root; an
entry made for one language is never served in the other."""

from __future__ import annotations

import pytest

from webcalc.web import templating

HAND = "/?variant=zhengzhou&hand=123m456p789s111z22z&winning_tile=2z"
SETTLED = HAND + "&s_dealer=0&s_winner=0"
URLS = [
    "/",
    "/?lang=en",
    "/?lang=zh",
    HAND,
    HAND + "&lang=en",
    HAND + "&lang=zh",
    SETTLED,
    SETTLED + "&lang=en",
    SETTLED + "&n0=A%26B%22%3C&lang=en",                      # & " < in the state
    HAND + "&s_dealer=x&s_winner=0",                            # an error under 庄家
    "/?variant=zhengzhou&hand=1m%3Cb%3E%26%22",                 # a bad hand: < & " in the title
    "/?variant=zhengzhou&hand=1m%3Cb%3E%26%22&lang=en",
    "/?variant=nowhere&hand=123m",                               # an unknown rule set
    "/?variant=panjin&hand=123m789p111z456s8s&indicator=3z&readings=40",
    "/?variant=sanmenxia&hand=123m456p789s11z&melds=明杠2222z&winning_tile=1z"
    "&s_dealer=0&s_winner=0",
    "/?variant=jincheng&hand=19m19p19s1234567z&lang=en",
    "/?variant=zhengzhou&hand=123m456p789s11z&indicator=9x&melds=%3Ci%3E",   # typed-input errors
    "/?variant=sanmenxia&hand=123m456p789s11z12z&winning_tile=2z&history=7z7z+1m2m"
    "&visible=%22%26%3C&lang=en",                                # the turns, & " < in a value
    "/?variant=jincheng&hand=123m456p789s11122z&winning_tile=2z&win_by=discard"
    "&s_dealer=0&s_winner=1&s_discarder=2&s_dready=0",
]
#: a browser that says nothing, one that asks for English, one for Chinese; and htmx
HEADERS = [{}, {"Accept-Language": "en"}, {"Accept-Language": "zh-CN,zh;q=0.9"},
           {"HX-Request": "true"}, {"HX-Request": "true", "Accept-Language": "en"}]


def _canonical(client, url: str) -> str:
    resp = client.get(url)
    return resp.headers["Location"] if resp.status_code == 303 else url


def _pages(client, urls, monkeypatch, cached: bool, base_url: str = "http://localhost/"):
    monkeypatch.setattr(templating, "SPLICED", cached)
    out = {}
    for url in urls:
        for i, headers in enumerate(HEADERS):
            resp = client.get(url, headers=headers, base_url=base_url)
            assert resp.status_code in (200, 422), url
            out[url, i] = (resp.status_code, resp.get_data(as_text=True))
    return out


def test_spliced_pages_equal_renders_at_each_request(client, monkeypatch):
    urls = [_canonical(client, url) for url in URLS]
    templating._spliced.clear()
    fresh = _pages(client, urls, monkeypatch, cached=False)
    assert not templating._spliced
    # every entry made, then reused after the other languages' were made (both orders)
    for order in (urls, urls[::-1]):
        assert _pages(client, order, monkeypatch, cached=True) == fresh
    # zh and en without ?lang= (Accept-Language decides), and ?lang=zh, ?lang=en
    langs = {("zh", None), ("en", None), ("zh", "zh"), ("en", "en")}
    keys = {k[1:4] for k in templating._spliced}
    assert keys == {(name, *k) for k in langs
                    for name in ("index.html", "_hand_line.html", "_typed_inputs.html",
                                 "_toolbar.html")}
    # the fold per rule set's turns: some rule sets take the winner's turns (with their help)
    folds = {k[5] for k in templating._spliced if k[1] == "_typed_inputs.html"}
    assert (False, "") in folds and any(turns for turns, _help in folds)
    html = {k: v[1] for k, v in fresh.items()}
    settled = _canonical(client, SETTLED)
    assert '<html lang="zh-Hans">' in html[settled, 0]
    assert '<html lang="en">' in html[settled, 1]                  # Accept-Language alone
    assert "Skip to the result" in html[settled, 1]
    assert "Skip to the result" not in html[settled, 0]
    assert html[settled, 3].startswith("<title>")                  # the fragment: no head
    turns = html[_canonical(client, URLS[-2]), 0]
    assert 'id="history"' in turns and 'value="&#34;&amp;&lt;"' in turns
    assert "has-error" in html[_canonical(client, URLS[-3]), 0].split('id="more"')[1]
    bad = html["/?variant=zhengzhou&hand=1m%3Cb%3E%26%22", 0]
    assert "<b>" not in bad.split("<title>")[1].split("</title>")[0]
    assert "&lt;b&gt;" in bad.split("<title>")[1].split("</title>")[0]


@pytest.mark.parametrize("first", ["zh", "en"])
def test_one_language_never_served_in_the_other(client, monkeypatch, first):
    monkeypatch.setattr(templating, "SPLICED", True)
    templating._spliced.clear()
    headers = {"zh": {}, "en": {"Accept-Language": "en"}}
    order = [first, "en" if first == "zh" else "zh"]
    url = _canonical(client, SETTLED)
    pages = {lang: client.get(url, headers=headers[lang]).get_data(as_text=True)
             for lang in order}
    assert pages["en"].startswith('<!doctype html>\n<html lang="en">')
    assert pages["zh"].startswith('<!doctype html>\n<html lang="zh-Hans">')
    assert "Mahjong calculator" in pages["en"].split("</head>")[1].split("<main")[0]
    assert "Mahjong calculator" not in pages["zh"].split("</head>")[1].split("<main")[0]
    assert "Rules explained" in pages["en"].split("<footer")[1]
    assert "Rules explained" not in pages["zh"].split("<footer")[1]


def test_script_root_is_part_of_the_key(client, monkeypatch):
    url = _canonical(client, SETTLED)
    templating._spliced.clear()
    fresh = _pages(client, [url], monkeypatch, cached=False, base_url="http://localhost/calc/")
    assert 'href="/calc/static/' in fresh[url, 0][1]
    _pages(client, [url], monkeypatch, cached=True)                  # entries at the root
    assert _pages(client, [url], monkeypatch, cached=True,
                  base_url="http://localhost/calc/") == fresh


def test_spliced_entries_are_bounded(client, monkeypatch):
    monkeypatch.setattr(templating, "SPLICED_MAX", 2)
    templating._spliced.clear()
    for url in ("/", "/?lang=en", "/?lang=zh"):
        assert client.get(url).status_code == 200
        assert len(templating._spliced) <= 2


def test_a_value_read_otherwise_than_plainly_is_rendered_afresh(app):
    """A template that shows a sentinel other than its values' (a filter turned one into
    something else) is rendered with the values, not cached."""
    templating._spliced.clear()
    with app.test_request_context("/"):
        env = app.jinja_env
        tpl = env.from_string("<p>{{ x|replace('x', 'y') }} {{ y }}</p>")
        real_get = env.get_template
        env.get_template = lambda name, *a, **k: tpl if name == "odd.html" else real_get(name)
        try:
            assert templating.spliced("odd.html", x="a&x", y="<b>") == \
                "<p>a&amp;y &lt;b&gt;</p>"
            assert templating.spliced("odd.html", x="x", y="z") == "<p>y z</p>"
        finally:
            env.get_template = real_get
    assert not templating._spliced


def test_a_new_app_never_reads_an_old_apps_copies(monkeypatch):
    """Two apps in turn, each drawing the calculator's page and a room, the first dropped
    before the second is made: a Python id is reused once its object is collected (here
    every id made the same, as a reused one would be). The second app, whose theme colour
    differs, is drawn with its own, never the first app's copies, and each app's pieces
    and room sections are kept under a key of its own (the caches were keyed by id(app):
    webcalc.web.i18n.app_key now)."""
    import builtins
    import gc

    from webcalc import create_app
    from webcalc.web import i18n, room_page

    templating._spliced.clear()
    room_page._room_html.clear()
    for module in (templating, room_page, i18n):     # every id() the same: a reused id
        monkeypatch.setattr(module, "id", lambda _obj: 1, raising=False)
    assert templating.id(object()) == 1 and builtins.id(object()) != 1
    pages = []
    for colour in ("#111111", "#222222"):
        app = create_app({"TESTING": True})
        app.jinja_env.globals["THEME_COLORS"] = {"light": colour, "dark": colour}
        pages.append(app.test_client().get(SETTLED, follow_redirects=True).get_data(as_text=True))
        del app
        gc.collect()
    first, second = pages
    assert 'content="#111111"' in first and "#222222" not in first
    assert 'content="#222222"' in second and "#111111" not in second
    # each app's copies under a key of its own: the spliced pieces, the room's sections
    assert len({k[0] for k in templating._spliced}) == 2
    assert len({k[0] for k in room_page._room_html}) == 2
