"""One entry point: an API request → the analysis the page and the API show.

:func:`analyze` takes the body of ``POST /api/v1/analyze`` (API.md) as a dict and returns
an :class:`Analysis` (``to_json()``: the response body), or raises
:class:`~webcalc.errors.InputError`. It validates input in
the order a referee would check it — variant, options, tiles (C-1), indicator (C-7),
copies (C-2), tile count (C-3), winning tile, win method (C-14) — then asks the variant.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

from .compiled import pjunit
from .decompose import listed_dicts
from .draws import compiled_advice
from .efficiency import efficiency, ready_discard_rows, useful_draws
from .errors import (
    BadJsonError,
    BadOptionError,
    BadRequestError,
    BadSettlementError,
    BadTileError,
    BadWinByError,
    InputError,
    NotInHandError,
    TooManyCopiesError,
    UnknownVariantError,
    WrongTileCountError,
)
from .hand import Hand, Meld, melds_from_api
from .messages import Joined, Message, Plain
from .options import parse_options
from .settlement import SettlementResult, settle
from .tiles import (
    ALL_TILES,
    FIELD_LABELS,
    NUM_KINDS,
    Tile,
    counts_of,
    parse_tiles,
    plain_kinds,
)
from .variants import VARIANTS, Situation, Variant
from .variants.base import WIN_METHODS, Judgement
from .waits import Wait, discard_advice, find_waits, is_any_tile_wait
from .worth import wait_values


class _VariantLabels(Mapping[str, "str | Message"]):
    """Each registered rule set's label by name, read from the registry when asked."""

    def __getitem__(self, name: str) -> str | Message:
        return VARIANTS[name].label

    def __iter__(self) -> Iterator[str]:
        return iter(VARIANTS)

    def __len__(self) -> int:
        return len(VARIANTS)


VARIANT_LABELS: Mapping[str, str | Message] = _VariantLabels()
REQUEST_FIELDS = ("variant", "options", "hand", "melds", "indicator", "winning_tile",
                  "win_by", "visible", "settlement", "history")
_REQUEST_FIELD_SET = frozenset(REQUEST_FIELDS)
MAX_LISTED = 200          # API.md: the readings list may stop at 200
MAX_TEXT = 200            # characters in one tile field


Rows = tuple[dict[str, Any], ...]
#: the fields of an :class:`Analysis` that never hold a :class:`~webcalc.messages.Message`
#: (tile codes, counts, flags): its readings and the advice rows (``discards``,
#: ``efficiency``, ``useful``: waits.Wait.to_dict, waits.Discard.to_dict,
#: efficiency.efficiency, advice_rows and the compiled rows). Rendering them copied every
#: row through ``localize`` for nothing: about 48 µs an answer with advice (300 fresh
#: page hands, timeit, 2026-12-07), of a page and of an API call alike
MESSAGE_FREE = ("readings", "discards", "efficiency", "useful")
#: the fields :meth:`Analysis.localized` renders
_MAY_HOLD_MESSAGES = ("waits", "reasons", "fan", "history", "settlement")
#: the compiled twin of :func:`_plain_hand`'s reading, or ``None`` (pure Python)
_read_plain = pjunit.plain_hand if pjunit is not None else None


