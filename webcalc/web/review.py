"""The hand review page (牌谱复盘, ``GET /review``): a learner taps in the dealt hand and the
turns, and steps through them. The review is the engine's (:func:`webcalc.story.review`, the
same function as ``POST /api/v1/review``); this module only keeps the URL state, applies a tap
to its text and renders the answer. docs/decisions.md "The review page".

URL state (the canonical URL keeps what is not empty or default):

=====================  ======================================================================
``variant``            the rule set (the engine's first when absent)
``opt_<name>``         a room option, as on the calculator (``webcalc.web.room``)
``indicator``          the wildcard indicator
``visible``            tiles seen elsewhere before the hand (taken off the counts)
``start``              the dealt tiles (13, or 14 for the dealer)
``turns``              the turns as text (:mod:`webcalc.web.turns`: ``摸1m打2m 碰555m@2打3m``)
``mode``               what the next palette tap is, when the learner chose other than what
                       follows from the turns so far: ``start`` ``draw`` ``discard`` ``pong``
                       ``chow`` (where the variant has chow: :func:`modes_of`) ``kong``
                       (claimed) ``self_kong`` (concealed / added, after a draw)
                       ``replacement`` ``win_claim`` (a win on a discard)
``from``               the seat a claim is from (0-3)
``step``               the reviewed turn shown (0-based among the turns that end in a discard;
                       the last when absent)
=====================  ======================================================================

One-off actions, applied and then redirected to (or, under htmx, pushed as) the canonical URL:
``add=<tile>`` (a palette key, by ``mode``), ``remove_start=i``, ``undo=1`` (the last turn
out), ``win=1`` (the turn's draw or replacement wins), ``clear=start|turns``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from flask import request
from flask_babel import gettext as _
from werkzeug.datastructures import MultiDict

from ..errors import InputError
from ..tiles import format_tiles, parse_tiles
from ..variants import VARIANTS, Variant
from .i18n import LANGS, lang_param, localized
from .i18n import lazy_gettext as _l
from .room import Room
from .room_url import read_room
from .tap import PALETTE  # noqa: F401  (the page's palette: the calculator's keys)
from .turns import review_request, review_turn, tokens

#: every tap mode; a rule set offers those of its meld types (:func:`modes_of`)
MODES = ("start", "draw", "discard", "pong", "chow", "kong", "self_kong", "replacement",
         "win_claim")
MODE_LABELS = {
    "start": _l("Dealt tiles"),
    "draw": _l("Draw (摸)"),
    "discard": _l("Discard (打)"),
    "pong": _l("Pong (碰)"),
    "chow": _l("Chow (吃, its lowest tile)"),
    "kong": _l("Claimed kong (杠)"),
    "self_kong": _l("Own kong (暗杠/补杠)"),
    "replacement": _l("Replacement (补)"),
    "win_claim": _l("Win on a discard (胡)"),
}
TEXT_KEYS = ("start", "turns", "indicator", "visible")
MAX_TEXT = {"start": 80, "turns": 800, "indicator": 20, "visible": 400}
ACTIONS = ("add", "remove_start", "undo", "win", "clear")


def _variant(name: str | None) -> Variant:
    """The rule set of a state's ``variant`` (the engine's first when absent or unknown, as
    the room's options are read)."""
    return VARIANTS.get(name or "") or next(iter(VARIANTS.values()))


def modes_of(variant: Variant) -> tuple[str, ...]:
    """The tap modes the page offers for ``variant``: a chow only where the rule set has one
    (its meld types, :attr:`~webcalc.variants.base.Variant.meld_kinds`; docs/RULES.md, the
    no-chow rules of 三门峡, 郑州 and 晋城)."""
    return tuple(m for m in MODES if m != "chow" or "chow" in variant.meld_kinds)


def _tiles(text: str):
    try:
        return parse_tiles(text or "")
    except InputError:
        return None


def _complete(tok: str) -> bool:
    """A turn token that is finished: a discard, or a win."""
    t = review_turn(tok)
    return "discard" in t or t.get("win") is True or t.get("claim") == "win"


