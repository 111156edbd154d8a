"""The settlement section of the page form: which inputs the chosen variant uses (asked of
the engine), the engine's ``settlement`` object made of them, and the checks the page makes
before asking (a kong counted twice, a supplier missing, the discarder's 上架).

:class:`SettlementForm` is the part of :class:`webcalc.web.room.Room` that holds these
answers; :mod:`webcalc.web.room_url` reads and writes the inputs in the URL. The web layer
decides no rule: the variant says what it uses and the engine validates.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from functools import lru_cache
from types import SimpleNamespace
from typing import Any, cast

from markupsafe import Markup

from ..errors import InputError
from ..messages import Message
from ..options import parse_options
from ..settlement import kongs_of_melds
from ..variants import VARIANTS
from .i18n import SEAT_LABELS, localized
from .i18n import gettext as _
from .i18n import lazy_gettext as _l

SEATS = ("东家", "南家", "西家", "北家")
_ENGLISH_SEATS = ("East", "South", "West", "North")     # the English page's blank seat names
SEAT_SHORT = ("东", "南", "西", "北")
KONG_TYPES = {"exposed": _l("Exposed kong"), "added": _l("Added kong"),
              "concealed": _l("Concealed kong"), "wildcard": _l("Wildcard kong (混杠)")}
KONG_ALIASES = {"明": "exposed", "明杠": "exposed", "补": "added", "补杠": "added",
                "暗": "concealed", "暗杠": "concealed", "混": "wildcard", "混杠": "wildcard"}
MAX_KONGS = 16
#: engine settlement field → the name the form and its template use
_FORM_NAME = {"biao_discards": "biao", "follow_dealer": "follow", "discarder_ready": "dready"}
#: engine settlement field → the input its error shows under
_ERROR_INPUT = {"base": "s_base", "dealer": "s_dealer", "winner": "s_winner",
                "discarder": "s_discarder", "pao": "s_seats", "jiagang": "s_seats",
                "ready": "s_seats", "kongs": "s_kongs", "biao_discards": "s_biao",
                "follow_dealer": "s_follow", "duanmen": "s_duanmen",
                "kong_discard": "s_kong_discard"}
#: settlement input (URL key prefix) → the name in SettlementForm.uses
_INPUT_USE = (("s_pao", "pao"), ("s_jiagang", "jiagang"), ("s_ready", "ready"),
              ("s_biao", "biao"), ("s_follow", "follow"), ("s_duanmen", "duanmen"),
              ("s_kong_discard", "kong_discard"), ("s_discarder", "discarder"),
              ("s_kongs", "kongs"), ("k_", "kongs"), ("s_dready", "dready"))
#: the inputs a variant may not use, set back to their defaults when it does not
_VARIANT_INPUTS = ("pao", "jiagang", "ready", "biao", "follow", "duanmen", "kong_discard",
                   "discarder", "kongs", "dready")


@lru_cache(maxsize=1024)
def _parsed_options(variant: str, opts: tuple):
    """:attr:`SettlementForm._engine_options` for ``opts`` (``(name, type, value)``
    triples), once."""
    v = VARIANTS[variant]
    try:
        return v, parse_options(v.Options, {name: value for name, _kind, value in opts})
    except InputError:
        return v, v.Options()


@dataclass
class Kong:
    seat: int | None = None
    type: str = "concealed"
    source: int | None = None

    def compact(self) -> str:
        return f"{self.seat}:{self.type}" + ("" if self.source is None else f":{self.source}")


class SettlementForm:
    """The settlement inputs' answers, for :class:`webcalc.web.room.Room` (a dataclass that
    holds the fields named below)."""

    variant: str
    errors: dict[str, list[str]]
    base: int | float
    dealer: int | None
    winner: int | None | str                           # "" = not chosen, None = 荒庄
    discarder: int | None
    pao: list[int]
    jiagang: list[bool]
    ready: list[bool]
    dready: bool | None
    kongs: list[Kong]
    biao: int
    follow: bool
    duanmen: bool
    kong_discard: bool
    names: list[str]
    win_by: str
    melds: list[dict]
    indicator: str

    @property
    def opts(self) -> dict:
        raise NotImplementedError           # the room's options (Room.opts)

    # -- what the variant uses -----------------------------------------------------------

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
            if "ready" in used:             # the discarder's 上架 changes the money
                used.add("dready")
        return frozenset(used)

    @property
    def takes_history(self) -> bool:
        """Whether the page asks for the winner's last turns (the variant says: where they
        count 表, ``Variant.takes_history``)."""
        variant, options = self._engine_options
        return variant.takes_history(options)

    @property
    def field_rules(self) -> dict[str, str]:
        """The rule each settlement input cites by its label, in the form's names: the
        variant says (``Variant.field_rules``); an input it names none for cites none."""
        variant = VARIANTS.get(self.variant)
        if variant is None:
            return {}
        return {_FORM_NAME.get(f, f): rule for f, rule in variant.field_rules.items()}

    @property
    def history_rule(self) -> str:
        """The rule the winner's turns count 表 by (``Variant.history_rule``), or ``""``."""
        variant = VARIANTS.get(self.variant)
        return variant.history_rule if variant is not None else ""

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
    def everyone_jiagang(self) -> bool:
        """Every seat counts as 加钢 whatever the form says (the variant says: 死钢), read
        from the options as the form shows them (``Variant.everyone_jiagang``)."""
        variant = VARIANTS.get(self.variant)
        return variant is not None and variant.everyone_jiagang(SimpleNamespace(**self.opts))

    @property
    def everyone_jiagang_note(self) -> str:
        """What the seats' table says under it when :attr:`everyone_jiagang` (the words of
        the rule set that has 死钢: ``s.everyone_jiagang``)."""
        return localized(Message("s.everyone_jiagang"))

    @property
    def history_help(self) -> Markup:
        """The help under the winner's turns where :attr:`takes_history` (the words of the
        rule set that counts 表 from them: ``history.help``), as the page's own strings are
        given (not escaped again)."""
        return Markup(localized(Message("history.help")))

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

    # -- the engine's settlement object ----------------------------------------------------

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
        s.update(self._flags(used))
        if s["dealer"] is None:
            del s["dealer"]                  # the engine says it is required, under 庄家
        return s

    def _flags(self, used: frozenset[str]) -> dict[str, Any]:
        """The settlement's counts and yes/no inputs the variant uses, when set."""
        s: dict[str, Any] = {}
        if "biao" in used and self.biao:
            s["biao_discards"] = self.biao
        if "follow" in used and self.follow:
            s["follow_dealer"] = True
        if "duanmen" in used and self.duanmen:
            s["duanmen"] = True
        if "kong_discard" in used and self.kong_discard:
            s["kong_discard"] = True
        return s

    def attach_settlement(self, name: str, message: str) -> None:
        """Put the engine's error about settlement field ``name`` under its input."""
        self.errors.setdefault(_ERROR_INPUT.get(name, "settlement"), []).append(message)

    # -- the page's own checks -------------------------------------------------------------

    def check_settlement(self) -> None:
        """After reading: drop what the variant does not use, check the winner's kongs and
        ask for the discarder's 上架 where it changes the money."""
        uses = self.uses                    # the options and 胡法 stay as read
        self._drop_unused(uses)
        self._check_winner_kongs()
        if ("dready" in uses and isinstance(self.winner, int) and self.dready is None
                and "s_dready" not in self.errors):
            # the question and its rule are the rule set's words (its texts)
            self.errors["s_dready"] = [localized(Message("s.dready_choose"))]

    def _check_winner_kongs(self) -> None:
        """The winner's kongs come from their melds: one also in the kong list would be
        counted twice; an exposed or added one needs the seat that supplied it where that
        seat pays (``Variant.kong_names_supplier``), and the page asks for it."""
        wk = self.winner_kongs
        if not wk or not self.settles:
            return
        name = self.seat_name(self.winner)
        for n, k in enumerate(self.kongs):
            if k.seat == self.winner:
                self.errors.setdefault("s_kongs", []).append(_(
                    "Kong %(n)s: the kongs of %(seat)s are counted from the melds; take it out "
                    "of this list (or out of the melds).", n=n + 1, seat=name))
        if self.kong_needs_from:
            for _i, m, k in wk:
                if k.type in ("exposed", "added") and k.source is None:
                    self.errors.setdefault("s_wkongs", []).append(_(
                        "%(seat)s's %(kind)s %(tiles)s: choose who supplied it (that seat pays "
                        "the kong).", seat=name, kind=KONG_TYPES[k.type],
                        tiles=m.get("tiles", "")))

    def _drop_unused(self, uses: frozenset[str]) -> None:
        """Inputs the chosen variant does not use (``uses`` says which it does; a stale URL
        may carry another variant's) are set back to their defaults, and their errors
        dropped: the page has no field to show them under, and the engine is never asked
        about them."""
        for key in list(self.errors):
            use = next((u for prefix, u in _INPUT_USE if key.startswith(prefix)), None)
            if use is not None and use not in uses:
                del self.errors[key]
        for f in fields(cast(Any, self)):
            attr = f.name
            if attr in _VARIANT_INPUTS and attr not in uses:
                setattr(self, attr, f.default if f.default_factory is MISSING
                        else f.default_factory())

