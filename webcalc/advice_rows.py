"""A free-joker hand's advice as the API's rows, read off its compiled draws: the Python twin
of webcalc/_pjunit_rows.c ``free_advice`` (issue 38: one compiled call per hand, Python only
parsing the request and shaping the answer). tests/test_advice_rows.py holds the two equal.

``answer`` is what ``free_draws`` gives (:func:`webcalc.draws.compiled_draws`): for a 13-tile
hand ``(d, lower, zero)``, for a 14-tile hand one such triple per discard in ``discards``.
The rows are those :func:`webcalc.waits.find_waits`, :func:`webcalc.waits.is_any_tile_wait`
and :func:`webcalc.efficiency.useful_draws` give for 13 tiles, and
:func:`webcalc.waits.discard_advice` and :func:`webcalc.efficiency.efficiency` for 14, as
:func:`webcalc.analysis.analyze` lists them: a kind is gone when the tiles held and the
indicator account for four of it (for the 13 tiles a discard leaves, the discarded kind when
they account for five); its copies left (``remaining``, never below 0) also subtract
``visible``, and for a 14-tile hand they are counted over the 14 tiles (C-9 as amended). A
kind's ``{"tile", "remaining", "dead"}`` is the same in every row of one answer, so it is one
dict listed wherever the kind is (nothing changes these dicts after they are made).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .tiles import CODES

INF = 99                       # webcalc.shanten.INF: never ready


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def row_cells(gone: Sequence[int], visible: Sequence[int] | None,
              ) -> Callable[[int], dict[str, Any]]:
    """A kind's row cell ``{"tile", "remaining", "dead"}``, one dict per kind shared by every
    list that names it (``remaining``: 4 less ``gone``, the tiles held, in melds and the
    indicator, less ``visible``, never below 0)."""
    cells: dict[int, dict[str, Any]] = {}

    def cell(k: int) -> dict[str, Any]:
        c = cells.get(k)
        if c is None:
            left = 4 - gone[k] - (visible[k] if visible else 0)
            left = left if left > 0 else 0
            c = cells[k] = {"tile": CODES[k], "remaining": left, "dead": left == 0}
        return c

    return cell


def advice_rows(answer: Any, counts: Sequence[int], meld_tiles: Sequence[int],
                indicator: int, kinds: int, visible: Sequence[int],
                discards: Sequence[int] | None) -> tuple[Any, ...]:
    """The rows (see the module doc). ``indicator`` -1 for none; ``visible`` 34 counts or
    empty.

    13 tiles (``discards`` None): ``(shanten, waits, useful, useful_total, any_tile_wait)``,
    ``shanten`` ``None`` when never ready. 14 tiles: ``(efficiency, discards, shanten)``,
    ``shanten`` the least of the discards' (``None``: none is ever ready); the rows in the
    API's order (efficiency: lowest shanten, most copies, tile order; discards: most copies,
    most kinds, tile order)."""
    if visible and any(not 0 <= v <= 4 for v in visible):
        raise ValueError("visible: counts are 0 to 4")
    gone = list(counts)
    for t in meld_tiles:
        gone[t] += 1
    if indicator >= 0:
        gone[indicator] += 1
    live = 0
    for k in range(kinds):
        if gone[k] < 4:
            live |= 1 << k
    cell = row_cells(gone, visible)
    if discards is None:
        d, lower, zero = answer
        waits = [cell(k) for k in _bits(zero & live)]
        any_tile = bool(live) and len(waits) == bin(live).count("1")
        if d >= INF:
            return None, waits, [], 0, any_tile
        useful = [cell(k) for k in _bits((zero if d == 1 else lower) & live)]
        return (d - 1 if d > 1 else 0, waits, useful, sum(c["remaining"] for c in useful),
                any_tile)
    eff: list[tuple[tuple[int, int, int], dict[str, Any]]] = []
    ready: list[tuple[tuple[int, int, int], dict[str, Any]]] = []
    for t, (d, lower, zero) in zip(discards, answer, strict=True):
        back = live | 1 << t if t < kinds and gone[t] < 5 else live
        wl = [cell(k) for k in _bits(zero & back)]
        if wl:
            n = sum(c["remaining"] for c in wl)
            ready.append(((-n, -len(wl), t), {"discard": CODES[t], "waits": wl,
                                              "remaining": n}))
        if d >= INF:
            eff.append(((INF, 0, t), {"discard": CODES[t], "shanten": None, "useful": [],
                                      "useful_total": 0}))
            continue
        useful = list(wl) if d == 1 else [cell(k) for k in _bits(lower & back)]
        total = sum(c["remaining"] for c in useful)
        shanten = d - 1 if d > 1 else 0
        eff.append(((shanten, -total, t), {"discard": CODES[t], "shanten": shanten,
                                           "useful": useful, "useful_total": total}))
    eff.sort(key=lambda e: e[0])
    ready.sort(key=lambda e: e[0])
    best = eff[0][0][0] if eff and eff[0][0][0] < INF else None
    return [e[1] for e in eff], [r[1] for r in ready], best