def _tapping(tok: str) -> bool:
    """An unfinished last turn that is a turn being tapped in (its discard to come): what it
    holds is tiles, one where one is drawn, konged or replaced. Anything else ("xyz", "9z",
    "1m2m") is a turn typed wrong: the engine reads it and says what is wrong."""
    t = review_turn(tok)
    for key in ("draw", "kong", "replacement"):
        if key in t and len(_tiles(str(t[key])) or ()) != 1:
            return False
    return "tiles" not in t or bool(_tiles(str(t["tiles"])))


def auto_mode(start: str, turns: str) -> str:
    """What the next tap is when the learner chose nothing: the dealt tiles until 13, then a
    draw (the dealer's 14: a discard), then after a draw or a claim its discard, after a kong
    its replacement. Read from the text alone (which words the last turn holds); the engine
    says whether the turn can be played."""
    tiles = _tiles(start)
    toks = tokens(turns)
    if not toks:
        if tiles is None or len(tiles) < 13:
            return "start"
        return "discard" if len(tiles) == 14 else "draw"
    last = review_turn(toks[-1])
    if _complete(toks[-1]):
        return "draw"
    konged = "kong" in last or last.get("claim") == "kong"
    if konged and "replacement" not in last:
        return "replacement"
    return "discard"


def apply(args) -> tuple[MultiDict, str | None]:
    """``args`` with its one-off action applied (and removed), and a message when the tap
    could not be applied (the state then unchanged). The mode chosen for the tap is dropped:
    the next one follows from the turns. One action a request: the first of :data:`_TAPS`
    the arguments carry."""
    out = MultiDict(args)
    for k in ACTIONS:
        out.poplist(k)
    tap = _Tap(args, out, tokens((out.get("turns") or "").strip()))
    for key, action in _TAPS:
        if key in args:
            return out, action(tap)
    return out, None


@dataclass
class _Tap:
    """One tap being applied: the request's arguments, the arguments made (``out``) and the
    turns as tokens."""

    args: MultiDict
    out: MultiDict
    toks: list[str]

    @property
    def open_turn(self) -> bool:
        """The last turn is not finished (no discard, no win yet)."""
        return bool(self.toks) and not _complete(self.toks[-1])

    def text(self, name: str) -> str:
        return (self.out.get(name) or "").strip()

    def put(self, name: str, value: str) -> None:
        self.out.setlist(name, [value] if value else [])


def _tap_clear(tap: _Tap) -> str | None:
    if tap.args.get("clear") in ("start", "turns"):
        tap.put(tap.args["clear"], "")
    return None


def _tap_undo(tap: _Tap) -> str | None:
    tap.put("turns", " ".join(tap.toks[:-1]))
    return None


def _tap_remove_start(tap: _Tap) -> str | None:
    i = tap.args.get("remove_start", "")
    tiles = _tiles(tap.text("start"))
    if tiles is not None and i.isdecimal() and len(i) < 4 and int(i) < len(tiles):
        tiles = sorted(tiles)
        del tiles[int(i)]
        tap.put("start", format_tiles(tiles))
    return None


def _tap_win(tap: _Tap) -> str | None:
    if not tap.open_turn:
        return _("A win on your own draw: tap the tile drawn first (摸), then 胡.")
    tap.toks[-1] += "胡"
    tap.put("turns", " ".join(tap.toks))
    return None


def _tap_add(tap: _Tap) -> str | None:
    """``add=<tile>``: the tile in the chosen mode (else the one that follows from the
    turns, :func:`auto_mode`), by :data:`_ADD`."""
    args = tap.args
    tiles = _tiles(args.get("add", ""))
    if not tiles or len(tiles) != 1:
        return _("Not a tile: %(code)s", code=(args.get("add") or "")[:8])
    chosen = args.get("mode")
    mode = chosen if isinstance(chosen, str) and chosen in MODES else auto_mode(
        tap.text("start"), tap.text("turns"))
    seat = args.get("from") if args.get("from") in ("0", "1", "2", "3") else ""
    message = _ADD[mode](tap, tiles[0], "@" + seat if seat else "", mode)
    if message is None:
        tap.put("turns", " ".join(tap.toks))
        tap.out.poplist("mode")
        if mode in ("pong", "chow", "kong", "win_claim"):
            tap.out.poplist("from")         # said of this claim only
    return message


