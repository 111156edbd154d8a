"""The page's text notation for melds (tile strings themselves live in :mod:`webcalc.tiles`).

The form has one text field for all exposed melds; :func:`melds_from_text` turns it into the
API's meld objects, which :func:`webcalc.hand.melds_from_api` then validates.
"""

from __future__ import annotations

import re
from typing import Any

from .errors import InputError
from .hand import Meld
from .messages import Message
from .tiles import FIELD_LABELS, format_tiles, normalize_text, parse_tiles

# words accepted in front of a meld in the page's text field, longest first
_MELD_WORDS = sorted([
    ("碰", "pong"), ("吃", "chow"), ("明杠", "kong"), ("杠", "kong"), ("补杠", "added_kong"),
    ("加杠", "added_kong"), ("绕杠", "added_kong"), ("暗杠", "concealed_kong"),
    ("拾", "shi"), ("搶", "qiang"), ("抢", "qiang"),
    ("pong:", "pong"), ("chow:", "chow"), ("kong:", "kong"), ("added_kong:", "added_kong"),
    ("concealed_kong:", "concealed_kong"), ("shi:", "shi"), ("qiang:", "qiang"),
], key=lambda w: -len(w[0]))

def melds_from_text(text: str) -> list[dict[Any, Any]]:
    """Parse the page's melds field into API meld dicts.

    Groups are separated by spaces, commas or 、; each is an optional kind word
    (碰 吃 明杠/杠 补杠/加杠/绕杠 暗杠, 晋城's 拾 and 搶/抢 (JC-10), or ``pong:`` …), the
    tiles, and optionally ``@seat``. Without a kind word, 3 identical tiles are a pong, 3 in
    a row a chow, 4 identical a kong. ``"碰555m 暗杠1111z 123p@3 拾1m@3"`` →
    ``[{"type": "pong", …}, …]``.

    Raises:
        InputError: ``bad_meld`` / ``bad_tile`` with field ``"melds"``.
    """
    out = []
    for start, token in _meld_tokens(normalize_text(text or "")):
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
                raise InputError("bad_meld", Message("meld.bad_at", seat=seat), "melds")
            source = int(seat)
        try:
            ts = sorted(parse_tiles(token))
        except InputError as e:
            raise _shifted(e, start).with_field("melds", FIELD_LABELS["melds"]) from None
        if kind is None:
            kind = "chow" if len(ts) == 3 and len(set(ts)) == 3 else (
                "kong" if len(ts) == 4 else "pong")
        meld = Meld.build(kind, format_tiles(ts), source)
        out.append(meld.to_dict())
    return out


def _meld_tokens(text: str) -> list[tuple[int, str]]:
    """The groups of the field, each with the index of its first character in ``text``."""
    return [(m.start(), m.group()) for m in re.finditer(r"[^\s,，、;；]+", text)]


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
    return InputError(err.code, message, err.field, err.position + by, err.reasons)



def melds_to_text(melds: list[dict[Any, Any]]) -> str:
    """The inverse of :func:`melds_from_text`: API meld dicts → ``"碰555m@2 暗杠1111z"``.

    Raises:
        InputError: ``bad_meld`` / ``bad_tile`` for a malformed meld dict.
    """
    return " ".join(str(Meld.build(m.get("type"), m.get("tiles"), m.get("from")))
                    for m in melds)
