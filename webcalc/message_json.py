"""A :class:`~webcalc.messages.Message` and its parameters as plain JSON data and back: what
the ledger stores of what was said. Apart from :mod:`webcalc.messages` because a tile
parameter needs :mod:`webcalc.tiles`, which itself builds messages."""

from __future__ import annotations

from typing import Any

from .messages import Joined, Message
from .tiles import Tile


def to_json(value: Any) -> Any:
    """``value`` (a message, or the parameters one holds) as plain JSON data, for storing what
    was said (the ledger keeps its entries' messages): a message is ``{"code", "params"?,
    "rule"?}``, a tile ``{"tile": code}``, a :class:`Joined` ``{"joined": [...], "zh",
    "en"}``; lists, strings and numbers stay as they are. :func:`from_json` reverses it."""
    if isinstance(value, Message):
        out: dict[Any, Any] = {"code": value.code}
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
            return Tile.parse(data["tile"])
        if "joined" in data:
            return Joined([from_json(v) for v in data["joined"]], data["zh"], data["en"])
        return data
    if isinstance(data, list):
        return [from_json(v) for v in data]
    return data
