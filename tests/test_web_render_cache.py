"""The page's reused HTML: the room option and settlement sections rendered once
per room state, language and win method are exactly what a fresh render shows, and two rooms
that show anything differently never share an entry."""

from __future__ import annotations

from pathlib import Path

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



# -- the result panel's groups, headings and shanten labels written without a macro ---------

#: the macros of templates/_tiles.html that drew them before issue 38.2, verbatim
OLD_MACROS = (Path(__file__).parent / "old_result_macros.html").read_text(encoding="utf-8")


def _readings(seed: int, n: int) -> list[dict]:
    """The readings of ``n`` random complete hands in every variant with an indicator, up
    to three of their tiles made the wildcard (drawn as its face, playing as another), as
    the page gets them."""
    import random

    from webcalc.analysis import analyze
    from webcalc.errors import InputError
    from webcalc.tiles import format_tiles, parse_tiles
    from webcalc.variants import VARIANTS
    from webcalc.warmup import complete_tiles

    rng = random.Random(seed)
    out: list[dict] = []
    for i in range(n):
        variant = sorted(VARIANTS)[i % len(VARIANTS)]
        hand = complete_tiles(rng)
        req = {"variant": variant, "hand": format_tiles(hand),
               "winning_tile": format_tiles(hand[:1]),
               "indicator": format_tiles([rng.randrange(34)])}
        try:
            wild = analyze(req).wildcards
            if wild:
                w = int(parse_tiles(wild[0])[0])
                for j in rng.sample(range(1, 14), rng.randrange(4)):
                    if hand.count(w) < 4:
                        hand[j] = w
                req["hand"] = format_tiles(hand)
            out += analyze(req).readings
        except InputError:
            pass
    return out


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_groups_headings_and_labels_are_the_old_macros_bytes(app, lang):
    """:func:`result_lists.reading` and :func:`result_lists.shanten_label`, written in Python
    (issue 38.2: no template call per tile), give the bytes the ``_tiles.html`` macros gave,
    on the readings of random hands with wildcards, exposed and taken groups and odd kinds."""
    from webcalc.web import result_lists

    readings = _readings(38 + len(lang), 160)
    assert sum(1 for d in readings for g in d["groups"] if any(g.get("wild") or ())) > 20
    odd = [{"kind": kind, "tiles": tiles, "wild": wild, "faces": faces, "exposed": exposed,
            "meld": meld}
           for kind in ("pair", "free", "knitted", "nonsense", None)
           for tiles, wild, faces in ((["1m", "1m"], [False, True], ["1m", "5z"]),
                                      (["2p", "3p", "4p"], [True], []),
                                      (["7z", "7z", "7z"], [], ["7z", "7z", "1s"]),
                                      (["<b>"], [True], ["&"]))
           for exposed, meld in ((False, None), (True, None), (True, "shi"), (True, "qiang"),
                                 (True, "chi"))]
    readings.append({"shape": "standard", "groups": odd})
    readings.append({"shape": "<odd>", "groups": []})
    with app.test_request_context(f"/?lang={lang}"):
        old = app.jinja_env.overlay(autoescape=True).from_string(OLD_MACROS).module
        for best in (False, True):
            for d in readings:
                want = "".join((old.reading_head_markup(d.get("shape"), best),
                                '\n<ul class="groups">\n',
                                "".join(old.group_markup(g) for g in
                                        [g for g in d["groups"] if not g.get("exposed")]
                                        + [g for g in d["groups"] if g.get("exposed")]),
                                "</ul>"))
                assert str(result_lists.reading(d, best)) == want, d
        for n in (None, -1, 0, 1, 2, 6):
            assert str(result_lists.shanten_label(n)) == str(old.shanten_label_markup(n)), n


