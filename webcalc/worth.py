"""What each wait is worth (API.md ``waits[].win``).

For a ready hand, :func:`wait_values` completes the 13 tiles with each wait in turn, takes the
variant's scoring of the 14 tiles (its 番, 表 or doubles) and lets
the settlement engine settle that win. The scoring facts come from the variants' cheap
predicates (:meth:`~webcalc.variants.base.Variant.score_key`); only a 盘锦 wait that could be
夹胡 is judged in full. Every per-variant answer is the variant's (its score key, the
judgement priced from it, the keys and extras of ``win``); this module names none. The web
layer only prints the result.

The hypothetical win uses the request's ``win_by`` (default 自摸) and the request's
``settlement`` inputs; where they name no one: base 1, no 跑, seat 0 wins, seat 0 deals.
``amount`` counts the win payments the winner collects (item ``win``); kong payments do not
depend on the wait and are left out. For a 点炮/抢杠 win without a named discarder the seat
before the winner (上家) discarded. Both choices are in docs/decisions.md.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from .errors import InputError
from .hand import Hand
from .options import OptionsT
from .settlement import settle
from .tiles import Tile
from .variants.base import WIN_METHODS, Situation, Variant

#: settlement fields that do not change what a win pays the winner (kongs are paid apart)
_NOT_FOR_THE_WIN = ("kongs",)


def hypothetical_settlement(raw: dict[Any, Any] | None, win_by: str,
                            discard_only: Collection[str] = ()) -> dict[Any, Any]:
    """The ``settlement`` object used to price a wait: the request's inputs, with seat 0
    winning and dealing and base 1 where they say nothing, and the seat before the winner
    as the discarder of a 点炮/抢杠 win when none is named."""
    s = {k: v for k, v in (raw or {}).items() if k not in _NOT_FOR_THE_WIN}
    if s.get("winner") is None:
        s["winner"] = 0
    if s.get("dealer") is None:
        s["dealer"] = 0
    winner = s["winner"]
    if win_by in ("discard", "robbing_kong"):
        if s.get("discarder") is None or s.get("discarder") == winner:
            s["discarder"] = (winner + 3) % 4 if isinstance(winner, int) else None
    else:
        s.pop("discarder", None)
        for k in discard_only:               # the variant's factors of a discard win only
            s.pop(k, None)
    return s


def _price(variant: Variant[OptionsT], sit: Situation[OptionsT], raw: dict[Any, Any],
           key: tuple[Any, ...] | None = None) -> dict[Any, Any] | None:
    judgement = (variant.judge(sit) if key is None
                 else variant.pricing_judgement(sit, key))
    if not judgement.complete:
        return None
    try:
        result = settle(variant, sit, judgement, raw)
    except InputError:
        return None
    winner = raw["winner"]
    amount = sum(p.amount for p in result.settlement.payments
                 if p.item == "win" and p.payee == winner)
    if isinstance(amount, float):
        amount = round(amount, 10)
    out: dict[str, Any] = {"fan": variant.win_fan_keys(sit, judgement, result)}
    out.update(variant.win_extras(result))
    out["amount"] = amount
    return out


def score_key(variant: Variant[OptionsT], sit: Situation[OptionsT]) -> tuple[Any, ...] | None:
    """A key such that two wins of the same 13 tiles with equal keys are worth the same
    (same 番/表 and amount), or ``None`` when only a full judgement can tell (a 盘锦 wait
    that could be 夹胡): :meth:`~webcalc.variants.base.Variant.score_key`. It saves listing
    the readings of up to 34 completed hands of a wildcard hand; the property test in
    tests/test_engine_worth.py holds the judgement priced from it
    (:meth:`~webcalc.variants.base.Variant.pricing_judgement`) to the full one."""
    return variant.score_key(sit)


#: prices already made, by what a price with a :func:`score_key` depends on (see
#: :func:`_price_shared`); bounded: emptied when it holds :data:`PRICES_MAX`
_PRICES: dict[tuple[Any, ...], dict[str, Any]] = {}
PRICES_MAX = 512
_SIMPLE = (type(None), bool, int, float, str)


def _frozen(value: Any) -> Any:
    """``value`` (a settlement input) as a hashable key that tells apart whatever
    :func:`webcalc.settlement.parse_table` may tell apart (each value with its type)."""
    if type(value) in _SIMPLE:
        return type(value), value
    if type(value) in (list, tuple):
        return type(value), tuple(_frozen(v) for v in value)
    if type(value) is dict:
        return dict, tuple(sorted((k, _frozen(v)) for k, v in value.items()))
    raise TypeError


def _raw_key(raw: dict[str, Any]) -> tuple[Any, ...] | None:
    """The settlement inputs as part of a :func:`_price_shared` key (``None``: not plain
    data, not shared)."""
    try:
        key: tuple[Any, ...] = _frozen(raw)
    except TypeError:
        return None
    return key


#: :func:`_raw_key` of the settlement a wait is priced with when the request names none, by
#: win method (:func:`hypothetical_settlement` of ``None``: seat 0 wins and deals, seat 3
#: discards a 点炮/抢杠 win; no variant's discard-only field is there to drop)
_UNSETTLED_KEYS = {w: _raw_key(hypothetical_settlement(None, w)) for w in WIN_METHODS}


def _won(before: Situation[OptionsT], tile: Tile, raw: dict[str, Any]) -> Situation[OptionsT]:
    """The 14-tile win of ``before`` on ``tile``, ``raw`` its settlement inputs."""
    # Hand.of(concealed + [tile]): the concealed tiles are sorted Tiles already
    hand = Hand(tuple(sorted(before.hand.concealed + (tile,))), before.hand.melds)
    return Situation(hand, before.wildcards, before.options, before.win_by, tile,
                     before.indicator, raw)


def _price_shared(variant: Variant[OptionsT], sit: Situation[OptionsT] | None,
                  before: Situation[OptionsT], tile: Tile, raw: dict[str, Any] | None,
                  raw_key: tuple[Any, ...] | None,
                  key: tuple[Any, ...] | None) -> dict[str, Any] | None:
    """:func:`_price`, made once per (variant, room options, win method, settlement inputs
    ``raw_key``, :func:`score_key`): a hand's waits, and the hands that follow in the
    process, share it. That is all such a price depends on: the win is judged from the key
    alone (``Variant.pricing_judgement``), and the settlement reads of the situation only the
    room options and the win method (parse_table; the 14 tiles and the winning tile only
    pass its checks). ``sit``: the win of ``before`` on ``tile``, or ``None`` (made here
    when a price is made); ``raw``: the settlement inputs, or ``None`` for those of a
    request without any (made here when a price is made)."""
    def priced() -> dict[str, Any] | None:
        settlement = raw if raw is not None else hypothetical_settlement(
            None, before.win_by, variant.discard_win_fields)
        return _price(variant, sit or _won(before, tile, settlement), settlement, key)

    if key is None or raw_key is None:
        return priced()
    pk = (variant.name, before.options, before.win_by, raw_key, key)
    try:
        return _PRICES[pk]
    except KeyError:
        pass
    except TypeError:                     # an unhashable option value: priced afresh
        return priced()
    value = priced()
    if value is None:
        # not kept: a ``None`` may come of this tile alone (a settlement that refuses the
        # 14 tiles, e.g. a fifth copy of a tile that is no wait), and kept under the key it
        # would answer ``None`` for the real wins that share it
        return value
    if len(_PRICES) >= PRICES_MAX:
        _PRICES.clear()
    _PRICES[pk] = value
    return value


def wait_values(variant: Variant[OptionsT], before: Situation[OptionsT],
                waits: Sequence[Tile]) -> list[dict[str, Any] | None]:
    """What winning on each wait (its tile) of the 13-tile hand ``before`` is worth, in the
    order of ``waits`` (API.md ``waits[].win``): ``{"fan": [keys], "amount": x}`` plus ``"biao": n``
    where the variant counts 表 (see the module docstring for the settlement it is priced
    with). A wait that
    cannot be priced (the variant's judgement is not a win there) is ``None``. Waits with the same
    :func:`score_key` are priced once (:func:`_price_shared`); a variant that tells every
    wait's key from ``before`` (``Variant.wait_score_keys``) has no win made per wait."""
    keys = variant.wait_score_keys(before, waits)
    raw: dict[str, Any] | None = None
    raw_key = (_UNSETTLED_KEYS.get(before.win_by) if before.settlement is None
               and keys is not None else None)
    if raw_key is None:
        # a request's own settlement inputs, or wins made per wait (which carry them)
        raw = hypothetical_settlement(before.settlement, before.win_by,
                                      variant.discard_win_fields)
        raw_key = _raw_key(raw)
    out: list[dict[str, Any] | None] = []
    value: dict[str, Any] | None = None
    for i, tile in enumerate(waits):
        if keys is None:
            assert raw is not None
            won = _won(before, tile, raw)
            value = _price_shared(variant, won, before, tile, raw, raw_key,
                                  score_key(variant, won))
        elif not i or keys[i] is None or keys[i] != keys[i - 1] or raw_key is None:
            # a wait whose key is the one before's is worth the same (_price_shared)
            value = _price_shared(variant, None, before, tile, raw, raw_key, keys[i])
        out.append(None if value is None else dict(value, fan=list(value["fan"])))
    return out
