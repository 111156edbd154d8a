"""Melds and hands: the concealed tiles plus exposed melds (GLOSSARY; RULES C-2, C-3).

A :class:`Meld` is one declared group: ``pong`` (碰), ``chow`` (吃), ``kong`` (明杠, from a
discard), ``added_kong`` (补杠/绕杠: a pong, then the fourth drawn) or ``concealed_kong``
(暗杠), and where a variant allows them (``Variant.taken_allowed``) the taken melds ``shi``
(拾) / ``qiang`` (搶): one 幺 tile taken from a discard for 十三幺, counted as one tile. A
:class:`Hand` is the sorted concealed tiles plus the
melds. Both print back in the notation they parse from (``str(meld) == "碰555m"``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import BadMeldError, InputError
from .messages import Message
from .tiles import (
    FIELD_LABELS,
    Tile,
    counts_of,
    format_tiles,
    normalize_text,
    parse_tiles,
)

MELD_KINDS = ("pong", "chow", "kong", "added_kong", "concealed_kong", "shi", "qiang")
KONG_KINDS = frozenset({"kong", "added_kong", "concealed_kong"})
TAKEN_KINDS = frozenset({"shi", "qiang"})            # taken melds: one frozen tile each
MELD_LABELS = {k: Message(f"meld.{k}") for k in MELD_KINDS}   # 碰 吃 明杠 补杠 暗杠 拾 搶
#: the kind words of the melds text field (notation, data like 万/筒/条: notation.py reads them)
MELD_NOTATION = {"pong": "碰", "chow": "吃", "kong": "明杠", "added_kong": "补杠",
                 "concealed_kong": "暗杠", "shi": "拾", "qiang": "搶"}
SEATS = range(4)
#: the words accepted in front of a meld (:meth:`Meld.parse`), longest first
_MELD_WORDS = sorted([
    ("碰", "pong"), ("吃", "chow"), ("明杠", "kong"), ("杠", "kong"), ("补杠", "added_kong"),
    ("加杠", "added_kong"), ("绕杠", "added_kong"), ("暗杠", "concealed_kong"),
    ("拾", "shi"), ("搶", "qiang"), ("抢", "qiang"),
    ("pong:", "pong"), ("chow:", "chow"), ("kong:", "kong"), ("added_kong:", "added_kong"),
    ("concealed_kong:", "concealed_kong"), ("shi:", "shi"), ("qiang:", "qiang"),
], key=lambda w: -len(w[0]))


@dataclass(frozen=True)
class Meld:
    """An exposed (or concealed-kong) meld. It prints back in the notation it parses from:

    >>> m = Meld.parse("碰555m@1")
    >>> m, str(m), m.to_dict()
    (Meld.parse('碰555m@1'), '碰555m@1', {'type': 'pong', 'tiles': '555m', 'from': 1})
    >>> Meld.parse("pong:5m5m5m"), Meld.parse("4444p"), Meld.parse("抢1m")
    (Meld.parse('碰555m'), Meld.parse('明杠4444p'), Meld.parse('搶1m'))

    Attributes:
        kind: one of :data:`MELD_KINDS`.
        tiles: the 3 (pong, chow), 4 (kongs) or 1 (拾, 搶) tiles, sorted.
        source: the seat 0-3 that supplied the claimed tile, or ``None``.
    """

    kind: str
    tiles: tuple[Tile, ...]
    source: int | None = None

    @property
    def is_kong(self) -> bool:
        return self.kind in KONG_KINDS

    @property
    def is_taken(self) -> bool:
        """拾 or 搶 (a taken meld): one discarded 幺 tile, frozen in the hand."""
        return self.kind in TAKEN_KINDS

    @property
    def size(self) -> int:
        """What the meld counts toward C-3: 3 (a kong too), 1 for 拾/搶 (a taken meld)."""
        return 1 if self.kind in TAKEN_KINDS else 3

    @property
    def is_concealed(self) -> bool:
        """Only a concealed kong keeps the hand concealed (门清)."""
        return self.kind == "concealed_kong"

    @property
    def group_kind(self) -> str:
        """The decomposition kind: ``sequence``, ``triplet``, ``kong`` or (拾/搶) ``single``."""
        return {"chow": "sequence", "pong": "triplet", "shi": "single",
                "qiang": "single"}.get(self.kind, "kong")

    def to_dict(self) -> dict[Any, Any]:
        """The API form ``{"type", "tiles", "from"?}``."""
        d: dict[str, Any] = {"type": self.kind, "tiles": format_tiles(self.tiles)}
        if self.source is not None:
            d["from"] = self.source
        return d

    def __str__(self) -> str:
        s = MELD_NOTATION[self.kind] + format_tiles(self.tiles)
        return s if self.source is None else f"{s}@{self.source}"

    def __repr__(self) -> str:
        return f"Meld.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str, offset: int = 0) -> Meld:
        """One meld in the page's notation: an optional kind word (碰 吃 明杠/杠
        补杠/加杠/绕杠 暗杠, the taken melds' 拾 and 搶/抢, or ``pong:`` …), the tiles, and
        optionally ``@seat``. Without a kind word, 3 identical tiles are a pong, 3 in a row
        a chow, 4 identical a kong. ``Meld.parse(str(m)) == m`` for every meld ``m``.

        Args:
            text: the group (full-width forms read as ASCII, :func:`~webcalc.tiles.normalize_text`;
                an error quotes its character as typed).
            offset: where ``text`` starts in the field it was typed in: an error's
                position (and its "character N") counts from there.

        Raises:
            BadMeldError, BadTileError: with field ``"melds"``.
        """
        token, start = normalize_text(text), offset
        kind = None
        for word, k in _MELD_WORDS:
            if token.lower().startswith(word):
                kind, token = k, token[len(word):]
                start += len(word)
                break
        source = None
        if "@" in token:
            token, _, seat = token.rpartition("@")
            if seat not in ("0", "1", "2", "3"):
                raise BadMeldError(Message("meld.bad_at", seat=seat), "melds")
            source = int(seat)
        # the tiles as typed (normalize_text keeps every character's place): parse_tiles
        # reads them and its error quotes the character as typed
        typed = text[start - offset:start - offset + len(token)]
        try:
            ts = sorted(parse_tiles(typed))
        except InputError as e:
            raise _shifted(e, start).with_field("melds", FIELD_LABELS["melds"]) from None
        if kind is None:
            kind = "chow" if len(ts) == 3 and len(set(ts)) == 3 else (
                "kong" if len(ts) == 4 else "pong")
        return cls.build(kind, format_tiles(ts), source)

    @classmethod
    def build(cls, kind: Any, tiles: Any, source: Any = None, field: str = "melds") -> Meld:
        """Validate and build a meld from API values.

        Raises:
            BadMeldError: for an unknown kind, a wrong shape or seat.
            BadTileError: for unreadable tiles. ``field`` is passed through.
        """
        label = FIELD_LABELS["melds"]
        if kind not in MELD_KINDS:
            raise BadMeldError(Message("field_error", field=label, text=Message(
                "meld.bad_kind", kind=kind, kinds=list(MELD_KINDS))), field)
        if not isinstance(tiles, str):
            raise BadMeldError(Message("field_error", field=label,
                                       text=Message("meld.tiles_not_text")), field)
        try:
            ts = tuple(sorted(parse_tiles(tiles)))
        except InputError as e:
            raise e.with_field(field, label) from None
        if source is not None and (isinstance(source, bool) or source not in SEATS):
            raise BadMeldError(Message("field_error", field=label,
                                       text=Message("meld.bad_from")), field)
        name = MELD_LABELS[kind]
        shown = format_tiles(ts) or Message("meld.empty")
        if kind == "chow":
            ok = (len(ts) == 3 and not ts[0].is_honor and ts[0].suit == ts[2].suit
                  and ts[1] == ts[0] + 1 and ts[2] == ts[0] + 2)
            need = Message("meld.need_run")
        elif kind in TAKEN_KINDS:
            ok = len(ts) == 1
            need = Message("meld.need_one")
        else:
            size = 4 if kind in KONG_KINDS else 3
            ok = len(ts) == size and len(set(ts)) == 1
            need = Message("meld.need_same", n=size)
        if not ok:
            raise BadMeldError(Message("field_error", field=label, text=Message(
                "meld.invalid", meld=name, tiles=shown, need=need)), field)
        return cls(kind, ts, source)


def _shifted(err: InputError, by: int) -> InputError:
    """``err`` from parsing one group's tiles, its position (and the "character N" of its
    message) counted from the start of the whole field instead: the page marks that
    character of what was typed."""
    if err.position is None or not by:
        return err
    message = err.message
    if isinstance(message, Message) and isinstance(message.params.get("n"), int):
        message = Message(message.code, {**message.params, "n": message.params["n"] + by},
                          message.rule)
    return err.replace(message=message, position=err.position + by, turn=None, detail=None)


def melds_from_api(raw: Any) -> list[Meld]:
    """Build melds from the API ``melds`` array of ``{"type", "tiles", "from"?}``.

    Raises:
        BadMeldError: (field ``"melds"``) for a non-list or malformed entry.
    """
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise BadMeldError(Message("meld.not_list"), "melds")
    out = []
    for item in raw:
        if not isinstance(item, dict):
            raise BadMeldError(Message("meld.not_object"), "melds")
        unknown = set(item) - {"type", "tiles", "from"}
        if unknown:
            raise BadMeldError(Message("meld.unknown_key", key=sorted(unknown)[0]),
                               "melds")
        out.append(Meld.build(item.get("type"), item.get("tiles"), item.get("from")))
    return out


@dataclass(frozen=True)
class Hand:
    """Concealed tiles (sorted) plus melds. It prints back in the notation it parses from:

    >>> h = Hand.parse("123m456p11z 碰555m@1 暗杠7777z")
    >>> h, h.tile_count
    (Hand.parse('123m456p11z 碰555m@1 暗杠7777z'), 14)
    >>> str(Hand.parse("11z 456p 123m 暗杠7777z 碰555m@1"))
    '123m456p11z 暗杠7777z 碰555m@1'

    ``tile_count`` counts a kong as 3 and a 拾/搶 tile as 1 (RULES C-3): 13 for a
    waiting hand, 14 for a hand that has just drawn or claimed.
    """

    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...] = ()

    @classmethod
    def of(cls, concealed: Iterable[int], melds: Iterable[Meld] = ()) -> Hand:
        tiles: tuple[Any, ...] = tuple(concealed)     # Tiles once the loop has checked them
        for t in tiles:
            if t.__class__ is not Tile:                 # (a Tile is already its Tile(t))
                tiles = tuple(Tile(t) for t in tiles)
                break
        return cls(tuple(sorted(tiles)), tuple(melds))

    @classmethod
    def of_sorted(cls, concealed: tuple[Tile, ...], counts: Sequence[int],
                  melds: Iterable[Meld] = ()) -> Hand:
        """:meth:`of` concealed tiles given as sorted :class:`Tile`\\ s, with their 34
        ``counts``: nothing sorted again, and without melds :meth:`held_counts` is known
        (the instance's fields set as the frozen ``__init__`` sets them, in one step)."""
        melds = tuple(melds)
        if melds:
            return cls(concealed, melds)
        hand = object.__new__(cls)
        hand.__dict__.update(concealed=concealed, melds=melds, _held=tuple(counts))
        return hand

    @property
    def tile_count(self) -> int:
        if not self.melds:
            return len(self.concealed)
        return len(self.concealed) + sum(m.size for m in self.melds)

    @property
    def is_concealed(self) -> bool:
        """门清: no melds other than concealed kongs."""
        return all(m.is_concealed for m in self.melds)

    def all_tiles(self) -> list[Tile]:
        """Concealed tiles plus every meld tile (a kong's four)."""
        return list(self.concealed) + [t for m in self.melds for t in m.tiles]

    def held_counts(self) -> list[int]:
        """34-vector of the tiles held: concealed plus melds (C-9 "held"); a new list each
        call (counted once per hand: an analysis asks for it several times)."""
        held = self.__dict__.get("_held")
        if held is None:
            held = tuple(counts_of(self.all_tiles()))
            object.__setattr__(self, "_held", held)
        return list(held)

    def __str__(self) -> str:
        return " ".join([format_tiles(self.concealed)] + [str(m) for m in self.melds])

    def __repr__(self) -> str:
        return f"Hand.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Hand:
        """A hand in the notation :meth:`__str__` prints: groups separated by spaces; a
        group led by a kind word (碰 吃 明杠 补杠 暗杠 拾 搶, ``pong:`` …) is a meld
        (:meth:`Meld.parse`), in the order given; the other groups are the concealed tiles.
        ``Hand.parse(str(h)) == h`` for every hand ``h``.

        Raises:
            BadTileError: (field ``"hand"``) or, for a meld, as :meth:`Meld.parse`.
        """
        concealed: list[Tile] = []
        melds: list[Meld] = []
        for group in re.finditer(r"\S+", normalize_text(text)):
            token = group.group()
            # each group passed on as typed (normalize_text keeps every character's place):
            # parse_tiles, the one place that quotes a character, quotes it as typed
            typed = text[group.start():group.end()]
            if any(token.lower().startswith(word) for word, _ in _MELD_WORDS):
                melds.append(Meld.parse(typed, group.start()))
                continue
            try:
                concealed += parse_tiles(typed)
            except InputError as e:
                raise _shifted(e, group.start()).with_field("hand", FIELD_LABELS["hand"]) \
                    from None
        return cls.of(concealed, melds)
