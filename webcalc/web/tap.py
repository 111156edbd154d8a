"""Input by tapping: the palette keys and the tiles of the hand are submit buttons of the GET
form; this module turns their one-off URL actions into the new text of the form fields.

The text fields are the state: a tap only rewrites them (``add=5m`` appends 5m to the field the
palette targets, ``remove=3`` drops the 4th tile of the hand as drawn …), and the page then
redirects (or, under htmx, pushes) the canonical URL without the action. No rule is decided
here: the engine still checks every field it receives.

=====================  ======================================================================
``add``                a tile code (``5m``) for the palette's target
``target``             where ``add`` goes: ``hand`` (default), ``melds``, ``indicator``,
                       ``winning_tile``, ``visible``, ``history`` (the winner's last turns: a
                       tap is the draw of a new turn, the next its discard; only where the
                       variant takes a history)
``meld_type``          with ``target=melds``: ``pong`` (default), ``chow`` (tap the lowest
                       tile), ``kong``, ``added_kong``, ``concealed_kong``, and in 晋城
                       ``shi`` 拾 / ``qiang`` 搶 (one tile)
``meld_from``          with ``target=melds``: the seat 0-3 that supplied the tile (``@n``)
``remove``             the index of a tile of the hand as drawn (sorted) to drop
``remove_visible``     the same for the visible tiles
``remove_meld``        the index of a meld to drop
``remove_turn``        the index of a turn of the history to drop
``clear``              a field to empty: ``hand``, ``melds``, ``indicator``, ``winning_tile``,
                       ``visible``, ``history``
=====================  ======================================================================
"""

from __future__ import annotations

from dataclasses import dataclass, field

from werkzeug.datastructures import MultiDict

from .i18n import gettext as _
from .i18n import lazy_gettext as _l

ACTIONS = ("add", "remove", "remove_visible", "remove_meld", "remove_turn", "clear")
TARGETS = ("hand", "melds", "indicator", "winning_tile", "visible", "history")
MELD_TYPES = ("pong", "chow", "kong", "added_kong", "concealed_kong", "shi", "qiang")
#: the word the melds text field uses for each meld type (webcalc.notation)
MELD_WORDS = {"pong": "碰", "chow": "吃", "kong": "明杠", "added_kong": "补杠",
              "concealed_kong": "暗杠", "shi": "拾", "qiang": "搶"}
#: tiles a meld of each type counts toward the 13/14 (C-3; 拾/搶 one each)
MELD_SIZES = {"shi": 1, "qiang": 1}
TARGET_LABELS = {
    "hand": _l("Hand"),
    "melds": _l("Melds"),
    "indicator": _l("Indicator"),
    "winning_tile": _l("Winning tile"),
    "visible": _l("Seen tiles"),
    "history": _l("Turns (摸/打)"),
}
MELD_TYPE_LABELS = {
    "pong": _l("Pong"),
    "chow": _l("Chow"),
    "kong": _l("Exposed kong"),
    "added_kong": _l("Added kong"),
    "concealed_kong": _l("Concealed kong"),
    "shi": _l("Taken from the previous seat (拾)"),
    "qiang": _l("Robbed from any seat (搶)"),
}

#: the 34 palette keys in rows: 万, 筒, 条, honors (东南西北 中发白 as players say them)
PALETTE = [
    [f"{r}m" for r in range(1, 10)],
    [f"{r}p" for r in range(1, 10)],
    [f"{r}s" for r in range(1, 10)],
    ["1z", "2z", "3z", "4z", "7z", "6z", "5z"],
]


def _tiles(text: str):
    """The tiles of ``text``, or ``None`` when it does not parse."""
    if not text:                        # a field not filled in (most of a page's)
        return []
    from ..errors import InputError
    from ..tiles import parse_tiles

    try:
        return parse_tiles(text or "")
    except InputError:
        return None


def _fmt(tiles) -> str:
    from ..tiles import format_tiles

    return format_tiles(tiles)


def _one(code: str):
    from ..tiles import Tile

    try:
        return Tile.parse((code or "").strip())
    except Exception:  # noqa: BLE001 - a bad key is reported, never a 500
        return None


def _index(text: str) -> int | None:
    text = (text or "").strip()
    return int(text) if text.isdecimal() and len(text) < 4 else None  # not isdigit: ²


@dataclass
class Entry:
    """What the tap area draws: the fields as tiles (``None`` where a field does not parse)."""

    hand: list | None = None
    #: the hand's tiles in the order typed (the page's title names them so)
    typed: list | None = None
    melds: list[dict] | None = None
    indicator: list | None = None
    winning: list | None = None
    visible: list | None = None
    #: the history's turns as (draw, discard) codes, discard None while still to come
    history: list | None = None
    target: str = "hand"
    meld_type: str = "pong"
    meld_from: str = ""
    meld_types: tuple = MELD_TYPES    # the builder's choices: the variant's meld types
    used: dict = field(default_factory=dict)
    message: str | None = None    # why the last tap changed nothing

    @property
    def count(self) -> int:
        """Tiles in the hand plus 3 per meld, 1 per 拾/搶 (the count the engine checks)."""
        return len(self.hand or []) + meld_count(self.melds or [])


