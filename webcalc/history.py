"""A winner's ``history``: the turns before a win, for a variant that counts its 表 from
them (:meth:`~webcalc.variants.base.Variant.takes_history`, its rule
``Variant.history_rule``; API.md "三门峡 history").

:func:`read_history` rebuilds, backwards from the final hand, the 13 tiles held before each
of the winner's last turns (hand before = hand after + discard − draw), asks the variant
whether each is in the any-tile wait (:meth:`~webcalc.variants.base.Variant.any_tile_wait`)
and counts the biao discards of the last unbroken run in it.
:func:`webcalc.analysis.analyze` answers ``history`` with it;
the turn helpers here are shared with the hand review (:mod:`webcalc.story`), which sits
above the analysis and so cannot be imported by it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import ERROR_CLASSES, BadHistoryError, InputError, TooManyError
from .hand import Hand
from .messages import Message
from .options import OptionsT
from .tiles import Tile, format_tiles, parse_tiles, tiles_of
from .variants.base import Judgement, Situation, Variant

#: most turns a ``history`` may hold (a player draws about 21 times in a whole hand of 136
#: tiles; past this the request is refused with 422 ``too_many``, never slow)
MAX_HISTORY = 40


# -- shared ------------------------------------------------------------------------------

def _turn_error(code: str, field: str, i: int, text: Message, prefix: str) -> InputError:
    """An error about turn ``i`` (0-based in ``turn``; counted from 1 in the message)."""
    return ERROR_CLASSES[code](Message(prefix, n=i + 1, text=text), field, turn=i)


def _about_turn(e: InputError, field: str, i: int, prefix: str) -> InputError:
    """An engine error (a meld the variant forbids, a win method it refuses …) as an error
    about turn ``i`` of ``field``: its code kept, its message led by the turn."""
    return e.replace(message=Message(prefix, n=i + 1, text=e.message), field=field,
                     position=None, turn=i)


def _one(raw: Any, key: str, kinds: int, field: str, i: int, prefix: str) -> Tile:
    """The single tile ``raw`` (any notation) of a turn's ``key``; ``bad_tile`` otherwise,
    its message naming the key in the reader's words (``turn.key.<key>``: 摸牌（draw）)."""
    name = Message(f"turn.key.{key}")
    if not isinstance(raw, str):
        raise _turn_error("bad_tile", field, i, Message("turn.key_error", key=name,
                          text=Message("tiles.not_text")), prefix)
    try:
        tiles = parse_tiles(raw)
    except InputError as e:
        raise _turn_error("bad_tile", field, i, Message("turn.key_error", key=name,
                          text=e.message), prefix) from None
    if len(tiles) != 1:
        raise _turn_error("bad_tile", field, i, Message("turn.key_error", key=name,
                          text=Message("tiles.not_one", n=len(tiles))), prefix)
    t = tiles[0]
    if t >= kinds:
        raise _turn_error("bad_tile", field, i, Message("turn.key_error", key=name,
                          text=Message("tiles.no_honors", tile=t, rule="C-1")), prefix)
    return t


def _too_many(field: str, limit: str, cap: int, code: str) -> InputError:
    return TooManyError(Message(code, max=cap), field,
                        detail={"limit": limit, "max": cap})


# -- the winner's history ------------------------------------------------------------------

def _rule(variant: Variant) -> str:
    """The rule a history's messages cite: the variant's ``history_rule``, or for a variant
    that takes no history the rule of the registered one that does."""
    if variant.history_rule:
        return variant.history_rule
    from .variants import VARIANTS
    return next((v.history_rule for v in VARIANTS.values() if v.history_rule), "")



@dataclass(frozen=True)
class HistoryTurn:
    """One turn of a history: the 13 tiles held before it (concealed; the melds stay as they
    are), whether they were in the any-tile wait, whether the turn was a biao discard (a
    wildcard thrown while in it) and whether it counts (it is in the last unbroken run)."""

    before: tuple[Tile, ...]
    any_tile_wait: bool
    biao_discard: bool
    counted: bool

    def to_dict(self) -> dict[Any, Any]:
        return {"before": format_tiles(self.before), "any_tile_wait": self.any_tile_wait,
                "biao_discard": self.biao_discard, "counted": self.counted}


@dataclass(frozen=True)
class History:
    """A rebuilt history and what it derives."""

    turns: tuple[HistoryTurn, ...]
    rule: str = ""                      # the variant's history_rule, cited by its messages

    @property
    def biao_discards(self) -> int:
        """The biao discards of the last unbroken run in the any-tile wait."""
        return sum(t.counted for t in self.turns)

    def to_list(self) -> list[dict[Any, Any]]:
        return [t.to_dict() for t in self.turns]

    def settlement(self, raw: Any) -> Any:
        """The request's ``settlement`` with ``biao_discards`` derived from this history.

        Raises:
            BadHistoryError: when a typed ``biao_discards`` (a whole number)
                disagrees with it. A value that is no whole number is left for the
                settlement's own check (``bad_settlement``).
        """
        if not isinstance(raw, dict):
            return raw
        typed = raw.get("biao_discards")
        derived = self.biao_discards
        if typed is None:
            return {**raw, "biao_discards": derived}
        if isinstance(typed, int) and not isinstance(typed, bool) and typed != derived:
            raise BadHistoryError(Message("history.disagrees", derived=derived,
                                          typed=typed, rule=self.rule),
                                  "settlement.biao_discards")
        return raw


