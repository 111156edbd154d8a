"""Melds and hands: the concealed tiles plus exposed melds (GLOSSARY; RULES C-2, C-3).

A :class:`Meld` is one declared group: ``pong`` (碰), ``chow`` (吃), ``kong`` (明杠, from a
discard), ``added_kong`` (补杠/绕杠: a pong, then the fourth drawn) or ``concealed_kong``
(暗杠), and in 晋城 ``shi`` (拾) / ``qiang`` (搶): one 幺 tile taken from a discard for
十三幺, counted as one tile (JC-10). A :class:`Hand` is the sorted concealed tiles plus the
melds. Both print back in the notation they parse from (``str(meld) == "碰555m"``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .errors import InputError
from .messages import Message
from .tiles import FIELD_LABELS, Tile, counts_of, format_tiles, parse_tiles

MELD_KINDS = ("pong", "chow", "kong", "added_kong", "concealed_kong", "shi", "qiang")
KONG_KINDS = frozenset({"kong", "added_kong", "concealed_kong"})
TAKEN_KINDS = frozenset({"shi", "qiang"})            # JC-10: one frozen tile each
MELD_LABELS = {k: Message(f"meld.{k}") for k in MELD_KINDS}   # 碰 吃 明杠 补杠 暗杠 拾 搶
#: the kind words of the melds text field (notation, data like 万/筒/条: notation.py reads them)
MELD_NOTATION = {"pong": "碰", "chow": "吃", "kong": "明杠", "added_kong": "补杠",
                 "concealed_kong": "暗杠", "shi": "拾", "qiang": "搶"}
SEATS = range(4)


@dataclass(frozen=True)
class Meld:
    """An exposed (or concealed-kong) meld.

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
        """拾 or 搶 (JC-10): one discarded 幺 tile, frozen in the hand."""
        return self.kind in TAKEN_KINDS

    @property
    def size(self) -> int:
        """What the meld counts toward C-3: 3 (a kong too), 1 for 拾/搶 (JC-10)."""
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

    @classmethod
    def build(cls, kind: Any, tiles: Any, source: Any = None, field: str = "melds") -> Meld:
        """Validate and build a meld from API values.

        Raises:
            InputError: ``bad_meld`` for an unknown kind, a wrong shape or seat;
                ``bad_tile`` for unreadable tiles. ``field`` is passed through.
        """
        label = FIELD_LABELS["melds"]
        if kind not in MELD_KINDS:
            raise InputError("bad_meld", Message("field_error", field=label, text=Message(
                "meld.bad_kind", kind=kind, kinds=list(MELD_KINDS))), field)
        if not isinstance(tiles, str):
            raise InputError("bad_meld", Message("field_error", field=label,
                                                 text=Message("meld.tiles_not_text")), field)
        try:
            ts = tuple(sorted(parse_tiles(tiles)))
        except InputError as e:
            raise e.with_field(field, label) from None
        if source is not None and (isinstance(source, bool) or source not in SEATS):
            raise InputError("bad_meld", Message("field_error", field=label,
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
            raise InputError("bad_meld", Message("field_error", field=label, text=Message(
                "meld.invalid", meld=name, tiles=shown, need=need)), field)
        return cls(kind, ts, source)


def melds_from_api(raw: Any) -> list[Meld]:
    """Build melds from the API ``melds`` array of ``{"type", "tiles", "from"?}``.

    Raises:
        InputError: ``bad_meld`` (field ``"melds"``) for a non-list or malformed entry.
    """
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise InputError("bad_meld", Message("meld.not_list"), "melds")
    out = []
    for item in raw:
        if not isinstance(item, dict):
            raise InputError("bad_meld", Message("meld.not_object"), "melds")
        unknown = set(item) - {"type", "tiles", "from"}
        if unknown:
            raise InputError("bad_meld", Message("meld.unknown_key", key=sorted(unknown)[0]),
                             "melds")
        out.append(Meld.build(item.get("type"), item.get("tiles"), item.get("from")))
    return out


@dataclass(frozen=True)
class Hand:
    """Concealed tiles (sorted) plus melds.

    ``tile_count`` counts a kong as 3 and a 拾/搶 tile as 1 (RULES C-3, JC-10): 13 for a
    waiting hand, 14 for a hand that has just drawn or claimed.
    """

    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...] = ()

    @classmethod
    def of(cls, concealed: Iterable[int], melds: Iterable[Meld] = ()) -> Hand:
        tiles = tuple(concealed)
        for t in tiles:
            if t.__class__ is not Tile:                 # (a Tile is already its Tile(t))
                tiles = tuple(Tile(t) for t in tiles)
                break
        return cls(tuple(sorted(tiles)), tuple(melds))

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
