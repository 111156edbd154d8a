"""Room options and the settlement section of the page form.

Read from the URL, kept as typed for re-rendering, and turned into the engine's ``options``
and ``settlement`` objects (API.md). The web layer decides no rule: it only chooses which
inputs to show for a variant and passes what was chosen; the engine validates and errors
come back under the matching input.

URL parameters (the canonical URL keeps only values that differ from the default):

=====================  ======================================================================
``opt_<name>``         a room option of the chosen variant (``webcalc.options.option_specs``):
                       bool ``1``/``0``, int, or a choice value (``opt_wildcard_mode=both``)
``s_base``             底分 (default 1)
``s_dealer``           庄家, seat 0-3
``s_winner``           胡牌者, seat 0-3 or ``none`` (荒庄). The settlement is computed only
                       when this is chosen.
``s_discarder``        点炮 / 被抢杠的一家 (shown for 点炮 and 抢杠 wins)
``s_pao0..3``          下跑 per seat (三门峡 with 带跑, 郑州)
``s_jiagang0..3``      加钢 per seat, ``1`` (盘锦 with 加钢, not 死钢)
``s_ready0..3``        上架 per seat, ``0`` for a seat that had not (晋城; default all ready)
``s_dready``           the discarder's 上架, ``1``/``0``: asked, no default, for a discard (or
                       抢杠) win where 上架 changes the money (晋城 JC-5: ×2 when not)
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
from dataclasses import dataclass, field, fields
from functools import lru_cache
from typing import Any

from flask_babel import gettext as _

from ..catalogue import localize
from ..errors import InputError
from ..options import option_specs, parse_options
from ..settlement import kongs_of_melds
from ..variants import VARIANTS
from ..variants.base import WIN_METHOD_LABELS, WIN_METHODS
from .i18n import SEAT_LABELS, current_lang, list_sep
from .i18n import lazy_gettext as _l

SEATS = ("东家", "南家", "西家", "北家")
_ENGLISH_SEATS = ("East", "South", "West", "North")     # the English page's blank seat names
SEAT_SHORT = ("东", "南", "西", "北")
TRUE = frozenset({"1", "on", "true", "yes"})
FALSE = frozenset({"0", "off", "false", "no"})
KONG_TYPES = {"exposed": _l("Exposed kong"), "added": _l("Added kong"),
              "concealed": _l("Concealed kong"), "wildcard": _l("Wildcard kong (混杠)")}
#: engine settlement field → the name the form and its template use
_FORM_NAME = {"biao_discards": "biao", "follow_dealer": "follow"}
KONG_ALIASES = {"明": "exposed", "明杠": "exposed", "补": "added", "补杠": "added",
                "暗": "concealed", "暗杠": "concealed", "混": "wildcard", "混杠": "wildcard"}
MAX_KONGS = 16
MAX_NAME = 12
MAX_TEXT = 40
SEAT_TEXT = _l("Should be a seat: 东家, 南家, 西家 or 北家.")


def win_methods(variant: str) -> list[tuple[str, str]]:
    """The variant's allowed win methods as ``(value, label)``, in API order, the label in
    this response's language."""
    return list(_win_methods(variant, current_lang()))


@lru_cache(maxsize=64)
def _win_methods(variant: str, lang: str) -> tuple:
    allowed = VARIANTS[variant].win_methods
    return tuple((m, localize(WIN_METHOD_LABELS[m], lang)) for m in WIN_METHODS if m in allowed)


@lru_cache(maxsize=64)
def _option_specs(variant: str, lang: str) -> tuple[dict, ...]:
    """The variant's option specs with their messages in ``lang``, made once (read only)."""
    return tuple(localize(option_specs(VARIANTS[variant].Options), lang))


