"""Cheap pages: the readings list shows 20 and a "more" link; tiles, reading
groups and palette keys are drawn once per language and reused."""

from __future__ import annotations

import re

import pytest

from webcalc.web import result_lists, templating

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


def test_a_group_names_its_wildcard_and_what_it_plays_as(app):
    """A wildcard 九筒 playing as 一万: drawn as its face beside the tile it plays as, and
    named so (the bytes of the macro it replaced: tests/test_web_render_cache.py)."""
    g = {"kind": "sequence", "tiles": ["1m", "2m", "3m"], "wild": [True, False, False],
         "faces": ["9p", "2m", "3m"], "exposed": False}
    for lang in ("zh", "en"):
        with app.test_request_context(f"/?lang={lang}"):
            html = result_lists.group(g)
            assert ("混：九筒当一万" if lang == "zh" else "wild: 9p as 1m") in html
            assert 'class="wild-pair" data-tile="1m" data-face="9p"' in html


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


CJK = re.compile(r"[\u3400-\u9fff]")
#: hands whose readings hold every kind of group label: wildcards standing in (a pair, a
#: sequence, a triplet, a free group), 十三不靠, 七对, 十三幺 with 拾 and 搶 tiles, melds
READING_PAGES = [
    "variant=zhengzhou&hand=123m456m789s111z5z1p&indicator=9p&winning_tile=5z",
    "variant=zhengzhou&hand=1p1p1p1p123m456m789s5z&indicator=9p&winning_tile=5z&readings=200",
    "variant=sanmenxia&hand=2222m1133m4455m66m&indicator=1m&winning_tile=6m&readings=200",
    "variant=sanmenxia&hand=111p123m456m789s55z&indicator=9p&winning_tile=5z&readings=200",
    "variant=panjin&hand=12355m456p789s111z&winning_tile=5m&opt_wildcard_mode=none",
    "variant=sanmenxia&hand=147m258p369s12345z&winning_tile=5z",
    "variant=sanmenxia&hand=1122m3344p5566s77z&winning_tile=7z",
    "variant=jincheng&hand=99m19p19s123456z&melds=拾1m 搶7z&winning_tile=9m",
    "variant=zhengzhou&hand=123m456p11122z&melds=碰777s@1&winning_tile=2z",
]


def readings_block(html: str) -> str:
    start = html.index('<section class="block readings">')
    return html[start:html.index("</section>", start)]


def without_drawn_tiles(html: str) -> str:
    """The block's text and attribute values (aria-label, title: read aloud), the faces of
    the drawn tiles (rank, suit and the 混 badge, hidden from screen readers) taken out."""
    html = re.sub(r'<span class="tile-(?:rank|suit|badge)" aria-hidden="true">[^<]*</span>', "",
                  html)
    values = re.findall(r'\s(?:aria-label|title)="([^"]*)"', html)
    return " ".join([re.sub(r"<[^>]+>", " ", html)] + values)


@pytest.mark.parametrize("query", READING_PAGES)
def test_english_readings_hold_no_chinese_outside_the_drawn_tiles(client, query):
    """English readings said "Pair 混：一筒 as 白": the wildcard note and the tile names
    are English (tiles by their codes, as the English messages name them)."""
    resp = client.get("/?" + query + "&lang=en", follow_redirects=True)
    assert resp.status_code == 200
    text = without_drawn_tiles(readings_block(resp.get_data(as_text=True)))
    assert not CJK.findall(text), sorted(set(CJK.findall(text)))


def test_english_wildcard_note_names_the_tiles_by_code(client):
    q = "/?" + READING_PAGES[0]
    en = readings_block(client.get(q + "&lang=en", follow_redirects=True).get_data(as_text=True))
    zh = readings_block(client.get(q, follow_redirects=True).get_data(as_text=True))
    assert '<span class="wild-note">wild: 1p as 5z</span>' in en
    assert '<span class="wild-note">混：一筒当白</span>' in zh
    many = readings_block(client.get("/?" + READING_PAGES[1] + "&lang=en",
                                     follow_redirects=True).get_data(as_text=True))
    assert "wild: 1p as 1m, 1p as 3m" in many        # several places: an English list


@pytest.mark.parametrize("kind, zh, en", [("拾", "拾", "taken (shi)"), ("搶", "搶", "taken (qiang)")])
def test_taken_tile_reads_its_own_name(client, kind, zh, en):
    """拾 and 搶 both read "拾/搶 单张": each taken tile says which it was, from the
    reading group's ``meld`` (the declared meld's type, also in the API)."""
    q = f"/?variant=jincheng&hand=99m19p19s1234567z&melds={kind}1m&winning_tile=9m"
    for lang, label, single in (("zh", zh, "单张"), ("en", en, "Single")):
        html = readings_block(client.get(q + f"&lang={lang}", follow_redirects=True)
                              .get_data(as_text=True))
        assert f'<span class="exposed-tag">{label}</span>{single}' in html
        assert "拾/搶" not in html and "shi/qiang" not in html
    resp = client.post("/api/v1/analyze", json={
        "variant": "jincheng", "hand": "99m19p19s1234567z", "winning_tile": "9m",
        "melds": [{"type": "shi" if kind == "拾" else "qiang", "tiles": "1m"}]})
    groups = resp.get_json()["decompositions"][0]["groups"]
    assert [(g["kind"], g.get("meld")) for g in groups if g["exposed"]] == [
        ("single", "shi" if kind == "拾" else "qiang")]
    assert all("meld" not in g for g in groups if not g["exposed"])
