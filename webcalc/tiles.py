"""Tiles and tile notation (API.md "Tile notation"; GLOSSARY).

A :class:`Tile` is one of the 34 kinds, backed by an int 0..33: ``1m``..``9m`` are 0..8,
``1p``..``9p`` 9..17, ``1s``..``9s`` 18..26 and the honors ``1z``..``7z`` 27..33 in the
tenhou order 东 南 西 北 白 发 中.

:func:`parse_tiles` reads every form API.md lists — mpsz (``123m456p11z``, ``0`` = red five
read as 5) and Chinese (``一万二万``, ``1万2万``, ``123万``, ``5筒``/``5饼``, ``3条``/``3索``,
``东南西北``, ``中``/``红中``, ``发``/``发财``, ``白``/``白板``, ``东风``), mixed freely, white
space and commas ignored; full-width forms (``１２３ｍ``) read as ASCII (NFKC); and, as an input
layer on top (API.md "Spoken tile notation"), what a phone's dictation writes: ``幺鸡``,
counts (``三个五万``, ``红中两张``, ``一对东风``), runs (``一到九条``) and joining words
(``和``, ``还有`` …). :func:`format_tiles` prints the canonical, sorted mpsz form, so
``format_tiles(parse_tiles(format_tiles(x))) == format_tiles(x)``.

Errors are :class:`~webcalc.errors.InputError` with code ``bad_tile`` and the 0-based
``position`` of the offending character in the text as it was typed.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence

from .errors import BadTileError, InputError
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
            BadTileError: when ``code`` is not exactly one tile.
        """
        tiles = parse_tiles(code)
        if len(tiles) != 1:
            raise BadTileError(Message("tile.not_one_tile", text=code), None, 0)
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
#: numerals: a rank before a suit (五万, 5万), or a count before 个/张 (三个, 两张)
_DIGITS = {**{str(d): d for d in range(10)}, **{c: i + 1 for i, c in enumerate(NUMERALS)},
           "幺": 1, "么": 1, "两": 2, "兩": 2}
#: numerals that are a rank only, never a count (0 is a red five; 幺 is said of tiles only)
_RANK_ONLY = "0幺么"
#: words that are one tile each (API.md "Tile notation", "Spoken tile notation")
_TILE_WORDS = [
    ("东风", "1z"), ("南风", "2z"), ("西风", "3z"), ("北风", "4z"),
    ("東風", "1z"), ("南風", "2z"), ("西風", "3z"), ("北風", "4z"),
    ("白板", "5z"), ("发财", "6z"), ("發財", "6z"), ("红中", "7z"), ("紅中", "7z"),
    ("东", "1z"), ("東", "1z"), ("南", "2z"), ("西", "3z"), ("北", "4z"),
    ("白", "5z"), ("发", "6z"), ("發", "6z"), ("中", "7z"),
    ("幺鸡", "1s"), ("么鸡", "1s"), ("幺雞", "1s"), ("么雞", "1s"),
]
#: words that only join tiles: read as a separator, like a comma
_JOINING_WORDS = ["和", "跟", "还有", "還有", "加", "加上", "再加", "再加上", "然后", "然後",
                  "以及"]
#: both, by first character, longest first (红中 before 中, 东风 before 东, 幺鸡 before the
#: numeral 幺, 加上 before 加); a joining word means None
_WORDS: dict[str, list[tuple[str, Tile | None]]] = {}
for _word, _tile in sorted([(w, ALL_TILES[CODES.index(c)]) for w, c in _TILE_WORDS]
                           + [(w, None) for w in _JOINING_WORDS], key=lambda w: -len(w[0])):
    _WORDS.setdefault(_word[0], []).append((_word, _tile))
del _word, _tile
#: after one numeral, a count: 个/张 count the numeral (三个 = 3), 对 and 刻 follow 一 only
#: (一对 = 2, 一刻 = 3)
_COUNT_MARKS = {"个": 0, "個": 0, "张": 0, "張": 0, "对": 2, "對": 2, "刻": 3}
#: between two numerals of one suit (一到九条) or two tiles of one suit (一条到九条): a run
_RUN_MARKS = "到至"
_SEPARATORS = set(" \t\r\n,，、;；　。")


def normalize_text(text: str) -> str:
    """Full-width forms read as ASCII (``１２３ｍ`` → ``123m``, ``　`` → space, ``，`` → ``,``),
    as Chinese phone keyboards type them: NFKC, one character at a time, so every position
    in the result is the position of the character typed (error positions stay right, and
    :func:`quoted_as_typed` quotes that character as typed)."""
    if text.isascii():
        return text
    out = []
    for ch in text:
        n = unicodedata.normalize("NFKC", ch)
        out.append(n if len(n) == 1 else ch)
    return "".join(out)