@lru_cache(maxsize=1024)
def _parsed_options(variant: str, opts: tuple):
    """:meth:`Room._engine_options` for ``opts`` (``(name, type, value)`` triples), once."""
    v = VARIANTS[variant]
    try:
        return v, parse_options(v.Options, {name: value for name, _kind, value in opts})
    except InputError:
        return v, v.Options()


@dataclass
class OptionInput:
    """One room option as the form shows it."""

    spec: dict
    raw: str = ""            # what an int input shows
    value: Any = None
    error: str | None = None

    def __getattr__(self, key):  # name, type, label, help, rule, choices, minimum, maximum
        try:
            return self.__dict__["spec"][key]
        except KeyError as exc:
            raise AttributeError(key) from exc

    @property
    def changed(self) -> bool:
        return self.error is None and self.value != self.spec["default"]

    @property
    def field(self) -> str:
        return "opt_" + self.spec["name"]

    def default_text(self) -> str:
        d = self.spec["default"]
        if self.spec["type"] == "bool":
            return _("on") if d else _("off")
        if self.spec["type"] == "choice":
            return dict(self.spec["choices"]).get(d, str(d))
        return str(d)

    def value_text(self) -> str:
        if self.spec["type"] == "bool":
            return _("on") if self.value else _("off")
        if self.spec["type"] == "choice":
            return dict(self.spec["choices"]).get(self.value, str(self.value))
        return str(self.value)

    def canonical(self) -> str | None:
        if self.error is not None:
            return self.raw
        if not self.changed:
            return None
        if self.spec["type"] == "bool":
            return "1" if self.value else "0"
        return str(self.value)


@dataclass
class Kong:
    seat: int | None = None
    type: str = "concealed"
    source: int | None = None

    def compact(self) -> str:
        return f"{self.seat}:{self.type}" + ("" if self.source is None else f":{self.source}")


