"""自由记分 tables: a table of four with no rule set (API.md "Added in the fourth round").

A free table is the absence of a rule set, not a fifth variant: its ``variant`` is
:data:`FREE`, a name :data:`webcalc.variants.VARIANTS` never holds; it has no options and
nothing is analysed. Each of its hands is an entry of kind ``points``: four amounts, one per
seat, that sum to zero, recorded as given (``{"points": [a, b, c, d], "dealer"?, "note"?}``), its payments the
fewest transfers that square it (what each pays, item ``points``).
Adjustments, corrections, voids, undo and everything else of the ledger work on it as on any
table.

Amounts are exact: each is read as the decimal it prints as (:func:`~.money.exact`), checked
with :class:`~decimal.Decimal` (at most :data:`POINTS_DECIMALS` decimals, at most
:data:`POINTS_MAX` either way, an exact sum of zero), and stored as a JSON int when whole,
else as the float whose shortest text is that decimal (at most 11 significant digits, well
inside a double's 15: the float and the decimal are one value). No rule says who deals next:
the hand's dealer (given, else the table's current one) deals again until a hand names
another.

No Flask here.
"""

from __future__ import annotations

import math
from decimal import Decimal
from typing import Any

from ..errors import BadPointsError, BadRequestError, InputError
from ..messages import M, seat
from ..settlement import SEAT_NAMES, fmt
from .money import all_ints, exact, number, settle_up

#: the ``variant`` of a table with no rule set
FREE = "free"
#: the entry kind of a free table's hand
POINTS = "points"
POINTS_FIELDS = ("points", "dealer", "note")
POINTS_DECIMALS = 4
POINTS_MAX = 1_000_000
NOTE_MAX = 200


def is_free(variant: Any) -> bool:
    """Whether a table (its ``variant``) has no rule set."""
    return variant == FREE


def _bad(field: str, message) -> InputError:
    return BadPointsError(message, field)


def amount(v: Any, i: int) -> int | float:
    """Seat ``i``'s amount as stored (an int when whole), or ``bad_points`` naming the seat.
    ``v`` is a JSON number, or a :class:`~decimal.Decimal` as a page typed it (checked as
    typed: ``1e-400`` is too many decimals, not the float 0.0, and ``1e9999999`` too large
    before any int is made of it)."""
    field = f"points[{i}]"
    if isinstance(v, bool) or not isinstance(v, int | float | Decimal) or (
            isinstance(v, float) and not math.isfinite(v)) or (
            isinstance(v, Decimal) and not v.is_finite()):
        raise _bad(field, M("ledger.points_number", seat=seat(i), d=POINTS_DECIMALS,
                            max=POINTS_MAX))
    d = v if isinstance(v, Decimal) else Decimal(repr(v)) if isinstance(v, float) else Decimal(v)
    if d.copy_abs() > POINTS_MAX:            # copy_abs: no context, so no Overflow
        raise _bad(field, M("ledger.points_large", seat=seat(i), max=POINTS_MAX))
    if d != d.quantize(Decimal(1).scaleb(-POINTS_DECIMALS)):
        raise _bad(field, M("ledger.points_decimals", seat=seat(i), d=POINTS_DECIMALS))
    if d == d.to_integral_value():
        return int(d)
    return float(d)


def parse_decimal(text: str) -> Decimal | None:
    """A typed amount (a page's field) as a decimal, or None when it is not a number."""
    from decimal import InvalidOperation

    text = text.strip().replace("＋", "+").replace("－", "-").replace("−", "-")
    if not text or len(text) > 20:
        return None
    try:
        d = Decimal(text)
    except InvalidOperation:
        return None
    return d if d.is_finite() else None


def points_entry(raw: dict, default_dealer: int) -> tuple[dict, dict, int]:
    """A free table's hand: ``(request as recorded, result, dealer)``. ``raw`` holds only
    :data:`POINTS_FIELDS` (checked by the caller)."""
    pts = raw.get("points")
    if not isinstance(pts, list) or len(pts) != 4:
        raise _bad("points", M("ledger.points_list"))
    values = [amount(v, i) for i, v in enumerate(pts)]
    total = sum((Decimal(repr(v)) if isinstance(v, float) else Decimal(v) for v in values),
                Decimal(0))
    if total != 0:
        raise _bad("points", M("ledger.points_sum", sum=_text(total)))
    dealer = raw.get("dealer")
    if dealer is None:
        dealer = default_dealer
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer <= 3:
        raise BadRequestError(M("ledger.points_dealer"), "dealer")
    note = raw.get("note") or ""
    if not isinstance(note, str) or len(note.strip()) > NOTE_MAX or (
            note.strip() and not note.strip().isprintable()):
        raise BadRequestError(M("ledger.note_bad", n=NOTE_MAX), "note")
    request: dict = {"points": values, "dealer": dealer}
    if note.strip():
        request["note"] = note.strip()
    # what each pays: the fewest transfers that square the hand, as the evening's settle-up
    what = request.get("note") or M("ledger.points_hand")
    payments = []
    for payer, payee, x in settle_up([exact(v) for v in values]):
        paid = number(x, all_ints(values))
        payments.append({"from": payer, "to": payee, "amount": paid, "item": POINTS,
                         "detail": M("ledger.transfer_detail", what=what,
                                     payer=SEAT_NAMES[payer], payee=SEAT_NAMES[payee],
                                     amount=fmt(paid)),
                         "rule": None})
    result = {"settlement": {"payments": payments, "net": values,
                             "next_dealer": {"seat": dealer, "rule": None}}}
    return request, result, dealer


def _text(d: Decimal) -> str:
    """A decimal as people write it: no exponent, no trailing zeros."""
    s = format(d.normalize(), "f")
    return "0" if s in ("-0", "0") else s


def free_wins(net: list) -> list[bool]:
    """Which seats won a free table's hand: the largest amount, when it is positive (every
    seat that has it, on a tie)."""
    values = [exact(x) for x in net]
    top = max(values)
    return [top > 0 and v == top for v in values]