@dataclass(frozen=True)
class Analysis:
    """What :func:`analyze` found: the hand's judgement, its settlement and its advice.

    The attributes are the API body's fields (docs/API.md), typed, with two renamed for what
    they hold: ``readings`` (API ``decompositions``, ≤ 200, best first) and
    ``readings_total`` (``decompositions_total``). A field the API leaves out is ``None``
    here (``reasons``: empty), and :meth:`to_json` leaves it out again, so that
    ``to_json()`` is today's body key for key, in the same order. The rows (``waits``,
    ``discards``, ``efficiency``, ``useful``, ``history``) are tuples of the API's dicts;
    text a reader sees (reasons, fan names, payment details, notes) is held as
    :class:`~webcalc.messages.Message`\\ s, rendered by :meth:`localized` or by the API.
    See docs/decisions.md "A typed analysis result". No ``__slots__``: :meth:`built` sets only
    the fields it is given, the others read their defaults off the class.
    """

    variant: str
    wildcards: tuple[str, ...]
    tile_count: int
    complete: bool = False
    readings: Rows = ()
    readings_total: int = 0
    waits: Rows = ()
    any_tile_wait: bool = False
    reasons: Rows = ()
    biao: int | None = None              # the variant's 表 count, the settlement's when settled
    fan: list[dict[str, Any]] | None = None   # the variant's 番 list, the settlement's when settled
    history: Rows | None = None          # with a history (Variant.takes_history): each turn
    settlement: dict[str, Any] | None = None  # {"payments", "net", "next_dealer"?, "notes"?}
    discards: Rows | None = None         # 14 tiles with advice
    efficiency: Rows | None = None       # 14 tiles with advice (牌理)
    shanten: int | None = None           # None: never ready, or no advice asked
    useful: Rows | None = None           # 13 tiles with advice
    useful_total: int | None = None      # 13 tiles with advice

    @classmethod
    def built(cls, variant: str, wildcards: tuple[str, ...], tile_count: int,
              fields: dict[str, Any]) -> Analysis:
        """``Analysis(variant, wildcards, tile_count, **fields)`` in one ``__dict__`` update
        (the generated ``__init__`` of a frozen class sets each of its 19 fields through
        ``object.__setattr__``); ``fields``: :func:`analyze`'s own, of this class's names."""
        self = object.__new__(cls)
        d = self.__dict__
        d["variant"], d["wildcards"], d["tile_count"] = variant, wildcards, tile_count
        d.update(fields)
        return self

    def to_json(self) -> dict[str, Any]:
        """The API body (``POST /api/v1/analyze``), its messages not yet rendered.

        >>> a = Analysis("jincheng", (), 13, waits=({"tile": "1m", "remaining": 3,
        ...              "dead": False},), shanten=0, useful=(), useful_total=0)
        >>> list(a.to_json())          # doctest: +NORMALIZE_WHITESPACE
        ['variant', 'wildcards', 'tile_count', 'complete', 'decompositions',
         'decompositions_total', 'waits', 'any_tile_wait', 'shanten', 'useful', 'useful_total']
        """
        out: dict[str, Any] = {
            "variant": self.variant,
            "wildcards": list(self.wildcards),
            "tile_count": self.tile_count,
            "complete": self.complete,
            "decompositions": Plain(self.readings),
            "decompositions_total": self.readings_total,
            "waits": list(self.waits),
            "any_tile_wait": self.any_tile_wait,
        }
        if self.reasons:
            out["reasons"] = list(self.reasons)
        if self.biao is not None:
            out["biao"] = self.biao
        if self.fan is not None:
            out["fan"] = self.fan
        if self.history is not None:
            out["history"] = list(self.history)
        if self.settlement is not None:
            out["settlement"] = self.settlement
        # the advice rows hold tile codes, counts and flags, never a message: Plain, which
        # the API's localize passes on without copying them through (MESSAGE_FREE)
        if self.discards is not None:
            out["discards"] = Plain(self.discards)
            out["efficiency"] = Plain(self.efficiency or ())
            out["shanten"] = self.shanten
        elif self.useful is not None:
            out["shanten"] = self.shanten
            out["useful"] = Plain(self.useful)
            out["useful_total"] = self.useful_total
        return out

    def localized(self, render: Callable[[Any], Any]) -> Analysis:
        """This analysis with every message passed through ``render`` (the page's
        :func:`webcalc.web.i18n.localized`); the readings and the advice rows
        (:data:`MESSAGE_FREE`) hold none and are kept as they are."""
        self_ = object.__new__(Analysis)
        d = self_.__dict__
        d.update(self.__dict__)
        for name in _MAY_HOLD_MESSAGES:
            if name in d:
                d[name] = render(d[name])
        return self_