def _read_turns(raw: list[Any], kinds: int, prefix: str) -> list[tuple[Tile, Tile]]:
    """The history's turns as ``(draw, discard)`` tiles; ``bad_history`` / ``bad_tile`` with
    the turn for one that is not a draw and a discard."""
    turns: list[tuple[Tile, Tile]] = []
    for i, t in enumerate(raw):
        if isinstance(t, dict) and set(t) == {"draw"}:      # a turn still being tapped in
            _one(t["draw"], "draw", kinds, "history", i, prefix)
            raise _turn_error("bad_history", "history", i, Message("history.no_discard"),
                              prefix)
        if not isinstance(t, dict) or set(t) != {"draw", "discard"}:
            raise _turn_error("bad_history", "history", i, Message("history.turn_object"),
                              prefix)
        turns.append((_one(t["draw"], "draw", kinds, "history", i, prefix),
                      _one(t["discard"], "discard", kinds, "history", i, prefix)))
    return turns


def read_history(variant: Variant[OptionsT], sit: Situation[OptionsT],
                 judgement: Judgement | None, raw: Any, kinds: int) -> History:
    """Rebuild the winner's ``history`` (the variant's ``history_rule``, API.md "三门峡
    history").

    Args:
        variant: the variant (only one that :meth:`~webcalc.variants.base.Variant.takes_history`).
        sit: the final 14-tile situation, ``winning_tile`` given.
        judgement: the variant's judgement of it (``None`` for 13 tiles).
        raw: the request's ``history``: ``[{"draw": t, "discard": t}, …]``, oldest first,
            the turns after the winner's last meld and before the winning draw.
        kinds: the tile kinds in play (C-1).

    Returns:
        the turns, each with the 13 tiles before it (hand before = hand after + discard −
        draw, from the final hand less the winning tile), the any-tile wait and
        whether it was a biao discard: in the wait before, a wildcard discarded, still in
        the wait after. Only the last run counts: a turn whose hand after it is not in the
        wait starts the count again from 0.

    Raises:
        BadHistoryError: where the variant, its options or the hand take no history, for
            a history that is not a list of ``{"draw", "discard"}`` objects, a draw that
            is not there and a copy more than the wall holds (with ``turn``).
        BadTileError: (with ``turn``) for a tile that cannot be read.
        TooManyError: past :data:`MAX_HISTORY` turns (``detail`` names the cap).
    """
    rule = _rule(variant)
    if not variant.takes_history(sit.options):
        raise BadHistoryError(Message("history.not_here", rule=rule), "history")
    if not isinstance(raw, list):
        raise BadHistoryError(Message("history.not_list"), "history")
    if len(raw) > MAX_HISTORY:
        raise _too_many("history", "history_turns", MAX_HISTORY, "history.too_many")
    if (sit.winning_tile is None or judgement is None or not judgement.complete):
        raise BadHistoryError(Message("history.needs_win", rule=rule), "history")
    prefix = "history.turn"
    turns = _read_turns(raw, kinds, prefix)

    final = sit.without_tile(sit.winning_tile)
    melds = sit.hand.melds
    # every tile the winner held or threw is a distinct one of the wall (C-2): the final
    # hand with its melds, the discards, and the indicator
    out = sit.hand.held_counts()
    if sit.indicator is not None:
        out[sit.indicator] += 1
    after = list(final.counts)
    befores: list[list[int]] = [[]] * len(turns)
    for i in range(len(turns) - 1, -1, -1):
        draw, discard = turns[i]
        out[discard] += 1
        if out[discard] > 4:
            n = 3 if discard == sit.indicator else 4
            raise _turn_error("bad_history", "history", i, Message(
                "history.fifth_copy", tile=discard, n=n, rule="C-2"), prefix)
        before = list(after)
        before[discard] += 1
        if before[draw] < 1:
            raise _turn_error("bad_history", "history", i, Message(
                "history.draw_missing", tile=draw, rule=rule), prefix)
        before[draw] -= 1
        befores[i] = before
        after = before

    def waiting(counts: list[int]) -> bool:
        return variant.any_tile_wait(Situation(Hand(tuple(tiles_of(counts)), melds),
                                               sit.wildcards, sit.options))

    states = [waiting(b) for b in befores] + [variant.any_tile_wait(final)]
    wild = set(sit.wildcards)
    biao = [states[i] and turns[i][1] in wild and states[i + 1] for i in range(len(turns))]
    run: list[int] = []
    for i in range(len(turns)):
        if not states[i + 1]:
            run = []                    # left the wait: the count starts again
        elif biao[i]:
            run.append(i)
    counted = set(run)
    return History(tuple(HistoryTurn(tuple(tiles_of(befores[i])), states[i], biao[i],
                                     i in counted) for i in range(len(turns))), rule)
