"""Template helpers: tile codes from the result dict → faces to draw, Chinese labels."""

from __future__ import annotations

import re

from flask import Flask

from ..variants.base import WIN_METHOD_CHINESE

KIND_LABELS = {
    "pair": "对子",
    "sequence": "顺子",
    "triplet": "刻子",
    "kong": "杠",
    "free": "任意",
}

SHAPE_LABELS = {
    "standard": "四组加一对",
    "seven_pairs": "七对",
    "thirteen_orphans": "十三幺",
    "knitted": "十三不靠",
    "four_wildcards": "四混",
}

MELD_LABELS = {
    "pong": "碰",
    "chow": "吃",
    "kong": "明杠",
    "added_kong": "补杠",
    "concealed_kong": "暗杠",
}

ITEM_LABELS = {
    "win": "胡牌",
    "kong": "杠",
    "follow_dealer": "前包（跟庄）",
    "draw_penalty": "后包",
}

SEAT_LABELS = ("东家", "南家", "西家", "北家")

_RULE_TAIL = re.compile(r"（([A-Z]{1,3}-\d+(?:[、,，]\s*[A-Z]{1,3}-\d+)*)）\s*$")


def split_rule(detail) -> tuple[str, list[str]]:
    """An engine ``detail`` → (text, [rule ids]) when it ends with ``（ZZ-4、ZZ-5）``."""
    text = str(detail or "")
    m = _RULE_TAIL.search(text)
    if not m:
        return text, []
    return text[:m.start()], re.split(r"[、,，]\s*", m.group(1))


def points(x, sign: bool = False) -> str:
    """A settlement amount as the engine's details print it (no exponent); ``sign`` adds +."""
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return str(x)
    if isinstance(x, float) and x.is_integer() and abs(x) < 1e15:
        x = int(x)
    text = str(x) if isinstance(x, int) else repr(x)
    return ("+" + text) if sign and x > 0 else text


class TileFace:
    """What the tile macro needs to draw one tile."""

    __slots__ = ("code", "chinese", "rank_char", "suit_char", "suit")

    def __init__(self, code: str, chinese: str, rank_char: str, suit_char: str):
        self.code = code
        self.chinese = chinese
        self.rank_char = rank_char
        self.suit_char = suit_char
        self.suit = code[-1:] if code else ""


def tile_face(code: str) -> TileFace:
    """Map a canonical tile code (``"5m"``) to its face; an unknown code is drawn as text."""
    from ..tiles import Tile

    try:
        t = Tile.parse(str(code))
    except Exception:  # noqa: BLE001 - drawing never fails on an odd code
        return TileFace(str(code), str(code), str(code), "")
    return TileFace(t.code, t.chinese, t.rank_char, t.suit_char)


def seat_label(seat) -> str:
    if isinstance(seat, int) and 0 <= seat < len(SEAT_LABELS):
        return SEAT_LABELS[seat]
    return "—" if seat is None else str(seat)


def init_app(app: Flask) -> None:
    app.jinja_env.globals.update(
        tile_face=tile_face,
        KIND_LABELS=KIND_LABELS,
        SHAPE_LABELS=SHAPE_LABELS,
        ITEM_LABELS=ITEM_LABELS,
        MELD_LABELS=MELD_LABELS,
        seat_label=seat_label,
        SEAT_NAMES=SEAT_LABELS,
        WIN_BY_LABELS=WIN_METHOD_CHINESE,
        split_rule=split_rule,
        points=points,
    )
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
