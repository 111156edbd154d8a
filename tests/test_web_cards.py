"""The hand card (分享图片): ``GET /card.png?<the calculator's query>`` (docs/API.md "Pictures
(share cards)"): the picture of what the calculator page shows for the same query, read by
the page's own functions; the page's errors as JSON with the page's status; ETag and 304;
any name drawn; the share block on a settled result."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from webcalc.tiles import parse_tiles
from webcalc.variants import VARIANTS
from webcalc.web import card_draw

from .cards import BYTES_MAX, WIDTH_MAX, WIDTH_MIN, picture, qr_texts, settled_hand
from .scale import examples

#: a 郑州-style room with a wildcard indicator, 跑 and renamed seats is any variant's room
#: where the variant has them; the hand is found per variant by the engine (tests/cards.py)


def settled_query(variant: str, **extra: str) -> dict[str, str]:
    return {"variant": variant, **settled_hand(variant), "s_winner": "0", **extra}


def card(client, query: dict | str, **kw):
    """The card of ``query`` after the redirect to its canonical query (as a browser)."""
    q = query if isinstance(query, str) else urlencode(query)
    return client.get("/card.png?" + q, follow_redirects=True, **kw)


def page_url(resp) -> str:
    """The calculator page of the card ``resp`` answered: its URL with ``/card.png`` → ``/``."""
    req = resp.request
    return req.host_url + "?" + req.query_string.decode("ascii")


def check_png(resp):
    assert resp.status_code == 200, resp.get_data(as_text=True)[:500]
    assert resp.mimetype == "image/png"
    assert len(resp.data) <= BYTES_MAX
    img = picture(resp.data)
    assert WIDTH_MIN <= img.width <= WIDTH_MAX
    assert 600 <= img.height <= 4000
    return img


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_each_variant_draws_its_hand_card(client, variant, lang):
    resp = card(client, settled_query(variant, n0="小王😀", lang=lang))
    check_png(resp)
    # the QR code is the calculator page of this very query, absolute, and that page is
    # the canonical one (no redirect): the picture shows what it shows
    url = page_url(resp)
    assert url.startswith("http://localhost/?variant=" + variant)
    assert qr_texts(resp.data) == [url]
    assert client.get(url).status_code == 200
    assert resp.headers["Cache-Control"] == "public, max-age=600"
    assert "Accept-Language" in resp.headers["Vary"]


def test_a_hand_with_wildcards_melds_and_bets_draws(client):
    # a 13-tile hand with a meld, the indicator and seen tiles: no settlement, the waits
    variant = next(iter(VARIANTS))
    query = {"variant": variant, "hand": "1m1m2m3m4m5m6m7m8m9m", "melds": "碰555p",
             "visible": "2z"}
    check_png(card(client, query))


def test_the_card_url_of_a_typed_query_is_the_pages_canonical_one(client):
    # the card reads the query with the page's own reader: Chinese notation, a spoken tile,
    # the page's canonical order; both answer 303 to the same state
    query = urlencode({"hand": "一二三万 456p 789s 东东东 南南", "variant": next(iter(VARIANTS)),
                       "s_winner": "0", "s_dealer": "0", "winning_tile": "南"})
    page = client.get("/?" + query)
    pic = client.get("/card.png?" + query)
    assert page.status_code == pic.status_code == 303
    assert pic.headers["Location"] == page.headers["Location"].replace("/?", "/card.png?", 1)


@pytest.mark.parametrize("query, code", [
    ({"hand": "123x"}, "bad_tile"),
    ({"hand": "123m456p789s11122z", "winning_tile": "9p"}, "not_in_hand"),
    ({"hand": "19m19p19s1234567z7z", "s_winner": "0", "s_dealer": "0"}, None),
    ({"hand": "123m456p789s1122z", "s_base": "abc", "s_winner": "0"}, None),
    ({"hand": "123m", "variant": "nowhere"}, "unknown_variant"),
])
def test_an_error_of_the_page_is_the_cards_error_as_json(client, query, code):
    q = urlencode({"variant": next(iter(VARIANTS)), **query})
    page = client.get("/?" + q, follow_redirects=True)
    pic = client.get("/card.png?" + q, follow_redirects=True)
    if page.status_code == 200:          # some variant settles it: then it is a picture
        check_png(pic)
        return
    assert pic.status_code == page.status_code
    assert pic.mimetype == "application/json"
    err = pic.get_json()["error"]
    assert set(err) >= {"code", "message", "field"} and err["message"]
    if code:
        assert err["code"] == code


def test_nothing_to_picture_is_422(client):
    resp = client.get("/card.png?variant=" + next(iter(VARIANTS)))
    assert resp.status_code == 422
    assert resp.get_json()["error"]["code"] == "no_result"


def test_the_error_is_in_the_readers_language(client):
    q = "/card.png?" + urlencode({"variant": next(iter(VARIANTS)), "hand": "123x"})
    zh = client.get(q).get_json()["error"]["message"]
    en = client.get(q + "&lang=en").get_json()["error"]["message"]
    assert zh != en and any("\u4e00" <= ch <= "\u9fff" for ch in zh)


def test_etag_304_and_what_it_depends_on(client):
    query = urlencode(settled_query(next(iter(VARIANTS))))
    first = card(client, query)
    etag = first.headers["ETag"]
    again = client.get("/card.png?" + query, headers={"If-None-Match": etag})
    assert again.status_code == 304 and not again.data
    assert again.headers["ETag"] == etag
    # the language (asked or negotiated) and the host the QR names change the picture
    en = card(client, query + "&lang=en")
    negotiated = card(client, query, headers={"Accept-Language": "en"})
    other_host = card(client, query, base_url="http://127.0.0.1")
    tags = {etag, en.headers["ETag"], negotiated.headers["ETag"], other_host.headers["ETag"]}
    assert len(tags) == 4
    assert qr_texts(other_host.data) == [page_url(other_host)]
    assert client.get("/card.png?" + query, headers={
        "If-None-Match": etag, "Accept-Language": "en"}).status_code == 200


@pytest.mark.parametrize("name", [
    "小王😀🀄🎉",               # CJK and colour emoji
    "👨‍👩‍👧‍👦🇨🇳👍🏽1️⃣",               # ZWJ sequences, a flag, a skin tone, a keycap
    "Ωμέγα ÅÄÖ ÇĞŞ",             # Greek, Latin accents
    "\U00013000\U0010fffd\ue000",  # no font has these: drawn as boxes, not an error
    "مرحبا",                      # Arabic (DejaVu)
    "a\u0000b\u200bc",            # control and format characters dropped
])
def test_any_name_is_drawn(client, name):
    query = settled_query(next(iter(VARIANTS)), n0=name[:12], n1=name[-12:])
    check_png(card(client, query))


def test_a_character_no_font_has_falls_to_the_main_fonts_box():
    runs = card_draw.runs("王\U00013000😀")
    assert [r.role for r in runs] == ["main", "emoji"]       # the box drawn by the main font
    assert card_draw.clusters("a\u0000\u200bb\n") == ("a", "b", " ")
    assert card_draw.clusters("👍🏽🇨🇳") == ("👍🏽", "🇨🇳")


def test_without_any_font_file_the_card_still_draws(client, monkeypatch):
    monkeypatch.setattr(card_draw, "FONT_PATHS", {k: ("/nonexistent/font.ttf",)
                                                  for k in card_draw.FONT_PATHS})
    card_draw.forget_fonts()
    try:
        check_png(card(client, settled_query(next(iter(VARIANTS)), n0="小王😀")))
    finally:
        monkeypatch.undo()
        card_draw.forget_fonts()


def test_the_settled_result_offers_the_picture(client):
    query = settled_query(next(iter(VARIANTS)))
    resp = client.get("/?" + urlencode(query), follow_redirects=True)
    html = resp.get_data(as_text=True)
    state = resp.request.query_string.decode("ascii")
    assert 'id="share-card"' in html
    assert f'<img src="/card.png?{state.replace("&", "&amp;")}"' in html
    assert 'loading="lazy"' in html and "data-share-card" in html
    # the picture the page points at is there
    check_png(client.get("/card.png?" + state))
    # a hand without a settlement offers none
    bare = client.get("/?" + urlencode({k: v for k, v in query.items() if not k.startswith("s_")}),
                      follow_redirects=True)
    assert 'id="share-card"' not in bare.get_data(as_text=True)


def test_the_share_words_are_the_glossarys(client):
    query = urlencode(settled_query(next(iter(VARIANTS))))
    zh = client.get("/?" + query, follow_redirects=True).get_data(as_text=True)
    en = client.get("/?" + query + "&lang=en", follow_redirects=True).get_data(as_text=True)
    assert "分享图片" in zh and "长按图片" in zh
    assert "Share picture" in en and "分享图片" not in en


#: a long but valid query: every suited tile seen twice, spelled in Chinese with full-width
#: spaces, and four names of twelve emoji
_TILES = [n + s for s in "万筒条" for n in "一二三四五六七八九"]
LONG = {f"n{i}": "🀄" * 12 for i in range(4)}


def test_a_long_url_gets_a_denser_qr_code_that_still_reads(client):
    query = settled_query(next(iter(VARIANTS)), **LONG)
    held = [t.code for t in parse_tiles(query["hand"])]
    codes = [f"{r}{s}" for s in "mps" for r in range(1, 10)]
    query["visible"] = "\u3000".join(t for t, c in zip(_TILES, codes) if held.count(c) < 4)
    resp = card(client, query)
    check_png(resp)
    assert qr_texts(resp.data) == [page_url(resp)]


def test_a_url_too_long_for_any_qr_code_is_said_not_a_500(client):
    query = {"variant": next(iter(VARIANTS)), "hand": "东东东南南西西西北北北白白", **LONG,
             "visible": "\u3000".join(t * 3 for t in _TILES) + "\u3000" * 100}
    resp = card(client, query)
    check_png(resp)
    assert len(page_url(resp)) > 2953            # more than a version 40 code holds
    assert qr_texts(resp.data) == []


def test_the_palette_keeps_the_cards_own_colours(client):
    # thin strokes (a 万's red) vanish from the shrunk picture the other colours come from
    img = picture(card(client, settled_query(next(iter(VARIANTS)))).data).convert("RGB")
    colours = {rgb for _n, rgb in img.getcolors(1 << 16)}
    for ink in card_draw.INK.values():
        assert tuple(int(ink[i:i + 2], 16) for i in (1, 3, 5)) in colours


# -- no input gives a 500 -------------------------------------------------------------------------

_PARAMS = ("melds", "indicator", "visible", "winning_tile", "win_by", "history", "s_base",
           "s_dealer", "s_winner", "s_discarder", "s_pao0", "s_jiagang1", "s_ready2", "s_dready",
           "s_kongs", "s_biao", "s_follow", "s_duanmen", "s_kong_discard", "n0", "n1", "n2",
           "n3", "opt_wildcard", "opt_piaohu", "opt_wildcard_mode", "target", "add", "remove",
           "readings", "lang")
_text = st.one_of(
    st.sampled_from(["", "0", "1", "2", "3", "none", "discard", "self_draw", "2z", "5m",
                     "123m456p789s11122z", "碰555p", "东家", "1:concealed", "en", "zh", "40"]),
    st.text(st.characters(exclude_categories=["Cs"]), max_size=30))
_queries = st.fixed_dictionaries(
    {"variant": st.sampled_from(sorted(VARIANTS)) | _text,
     "hand": st.sampled_from(["123m456p789s11122z", "1112345678999m", "东东东南南西西西北北北白白"])
     | _text},
    optional={name: _text for name in _PARAMS})


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(query=_queries)
def test_fuzz_the_hand_card_answers_a_picture_or_the_pages_error(query):
    from webcalc import create_app

    client = _FUZZ_APP.setdefault("app", create_app({"TESTING": True})).test_client()
    resp = client.get("/card.png", query_string=query, follow_redirects=True)
    page = client.get("/", query_string=query, follow_redirects=True)
    if resp.status_code == 200:
        assert resp.mimetype == "image/png" and page.status_code == 200
        return
    err = resp.get_json()["error"]
    assert err["code"] and err["message"], query
    if err["code"] == "no_result":                  # the page shows no result either
        assert resp.status_code == 422 and page.status_code == 200
        assert 'id="result-title" class="visually-hidden"' in page.get_data(as_text=True)
    else:
        assert resp.status_code == page.status_code, (query, resp.status_code, page.status_code)


_FUZZ_APP: dict = {}
