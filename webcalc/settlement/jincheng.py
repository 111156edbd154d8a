"""晋城 payments: JC-5 the win, JC-6 kongs, JC-7 前包, JC-8 荒庄 后包.

JC-5: each of the 3 others pays ``底 × u × (2 if self-draw) × (2 if this payer discarded
the winning tile without 上架)``, u = 2 when the winner or this payer deals. A robbed
konger counts as the discarder (JC-4); 杠上开花 is a self-draw (C-14).
JC-6: 明杠/补杠 each other player pays 1 底, 暗杠 2 底; paid whoever wins; not on 荒庄.
JC-7: 前包 (``follow_dealer``) the dealer pays each other player 1 底.
JC-8: 荒庄 the dealer pays each other player ``draw_penalty`` 底; no kong money.
"""

from __future__ import annotations

from . import SEAT_NAMES, Payment, Table, flat_kong_payments, fmt, pay

KONG_UNITS = {"exposed": 1, "added": 1, "concealed": 2}
#: 晋城's payments depend on no factor of the tiles: a win without tiles declares nothing
DECLARED = ()


def parse_declared(t: Table, raw: dict) -> dict:
    return {}


def win_payment(t: Table, payer: int) -> Payment:
    base, factors = t.base, []
    u = 2 if t.dealer in (t.winner, payer) else 1
    factors.append(f"×{u}{'(庄)' if u == 2 else '(闲)'}")
    amount = base * u
    if t.self_drawn:
        amount *= 2
        factors.append("×2(自摸)")
    if payer == t.discarder and not t.ready[payer]:
        amount *= 2
        factors.append("×2(未上架点胡)")
    how = {"self_draw": "自摸", "kong_replacement": "杠上开花", "discard": "点胡",
           "robbing_kong": "抢杠"}[t.win_by]
    text = f"{SEAT_NAMES[t.winner]}{how}：底{fmt(base)} {' '.join(factors)}"
    return pay(payer, t.winner, amount, "win", "JC-5", text)


def kong_payments(t: Table) -> list[Payment]:
    """JC-6: each other player pays the konger a fixed number of 底."""
    return flat_kong_payments(t, KONG_UNITS, "JC-6")


def dealer_pays_each(t: Table, units: int, item: str, rule: str, what: str) -> list[Payment]:
    if units <= 0:
        return []
    return [pay(t.dealer, s, t.base * units, item, rule,
                f"{what}：庄家{SEAT_NAMES[t.dealer]}付 底{fmt(t.base)} ×{units}")
            for s in t.others(t.dealer)]


def payments(t: Table) -> tuple[list[Payment], dict]:
    out = []
    if t.follow_dealer:
        out += dealer_pays_each(t, 1, "follow_dealer", "JC-7", "前包")
    if t.winner is None:                       # C-10, JC-8: 后包, no kongs
        return out + dealer_pays_each(t, t.options.draw_penalty, "draw_penalty", "JC-8",
                                      "荒庄后包"), {}
    out += [win_payment(t, payer) for payer in t.losers]
    return out + kong_payments(t), {}


def next_dealer(t: Table) -> tuple[int, str]:
    """JC-9: the dealer wins → stays; else (荒庄 included) the next seat deals."""
    return (t.dealer if t.winner == t.dealer else (t.dealer + 1) % 4), "JC-9"
