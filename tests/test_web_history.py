"""三门峡 表 from the winner's turns on the calculator page (RULES SMX-5, API.md "三门峡 history"):
the turns tapped on the palette as 摸/打 pairs into the ``history`` field (URL state), the result
listing each turn's 13 tiles, its any-tile wait and the discards that count, the 表 and the
settlement following. Each of the seed's four examples through the page, with the same values
as POST /api/v1/analyze; bad histories shown under the history input, the typed text kept;
variants that take no history show no input for it. No JavaScript (the Flask test client)."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest

from webcalc.web.turns import history_pairs, history_request, history_tap, history_text

# indicator 北: 中 (7z) is the only wildcard kind (SMX-1)
ROOM = [("variant", "sanmenxia"), ("indicator", "4z"), ("s_dealer", "0"), ("s_winner", "0")]
HAND = "112233m123p123s9m7z"

# (winning tile, history text, 表, net, the turns' (any_tile_wait, biao_discard, counted))
EXAMPLES = [
    ("9m", "7z7z", 2, ["+12", "-4", "-4", "-4"], [(True, True, True)]),
    ("9m", "7z7z 7z7z", 3, ["+24", "-8", "-8", "-8"], [(True, True, True)] * 2),
    ("7z", "9m7z", 0, ["+3", "-1", "-1", "-1"], [(True, False, False)]),
    ("9m", "7z7z 1m2m 2m1m", 1, ["+6", "-2", "-2", "-2"],
     [(True, True, False), (True, False, False), (False, False, False)]),
]


def page(client, pairs, lang=None):
    q = list(pairs) + ([("lang", lang)] if lang else [])
    return client.get("/?" + urlencode(q), follow_redirects=True)


def nets(html: str) -> list[str]:
    return re.findall(r'<tr class="net-row"><th scope="row">.*?</th><td class="amount[^"]*">'
                      r'([^<]*)<', html)


def turns_shown(html: str) -> list[tuple[bool, bool, bool]]:
    return [tuple(x == "true" for x in m) for m in re.findall(
        r'<li class="history-turn[^"]*" data-wait="(\w+)" data-biao="(\w+)" '
        r'data-counted="(\w+)"', html)]


def biao_shown(html: str) -> str:
    return re.search(r"<dt>表</dt><dd>(\d+)</dd>", html).group(1)


@pytest.mark.parametrize("win, history, biao, net, turns", EXAMPLES)
def test_each_smx5_example_through_the_page(client, win, history, biao, net, turns):
    pairs = ROOM + [("hand", HAND), ("winning_tile", win), ("history", history)]
    r = page(client, pairs)
    html = r.get_data(as_text=True)
    assert r.status_code == 200
    assert biao_shown(html) == str(biao)
    assert nets(html) == net
    assert turns_shown(html) == turns
    # the same as the API for the same request
    api = client.post("/api/v1/analyze", json={
        "variant": "sanmenxia", "indicator": "4z", "hand": HAND, "winning_tile": win,
        "win_by": "self_draw", "history": history_request(history),
        "settlement": {"base": 1, "dealer": 0, "winner": 0}}).get_json()
    assert api["biao"] == biao
    assert [(t["any_tile_wait"], t["biao_discard"], t["counted"]) for t in api["history"]] \
        == turns
    # each turn's 13 tiles before it, drawn as the engine rebuilt them
    befores = re.findall(r'<p class="history-before">(.*?)</p>', html, re.S)
    assert [re.findall(r'data-tile="(\w\w)"', b) for b in befores] == [
        re.findall(r"\w\w", _codes(t["before"])) for t in api["history"]]


def _codes(text: str) -> str:
    from webcalc.tiles import parse_tiles

    return "".join(t.code for t in parse_tiles(text))


def test_the_history_is_tapped_as_draw_then_discard_and_kept_in_the_url(client):
    """target=history: the first tap is the draw of a new turn, the next its discard; each
    is a 303 to the canonical URL, which holds the history."""
    base = ROOM + [("hand", HAND), ("winning_tile", "9m"), ("target", "history")]
    r = client.get("/?" + urlencode(base + [("add", "7z")]))
    assert r.status_code == 303
    q = parse_qs(urlsplit(r.headers["Location"]).query)
    assert q["history"] == ["7z"] and q["target"] == ["history"]
    r = client.get(r.headers["Location"] + "&add=7z")
    q = parse_qs(urlsplit(r.headers["Location"]).query)
    assert q["history"] == ["7z7z"]
    r = client.get(r.headers["Location"] + "&add=1m")
    r = client.get(r.headers["Location"] + "&add=2m")
    q = parse_qs(urlsplit(r.headers["Location"]).query)
    assert q["history"] == ["7z7z 1m2m"]
    html = client.get(r.headers["Location"]).get_data(as_text=True)
    assert html.count('name="remove_turn"') == 2
    # a turn taken out by its button
    r = client.get(r.headers["Location"] + "&remove_turn=0")
    assert parse_qs(urlsplit(r.headers["Location"]).query)["history"] == ["1m2m"]
    r = client.get(r.headers["Location"] + "&clear=history")
    assert "history" not in parse_qs(urlsplit(r.headers["Location"]).query)


def test_a_turn_waiting_for_its_discard_shows_a_question_mark(client):
    html = page(client, ROOM + [("hand", HAND), ("winning_tile", "9m"),
                                ("history", "7z7z 1m")]).get_data(as_text=True)
    assert '<span class="turn-next">?</span>' in html
    # the engine says what is missing, under the history input, with the turn
    assert "第 2 手" in html and 'id="history-error"' in html


@pytest.mark.parametrize("history, lang, said", [
    ("7z7z 1m", None, "历史第 2 手：还没有打牌：每手先摸一张，再打一张（discard）。"),
    ("7z7z 1m", "en", "History, turn 2: no discard yet: each turn is a draw, then a discard "
                      "(&#34;discard&#34;)."),
    ("xyz", None, "历史第 1 手：摸牌（draw）：第 1 个字符“x”不是牌。"),
    ("摸7z打xyz", None, "历史第 1 手：打牌（discard）：第 1 个字符“x”不是牌。"),
    ("摸7z打xyz", "en", "History, turn 1: discard: character 1 &#34;x&#34; is not a tile."),
])
def test_a_typed_turn_is_named_in_the_reader_s_words(client, history, lang, said):
    """A turn still waiting for its discard, or a word that is no tile, is said in the
    page's words (摸牌/打牌, not the API's object notation), under the history input, with
    the text kept as typed."""
    r = page(client, ROOM + [("hand", HAND), ("winning_tile", "9m"), ("history", history)],
             lang)
    html = r.get_data(as_text=True)
    assert r.status_code == 422
    err = re.search(r'<p class="field-error" id="history-error"><span>([^<]*)</span>', html)
    assert err and err.group(1) == said, err and err.group(1)
    assert "{" not in err.group(1)


def test_the_history_codec():
    assert history_pairs("7z7z 1m2m") == [("7z", "7z"), ("1m", "2m")]
    assert history_pairs("摸中打中，摸一万打二万") == [("7z", "7z"), ("1m", "2m")]
    assert history_pairs("7z7z 1m") == [("7z", "7z"), ("1m", None)]
    assert history_pairs("x") is None
    assert history_request("7z7z 1m") == [{"draw": "7z", "discard": "7z"}, {"draw": "1m"}]
    assert history_request("摸中打中") == [{"draw": "7z", "discard": "7z"}]
    assert history_text([{"draw": "中", "discard": "中"}, {"draw": "1m", "discard": "2m"}]) \
        == "7z7z 1m2m"
    assert history_tap("7z7z", "1m") == "7z7z 1m"
    assert history_tap("7z7z 1m", "2m") == "7z7z 1m2m"
    assert history_tap("", "1m") == "1m"


@pytest.mark.parametrize("lang, words", [(None, "历史第 1 手"), ("en", "History, turn 1")])
def test_a_history_that_cannot_be_rebuilt_is_shown_under_its_input(client, lang, words):
    """5p drawn in turn 1 is neither held after it nor discarded: bad_history, turn 1, in the
    reader's language, under the history input (the tap area's and the typed field's), the
    typed text kept and the turn's chip marked."""
    pairs = ROOM + [("hand", HAND), ("winning_tile", "9m"), ("history", "5p7z 7z7z")]
    r = page(client, pairs, lang)
    html = r.get_data(as_text=True)
    assert r.status_code == 422
    err = re.search(r'<p class="field-error" id="history-error"><span>([^<]*)</span>', html)
    assert err and err.group(1).startswith(words), err and err.group(1)
    assert "5p" in err.group(1)
    assert 'id="history-turns-error"' in html
    assert 'value="5p7z 7z7z"' in html                       # the typed state kept
    chips = re.findall(r'class="turn-chip( turn-chip-error)?"', html)
    assert chips == [" turn-chip-error", ""]


