"""The page's text notation for melds (tile strings themselves live in :mod:`webcalc.tiles`).

The form has one text field for all exposed melds; :func:`melds_from_text` turns it into the
API's meld objects, which :func:`webcalc.hand.melds_from_api` then validates.
"""

from __future__ import annotations

import re
from typing import Any

from .hand import Meld
from .tiles import normalize_text


def melds_from_text(text: str) -> list[dict[Any, Any]]:
    """Parse the page's melds field into API meld dicts.

    Groups are separated by spaces, commas or 、; each is an optional kind word
    (碰 吃 明杠/杠 补杠/加杠/绕杠 暗杠, the taken melds' 拾 and 搶/抢, or ``pong:`` …), the
    tiles, and optionally ``@seat``. Without a kind word, 3 identical tiles are a pong, 3 in
    a row a chow, 4 identical a kong (each group: :meth:`webcalc.hand.Meld.parse`).

    >>> melds_from_text("碰555m 暗杠1111z 123p@3 拾1m@3")  # doctest: +NORMALIZE_WHITESPACE
    [{'type': 'pong', 'tiles': '555m'}, {'type': 'concealed_kong', 'tiles': '1111z'},
     {'type': 'chow', 'tiles': '123p', 'from': 3}, {'type': 'shi', 'tiles': '1m', 'from': 3}]

    Raises:
        BadMeldError, BadTileError: with field ``"melds"``.
    """
    typed = text or ""
    return [Meld.parse(typed[start:start + len(token)], start).to_dict()   # quoted as typed
            for start, token in _meld_tokens(normalize_text(typed))]


def _meld_tokens(text: str) -> list[tuple[int, str]]:
    """The groups of the field, each with the index of its first character in ``text``."""
    return [(m.start(), m.group()) for m in re.finditer(r"[^\s,，、;；]+", text)]


def melds_to_text(melds: list[dict[Any, Any]]) -> str:
    """The inverse of :func:`melds_from_text`: API meld dicts → ``"碰555m@2 暗杠1111z"``.

    Raises:
        BadMeldError, BadTileError: for a malformed meld dict.
    """
    return " ".join(str(Meld.build(m.get("type"), m.get("tiles"), m.get("from")))
                    for m in melds)
