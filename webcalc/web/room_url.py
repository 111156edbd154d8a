"""The URL codec of a room: :func:`read_room` reads a :class:`~webcalc.web.room.Room` from a
query (or a posted form), :func:`canonical_pairs` writes it back as the canonical URL's
pairs. What the room means lives in :mod:`webcalc.web.room` and
:mod:`webcalc.web.settlement_form`.

URL parameters (the canonical URL keeps only values that differ from the default):

=====================  ======================================================================
``opt_<name>``         a room option of the chosen variant (``webcalc.options.option_specs``):
                       bool ``1``/``0``, int, or a choice value (``opt_wildcard_mode=both``)
``s_base``             底分 (default 1)
``s_dealer``           庄家, seat 0-3 (default 0, 东家: the form always has one chosen)
``s_winner``           胡牌者, seat 0-3 or ``none`` (荒庄). The settlement is computed only
                       when this is chosen.
``s_discarder``        点炮 / 被抢杠的一家 (shown for 点炮 and 抢杠 wins)
``s_pao0..3``          下跑 per seat (三门峡 with 带跑, 郑州)
``s_jiagang0..3``      加钢 per seat, ``1`` (盘锦 with 加钢, not 死钢)
``s_ready0..3``        上架 per seat, ``0`` for a seat that had not (晋城; default all ready)
``s_dready``           the discarder's 上架, ``1``/``0``: asked, no default, for a discard (or
                       抢杠) win where 上架 changes the money (a discard before 上架 pays ×2)
``s_kongs``            every kong at the table: ``seat:type[:from]`` joined by commas, type
                       ``exposed`` 明杠, ``added`` 补杠, ``concealed`` 暗杠, ``wildcard`` 混杠
                       (``1:exposed:2,3:concealed``). The form edits it as rows
                       ``k_seat``/``k_type``/``k_from`` (repeated), one blank row to add.
``s_biao``             表: wildcards discarded while in the any-tile wait (三门峡 with 带混)
``s_follow``           前包 happened (晋城), ``1``
``s_duanmen``          the dealer chose 断门 (盘锦 with 选断门), ``1``
``s_kong_discard``     杠流泪 (盘锦 with 杠后炮), ``1``
``n0..n3``             seat names (default 东家 南家 西家 北家)
``form_variant``       form only, never canonical: the variant whose inputs the form showed.
                       Present → an absent checkbox means "off"; different from ``variant``
                       (the variant was just switched) → the old variant's options and
                       variant-specific settlement inputs are dropped.
=====================  ======================================================================
"""

from __future__ import annotations

import re
from typing import Any

from ..errors import InputError
from .i18n import current_lang
from .i18n import gettext as _
from .i18n import lazy_gettext as _l
from .room import OptionInput, Room, _option_specs
from .settlement_form import KONG_ALIASES, KONG_TYPES, MAX_KONGS, SEAT_SHORT, SEATS, Kong

TRUE = frozenset({"1", "on", "true", "yes"})
FALSE = frozenset({"0", "off", "false", "no"})
MAX_NAME = 12
MAX_TEXT = 40
SEAT_TEXT = _l("Should be a seat: 东家, 南家, 西家 or 北家.")
#: the counts' names, shown only in their error (translated then)
PAO, BIAO = _l("Pao"), _l("Biao")


# -- writing: the canonical URL's pairs ---------------------------------------------------------

def canonical_pairs(room: Room) -> list[tuple[str, str]]:
    """The room's state in the canonical URL: the options and settlement inputs that differ
    from their default (an input with an error as typed), then the seat names."""
    out: list[tuple[str, str]] = []
    for o in room.options:
        v = o.canonical()
        if v is not None:
            out.append((o.field, v))
    used = room.uses
    keep = _Keep(room, out)
    keep("s_base", room.base, 1)
    keep("s_dealer", room.dealer, 0)
    if room.winner != "" or "s_winner" in room.errors:
        keep("s_winner", "none" if room.winner is None else room.winner, "")
    if "discarder" in used:
        keep("s_discarder", room.discarder, None)
    for name, default in (("pao", 0), ("jiagang", False), ("ready", True)):
        if name in used:
            for i in range(4):
                keep(f"s_{name}{i}", getattr(room, name)[i], default)
    if "dready" in used:
        _dready_pair(room, out)
    if "kongs" in used:
        _kongs_pair(room, out)
    for name, default in (("biao", 0), ("follow", False), ("duanmen", False),
                          ("kong_discard", False)):
        if name in used:
            keep(f"s_{name}", getattr(room, name), default)
    out += [(f"n{i}", room.names[i]) for i in range(4) if room.names[i] != SEATS[i]]
    return out


class _Keep:
    """Append ``(key, value)`` to ``out`` when the value is not its default; an input with an
    error keeps the text as typed."""

    def __init__(self, room: Room, out: list[tuple[str, str]]) -> None:
        self.room, self.out = room, out

    def __call__(self, key: str, value: Any, default: Any) -> None:
        if key in self.room.errors:
            self.out.append((key, self.room.raw.get(key, "")))
        elif value != default:
            self.out.append((key, _text(value)))


