"""The room of one request: the chosen variant, its options and the settlement inputs, as
typed (for re-rendering) and as the engine's ``options`` and ``settlement`` objects (API.md).

The room model is three modules: this one (:class:`Room`, its options, the state the
template reads), :mod:`webcalc.web.settlement_form` (the settlement section: what the
variant uses, the engine's ``settlement`` object, the page's checks) and
:mod:`webcalc.web.room_url` (the URL codec: reading a room from the query, writing its
canonical pairs). The web layer decides no rule: it only chooses which inputs to show for a
variant and passes what was chosen; the engine validates and errors come back under the
matching input.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from functools import lru_cache
from typing import Any

from ..catalogue import localize
from ..options import option_specs
from ..variants import VARIANTS
from ..variants.base import WIN_METHOD_LABELS, WIN_METHODS
from .i18n import current_lang, list_sep
from .i18n import gettext as _
from .settlement_form import SEATS, Kong, SettlementForm


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
class Room(SettlementForm):
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

    @property
    def opts(self) -> dict:
        return {o.spec["name"]: (o.value if o.error is None else o.spec["default"])
                for o in self.options}

    # -- state for the template ----------------------------------------------------------

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
            or self.dealer != 0

    def options_request(self) -> dict:
        """Only the options that differ from their default (API ``options``)."""
        return {o.name: o.value for o in self.options if o.error is None and o.changed}

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
        if top == "options":
            by_name = {o.name: o for o in self.options}
            option = by_name.get(rest.split(".")[0])
            if option is None:
                return False
            option.error = message
            return True
        if top == "settlement":
            self.attach_settlement(rest.split(".")[0], message)
            return True
        return False


_SCALARS = frozenset((bool, int, float, type(None)))


def _freeze(value: Any) -> Any:
    """``value`` as a hashable key that tells apart what renders differently (``1``,
    ``1.0``, ``True`` and ``"1"`` are four keys)."""
    kind = type(value)
    if kind is str:
        return value
    if kind in _SCALARS:                # the common cases first: a key is made per page
        return (kind, value)
    if kind is list:
        return tuple([_freeze(v) for v in value])
    if kind is dict:
        return (dict,) + tuple([(k, v if type(v) is str else _freeze(v))
                                for k, v in value.items()])
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
