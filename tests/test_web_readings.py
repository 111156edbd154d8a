"""Cheap pages (issue 13.4): the readings list shows 20 and a "more" link; tiles, reading
groups and palette keys are drawn once per language and reused."""

from __future__ import annotations

import re

import pytest

from webcalc.web import templating

MANY = "/?variant=sanmenxia&hand=2222m1133m4455m66m&indicator=1m&winning_tile=6m"  # 339 readings
FEW = "/?variant=zhengzhou&hand=123m456p789s11122z"                                 # 1 reading


def readings(html: str) -> int:
    return html.count('<li class="reading')


def more_link(html: str) -> str | None:
    m = re.search(r'<p class="more-readings"><a href="([^"]+)" hx-get="([^"]+)"', html)
    if not m:
        return None
    assert m.group(1) == m.group(2)           # the same URL with and without JavaScript
    return m.group(1).replace("&amp;", "&")


def test_first_20_readings_then_a_more_link(client):
    html = client.get(MANY).get_data(as_text=True)
    assert readings(html) == 20
    assert "共 339 种，列出前 20 种" in html
    assert "再列 20 种拆法" in html
    assert more_link(html) == MANY + "&readings=40"
    assert '<details class="other-readings">' in html       # folded until asked for more


def test_more_link_lists_20_more_each_time_up_to_200(client):
    html = client.get(MANY + "&readings=40").get_data(as_text=True)
    assert readings(html) == 40
    assert "列出前 40 种" in html
    assert '<details class="other-readings" open>' in html   # unfolded: the reader asked
    assert more_link(html) == MANY + "&readings=60"
    html = client.get(MANY + "&readings=180").get_data(as_text=True)
    assert readings(html) == 180 and "再列 20 种拆法" in html
    html = client.get(MANY + "&readings=200").get_data(as_text=True)
    assert readings(html) == 200                             # all the engine lists
    assert "共 339 种，列出前 200 种" in html
    assert more_link(html) is None


def test_more_link_through_htmx_keeps_the_fragment(client):
    resp = client.get(MANY + "&readings=40", headers={"HX-Request": "true"})
    html = resp.get_data(as_text=True)
    assert resp.status_code == 200 and readings(html) == 40
    assert resp.headers["HX-Push-Url"] == MANY + "&readings=40"
    assert "<html" not in html


@pytest.mark.parametrize("value", ["30", "0", "abc", "400", "20"])
def test_other_readings_values_leave_the_canonical_url(client, value):
    resp = client.get(MANY + "&readings=" + value)
    assert resp.status_code == 303
    expected = MANY + ("&readings=200" if value == "400" else "")
    assert resp.headers["Location"] == expected


def test_few_readings_no_more_link(client):
    html = client.get(FEW).get_data(as_text=True)
    assert readings(html) == 1 and more_link(html) is None


def test_english_more_link(client):
    html = client.get(MANY + "&lang=en").get_data(as_text=True)
    assert "20 more readings" in html
    assert more_link(html) == MANY + "&readings=40&lang=en"


# -- the cached drawing ------------------------------------------------------------------------

CALLS = [("5m", {}), ("5m", {"size": "sm"}), ("1z", {"mark": True}), ("7z", {"plain": True}),
         ("3s", {"wild": True}), ("3s", {"wild": True, "face": "9p"}),
         ("3s", {"wild": True, "face": "9p", "plain": True, "size": "xs"}), ("xx", {})]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_cached_tile_is_the_macros_html(app, lang):
    with app.test_request_context(f"/?lang={lang}"):
        macros = app.jinja_env.get_template("_tiles.html").module
        for code, kw in CALLS:
            assert templating.tile(code, **kw) == macros.tile_markup(code, **kw)
            assert templating.tile(code, **kw) is templating.tile(code, **kw)   # reused
        label = "五万" if lang == "zh" else "5 Characters"
        assert f'aria-label="{label}"' in templating.tile("5m")


def test_cached_group_is_the_macros_html(app):
    g = {"kind": "sequence", "tiles": ["1m", "2m", "3m"], "wild": [True, False, False],
         "faces": ["9p", "2m", "3m"], "exposed": False}
    for lang in ("zh", "en"):
        with app.test_request_context(f"/?lang={lang}"):
            macros = app.jinja_env.get_template("_tiles.html").module
            assert templating.group(g) == macros.group_markup(g)
            assert ("九筒当一万" if lang == "zh" else "九筒 as 一万") in templating.group(g)


def test_palette_keys_built_once_per_language(client):
    templating._palette_key.cache_clear()
    client.get("/?variant=zhengzhou&hand=123m")
    first = templating._palette_key.cache_info()
    assert first.misses == 34                            # every key drawn once
    client.get("/?variant=sanmenxia&hand=123m")         # the same keys in use: all reused
    second = templating._palette_key.cache_info()
    assert second.misses == first.misses and second.hits >= 34
    client.get("/?variant=zhengzhou&hand=123m&lang=en")  # English: drawn once more
    assert templating._palette_key.cache_info().misses == 2 * 34
