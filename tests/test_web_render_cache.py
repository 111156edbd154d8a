"""The page's reused HTML: the room option and settlement sections rendered once
per room state, language and win method are exactly what a fresh render shows, and two rooms
that show anything differently never share an entry."""

from __future__ import annotations

import pytest
from werkzeug.datastructures import MultiDict

from webcalc.web import room_page
from webcalc.web.room_url import read_room

HAND = "/?variant=zhengzhou&hand=123m456p789s111z22z&winning_tile=2z"
URLS = [
    HAND,
    HAND + "&lang=en",
    HAND + "&s_dealer=0&s_winner=0",
    HAND + "&s_dealer=0&s_winner=0&lang=en",
    HAND + "&s_dealer=1&s_winner=none&n0=Ann",
    HAND + "&s_dealer=x&s_winner=0",                              # an error under 庄家
    HAND + "&win_by=discard&s_dealer=0&s_winner=0&s_discarder=3",
    HAND + "&win_by=discard&s_dealer=0&s_winner=0",               # the discarder missing
    HAND + "&opt_wildcard=0&s_pao0=2&s_dealer=2&s_winner=2",
    HAND + "&s_pao1=x&s_dealer=0&s_winner=0",
    HAND + "&s_base=1.0&s_dealer=0&s_winner=0",
    "/?variant=jincheng&hand=123m456p789s111z22z&winning_tile=2z&win_by=discard"
    "&s_dealer=0&s_winner=1&s_discarder=2&s_dready=0",
    "/?variant=panjin&hand=123m789p111z456s88s&indicator=3z&winning_tile=5s&opt_jiagang=1"
    "&s_jiagang2=1&s_dealer=0&s_winner=0",
    "/?variant=sanmenxia&hand=123m456p789s11z&melds=明杠2222z@1&winning_tile=1z"
    "&s_dealer=0&s_winner=0&s_kongs=1:concealed",
    "/?variant=sanmenxia&hand=123m456p789s11z&melds=明杠2222z&winning_tile=1z"
    "&s_dealer=0&s_winner=0",
]


def canonical(client, url: str) -> str:
    resp = client.get(url)
    return resp.headers["Location"] if resp.status_code == 303 else url


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_reused_sections_equal_a_fresh_render(client, htmx):
    headers = {"HX-Request": "true"} if htmx else {}
    urls = [canonical(client, url) for url in URLS]
    fresh = {}
    for url in urls:
        room_page._room_html.clear()
        resp = client.get(url, headers=headers)
        assert resp.status_code in (200, 422), url
        fresh[url] = (resp.status_code, resp.get_data(as_text=True))
    for url in urls + urls[::-1]:          # every entry reused after the others were made
        resp = client.get(url, headers=headers)
        assert (resp.status_code, resp.get_data(as_text=True)) == fresh[url], url
    assert any('id="s_dealer-error"' in html for _status, html in fresh.values())


def test_cache_is_bounded(client, monkeypatch):
    monkeypatch.setattr(room_page, "ROOM_HTML_MAX", 3)
    room_page._room_html.clear()
    for url in URLS:
        assert client.get(canonical(client, url)).status_code in (200, 422)
    assert len(room_page._room_html) == 3


def _room(app, query: str, **kw):
    with app.test_request_context("/?" + query):
        from flask import request

        return read_room(MultiDict(request.args), "zhengzhou", **kw)


KONG = {"type": "kong", "tiles": "2222z"}


def test_state_key_tells_apart_what_shows_differently(app):
    keys = [
        _room(app, "").state_key(),
        _room(app, "s_base=1.0").state_key(),         # 1 and 1.0 show differently
        _room(app, "s_winner=0").state_key(),
        _room(app, "s_winner=none").state_key(),      # 荒庄 (None), not "no winner" ("")
        _room(app, "s_dealer=0").state_key(),
        _room(app, "s_dealer=x").state_key(),         # the same dealer (none), an error
        _room(app, "n0=Ann").state_key(),
        _room(app, "opt_wildcard=0").state_key(),
        _room(app, "s_pao0=1").state_key(),
        _room(app, "s_kongs=1:concealed").state_key(),
        _room(app, "", win_by="discard").state_key(),
        _room(app, "s_winner=0", melds=[KONG]).state_key(),   # the winner's kong shows
    ]
    assert len(set(keys)) == len(keys)
    assert _room(app, "s_dealer=0").state_key() == keys[4]   # read again: the same key
    attached = _room(app, "")
    assert attached.attach("settlement.dealer", "required")
    assert attached.state_key() != keys[0]               # an engine error under its input


def test_state_key_ignores_a_hand_that_does_not_show(app):
    """The melds and the indicator show only as the winner's kongs: without a winner they
    share the key of no melds (most pages reuse the sections, whatever the hand)."""
    bare = _room(app, "").state_key()
    assert _room(app, "", melds=[KONG]).state_key() == bare
    assert _room(app, "", indicator="3z").state_key() == bare
    assert _room(app, "s_winner=0", melds=[KONG]).state_key() \
        != _room(app, "s_winner=0").state_key()
    assert _room(app, "s_winner=0", melds=[KONG]).winner_kongs

