"""Tiles and tile notation (API.md "Tile notation"; GLOSSARY).

A :class:`Tile` is one of the 34 kinds, backed by an int 0..33: ``1m``..``9m`` are 0..8,
``1p``..``9p`` 9..17, ``1s``..``9s`` 18..26 and the honors ``1z``..``7z`` 27..33 in the
tenhou order 东 南 西 北 白 发 中.

:func:`parse_tiles` reads every form API.md lists — mpsz (``123m456p11z``, ``0`` = red five
read as 5) and Chinese (``一万二万``, ``1万2万``, ``123万``, ``5筒``/``5饼``, ``3条``/``3索``,
``东南西北``, ``中``/``红中``, ``发``/``发财``, ``白``/``白板``, ``东风``), mixed freely, white
space and commas ignored; full-width forms (``１２３ｍ``) read as ASCII (NFKC).
:func:`format_tiles` prints the canonical, sorted mpsz form, so
``format_tiles(parse_tiles(format_tiles(x))) == format_tiles(x)``.

Errors are :class:`~webcalc.errors.InputError` with code ``bad_tile`` and the 0-based
``position`` of the offending character.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence

from .errors import InputError
from .messages import Message

SUITS = "mpsz"
SUIT_CHINESE = {"m": "万", "p": "筒", "s": "条", "z": ""}
NUMERALS = "一二三四五六七八九"
HONOR_CHINESE = "东南西北白发中"          # 1z..7z
NUM_KINDS = 34
CODES: tuple[str, ...] = tuple(f"{i % 9 + 1}{SUITS[i // 9]}" for i in range(NUM_KINDS))

FIELD_LABELS = {f: Message(f"field.{f}")
                for f in ("hand", "melds", "indicator", "visible", "winning_tile", "start")}


class Tile(int):
    """One of the 34 tile kinds; an ``int`` 0..33, so it indexes count vectors directly.

    >>> Tile.parse("5p"), str(Tile.parse("5p")), Tile.parse("7z").chinese
    (Tile.parse('5p'), '5p', '中')
    """

    __slots__ = ()
    _cache: list[Tile] = []

    def __new__(cls, index: int) -> Tile:
        if cls._cache:
            try:
                if index < 0:
                    raise IndexError
                return cls._cache[index]
            except (IndexError, TypeError):
                raise ValueError(f"tile index must be 0..33, not {index!r}") from None
        return super().__new__(cls, index)

    @classmethod
    def parse(cls, code: str) -> Tile:
        """Parse exactly one tile in any accepted notation (``"5m"``, ``"五万"``, ``"中"``).

        Raises:
            InputError: ``bad_tile`` when ``code`` is not exactly one tile.
        """
        tiles = parse_tiles(code)
        if len(tiles) != 1:
            raise InputError("bad_tile", Message("tile.not_one_tile", text=code), None, 0)
        return tiles[0]

    @property
    def suit(self) -> str:
        """``"m"``, ``"p"``, ``"s"`` or ``"z"``."""
        return SUITS[self // 9]

    @property
    def rank(self) -> int:
        """1..9 for suited tiles, 1..7 for honors."""
        return self % 9 + 1

    @property
    def code(self) -> str:
        """Canonical code, e.g. ``"5m"``, ``"7z"``."""
        return CODES[self]

    @property
    def is_honor(self) -> bool:
        return self >= 27

    @property
    def is_terminal_or_honor(self) -> bool:
        """幺九: a 1 or 9 of a suit, or any honor."""
        return self >= 27 or self.rank in (1, 9)

    @property
    def rank_char(self) -> str:
        """The big character on the face: ``"五"`` for 5m, ``"中"`` for 7z."""
        return HONOR_CHINESE[self - 27] if self.is_honor else NUMERALS[self.rank - 1]

    @property
    def suit_char(self) -> str:
        """``"万"``, ``"筒"``, ``"条"``, or ``""`` for honors."""
        return SUIT_CHINESE[self.suit]

    @property
    def chinese(self) -> str:
        """Chinese name: ``"五万"``, ``"一条"``, ``"东"``, ``"中"``."""
        return self.rank_char + self.suit_char

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Tile.parse({self.code!r})"


Tile._cache = [Tile(i) for i in range(NUM_KINDS)]
ALL_TILES: tuple[Tile, ...] = tuple(Tile._cache)
HONORS: tuple[Tile, ...] = ALL_TILES[27:]


def tile(suit: str, rank: int) -> Tile:
    """The tile of ``suit`` (``m/p/s/z``) and ``rank`` (1-based)."""
    return ALL_TILES[SUITS.index(suit) * 9 + rank - 1]


_SUIT_MARKS = {
    "m": "m", "M": "m", "万": "m", "萬": "m",
    "p": "p", "P": "p", "筒": "p", "饼": "p", "餅": "p",
    "s": "s", "S": "s", "条": "s", "條": "s", "索": "s",
    "z": "z", "Z": "z",
}
_DIGITS = {**{str(d): d for d in range(10)}, **{c: i + 1 for i, c in enumerate(NUMERALS)},
           "幺": 1, "两": 2}
# (text, tile code) — longest forms first so 红中 beats 中 and 东风 beats 东.
_HONOR_WORDS = sorted([
    ("东风", "1z"), ("南风", "2z"), ("西风", "3z"), ("北风", "4z"),
    ("東風", "1z"), ("南風", "2z"), ("西風", "3z"), ("北風", "4z"),
    ("白板", "5z"), ("发财", "6z"), ("發財", "6z"), ("红中", "7z"), ("紅中", "7z"),
    ("东", "1z"), ("東", "1z"), ("南", "2z"), ("西", "3z"), ("北", "4z"),
    ("白", "5z"), ("发", "6z"), ("發", "6z"), ("中", "7z"),
], key=lambda w: -len(w[0]))
_SEPARATORS = set(" \t\r\n,，、;；　")


def normalize_text(text: str) -> str:
    """Full-width forms read as ASCII (``１２３ｍ`` → ``123m``, ``　`` → space, ``，`` → ``,``),
    as Chinese phone keyboards type them: NFKC, one character at a time, so every position
    in the result is the position of the character typed (error positions stay right)."""
    if text.isascii():
        return text
    out = []
    for ch in text:
        n = unicodedata.normalize("NFKC", ch)
        out.append(n if len(n) == 1 else ch)
    return "".join(out)


def _bad(message: Message, position: int) -> InputError:
    return InputError("bad_tile", message, None, position)


#: the notation most requests use (``123m456p11z``: digits and suit letters only, every
#: honor digit 1-7), read by a shorter path than the general one
_PLAIN_NOTATION = re.compile(r"(?:[0-9]+[mpsMPS]|[1-7]+[zZ])+")
_PLAIN_GROUP = re.compile(r"([0-9]+)([mpsMPSzZ])")
_SUIT_START = {"m": 0, "M": 0, "p": 9, "P": 9, "s": 18, "S": 18, "z": 27, "Z": 27}
_RANK = {str(d): d - 1 for d in range(1, 10)} | {"0": 4}      # 0: a red five


def parse_tiles(text: str) -> list[Tile]:
    """Parse a tile string in any accepted notation into tiles, in input order.

    Returns:
        the tiles, one :class:`Tile` per tile written (an empty list for blank text).

    Raises:
        InputError: ``bad_tile`` with ``position`` set, for an unknown character, a digit
            with no suit after it, a suit with no digit before it, ``8z``/``9z``/``0z``.
            ``field`` is ``None``; the caller attributes it (:meth:`InputError.with_field`).
    """
    if not isinstance(text, str):
        raise InputError("bad_tile", Message("tile.not_text"), None, None)
    if _PLAIN_NOTATION.fullmatch(text):
        out = []
        tiles = ALL_TILES
        for digits, suit in _PLAIN_GROUP.findall(text):
            start = _SUIT_START[suit]
            out += [tiles[start + _RANK[d]] for d in digits]
        return out
    text = normalize_text(text)
    out: list[Tile] = []
    pending: list[tuple[int, int, str]] = []       # (value, position, char)
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in _SEPARATORS:
            i += 1
            continue
        if ch in _DIGITS:
            pending.append((_DIGITS[ch], i, ch))
            i += 1
            continue
        suit = _SUIT_MARKS.get(ch)
        if suit is not None:
            if not pending:
                raise _bad(Message("tile.no_number", n=i + 1, char=ch), i)
            for value, pos, dch in pending:
                if suit == "z":
                    if not 1 <= value <= 7 or dch not in "1234567":
                        raise _bad(Message("tile.bad_honor", n=pos + 1, char=dch), pos)
                    out.append(tile("z", value))
                else:
                    out.append(tile(suit, value or 5))
            pending.clear()
            i += 1
            continue
        for word, code in _HONOR_WORDS:
            if text.startswith(word, i):
                if pending:
                    value, pos, dch = pending[0]
                    raise _bad(Message("tile.no_suit", n=pos + 1, char=dch), pos)
                out.append(ALL_TILES[27 + int(code[0]) - 1])
                i += len(word)
                break
        else:
            raise _bad(Message("tile.not_a_tile", n=i + 1, char=ch), i)
    if pending:
        value, pos, dch = pending[0]
        raise _bad(Message("tile.no_suit", n=pos + 1, char=dch), pos)
    return out


def format_tiles(tiles: Iterable[int], sort: bool = True) -> str:
    """Print tiles in canonical mpsz notation, digits grouped before their suit letter.

    ``sort=True`` (default) sorts by kind: ``[5m, 1m, 1z]`` → ``"15m1z"``; with
    ``sort=False`` the order is kept and a suit letter closes each run.
    """
    seq = sorted(tiles) if sort else list(tiles)
    parts: list[str] = []
    run_suit = None
    for t in seq:
        t = ALL_TILES[t]
        if run_suit is not None and t.suit != run_suit:
            parts.append(run_suit)
        parts.append(str(t.rank))
        run_suit = t.suit
    if run_suit is not None:
        parts.append(run_suit)
    return "".join(parts)


def counts_of(tiles: Iterable[int]) -> list[int]:
    """A 34-long count vector of ``tiles``."""
    c = [0] * NUM_KINDS
    for t in tiles:
        c[t] += 1
    return c


def tiles_of(counts: Sequence[int]) -> list[Tile]:
    """The tiles of a 34-long count vector, sorted."""
    return [ALL_TILES[k] for k in range(NUM_KINDS) for _ in range(counts[k])]