def _add_start(tap: _Tap, t, at: str, mode: str) -> str | None:
    have = _tiles(tap.text("start"))
    tap.put("start", format_tiles(have + [t]) if have is not None
            else tap.text("start") + " " + t.code)
    return None


def _add_draw(tap: _Tap, t, at: str, mode: str) -> str | None:
    tap.toks.append("摸" + t.code)
    return None


def _add_discard(tap: _Tap, t, at: str, mode: str) -> str | None:
    if tap.open_turn:
        tap.toks[-1] += "打" + t.code
    else:
        tap.toks.append("打" + t.code)
    return None


def _add_claim(tap: _Tap, t, at: str, mode: str) -> str | None:
    """碰 or a claimed 杠 of the tapped tile."""
    tap.toks.append(("碰" if mode == "pong" else "杠")
                    + format_tiles([t] * (3 if mode == "pong" else 4)) + at)
    return None


def _add_chow(tap: _Tap, t, at: str, mode: str) -> str | None:
    try:
        _variant(tap.args.get("variant")).check_chow()     # a rule set without chow says so
    except InputError as err:
        return str(localized(err.message))
    if t.is_honor or t.rank > 7:
        return _("For a chow, tap its lowest tile (1 to 7 of 万, 筒 or 条).")
    tap.toks.append("吃" + format_tiles([t, t + 1, t + 2]) + at)
    return None


def _add_own(tap: _Tap, t, at: str, mode: str) -> str | None:
    """A kong of one's own (暗杠/补杠) or its replacement, after a draw; the dealer's first
    turn may be a kong with no draw."""
    if mode == "self_kong" and not tap.toks and len(_tiles(tap.text("start")) or []) == 14:
        tap.toks.append("杠" + t.code)
        return None
    if not tap.open_turn:
        return _("Tap the tile drawn first (摸): a kong of your own and its "
                 "replacement come after a draw.")
    tap.toks[-1] += ("杠" if mode == "self_kong" else "补") + t.code
    return None


def _add_win_claim(tap: _Tap, t, at: str, mode: str) -> str | None:
    tap.toks.append("胡" + t.code + at)
    return None


#: a tapped tile, by the tap's mode (every one of MODES)
_ADD = {"start": _add_start, "draw": _add_draw, "discard": _add_discard,
        "pong": _add_claim, "kong": _add_claim, "chow": _add_chow,
        "self_kong": _add_own, "replacement": _add_own, "win_claim": _add_win_claim}

#: the one-off actions in the order they are looked for (a request carries one)
_TAPS = (("clear", _tap_clear), ("undo", _tap_undo), ("remove_start", _tap_remove_start),
         ("win", _tap_win), ("add", _tap_add))


