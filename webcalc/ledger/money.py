"""Amounts of a table: exact sums and the settle-up (the fewest transfers that square it).

Amounts arrive as the engine writes them: ints for an int base, floats for a decimal base
(0.5). They are summed as the decimals they print as (``Fraction(repr(x))``), so ten hands of
0.1 total 1, not 0.9999999999999999, and written back as ints when every amount was an int,
else as floats rounded to 10 decimal places (as the engine does).
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal, localcontext
from fractions import Fraction

DECIMALS = 10


def exact(x: int | float) -> Fraction:
    return Fraction(repr(x)) if isinstance(x, float) else Fraction(x)


def number(x: Fraction, ints: bool) -> int | float:
    """``x`` as an int when ``ints`` (and whole), else a float rounded to 10 places."""
    if ints and x.denominator == 1:
        return int(x)
    return round(float(x), DECIMALS) + 0.0


def all_ints(values: Iterable) -> bool:
    return all(isinstance(v, int) and not isinstance(v, bool) for v in values)


def totals(nets: list[list[int | float]]) -> tuple[list[Fraction], bool]:
    """The exact per-seat sums of ``nets`` and whether every amount was an int."""
    if all(all_ints(net) for net in nets):            # the common case: plain int sums
        return [Fraction(sum(net[s] for net in nets)) for s in range(4)], True
    with localcontext() as ctx:                       # decimal sums: exact, and fast
        ctx.prec = 60
        out = [Decimal(0)] * 4
        for net in nets:
            for seat, amount in enumerate(net):
                out[seat] += Decimal(repr(amount)) if isinstance(amount, float) else amount
    return [Fraction(x) for x in out], False


def settle_up(balances: list[Fraction]) -> list[tuple[int, int, Fraction]]:
    """The fewest transfers ``(payer, payee, amount)`` that bring every balance to zero.

    ``balances`` sum to zero (a table's totals). The minimum for n seats with a non-zero
    balance is n − (the most groups they split into that each sum to zero); we find that split
    by search (four seats: at most 15 subsets), then square each group greedily, the largest
    debt paying the largest credit, which needs exactly ``len(group) − 1`` transfers because no
    part of the group sums to zero. Sorted by payer, then payee.
    """
    assert sum(balances) == 0, "a table's totals sum to zero"
    seats = [s for s, b in enumerate(balances) if b != 0]
    groups = _most_zero_groups(tuple(seats), balances)
    out: list[tuple[int, int, Fraction]] = []
    for group in groups:
        left = {s: balances[s] for s in group}
        while any(left.values()):
            payer = min(left, key=lambda s: (left[s], s))
            payee = max(left, key=lambda s: (left[s], -s))
            amount = min(-left[payer], left[payee])
            out.append((payer, payee, amount))
            left[payer] += amount
            left[payee] -= amount
    return sorted(out)


def _most_zero_groups(seats: tuple[int, ...], balances: list[Fraction]) -> list[tuple[int, ...]]:
    if not seats:
        return []
    first, rest = seats[0], seats[1:]
    best: list[tuple[int, ...]] | None = None
    for mask in range(1 << len(rest)):
        group = (first,) + tuple(s for i, s in enumerate(rest) if mask >> i & 1)
        if sum(balances[s] for s in group) != 0:
            continue
        others = tuple(s for s in rest if s not in group)
        split = [group] + _most_zero_groups(others, balances)
        if best is None or len(split) > len(best):
            best = split
    assert best is not None                      # the whole set sums to zero
    return best
