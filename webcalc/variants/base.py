"""What every rule set provides, and the defaults they share.

A variant is a plain object (one module per rule set) with an options dataclass and the
methods the analysis, the settlement and the pricing of waits call. The shared decomposer
(:mod:`webcalc.decompose`) does the splitting; a variant says which shapes it knows, where
wildcards may stand in, and what else a win needs. The shared settlement
(:mod:`webcalc.settlement`) validates and sums; a variant says which settlement fields it
has, who pays its kongs, what a win without tiles declares, its payments and who deals next
(docs/decisions.md, "One home per rule set": no code outside ``webcalc/variants/`` names a
rule set).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar, cast, overload

from ..decompose import (
    FREE_JOKERS,
    JokerPolicy,
    Reading,
    four_wildcards_reading,
    is_standard,
    seven_pairs_reading,
    seven_pairs_waits,
    standard_readings,
)
from ..errors import BadMeldError, BadWinByError
from ..hand import MELD_KINDS, MELD_LABELS, TAKEN_KINDS, Hand, Meld
from ..messages import Message
from ..options import OptionsT
from ..rulebook import Rule
from ..settlement import KONG_TYPES, Payment, SettlementResult, Table
from ..shanten import four_wildcards_missing, free_standard, hand_caps, seven_pairs_plain
from ..tables import jokers_needed, standard_waits
from ..tiles import ALL_TILES, Tile, counts_of
from ..wildcards import HENAN, wildcards_from_indicator

WIN_METHODS = ("self_draw", "discard", "kong_replacement", "robbing_kong")
#: shape sets of :meth:`Variant.distance_shapes` (one object each: asked per analysis)
NO_SHAPES: frozenset[str] = frozenset()
SEVEN_PAIRS = frozenset(("seven_pairs",))
WIN_METHOD_LABELS = {w: Message(f"win.{w}") for w in WIN_METHODS}  # 自摸 点炮 杠上开花 抢杠
#: the fields of ``settlement`` every rule set has (C-15)
COMMON_FIELDS = frozenset({"base", "dealer", "winner", "discarder"})


_T = TypeVar("_T")


class _Derived(Generic[_T]):
    """An attribute of a :class:`Situation` derived from its hand on first read: the
    instance's ``_derive`` stores it (and its siblings) in the instance's ``__dict__``,
    which later reads find first (a non-data descriptor: no call after the first)."""

    name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, inst: None, owner: type | None = None) -> _Derived[_T]: ...
    @overload
    def __get__(self, inst: Any, owner: type | None = None) -> _T: ...

    def __get__(self, inst: Any, owner: type | None = None) -> Any:
        if inst is None:
            return self
        inst._derive()
        return inst.__dict__[self.name]


@dataclass(frozen=True)
class Situation(Generic[OptionsT]):
    """A hand as a variant judges it, under the room options of type ``OptionsT`` (the
    variant's ``Options``).

    Attributes:
        hand: concealed tiles + melds (13 or 14 tiles by C-3).
        wildcards: the wildcard kinds in force (empty when none).
        options: the variant's options, an ``OptionsT`` built once per request
            (:func:`webcalc.options.parse_options`).
        win_by: one of :data:`WIN_METHODS` (``self_draw`` when the request gives none, C-9).
        winning_tile: the tile that came last, or ``None``.
        indicator: the indicator tile, or ``None``.
        settlement: the request's ``settlement`` object (validated), or ``None``.
    """

    hand: Hand
    wildcards: tuple[Tile, ...] = ()
    options: OptionsT = cast(Any, None)         # given by every caller; a default for order
    win_by: str = "self_draw"
    winning_tile: Tile | None = None
    indicator: Tile | None = None
    settlement: dict[Any, Any] | None = None
    # counts (34-vector of the concealed tiles, wildcards as themselves), real_counts
    # (without the wildcard tiles) and jokers (the concealed wildcard tiles): derived
    # together when one is first read (a situation made to price one wait may never need
    # them), then plain attributes of the instance (_Derived)
    counts = _Derived["list[int]"]()
    real_counts = _Derived["tuple[int, ...]"]()
    jokers = _Derived["tuple[Tile, ...]"]()

    def _derive(self, counts: list[int] | None = None) -> None:
        if counts is None:
            counts = counts_of(self.hand.concealed)
        d = self.__dict__
        d["counts"] = counts
        wild = self.wildcards
        if wild:
            real = list(counts)
            for w in wild:
                real[w] = 0
            d["real_counts"] = tuple(real)
            if len(wild) == 1:          # the concealed tiles are sorted: its copies in a row
                d["jokers"] = (ALL_TILES[wild[0]],) * counts[wild[0]]
            else:
                d["jokers"] = tuple(t for t in self.hand.concealed if t in wild)
        else:
            d["real_counts"] = tuple(counts)
            d["jokers"] = ()

    @classmethod
    def counted(cls, hand: Hand, wildcards: tuple[Tile, ...], options: OptionsT, win_by: str,
                winning_tile: Tile | None, indicator: Tile | None,
                settlement: dict[Any, Any] | None, counts: list[int]) -> Situation[OptionsT]:
        """``cls(hand, …, settlement)`` with ``counts`` (the concealed tiles' counts, a list
        nobody else changes) as its counts, not counted again; its fields set as the frozen
        ``__init__`` sets them, in one step (an analysis builds one per request)."""
        sit = object.__new__(cls)
        sit.__dict__.update(hand=hand, wildcards=wildcards, options=options, win_by=win_by,
                            winning_tile=winning_tile, indicator=indicator,
                            settlement=settlement)
        sit._derive(counts)
        return sit

    def without_tile(self, t: Tile) -> Situation[OptionsT]:
        """This situation with one ``t`` taken from the concealed tiles."""
        rest = list(self.hand.concealed)
        rest.remove(t)
        # the concealed tiles stay sorted Tiles with one taken out: Hand.of's sort and
        # conversion would give the same tuple
        return Situation(Hand(tuple(rest), self.hand.melds), self.wildcards, self.options,
                         self.win_by, None, self.indicator, self.settlement)


@dataclass
class Judgement:
    """A variant's verdict on a 14-tile hand.

    Attributes:
        readings: every legal winning reading, the best for the winner first (C-6).
        reasons: when not a win only because of a variant rule: ``[{"rule", "message"}]``.
        biao: 三门峡 表 count (SMX-5, without ``biao_discards``), else ``None``.
        fan: 盘锦 hand 番 of the best reading (PJ-10), ``[{"name", "key", "multiplier"}]``.
    """

    readings: list[Reading]
    reasons: list[dict[Any, Any]] = field(default_factory=list)
    biao: int | None = None
    fan: list[dict[Any, Any]] | None = None

    @property
    def complete(self) -> bool:
        return bool(self.readings)


def reason(rule: str, code: str, **params: Any) -> dict[Any, Any]:
    """One API reason: ``{"rule", "message"}`` with the message as a
    :class:`~webcalc.messages.Message` (``code``, ``params``, ``rule``)."""
    return {"rule": rule, "message": Message(code, params, rule)}


@dataclass(frozen=True)
class Declarable:
    """What a win recorded without its tiles may declare in a room (API ``declared``): the
    factors the tiles would have decided, as far as the room's options have them on.

    Attributes:
        field: the key of ``declared`` (``doubles`` 郑州, ``fan`` 盘锦, ``biao`` 三门峡).
        label: what a reader calls it (加倍, 番, 表), for forms and their errors.
        rule: the RULES id that says what it is worth.
        keys: for a list field, ``(key, name)`` of each factor the room has on, in order.
        maximum: for a count field (``keys`` empty), the largest count.
    """

    field: str
    label: Message
    rule: str
    keys: tuple[tuple[str, Message], ...] = ()
    maximum: int = 0


class Variant(Generic[OptionsT]):
    """Base of the four rule sets; subclasses set the class attributes and override
    what differs. Generic in the rule set's options (``class Sanmenxia(Variant[
    SanmenxiaOptions])``): every hook that reads the room's options takes that type, as
    ``opts``, or in ``sit.options`` (:class:`Situation`) and ``t.options``
    (:class:`~webcalc.settlement.Table`), so the checker holds each hook to its own
    rule set's options."""

    name = ""
    label: str | Message = ""
    seed = ""
    #: a hand of this rule set (API request fields besides ``variant``) the server analyses
    #: once before it takes traffic (webcalc.web.warmup): 13 tiles waiting, or 14 won
    sample_hand: dict[str, str] = {}
    #: a rule of this rule set the rules page's introduction names, beside a common one, as
    #: an example of the ids the results cite (the first registered variant's that has one)
    sample_rule = ""
    #: the room options' frozen dataclass (:mod:`webcalc.options`): fields with exact types
    #: and defaults, built and checked once per request by ``parse_options(Options, raw)``
    Options: type[OptionsT]
    cycle = HENAN
    #: win method → allowed; the rule id cited when refused (C-14)
    win_methods: frozenset[str] = frozenset({"self_draw", "kong_replacement"})
    win_rule = ""
    chow_allowed = True
    chow_rule = ""
    taken_allowed = False                       # 拾/搶 melds (晋城 only, JC-10)
    policy: JokerPolicy = FREE_JOKERS
    #: the rules beside C-9 and C-12 that decide a hand's 牌理 here (wildcards, shapes): the
    #: rule pages a 何切 problem's answer names (:mod:`webcalc.quiz`)
    efficiency_rules: tuple[str, ...] = ()
    #: whether the shared free-joker search counts this rule set's 牌理 (shanten, useful
    #: draws, waits: ``FreeOracle`` and the compiled draws of :mod:`webcalc.efficiency`): a
    #: wildcard may stand in any group and a win is its shape complete. False where a win
    #: needs more than its shape and jokers stay out of triplets (盘锦 PJ-2, PJ-4..PJ-7):
    #: that rule set's own search, reached through :meth:`missing_by_shape`,
    #: :meth:`useful_search` and :meth:`discards_search`, counts every discard at once, its
    #: waits included.
    free_joker_search = True
    #: the rule by which the supplier of an exposed or added kong's tile pays for it, so a
    #: kong of those types names its supplier (``settlement.kongs[].from``); ``""`` where
    #: every other player pays every kong (盘锦 PJ-13, 晋城 JC-6)
    kong_supplier_rule = ""
    #: settlement inputs that only a win on a discard has: a wait priced as a self-draw
    #: (:func:`webcalc.worth.hypothetical_settlement`) drops them
    discard_win_fields: frozenset[str] = frozenset()
    #: the rule that derives the 表 count from a winner's ``history`` (where
    #: :meth:`takes_history`); ``""`` where none does (webcalc/history.py)
    history_rule = ""
    #: the rule a form cites beside a settlement input (a link by its label): settlement
    #: field → rule id, and ``discarder_ready`` for the discarder's 上架 a form asks apart;
    #: a field not named cites none
    field_rules: Mapping[str, str] = {}
    #: what a win recorded without its tiles may declare (keys of the API's ``declared``,
    #: :func:`webcalc.settlement.settle_declared`); empty where the money needs no factor
    #: of the tiles
    declared_fields: tuple[str, ...] = ()
    #: what a 番 key of ``waits[].win.fan`` multiplies by where it is not ×2
    fan_multipliers: dict[str, int] = {}
    #: this rule set's own words, code → (English, Chinese): its label, its options' labels
    #: and help, its payment lines and its rule-specific messages; the catalogue finds them
    #: through the registry (:func:`webcalc.variants.owned_text`), so no shared file holds them
    texts: Mapping[str, tuple[str, str]] = {}
    #: its rules pages (``/rules/<id>``), in RULES.md order, and the prefix of their ids
    rules: tuple[Rule, ...] = ()
    rule_prefix = ""

    # -- configuration -------------------------------------------------------------
    def wildcards_on(self, opts: OptionsT) -> bool:
        """Whether the room plays with wildcards at all."""
        return False

    def wildcards(self, opts: OptionsT, indicator: Tile | None) -> tuple[Tile, ...]:
        """Wildcard kinds for ``indicator`` (C-7: none without an indicator)."""
        if indicator is None or not self.wildcards_on(opts):
            return ()
        return wildcards_from_indicator(indicator, self.cycle)

    def kinds_in_play(self, opts: OptionsT) -> int:
        """How many tile kinds are in the wall: 34, or 27 without honors."""
        return 34

    def takes_history(self, opts: OptionsT) -> bool:
        """Whether a request may give the winner's ``history`` (三门峡 SMX-5: its 表 are
        counted from the turns). Default: no."""
        return False

    def any_tile_wait(self, sit: Situation[OptionsT]) -> bool:
        """The any-tile wait a ``history`` tracks (SMX-4); only asked where
        :meth:`takes_history`."""
        return False

    def check_win_by(self, win_by: str) -> None:
        """Raise ``bad_win_by`` (C-14) when this variant does not allow ``win_by``."""
        if win_by not in self.win_methods:
            allowed = [WIN_METHOD_LABELS[w] for w in WIN_METHODS if w in self.win_methods]
            raise BadWinByError(Message(
                "win_by.not_allowed", variant=self.label, method=WIN_METHOD_LABELS[win_by],
                allowed=allowed, rule_id=self.win_rule, rule=self.win_rule), "win_by")

    def check_winning_tile(self, win_by: str, winning: Tile | None,
                           wildcards: tuple[Tile, ...]) -> None:
        """Raise ``bad_win_by`` (C-14) when ``winning`` cannot be won by ``win_by`` (盘锦:
        no discard win on a wildcard, PJ-2). Default: any tile."""

    @property
    def meld_kinds(self) -> tuple[str, ...]:
        """The meld types this variant has (API ``melds[].type``), in API order."""
        return tuple(k for k in MELD_KINDS if (k != "chow" or self.chow_allowed)
                     and (k not in TAKEN_KINDS or self.taken_allowed))

    def check_melds(self, opts: OptionsT, melds: list[Meld], wildcards: tuple[Tile, ...]) -> None:
        """Raise ``bad_meld`` for a meld, or a set of melds, this variant forbids."""
        for i, m in enumerate(melds):
            self.check_meld(opts, m, wildcards, i)

    def check_chow(self) -> None:
        """Raise ``bad_meld`` when this rule set has no chow at all (SMX-2, ZZ-2, JC-2): a
        ``chow`` meld, a chow claimed in a review's turn, a chow tapped on the review page."""
        if not self.chow_allowed:
            raise BadMeldError(Message("meld.no_chow", variant=self.label,
                                       rule_id=self.chow_rule, rule=self.chow_rule),
                               "melds")

    def check_meld(self, opts: OptionsT, meld: Meld, wildcards: tuple[Tile, ...],
                   index: int) -> None:
        """Raise ``bad_meld`` for a meld this variant forbids (no chow in 三门峡, 郑州 and
        晋城, :meth:`check_chow`; 拾/搶 only in 晋城, JC-10)."""
        if meld.kind == "chow":
            self.check_chow()
        if meld.is_taken and not self.taken_allowed:
            raise BadMeldError(Message("meld.no_taken", variant=self.label,
                                       meld=MELD_LABELS[meld.kind], tile=meld.tiles[0],
                                       rule="JC-10"), "melds")

    def declarable(self, opts: OptionsT) -> Declarable | None:
        """What a win recorded without its tiles may declare under ``opts``, or ``None``
        when nothing (the variant's money needs no factor of the tiles, or the room has
        every such factor off). The settlement's ``parse_declared`` refuses the rest."""
        return None

    # -- settlement (C-10, C-11, C-15) -----------------------------------------------
    @property
    def kong_names_supplier(self) -> bool:
        """Whether a form asks who supplied an exposed or added kong's tile."""
        return bool(self.kong_supplier_rule)

    def pao_max(self, opts: OptionsT) -> tuple[int, str | Message]:
        """The largest 跑 a seat may have, and the rule that says so (C-15); for none, the
        message saying why. Default: no 跑 in this rule set."""
        return 0, Message("s.no_pao", {"variant": self.label}, "C-15")

    def settlement_fields(self, opts: OptionsT) -> frozenset[str]:
        """The ``settlement`` fields this variant uses under these room options — what a
        form should offer. Any other field is accepted only at its neutral value (0, false,
        none). Default: ``base``, ``dealer``, ``winner``, ``discarder``, ``kongs``, and
        ``pao`` where :meth:`pao_max` allows some."""
        used = COMMON_FIELDS | {"kongs"}
        if self.pao_max(opts)[0] > 0:
            used |= {"pao"}
        return used

    def kong_types(self, opts: OptionsT) -> tuple[str, ...]:
        """The kong types of ``settlement.kongs`` this variant allows; default 明杠 补杠 暗杠."""
        return KONG_TYPES[:3]

    def everyone_jiagang(self, opts: OptionsT) -> bool:
        """Whether every seat has 加钢 whatever ``settlement.jiagang`` says (盘锦 死钢,
        PJ-11); default no."""
        return False

    def payments(self, t: Table[OptionsT]) -> tuple[list[Payment], dict[str, Any]]:
        """The payments of a validated table, and what the result adds beside them
        (:class:`~webcalc.settlement.SettlementResult`'s ``biao``, ``fan``, ``notes``)."""
        raise NotImplementedError

    def next_dealer(self, t: Table[OptionsT]) -> tuple[int, str]:
        """Who deals the next hand, and the rule that says so."""
        raise NotImplementedError

    def parse_declared(self, t: Table[OptionsT], raw: dict[Any, Any]) -> dict[Any, Any]:
        """The factors a win without tiles declares (``raw``, its keys among
        :attr:`declared_fields`), checked against the room; default none."""
        return {}

    # -- what a wait is worth (:mod:`webcalc.worth`) -----------------------------------
    def score_key(self, sit: Situation[OptionsT]) -> tuple[Any, ...] | None:
        """A key such that two wins of the same 13 tiles with equal keys are worth the same
        (same 番/表 and amount), read off cheap predicates, or ``None`` when only a full
        judgement can tell. Default: ``None``."""
        return None

    def wait_score_keys(self, before: Situation[OptionsT],
                        tiles: Sequence[Tile]) -> list[tuple[Any, ...] | None] | None:
        """:meth:`score_key` of the win on each of ``tiles`` (waits of the 13-tile
        ``before``) when one look at ``before`` tells them all, else ``None`` (then
        :meth:`score_key` is asked per wait, of the completed hand). Default: ``None``."""
        return None

    def pricing_judgement(self, sit: Situation[OptionsT], key: tuple[Any, ...]) -> Judgement:
        """What the settlement reads of a judgement, built from :meth:`score_key` without
        listing the readings: the win is complete (the tile is a wait, C-9). Default: one
        standard reading and nothing else."""
        return Judgement([Reading("standard", ())])

    def win_fan_keys(self, sit: Situation[OptionsT], judgement: Judgement,
                     result: SettlementResult) -> list[str]:
        """The keys of what multiplies a priced win (API ``waits[].win.fan``); default none."""
        return []

    def win_extras(self, result: SettlementResult) -> dict[str, Any]:
        """What ``waits[].win`` carries beside ``fan`` and ``amount``; default nothing."""
        return {}

    # -- judging ------------------------------------------------------------------
    def is_win(self, sit: Situation[OptionsT]) -> bool:
        """Whether the 14-tile hand of ``sit`` is a legal win. Cheap; no listing."""
        return bool(self.judge(sit).readings)

    def judge(self, sit: Situation[OptionsT]) -> Judgement:
        """All legal readings of a 14-tile hand, best first, with reasons when none."""
        raise NotImplementedError

    def can_discard(self, sit: Situation[OptionsT], t: Tile) -> bool:
        """Whether ``t`` may be discarded (盘锦 PJ-2 forbids discarding a wildcard)."""
        return True

    def missing_by_shape(self, sit: Situation[OptionsT], limit: int = 99) -> dict[str, int]:
        """For each shape the variant knows and the hand can still reach, the fewest tiles
        a complete hand of that shape holds beyond the hand's (``d`` in
        :mod:`webcalc.shanten`: shanten is the minimum less one, exact, C-12). Shapes the
        hand can never reach are left out. Default: standard + 七对 as themselves.
        A variant may leave out the distances above ``limit`` (盘锦 and 晋城 do, bounding
        their searches: :mod:`webcalc.efficiency`); this default computes them all."""
        face, real, room = hand_caps(sit, self.kinds_in_play(sit.options))
        out = {}
        d = free_standard(sit.real_counts, real, len(sit.jokers), room, len(sit.hand.melds))
        if d is not None:
            out["standard"] = d
        if not sit.hand.melds:
            d = seven_pairs_plain(sit.counts, face)
            if d is not None:
                out["seven_pairs"] = d
        return out

    def useful_search(self, sit: Situation[OptionsT], bound: int | None = None,
                      standard: tuple[Any, ...] | None = None) -> tuple[int, set[int]]:
        """牌理 of a rule set with its own search (``free_joker_search`` false): the distance
        ``d`` of the 13-tile hand of ``sit`` (shanten ``d − 1``; ``INF`` = 99: never ready)
        and the kinds whose draw lowers it (a hand ready for a win that must be a discard:
        its waits). ``bound``: a distance the hand is known to be within (one search at it);
        ``standard``: ``(result,)`` of :meth:`discards_search`'s search at ``bound`` for
        this discard, when the caller has it. :mod:`webcalc.efficiency` calls it once per
        hand, never inside a loop. The free-joker rule sets never reach it."""
        raise NotImplementedError(f"{type(self).__name__} has no search of its own")

    def own_advice(self, sit: Situation[OptionsT], kinds: int, visible: Sequence[int],
                   useful: bool = True) -> tuple[Any, ...] | None:
        """A rule set with its own search: the 13-tile hand's advice in one pass, as
        :func:`webcalc.draws.compiled_advice` gives the free-joker rule sets' —
        ``(shanten, waits, useful, useful_total, any_tile_wait)``, the same rows as
        :func:`webcalc.waits.find_waits`, :func:`webcalc.waits.is_any_tile_wait` and
        :func:`webcalc.efficiency.useful_draws` (``useful`` false: its waits only).
        Default ``None``: those calls."""
        return None

    def own_discards_advice(self, sit: Situation[OptionsT], kinds: int,
                            visible: Sequence[int]) -> tuple[Any, ...] | None:
        """A rule set with its own search: the 14-tile hand's advice in one pass, as
        :func:`webcalc.draws.compiled_advice` gives the free-joker rule sets' with discards
        — ``(efficiency, discards, shanten)``, the rows of
        :func:`webcalc.efficiency.efficiency` and
        :func:`webcalc.efficiency.ready_discard_rows` and their least shanten (``None``:
        none ready). Default ``None``: those calls."""
        return None

    def discards_search(self, sit: Situation[OptionsT]) -> tuple[int | None, dict[int, Any]]:
        """For a 14-tile hand of a rule set with its own search: ``(bound, pre)``, a
        distance every discard's 13 tiles are within (``-1``: no target at all, ``None``:
        none known) and per discarded kind its search's result at ``bound`` (handed back to
        :meth:`useful_search` as ``standard``). Default: nothing known."""
        return None, {}

    def discards_useful(self, sit: Situation[OptionsT], bound: int,
                        pre: dict[int, Any]) -> dict[int, tuple[int, int]] | None:
        """:meth:`useful_search` of every discard of a 14-tile hand at ``bound`` with its
        result in ``pre`` (:meth:`discards_search`), at once: per discarded real kind ``(d,
        kinds bit set)``, the same answers. Default ``None``: one call per discard."""
        return None

    def distance_shapes(self, sit: Situation[OptionsT],
                        kinds_in_play: int = 34) -> frozenset[str] | None:
        """The shapes :meth:`missing_by_shape` counts for this hand, when a win is exactly
        one of them complete and a wildcard may stand anywhere: then the distance search of
        :mod:`webcalc.efficiency` (``FreeOracle``, compiled in webcalc/_pjunit.c) answers
        its shanten, its useful draws and its waits at once. ``None`` where a win needs
        more than its shape (盘锦's conditions) or another search counts the hand. Names:
        ``seven_pairs``, ``four_wildcards``, ``knitted``, ``thirteen_orphans`` (the
        standard shape always). Default: 七对 as themselves without melds."""
        if not self.free_joker_search:
            return None
        return NO_SHAPES if sit.hand.melds else SEVEN_PAIRS

    @staticmethod
    def missing_four_wildcards(sit: Situation[Any]) -> int | None:
        """四混: tiles to add to hold the four tiles of one wildcard kind concealed."""
        return four_wildcards_missing(sit, hand_caps(sit)[0])

    def winning_kinds(self, sit: Situation[OptionsT]) -> list[Tile]:
        """Every kind whose addition makes the 13-tile hand of ``sit`` a legal win,
        liveness (C-9) not applied. Standard waits come from the unit tables in one
        pass; each variant adds its special shapes' waits in :meth:`special_waits`; a
        variant with conditions beyond the shapes (盘锦) overrides this."""
        kinds = set(standard_waits(sit.real_counts, len(sit.jokers), len(sit.hand.melds),
                                   sit.wildcards, self.policy.in_triplet))
        kinds |= self.special_waits(sit)
        return [ALL_TILES[k] for k in sorted(kinds)]

    def special_waits(self, sit: Situation[OptionsT]) -> set[int]:
        """Waits of the special shapes; default 七对 with every tile as itself."""
        if sit.hand.melds:
            return set()
        return set(seven_pairs_waits(sit.counts))

    @staticmethod
    def four_wildcards_waits(sit: Situation[Any]) -> set[int]:
        """四混: three of a wildcard kind wait on the fourth; four already, on anything."""
        out: set[int] = set()
        for w in sit.wildcards:
            n = sit.jokers.count(w)
            if n == 3:
                out.add(int(w))
            elif n >= 4:
                out |= set(range(34))
        return out

    # -- helpers for subclasses ---------------------------------------------------
    @staticmethod
    def standard(sit: Situation[Any], policy: JokerPolicy = FREE_JOKERS) -> list[Reading]:
        return standard_readings(sit.real_counts, sit.jokers, sit.hand.melds, policy)

    @staticmethod
    def is_standard(sit: Situation[Any], policy: JokerPolicy = FREE_JOKERS) -> bool:
        """Whether the hand (14 tiles by C-3, so the count always fits) is 4 melds + a
        pair: the per-suit tables say how many jokers that takes."""
        if sit.hand.tile_count != 14:
            return is_standard(sit.real_counts, len(sit.jokers), len(sit.hand.melds), policy)
        return jokers_needed(sit.real_counts, 1, policy.in_triplet) <= len(sit.jokers)

    @staticmethod
    def seven_pairs_as_themselves(sit: Situation[Any]) -> Reading | None:
        """七对 with wildcards only as themselves (SMX-3, ZZ-3, JC-2); needs no melds."""
        if sit.hand.melds or any(map((1).__and__, sit.counts)):
            return None
        return seven_pairs_reading(sit.counts)

    @staticmethod
    def is_seven_pairs_as_themselves(sit: Situation[Any]) -> bool:
        """Cheap form of :meth:`seven_pairs_as_themselves` ``is not None``: the sorted
        concealed tiles pair off two by two (four of a kind is two pairs, C-5)."""
        c = sit.hand.concealed
        return not sit.hand.melds and len(c) == 14 and c[0::2] == c[1::2]

    @staticmethod
    def has_four_wildcards(sit: Situation[Any]) -> bool:
        """Cheap form of :meth:`four_wildcards` ``is not None``."""
        return any(sit.counts[w] >= 4 for w in sit.wildcards)

    @staticmethod
    def four_wildcards(sit: Situation[Any]) -> Reading | None:
        """四混: the four wildcard tiles of one kind held concealed (SMX-3, ZZ-3)."""
        if not sit.wildcards or len(sit.jokers) < 4:
            return None
        for w in sit.wildcards:
            if sit.counts[w] == 4:
                return four_wildcards_reading(sit.hand.concealed, (w,))
        return None
