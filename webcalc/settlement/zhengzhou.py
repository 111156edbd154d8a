"""郑州 payments: ZZ-4 the win, ZZ-5 kongs, with the corrections of ZZ-6.

ZZ-4: each of the 3 others pays
``底 × (1 + 跑_winner + 跑_payer [+1 dealer_plus_base when winner or payer deals]) × 2^d``,
d = the enabled doubles that apply: 七对 (``seven_pairs_double``), 杠上花
(``kong_bloom_double``, C-14), 四混 (``four_wildcards_double``).
ZZ-5: ``底 × (1 [+ 跑_konger + 跑_payer with kong_pao] [+1 dealer_plus_base])``: 暗杠 each
other player, 明杠 the discarder, 补杠 the supplier of the ponged tile; never doubled; on
荒庄 only with ``draw_settles_kongs``.
ZZ-6: the seed's worked examples that contradict this formula are seed errors; the formula
wins (tests/cases.json zz-pao-seed-error, zz-big-example). A settlement in which one of
those examples, read as a referee would read it, gives another number carries one note
saying so (:func:`seed_notes`, ``settlement.notes``); the payments themselves say nothing
of it.
"""

from __future__ import annotations

from typing import Any

from ..messages import Joined, Message
from ..variants.base import WIN_METHOD_LABELS
from ..variants.zhengzhou import DECLARED_DOUBLES, Zhengzhou
from . import (
    KONG_LABELS,
    SEAT_NAMES,
    Payment,
    Table,
    declared_keys,
    declared_refuse,
    fmt,
    kong_payers,
    pay,
)

#: what a win recorded without its tiles declares (:func:`webcalc.settlement.settle_declared`)
DECLARED = ("doubles",)
#: ZZ-4's doubles: declared key → (name in the payment text: 七对 杠上花 四混, the room option
#: that enables it); the variant's, which also says which a room offers (``declarable``)
DOUBLES = DECLARED_DOUBLES


def doubles(t: Table) -> list[str]:
    """ZZ-4: the keys of the enabled doubles that apply to this win (``seven_pairs``,
    ``four_wildcards``, ``kong_bloom``)."""
    opts = t.options
    if t.declared is not None:                 # no tiles: the hand's doubles as declared
        out = [k for k in ("seven_pairs", "four_wildcards") if k in t.declared["doubles"]]
    else:
        out = Zhengzhou.hand_doubles(opts, t.judgement.readings)
    if opts.kong_bloom_double and t.win_by == "kong_replacement":
        out.append("kong_bloom")
    return out


def seed_notes(t: Table) -> list[dict[Any, Any]]:
    """ZZ-6: one note, ``[{"rule": "ZZ-6", "message"}]``, naming the seed's miscounted
    worked examples that, applied to this settlement, would give a number the formula does
    not (docs/decisions.md, "ZZ-6 once per settlement"); empty for most hands.

    * A 跑1, B 跑2, B wins: the seed has each seat without 跑 pay 2 底 (the formula: 3). The
      seed is right when A wins and for a lone 跑 seat, so its reckoning is "a seat without
      跑 pays 1 + the smallest 跑 at the table": it differs when a seat without 跑 pays a
      winner whose 跑 is above another payer's (not 0).
    * A 跑3 with one 暗杠, B 跑2, A wins: the seed has 7 底 from each seat without 跑 and 9
      from B, that is 底 × (1 + 2 × 跑_winner + 跑_payer) for the win and the winner's kong
      together; the formula is (1 + 跑_w + 跑_p) + (1 + 跑_w + 跑_p) with ``kong_pao``, else
      (1 + 跑_w + 跑_p) + 1. They differ whenever the winner has 跑 and a kong of their own,
      except without ``kong_pao`` at 跑_winner 1.
    """
    if t.winner is None:
        return []
    examples = []
    w = t.pao[t.winner]
    payers = [t.pao[s] for s in t.losers]
    if 0 in payers and any(0 < p < w for p in payers):
        examples.append(Message("zz.seed_example_pao"))
    if (w > 0 and any(k.seat == t.winner for k in t.kongs)
            and (t.options.kong_pao or w != 1)):
        examples.append(Message("zz.seed_example_kong"))
    if not examples:
        return []
    return [{"rule": "ZZ-6", "message": Message(
        "zz.seed_differs", examples=Joined(examples, "；", "; "), rule="ZZ-6")}]