@dataclass
class Room:
    """The options and settlement inputs of one request, for one variant."""

    variant: str
    options: list[OptionInput]
    raw: dict[str, str] = field(default_factory=dict)      # text shown in each input
    errors: dict[str, list[str]] = field(default_factory=dict)
    base: int | float = 1
    dealer: int | None = None
    winner: int | None | str = ""                       # "" = not chosen, None = 荒庄
    discarder: int | None = None
    pao: list[int] = field(default_factory=lambda: [0] * 4)
    jiagang: list[bool] = field(default_factory=lambda: [False] * 4)
    ready: list[bool] = field(default_factory=lambda: [True] * 4)
    dready: bool | None = None                          # the discarder's 上架, when asked
    kongs: list[Kong] = field(default_factory=list)
    biao: int = 0
    follow: bool = False
    duanmen: bool = False
    kong_discard: bool = False
    names: list[str] = field(default_factory=lambda: list(SEATS))
    win_by: str = "self_draw"
    melds: list[dict] = field(default_factory=list)     # the hand's melds (API dicts)
    indicator: str = ""

    # -- what the variant uses -----------------------------------------------------------

    @property
    def opts(self) -> dict:
        return {o.name: (o.value if o.error is None else o.spec["default"]) for o in self.options}

    @property
    def _engine_options(self):
        """The variant and its options object; options the engine refuses fall back to
        the defaults here (the form shows their error separately)."""
        opts = tuple((name, type(value), value) for name, value in self.opts.items())
        try:
            return _parsed_options(self.variant, opts)
        except TypeError:                   # a value that cannot be a key: parse it here
            variant = VARIANTS[self.variant]
            try:
                return variant, parse_options(variant.Options, self.opts)
            except InputError:
                return variant, variant.Options()

    @property
    def uses(self) -> frozenset[str]:
        """The settlement inputs the chosen variant (with these options) uses — asked of
        the engine (``settlement_fields``), in the form's names."""
        variant, options = self._engine_options
        fields = variant.settlement_fields(options)
        used = {"base", "dealer", "winner", "names"}
        used |= {_FORM_NAME.get(f, f) for f in fields if f != "discarder"}
        if self.win_by in ("discard", "robbing_kong"):
            used.add("discarder")
            if "ready" in used:             # JC-5: the discarder's 上架 changes the money
                used.add("dready")
        return frozenset(used)

    @property
    def takes_history(self) -> bool:
        """Whether the page asks for the winner's last turns (the variant says: 三门峡 with
        wildcards, SMX-5)."""
        variant, options = self._engine_options
        return variant.takes_history(options)

    @property
    def pao_max(self) -> int:
        variant, options = self._engine_options
        return variant.pao_max(options)[0]

    @property
    def kong_types(self) -> list[tuple[str, str]]:
        variant, options = self._engine_options
        return [(t, KONG_TYPES[t]) for t in variant.kong_types(options)]

    @property
    def kong_needs_from(self) -> bool:
        """Whether exposed/added kongs name who supplied the tile (shown as a hint only):
        the variant says (its supplier pays, ``Variant.kong_names_supplier``)."""
        variant = VARIANTS.get(self.variant)
        return variant is not None and variant.kong_names_supplier

    @property
    def winner_kongs(self) -> list[tuple[int, dict, Kong]]:
        """The kongs among the winner's melds, counted without a second entry in the kong
        list: ``(index of the meld, the meld, its kong)``. Empty without a winner seat or
        when the variant has no kong money."""
        if not isinstance(self.winner, int) or "kongs" not in self.uses:
            return []
        variant, options = self._engine_options
        out = []
        for i, (m, k) in enumerate(zip(self.melds, kongs_of_melds(
                variant, options, self.melds, self.winner, self.indicator))):
            if k is not None:
                out.append((i, m, Kong(k["seat"], k["type"], k.get("from"))))
        return out

    @property
    def settles(self) -> bool:
        """The rule of the page: the settlement is computed once 胡牌者 (or 荒庄) is chosen."""
        return self.winner != ""

    def seat_name(self, seat: Any) -> str:
        if isinstance(seat, int) and 0 <= seat < 4:
            return self.names[seat]
        return "—" if seat is None else str(seat)

    def seat_renamed(self, seat: Any) -> bool:
        """The seat has a name of its own (not 东家 or East, as a table's blank seat gets)."""
        return isinstance(seat, int) and 0 <= seat < 4 and self.names[seat] not in (
            SEATS[seat], _ENGLISH_SEATS[seat])

    # -- state for the template ----------------------------------------------------------

    def has_error(self, *names: str) -> bool:
        return any(self.errors.get(n) for n in names)

    @property
    def options_open(self) -> bool:
        return any(o.changed or o.error for o in self.options)

    @property
    def options_summary(self) -> str:
        changed = [f"{o.label} {o.value_text()}" for o in self.options if o.changed]
        if any(o.error for o in self.options):
            return _("has errors")
        return _("changed: %(list)s", list=list_sep().join(changed)) if changed else _("all default")

    @property
    def settlement_open(self) -> bool:
        return self.settles or bool(self.errors.keys() - {o.field for o in self.options}) \
            or self.dealer is not None

    @property
    def settlement_summary(self) -> str:
        if self.winner == "":
            return _("no winner chosen, no settlement")
        if self.winner is None:
            return _("drawn game")
        seat = self.winner
        assert isinstance(seat, int), "read_room keeps a seat or \"\" or None"
        name = self.names[seat] if self.seat_renamed(seat) else SEAT_LABELS[seat]
        return _("%(seat)s won", seat=name)

    # -- requests and URL ------------------------------------------------------------------

    def options_request(self) -> dict:
        """Only the options that differ from their default (API ``options``)."""
        return {o.name: o.value for o in self.options if o.error is None and o.changed}

    def settlement_request(self) -> dict | None:
        """The API ``settlement`` object, or ``None`` when no winner / 荒庄 is chosen."""
        if not self.settles:
            return None
        used = self.uses
        s: dict[str, Any] = {"base": self.base, "dealer": self.dealer, "winner": self.winner}
        if "discarder" in used and self.discarder is not None:
            s["discarder"] = self.discarder
        if "pao" in used and any(self.pao):
            s["pao"] = list(self.pao)
        if "jiagang" in used and any(self.jiagang):
            s["jiagang"] = list(self.jiagang)
        ready = list(self.ready)
        if "dready" in used and isinstance(self.discarder, int) and self.dready is not None:
            ready[self.discarder] = self.dready
        if "ready" in used and not all(ready):
            s["ready"] = ready
        # the list first: the engine's "第 N 个杠" is then the page's "Kong N"
        kongs = self.kongs + [k for _i, _m, k in self.winner_kongs]
        if "kongs" in used and kongs:
            s["kongs"] = [{"seat": k.seat, "type": k.type,
                           **({} if k.source is None else {"from": k.source})}
                          for k in kongs]
        if "biao" in used and self.biao:
            s["biao_discards"] = self.biao
        if "follow" in used and self.follow:
            s["follow_dealer"] = True
        if "duanmen" in used and self.duanmen:
            s["duanmen"] = True
        if "kong_discard" in used and self.kong_discard:
            s["kong_discard"] = True
        if s["dealer"] is None:
            del s["dealer"]                  # the engine says it is required, under 庄家
        return s

    def canonical_pairs(self) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        for o in self.options:
            v = o.canonical()
            if v is not None:
                out.append((o.field, v))
        used = self.uses

        def keep(key: str, value: Any, default: Any) -> None:
            if key in self.errors:
                out.append((key, self.raw.get(key, "")))
            elif value != default:
                out.append((key, _text(value)))

        keep("s_base", self.base, 1)
        keep("s_dealer", self.dealer, None)
        if self.winner != "" or "s_winner" in self.errors:
            keep("s_winner", "none" if self.winner is None else self.winner, "")
        if "discarder" in used:
            keep("s_discarder", self.discarder, None)
        for i in range(4):
            if "pao" in used:
                keep(f"s_pao{i}", self.pao[i], 0)
        for i in range(4):
            if "jiagang" in used:
                keep(f"s_jiagang{i}", self.jiagang[i], False)
        for i in range(4):
            if "ready" in used:
                keep(f"s_ready{i}", self.ready[i], True)
        if "dready" in used:                # asked, no default: absent until answered
            if self.raw.get("s_dready") and "s_dready" in self.errors:
                out.append(("s_dready", self.raw["s_dready"]))
            elif self.dready is not None:
                out.append(("s_dready", _text(self.dready)))
        if "kongs" in used:
            if "s_kongs" in self.errors and self.raw.get("s_kongs"):
                out.append(("s_kongs", self.raw["s_kongs"]))
            elif self.kongs:
                out.append(("s_kongs", ",".join(k.compact() for k in self.kongs)))
        if "biao" in used:
            keep("s_biao", self.biao, 0)
        if "follow" in used:
            keep("s_follow", self.follow, False)
        if "duanmen" in used:
            keep("s_duanmen", self.duanmen, False)
        if "kong_discard" in used:
            keep("s_kong_discard", self.kong_discard, False)
        for i in range(4):
            if self.names[i] != SEATS[i]:
                out.append((f"n{i}", self.names[i]))
        return out

    def state_key(self) -> tuple:
        """Every field of the room, hashable: two rooms with equal keys show the same inputs
        (the option specs are the variant's, in the response's language). The page keeps the
        rendered option and settlement sections by this key, the language and the win method.
        The hand's melds and the indicator show only as the winner's kongs
        (:attr:`winner_kongs`), so they enter the key as those: most pages, without a winner
        or kong money, share one entry whatever the hand."""
        names = [f.name for f in fields(self)]
        return tuple(_freeze(self.winner_kongs) if name == "melds" else
                     _freeze(getattr(self, name)) for name in names if name != "indicator")

    def attach(self, field_name: str | None, message: str) -> bool:
        """Put an engine error (``options.x`` / ``settlement.x``) under its input."""
        top, _, rest = (field_name or "").partition(".")
        key = None
        if top == "options":
            by_name = {o.name: o for o in self.options}
            option = by_name.get(rest.split(".")[0])
            if option is None:
                return False
            option.error = message
            return True
        if top == "settlement":
            name = rest.split(".")[0]
            key = {"base": "s_base", "dealer": "s_dealer", "winner": "s_winner",
                   "discarder": "s_discarder", "pao": "s_seats", "jiagang": "s_seats",
                   "ready": "s_seats", "kongs": "s_kongs", "biao_discards": "s_biao",
                   "follow_dealer": "s_follow", "duanmen": "s_duanmen",
                   "kong_discard": "s_kong_discard"}.get(name, "settlement")
            self.errors.setdefault(key, []).append(message)
            return True
        return False


