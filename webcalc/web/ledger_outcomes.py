"""What the next hand records for each outcome without tiles (``GET /t/<edit>/outcomes``, the
figures static/js/ledger.js shows for a hand queued without a network).
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from typing import Any

from werkzeug.datastructures import MultiDict

from ..errors import InputError
from .ledger_entry import CONTROL_KEYS, TILE_KEYS
from .room import win_methods
from .room_url import read_page_room

_OUTCOME_KEYS = ("s_winner", "s_discarder", "s_dealer", "win_by")
#: the 胡法 with a 点炮者 (the entry offers the seat for these)
DISCARD_METHODS = ("discard", "robbing_kong")
OUTCOMES_MAX = 64
_outcomes_cache: OrderedDict = OrderedDict()
_outcomes_lock = threading.Lock()


def outcome_key(dealer: int, winner: int | None, win_by: str | None,
                discarder: int | None) -> str:
    """``dealer:winner:win_by:discarder`` (``none`` for a 荒庄's winner, empty when not
    given), as static/js/ledger.js builds it from a queued entry's fields."""
    return ":".join([str(dealer), "none" if winner is None else str(winner), win_by or "",
                     "" if discarder is None else str(discarder)])


def outcomes(table: dict, args: MultiDict) -> dict[str, list]:
    """What the server would record for each outcome of the next hand without tiles, with
    the entry's other inputs as they are (``args``, the bound room: 跑, 加钢, kongs …): for
    each dealer (a queued hand deals the next one), each winner, 胡法 and 点炮者, and 荒庄,
    ``[nets, next dealer]``, each computed by the ledger's own
    :func:`webcalc.ledger.service.preview` from the room the page's form gives (the same
    reading as a record). An outcome the server would refuse is left out. Kept per table
    settings and inputs: the same entry gives the same answers (issue 36.2)."""
    from ..ledger.service import preview

    variant = table["variant"]
    rest = MultiDict([(k, v) for k, v in args.items(multi=True)
                      if k not in _OUTCOME_KEYS and k not in TILE_KEYS
                      and not k.startswith("d_") and k not in CONTROL_KEYS + ("number",)])
    key = (variant, json.dumps(table["options"], sort_keys=True), str(table["base"]),
           tuple(sorted(rest.items(multi=True))))
    with _outcomes_lock:
        got = _outcomes_cache.get(key)
        if got is not None:
            _outcomes_cache.move_to_end(key)
            return got
    methods = [m for m, _label in win_methods(variant)]
    out: dict[str, list] = {}
    for winner in (None, 0, 1, 2, 3):
        for win_by in ([None] if winner is None else methods):
            froms = [x for x in range(4) if x != winner] if win_by in DISCARD_METHODS \
                else [None]
            for discarder in froms:
                a = MultiDict(rest)
                a["s_winner"] = "none" if winner is None else str(winner)
                a["s_dealer"] = "0"         # read with one; each dealer is put in below
                if discarder is not None:
                    a["s_discarder"] = str(discarder)
                room = read_page_room(a, variant, win_by or "self_draw")
                settlement = room.settlement_request() if not room.errors else None
                if settlement is None:
                    continue
                settlement.pop("base", None)
                for dealer in range(4):     # the room reads the dealer as given: here each
                    body: dict[str, Any] = {"settlement": {**settlement, "dealer": dealer}}
                    if winner is not None:
                        body["win_by"] = win_by
                    try:
                        net, nxt = preview(variant, table["options"], table["base"], body,
                                           dealer)
                    except InputError:
                        continue
                    out[outcome_key(dealer, winner, win_by, discarder)] = [
                        [_signed(x) for x in net], nxt]
    with _outcomes_lock:
        _outcomes_cache[key] = out
        while len(_outcomes_cache) > OUTCOMES_MAX:
            _outcomes_cache.popitem(last=False)
    return out


def _signed(x) -> str:
    from .templating import points

    return points(x, sign=True)