def _dready_pair(room: Room, out: list[tuple[str, str]]) -> None:
    """The discarder's 上架: asked, no default, so absent until answered."""
    if room.raw.get("s_dready") and "s_dready" in room.errors:
        out.append(("s_dready", room.raw["s_dready"]))
    elif room.dready is not None:
        out.append(("s_dready", _text(room.dready)))


def _kongs_pair(room: Room, out: list[tuple[str, str]]) -> None:
    if "s_kongs" in room.errors and room.raw.get("s_kongs"):
        out.append(("s_kongs", room.raw["s_kongs"]))
    elif room.kongs:
        out.append(("s_kongs", ",".join(k.compact() for k in room.kongs)))


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value)


def read_page_room(args, variant: str, win_by: str = "self_draw") -> Room:
    """The room of a page form that holds the hand's fields too: the calculator (``/``) and
    the table page's entry (``/t/<edit>``) both read theirs here, so the same fields give
    the same settlement. :func:`read_room` with the hand's melds and indicator as typed in
    ``args`` (melds that cannot be read count no kong; their error is the melds field's)."""
    from ..notation import melds_from_text

    try:
        melds = melds_from_text(args.get("melds", "") or "")
    except InputError:
        melds = []
    return read_room(args, variant, win_by, melds, args.get("indicator", "") or "")


def read_room(args, variant: str, win_by: str = "self_draw",
              melds: list[dict] | None = None, indicator: str = "") -> Room:
    """Read the option and settlement inputs of ``variant`` from ``args`` (a MultiDict);
    ``melds`` (API meld dicts) are the hand's, whose kongs count for the winner."""
    marker = args.get("form_variant")
    from_form = marker == variant
    stale = marker is not None and not from_form
    room = Room(variant, _read_options(args, variant, from_form, stale), win_by=win_by,
                melds=list(melds or []), indicator=indicator or "")
    r = _Reader(args, room, from_form, stale)
    r.names()                               # first: error messages and labels use them
    r.base()
    room.dealer = r.seat("s_dealer")
    if room.dealer is None and "s_dealer" not in room.errors:
        room.dealer = 0                     # 东家 unless chosen: a winner alone settles
    room.winner = r.seat("s_winner", allow_none=True)
    room.discarder = r.seat("s_discarder")
    room.pao = [r.count(f"s_pao{i}", PAO) for i in range(4)]
    room.jiagang = [r.flag(f"s_jiagang{i}", False) for i in range(4)]
    room.ready = [r.flag(f"s_ready{i}", True) for i in range(4)]
    if args.get("s_dready", "").strip() != "" and not stale:
        room.dready = r.flag("s_dready", True)
    room.biao = r.count("s_biao", BIAO)
    room.follow = r.flag("s_follow", False)
    room.duanmen = r.flag("s_duanmen", False)
    room.kong_discard = r.flag("s_kong_discard", False)
    room.kongs = _read_kongs(args, room)
    room.check_settlement()
    return room


def read_options(args, variant: str) -> Room:
    """A room of ``variant`` with its options read from ``args`` and nothing else: what the
    options alone decide (:attr:`Room.takes_history`), without reading the settlement."""
    marker = args.get("form_variant")
    return Room(variant, _read_options(args, variant, marker == variant,
                                       marker is not None and marker != variant))


def _read_options(args, variant: str, from_form: bool, stale: bool) -> list[OptionInput]:
    return [_read_option(args, spec, from_form, stale)
            for spec in _option_specs(variant, current_lang())]