def _freeze(value: Any) -> Any:
    """``value`` as a hashable key that tells apart what renders differently (``1``,
    ``1.0``, ``True`` and ``"1"`` are four keys)."""
    if type(value) is str:
        return value
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, dict):
        return (dict,) + tuple((k, _freeze(v)) for k, v in value.items())
    if isinstance(value, OptionInput):   # the spec is the variant's: its name stands for it
        return (OptionInput, value.spec["name"], value.raw, _freeze(value.value),
                _freeze(value.error))
    if isinstance(value, Kong):
        return (Kong, _freeze(value.seat), value.type, _freeze(value.source))
    if value is None or isinstance(value, (bool, int, float)):
        return (type(value), value)
    return (type(value), str(value))


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

    options = [_read_option(args, spec, from_form, stale)
               for spec in _option_specs(variant, current_lang())]
    room = Room(variant, options, win_by=win_by, melds=list(melds or []),
                indicator=indicator or "")
    err = room.errors

    def raw(key: str) -> str:
        v = args.get(key, "")
        v = v.strip()[:MAX_TEXT].strip()           # cut, then strip: canonical at once
        room.raw[key] = v
        return v

    def bad(key: str, message: str) -> None:
        err.setdefault(key, []).append(message)

    def flag(key: str, default: bool) -> bool:
        """A checkbox: ``1`` or ``0`` (also on/off, true/false, yes/no). Anything else is
        an error under its input, kept as typed — never read as "off"."""
        if stale:
            return default
        typed = [v.strip()[:MAX_TEXT].strip() for v in args.getlist(key)]
        values = [v.lower() for v in typed]
        unreadable = [t for t, v in zip(typed, values) if v not in TRUE | FALSE | {""}]
        if unreadable:
            room.raw[key] = unreadable[-1]
            bad(key, _("Should be 1 (yes) or 0 (no)."))
            return default
        if from_form:                       # a form sends a checked box only
            return any(v in TRUE for v in values)
        if not values:
            return default
        return values[-1] in TRUE

    def count(key: str, what: str) -> int:
        text = "" if stale else raw(key)
        if text == "":
            return 0
        if not re.fullmatch(r"\d{1,6}", text):
            bad(key, _("%(what)s should be 0 or a whole number.", what=what))
            return 0
        return int(text)

    def seat(key: str, allow_none: bool = False) -> Any:
        text = raw(key)
        if text == "":
            return "" if allow_none else None
        if allow_none and text.lower() in ("none", "荒庄"):
            return None
        if text in ("0", "1", "2", "3"):
            return int(text)
        if text in SEAT_SHORT or text in SEATS:
            return (SEAT_SHORT.index(text) if text in SEAT_SHORT else SEATS.index(text))
        bad(key, str(SEAT_TEXT) + (_("Or 荒庄 (a drawn game).") if allow_none else ""))
        return "" if allow_none else None

    # names first: error messages and labels use them
    for i in range(4):
        name = " ".join(args.get(f"n{i}", "").split())[:MAX_NAME].strip()
        room.names[i] = name or SEATS[i]
        room.raw[f"n{i}"] = room.names[i]

    text = raw("s_base")
    if text:
        try:
            room.base = int(text) if re.fullmatch(r"\d{1,12}", text) else float(text)
        except ValueError:
            bad("s_base", _("Base points should be a positive number, such as 1, 100 or 0.5."))
    room.dealer = seat("s_dealer")
    room.winner = seat("s_winner", allow_none=True)
    room.discarder = seat("s_discarder")
    room.pao = [count(f"s_pao{i}", _("Pao")) for i in range(4)]
    room.jiagang = [flag(f"s_jiagang{i}", False) for i in range(4)]
    room.ready = [flag(f"s_ready{i}", True) for i in range(4)]
    if args.get("s_dready", "").strip() != "" and not stale:
        room.dready = flag("s_dready", True)
    room.biao = count("s_biao", _("Biao"))
    room.follow = flag("s_follow", False)
    room.duanmen = flag("s_duanmen", False)
    room.kong_discard = flag("s_kong_discard", False)
    room.kongs = _read_kongs(args, room)
    _drop_unused(room)
    _check_winner_kongs(room)
    if ("dready" in room.uses and isinstance(room.winner, int) and room.dready is None
            and "s_dready" not in room.errors):
        room.errors["s_dready"] = [_("Had the seat that discarded it declared 上架? Choose: "
                                     "it changes the payment (JC-5: ×2 when not).")]
    return room


