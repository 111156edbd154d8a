"""Turns as text: the calculator's ``history`` field (the winner's 摸/打 pairs, 三门峡 表) and
the review page's ``turns`` field (one player's whole hand). Both are URL state: the text is
what the URL keeps, taps only rewrite it, and the engine reads the turns it gives and decides
every rule (:func:`webcalc.history.read_history`, :func:`webcalc.story.review`). No rule is
decided here; a token this module cannot split is passed on as typed, so the engine's error
(``bad_tile`` / ``bad_history`` with ``turn``) names it.

History text: turns separated by spaces or commas, each a draw then a discard: ``7z7z 1m2m``
(what the palette writes), also ``摸中打中`` or ``中中``. A token of one tile is a turn whose
discard is still to come (the next tap adds it).

Review text (``turns``), one token per turn, the player's own words:

=====================  ======================================================================
``摸1m打2m``            draw 1m, discard 2m
``打2m``                the dealer's first turn (14 dealt tiles): a discard without a draw
``碰555m@2打3m``        pong (吃 chow, 杠 a claimed kong) of ``555m`` from seat 2, discard 3m
``杠5555m@1补1s打2s``   a claimed kong, its replacement 1s, then the discard
``摸5m杠5m补1s打2s``    a concealed kong (four held) or an added kong (a pong of it exposed)
``摸5m胡``              a win on the draw (``补1s胡``: on the kong's replacement)
``胡5m@3``              a win on seat 3's discard
=====================  ======================================================================

The English words ``draw discard pong chow kong replace win`` are read as 摸 打 碰 吃 杠 补 胡
(``draw1mdiscard2m``); taps write the Chinese ones.
"""

from __future__ import annotations

import re

from ..errors import InputError
from ..tiles import Tile, format_tiles, parse_tiles

_SPLIT = re.compile(r"[\s,，、;；]+")
#: the review's words (any order of keys within a token is read as written)
_WORD = re.compile(r"(摸|打|碰|吃|杠|补|胡|draw|discard|pong|chow|kong|replace|win)", re.I)
#: the English words the typed text also takes, as the Chinese ones
_ENGLISH = {"draw": "摸", "discard": "打", "pong": "碰", "chow": "吃", "kong": "杠",
            "replace": "补", "win": "胡"}
_CLAIM = {"碰": "pong", "吃": "chow", "杠": "kong"}


def tokens(text: str | None) -> list[str]:
    return [t for t in _SPLIT.split(text or "") if t]


def _tiles(text: str) -> list[Tile] | None:
    try:
        return parse_tiles(text)
    except InputError:
        return None


def _code(text: str) -> str:
    """One tile's canonical code when ``text`` is one tile, else the text as typed (the
    engine says what is wrong with it)."""
    t = _tiles(text)
    return t[0].code if t is not None and len(t) == 1 else text


# -- the calculator's history --------------------------------------------------------------

def history_pairs(text: str | None) -> list[tuple[str, str | None]] | None:
    """The turns of a history text as ``(draw, discard)`` tile codes (``discard`` ``None``
    while still to be tapped), or ``None`` when a token cannot be read as one or two tiles
    (the typed text then stays, and the engine's error is shown)."""
    out: list[tuple[str, str | None]] = []
    for tok in tokens(text):
        if "打" in tok:
            d, _sep, x = tok.partition("打")
            a, b = _tiles(d.replace("摸", "")), _tiles(x)
            if a is None or b is None or len(a) != 1 or len(b) != 1:
                return None
            out.append((a[0].code, b[0].code))
            continue
        ts = _tiles(tok.replace("摸", ""))
        if ts is None or not 1 <= len(ts) <= 2:
            return None
        out.append((ts[0].code, ts[1].code if len(ts) == 2 else None))
    return out