class _Reader:
    """The settlement inputs of one request read into ``room``: each as typed in
    ``room.raw``, its error in ``room.errors``. ``from_form``: the form of this variant sent
    them (an absent checkbox is "off"); ``stale``: another variant's form did (its
    variant-specific inputs are dropped)."""

    def __init__(self, args, room: Room, from_form: bool, stale: bool) -> None:
        self.args, self.room, self.from_form, self.stale = args, room, from_form, stale

    def raw(self, key: str) -> str:
        v = self.args.get(key, "")
        v = v.strip()[:MAX_TEXT].strip()           # cut, then strip: canonical at once
        self.room.raw[key] = v
        return v

    def bad(self, key: str, message: str) -> None:
        self.room.errors.setdefault(key, []).append(message)

    def names(self) -> None:
        room = self.room
        for i in range(4):
            name = " ".join(self.args.get(f"n{i}", "").split())[:MAX_NAME].strip()
            room.names[i] = name or SEATS[i]
            room.raw[f"n{i}"] = room.names[i]

    def base(self) -> None:
        text = self.raw("s_base")
        if text:
            try:
                self.room.base = (int(text) if re.fullmatch(r"\d{1,12}", text)
                                  else float(text))
            except ValueError:
                self.bad("s_base", _("Base points should be a positive number, such as 1, "
                                     "100 or 0.5."))

    def flag(self, key: str, default: bool) -> bool:
        """A checkbox: ``1`` or ``0`` (also on/off, true/false, yes/no). Anything else is
        an error under its input, kept as typed — never read as "off"."""
        if self.stale:
            return default
        sent = self.args.getlist(key)
        if not sent:                        # most pages: not sent (a form's box unchecked)
            return False if self.from_form else default
        typed = [v.strip()[:MAX_TEXT].strip() for v in sent]
        values = [v.lower() for v in typed]
        unreadable = [t for t, v in zip(typed, values) if v not in TRUE | FALSE | {""}]
        if unreadable:
            self.room.raw[key] = unreadable[-1]
            self.bad(key, _("Should be 1 (yes) or 0 (no)."))
            return default
        if self.from_form:                  # a form sends a checked box only
            return any(v in TRUE for v in values)
        if not values:
            return default
        return values[-1] in TRUE

    def count(self, key: str, what: Any) -> int:
        text = "" if self.stale else self.raw(key)
        if text == "":
            return 0
        if not re.fullmatch(r"\d{1,6}", text):
            self.bad(key, _("%(what)s should be 0 or a whole number.", what=what))
            return 0
        return int(text)

    def seat(self, key: str, allow_none: bool = False) -> Any:
        text = self.raw(key)
        if text == "":
            return "" if allow_none else None
        if allow_none and text.lower() in ("none", "荒庄"):
            return None
        if text in ("0", "1", "2", "3"):
            return int(text)
        if text in SEAT_SHORT or text in SEATS:
            return (SEAT_SHORT.index(text) if text in SEAT_SHORT else SEATS.index(text))
        self.bad(key, str(SEAT_TEXT) + (_("Or 荒庄 (a drawn game).") if allow_none else ""))
        return "" if allow_none else None


def _read_option(args, spec: dict, from_form: bool, stale: bool) -> OptionInput:
    o = OptionInput(spec, value=spec["default"])
    key = "opt_" + spec["name"]
    values = [] if stale else [v.strip() for v in args.getlist(key)]
    if spec["type"] == "bool":
        low = [v.lower() for v in values]
        if from_form:
            o.value = any(v in TRUE for v in low)
        elif low:
            if low[-1] in TRUE:
                o.value = True
            elif low[-1] in FALSE or low[-1] == "":
                o.value = False
            else:
                o.raw, o.error = values[-1][:MAX_TEXT].strip(), _("Should be 1 (on) or 0 (off).")
        return o
    text = values[-1][:MAX_TEXT].strip() if values else ""
    o.raw = text
    if text == "":
        o.raw = str(spec["default"])
        return o
    if spec["type"] == "int":
        if re.fullmatch(r"-?\d{1,6}", text):
            o.value = int(text)
        else:
            o.error = _("Should be a whole number.")
    else:
        o.value = text                      # the engine checks the choice (bad_option)
    return o


def _read_kongs(args, room: Room) -> list[Kong]:
    """Kongs from the form rows (``k_seat``…) when present, else from ``s_kongs``."""
    if "k_seat" in args:
        seats, types, froms = (args.getlist(k) for k in ("k_seat", "k_type", "k_from"))
        gone = args.get("remove_kong", "").strip()
        out: list[Kong] = []
        for i, s in enumerate(seats[:MAX_KONGS]):
            s = s.strip()
            if s == "" or gone == str(i):
                continue
            t = (types[i] if i < len(types) else "").strip() or "concealed"
            f = (froms[i] if i < len(froms) else "").strip()
            k = _kong(s, t, f)
            if k is None:
                room.errors.setdefault("s_kongs", []).append(
                    _("Kong %(n)s cannot be read.", n=len(out) + 1))
                continue
            out.append(k)
        room.raw["s_kongs"] = ",".join(k.compact() for k in out)
        return out
    text = args.get("s_kongs", "").strip()[:200].strip()
    room.raw["s_kongs"] = text
    out = []
    for n, part in enumerate(p for p in re.split(r"[,，;；\s]+", text) if p):
        bits = re.split(r"[:：]", part)
        k = _kong(*bits) if 2 <= len(bits) <= 3 else None
        if k is None or len(out) >= MAX_KONGS:
            room.errors.setdefault("s_kongs", []).append(
                _("Kong %(n)s “%(part)s” cannot be read: write seat:kind[:supplier], such as "
                  "1:exposed:2 (kinds: exposed 明杠, added 补杠, concealed 暗杠, wildcard 混杠).",
                  n=n + 1, part=part))
            return out
        out.append(k)
    return out


def _kong(seat: str, typ: str, source: str = "") -> Kong | None:
    def seat_of(text: str):
        text = text.strip()
        if text in ("0", "1", "2", "3"):
            return int(text)
        if text in SEAT_SHORT:
            return SEAT_SHORT.index(text)
        if text in SEATS:
            return SEATS.index(text)
        return -1

    s = seat_of(seat)
    typ = KONG_ALIASES.get(typ.strip(), typ.strip())
    src = seat_of(source) if source.strip() else None
    if s == -1 or src == -1 or typ not in KONG_TYPES:
        return None
    return Kong(s, typ, src)
