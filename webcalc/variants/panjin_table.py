"""盘锦's rows table: each unit's rows searched once at install time, a 13-tile hand's
standard distance merged from them (issue 38; bench/RESULTS.md, "Issue 38, round 11: 盘锦's
unit rows by a DP" measured the design, "round 12" the table as built).

A unit's rows — per (groups, pair, jokers placed, flags) the fewest real tiles to draw and
the kinds they take — depend on its own counts, caps and the jokers held, not on the other
units. The compiled part (webcalc/variants/panjin_table.c) keeps them for every unit of at
most seven real tiles in a hand without melds, the wildcard mode "next" with 0-2 jokers held
or no wildcard at all, in one file (:data:`TABLE_PATH`, about 60 MB) that ``make`` builds
(:func:`build`: ``python -m webcalc.build_tables``) and :mod:`.panjin_advice` maps
read-only when the engine is imported (:func:`load`). gunicorn's master loads it before it forks
(preload_app): the workers share its pages.

With the table, ``panjin_advice`` (13 tiles) and the 14-tile call's searches of a 13-tile
hand ask it before they search: the same answer as the bounded search (the differential
tests: tests/test_panjin_table.py), in one merge. A hand it does not cover — melds, three
or more jokers, a unit of eight tiles or more, the mode "both", 七对 with its option (the
Python path), no file — is searched as before.

:func:`table_standard` is the table's Python twin: the same rows from the Python search with
no bound (:func:`webcalc.variants.panjin_draws.unit_panjin_drawn`), merged by
:func:`webcalc.variants.panjin_merge._merge_drawn` and read by
:func:`webcalc.variants.panjin_draws._drawn_best`.
"""

from __future__ import annotations

import os
import struct
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..shanten import INF, UNITS
from ..tiles import ALL_TILES
from ..wildcards import PANJIN, step

#: where ``make`` writes the table and :mod:`webcalc.compiled` looks for it
TABLE_PATH = Path(__file__).resolve().parent.parent / "_pjunit_rows.bin"
#: the file's header (panjin_table.c PjtHeader): magic, format, tiles, keys of the two unit
#: kinds, rows, checksum
HEADER = struct.Struct("=8s6I")
MAGIC = b"PJROWS\x00\x01"
FORMAT = 3
TILES = 7
#: keys a build process takes at a time
CHUNK = 2000
#: keys :func:`load` searches again and compares, spread over the file: a table left from
#: another build of the searches is refused, not read
SPOT_CHECKS = 12


def _pjunit() -> Any:
    from ..compiled import pjunit
    if pjunit is None:
        raise RuntimeError("the rows table needs the compiled part (webcalc._pjunit)")
    return pjunit


def _chunk(job: tuple[bool, int, int]) -> tuple[bytes, bytes, bytes]:
    honors, first, last = job
    out: tuple[bytes, bytes, bytes] = _pjunit().rows_table_chunk(honors, first, last)
    return out


def build(path: Path = TABLE_PATH, jobs: int | None = None, quiet: bool = False) -> dict[str, Any]:
    """Search every key's rows and write the table to ``path`` (atomically: a reader sees the
    old file or the new one). ``jobs``: processes (default: the CPUs). Returns what it
    wrote: keys, rows, bytes, seconds."""
    pj = _pjunit()
    start = time.monotonic()
    keys = [pj.rows_table_keys(False), pj.rows_table_keys(True)]
    todo = [(h == 1, a, min(a + CHUNK, keys[h])) for h in (0, 1) for a in range(0, keys[h], CHUNK)]
    jobs = jobs or os.cpu_count() or 1
    if jobs > 1:
        import multiprocessing
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            parts = pool.map(_chunk, todo, chunksize=1)
    else:
        parts = [_chunk(job) for job in todo]
    body = bytearray()
    rel = bytearray()
    rows = bytearray()
    at = 0
    for h in (0, 1):
        # each kind's offsets into the one row array, and its closing offset
        for (honors, _, _), (chunk_rows, counts, chunk_rel) in zip(todo, parts):
            if honors != (h == 1):
                continue
            for (n,) in struct.iter_unpack("=I", counts):
                body += struct.pack("=I", at)
                at += n
            rows += chunk_rows
            rel += chunk_rel
        body += struct.pack("=I", at)
    body += rel
    body += rows
    check = pj.rows_table_fnv(bytes(body))
    header = HEADER.pack(MAGIC, FORMAT, TILES, keys[0], keys[1], at, check)
    tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
    with open(tmp, "wb") as fh:
        fh.write(header)
        fh.write(body)
    os.replace(tmp, path)
    size, seconds = len(header) + len(body), round(time.monotonic() - start, 1)
    if not quiet:
        print(f"{path}: {keys[0]:,} suit keys, {keys[1]:,} honours' keys, {at:,} rows, "
              f"{size / 1e6:.1f} MB, {seconds} s ({jobs} processes)")
    return {"keys": keys, "rows": at, "bytes": size, "seconds": seconds}


