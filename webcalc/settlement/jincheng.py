"""晋城 payments: JC-5 the win, JC-6 kongs, JC-7 前包, JC-8 荒庄 后包.

JC-5: each of the 3 others pays ``底 × u × (2 if self-draw) × (2 if this payer discarded
the winning tile without 上架)``, u = 2 when the winner or this payer deals. A robbed
konger counts as the discarder (JC-4); 杠上开花 is a self-draw (C-14).
JC-6: 明杠/补杠 each other player pays 1 底, 暗杠 2 底; paid whoever wins; not on 荒庄.
JC-7: 前包 (``follow_dealer``) the dealer pays each other player 1 底.
JC-8: 荒庄 the dealer pays each other player ``draw_penalty`` 底; no kong money.
"""

from __future__ import annotations

from typing import Any

from ..messages import Joined, Message
from ..variants.base import WIN_METHOD_LABELS
from . import SEAT_NAMES, Payment, Table, flat_kong_payments, fmt, pay

KONG_UNITS = {"exposed": 1, "added": 1, "concealed": 2}
#: 晋城's payments depend on no factor of the tiles: a win without tiles declares nothing
DECLARED = ()


def parse_declared(t: Table, raw: dict[Any, Any]) -> dict[Any, Any]:
    return {}


def win_payment(t: Table, payer: int) -> Payment:
    base, factors = t.base, []
    u = 2 if t.dealer in (t.winner, payer) else 1
    factors.append(Message("pay.factor", m=u,
                           name=Message("pay.dealer" if u == 2 else "pay.non_dealer")))
    amount = base * u
    if t.self_drawn:
        amount *= 2
        factors.append(Message("pay.factor", m=2, name=WIN_METHOD_LABELS["self_draw"]))
    if payer == t.discarder and not t.ready[payer]:
        amount *= 2
        factors.append(Message("pay.factor", m=2, name=Message("jc.unready_discard")))
    how = Message("jc.discard_win") if t.win_by == "discard" else WIN_METHOD_LABELS[t.win_by]
    who = Message("pay.who", seat=SEAT_NAMES[t.winner], how=how)
    formula = Message("jc.win", base=fmt(base), factors=Joined(factors, " ", " "))
    return pay(payer, t.winner, amount, "win", "JC-5",
               Message("pay.line", who=who, formula=formula))


def kong_payments(t: Table) -> list[Payment]:
    """JC-6: each other player pays the konger a fixed number of 底."""
    return flat_kong_payments(t, KONG_UNITS, "JC-6")


def dealer_pays_each(t: Table, units: int, item: str, rule: str, what: Message) -> list[Payment]:
    if units <= 0:
        return []
    return [pay(t.dealer, s, t.base * units, item, rule,
                Message("jc.dealer_pays", what=what, seat=SEAT_NAMES[t.dealer],
                        base=fmt(t.base), n=units))
            for s in t.others(t.dealer)]


def payments(t: Table) -> tuple[list[Payment], dict[Any, Any]]:
    out = []
    if t.follow_dealer:
        out += dealer_pays_each(t, 1, "follow_dealer", "JC-7", Message("jc.follow_dealer"))
    if t.winner is None:                       # C-10, JC-8: 后包, no kongs
        return out + dealer_pays_each(t, t.options.draw_penalty, "draw_penalty", "JC-8",
                                      Message("jc.draw_penalty")), {}
    out += [win_payment(t, payer) for payer in t.losers]
    return out + kong_payments(t), {}


def next_dealer(t: Table) -> tuple[int, str]:
    """JC-9: the dealer wins → stays; else (荒庄 included) the next seat deals."""
    return (t.dealer if t.winner == t.dealer else (t.dealer + 1) % 4), "JC-9"