def meld_count(melds: list[dict]) -> int:
    """What the melds count toward C-3: 3 each (a kong too), 1 per 拾/搶 tile."""
    return sum(MELD_SIZES.get(m.get("type") or "", 3) for m in melds)


def melds_of(text: str) -> list[dict] | None:
    if not text:                        # no melds typed (most pages)
        return []
    from ..errors import InputError
    from ..notation import melds_from_text

    try:
        return melds_from_text(text or "")
    except InputError:
        return None


def meld_tokens(text: str) -> list[str]:
    import re

    return [t for t in re.split(r"[\s,，、;；]+", text or "") if t]


def read_entry(args) -> Entry:
    e = Entry()
    e.target = args.get("target", "hand") if args.get("target") in TARGETS else "hand"
    e.meld_type = args.get("meld_type") if args.get("meld_type") in MELD_TYPES else "pong"
    e.meld_from = args.get("meld_from", "") if args.get("meld_from") in ("0", "1", "2", "3") else ""
    e.meld_types = _meld_types(args.get("variant"), e.meld_type)
    e.typed = hand = _tiles(args.get("hand", ""))
    e.hand = sorted(hand) if hand is not None else None
    e.melds = melds_of(args.get("melds", ""))
    e.indicator = _tiles(args.get("indicator", ""))
    e.winning = _tiles(args.get("winning_tile", ""))
    vis = _tiles(args.get("visible", ""))
    e.visible = sorted(vis) if vis is not None else None
    used: dict[str, int] = {}
    for ts in (e.hand, e.indicator, e.visible):
        for t in ts or []:
            used[t.code] = used.get(t.code, 0) + 1
    for m in e.melds or []:
        for t in _tiles(m.get("tiles", "")) or []:
            used[t.code] = used.get(t.code, 0) + 1
    from .turns import history_pairs

    e.history = history_pairs(args.get("history", ""))
    for _draw, discard in e.history or []:
        if discard:                     # a discard is a copy out of the wall (a draw is
            used[discard] = used.get(discard, 0) + 1    # held, or thrown later)
    e.used = used
    return e


def apply_meld_sources(args) -> MultiDict:
    """``meld_src=i:seat`` (the page's question "who supplied the winner's 明杠/补杠 i?")
    rewrites meld ``i`` of the melds text with ``@seat`` (``i:`` takes it out); other melds
    and values that do not fit are left as they are."""
    out = MultiDict(args)
    values = out.poplist("meld_src")
    tokens = meld_tokens(out.get("melds", ""))
    changed = False
    for value in values:
        index, _sep, seat = (value or "").partition(":")
        i = _index(index)
        if i is None or i >= len(tokens) or seat not in ("", "0", "1", "2", "3"):
            continue
        meld = melds_of(tokens[i])
        if not meld or meld[0].get("type") not in ("kong", "added_kong"):
            continue
        bare = tokens[i].rpartition("@")[0] if "@" in tokens[i] else tokens[i]
        new = bare + ("@" + seat if seat else "")
        if new != tokens[i]:
            tokens[i], changed = new, True
    if changed:
        out.setlist("melds", [" ".join(tokens)])
    return out


def has_action(args) -> bool:
    return any(k in args for k in ACTIONS)


def apply(args) -> tuple[MultiDict, str | None]:
    """The request's arguments with the tap action applied (and removed); a message when the
    tap could not be applied (the fields are then unchanged). One action a request: the first
    of :data:`_TAPS` the arguments carry."""
    out = MultiDict(args)
    for k in ACTIONS:
        out.poplist(k)
    for key, action in _TAPS:
        if key in args:
            return out, action(args, out)
    return out, None


def _text(out: MultiDict, name: str) -> str:
    return (out.get(name) or "").strip()


def _put(out: MultiDict, name: str, value: str) -> None:
    out.setlist(name, [value] if value else [])


def _tap_clear(args, out: MultiDict) -> str | None:
    name = args.get("clear")
    if name in TARGETS:
        _put(out, name, "")
    return None


def _tap_remove(args, out: MultiDict) -> str | None:
    """``remove=i`` (the hand's tile i, sorted) or ``remove_visible=i``; a hand that no
    longer holds its winning tile loses it."""
    name = "hand" if "remove" in args else "visible"
    i = _index(args.get("remove" if name == "hand" else "remove_visible"))
    tiles = _tiles(_text(out, name))
    if tiles is None or i is None or i >= len(tiles):
        return None
    tiles = sorted(tiles)
    gone = tiles.pop(i)
    _put(out, name, _fmt(tiles))
    if name == "hand":
        win = _tiles(_text(out, "winning_tile"))
        if win and len(win) == 1 and win[0] == gone and gone not in tiles:
            _put(out, "winning_tile", "")
    return None


def _tap_remove_turn(args, out: MultiDict) -> str | None:
    from .turns import tokens as turn_tokens

    i = _index(args.get("remove_turn"))
    toks = turn_tokens(_text(out, "history"))
    if i is not None and i < len(toks):
        del toks[i]
        _put(out, "history", " ".join(toks))
    return None


