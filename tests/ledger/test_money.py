"""Totals and the settle-up: exact sums, and never more transfers than needed."""

from __future__ import annotations

from fractions import Fraction
from itertools import permutations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.scale import examples
from webcalc.ledger.money import number, settle_up, totals


def _fewest(balances: list[Fraction]) -> int:
    """Brute force: n non-zero seats need n − (most zero-sum groups) transfers."""
    seats = [s for s, b in enumerate(balances) if b]
    best = 0
    for order in permutations(seats):            # every split into consecutive groups
        groups, run = 0, Fraction(0)
        for s in order:
            run += balances[s]
            if run == 0:
                groups += 1
        best = max(best, groups)
    return len(seats) - best


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.integers(-50, 50), min_size=3, max_size=3))
def test_settle_up_squares_the_table_with_the_fewest_transfers(three):
    balances = [Fraction(x) for x in three] + [Fraction(-sum(three))]
    transfers = settle_up(balances)
    left = list(balances)
    for payer, payee, amount in transfers:
        assert payer != payee and amount > 0
        left[payer] += amount
        left[payee] -= amount
    assert left == [0, 0, 0, 0]
    assert len(transfers) == _fewest(balances)


def test_totals_are_exact_decimals():
    sums, ints = totals([[0.1, -0.1, 0, 0]] * 10 + [[0.2, 0.1, -0.3, 0]])
    assert [number(x, ints) for x in sums] == [1.2, -0.9, -0.3, 0.0] and ints is False
    sums, ints = totals([[1, 2, -3, 0], [4, -4, 0, 0]])
    assert [number(x, ints) for x in sums] == [5, -2, -3, 0] and ints is True
