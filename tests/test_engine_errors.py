"""The engine's input errors: one class per code (issue 37.3), as the ledger's errors are.

Each representative bad input raises its code's own class, a subclass of ``InputError``
whose ``code`` is the code the API answers with; the base class, the code and the message
stay what the web layer and the API read, so the answers do not change. An error re-placed
by the code that caught it (a turn's error, a field's) keeps its class.
"""

from __future__ import annotations

import pytest

from webcalc import errors
from webcalc.analysis import analyze, settle_without_tiles
from webcalc.errors import (
    CODES,
    ERROR_CLASSES,
    BadHistoryError,
    BadJsonError,
    BadMeldError,
    BadOptionError,
    BadRequestError,
    BadSettlementError,
    BadTileError,
    BadWinByError,
    InputError,
    NotCompleteError,
    NotInHandError,
    TooManyCopiesError,
    TooManyError,
    UnknownVariantError,
    WrongTileCountError,
)
from webcalc.messages import Message
from webcalc.quiz import parse_day
from webcalc.story import review
from webcalc.tiles import parse_tiles

ZZ = {"variant": "zhengzhou", "hand": "123m456p789s1134z"}
SMX_WIN = {"variant": "sanmenxia", "indicator": "4z", "win_by": "self_draw",
           "hand": "112233m123p123s9m7z", "winning_tile": "9m"}
WINNER = {"base": 1, "dealer": 0, "winner": 0}


def turn(draw: str, discard: str) -> dict[str, str]:
    return {"draw": draw, "discard": discard}


#: (request, the class, the code, the field): one bad input per code analyze() answers
CASES = [
    ([], BadJsonError, "bad_json", None),
    ({**ZZ, "colour": "red"}, BadRequestError, "bad_request", "colour"),
    ({**ZZ, "variant": "riichi"}, UnknownVariantError, "unknown_variant", "variant"),
    ({**ZZ, "hand": "123m456p789s113x"}, BadTileError, "bad_tile", "hand"),
    ({**ZZ, "hand": "55555m123p456p789s"}, TooManyCopiesError, "too_many_copies", "hand"),
    ({**ZZ, "hand": "123m456p"}, WrongTileCountError, "wrong_tile_count", "hand"),
    # C-13 / SMX-2: 三门峡 has no chow
    ({"variant": "sanmenxia", "hand": "456p789s1134z", "melds": [{"type": "chow", "tiles": "123m"}]},
     BadMeldError, "bad_meld", "melds"),
    ({**ZZ, "options": {"pao_max": "three"}}, BadOptionError, "bad_option", "options.pao_max"),
    ({**ZZ, "options": {"no_such_option": True}}, BadOptionError, "bad_option",
     "options.no_such_option"),
    # 晋城 has no wildcards: no indicator (JC-1)
    ({"variant": "jincheng", "hand": "123m456p789s1134z", "indicator": "3z"}, BadOptionError,
     "bad_option", "indicator"),
    ({**ZZ, "settlement": {"dealer": 9}}, BadSettlementError, "bad_settlement",
     "settlement.dealer"),
    ({**ZZ, "hand": "123m456p789s11344z", "winning_tile": "5z"}, NotInHandError, "not_in_hand",
     "winning_tile"),
    # SMX-2: self-draw and 杠上开花 only
    ({**ZZ, "variant": "sanmenxia", "hand": "123m456p789s11344z", "win_by": "discard"},
     BadWinByError, "bad_win_by", "win_by"),
    # C-15: a winner for a hand that is no win
    ({**ZZ, "hand": "123m456p789s11345z", "winning_tile": "5z", "win_by": "self_draw",
      "settlement": WINNER},
     NotCompleteError, "not_complete", "hand"),
    # SMX-5: a draw that is neither in the hand after the turn nor its discard (turn 0)
    ({**SMX_WIN, "history": [turn("5p", "中"), turn("中", "中")]}, BadHistoryError,
     "bad_history", "history"),
    # a turn's unreadable tile is bad_tile about that turn
    ({**SMX_WIN, "history": [turn("中", "中"), turn("x", "中")]}, BadTileError, "bad_tile",
     "history"),
    # past the documented cap of history turns (422 too_many, the cap in detail)
    ({**SMX_WIN, "history": [turn("中", "中")] * 41}, TooManyError, "too_many", "history"),
]