def quoted_as_typed(err: InputError, typed: str) -> InputError:
    """``err``, from reading ``typed`` in its :func:`normalize_text` form, quoting the
    character at its position as typed (``ｌ``, not the ``l`` read): the reader finds it in
    the field. Code, position and the message's other values stay. The one place a tile
    error is quoted: :func:`parse_tiles` calls it, and :meth:`webcalc.hand.Hand.parse` and
    :meth:`~webcalc.hand.Meld.parse` hand it each group as typed, then shift the position."""
    message, i = err.message, err.position or 0
    if err.position is None or not 0 <= i < len(typed) or not isinstance(message, Message) \
            or message.params.get("char", typed[i]) == typed[i]:
        return err
    return err.replace(message=Message(message.code, {**message.params, "char": typed[i]},
                                       message.rule))


def _bad(message: Message, position: int) -> InputError:
    return BadTileError(message, None, position)


#: the notation most requests use (``123m456p11z``: digits and suit letters only, every
#: honor digit 1-7), read by a shorter path than the general one
_PLAIN_NOTATION = re.compile(r"(?:[0-9]+[mpsMPS]|[1-7]+[zZ])+")
_PLAIN_GROUP = re.compile(r"([0-9]+)([mpsMPSzZ])")
_SUIT_START = {"m": 0, "M": 0, "p": 9, "P": 9, "s": 18, "S": 18, "z": 27, "Z": 27}
_RANK = {str(d): d - 1 for d in range(1, 10)} | {"0": 4}      # 0: a red five


def parse_tiles(text: str) -> list[Tile]:
    """Parse a tile string in any accepted notation into tiles, in input order.

    The notations (API.md "Tile notation" and "Spoken tile notation") mix freely: mpsz
    (``123m``), Chinese (``一二三万``, ``123万``, ``东``, ``红中``) and what a phone's dictation
    writes — ``幺鸡`` (1s), counts before or after one tile (``三个五万``, ``红中两张``,
    ``一对东风``, ``一刻``), runs (``一到九条``, ``一条到九条``), and separators (white
    space, ``，、。``, ``和``, ``还有``, ``加`` …):

    >>> format_tiles(parse_tiles("幺鸡 二条 红中两张 三个五万"), sort=False)
    '12s77z555m'
    >>> format_tiles(parse_tiles("一到九条，一对东风和3个5筒"), sort=False)
    '123456789s11z555p'

    A count goes with the single tile it touches (nothing between them); between two tiles
    it goes with the one after it (``红中两张三万`` is 红中 and two 三万), unless that tile
    has its own count after it (``五万三张红中两张``):

    >>> [format_tiles(parse_tiles(t)) for t in ("红中两张三万", "五万三张红中两张")]
    ['33m7z', '555m77z']
    >>> try:
    ...     parse_tiles("红中 两张")
    ... except InputError as err:
    ...     print(err.code, err.position, err.message.code)
    bad_tile 3 tile.count_alone

    Returns:
        the tiles, one :class:`Tile` per tile meant (a counted tile repeated where it was
        written), in the order written; an empty list for blank text. Counts are not
        checked against 4 of a kind here (the request's validation does).

    Raises:
        BadTileError: with ``position``: the 0-based index, in ``text`` as given,
            of the character at fault — an unknown character, a numeral with no suit after
            it, a suit with no numeral before it, ``8z``/``9z``/``0z``, a count with no tile
            touching it or touching a group of tiles, a second count for one tile, a count
            that is not one (``0个``, ``两对``), a run that does not go up within one suit
            (``九到一条``, ``一条到三万``). ``field`` is ``None``; the caller attributes it
            (:meth:`InputError.with_field`).
    """
    if not isinstance(text, str):
        raise BadTileError(Message("tile.not_text"), None, None)
    if _PLAIN_NOTATION.fullmatch(text):
        out = []
        tiles = ALL_TILES
        for digits, suit in _PLAIN_GROUP.findall(text):
            start = _SUIT_START[suit]
            out += [tiles[start + _RANK[d]] for d in digits]
        return out
    try:
        items = _read_items(normalize_text(text))
    except InputError as err:
        raise quoted_as_typed(err, text) from None
    _bind_counts(items)
    out = []
    for item in items:
        if isinstance(item, _Group):
            out += item.tiles * (item.times or 1)
    return out


