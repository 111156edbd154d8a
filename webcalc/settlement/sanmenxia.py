"""三门峡 payments: SMX-5 表, SMX-6 the win, SMX-7 kongs (荒庄荒杠).

SMX-6: each of the 3 others pays ``底 × (1 + 跑_winner + 跑_payer) × 2^表``, or with
``pao_doubles_with_biao`` off ``底 × 2^表 + 底 × (跑_winner + 跑_payer)``. No dealer factor.
SMX-7: 明杠 the discarder pays 1 底, 暗杠 each other player pays 1 底, 绕杠 (``added``) the
supplier of the ponged tile pays 1 底; with ``kong_pao`` + (跑_konger + 跑_payer) 底. On 荒庄
no kong is paid.
"""

from __future__ import annotations

from typing import Any

from ..messages import Message
from ..variants.base import WIN_METHOD_LABELS
from . import (
    KONG_LABELS,
    MAX_BIAO_DISCARDS,
    SEAT_NAMES,
    Payment,
    Table,
    _is_int,
    declared_refuse,
    fmt,
    kong_payers,
    pay,
)

#: what a win recorded without its tiles declares (:func:`webcalc.settlement.settle_declared`)
DECLARED = ("biao",)


def biao(t: Table) -> int:
    """SMX-5: 0 unless the win is 混单吊 (SMX-4, from the judgement); then 1 + biao_discards.
    Declared without tiles: the count as declared."""
    if t.declared is not None:
        return t.declared["biao"]
    return 1 + t.biao_discards if t.judgement.biao else 0


def parse_declared(t: Table, raw: dict[Any, Any]) -> dict[Any, Any]:
    """``{"biao": n}``: the 表 count of the win (SMX-5), 0 unless it was 混单吊 (SMX-4),
    else 1 + the wildcards discarded while waiting; so ``biao_discards`` must not be given
    beside it."""
    n = raw.get("biao", 0)
    n = 0 if n is None else n
    top = 1 + MAX_BIAO_DISCARDS
    if not _is_int(n) or not 0 <= n <= top:
        raise declared_refuse("biao", Message("s.biao_range", n=top))
    if n and not t.options.wildcard:
        raise declared_refuse("biao", Message("d.smx_no_wildcards"))
    if n and t.biao_discards:
        raise declared_refuse("biao", Message("d.smx_biao_discards"))
    return {"biao": n}


def win_payment(t: Table, payer: int, b: int) -> Payment:
    """SMX-6 for one payer."""
    base, pw, pp = t.base, t.pao[t.winner], t.pao[payer]
    who = Message("pay.who", seat=SEAT_NAMES[t.winner], how=WIN_METHOD_LABELS["self_draw"])
    if t.options.pao_doubles_with_biao:
        amount = base * (1 + pw + pp) * 2 ** b
        formula = Message("smx.win_doubling", base=fmt(base), pw=pw, pp=pp, b=b)
    else:
        amount = base * 2 ** b + base * (pw + pp)
        formula = Message("smx.win_adding", base=fmt(base), pw=pw, pp=pp, b=b)
    return pay(payer, t.winner, amount, "win", "SMX-6",
               Message("pay.line", who=who, formula=formula))


def kong_payments(t: Table) -> list[Payment]:
    """SMX-7 (only called when there is a winner: 荒庄荒杠)."""
    out = []
    for k in t.kongs:
        for payer in kong_payers(t, k):
            who = Message("pay.who", seat=SEAT_NAMES[k.seat], how=KONG_LABELS[k.type])
            amount, formula = t.base, Message("pay.base_times", base=fmt(t.base), n=1)
            if t.options.kong_pao:
                pk, pp = t.pao[k.seat], t.pao[payer]
                amount = t.base * (1 + pk + pp)
                formula = Message("smx.kong_pao", base=fmt(t.base), pk=pk, pp=pp)
            out.append(pay(payer, k.seat, amount, "kong", "SMX-7",
                           Message("pay.line", who=who, formula=formula)))
    return out


def payments(t: Table) -> tuple[list[Payment], dict[Any, Any]]:
    if t.winner is None:
        return [], {}                          # C-10, SMX-7: 荒庄荒杠
    b = biao(t)
    out = [win_payment(t, payer, b) for payer in t.losers]
    return out + kong_payments(t), {"biao": b}


def next_dealer(t: Table) -> tuple[int, str]:
    """SMX-8: the winner deals next; on 荒庄 the dealer stays."""
    return (t.dealer if t.winner is None else t.winner), "SMX-8"