def _tap_remove_meld(args, out: MultiDict) -> str | None:
    i = _index(args.get("remove_meld"))
    tokens = meld_tokens(_text(out, "melds"))
    if i is not None and i < len(tokens):
        del tokens[i]
        _put(out, "melds", " ".join(tokens))
    return None


def _tap_add(args, out: MultiDict) -> str | None:
    """``add=<tile>``: the tile goes to the palette's target (:data:`_ADD`)."""
    t = _one(args.get("add"))
    if t is None:
        return _("Not a tile: %(code)s", code=(args.get("add") or "")[:8])
    target = args.get("target") if args.get("target") in TARGETS else "hand"
    return _ADD[target](args, out, t)


def _add_to_tiles(name: str):
    """Add a tile to the tiles field ``name`` (sorted; a field that cannot be read gets the
    code appended, for its error to show)."""
    def add(args, out: MultiDict, t) -> str | None:
        tiles = _tiles(_text(out, name))
        _put(out, name, _fmt(tiles + [t]) if tiles is not None
             else (_text(out, name) + " " + t.code))
        return None
    return add


def _add_indicator(args, out: MultiDict, t) -> str | None:
    _put(out, "indicator", t.code)
    return None


def _add_history(args, out: MultiDict, t) -> str | None:
    from .turns import history_tap

    _put(out, "history", history_tap(_text(out, "history"), t.code))
    return None


def _add_meld(args, out: MultiDict, t) -> str | None:
    meld, message = _meld(args, t)
    if meld:
        _put(out, "melds", (_text(out, "melds") + " " + meld).strip())
    return message


def _add_winning_tile(args, out: MultiDict, t) -> str | None:
    return _win_tile(out, t)


#: a tapped tile, by the palette's target (every one of TARGETS)
_ADD = {"hand": _add_to_tiles("hand"), "visible": _add_to_tiles("visible"),
        "indicator": _add_indicator, "history": _add_history,
        "winning_tile": _add_winning_tile, "melds": _add_meld}

#: the tap actions in the order they are looked for (a request carries one; ``remove`` before
#: ``remove_visible``, as the hand's is the one the palette shows first)
_TAPS = (("clear", _tap_clear), ("remove", _tap_remove), ("remove_visible", _tap_remove),
         ("remove_turn", _tap_remove_turn), ("remove_meld", _tap_remove_meld),
         ("add", _tap_add))


def _win_tile(out: MultiDict, t) -> str | None:
    """Set the winning tile. A 13-tile hand gets it added (it is the 14th tile); a 14-tile
    hand that holds the old winning tile swaps it for the new one."""
    hand = _tiles(out.get("hand", ""))
    melds = melds_of(out.get("melds", "")) or []
    old = _tiles(out.get("winning_tile", ""))
    out.setlist("winning_tile", [t.code])
    if hand is None:
        return None
    n = len(hand) + meld_count(melds)
    if n == 13:
        out.setlist("hand", [_fmt(hand + [t])])
    elif n == 14 and t not in hand and old and len(old) == 1 and old[0] in hand:
        hand = sorted(hand)
        hand.remove(old[0])
        out.setlist("hand", [_fmt(hand + [t])])
    return None


def _meld(args, t) -> tuple[str | None, str | None]:
    kind = args.get("meld_type") if args.get("meld_type") in MELD_TYPES else "pong"
    source = args.get("meld_from", "")
    if kind == "chow":
        if t.is_honor or t.rank > 7:
            return None, _("For a chow, tap its lowest tile (1 to 7 of 万, 筒 or 条).")
        tiles = [t, _one(f"{t.rank + 1}{t.suit}"), _one(f"{t.rank + 2}{t.suit}")]
    elif kind in MELD_SIZES:
        tiles = [t]                      # 拾/搶: the one tile taken (the engine checks it)
    else:
        tiles = [t] * (3 if kind == "pong" else 4)
    meld = MELD_WORDS[kind] + _fmt(tiles)
    if source in ("0", "1", "2", "3") and kind != "concealed_kong":
        meld += "@" + source
    return meld, None


def _meld_types(variant, chosen: str) -> tuple:
    """The meld types the variant has (the engine says), keeping ``chosen`` listed."""
    from ..variants import VARIANTS

    if variant not in VARIANTS:
        return MELD_TYPES
    kinds = VARIANTS[variant].meld_kinds
    return tuple(k for k in MELD_TYPES if k in kinds or k == chosen)


def canonical_pairs(args) -> list[tuple[str, str]]:
    """The palette's own state in the URL: its target (and the meld builder's choices) when
    not the default."""
    target = args.get("target")
    if target not in TARGETS or target == "hand":
        return []
    pairs = [("target", target)]
    if target == "melds":
        if args.get("meld_type") in MELD_TYPES and args.get("meld_type") != "pong":
            pairs.append(("meld_type", args["meld_type"]))
        if args.get("meld_from") in ("0", "1", "2", "3"):
            pairs.append(("meld_from", args["meld_from"]))
    return pairs