def parse_declared(t: Table, raw: dict[Any, Any]) -> dict[Any, Any]:
    """``{"doubles": [keys]}`` (ZZ-4): each must be enabled in the room; ``four_wildcards``
    needs wildcards, ``kong_bloom`` a win by ``kong_replacement`` (which doubles anyway)."""
    keys = declared_keys(raw, "doubles", {k: v[0] for k, v in DOUBLES.items()})
    opts = t.options
    for k in keys:
        name, option = DOUBLES[k]
        if not getattr(opts, option):
            raise declared_refuse("doubles", Message("d.zz_off", name=name))
    if "four_wildcards" in keys and not opts.wildcard:
        raise declared_refuse("doubles", Message("d.zz_no_wildcards"))
    if "kong_bloom" in keys and t.win_by != "kong_replacement":
        raise declared_refuse("doubles", Message("d.zz_kong_bloom"))
    return {"doubles": keys}


def _units(t: Table, a: int, b: int, with_pao: bool) -> tuple[int, Joined]:
    """1 [+ 跑_a + 跑_b] [+1 庄 with dealer_plus_base], and its parts."""
    n, parts = 1, ["1"]
    if with_pao:
        n += t.pao[a] + t.pao[b]
        parts += [Message("zz.pao", n=t.pao[a]), Message("zz.pao", n=t.pao[b])]
    if t.options.dealer_plus_base and t.dealer in (a, b):
        n += 1
        parts.append(Message("zz.dealer_base"))
    return n, Joined(parts, "+", "+")


def win_payment(t: Table, payer: int, dbl: list[str]) -> Payment:
    n, units = _units(t, t.winner, payer, True)
    d = len(dbl)
    amount = t.base * n * 2 ** d
    how = WIN_METHOD_LABELS["kong_replacement" if t.win_by == "kong_replacement" else "self_draw"]
    who = Message("pay.who", seat=SEAT_NAMES[t.winner], how=how)
    formula = (Message("zz.units_doubled", base=fmt(t.base), units=units, d=d,
                       doubles=[DOUBLES[k][0] for k in dbl]) if d else
               Message("zz.units", base=fmt(t.base), units=units))
    return pay(payer, t.winner, amount, "win", "ZZ-4", Message("pay.line", who=who, formula=formula))


def kong_payments(t: Table) -> list[Payment]:
    out = []
    for k in t.kongs:
        for payer in kong_payers(t, k):
            n, units = _units(t, k.seat, payer, t.options.kong_pao)
            who = Message("pay.who", seat=SEAT_NAMES[k.seat], how=KONG_LABELS[k.type])
            text = Message("pay.line", who=who,
                           formula=Message("zz.units", base=fmt(t.base), units=units))
            out.append(pay(payer, k.seat, t.base * n, "kong", "ZZ-5", text))
    return out


def payments(t: Table) -> tuple[list[Payment], dict[Any, Any]]:
    if t.winner is None:                       # C-10
        return (kong_payments(t) if t.options.draw_settles_kongs else []), {}
    dbl = doubles(t)
    out = [win_payment(t, payer, dbl) for payer in t.losers]
    notes = seed_notes(t)
    return out + kong_payments(t), ({"notes": notes} if notes else {})


def next_dealer(t: Table) -> tuple[int, str]:
    """ZZ-7: the winner deals next; on 荒庄 the dealer stays."""
    return (t.dealer if t.winner is None else t.winner), "ZZ-7"