@dataclass(frozen=True, slots=True)
class SettledWithoutTiles:
    """What :func:`settle_without_tiles` answers: a settlement with no hand behind it (a
    drawn game, or a win whose factors were declared: 未验牌). It is not an
    :class:`Analysis`: nothing was judged, so it has no readings, waits or advice to leave
    empty; ``tile_count`` is 0 to say so. See docs/decisions.md "A typed analysis result".
    """

    variant: str
    settlement: dict[str, Any]           # {"payments", "net", "next_dealer"?, "notes"?}
    biao: int | None = None
    fan: list[dict[str, Any]] | None = None

    @property
    def tile_count(self) -> int:
        """No tiles were given."""
        return 0

    def to_json(self) -> dict[str, Any]:
        """``{"variant", "settlement", "biao"?, "fan"?}``, its messages not yet rendered."""
        out: dict[str, Any] = {"variant": self.variant, "settlement": self.settlement}
        if self.biao is not None:
            out["biao"] = self.biao
        if self.fan is not None:
            out["fan"] = self.fan
        return out

    def localized(self, render: Callable[[Any], Any]) -> SettledWithoutTiles:
        """This settlement with every message passed through ``render``."""
        return replace(self, settlement=render(self.settlement), fan=render(self.fan))



def analyze(request: Any, *, advice: bool = True) -> Analysis:
    """Analyse one hand.

    Args:
        request: the API request object (``variant`` and ``hand`` required).
        advice: False to stop after the judgement and the settlement (the ledger records
            only those): no ``waits``, ``discards``, ``efficiency``, ``useful`` or
            ``shanten`` are computed, and those keys keep their empty values.

    Returns:
        an :class:`Analysis`; its ``to_json()`` is the API response: ``wildcards``,
        ``tile_count``, ``complete``, ``decompositions`` (≤ 200, best first, the first
        marked ``best``), ``decompositions_total``, ``waits``, ``any_tile_wait``,
        ``shanten`` (``None`` when never ready), for 13 tiles ``useful`` and
        ``useful_total``, for 14 ``discards`` and ``efficiency``, and where they apply
        ``reasons``, ``biao``, ``fan``, and ``history`` (a variant that takes a
        ``history``: each turn rebuilt, :func:`webcalc.story.read_history`; ``biao`` and
        the settlement then count its biao discards).

    Raises:
        InputError: for any bad input, with the field at fault, as its code's class
            (:mod:`webcalc.errors`): :class:`BadJsonError` (not an object),
            :class:`BadRequestError` (an unknown key), :class:`UnknownVariantError`,
            :class:`BadOptionError` (``options``, or an indicator the room has no use for),
            :class:`BadTileError`, :class:`BadMeldError`, :class:`TooManyCopiesError`,
            :class:`WrongTileCountError`, :class:`NotInHandError` (``winning_tile``),
            :class:`BadWinByError`, :class:`BadHistoryError` or :class:`TooManyError`
            (三门峡's ``history``), :class:`BadSettlementError`, :class:`NotCompleteError`.
    """
    req = _check_request(request)
    variant = _variant(req.get("variant"))
    options = parse_options(variant.Options, req.get("options"))
    kinds = variant.kinds_in_play(options)

    if req.get("hand") is None and _drawn_game(req.get("settlement")):
        return _settle_drawn_game(variant, options, req, kinds)
    # the notation most requests use, read straight to counts (every kind in play, at most
    # four of each: else the general path reads the field and says what is wrong with it)
    plain = _plain_hand(req.get("hand"), kinds)
    concealed = _tiles(req, "hand", kinds, required=True) if plain is None else []
    melds = melds_from_api(req["melds"]) if req.get("melds") is not None else []
    if melds:
        _check_meld_tiles(melds, kinds)
    indicator = _one_tile(req, "indicator", kinds)
    visible = _tiles(req, "visible", kinds)
    winning = _one_tile(req, "winning_tile", kinds)

    if indicator is not None and not variant.wildcards_on(options):
        raise BadOptionError(Message("indicator.no_wildcards", variant=variant.label,
                                     rule="C-7"), "indicator")
    wildcards = variant.wildcards(options, indicator)
    variant.check_melds(options, melds, wildcards)
    hand = Hand.of(concealed, melds) if plain is None else Hand.of_sorted(*plain, melds)
    # (a plain hand alone holds at most four of a kind: with the indicator, its kind is the
    # only one that can go over)
    if plain is None or melds or visible or (indicator is not None
                                             and plain[1][indicator] > 3):
        _check_copies(hand, visible, indicator)
    n = hand.tile_count
    if n not in (13, 14):
        code = "count.wrong_taken" if any(m.is_taken for m in melds) else "count.wrong"
        raise WrongTileCountError(Message(code, n=n, rule="C-3"),
                                  "hand")
    if winning is not None:
        if n != 14:
            raise WrongTileCountError(Message("count.with_winning", rule="C-3"),
                                      "hand")
        if winning not in hand.concealed:
            raise NotInHandError(Message("winning.not_in_hand", tile=winning),
                                 "winning_tile")
    win_by = req.get("win_by", "self_draw")
    if win_by not in WIN_METHODS:
        raise BadWinByError(Message("win_by.bad"), "win_by")
    variant.check_win_by(win_by)
    variant.check_winning_tile(win_by, winning, wildcards)

    if req.get("settlement") is not None and not isinstance(req["settlement"], dict):
        raise BadSettlementError(Message("settlement.not_object"), "settlement")
    sit = (Situation(hand, wildcards, options, win_by, winning, indicator,
                     req.get("settlement")) if plain is None
           else Situation.counted(hand, wildcards, options, win_by, winning, indicator,
                                  req.get("settlement"), plain[1]))
    codes = tuple([t.code for t in wildcards]) if wildcards else ()
    judgement: Judgement | None = None
    judged: dict[str, Any] = {}
    if n == 14:
        judgement = variant.judge(sit)
        judged = {"complete": judgement.complete, "readings_total": len(judgement.readings),
                  "readings": tuple(listed_dicts(judgement.readings[:MAX_LISTED], sit.jokers)),
                  "reasons": tuple(judgement.reasons)}
        if judgement.biao is not None and judgement.complete and winning is not None:
            judged["biao"] = judgement.biao
        if judgement.fan is not None:
            judged["fan"] = judgement.fan
    raw_settlement = req.get("settlement")
    if req.get("history") is not None:
        # biao_discards derived from the winner's turns (webcalc/history.py)
        from .history import read_history

        history = read_history(variant, sit, judgement, req["history"], kinds)
        judged["history"] = tuple(history.to_list())
        if "biao" in judged:
            judged["biao"] = 1 + history.biao_discards if judged["biao"] else 0
        raw_settlement = history.settlement(raw_settlement)
        # the waits (waits[].win) are priced with the derived count too
        sit = replace(sit, settlement=raw_settlement if raw_settlement is not None
                      else {"biao_discards": history.biao_discards})
    if raw_settlement is not None:                 # C-15, settlement engine
        judged.update(_settled(settle(variant, sit, judgement, raw_settlement,
                                      win_by_given="win_by" in req)))
    if not advice:
        return Analysis.built(variant.name, codes, n, judged)
    cvis = counts_of(visible) if visible else ()    # the compiled call: no counts of none
    vis = cvis or [0] * NUM_KINDS
    before = sit if n == 13 else (
        sit.without_tile(winning) if winning is not None else None)
    waits: list[Wait] = []
    # the free-joker rule sets, compiled: one call answers a hand (or each discard) with the
    # API's rows (webcalc/advice_rows.py); a rule set with its own search may answer a
    # 13-tile hand in one pass (Variant.own_advice); the other paths give the same rows
    compiled = variant.free_joker_search
    rows13 = None
    if before is not None:
        rows13 = (compiled_advice(variant, before, kinds, cvis) if compiled
                  else variant.own_advice(before, kinds, cvis, n == 13))
        if rows13 is not None:
            judged["any_tile_wait"] = rows13[4]
            judged["waits"] = _priced_rows(variant, before, rows13[1])
        else:
            waits = find_waits(variant, before, vis, kinds)
            judged["any_tile_wait"] = is_any_tile_wait(before, waits, kinds)
            judged["waits"] = _priced_waits(variant, before, waits)
    if n == 14:
        # 牌理 (API "Hand efficiency"): every discard with its shanten and useful draws;
        # the hand's own shanten is the best of them (C-12: an exchange starts with the
        # discard), −1 when it is complete
        if compiled:
            held, can = sit.counts, variant.can_discard
            allowed = tuple([k for k in range(NUM_KINDS) if held[k] and can(sit, ALL_TILES[k])])
            rows14 = compiled_advice(variant, sit, kinds, cvis, allowed)
        else:
            # a rule set with its own search may answer every discard in one pass
            rows14 = variant.own_discards_advice(sit, kinds, cvis)
        if rows14 is not None:
            eff_rows, discard_rows, best = rows14
            judged.update(discards=tuple(discard_rows), efficiency=tuple(eff_rows),
                          shanten=-1 if judged["complete"] else best)
            return Analysis.built(variant.name, codes, n, judged)
        if not variant.free_joker_search:
            # 盘锦: its 牌理 search finds every discard's waits as well (C-12: a ready
            # hand's useful draws are exactly its waits), so the advice is read off it
            eff = efficiency(variant, sit, vis, kinds)
            discard_rows = ready_discard_rows(eff)
        else:
            discards = discard_advice(variant, sit, vis, kinds)
            eff = efficiency(variant, sit, vis, kinds, discards)
            discard_rows = [d.to_dict() for d in discards]
        shanten = -1 if judged["complete"] else min(
            (e["shanten"] for e in eff if e["shanten"] is not None), default=None)
        return Analysis(variant.name, codes, n, **judged, discards=tuple(discard_rows),
                        efficiency=tuple(eff), shanten=shanten)
    if rows13 is not None:
        judged.update(shanten=rows13[0], useful=tuple(rows13[2]), useful_total=rows13[3])
        return Analysis.built(variant.name, codes, n, judged)
    useful = useful_draws(variant, sit, vis, kinds, waits=[int(w.tile) for w in waits])
    return Analysis(variant.name, codes, n, **judged, shanten=useful.shanten,
                    useful=tuple(w.to_dict() for w in useful.useful),
                    useful_total=useful.total)