@dataclass
class ReviewState:
    """One request of the review page: the state read, the engine's answer, the errors."""

    args: MultiDict
    variant: str
    text: dict
    room: Room
    mode: str
    auto: str
    seat: str
    step: int | None
    modes: tuple[str, ...] = MODES                    # the tap modes the variant has
    message: str | None = None
    result: dict | None = None
    errors: dict = field(default_factory=dict)        # input → messages
    error_turn: int | None = None
    pending: str | None = None                        # the last turn, still open
    status: int = 200
    request: dict[str, Any] | None = None             # what the engine was asked

    def pairs(self) -> list[tuple[str, str]]:
        out = [("variant", self.variant)] if "variant" in self.args else []
        for o in self.room.options:
            v = o.canonical()
            if v is not None:
                out.append((o.field, v))
        out += [(k, self.text[k]) for k in ("indicator", "visible", "start", "turns")
                if self.text[k]]
        if self.mode != self.auto:
            out.append(("mode", self.mode))
        if self.seat:
            out.append(("from", self.seat))
        if self.step is not None:
            out.append(("step", str(self.step)))
        return out

    def url(self, lang: str | None = None, **change) -> str:
        pairs = [(k, v) for k, v in self.pairs() if k not in change]
        pairs += [(k, str(v)) for k, v in change.items() if v is not None]
        lang = lang if lang is not None else lang_param()
        if lang in LANGS:
            pairs.append(("lang", lang))
        q = urlencode(pairs, safe=":,@")
        return request.script_root + "/review" + ("?" + q if q else "")

    @property
    def canonical(self) -> str:
        return self.url()

    @property
    def start_tiles(self) -> list | None:
        t = _tiles(self.text["start"])
        return None if t is None else sorted(t)

    @property
    def turn_tokens(self) -> list[str]:
        return tokens(self.text["turns"])

    @property
    def used(self) -> dict:
        """Copies in use, for the palette's counts (the start, each turn's tiles taken in)."""
        used: dict[str, int] = {}
        for text in (self.text["start"], self.text["indicator"], self.text["visible"]):
            for t in _tiles(text) or []:
                used[t.code] = used.get(t.code, 0) + 1
        for turn in review_request(self.text["turns"]):
            for key in ("draw", "replacement", "tile"):
                for t in _tiles(str(turn.get(key, ""))) or []:
                    used[t.code] = used.get(t.code, 0) + 1
            if turn.get("claim") in ("pong", "chow", "kong"):
                ts = _tiles(str(turn.get("tiles", ""))) or []
                if ts:                              # the claimed tile came from outside
                    used[ts[0].code] = used.get(ts[0].code, 0) + 1
        return used

    @property
    def shown(self) -> dict | None:
        """The reviewed turn to show: ``step``, else the last."""
        if not self.result or not self.result["turns"]:
            return None
        turns = self.result["turns"]
        i = self.step if self.step is not None and 0 <= self.step < len(turns) else len(turns) - 1
        return {**turns[i], "index": i}


def read_state(raw) -> ReviewState:
    args = MultiDict(raw)
    message = None
    if any(k in args for k in ACTIONS):
        args, message = apply(args)
    variant = args.get("variant") or next(iter(VARIANTS))
    known = variant in VARIANTS
    room = read_room(args, variant if known else next(iter(VARIANTS)))
    text = {k: " ".join((args.get(k) or "").split())[:MAX_TEXT[k]] for k in TEXT_KEYS}
    auto = auto_mode(text["start"], text["turns"])
    modes = modes_of(_variant(variant))
    mode = str(args.get("mode")) if args.get("mode") in modes else auto
    seat = str(args.get("from")) if args.get("from") in ("0", "1", "2", "3") else ""
    step_text = args.get("step", "")
    step = int(step_text) if step_text.isdecimal() and len(step_text) < 3 else None
    st = ReviewState(args, variant, text, room, mode, auto, seat, step, modes, message)
    if message:
        st.status = 422
    return st


def run(st: ReviewState) -> None:
    """Ask the engine for the review of the state (nothing while the dealt tiles are fewer
    than 13 and no turn is given: the learner is still tapping them in)."""
    from ..story import review

    start = st.start_tiles
    toks = st.turn_tokens
    if not st.text["start"] and not toks:
        return
    if start is not None and len(start) < 13 and not toks:
        return                                  # still tapping the dealt tiles in
    turns = review_request(st.text["turns"])
    if toks and not _complete(toks[-1]) and _tapping(toks[-1]):
        st.pending = toks[-1]                   # its discard is still to come
        turns = turns[:-1]
    req: dict = {"variant": st.variant, "start": st.text["start"], "turns": turns}
    options = st.room.options_request()
    if options:
        req["options"] = options
    for k in ("indicator", "visible"):
        if st.text[k]:
            req[k] = st.text[k]
    try:
        st.result = localized(review(req))
        st.request = req
    except InputError as err:
        st.status = 422
        top = (err.field or "").split(".")[0]
        name = top if top in TEXT_KEYS or top == "variant" else (
            "options" if top == "options" else "general")
        st.errors.setdefault(name, []).append(localized(err.message))
        st.error_turn = err.turn
