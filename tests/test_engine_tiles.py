"""Tiles and notation (API.md "Tile notation"; RULES C-1, C-2, C-3)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from webcalc.errors import InputError
from webcalc.hand import Hand, Meld, melds_from_api
from webcalc.notation import melds_from_text
from webcalc.tiles import ALL_TILES, Tile, format_tiles, parse_tiles
from webcalc.wildcards import HENAN, PANJIN, step, wildcards_from_indicator


def codes(text):
    return [t.code for t in parse_tiles(text)]


@pytest.mark.parametrize("text, expected", [
    ("123m456p789s1155z", "123m456p789s1155z"),
    ("一万二万三万", "123m"),
    ("1万2万", "12m"),
    ("123万", "123m"),
    ("5筒5饼", "55p"),
    ("3条3索", "33s"),
    ("东南西北", "1234z"),
    ("中红中", "77z"),
    ("发发财", "66z"),
    ("白白板", "55z"),
    ("东风南风", "12z"),
    ("123万 45p 东东", "123m45p11z"),
    ("0m05p", "5m55p"),                       # 0 is a red five, read as 5
    ("一万二万三万 4 5 6筒 789条 东东东 南南", "123m456p789s11122z"),
    ("  1 m ", "1m"),
    ("九万九筒九条", "9m9p9s"),
])
def test_parse_every_listed_form(text, expected):
    assert format_tiles(parse_tiles(text)) == expected


def test_honor_codes_follow_tenhou_order():
    assert [t.chinese for t in parse_tiles("1234567z")] == ["东", "南", "西", "北", "白", "发", "中"]
    assert Tile.parse("5m").chinese == "五万" and Tile.parse("1s").chinese == "一条"
    assert Tile.parse("9p").rank_char == "九" and Tile.parse("9p").suit_char == "筒"


@given(st.lists(st.sampled_from(ALL_TILES), max_size=30))
def test_notation_round_trip(tiles):
    text = format_tiles(tiles)
    assert sorted(parse_tiles(text)) == sorted(tiles)
    assert format_tiles(parse_tiles(text)) == text
    # the Chinese names parse back to the same tiles
    assert sorted(parse_tiles("".join(t.chinese for t in tiles))) == sorted(tiles)


def test_tile_repr_rebuilds():
    t = Tile.parse("7z")
    assert eval(repr(t)) == t and str(t) == "7z" and int(t) == 33


@pytest.mark.parametrize("text, position", [
    ("123x", 3), ("123", 0), ("m", 0), ("8z", 0), ("0z", 0), ("12m3", 3), ("1东", 0),
    ("万", 0), ("abc", 0),
])
def test_bad_tile_has_code_and_position(text, position):
    with pytest.raises(InputError) as err:
        parse_tiles(text)
    assert err.value.code == "bad_tile"
    assert err.value.position == position
    assert text[position] in str(err.value.message)


def test_with_field_names_the_field():
    with pytest.raises(InputError) as err:
        try:
            parse_tiles("12q")
        except InputError as e:
            raise e.with_field("hand", "手牌") from e
    assert err.value.field == "hand" and str(err.value.message).startswith("手牌：")


@pytest.mark.parametrize("kind, tiles", [
    ("pong", "556m"), ("chow", "135m"), ("chow", "123z"), ("chow", "89m1p"),
    ("kong", "555m"), ("concealed_kong", "5555m5m"), ("added_kong", "1234m"), ("meld", "123m"),
])
def test_bad_meld(kind, tiles):
    with pytest.raises(InputError) as err:
        Meld.build(kind, tiles)
    assert err.value.code == "bad_meld" and err.value.field == "melds"


def test_meld_round_trip():
    melds = melds_from_api([{"type": "pong", "tiles": "555m", "from": 2},
                            {"type": "concealed_kong", "tiles": "1111z"}])
    assert [m.to_dict() for m in melds] == [{"type": "pong", "tiles": "555m", "from": 2},
                                             {"type": "concealed_kong", "tiles": "1111z"}]
    assert str(melds[0]) == "碰555m@2"


def test_melds_text_field():
    assert melds_from_text("碰555m 暗杠东东东东, 123p@3 9999s") == [
        {"type": "pong", "tiles": "555m"},
        {"type": "concealed_kong", "tiles": "1111z"},
        {"type": "chow", "tiles": "123p", "from": 3},
        {"type": "kong", "tiles": "9999s"},
    ]
    assert melds_from_text("") == []
    with pytest.raises(InputError) as err:
        melds_from_text("碰55x")
    assert err.value.code == "bad_tile" and err.value.field == "melds"


@pytest.mark.parametrize("text", ["碰555m+", "123p 5+55m", "暗杠1111z 碰5+55m", "pong:555m+",
                                  "１２３ｍ，碰５+", "拾1m@3 搶+"])
def test_melds_text_error_position_is_the_bad_character_of_the_field(text):
    """The position (and the message's "character N") counts from the start of the whole
    field, past the kind word and the groups before: the page marks the ``+`` itself."""
    with pytest.raises(InputError) as err:
        melds_from_text(text)
    pos = err.value.position
    assert text[pos] == "+" and pos == text.index("+")
    assert f"第 {pos + 1} 个字符" in str(err.value.message)


@pytest.mark.parametrize("read, text", [
    (parse_tiles, "１２ｌ"), (parse_tiles, "１２３ｍ，五ｌ"), (Hand.parse, "１２３ｍ　４５ｌ"),
    (Hand.parse, "１２３ｍ 碰５５ｌ"), (melds_from_text, "碰５５５ｍ，吃１２ｌ"),
    (parse_tiles, "１２ｍ３"), (parse_tiles, "ｍ"),
])
def test_an_error_quotes_the_character_as_typed(read, text):
    """A full-width character is read as its ASCII form (NFKC), but an error quotes it as
    typed (``ｌ``, not ``l``), at the position of what was typed: the reader finds it in
    the field. Position and code are as before."""
    with pytest.raises(InputError) as err:
        read(text)
    pos, message = err.value.position, err.value.message
    if message.code == "field_error":                       # the field's name in front
        message = message.params["text"]
    char = message.params["char"]
    assert char == text[pos] and not char.isascii()
    assert f"“{char}”" in str(err.value.message)


@pytest.mark.parametrize("read, text, groups", [
    (Hand.parse, "１２３ｍ　４５ｌ", ["１２３ｍ", "４５ｌ"]),
    (Hand.parse, "１２３ｍ 碰５５ｌ", ["１２３ｍ", "５５ｌ"]),
    (melds_from_text, "碰５５５ｍ，吃１２ｌ", ["５５５ｍ", "１２ｌ"]),
    (Hand.parse, "１２３ｍ 碰５５５ｍ@２", ["１２３ｍ", "５５５ｍ"]),
])
def test_hand_and_meld_hand_each_group_as_typed_to_parse_tiles(monkeypatch, read, text,
                                                                 groups):
    """Hand.parse and Meld.parse pass each group's tiles to parse_tiles as typed, so that
    parse_tiles is the one place that quotes a character (tiles.quoted_as_typed); they only
    move the position to the field's. (Before, they passed the NFKC form read and quoted
    again themselves.)"""
    from webcalc import hand

    seen: list[str] = []

    def spy(t):
        seen.append(t)
        return parse_tiles(t)

    monkeypatch.setattr(hand, "parse_tiles", spy)
    try:
        read(text)
    except InputError as err:
        pos, message = err.position, err.message
        if message.code == "field_error":
            message = message.params["text"]
        assert message.params["char"] == text[pos] == "ｌ"
    # (a meld's tiles are read once more in the notation it prints, by Meld.build: ASCII)
    assert [t for t in seen if not t.isascii()] == groups


@pytest.mark.parametrize("indicator, cycle, expected", [
    ("9p", HENAN, "1p"), ("4z", HENAN, "7z"), ("7z", HENAN, "6z"), ("5z", HENAN, "1z"),  # SMX-1, ZZ-1
    ("4z", PANJIN, "1z"), ("5z", PANJIN, "7z"), ("7z", PANJIN, "6z"), ("6z", PANJIN, "5z"),  # PJ-1
    ("3z", PANJIN, "4z"), ("9s", PANJIN, "1s"),
])
def test_wildcard_cycles(indicator, cycle, expected):
    assert step(Tile.parse(indicator), cycle, 1).code == expected


def test_panjin_both_mode():
    # PJ-1: 9万 with 游戏混 → 1万 and 8万
    assert [t.code for t in wildcards_from_indicator(Tile.parse("9m"), PANJIN, both=True)] == ["1m", "8m"]
    assert [t.code for t in wildcards_from_indicator(Tile.parse("1z"), PANJIN, both=True)] == ["2z", "4z"]


@given(st.lists(st.tuples(
    st.sampled_from(["pong", "kong", "added_kong", "concealed_kong", "chow"]),
    st.integers(0, 33), st.one_of(st.none(), st.integers(0, 3))), max_size=4))
def test_melds_text_round_trip(specs):
    from webcalc.notation import melds_to_text
    melds = []
    for kind, k, source in specs:
        if kind == "chow":
            if k >= 27 or k % 9 > 6:
                continue
            tiles = [k, k + 1, k + 2]
        else:
            tiles = [k] * (4 if "kong" in kind else 3)
        meld = {"type": kind, "tiles": format_tiles(ALL_TILES[t] for t in tiles)}
        if source is not None:
            meld["from"] = source
        melds.append(meld)
    assert melds_from_text(melds_to_text(melds)) == melds


def test_melds_text_field_taken_tiles_JC10():
    """JC-10: the melds field reads 拾 and 搶 (or 抢) as one-tile melds and prints them back."""
    from webcalc.notation import melds_to_text

    melds = melds_from_text("拾1m@3 搶9p 抢东")
    assert melds == [{"type": "shi", "tiles": "1m", "from": 3}, {"type": "qiang", "tiles": "9p"},
                     {"type": "qiang", "tiles": "1z"}]
    assert melds_to_text(melds) == "拾1m@3 搶9p 搶1z"
    with pytest.raises(InputError) as err:
        melds_from_text("拾11m")
    assert err.value.code == "bad_meld" and err.value.field == "melds"


@given(st.text(alphabet="0123456789mpszMPSZ 东万,", max_size=24))
def test_plain_kinds_is_parse_tiles_where_it_answers(text):
    """:func:`webcalc.tiles.plain_kinds` (the analysis's short path for the notation most
    requests use) gives the kinds :func:`parse_tiles` reads, sorted, or ``None``; it
    answers every text in that notation."""
    from webcalc.tiles import _PLAIN_NOTATION, plain_kinds
    kinds = plain_kinds(text)
    if kinds is None:
        assert not _PLAIN_NOTATION.fullmatch(text)
    else:
        assert kinds == sorted(int(t) for t in parse_tiles(text))
