"""盘锦 payments: PJ-10 番, PJ-11 pair factors, PJ-12 who pays, PJ-13 kongs.

PJ-10: every 番 doubles (群鸡 ×4), multiplied together; with a settlement the situational
ones join the hand's own: 自摸 (and 杠上开花, a self-draw by C-14), 点炮, 杠上开花
(``kong_bloom``), 杠流泪 (``kong_discard``).
PJ-11, per loser: ×2 when the winner or this loser deals (never ×4); ×2 when the winner has
加钢, ×2 when this loser has (``all_jiagang``: everyone).
PJ-12: self-draw — each loser pays its share; discard — the discarder pays all three shares
(点炮包三家), the 点炮 ×2 on its own share only, or on all three with
``discard_doubles_all``.
PJ-13 (option ``kong``): 明杠/补杠 each other player pays 1 底, 暗杠 2, 混杠 64; never
multiplied; paid on 荒庄 too.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..messages import Joined, Message
from ..variants.base import WIN_METHOD_LABELS
from ..variants.panjin import FAN_NAMES, HAND_FAN_OPTION, PanjinOptions, fan
from . import (
    SEAT_NAMES,
    Payment,
    Table,
    declared_keys,
    declared_refuse,
    flat_kong_payments,
    fmt,
    pay,
)

#: what a win recorded without its tiles declares (:func:`webcalc.settlement.settle_declared`)
DECLARED = ("fan",)

KONG_UNITS = {"exposed": 1, "added": 1, "concealed": 2, "wildcard": 64}
CITES = ("PJ-10", "PJ-11", "PJ-12")


def fan_list(t: Table) -> list[dict[Any, Any]]:
    """PJ-10: the hand's 番 (judgement) plus the situational ones."""
    out = list(t.declared["fan"] if t.declared is not None else t.judgement.fan or [])
    if t.self_drawn:
        out.append(fan("self_draw"))
    if t.win_by == "discard":
        out.append({**fan("discard"), "note": Message(
            "pj.note_all" if t.options.discard_doubles_all else "pj.note_own", rule="PJ-12")})
    if t.win_by == "kong_replacement" and t.options.kong_bloom:
        out.append(fan("kong_bloom"))
    if t.kong_discard:
        out.append(fan("kong_discard"))
    return out


def parse_declared(t: Table, raw: dict[Any, Any]) -> dict[Any, Any]:
    """``{"fan": [keys]}``: the hand's own 番 (PJ-10), each allowed by its room option
    (群鸡 ×4 and 鸡胡 by ``jihu``; 穷胡 needs wildcards); 鸡胡 and 群鸡, 七对 and 飘胡
    exclude each other. The situational 番 (自摸, 点炮, 杠开, 杠流泪) come from the settlement."""
    keys = declared_keys(raw, "fan", {k: FAN_NAMES[k] for k in HAND_FAN_OPTION})
    labels = {f.name: f.metadata["label"] for f in dataclasses.fields(PanjinOptions)}
    for k in keys:
        option = HAND_FAN_OPTION[k]
        if not getattr(t.options, option):
            raise declared_refuse("fan", Message("d.pj_off", option=labels[option],
                                                 fan=FAN_NAMES[k]))
    if "qionghu" in keys and t.options.wildcard_mode == "none":
        raise declared_refuse("fan", Message("d.pj_no_wildcards"))
    for a, b in (("jihu", "qunji"), ("seven_pairs", "piaohu")):
        if a in keys and b in keys:
            raise declared_refuse("fan", Message("d.pj_exclusive", a=FAN_NAMES[a], b=FAN_NAMES[b]))
    return {"fan": [fan(k, 4 if k == "qunji" else 2) for k in keys]}


def share(t: Table, loser: int, fans: list[dict[Any, Any]]) -> tuple[int | float, Joined]:
    """One loser's share of the win (PJ-10, PJ-11, PJ-12) and its arithmetic (the parts)."""
    amount, parts = t.base, [Message("pay.base", base=fmt(t.base))]
    for f in fans:
        if f["key"] == "discard" and not (loser == t.discarder
                                          or t.options.discard_doubles_all):
            continue                           # PJ-12: 点炮 ×2 on the discarder's share
        amount *= f["multiplier"]
        parts.append(Message("pay.factor", m=f["multiplier"], name=f["name"]))
    if t.dealer in (t.winner, loser):
        amount *= 2
        parts.append(Message("pay.factor", m=2, name=Message("pay.dealer")))
    if t.jiagang[t.winner]:
        amount *= 2
        parts.append(Message("pay.factor", m=2, name=Message("pj.winner_jiagang")))
    if t.jiagang[loser]:
        amount *= 2
        parts.append(Message("pay.factor", m=2, name=Message("pj.loser_jiagang")))
    return amount, Joined(parts, " ", " ")


def win_payments(t: Table, fans: list[dict[Any, Any]]) -> list[Payment]:
    out = []
    for loser in t.losers:
        amount, text = share(t, loser, fans)
        if t.self_drawn:
            how = WIN_METHOD_LABELS["kong_replacement" if t.win_by == "kong_replacement"
                                    else "self_draw"]
            who = Message("pay.who", seat=SEAT_NAMES[t.winner], how=how)
            out.append(pay(loser, t.winner, amount, "win", "PJ-12",
                           Message("pay.line", who=who, formula=text), CITES))
        else:
            whose = (Message("pj.own_share") if loser == t.discarder
                     else Message("pj.share_of", seat=SEAT_NAMES[loser]))
            out.append(pay(t.discarder, t.winner, amount, "win", "PJ-12",
                           Message("pj.discard_line", whose=whose, formula=text), CITES))
    return out


def kong_payments(t: Table) -> list[Payment]:
    """PJ-13: each other player pays the konger a fixed number of 底."""
    return flat_kong_payments(t, KONG_UNITS, "PJ-13")


def payments(t: Table) -> tuple[list[Payment], dict[Any, Any]]:
    kongs = kong_payments(t) if t.options.kong else []   # PJ-13: paid on 荒庄 too
    if t.winner is None:                                  # C-10
        return kongs, {}
    fans = fan_list(t)
    return win_payments(t, fans) + kongs, {"fan": fans}


def next_dealer(t: Table) -> tuple[int, str]:
    """PJ-14: the dealer wins or 荒庄 → the dealer stays; else the next seat deals.
    ``no_dealer_repeat`` (不连庄): the deal always passes."""
    if t.options.no_dealer_repeat or t.winner not in (None, t.dealer):
        return (t.dealer + 1) % 4, "PJ-14"
    return t.dealer, "PJ-14"