# -- the result's seats written without a macro ----------------------------------------------


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_seats_are_the_old_macros_bytes(app, lang):
    """:func:`templating.seat` gives the bytes ``_result.html``'s ``seat`` macro gave (in
    tests/old_result_macros.html), in a room with its seats named or not (a name with
    markup in it), out of a room, for seats in and out of range, ``None``, a bool, a float
    and text."""
    from webcalc.web import templating

    seats = [0, 1, 2, 3, -1, 4, None, True, False, 1.0, "x", "<i>"]
    with app.test_request_context(f"/?lang={lang}"):
        env = app.jinja_env.overlay(autoescape=True)
        rooms = [None, _room(app, ""), _room(app, "n0=Ann&n2=%3Cb%3E%26&s_dealer=0"),
                 _room(app, "n1=East&n3=北家")]
        for room in rooms:
            macro = env.from_string(OLD_MACROS).make_module(
                {} if room is None else {"room": room}).seat
            for i in seats:
                assert str(templating.seat(room, i)) == str(macro(i)), (room, i)
        assert str(templating.seat(rooms[2], 0)).startswith("Ann<small")
        assert "&lt;b&gt;&amp;" in str(templating.seat(rooms[2], 2))


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_worth_is_the_worth_templates_bytes(app, lang):
    """:func:`result_lists.worth` writes what ``_worth.html`` (its outline) renders for a
    wait's ``win``: 番 the catalogue names and one it does not (markup in it), with and
    without 表, whole, fractional and large amounts."""
    from webcalc.web import result_lists
    from webcalc.web.rules import FAN_TAGS_EN

    fans = [[], ["discard"], list(FAN_TAGS_EN)[:3], ["kong_bloom", "<x>"]]
    wins = [{"fan": fan, "amount": amount, **extra} for fan in fans
            for amount in (0, 4, 2.5, 6.0, 10 ** 16)
            for extra in ({}, {"biao": 0}, {"biao": 2})]
    with app.test_request_context(f"/?lang={lang}"):
        template = app.jinja_env.get_template("_worth.html")
        for win in wins:
            assert str(result_lists.worth(win)) == template.render(w={"win": win}), win
        shown = str(result_lists.worth({"fan": ["discard"], "amount": 4, "biao": 2}))
    assert shown.startswith('<span class="worth"><span class="fan-tag fan-discard">')
    assert ("2 表" if lang == "zh" else "2 biao") in shown


def test_tile_faces_are_the_parsed_faces():
    """:data:`templating.FACES` (the 34 canonical codes) gives the faces ``Tile.parse``
    gives; other codes are still parsed (a red five, Chinese) or drawn as text."""
    from webcalc.tiles import Tile
    from webcalc.web import templating

    assert len(templating.FACES) == 34
    for code in [*templating.FACES, "0m", "五万", "5M", "x", ""]:
        face = templating.tile_face(code)
        try:
            t = Tile.parse(code)
            want = (t.code, t.chinese, t.rank_char, t.suit_char)
        except Exception:  # noqa: BLE001 - as tile_face: drawn as text
            want = (code, code, code, "")
        assert (face.code, face.chinese, face.rank_char, face.suit_char) == want, code
    assert templating.tile_face("7z").chinese == "中" and templating.tile_face("1p").suit == "p"


# -- the 牌理 list written as one piece ---------------------------------------------------------