@pytest.mark.parametrize(("request_", "cls", "code", "field"), CASES,
                         ids=[f"{c[2]}-{c[3]}" for c in CASES])
def test_each_bad_input_raises_its_codes_class(request_, cls, code, field):
    with pytest.raises(InputError) as info:
        analyze(request_)
    err = info.value
    assert type(err) is cls, (type(err), err)
    assert (err.code, err.field) == (code, field)
    assert ERROR_CLASSES[code] is cls
    assert isinstance(err, ValueError)                 # what callers caught before stays
    assert err.to_dict()["code"] == code and err.to_dict()["message"] is err.message


def test_the_turn_an_error_is_about_keeps_its_class_and_turn():
    with pytest.raises(BadHistoryError) as info:
        analyze({**SMX_WIN, "history": [turn("5p", "中"), turn("中", "中")]})
    assert info.value.turn == 0
    with pytest.raises(BadTileError) as tile:
        analyze({**SMX_WIN, "history": [turn("中", "中"), turn("x", "中")]})
    assert tile.value.turn == 1
    with pytest.raises(TooManyError) as cap:
        analyze({**SMX_WIN, "history": [turn("中", "中")] * 41})
    assert cap.value.detail == {"limit": "history_turns", "max": 40}


def test_a_declared_factor_the_room_lacks_is_bad_settlement():
    # SMX-5: 表 declared in a room without wildcards
    with pytest.raises(BadSettlementError) as info:
        settle_without_tiles({"variant": "sanmenxia", "options": {"wildcard": False},
                              "win_by": "self_draw", "settlement": WINNER,
                              "declared": {"biao": 1}})
    assert info.value.field == "declared.biao"


def test_a_review_and_a_quiz_raise_their_codes_class():
    with pytest.raises(BadJsonError):
        review([])
    with pytest.raises(BadRequestError) as info:
        parse_day("2026-13-40")
    assert (info.value.code, info.value.field) == ("bad_request", "date")


def test_a_tile_string_error_keeps_its_position():
    with pytest.raises(BadTileError) as info:
        parse_tiles("123q")
    assert info.value.code == "bad_tile" and info.value.position is not None


def test_one_class_per_code():
    assert set(ERROR_CLASSES) == CODES
    assert len(set(ERROR_CLASSES.values())) == len(CODES)
    for code, cls in ERROR_CLASSES.items():
        assert issubclass(cls, InputError) and cls.code == code
        assert getattr(errors, cls.__name__) is cls
        err = cls(Message("request.not_object"), "hand")
        assert (err.code, err.field, err.message) == (code, "hand", Message("request.not_object"))


def test_a_copy_keeps_the_class_and_everything_else():
    err = BadTileError(Message("tiles.not_text"), "hand", 3, turn=2)
    moved = err.with_field("melds", Message("field.melds"))
    assert type(moved) is BadTileError and moved.field == "melds"
    assert (moved.position, moved.turn, moved.code) == (3, 2, "bad_tile")
    assert moved.message == Message("field_error", {"field": Message("field.melds"),
                                                    "text": Message("tiles.not_text")})
    assert moved.args == (moved.message,) and err.field == "hand"      # the original unchanged
    with pytest.raises(TypeError):
        err.replace(code="bad_meld")


def test_the_base_class_still_takes_a_code():
    # the code paths that carry a code they did not choose (the ledger's) build the base
    err = InputError("bad_settlement", Message("settlement.not_object"), "settlement")
    assert type(err) is InputError and err.code == "bad_settlement"
    with pytest.raises(AssertionError):
        InputError("no_such_code", Message("settlement.not_object"))