def _check_winner_kongs(room: Room) -> None:
    """The winner's kongs come from their melds: one also in the kong list would be
    counted twice; an exposed or added one needs the seat that supplied it where that seat
    pays (三门峡 SMX-7, 郑州 ZZ-5), and the page asks for it."""
    wk = room.winner_kongs
    if not wk or not room.settles:
        return
    name = room.seat_name(room.winner)
    for n, k in enumerate(room.kongs):
        if k.seat == room.winner:
            room.errors.setdefault("s_kongs", []).append(_(
                "Kong %(n)s: the kongs of %(seat)s are counted from the melds; take it out "
                "of this list (or out of the melds).", n=n + 1, seat=name))
    if room.kong_needs_from:
        for _i, m, k in wk:
            if k.type in ("exposed", "added") and k.source is None:
                room.errors.setdefault("s_wkongs", []).append(_(
                    "%(seat)s's %(kind)s %(tiles)s: choose who supplied it (that seat pays "
                    "the kong).", seat=name, kind=KONG_TYPES[k.type], tiles=m.get("tiles", "")))


#: settlement input (URL key prefix) → the name in Room.uses
_INPUT_USE = (("s_pao", "pao"), ("s_jiagang", "jiagang"), ("s_ready", "ready"),
              ("s_biao", "biao"), ("s_follow", "follow"), ("s_duanmen", "duanmen"),
              ("s_kong_discard", "kong_discard"), ("s_discarder", "discarder"),
              ("s_kongs", "kongs"), ("k_", "kongs"), ("s_dready", "dready"))


def _drop_unused(room: Room) -> None:
    """Inputs the chosen variant does not use (a stale URL may carry another variant's)
    are set back to their defaults, and their errors dropped: the page has no field to
    show them under, and the engine is never asked about them."""
    uses = room.uses
    for key in list(room.errors):
        use = next((u for prefix, u in _INPUT_USE if key.startswith(prefix)), None)
        if use is not None and use not in uses:
            del room.errors[key]
    defaults = Room(room.variant, room.options)
    for attr in ("pao", "jiagang", "ready", "biao", "follow", "duanmen", "kong_discard",
                 "discarder", "kongs", "dready"):
        if attr not in uses:
            setattr(room, attr, getattr(defaults, attr))


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
