"""Spoken tile notation (API.md "Spoken tile notation (input only)"): every tile field reads
what a phone's dictation writes for tiles — 幺鸡, counts (三个五万, 红中两张, 一对东风), runs
(一到九条, 三四五筒), honours (东风, 红中, 发财, 白板), joining words (和, 还有) — and what it
cannot read is ``bad_tile`` with the position of the character at fault in the text as typed.

The hands below were written by hand, as players say them at the table (one per line: the
words, then the tiles they mean in canonical notation, worked out by hand, not by the parser).
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.scale import examples
from webcalc.errors import InputError
from webcalc.hand import Hand
from webcalc.notation import melds_from_text
from webcalc.tiles import ALL_TILES, Tile, format_tiles, parse_tiles

# -- 50+ spoken hands ---------------------------------------------------------------------------

SPOKEN = [
    # the issue's own words, with the spaces a speaker's pauses give and without
    ("幺鸡 二条 红中两张 三个五万", "555m12s77z"),
    ("幺鸡二条红中两张三个五万", "555m12s77z"),
    # whole hands, counts after the tile
    ("一二三万 四五六筒 七八九条 东风一对 红中三张", "123m456p789s11777z"),
    ("五万三张 六七八条 白板两张 三四五筒", "555m345p678s55z"),
    ("五筒一刻 六筒一刻 七筒一刻 八筒两张 九万", "9m55566677788p"),
    ("幺鸡三张 九条三张 一到三万 五五万", "12355m111999s"),
    ("三条一对 四条一对 五条一对", "334455s"),
    ("四万四张 一二三条 东风一对", "4444m123s11z"),
    ("七八九筒 七八九条 七八九万 南风三张 北", "789m789p789s2224z"),
    # counts before the tile
    ("三个五万，两张红中，一到九条", "555m123456789s77z"),
    ("两张幺鸡 三个二万 四五六饼 七八九饼", "222m456789p11s"),
    ("三张一万 三张九万 一二三筒 东风两张", "111999m123p11z"),
    ("一刻东风 一刻南风 一刻西风 北风一对 一二三万", "123m11122233344z"),
    ("一对幺鸡 一对二条 一对三条 一对四筒 一对五筒 一对六万 一对中", "66m4455p112233s77z"),
    ("两张东风、两张南风、两张西风、两张北风、两张中、两张发、两张白", "11223344556677z"),
    ("三个一万，三个九万，一对红中，一到三条", "111999m123s77z"),
    ("四个五筒 加 一二三万 加 东风一对", "123m5555p11z"),
    ("三个九条、两个八条、七条", "788999s"),
    ("一对东风三个五万", "555m11z"),
    ("二条三个五万", "555m2s"),
    # Arabic numerals, as dictation often writes them, mixed with the Chinese
    ("3个5万 一对发财 三四五筒 345条", "555m345p345s66z"),
    ("3万4万5万 6筒7筒8筒 两张9条 三个1条", "345m678p11199s"),
    ("2个中 3个发 4个白", "555566677z"),
    ("1到9筒 两张北风 三张白板", "123456789p44555z"),
    ("1万9万1筒9筒1条9条东南西北中发白 中", "19m19p19s12345677z"),
    ("1m 2m 3m 和 东风两张", "123m11z"),
    ("123m 三个五万 东风一对", "123555m11z"),
    ("3 个五万", "555m"),
    # runs
    ("一到九万 一对红中 三个西风", "123456789m33377z"),
    ("一至九条 白板两张 三个中", "123456789s55777z"),
    ("幺鸡到九条 红中一对 三个五万", "555m123456789s77z"),
    ("一条到九条 东风一对 发发发", "123456789s11666z"),
    ("一万到三万 加上 四筒到六筒", "123m456p"),
    ("三四五六七八九饼 一万 一万", "11m3456789p"),
    ("五六七八九万 一一一筒 白白", "56789m111p55z"),
    ("一二三四五六七八九万两张东风", "123456789m11z"),
    # tile by tile, as a slow speaker dictates
    ("一饼二饼三饼，四条五条六条，七万八万九万，东风东风，中中中", "789m123p456s11777z"),
    ("一筒二筒三筒 四万五万六万 七条八条九条 南风三张 北风", "456m123p789s2224z"),
    ("幺鸡 幺鸡 二条 三条 四条 五条 六条 七条 八条 九条 九条 九条 五万", "5m112345678999s"),
    ("一万一万一万 九万九万九万 一筒九筒 一条九条 东南西北", "111999m19p19s1234z"),
    ("二条 二条 三条 三条 四条 四条 幺鸡 幺鸡", "11223344s"),
    ("五万，五万，五万，红中，红中", "555m77z"),
    ("发财发财发财 白板白板 一二三四五六万 七万", "1234567m55666z"),
    ("幺鸡二条三条 幺鸡二条三条 四四四万 中中 发", "444m112233s677z"),
    ("东东东 南南南 西西西 北北 中中中", "11122233344777z"),
    ("中发白 中发白 中发白 东东", "11555666777z"),
    ("二五八万 二五八筒 二五八条 中中 发发", "258m258p258s6677z"),
    ("两万三万四万 两筒三筒四筒 两条三条四条 白板三张 南", "234m234p234s2555z"),
    ("六六六万 七七七筒 八八八条 九九万 东", "66699m777p888s1z"),
    ("三万 四万 五万 六万 七万 八万 八万", "3456788m"),
    # joining words and the punctuation dictation writes
    ("红中两张和三个五万还有一到七条", "555m1234567s77z"),
    ("西风两张然后三个六筒然后七八九万", "789m666p33z"),
    ("幺鸡二条三条，四五六万，七七七筒，白板一对，发财两张。", "456m777p123s5566z"),
    ("一条二条三条和四条五条六条和七条八条九条和一对白板和三个五筒", "555p123456789s55z"),
    ("二三四万、五六七万、八八八筒、二二条、三四五条", "234567m888p22345s"),
    ("八万八万 一刻九筒 四五六条 跟 七八九条", "88m999p456789s"),
    # traditional characters (萬 餅 條 東風 兩 張 個 對 紅中 發財)
    ("東風兩張 紅中三張 發財一對", "1166777z"),
    ("一萬二萬三萬 四餅五餅六餅 七條八條九條", "123m456p789s"),
    ("一對東風 兩張紅中 三個白板", "1155577z"),
    # full-width forms, as a phone keyboard types them
    ("３个５万，红中两个", "555m77z"),
]


def test_there_are_fifty_spoken_hands():
    assert len(SPOKEN) >= 50 and len({t for t, _ in SPOKEN}) == len(SPOKEN)


@pytest.mark.parametrize("text, expected", SPOKEN)
def test_spoken_hand_parses_to_its_tiles(text, expected):
    assert format_tiles(parse_tiles(text)) == expected


def test_tiles_come_in_the_order_spoken():
    """A count repeats its tile where it was said; the rest keep their order."""
    assert format_tiles(parse_tiles("幺鸡 二条 红中两张 三个五万"), sort=False) == "12s77z555m"
    assert format_tiles(parse_tiles("两张红中 一到三条"), sort=False) == "77z123s"


@pytest.mark.parametrize("text, expected", [
    ("幺鸡", "1s"), ("么鸡", "1s"), ("一条", "1s"), ("幺条", "1s"), ("一饼", "1p"), ("幺筒", "1p"),
    ("两万", "2m"), ("二万", "2m"), ("5萬", "5m"), ("3索", "3s"), ("东风", "1z"), ("東", "1z"),
    ("北风", "4z"), ("白板", "5z"), ("白", "5z"), ("发财", "6z"), ("發", "6z"), ("红中", "7z"),
    ("中", "7z"),
])
def test_one_spoken_tile(text, expected):
    assert Tile.parse(text).code == expected


# -- choices a careful referee makes (API.md "Spoken tile notation") -------------------------

@pytest.mark.parametrize("text, expected", [
    # between two tiles a count goes with the one after it (a number comes before what it
    # counts: 两张三万) ...
    ("红中两张三万", "33m7z"),
    ("五万三张六条", "5m666s"),
    # ... unless that one has its own count after it (every count after its tile)
    ("五万三张红中两张", "555m77z"),
    ("幺鸡两张三万三张", "333m11s"),
    # a pause (space, comma, 和) settles it
    ("红中两张 三万", "3m77z"),
    ("红中两张，三万", "3m77z"),
    ("红中，两张三万", "33m7z"),
    ("红中两张和三万", "3m77z"),
    # a count touching a group on one side and one tile on the other counts the one tile
    ("红中两张一二三万", "123m77z"),
    ("一二三万两张红中", "123m77z"),
    # a counted tile before does not take a second count
    ("三个五万两张红中", "555m77z"),
    # a numeral then 个 across a space is still one count
    ("3 个五万", "555m"),
    # 4 numerals with white space between them still wait for their suit, as before
    ("4 5 6筒", "456p"),
])
def test_referee_choices(text, expected):
    assert format_tiles(parse_tiles(text)) == expected


def test_more_than_four_of_a_kind_is_left_to_the_request_validation(client):
    """``五个五万`` reads as five 五万; the request then says too_many_copies, as for 55555m."""
    assert format_tiles(parse_tiles("五个五万")) == "55555m"
    for hand in ("五个五万 一二三四五六七八条", "55555m12345678s"):
        body = client.post("/api/v1/analyze", json={"variant": "zhengzhou", "hand": hand}).get_json()
        assert body["error"]["code"] == "too_many_copies", body


def test_blank_and_joining_words_alone_are_no_tiles():
    assert parse_tiles("") == [] and parse_tiles("和") == [] and parse_tiles("，。") == []


# -- 20+ bad ones: the error, and where ----------------------------------------------------------

BAD = [
    # (text, message code, the 0-based position in the text as typed)
    ("红中 两张", "tile.count_alone", 3),
    ("三个 五万", "tile.count_alone", 0),
    ("红中，两张", "tile.count_alone", 3),
    ("两张", "tile.count_alone", 0),
    ("三个五万 一对", "tile.count_alone", 5),
    ("３个５万，红中　两个", "tile.count_alone", 8),
    ("三个五万两张", "tile.count_twice", 4),
    ("两张一二三万", "tile.count_of_group", 0),
    ("一二三万两张", "tile.count_of_group", 4),
    ("两张三四五筒", "tile.count_of_group", 0),
    ("0个五万", "tile.bad_count", 0),
    ("幺个五万", "tile.bad_count", 0),
    ("两对五万", "tile.bad_count", 0),
    ("三刻东风", "tile.bad_count", 0),
    ("九到一条", "tile.bad_run", 1),
    ("五到五万", "tile.bad_run", 1),
    ("一条到三万", "tile.bad_run", 2),
    ("一到条", "tile.bad_run", 1),
    ("到九条", "tile.bad_run", 0),
    ("东到北", "tile.bad_run", 1),
    ("一到到九条", "tile.bad_run", 2),
    ("一条到", "tile.bad_run", 2),
    ("1到9z", "tile.bad_honor", 2),
    ("5个筒", "tile.no_number", 2),
    ("三个五", "tile.no_suit", 2),
    ("一二三个五万", "tile.no_suit", 0),
    ("三东风", "tile.no_suit", 0),
    ("幺鸡 二条 红中两张 三个五万 九", "tile.no_suit", 16),
    ("三个五万和红中两张还有八", "tile.no_suit", 11),
    ("鸡", "tile.not_a_tile", 0),
    ("个五万", "tile.not_a_tile", 0),
    ("红中两张三个五万加十", "tile.not_a_tile", 9),
    ("加杠五万", "tile.not_a_tile", 1),
]


def test_there_are_twenty_bad_ones():
    assert len(BAD) >= 20


@pytest.mark.parametrize("text, code, position", BAD)
def test_bad_spoken_text_is_bad_tile_with_the_position(text, code, position):
    with pytest.raises(InputError) as err:
        parse_tiles(text)
    e = err.value
    assert (e.code, e.message.code, e.position) == ("bad_tile", code, position)
    # the message names the same character, counted from 1, and quotes what is there
    assert f"第 {position + 1} 个字符" in str(e.message)
    assert text[position] in str(e.message)


# -- the plain notation reads as before ----------------------------------------------------------

CANONICAL_TEXT = st.lists(st.tuples(
    st.sampled_from("mpsMPS"), st.text(alphabet="0123456789", min_size=1, max_size=5)) | st.tuples(
    st.sampled_from("zZ"), st.text(alphabet="1234567", min_size=1, max_size=5)),
    min_size=1, max_size=8).map(lambda groups: "".join(d + s for s, d in groups))


@settings(max_examples=examples(300), deadline=None)
@given(text=CANONICAL_TEXT)
def test_plain_notation_reads_the_same_on_both_paths(text):
    """``123m456p11z`` (the short path) gives what the general path gives for the same text
    (a space in front sends it there), and prints back canonically."""
    tiles = parse_tiles(text)
    assert parse_tiles(" " + text) == tiles
    assert parse_tiles(format_tiles(tiles)) == sorted(tiles)


def _said(t: Tile, rng) -> str:
    """One tile as a player might say it."""
    if t.code == "1s" and rng.random() < 0.5:
        return "幺鸡"
    if t.is_honor:
        return rng.choice([t.rank_char, ["东风", "南风", "西风", "北风", "白板", "发财", "红中"][t - 27]])
    return rng.choice([t.chinese, f"{t.rank}{t.suit_char}", t.code])


_NUMERALS = {1: "一", 2: "两", 3: "三", 4: "四"}


@settings(max_examples=examples(300), deadline=None)
@given(kinds=st.lists(st.integers(0, 33), min_size=1, max_size=8, unique=True),
       counts=st.lists(st.integers(1, 4), min_size=8, max_size=8),
       seed=st.integers(0, 2**32 - 1))
def test_any_hand_said_with_pauses_reads_back(kinds, counts, seed):
    """Each kind said once with a count in any style (三个五万, 五万三张, 一对, 一刻, or the
    tile repeated), pauses (spaces, commas, 和) between: the same tiles come back."""
    import random

    rng = random.Random(seed)
    parts, expected = [], []
    for k, n in zip(kinds, counts):
        t = ALL_TILES[k]
        expected += [t] * n
        word = _said(t, rng)
        styles = [f"{_NUMERALS[n]}个{word}", f"{n}张{word}", f"{word}{_NUMERALS[n]}张",
                  " ".join([word] * n)]
        if n == 2:
            styles += [f"一对{word}", f"{word}一对"]
        if n == 3:
            styles += [f"一刻{word}", f"{word}一刻"]
        parts.append(rng.choice(styles))
    text = "".join(p + rng.choice([" ", "，", "、", "和", "还有"]) for p in parts)
    assert sorted(parse_tiles(text)) == sorted(expected), text


@settings(max_examples=examples(300), deadline=None)
@given(kinds=st.lists(st.integers(0, 33), min_size=1, max_size=8),
       counts=st.lists(st.integers(1, 4), min_size=8, max_size=8),
       after=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_every_count_on_one_side_reads_back_without_pauses(kinds, counts, after, seed):
    """Dictation often writes no pauses at all: a hand where every tile has its count, all
    before (三个五万两张红中) or all after (五万三张红中两张), still reads back."""
    import random

    rng = random.Random(seed)
    text, expected = "", []
    for k, n in zip(kinds, counts):
        t = ALL_TILES[k]
        expected += [t] * n
        word, count = _said(t, rng), rng.choice([f"{_NUMERALS[n]}张", f"{n}个"])
        text += word + count if after else count + word
    assert sorted(parse_tiles(text)) == sorted(expected), text


# -- every tile field, through the same parser -------------------------------------------------

def test_melds_read_spoken_tiles():
    assert melds_from_text("碰三个五万 杠四张白板 吃一到三条 暗杠东风四张 碰红中三张@2 吃幺鸡二条三条") == [
        {"type": "pong", "tiles": "555m"}, {"type": "kong", "tiles": "5555z"},
        {"type": "chow", "tiles": "123s"}, {"type": "concealed_kong", "tiles": "1111z"},
        {"type": "pong", "tiles": "777z", "from": 2}, {"type": "chow", "tiles": "123s"},
    ]
    # the meld notation as before
    assert melds_from_text("碰555m 暗杠1111z 123p@3 拾1m@3") == [
        {"type": "pong", "tiles": "555m"}, {"type": "concealed_kong", "tiles": "1111z"},
        {"type": "chow", "tiles": "123p", "from": 3}, {"type": "shi", "tiles": "1m", "from": 3}]


def test_a_spoken_meld_error_points_into_the_whole_field():
    text = "碰三个五万 碰三个 东风"
    with pytest.raises(InputError) as err:
        melds_from_text(text)
    e = err.value
    assert (e.code, e.field, e.position) == ("bad_tile", "melds", 7)
    assert text[e.position] == "三" and "第 8 个字符：“三个”" in str(e.message)


def test_hand_notation_reads_spoken_groups():
    h = Hand.parse("三个五万 一到九条 碰红中三张@1")
    assert str(h) == "555m123456789s 碰777z@1"
    with pytest.raises(InputError) as err:
        Hand.parse("一到九条 红中 两张")
    assert (err.value.field, err.value.position) == ("hand", 8)


def test_every_api_tile_field_reads_spoken_tiles(client):
    spoken = {"variant": "zhengzhou", "hand": "一二三万 四五六筒 七八九条 幺鸡两张 红中三张",
              "indicator": "西风", "winning_tile": "幺鸡", "win_by": "self_draw",
              "visible": "三个九筒，一对白板", "melds": []}
    plain = {**spoken, "hand": "123m456p789s11s777z", "indicator": "3z", "winning_tile": "1s",
             "visible": "999p55z"}
    a = client.post("/api/v1/analyze", json=spoken)
    b = client.post("/api/v1/analyze", json=plain)
    assert a.status_code == b.status_code == 200, a.get_json()
    assert a.get_json() == b.get_json()
    melds = {**spoken, "hand": "一二三万 四五六筒 幺鸡两张 红中三张",
             "melds": [{"type": "pong", "tiles": "三个七条"}]}
    body = client.post("/api/v1/analyze", json=melds).get_json()
    assert body["tile_count"] == 14 and "error" not in body, body


def test_a_bad_spoken_hand_is_a_400_with_field_and_position(client):
    resp = client.post("/api/v1/analyze", json={"variant": "zhengzhou",
                                                 "hand": "三个五万 红中 两张 一到九条"})
    assert resp.status_code == 400
    err = resp.get_json()["error"]
    assert (err["code"], err["field"], err["position"]) == ("bad_tile", "hand", 8)
    assert "两张" in err["message"]


def _result(html: str) -> str:
    start = html.index('<section id="result"')
    return html[start:html.index('<div class="col-more">', start)]


def test_the_page_reads_a_spoken_hand(client):
    """GET /?hand=<spoken words> draws the same result as the hand in mpsz."""
    spoken = client.get("/", query_string={"variant": "zhengzhou",
                                           "hand": "一二三万 四五六筒 七八九条 东风三张 南"})
    plain = client.get("/", query_string={"variant": "zhengzhou", "hand": "123m456p789s1112z"})
    assert spoken.status_code == plain.status_code == 200
    html = spoken.get_data(as_text=True)
    assert _result(html) == _result(plain.get_data(as_text=True))
    assert re.search(r'<li class="wait[^"]*">.*?data-tile="2z"', html, re.S)
    assert 'value="一二三万 四五六筒 七八九条 东风三张 南"' in html   # kept as typed


def test_the_page_marks_the_bad_spoken_word_where_it_was_typed(client):
    hand = "一二三万 红中 两张"
    resp = client.get("/", query_string={"variant": "zhengzhou", "hand": hand})
    assert resp.status_code == 422
    html = resp.get_data(as_text=True)
    err = html[html.index('id="hand-error"'):]
    assert "<mark>两</mark>" in err[:600]
    assert "第 9 个字符" in err[:600]