def _settled(result: SettlementResult) -> dict[str, Any]:
    """The settlement's fields of an :class:`Analysis` (its 表 and 番 replace the hand's)."""
    fields = result.fields()
    return {"settlement": fields["settlement"],
            **{k: fields[k] for k in ("biao", "fan") if k in fields}}


def _drawn_game(settlement: Any) -> bool:
    """A settlement object whose ``winner`` is null or absent: 荒庄 (C-10)."""
    return isinstance(settlement, dict) and settlement.get("winner") is None


def _settle_drawn_game(variant: Variant, options: Any, req: dict[Any, Any],
                       kinds: int) -> Analysis:
    """C-10 as amended: a drawn game needs no hand. The settlement alone (kongs, penalties)
    is reckoned; the analysis fields are empty (``tile_count`` 0)."""
    indicator = _one_tile(req, "indicator", kinds)
    if indicator is not None and not variant.wildcards_on(options):
        raise BadOptionError(Message("indicator.no_wildcards", variant=variant.label,
                                     rule="C-7"), "indicator")
    for field in ("melds", "winning_tile", "visible"):
        if req.get(field) not in (None, "", []):
            raise BadTileError(Message("field_error", field=FIELD_LABELS[field],
                               text=Message("drawn.no_tiles", rule="C-10")), field)
    win_by = req.get("win_by", "self_draw")
    if win_by not in WIN_METHODS:
        raise BadWinByError(Message("win_by.bad"), "win_by")
    wildcards = variant.wildcards(options, indicator)
    sit = Situation(Hand.of([], []), wildcards, options, win_by, None, indicator,
                    req["settlement"])
    return Analysis(variant.name, tuple(t.code for t in wildcards), 0,
                    **_settled(settle(variant, sit, None, req["settlement"],
                                      win_by_given="win_by" in req)))