def _efficiency(seed: int, n: int) -> list[tuple[list, tuple]]:
    """The 牌理 rows and wildcards of ``n`` random 14-tile hands in every variant with an
    indicator (some of them wins, some never ready), as the page gets them."""
    import random

    from webcalc.analysis import analyze
    from webcalc.errors import InputError
    from webcalc.tiles import format_tiles
    from webcalc.variants import VARIANTS
    from webcalc.warmup import complete_tiles

    rng = random.Random(seed)
    out: list[tuple[list, tuple]] = []
    for i in range(n):
        variant = sorted(VARIANTS)[i % len(VARIANTS)]
        hand = complete_tiles(rng)
        for j in rng.sample(range(14), rng.randrange(3)):     # a win, or one to three off
            hand[j] = rng.randrange(34)
        req = {"variant": variant, "hand": format_tiles(hand),
               "indicator": format_tiles([rng.randrange(34)])}
        try:
            a = analyze(req)
        except InputError:
            continue
        if a.efficiency:
            out.append((list(a.efficiency), tuple(a.wildcards or ())))
    return out


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_eff_rows_are_the_old_templates_bytes(app, lang):
    """:func:`result_lists.eff_rows` and :func:`result_lists.useful_list` (each row written as
    one piece, its messages translated once a list) give the bytes the ``_result.html`` loop
    and macro gave (their outline, in tests/old_result_macros.html): random hands' rows, wins
    and not, with wildcards, and odd rows (never ready, no useful draw, markup in a code)."""
    from webcalc.web import result_lists

    lists = _efficiency(45 + len(lang), 120)
    rows = [e for eff, _ in lists for e in eff]
    assert sum(1 for e in rows if e["shanten"] == 0) > 20 and any(w for _, w in lists)
    odd = [{"discard": "1m", "shanten": None, "useful": [], "useful_total": 0},
           {"discard": "<b>", "shanten": 2, "useful": [], "useful_total": 0},
           {"discard": "2p", "shanten": 0,
            "useful": [{"tile": "3p", "remaining": 0}, {"tile": "4p", "remaining": 2}],
            "useful_total": 2}]
    lists += [(odd, ()), (odd[::-1], ("3p",))]
    with app.test_request_context(f"/?lang={lang}"):
        old = app.jinja_env.overlay(autoescape=True).from_string(OLD_MACROS).module
        for eff, wild in lists:
            for complete in (False, True):
                want = str(old.eff_rows_markup(eff, complete, list(wild))).strip()
                assert str(result_lists.eff_rows(eff, complete, list(wild))) == want, eff
            for e in eff:
                assert (str(result_lists.useful_list(e["useful"], e["shanten"], list(wild)))
                        == str(old.useful_list_markup(e["useful"], e["shanten"], list(wild))))


# -- the wait list, the other readings and the hand's keys written as one piece each -----------