def plain_kinds(text: str) -> list[int] | None:
    """The kinds (0-33) of the tiles of ``text``, sorted, when it is in the notation most
    requests use (``123m456p11z``: digits and suit letters only), read with no :class:`Tile`
    built: ``sorted(parse_tiles(text))`` as ints; ``None`` for any other text (blank
    included), which :func:`parse_tiles` reads or refuses.

    >>> plain_kinds("1230m11z"), plain_kinds("东")
    ([0, 1, 2, 4, 27, 27], None)
    """
    if not _PLAIN_NOTATION.fullmatch(text):
        return None
    out: list[int] = []
    rank = _RANK
    for digits, suit in _PLAIN_GROUP.findall(text):
        start = _SUIT_START[suit]
        out += [start + rank[d] for d in digits]
    out.sort()
    return out


# -- the general path: items, then counts (API.md "Spoken tile notation") ----------------------

class _Group:
    """Tiles written as one unit (``五万``, ``一二三万``, ``一到九条``, ``红中``, ``5m``)."""

    __slots__ = ("tiles", "joined", "times")

    def __init__(self, tiles: list[Tile], joined: bool) -> None:
        self.tiles = tiles
        self.joined = joined        # nothing (space, punctuation, 和 …) between it and before
        self.times = 0              # set by the count that goes with it


class _Count:
    """A count (``三个``, ``两张``, ``一对``, ``一刻``): ``n`` copies of the tile it goes with."""

    __slots__ = ("n", "position", "word", "joined")

    def __init__(self, n: int, position: int, word: str, joined: bool) -> None:
        self.n = n
        self.position = position    # of its numeral, in the text as typed
        self.word = word
        self.joined = joined


def _read_items(text: str) -> list[_Group | _Count]:
    """The groups and counts of ``text`` (already :func:`normalize_text`), in order.

    Numerals wait for the suit that closes them (white space may come between, ``4 5 6筒``);
    a 个/张/对/刻 turns the last of them into a count.

    Raises:
        BadTileError: with the position of the character at fault.
    """
    items: list[_Group | _Count] = []
    pending: list[tuple[int, int, str]] = []    # numerals: (value, position, char); -1 is 到
    pending_joined = joined = False
    run_at = -1         # the position of a 到 between two tiles (一条到九条), until the second
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in _SEPARATORS:
            joined = False
            i += 1
            continue
        words = _WORDS.get(ch)
        if words is not None:
            entry: tuple[str, Tile | None] | None
            for entry in words:
                if text.startswith(entry[0], i):
                    break
            else:
                entry = None                                    # 幺 not in 幺鸡: a numeral
            if entry is not None:
                word, meaning = entry
                if meaning is None:                             # 和, 还有 …: a separator
                    joined = False
                else:
                    if pending:
                        raise _no_suit(pending)
                    if run_at < 0:
                        items.append(_Group([meaning], joined))
                    else:
                        run_at = _end_run(text, run_at, items[-1], [meaning])
                    joined = True
                i += len(word)
                continue
        value = _DIGITS.get(ch)
        if value is not None:
            if not pending:
                pending_joined = joined
            pending.append((value, i, ch))
        elif ch in _SUIT_MARKS:
            if not pending:
                raise _bad(Message("tile.no_number", n=i + 1, char=ch), i)
            suit = _SUIT_MARKS[ch]
            if len(pending) == 1 and suit != "z":               # the common 五万, 5m
                tiles = [ALL_TILES[_SUIT_START[suit] + (pending[0][0] or 5) - 1]]
            else:
                tiles = _numbered(pending, suit)
            if run_at < 0:
                items.append(_Group(tiles, pending_joined))
            else:
                run_at = _end_run(text, run_at, items[-1], tiles)
            pending.clear()
            joined = True
        elif ch in _COUNT_MARKS and pending and pending[-1][0] >= 0:
            value, pos, dch = pending.pop()
            if pending:
                raise _no_suit(pending)
            if run_at >= 0:
                raise _bad(Message("tile.bad_run", n=run_at + 1, char=text[run_at]), run_at)
            fixed = _COUNT_MARKS[ch]
            if dch in _RANK_ONLY or fixed and value != 1:
                raise _bad(Message("tile.bad_count", n=pos + 1, char=dch), pos)
            items.append(_Count(fixed or value, pos, dch + ch, pending_joined))
            joined = True
        elif ch in _RUN_MARKS:
            if pending and pending[-1][0] >= 0:
                pending.append((-1, i, ch))                     # 一到九条
            elif not pending and run_at < 0 and items and _one_suited(items[-1]):
                run_at = i                                      # 一条到九条
            else:
                raise _bad(Message("tile.bad_run", n=i + 1, char=ch), i)
        else:
            raise _bad(Message("tile.not_a_tile", n=i + 1, char=ch), i)
        i += 1
    if pending:
        raise _no_suit(pending)
    if run_at >= 0:
        raise _bad(Message("tile.bad_run", n=run_at + 1, char=text[run_at]), run_at)
    return items