def _priced_waits(variant: Variant, before: Situation, waits: list[Wait]) -> Rows:
    """``waits`` as the API's rows, with ``win`` (API.md ``waits[].win``): what winning on
    each is worth, where it can be priced (:func:`webcalc.worth.wait_values`)."""
    rows = []
    for w, value in zip(waits, wait_values(variant, before, [w.tile for w in waits]),
                        strict=True):
        row = w.to_dict()
        if value is not None:
            row["win"] = value
        rows.append(row)
    return tuple(rows)


_TILE_OF_CODE = {t.code: t for t in ALL_TILES}


def _priced_rows(variant: Variant, before: Situation, rows: list[dict[str, Any]]) -> Rows:
    """:func:`_priced_waits` of the waits as rows (``{"tile", "remaining", "dead"}``, as
    :func:`webcalc.draws.compiled_advice` gives them, left as they are: a priced wait is a
    new dict)."""
    if not rows:
        return ()
    waits = [_TILE_OF_CODE[r["tile"]] for r in rows]
    return tuple([r if value is None else {**r, "win": value}
                  for r, value in zip(rows, wait_values(variant, before, waits), strict=True)])


def _check_request(request: Any) -> dict[Any, Any]:
    if not isinstance(request, dict):
        raise BadJsonError(Message("request.not_object"), None)
    for key in request:
        if key not in _REQUEST_FIELD_SET:
            raise BadRequestError(Message("request.unknown_key", key=key,
                                          known=list(REQUEST_FIELDS)), str(key))
    return request


