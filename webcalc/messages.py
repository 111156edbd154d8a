"""What the engine says, as values: :class:`Message` (a code, its parameters, a rule id).

The engine never writes sentences. It builds ``Message("bad_tile.not_a_tile", {"n": 4,
"char": "x"})`` and the edge renders it in the reader's language with
:func:`webcalc.catalogue.render` (English templates in the catalogue, Simplified Chinese in
``webcalc/translations/zh_Hans_CN/LC_MESSAGES/messages.po``, context = the code).

Parameters are plain values (numbers, strings, tile codes), :class:`~webcalc.tiles.Tile`
objects (templates print ``{tile.code}`` or ``{tile.chinese}``), lists (joined in the
reader's language) or nested messages (seat names, field names, meld kinds …).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class Message:
    """One thing the engine says: ``code`` (a key of :data:`webcalc.catalogue.TEXTS`),
    ``params`` (the values the sentence names) and ``rule`` (the RULES id, or ``None``).

    ``str(message)`` is the Simplified Chinese rendering (the default language)."""

    __slots__ = ("code", "params", "rule")

    def __init__(self, code: str, params: Mapping[str, Any] | None = None,
                 rule: str | None = None, **kw: Any):
        self.code = code
        self.params = {**(params or {}), **kw}
        self.rule = rule

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Message) and (self.code, self.params, self.rule)
                == (other.code, other.params, other.rule))

    def __hash__(self) -> int:
        return hash((self.code, self.rule))

    def __repr__(self) -> str:
        return f"Message({self.code!r}, {self.params!r}, rule={self.rule!r})"

    def __str__(self) -> str:
        from .catalogue import render

        return render(self, "zh")

    def __contains__(self, text: str) -> bool:
        return text in str(self)


def M(code: str, rule: str | None = None, **params: Any) -> Message:
    """Shorthand: ``M("seat", n=0)``."""
    return Message(code, params, rule)


def seat(n: int) -> Message:
    """The name of seat ``n`` (0 East … 3 North)."""
    return Message(f"seat.{n}")


class Joined:
    """A parameter that is several parts joined: by ``zh`` in Chinese, ``en`` in English
    (the arithmetic of a payment is joined by spaces or ``+`` in both)."""

    __slots__ = ("items", "zh", "en")

    def __init__(self, items, zh: str = "、", en: str = ", "):
        self.items = list(items)
        self.zh = zh
        self.en = en

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Joined) and (self.items, self.zh, self.en) == (
            other.items, other.zh, other.en)

    def __repr__(self) -> str:
        return f"Joined({self.items!r}, {self.zh!r}, {self.en!r})"


def to_json(value: Any) -> Any:
    """``value`` (a message, or the parameters one holds) as plain JSON data, for storing what
    was said (the ledger keeps its entries' messages): a message is ``{"code", "params"?,
    "rule"?}``, a tile ``{"tile": code}``, a :class:`Joined` ``{"joined": [...], "zh",
    "en"}``; lists, strings and numbers stay as they are. :func:`from_json` reverses it."""
    from .tiles import Tile

    if isinstance(value, Message):
        out: dict = {"code": value.code}
        if value.params:
            out["params"] = {k: to_json(v) for k, v in value.params.items()}
        if value.rule is not None:
            out["rule"] = value.rule
        return out
    if isinstance(value, Tile):
        return {"tile": value.code}
    if isinstance(value, Joined):
        return {"joined": [to_json(v) for v in value.items], "zh": value.zh, "en": value.en}
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    return value


def from_json(data: Any) -> Any:
    """The value :func:`to_json` made ``data`` from."""
    if isinstance(data, dict):
        if "code" in data:
            return Message(data["code"], {k: from_json(v) for k, v in
                                          (data.get("params") or {}).items()}, data.get("rule"))
        if "tile" in data:
            from .tiles import Tile

            return Tile.parse(data["tile"])
        if "joined" in data:
            return Joined([from_json(v) for v in data["joined"]], data["zh"], data["en"])
        return data
    if isinstance(data, list):
        return [from_json(v) for v in data]
    return data


class Plain(list):
    """A list that holds no :class:`Message`: only strings, numbers, booleans, ``None``
    and lists and dicts of those (an analysis's readings, up to 200 of ~25 values each).
    :func:`webcalc.catalogue.localize` passes it on as it is instead of copying it through."""

    __slots__ = ()