def _no_suit(pending: list[tuple[int, int, str]]) -> InputError:
    """The error for numerals no suit closed: at the first of them."""
    _value, pos, ch = pending[0]
    return _bad(Message("tile.no_suit", n=pos + 1, char=ch), pos)


def _one_suited(item: _Group | _Count) -> bool:
    return isinstance(item, _Group) and len(item.tiles) == 1 and not item.tiles[0].is_honor


def _numbered(pending: list[tuple[int, int, str]], suit: str) -> list[Tile]:
    """The tiles of numerals closed by ``suit`` (``m p s z``): one per numeral, and for a
    到 the ranks between its two numerals (一到四 → 1 2 3 4).

    Raises:
        BadTileError: ``bad_honor`` for a ``z`` numeral not ``1``-``7``, ``bad_run``
            for a 到 with no numeral after it or one not above the numeral before it.
    """
    start = _SUIT_START[suit]
    out: list[Tile] = []
    last = len(pending) - 1
    for k, (value, pos, ch) in enumerate(pending):
        if value < 0:
            low = pending[k - 1][0] or 5
            high = (pending[k + 1][0] or 5) if k < last else 0
            if high <= low:
                raise _bad(Message("tile.bad_run", n=pos + 1, char=ch), pos)
            out += ALL_TILES[start + low:start + high - 1]
        elif suit == "z":
            if not 1 <= value <= 7 or ch not in "1234567":
                raise _bad(Message("tile.bad_honor", n=pos + 1, char=ch), pos)
            out.append(ALL_TILES[start + value - 1])
        else:
            out.append(ALL_TILES[start + (value or 5) - 1])
    return out


def _end_run(text: str, run_at: int, first: _Group | _Count, tiles: list[Tile]) -> int:
    """After a 到 between two tiles (at ``run_at``), make ``first`` (the tile before the 到)
    the run from it up to ``tiles``, the one tile after. Returns -1: no run is open.

    Raises:
        BadTileError: ``bad_run`` at the 到 when ``tiles`` is not one higher tile of that suit.
    """
    assert isinstance(first, _Group)            # _read_items checked it (_one_suited)
    low = first.tiles[0]
    if len(tiles) != 1 or tiles[0].suit != low.suit or tiles[0] <= low:
        raise _bad(Message("tile.bad_run", n=run_at + 1, char=text[run_at]), run_at)
    first.tiles = list(ALL_TILES[low:tiles[0] + 1])
    return -1


def _bind_counts(items: list[_Group | _Count]) -> None:
    """Give each count to its tile (sets :attr:`_Group.times`): the single tile it touches;
    touching one on each side, the one after it (三张五万 — a number comes before what it
    counts), unless that one has its own count after it (五万三张红中两张).

    Raises:
        BadTileError: at the count's numeral: ``count_alone`` (no tile touches it),
            ``count_of_group`` (it touches several tiles written as one, 一二三万),
            ``count_twice`` (its tile already has a count).
    """
    last = len(items) - 1
    for k, item in enumerate(items):
        if not isinstance(item, _Count):
            continue
        before = items[k - 1] if k and item.joined else None
        after = items[k + 1] if k < last and items[k + 1].joined else None
        prev = before if isinstance(before, _Group) else None
        nxt = after if isinstance(after, _Group) else None
        own = k + 1 < last and isinstance(items[k + 2], _Count) and items[k + 2].joined
        if nxt is not None and _countable(nxt) and not (own and _countable(prev)):
            nxt.times = item.n
        elif prev is not None and _countable(prev):
            prev.times = item.n
        else:
            near = nxt or prev
            code = ("tile.count_alone" if near is None else
                    "tile.count_twice" if near.times else "tile.count_of_group")
            raise _bad(Message(code, n=item.position + 1, word=item.word), item.position)


def _countable(group: _Group | None) -> bool:
    """One tile, not counted yet."""
    return group is not None and len(group.tiles) == 1 and not group.times


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