def variant_names(labelled: bool = False) -> Any:
    """The registered rule sets' names as a message says them: ``a, b, c or d`` (``a、b、c
    或 d``); ``labelled``: each with its label, ``a (A), b (B) or c (C)``."""
    names: list[Any] = [Message("variant.name_label", name=n, label=v.label) if labelled
                        else n for n, v in VARIANTS.items()]
    if len(names) < 2:
        return Joined(names)
    return Message("variant.labels_or" if labelled else "variant.names_or",
                   most=Joined(names[:-1]), last=names[-1])


def _variant(name: Any) -> Variant:
    if name is None:
        raise UnknownVariantError(Message("variant.required", names=variant_names()),
                                  "variant")
    variant = VARIANTS.get(name) if isinstance(name, str) else None
    if variant is None:
        raise UnknownVariantError(Message(
            "variant.unknown", name=name, names=variant_names(labelled=True)), "variant")
    return variant


def _tiles(req: dict[Any, Any], field: str, kinds: int, required: bool = False) -> list[Tile]:
    raw = req.get(field)
    label = FIELD_LABELS[field]
    if raw is None:
        if required:
            raise BadTileError(Message("field_error", field=label,
                                       text=Message("tiles.required")), field)
        return []
    if not isinstance(raw, str):
        raise BadTileError(Message("field_error", field=label,
                                   text=Message("tiles.not_text")), field)
    if len(raw) > MAX_TEXT:
        raise BadTileError(Message("field_error", field=label,
                                   text=Message("tiles.too_long", n=MAX_TEXT)), field)
    try:
        tiles = parse_tiles(raw)
    except InputError as e:
        raise e.with_field(field, label) from None
    _check_kinds(tiles, kinds, field)
    return tiles


def _plain_hand(raw: Any, kinds: int) -> tuple[tuple[Tile, ...], list[int]] | None:
    """A hand field (or a one-tile field, :func:`_one_tile`) in the plain notation
    (:func:`webcalc.tiles.plain_kinds`) that :func:`_tiles` and :func:`_check_copies` would
    pass (every kind in play, at most four of a kind) as its tiles, sorted, and its 34
    counts, else ``None``: the general path then reads it, and says what is wrong with it.
    Compiled: webcalc/_pjunit_rows.c ``plain_hand``, this function's twin."""
    if type(raw) is not str or len(raw) > MAX_TEXT:
        return None
    if _read_plain is not None:
        return _read_plain(raw, ALL_TILES, kinds)     # type: ignore[no-any-return]
    held = plain_kinds(raw)
    if held is None or (held and held[-1] >= kinds):
        return None
    counts = counts_of(held)
    return None if max(counts) > 4 else (tuple(map(ALL_TILES.__getitem__, held)), counts)


def _one_tile(req: dict[Any, Any], field: str, kinds: int) -> Tile | None:
    raw = req.get(field)
    if raw in (None, ""):
        return None
    # the plain notation (``8s``), as most requests give it, read as the hand field is
    plain = _plain_hand(raw, kinds)
    if plain is not None and len(plain[0]) == 1:
        return plain[0][0]
    tiles = _tiles(req, field, kinds)
    if len(tiles) != 1:
        raise BadTileError(Message("field_error", field=FIELD_LABELS[field],
                                   text=Message("tiles.not_one", n=len(tiles))), field)
    return tiles[0]