def _waits(seed: int, n: int) -> list[tuple[list, tuple]]:
    """The waits and wildcards of ``n`` random 13-tile hands in every variant with an
    indicator and some tiles seen (dead waits), as the page gets them (each wait's worth)."""
    import random

    from webcalc.analysis import analyze
    from webcalc.errors import InputError
    from webcalc.tiles import format_tiles
    from webcalc.variants import VARIANTS
    from webcalc.warmup import complete_tiles

    rng = random.Random(seed)
    out: list[tuple[list, tuple]] = []
    for i in range(n):
        variant = sorted(VARIANTS)[i % len(VARIANTS)]
        hand = complete_tiles(rng)
        rng.shuffle(hand)
        req = {"variant": variant, "hand": format_tiles(hand[:13]),
               "indicator": format_tiles([rng.randrange(34)]),
               "visible": format_tiles([hand[13]] * rng.randrange(4))}
        try:
            a = analyze(req)
        except InputError:
            continue
        if a.waits:
            out.append((list(a.waits), tuple(a.wildcards or ())))
    return out


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_wait_lists_are_the_old_templates_bytes(app, lang):
    """:func:`result_lists.wait_items` (one writer for the list, each count and flag translated
    once for it) and :func:`result_lists.quick_waits` (the gist under the hand) give the bytes
    of the loops they replaced (their outline in tests/old_result_macros.html): random
    hands' waits, wildcards among them, dead ones (every tile seen, or ``dead`` given), with
    and without a worth, and markup in a code."""
    from webcalc.web import result_lists

    lists = _waits(61 + len(lang), 160)
    waits = [w for ws, _ in lists for w in ws]
    assert sum(1 for w in waits if w["dead"]) > 5 and sum(1 for w in waits if w.get("win")) > 50
    assert any(set(wild) & {w["tile"] for w in ws} for ws, wild in lists)
    odd = [{"tile": "<b>", "remaining": 0}, {"tile": "3p", "remaining": 2, "dead": True},
           {"tile": "3p", "remaining": 0, "dead": False,
            "win": {"fan": ["discard"], "amount": 2.5, "biao": 2}}]
    lists += [(odd, ()), (odd[::-1], ("3p",))]
    with app.test_request_context(f"/?lang={lang}"):
        old = app.jinja_env.overlay(autoescape=True).from_string(OLD_MACROS).module
        for ws, wild in lists:
            want = str(old.wait_items_markup(ws, list(wild))).strip()
            assert str(result_lists.wait_items(ws, list(wild))) == want, ws
            assert (str(result_lists.quick_waits(ws[:9]))
                    == str(old.quick_waits_markup(ws[:9])).strip()), ws
            assert str(result_lists.wait_items(ws, list(wild), any_tile=True)).startswith(
                '<li class="wait wait-any">' if all(w.get("win") == ws[0].get("win")
                                                    for w in ws) else want)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_reading_items_are_the_old_templates_bytes(app, lang):
    """:func:`result_lists.reading_items` (the other readings in one call, their labels
    translated once for the list) gives the bytes of the ``_result.html`` loop it replaced
    (its outline in tests/old_result_macros.html), whichever reading is shown first."""
    from webcalc.web import result_lists

    readings = _readings(83 + len(lang), 120)
    shown = [readings[i:i + 20] for i in range(0, len(readings), 7)]
    assert sum(len(s) for s in shown) > 200
    with app.test_request_context(f"/?lang={lang}"):
        old = app.jinja_env.overlay(autoescape=True).from_string(OLD_MACROS).module
        for s in shown:
            for first in {id(x): x for x in (s[0], s[len(s) // 2], s[-1])}.values():
                want = str(old.other_readings_markup(s, first)).strip()
                got = str(result_lists.reading_items(s, first))
                assert got == want and got.count('<li class="reading">') == len(s) - 1


def test_hand_keys_take_the_tiles_or_their_codes(app):
    """:func:`templating.hand_keys` reads each tile's code itself (the template hands it the
    tap area's tiles, not a Jinja ``map`` of their codes): the same keys either way, each
    taking out its own index, a wildcard marked."""
    from webcalc.tiles import parse_tiles
    from webcalc.web import templating

    tiles = sorted(parse_tiles("1123m456p789s555z"))
    with app.test_request_context("/?lang=en"):
        by_tiles = str(templating.hand_keys(tiles, ["5z"], "/#tap"))
        assert by_tiles == str(templating.hand_keys([t.code for t in tiles], ["5z"], "/#tap"))
        assert str(templating.hand_keys([], None, "")) == ""
    assert [by_tiles.count(f'name="remove" value="{i}"') for i in range(14)] == [1] * 13 + [0]
    assert by_tiles.count("tile-btn") == 13 and by_tiles.count("tile-mark") == 3


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_tap_targets_are_the_templates_bytes(app, lang):
    """:func:`templating.tap_targets` (written in Python, no longer a render of
    ``_tap_targets.html`` kept per held tiles) gives the bytes of that template, its
    outline: each target chosen, with none to eight tiles held (more than six: ``+n``), a
    room that takes the winner's turns or not, and no room."""
    from types import SimpleNamespace

    from webcalc.tiles import parse_tiles
    from webcalc.web import templating
    from webcalc.web.tap import TARGETS

    held = [None, [], parse_tiles("3z"), parse_tiles("1p2p3p4p5p6p"),
            parse_tiles("1p2p3p4p5p6p7p8p")]
    rooms = [None, SimpleNamespace(takes_history=False), SimpleNamespace(takes_history=True)]
    with app.test_request_context(f"/?lang={lang}"):
        template = app.jinja_env.get_template("_tap_targets.html")
        seen = set()
        for target in (*TARGETS, "nonsense"):
            for i, room in enumerate(rooms):
                for k in range(len(held)):
                    entry = SimpleNamespace(target=target, indicator=held[k],
                                            winning=held[(k + 1) % len(held)],
                                            visible=held[(k + 2 + i) % len(held)])
                    got = str(templating.tap_targets(entry, room))
                    assert got == template.render(entry=entry, room=room), (target, room, k)
                    seen.add(got)
        assert len(seen) > 80
        assert "target-on" not in got and "+2</small>" in "".join(seen)