def test_a_typed_count_that_disagrees_is_an_error_under_it(client):
    pairs = ROOM + [("hand", HAND), ("winning_tile", "9m"), ("history", "7z7z"),
                    ("s_biao", "2")]
    r = page(client, pairs)
    html = r.get_data(as_text=True)
    assert r.status_code == 422
    field = html[html.index('id="s_biao"'):]
    field = field[:field.index("</div>")]
    assert "按出牌历史数出 1 次打混" in field and "SMX-5" in field, field


def test_only_where_the_variant_takes_a_history(client):
    """郑州 (and 三门峡 without wildcards) take no history: no input, no target, and a URL
    that carries one drops it (the canonical URL leaves it out)."""
    html = page(client, [("variant", "sanmenxia")]).get_data(as_text=True)
    assert 'name="history"' in html and 'value="history"' in html
    for pairs in ([("variant", "zhengzhou")], [("variant", "sanmenxia"), ("opt_wildcard", "0")]):
        r = client.get("/?" + urlencode(pairs + [("hand", HAND), ("history", "7z7z")]))
        assert r.status_code == 303
        assert "history" not in parse_qs(urlsplit(r.headers["Location"]).query)
        html = client.get(r.headers["Location"]).get_data(as_text=True)
        assert 'name="history"' not in html and 'value="history"' not in html


def test_a_tap_on_the_turns_target_in_a_variant_without_history_goes_to_the_hand(client):
    """The variant switched to 郑州 with 摸/打 still chosen: the tap lands in the hand, and the
    target falls back to it."""
    r = client.get("/?" + urlencode([("variant", "zhengzhou"), ("hand", "123m"),
                                     ("target", "history"), ("history", "7z7z"),
                                     ("add", "4m")]))
    q = parse_qs(urlsplit(r.headers["Location"]).query)
    assert q["hand"] == ["1234m"] and "history" not in q and "target" not in q