def _check_kinds(tiles: list[Tile], kinds: int, field: str) -> None:
    for t in tiles:
        if t >= kinds:
            raise BadTileError(Message("field_error", field=FIELD_LABELS[field],
                               text=Message("tiles.no_honors", tile=t, rule="C-1")), field)


def _check_meld_tiles(melds: list[Meld], kinds: int) -> None:
    for m in melds:
        _check_kinds(list(m.tiles), kinds, "melds")


def _check_copies(hand: Hand, visible: list[Tile], indicator: Tile | None) -> None:
    """C-2: hand + melds + visible hold at most 4 of a kind, 3 of the indicator's kind."""
    totals = hand.held_counts()
    for t in visible:
        totals[t] += 1
    if indicator is not None:
        totals[indicator] += 1
    if max(totals) <= 4:
        return
    # a kind over its limit: the field where the count first goes over is at fault
    totals = [0] * 34
    for field, tiles in (("hand", hand.concealed),
                         ("melds", [t for m in hand.melds for t in m.tiles]),
                         ("visible", visible)):
        for t in tiles:
            totals[t] += 1
            limit = 3 if t == indicator else 4
            if totals[t] > limit:
                code = "copies.indicator" if t == indicator else "copies.too_many"
                raise TooManyCopiesError(Message("field_error", field=FIELD_LABELS[field],
                                                 text=Message(code, tile=t, n=limit, rule="C-2")),
                                         field)


NO_TILES_FIELDS = ("variant", "options", "win_by", "settlement", "declared")


def settle_without_tiles(request: Any) -> SettledWithoutTiles:
    """Settle a hand given without its tiles: a drawn game (荒庄, C-10), or a win whose tiles
    nobody typed, with the factors the tiles would decide stated in ``declared`` (三门峡
    ``{"biao": n}``, 郑州 ``{"doubles": [keys]}``, 盘锦 ``{"fan": [keys]}``; see
    :func:`webcalc.settlement.settle_declared`). Used by the table ledger.

    Args:
        request: ``{"variant", "options"?, "win_by"?, "settlement", "declared"?}``;
            ``settlement`` as for :func:`analyze` (``dealer`` required, ``winner`` a seat or
            ``None``); ``win_by`` is required with a winner (C-15).

    Returns:
        a :class:`SettledWithoutTiles`, whose ``to_json()`` is ``{"variant", "settlement":
        {"payments", "net", "next_dealer"}}`` and, where the variant reports them, ``biao``
        (三门峡) and ``fan`` (盘锦: declared and situational).

    Raises:
        InputError: as :func:`analyze` for the fields it shares;
            :class:`~webcalc.errors.BadSettlementError` for a declared factor the variant or
            the room does not have.
    """
    from .settlement import settle_declared

    if not isinstance(request, dict):
        raise BadJsonError(Message("request.not_object"), None)
    for key in request:
        if key not in NO_TILES_FIELDS:
            raise BadRequestError(Message("request.unknown_key_no_tiles", key=key,
                                          known=list(NO_TILES_FIELDS)), str(key))
    variant = _variant(request.get("variant"))
    options = parse_options(variant.Options, request.get("options"))
    raw = request.get("settlement")
    if not isinstance(raw, dict):
        raise BadSettlementError(Message("settlement.required_no_tiles"), "settlement")
    win_by = request.get("win_by")
    if win_by is None:
        if raw.get("winner") is not None:
            raise BadWinByError(Message("w.win_by_required", rule="C-15"), "win_by")
        win_by = "self_draw"                   # 荒庄: nobody won, the method is unused
    if win_by not in WIN_METHODS:
        raise BadWinByError(Message("win_by.bad"), "win_by")
    variant.check_win_by(win_by)
    result = settle_declared(variant, options, win_by, raw, request.get("declared"))
    return SettledWithoutTiles(variant.name, **_settled(result))