def load(path: Path = TABLE_PATH, check: int = SPOT_CHECKS) -> tuple[int, int, int] | None:
    """Map the table at ``path`` for the compiled searches: ``(suit keys, honours' keys,
    rows)``, or ``None`` (and no table: the searches answer) when there is no file, no
    compiled part, ``WEBCALC_PJ_TABLE=off``, a file older than the compiled part, or one the
    compiled part refuses (another format, a damaged one) or whose rows differ from a fresh
    search of ``check`` keys."""
    from ..compiled import pjunit as pj
    if pj is None or os.environ.get("WEBCALC_PJ_TABLE", "") == "off" or not path.exists():
        return None
    if path.stat().st_mtime < Path(pj.__file__).stat().st_mtime:
        return None                   # built from an older compiled part: build it again
    try:
        info: tuple[int, int, int] = pj.rows_table(str(path))
    except (OSError, ValueError):
        return None
    for i in range(check):
        honors = bool(i % 2)
        key = (info[1 if honors else 0] - 1) * (i // 2 + 1) // (check // 2 + 1)
        rows, rel = pj.rows_table_rows(honors, key)
        fresh = pj.rows_table_chunk(honors, key, key + 1)
        if rows != fresh[0] or rel != fresh[2]:
            pj.rows_table(None)
            return None
    return info


def unload() -> None:
    """No table: the compiled searches search every hand (tests, benchmarks)."""
    from ..compiled import pjunit as pj
    if pj is not None:
        pj.rows_table(None)


def table_standard(real: Sequence[int], caps: Sequence[int], jokers: int, max_x: int,
                   groups: int, suits0: int, want: int, allowed: int,
                   need_real: bool) -> tuple[int, int, bool] | None | bool:
    """The Python twin of the compiled ``rows_table_answer`` (panjin_table.c
    ``pjt_standard``): ``(d, drawn kinds, a wildcard draw lowers it)`` of the hand with no
    limit, ``None`` when no target exists, ``False`` when the table does not cover the hand.
    The same arguments as ``standard_drawn`` less ``min_jokers`` (the jokers), ``limit``
    and ``rest``; ``allowed`` a bit set of suit counts."""
    from .panjin_draws import _drawn_best, unit_panjin_drawn
    from .panjin_merge import _merge_drawn
    if not _covered(real, caps, jokers, max_x, groups, suits0, want):
        return False
    rows = [unit_panjin_drawn(tuple(real[a:b]), tuple(caps[a:b]), a, honors, max_x, INF,
                              jokers) for a, b, honors in UNITS]
    acc: dict[Any, Any] = {(0, 0, 0, 0, 0): (0, 0)}
    for ui, (_, _, honors) in enumerate(UNITS):
        acc = _merge_drawn(acc, rows[ui], groups, max_x, jokers, INF, not honors, want, 0)
    found = _drawn_best([(r, x, m, False) for (g, p, x, n, f), (r, m) in acc.items()
                         if g == groups and p == 1 and x >= jokers and allowed >> n & 1
                         and f & want == want], jokers, need_real, INF)
    return found


def _next_of(start: int, i: int) -> int:
    """The wildcard (mode "next", :data:`webcalc.wildcards.PANJIN`'s cycle) of an indicator
    at ``i`` in the unit whose first kind is ``start``, as an index in that unit."""
    return int(step(ALL_TILES[start + i], PANJIN, 1)) - start


def _covered(real: Sequence[int], caps: Sequence[int], jokers: int, max_x: int, groups: int,
             suits0: int, want: int) -> bool:
    """Whether the table holds the hand's four units (panjin_table.c ``key_of``)."""
    if groups != 4 or suits0 or want & ~14:
        return False
    if not ((max_x == 4 and 0 <= jokers <= 2) or (max_x == 0 and jokers == 0)):
        return False
    for a, b, _ in UNITS:
        if sum(real[a:b]) > TILES:
            return False
        odd = [(i, c) for i, c in enumerate(caps[a:b]) if c != 4]
        if not odd:
            continue
        threes = [i for i, c in odd if c == 3]
        zeros = [i for i, c in odd if c == 0]
        if (len(odd) != 2 or len(threes) != 1 or len(zeros) != 1 or max_x == 0
                or zeros[0] != _next_of(a, threes[0])
                or real[a + threes[0]] > 3 or real[a + zeros[0]]):
            return False
    return True


