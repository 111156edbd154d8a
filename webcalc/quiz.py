"""The daily 何切 problem (what to discard): one 14-tile hand a day per variant, made from the
date by the engine, with the full 牌理 ranking as its answer (docs/API.md "Daily 何切").

:func:`daily_problem` is deterministic: the date and the variant seed a
:class:`random.Random` (string seeds hash the same in every process), which deals hands until
one fits — 1 or 2 shanten, not complete, and at least :data:`MIN_CLOSE` discards *close* to
the best: at the best shanten, with at most :data:`CLOSE_MARGIN` fewer useful copies than the
best discard (a kind's four copies: no more than one kind's worth of draws apart), and at
least one of them not a best discard (so the problem has a wrong answer worth thinking about).
The hands are four random groups and a pair with 3-5 tiles then replaced from the rest of the
wall (the room's default options; a random indicator where the room plays wildcards). The
ranking is :func:`webcalc.analysis.analyze`'s ``efficiency`` for those tiles, so the problem of
a date changes only when the engine's 牌理 does. docs/decisions.md "Daily 何切".
"""

from __future__ import annotations

import copy
import random
import re
from collections import Counter
from datetime import date
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from .errors import BadRequestError
from .messages import Message
from .options import parse_options
from .tiles import ALL_TILES, format_tiles

if TYPE_CHECKING:
    from .analysis import Analysis

SHANTEN = (1, 2)        # the shanten a problem's hand is at
CLOSE_MARGIN = 4        # a close discard: at most this many useful copies fewer than the best
MIN_CLOSE = 3           # close discards a problem has at least (the best included)
ATTEMPTS = 400          # hands dealt at most (about a quarter fit; 400 misses ~never)
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def parse_day(text: object) -> date:
    """``YYYY-MM-DD`` (ASCII digits) → a date; ``bad_request`` on ``date`` otherwise."""
    if isinstance(text, str) and _DATE.fullmatch(text):
        try:
            return date.fromisoformat(text)
        except ValueError:
            pass
    raise BadRequestError(Message("quiz.bad_date"), "date")


def _deal(rng: random.Random, kinds: int, indicator: int | None) -> list[int]:
    """14 tiles near a complete hand: four groups and a pair from the wall, then 3-5 of the
    tiles exchanged for others of the rest of the wall (each kind at most its copies)."""
    wall = Counter({k: 4 for k in range(kinds)})
    if indicator is not None:
        wall[indicator] -= 1                # C-7: the indicator is out of play
    while True:
        tiles: list[int] = []
        for _ in range(4):
            if rng.random() < 0.6:
                a = rng.randrange(3) * 9 + rng.randrange(7)
                tiles += [a, a + 1, a + 2]
            else:
                tiles += [rng.randrange(kinds)] * 3
        tiles += [rng.randrange(kinds)] * 2
        used = Counter(tiles)
        if all(used[k] <= wall[k] for k in used):
            break
    rest = wall - used
    for _ in range(rng.choice((3, 4, 5))):
        i = rng.randrange(14)
        rest[tiles[i]] += 1
        new = rng.choice(sorted(rest.elements()))
        rest[new] -= 1
        tiles[i] = new
    return sorted(tiles)


def close_discards(rows: list[dict[Any, Any]]) -> list[dict[Any, Any]]:
    """The rows close to the best (the first): at its shanten, within :data:`CLOSE_MARGIN`."""
    best = rows[0]
    return [r for r in rows if r["shanten"] == best["shanten"]
            and r["useful_total"] >= best["useful_total"] - CLOSE_MARGIN]


def _ranked(rows: list[dict[Any, Any]]) -> list[dict[Any, Any]]:
    """Each row with its ``rank``: 1 + the rows strictly better (ties share a rank)."""
    from .story import _rank_key

    keys = [_rank_key(r) for r in rows]
    return [dict(r, rank=1 + sum(1 for k in keys if k < key)) for r, key in zip(rows, keys)]


def daily_problem(variant_name: str, day: date | str) -> dict[Any, Any]:
    """The 何切 problem of ``day`` (a date or ``YYYY-MM-DD``) for a variant.

    Returns:
        ``{"variant", "date", "hand", "indicator", "wildcards", "shanten", "answer",
        "close", "ranking", "rules"}``: the 14 tiles, the indicator (``None`` without
        wildcards) and the wildcards it makes, the hand's shanten, the best discards
        (``answer``: every discard of rank 1), the close ones, every discard's
        ``efficiency`` row with its ``rank``, and the rule ids the answer rests on.

    Raises:
        UnknownVariantError: for a name that is no rule set's.
        BadRequestError: (field ``date``) for a date that is not ``YYYY-MM-DD``.
    """
    from .analysis import _variant

    variant = _variant(variant_name)
    if not isinstance(day, date):
        day = parse_day(day)
    return copy.deepcopy(_problem(variant.name, day.isoformat()))


@lru_cache(maxsize=64)
def _problem(name: str, iso: str) -> dict[Any, Any]:
    from .analysis import analyze
    from .variants import VARIANTS

    variant = VARIANTS[name]
    options = parse_options(variant.Options, None)
    kinds = variant.kinds_in_play(options)
    rng = random.Random(f"webcalc quiz {name} {iso}")
    indicator = rng.randrange(kinds) if variant.wildcards_on(options) else None
    fallback: tuple[dict[str, str], Analysis, list[dict[Any, Any]], list[dict[Any, Any]],
                    list[Any]] | None = None
    for _ in range(ATTEMPTS):
        tiles = _deal(rng, kinds, indicator)
        req = {"variant": name, "hand": format_tiles(tiles)}
        if indicator is not None:
            req["indicator"] = ALL_TILES[indicator].code
        out = analyze(req)
        rows = list(out.efficiency or ())
        close = close_discards(rows)
        ranked = _ranked(rows)
        answer = [r["discard"] for r in ranked if r["rank"] == 1]
        found = (req, out, close, ranked, answer)
        if out.complete or out.shanten not in SHANTEN:
            if fallback is None:
                fallback = found                # (only if no hand at all were at 1-2)
            continue
        if len(close) >= MIN_CLOSE and len(answer) < len(close):
            break
        if fallback is None or fallback[1].shanten not in SHANTEN \
                or len(close) > len(fallback[2]):
            fallback = found                    # the closest yet, should none fit
    else:
        assert fallback is not None         # set by the first attempt that did not fit
        found = fallback
    req, out, close, ranked, answer = found
    return {
        "variant": name,
        "date": iso,
        "hand": req["hand"],
        "indicator": req.get("indicator"),
        "wildcards": list(out.wildcards),
        "shanten": out.shanten,
        "answer": answer,
        "close": [r["discard"] for r in close],
        "ranking": ranked,
        "rules": ["C-9", "C-12", *variant.efficiency_rules],
    }