def history_request(text: str | None) -> list[dict]:
    """The API's ``history`` (``[{"draw", "discard"}, …]``) for a history text. A token that
    is not a draw and a discard goes on as it is (a lone draw without ``discard``, text the
    notation cannot read as ``draw``), and the engine's ``bad_history`` names its turn."""
    out: list[dict] = []
    for tok in tokens(text):
        if "打" in tok:
            d, _sep, x = tok.partition("打")
            out.append({"draw": _code(d.replace("摸", "")), "discard": _code(x)})
            continue
        ts = _tiles(tok.replace("摸", ""))
        if ts is None or not ts:
            out.append({"draw": tok})
        elif len(ts) == 1:
            out.append({"draw": ts[0].code})
        else:
            out.append({"draw": ts[0].code,
                        "discard": format_tiles(ts[1:], sort=False)})
    return out


def history_text(history: list | None) -> str:
    """A stored ``history`` (the API's list) as the page's text: ``7z7z 1m2m``."""
    out = []
    for t in history or []:
        if isinstance(t, dict):
            out.append(_code(str(t.get("draw", ""))) + _code(str(t.get("discard", ""))))
    return " ".join(out)


def history_tap(text: str | None, code: str) -> str:
    """The history text after a palette tap: the discard of the last turn when it has only
    its draw, else the draw of a new turn."""
    toks = tokens(text)
    pairs = history_pairs(text)
    if pairs and pairs[-1][1] is None:
        toks[-1] = toks[-1] + code
    else:
        toks.append(code)
    return " ".join(toks)


# -- the review's turns --------------------------------------------------------------------

def review_turn(tok: str) -> dict:
    """One review token as the API's turn (API.md "Hand review"). Parts that cannot be read
    go on as typed: the engine answers ``bad_tile`` / ``bad_history`` with the turn."""
    parts = [p for p in _WORD.split(tok) if p != ""]
    turn: dict = {}
    i = 0
    if parts and not _WORD.fullmatch(parts[0]):
        turn["draw"] = _code(parts[0])          # a bare tile first: its draw (``5m打2m``)
        i = 1
    while i < len(parts):
        word = _ENGLISH.get(parts[i].lower(), parts[i])
        arg = parts[i + 1] if i + 1 < len(parts) and not _WORD.fullmatch(parts[i + 1]) else None
        i += 2 if arg is not None else 1
        if word == "摸":
            turn["draw"] = _code(arg or "")
        elif word == "打":
            turn["discard"] = _code(arg or "")
        elif word == "补":
            turn["replacement"] = _code(arg or "")
        elif word in _CLAIM:
            body, _sep, seat = (arg or "").partition("@")
            one = _tiles(body)
            if word == "杠" and ("draw" in turn or (one is not None and len(one) == 1)):
                # one tile named, or after a draw: the player's own kong (concealed or
                # added); a claimed kong names its four tiles
                turn["kong"] = _code(body)
                continue
            turn["claim"] = _CLAIM[word]
            turn["tiles"] = body
            if seat != "":
                turn["from"] = int(seat) if seat in ("0", "1", "2", "3") else seat
        elif word == "胡":
            if arg:
                body, _sep, seat = arg.partition("@")
                turn.update(claim="win", tile=_code(body))
                if seat != "":
                    turn["from"] = int(seat) if seat in ("0", "1", "2", "3") else seat
            else:
                turn["win"] = True
    return turn


def review_request(text: str | None) -> list[dict]:
    return [review_turn(t) for t in tokens(text)]


def review_text(turns: list[dict]) -> str:
    """Turns (the API's) as the review's text, one token each."""
    out = []
    for t in turns:
        s = ""
        if "draw" in t:
            s += "摸" + t["draw"]
        if t.get("claim") == "win":
            s += "胡" + t["tile"] + (f"@{t['from']}" if t.get("from") is not None else "")
        elif "claim" in t:
            s += {"pong": "碰", "chow": "吃", "kong": "杠"}[t["claim"]] + t["tiles"]
            s += f"@{t['from']}" if t.get("from") is not None else ""
        if "kong" in t:
            s += "杠" + t["kong"]
        if "replacement" in t:
            s += "补" + t["replacement"]
        if "discard" in t:
            s += "打" + t["discard"]
        if t.get("win"):
            s += "胡"
        out.append(s)
    return " ".join(out)
