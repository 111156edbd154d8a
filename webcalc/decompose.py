"""Readings (decompositions) of a hand: the one decomposer every variant shares.

Shapes (RULES C-4, C-5, C-13, and the special shapes a variant opts into):

* ``standard`` — 4 melds + 1 pair. Exposed melds count as melds; the concealed part is
  split into sequences, triplets and one pair (a kong exists only as a declared meld, C-4).
  Wildcard tiles are *jokers*: each may stand for any tile, its own face included (C-8),
  only in the concealed part. A policy decides where jokers may sit (a variant's
  :class:`JokerPolicy`: one may keep them out of triplets).
* ``seven_pairs`` — 14 concealed tiles as seven pairs, four of a kind = two pairs (C-5).
* ``four_wildcards`` (四混): here, for every variant that plays it. The shapes of one rule
  set live in its variant (``thirteen_orphans``, ``knitted``: docs/ARCHITECTURE.md "Where a
  rule lives"); this module gives them :class:`Group` and :class:`Reading`.

Listing (C-13): two readings are the same when they differ only in which copy of a tile
sits where; all wildcard tiles are interchangeable jokers, and a group made only of
jokers is one ``free`` group (3 jokers: any meld; 2: any pair).

Group kinds: ``pair``, ``sequence``, ``triplet``, ``kong``, ``free``, and for the special
shapes ``knitted`` (a 147/258/369 run of one suit) and ``single`` (a lone tile).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from .compiled import pjunit as _pjunit
from .hand import Meld
from .tables import UNITS, can_complete, unit_needs
from .tiles import ALL_TILES, CODES, NUM_KINDS, Tile

TERMINALS_AND_HONORS: tuple[int, ...] = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


class Group(NamedTuple):
    """One group of a reading (a small immutable value, cheap to build).

    Attributes:
        kind: ``pair``, ``sequence``, ``triplet``, ``kong``, ``free``, ``knitted``, ``single``.
        tiles: what each tile counts as (for ``free`` groups: the wildcard tiles themselves).
        wild: per tile, ``True`` where a wildcard tile stands in (C-8).
        exposed: ``True`` for a declared meld.
        faces: the physical tile in each place (differs from ``tiles`` only where wild).
        meld: the declared :class:`~webcalc.hand.Meld` this group is, or ``None``.
    """

    kind: str
    tiles: tuple[Tile, ...]
    wild: tuple[bool, ...]
    exposed: bool = False
    faces: tuple[Tile, ...] = ()
    meld: Meld | None = None

    @property
    def real_tiles(self) -> tuple[Tile, ...]:
        """The tiles that are not wildcards standing in."""
        return tuple(t for t, w in zip(self.tiles, self.wild) if not w)

    @property
    def has_wild(self) -> bool:
        return any(self.wild)

    def to_dict(self) -> dict[Any, Any]:
        """API form: ``{"kind", "tiles", "wild", "exposed", "faces"}`` (codes as strings),
        and for a declared meld ``"meld"``, its type (``pong`` … ``shi``, ``qiang``): a
        ``single`` group is 拾 or 搶, and only the meld says which."""
        out = {"kind": self.kind, "tiles": [CODES[t] for t in self.tiles],
               "wild": list(self.wild), "exposed": self.exposed,
               "faces": [CODES[t] for t in (self.faces or self.tiles)]}
        if self.meld is not None:
            out["meld"] = self.meld.kind
        return out


class Reading(NamedTuple):
    """A whole-hand reading: ``shape`` and its groups (concealed first, then melds)."""

    shape: str
    groups: tuple[Group, ...]

    def to_dict(self) -> dict[Any, Any]:
        return {"shape": self.shape, "groups": [g.to_dict() for g in self.groups]}

    @property
    def pair(self) -> Group | None:
        """The eyes of a standard reading (a ``pair`` or a 2-joker ``free`` group)."""
        for g in self.groups:
            if g.kind == "pair" or (g.kind == "free" and len(g.tiles) == 2):
                return g
        return None


def listed_dicts(readings: Sequence[Reading], jokers: Sequence[Tile]) -> list[dict[Any, Any]]:
    """The API form of ``readings``, the first marked ``best``: for each reading
    ``{"shape": …, "groups": […], "best": i == 0}``, each wildcard place given a physical
    wildcard tile from ``jokers`` (the hand's wildcard tiles: first one whose face equals
    what it counts as, then the rest in order), built straight from the groups (no
    intermediate :class:`Group` values: a 500-reading hand lists 200 of them).

    A group dict is shared by every listed reading that holds the same group with the same
    faces (a many-wildcard hand's 1 000 listed groups are some 40 distinct ones): one dict built, and
    the API encodes it once (:mod:`webcalc.web.json_provider`). Read them, never change
    them.

    Each group is looked at once per call (by identity: readings share their groups, see
    :func:`_coded_readings`); a reading then costs a lookup per group and a step per
    wildcard place only. Compiled (webcalc/_pjunit_listing.c ``list_readings``) for the
    readings of the groups :data:`_LIST_STATIC` knows and declared melds (every standard
    reading :func:`standard_readings` gives with the compiled part); the others (a special
    shape's, the Python twin's) through :func:`_listed_reading`, sharing the same dicts.
    tests/test_listed_dicts.py holds the two equal."""
    pool0 = sorted(jokers)
    shared: dict[Any, dict[Any, Any]] = {}      # group (and its faces) → its dict
    out: list[Any]
    if _pjunit is not None and len(pool0) <= 16:
        out = _pjunit.list_readings(readings, pool0, _LIST_STATIC, shared, CODES)
        if None not in out:
            return out
    else:
        out = [None] * len(readings)
    seen: dict[int, Any] = {}                   # id(group) → what listing needs of it
    for i, r in enumerate(readings):
        if out[i] is None:
            out[i] = _listed_reading(r, i, jokers, pool0, shared, seen)
    return out


def _listed_reading(r: Reading, i: int, jokers: Sequence[Tile], pool0: list[Tile],
                    shared: dict[Any, dict[Any, Any]], seen: dict[int, Any]) -> dict[Any, Any]:
    """:func:`listed_dicts`' dict of reading ``r``, the ``i``-th (``pool0``: the sorted
    ``jokers``; ``shared`` and ``seen``: the call's dicts and groups)."""
    groups = r.groups
    infos = []
    bare = False                                # a concealed group with a wildcard place, no faces
    for g in groups:
        info = seen.get(id(g))
        if info is None:
            info = seen[id(g)] = _list_info(g, shared)
        infos.append(info)
        if info[0] == 2 and not g.faces:
            bare = True
    if not jokers or not bare:
        dicts = []
        for g, info in zip(groups, infos):
            d = info[1]
            if d is None:
                d = shared.get(g)
                if d is None:
                    d = shared[g] = g.to_dict()
            dicts.append(d)
        return {"shape": r.shape, "groups": dicts, "best": i == 0}
    # the concealed groups with a wildcard place take faces from the pool in order
    # (first a wildcard whose face is what it counts as, then the rest in order); the
    # other concealed groups show their own tiles; the melds last
    pool = list(pool0)
    faced = []
    for info in infos:
        if info[0] != 2:
            continue
        faces = list(info[3])
        if not info[4]:                         # not free: a wildcard keeps its own face
            for idx in info[5]:
                t = info[2][idx]
                if t in pool:
                    pool.remove(t)
                    faces[idx] = t
        faced.append(faces)
    dicts = []
    k = 0
    for info in infos:
        kind = info[0]
        if kind == 0:
            dicts.append(info[1])
        elif kind == 2:
            faces = faced[k]
            k += 1
            for idx in info[5]:
                if faces[idx] is None:
                    faces[idx] = pool.pop(0)
            key: Any = (info[6], tuple(faces))
            d = shared.get(key)
            if d is None:
                face_codes = [CODES[f] for f in faces]
                d = shared[key] = {
                    "kind": info[7], "tiles": list(face_codes) if info[4] else list(info[8]),
                    "wild": list(info[9]), "exposed": False, "faces": face_codes}
            dicts.append(d)
    for info in infos:
        if info[0] == 1:
            dicts.append(info[1])
    return {"shape": r.shape, "groups": dicts, "best": i == 0}


def _list_info(g: Group, shared: dict[Any, dict[Any, Any]]) -> tuple[Any, ...]:
    """What :func:`listed_dicts` needs of a group: ``(0, its dict)`` for a concealed group
    without a wildcard place, ``(1, its dict)`` for a meld — dicts shared by equal groups —
    and for a concealed group with one ``(2, None, tiles, faces with None at the wildcard
    places, free?, the wildcard places, its key, kind, tile codes, wild flags)``: the
    groups :func:`standard_readings` shares between hands keep theirs
    (:data:`_LIST_STATIC`)."""
    static = _LIST_STATIC.get(id(g))
    if static is not None:
        if static[0] == 2:
            return static
        # shared by its id (one group per value lives as long as the module), as the
        # compiled listing shares it
        d = shared.get(id(g))
        if d is None:
            kind, tiles, wild = static[1]
            d = shared[id(g)] = {"kind": kind, "tiles": list(tiles), "wild": list(wild),
                                 "exposed": False, "faces": list(tiles)}
        return (0, d)
    if g.exposed or True not in g.wild:
        d = shared.get(g)
        if d is None:
            d = shared[g] = g.to_dict()
        return (1 if g.exposed else 0, d)
    return _wild_info(g)


def _wild_info(g: Group) -> tuple[Any, ...]:
    """:func:`_list_info` of a concealed group with a wildcard place."""
    return (2, None, g.tiles, tuple([None if w else t for t, w in zip(g.tiles, g.wild)]),
            g.kind == "free", tuple([idx for idx, w in enumerate(g.wild) if w]),
            (g.kind, g.tiles, g.wild), g.kind, tuple([CODES[t] for t in g.tiles]), g.wild)


@dataclass(frozen=True)
class JokerPolicy:
    """Where wildcard tiles may stand in, in the standard shape.

    ``in_triplet=False``: only in sequences and the pair (a variant's rule says so).
    """

    in_triplet: bool = True


FREE_JOKERS = JokerPolicy()

# An abstract group: (kind, ((tile index, is_joker), ...)) with places sorted by tile.
_AGroup = tuple[str, tuple[tuple[int, bool], ...]]


def _seq_starts(i: int) -> Iterator[int]:
    """Starts a of sequences (a, a+1, a+2) that contain suited tile i."""
    if i >= 27:
        return
    base = (i // 9) * 9
    for a in (i - 2, i - 1, i):
        if a >= base and a + 2 <= base + 8:
            yield a


def _choices(counts: Sequence[int], i: int, jokers: int, melds: int, pair: int,
             in_triplet: bool) -> Iterator[tuple[_AGroup, int]]:
    """Every group that can hold the lowest remaining real tile ``i``."""
    c = counts[i]
    if pair:
        if c >= 2:
            yield ("pair", ((i, False), (i, False))), 0
        if jokers >= 1:
            yield ("pair", ((i, False), (i, True))), 1
    if not melds:
        return
    if c >= 3:
        yield ("triplet", ((i, False),) * 3), 0
    if in_triplet:
        if c >= 2 and jokers >= 1:
            yield ("triplet", ((i, False), (i, False), (i, True))), 1
        if jokers >= 2:
            yield ("triplet", ((i, False), (i, True), (i, True))), 2
    for a in _seq_starts(i):
        # places below i are jokers (every real tile below i is used); above: real or joker
        options: list[list[tuple[int, bool]]] = []
        for k in (a, a + 1, a + 2):
            if k < i:
                options.append([(k, True)])
            elif k == i:
                options.append([(k, False)])
            else:
                opts = []
                if counts[k] >= 1:
                    opts.append((k, False))
                opts.append((k, True))
                options.append(opts)
        for p0 in options[0]:
            for p1 in options[1]:
                for p2 in options[2]:
                    need = p0[1] + p1[1] + p2[1]
                    if need <= jokers:
                        yield ("sequence", (p0, p1, p2)), need


def _apply(counts: tuple[int, ...], grp: _AGroup, jokers: int, melds: int,
           pair: int) -> tuple[tuple[int, ...], int, int, int]:
    nc = list(counts)
    nj = jokers
    for k, w in grp[1]:
        if w:
            nj -= 1
        else:
            nc[k] -= 1
            if nc[k] < 0:
                nj = -1
    if grp[0] == "pair":
        return tuple(nc), nj, melds, pair - 1
    return tuple(nc), nj, melds - 1, pair


def achievable_flags(counts: tuple[int, ...], jokers: int, melds: int, pair: int,
                     in_triplet: bool = True) -> frozenset[tuple[bool, bool]]:
    """Every ``(has_real_triplet, has_sequence)`` pair some split achieves, where a split
    is as in :func:`can_complete`. ``has_real_triplet``: a triplet of real tiles, or a pair
    of real honors; ``has_sequence``: a sequence, or a meld of jokers only when jokers
    cannot make triplets. Empty when no split exists. (The whole-hand conditions of a variant
    that asks for a triplet and a sequence read these flags.)

    Compiled (webcalc/_pjunit_flags.c, the same search in one call: a 14-tile hand's
    ``judge`` made about 35 Python calls of :func:`_achievable_flags`);
    :func:`_achievable_flags` is its Python twin, tests/test_pjunit_flags.py holds the two
    equal. Not memoised: a memo of 1,024 whole hands bought -1.6 % of ``analyze()`` on fresh
    requests when this was Python (``python bench/machinery.py --hands 60 --repeats 7``,
    2026-12-06, commit f324730, load 12-16; -0.1 % in a second run), under issue 37.2's 10 %."""
    if _pjunit is not None:
        mask: int | None = _pjunit.achievable_flags(counts, jokers, melds, pair, in_triplet)
        if mask is not None:
            return _FLAG_SETS[mask]
    return _achievable_flags(counts, jokers, melds, pair, in_triplet)


def _achievable_flags(counts: tuple[int, ...], jokers: int, melds: int, pair: int,
                      in_triplet: bool = True) -> frozenset[tuple[bool, bool]]:
    """:func:`achievable_flags` in Python: the choices for the lowest real tile
    (:func:`_choices`), each child's flags joined with the group's."""
    i = next((k for k in range(NUM_KINDS) if counts[k]), -1)
    if i < 0:
        if jokers != 3 * melds + 2 * pair:
            return frozenset()
        return frozenset({(False, melds > 0 and not in_triplet)})
    out: set[tuple[bool, bool]] = set()
    for grp, _ in _choices(counts, i, jokers, melds, pair, in_triplet):
        nc, nj, nm, np_ = _apply(counts, grp, jokers, melds, pair)
        if nj < 0:
            continue
        kind, places = grp
        real = not any(w for _, w in places)
        trip = real and (kind == "triplet" or (kind == "pair" and i >= 27))
        seq = kind == "sequence"
        for t, q in _achievable_flags(nc, nj, nm, np_, in_triplet):
            out.add((t or trip, q or seq))
        if len(out) == 4:
            break
    return frozenset(out)


#: the compiled search's 4-bit answer (bit ``trip * 2 + seq`` per pair reached) as the set
_FLAG_SETS: tuple[frozenset[tuple[bool, bool]], ...] = tuple(
    frozenset((bool(b >> 1), bool(b & 1)) for b in range(4) if m >> b & 1) for m in range(16))


def _splits(counts: tuple[int, ...], jokers: int, melds: int, pair: int, in_triplet: bool,
            floor: _AGroup | None, memo: dict[Any, Any]) -> list[tuple[tuple[int, tuple[Any, ...]], ...]]:
    """Every split, each multiset of groups once, as ``(kind order, places)`` groups: the
    groups whose lowest real tile is the same are taken in non-decreasing order (``floor``
    is the last one taken while the lowest tile was the same as now), so no split is
    produced again in another order. ``memo`` keeps each state's splits for the call: many
    choices of groups leave the same tiles, jokers and floor (about 15 times fewer states
    than paths for a one-suit hand with 4 wildcards)."""
    key = (counts, jokers, melds, pair, floor)
    out: list[tuple[tuple[int, tuple[Any, ...]], ...]] | None = memo.get(key)
    if out is not None:
        return out
    i = 0
    while i < NUM_KINDS and not counts[i]:
        i += 1
    if i == NUM_KINDS:
        out = ([((3, ((-1, True),) * 3),) * melds + ((3, ((-1, True),) * 2),) * pair]
               if jokers == 3 * melds + 2 * pair else [])
        memo[key] = out
        return out
    out = []
    # every group holding tile i lies in i's unit: the other units' jokers (tables.
    # jokers_needed's terms) are the same for every child state, summed once when needed
    others = -1
    pair_best = 2
    a, b, honors = UNITS[i // 9 if i < 27 else 3]
    for grp, need in _choices(counts, i, jokers, melds, pair, in_triplet):
        if floor is not None and grp < floor:
            continue
        nc = list(counts)
        short = False
        for k, w in grp[1]:
            if not w:
                nc[k] -= 1
                short = short or nc[k] < 0
        if short:
            continue
        nct = tuple(nc)
        nj = jokers - need
        if grp[0] == "pair":
            nm, np_ = melds, pair - 1
        else:
            nm, np_ = melds - 1, pair
        # the floor holds while tile i is still the lowest
        sub = (nct, nj, nm, np_, grp if nc[i] else None)
        rests = memo.get(sub)
        if rests is None:
            # tiles and jokers still fill the groups left exactly (each group took its
            # places): can_complete's count check holds, only the jokers are asked
            if others < 0:
                others = 0
                for a2, b2, h2 in UNITS:
                    if a2 != a:
                        n0, n1 = unit_needs(counts[a2:b2], h2, in_triplet)
                        others += n0
                        pair_best = min(pair_best, n1 - n0)
            n0, n1 = unit_needs(nct[a:b], honors, in_triplet)
            wanted = others + n0 + (min(pair_best, n1 - n0) if np_ else 0)
            rests = (_splits(nct, nj, nm, np_, in_triplet, sub[4], memo)
                     if wanted <= nj else [])
            memo[sub] = rests
        if rests:
                head = ((_ORDER[grp[0]], grp[1]),)
                out.extend([head + rest for rest in rests])
    memo[key] = out
    return out


def _plain_splits(counts: list[int], start: int, melds: int, pair: int,
                  floor: int) -> list[tuple[tuple[int, tuple[Any, ...]], ...]]:
    """:func:`_splits` of a hand without jokers (the same splits, each once, in the same
    form): the group holding the lowest tile is its pair, its triplet or the sequence it
    starts (a sequence cannot reach below it, nor a joker stand in), and the groups of one
    lowest tile are taken in non-decreasing kind order (``floor``). No state is met twice on
    one path, so nothing is memoised. ``counts`` is changed and restored; ``start``: no tile
    below it is left."""
    i = start
    while i < NUM_KINDS and not counts[i]:
        i += 1
    if i == NUM_KINDS:
        return [()] if melds == 0 and pair == 0 else []
    if i != start:
        floor = 0
    c = counts[i]
    out: list[tuple[tuple[int, tuple[Any, ...]], ...]] = []
    if pair and c >= 2 and floor <= 0:
        counts[i] = c - 2
        rests = _plain_splits(counts, i, melds, 0, 0)
        counts[i] = c
        if rests:
            head: tuple[tuple[int, tuple[Any, ...]], ...] = ((0, ((i, False), (i, False))),)
            out.extend([head + rest for rest in rests])
    if not melds:
        return out
    if (floor <= 1 and i < 27 and i % 9 < 7 and counts[i + 1] and counts[i + 2]):
        counts[i] = c - 1
        counts[i + 1] -= 1
        counts[i + 2] -= 1
        rests = _plain_splits(counts, i, melds - 1, pair, 1)
        counts[i] = c
        counts[i + 1] += 1
        counts[i + 2] += 1
        if rests:
            head = ((1, ((i, False), (i + 1, False), (i + 2, False))),)
            out.extend([head + rest for rest in rests])
    if c >= 3:
        counts[i] = c - 3
        rests = _plain_splits(counts, i, melds - 1, pair, 2)
        counts[i] = c
        if rests:
            head = ((2, ((i, False),) * 3),)
            out.extend([head + rest for rest in rests])
    return out


_ORDER = {"pair": 0, "sequence": 1, "triplet": 2, "free": 3}
_KINDS = ("pair", "sequence", "triplet", "free")


def _materialise(groups: Sequence[tuple[int, tuple[Any, ...]]], jokers: Sequence[Tile]) -> tuple[Group, ...]:
    """Build the groups of one reading from ``(kind order, places)`` pairs, giving each
    joker place a physical wildcard tile — first one whose face equals what it counts as,
    then the rest in order; deterministic."""
    pool = sorted(jokers)
    faces_of = []
    for _, places in groups:
        faces = []
        for k, w in places:
            if not w:
                faces.append(k)
            elif k >= 0 and k in pool:
                pool.remove(k)
                faces.append(k)
            else:
                faces.append(None)
        faces_of.append(faces)
    out = []
    for (order, places), faces in zip(groups, faces_of):
        for idx, f in enumerate(faces):
            if f is None:
                faces[idx] = pool.pop(0)
        face_tiles = tuple(ALL_TILES[f] for f in faces)
        kind = _KINDS[order]
        tiles = face_tiles if kind == "free" else tuple(ALL_TILES[k] for k, _ in places)
        out.append(Group(kind, tiles, tuple(w for _, w in places), False, face_tiles))
    return tuple(out)


def standard_readings(counts: Sequence[int], jokers: Sequence[Tile], melds: Sequence[Meld],
                      policy: JokerPolicy = FREE_JOKERS) -> list[Reading]:
    """Every distinct ``standard`` reading (C-4, C-8, C-13).

    Args:
        counts: 34-vector of the concealed *non-wildcard* tiles.
        jokers: the concealed wildcard tiles (any order).
        melds: the declared melds; they count toward the four melds.
        policy: where jokers may stand in.

    Returns:
        the readings in a stable order (concealed groups: pair, sequences, triplets, free;
        then the melds in the order given); empty when the hand does not fit the shape.
    """
    need = 4 - len(melds)
    key = tuple(counts)
    if need < 0 or sum(key) + len(jokers) != 3 * need + 2:
        return []
    meld_groups = tuple([meld_group(m) for m in melds]) if melds else ()
    if not jokers:
        # a split without jokers as ids (_plain_reading_ids), compiled where built: its
        # search refuses an incomplete hand as fast as can_complete would
        ids = _pjunit.plain_readings(key, need) if _pjunit is not None else None
        if ids is None:
            if not can_complete(key, 0, need, 1, policy.in_triplet):
                return []
            ids = _plain_reading_ids(key, need)
        by_id = _PLAIN_BY_ID
        return [Reading("standard", tuple([by_id[g] for g in r]) + meld_groups)
                for r in ids]
    # the compiled search answers [] for a hand that does not fit, sooner than
    # can_complete would refuse it (tests/test_pjunit_jokers.py holds it to its twin on
    # any hand); None sends the hand to the Python twin
    codes = (_pjunit.joker_readings(key, len(jokers), need, policy.in_triplet)
             if _pjunit is not None else None)
    if codes is not None:
        return _coded_readings(codes, ALL_TILES[min(jokers)], meld_groups)
    if not can_complete(key, len(jokers), need, 1, policy.in_triplet):
        return []
    splits = _splits(key, len(jokers), need, 1, policy.in_triplet, None, {})
    # each distinct group once, in order; a reading is the sorted ranks of its groups (the
    # same order as its sorted groups, compared as small numbers)
    distinct = sorted({g for groups in splits for g in groups})
    rank = {g: r for r, g in enumerate(distinct)}
    seen = {tuple(sorted([rank[g] for g in groups])) for groups in splits}
    # Groups are shared between readings; which physical wildcard sits where (faces) is
    # settled only for the readings shown (listed_dicts).
    # (a Tile whenever it is used: only a hand with jokers has ``free`` groups)
    placeholder: Any = ALL_TILES[min(jokers)] if jokers else None

    def bare(g: tuple[int, tuple[Any, ...]]) -> Group:
        order, places = g
        kind = _KINDS[order]
        tiles = ((placeholder,) * len(places) if kind == "free"
                 else tuple([ALL_TILES[k] for k, _ in places]))
        return Group(kind, tiles, tuple([w for _, w in places]))

    plain = _PLAIN_GROUPS.get
    shown = [plain(g) or bare(g) for g in distinct]
    return [Reading("standard", tuple([shown[r] for r in ranks]) + meld_groups)
            for ranks in sorted(seen)]


def _plain_groups() -> dict[tuple[int, tuple[Any, ...]], Group]:
    """Every group a split without jokers holds (34 pairs, 21 sequences, 34 triplets) as
    :func:`standard_readings` shows it, by its split form: built once, at import."""
    out = {}
    for k in range(NUM_KINDS):
        runs = [(0, (k, k)), (2, (k, k, k))]
        if k < 27 and k % 9 < 7:
            runs.append((1, (k, k + 1, k + 2)))
        for order, kinds in runs:
            out[(order, tuple((i, False) for i in kinds))] = Group(
                _KINDS[order], tuple(ALL_TILES[i] for i in kinds), (False,) * len(kinds))
    return out


#: :func:`_plain_groups`: a Group is an immutable value, so every reading shares these
_PLAIN_GROUPS = _plain_groups()
#: each of them by its id (a pair of kind k: k, a sequence from k: 34 + k, a triplet: 68 + k),
#: ids in the order of the split groups; and each id by its split group
_PLAIN_ID = {g: 34 * g[0] + g[1][0][0] for g in _PLAIN_GROUPS}
_PLAIN_BY_ID: list[Any] = [None] * 102
for _g, _i in _PLAIN_ID.items():
    _PLAIN_BY_ID[_i] = _PLAIN_GROUPS[_g]


#: what :func:`listed_dicts` needs of a group that lives as long as the module (no id is
#: reused), by its identity: ``(0, the parts of its API dict)`` (:meth:`Group.to_dict`:
#: kind, tile codes, wild flags) for these, :func:`_wild_info` for the groups with a
#: wildcard place :func:`_code_group` and :func:`_free_group` keep
_LIST_STATIC: dict[int, tuple[Any, ...]] = {
    id(g): (0, (g.kind, tuple([CODES[t] for t in g.tiles]), g.wild))
    for g in _PLAIN_GROUPS.values()}


def _plain_reading_ids(counts: Sequence[int], melds: int) -> list[tuple[int, ...]]:
    """The standard readings of concealed ``counts`` without jokers as ``melds`` groups and a
    pair: each the sorted ids (:data:`_PLAIN_ID`) of its :func:`_plain_splits` groups, the
    list sorted, each once. Ids keep the order of the groups, so this is the order
    :func:`standard_readings` gives readings with jokers too. Compiled:
    webcalc/_pjunit_rows.c ``plain_readings``, tests/test_pjunit_plain_hand.py holds the two
    equal."""
    ids = _PLAIN_ID
    return sorted({tuple(sorted([ids[g] for g in split]))
                   for split in _plain_splits(list(counts), 0, melds, 1, 0)})


def _group_code(g: tuple[int, tuple[Any, ...]]) -> int:
    """A split group ``(kind order, places)`` as one int that sorts as the groups do: each
    place ``(k, wild)`` as ``(k + 1) * 2 + wild + 1`` (1..70), the group as ``order << 21 |
    p0 << 14 | p1 << 7 | p2`` (``p2`` 0 for two places: a prefix sorts first)."""
    order, places = g
    p: list[int] = [(k + 1) * 2 + w + 1 for k, w in places] + [0]
    return order << 21 | p[0] << 14 | p[1] << 7 | p[2]


def _joker_reading_codes(counts: Sequence[int], jokers: int, melds: int,
                         in_triplet: bool) -> list[tuple[int, ...]]:
    """The standard readings of a complete hand (``counts`` real, ``jokers`` jokers, as
    ``melds`` groups and a pair): each the sorted :func:`_group_code` of its :func:`_splits`
    groups, the list sorted, each once: the order :func:`standard_readings` gives them.
    Compiled: webcalc/_pjunit_jokers.c ``joker_readings``; tests/test_pjunit_jokers.py holds
    the two equal."""
    return sorted({tuple(sorted([_group_code(g) for g in split]))
                   for split in _splits(tuple(counts), jokers, melds, 1, in_triplet, None, {})})


#: each group a code of :func:`_group_code` stands for, but ``free`` ones (their tiles are
#: a placeholder of the hand's): built as met, bounded (a few hundred groups exist)
_CODED: dict[int, Group] = {_group_code(g): grp for g, grp in _PLAIN_GROUPS.items()}


def _code_group(code: int) -> Group:
    """The Group of a non-``free`` :func:`_group_code` (as :func:`standard_readings` shows it)."""
    grp = _CODED.get(code)
    if grp is None:
        places = [p - 1 for p in (code >> 14 & 127, code >> 7 & 127, code & 127) if p]
        grp = _CODED[code] = Group(_KINDS[code >> 21],
                                   tuple([ALL_TILES[p // 2 - 1] for p in places]),
                                   tuple([bool(p & 1) for p in places]))
        _LIST_STATIC[id(grp)] = (_wild_info(grp) if True in grp.wild else
                                 (0, (grp.kind, tuple([CODES[t] for t in grp.tiles]), grp.wild)))
    return grp


#: the ``free`` groups by their placeholder tile and size: built as met (at most 68)
_FREE: dict[tuple[Tile, int], Group] = {}


def _free_group(placeholder: Tile, n: int) -> Group:
    """The ``free`` group of ``n`` jokers :func:`standard_readings` shows (its tiles the
    hand's placeholder), one value per placeholder and size; in :data:`_CODED` too, by its
    code ``| (placeholder + 1) << 28`` (the compiled ``coded_readings`` looks it up so)."""
    grp = _FREE.get((placeholder, n))
    if grp is None:
        grp = _FREE[(placeholder, n)] = Group("free", (placeholder,) * n, (True,) * n)
        _LIST_STATIC[id(grp)] = _wild_info(grp)
        code = 3 << 21 | 2 << 14 | 2 << 7 | (2 if n == 3 else 0)
        _CODED[code | (placeholder + 1) << 28] = grp
    return grp


def _coded_readings(codes: list[tuple[int, ...]], placeholder: Tile,
                    meld_groups: tuple[Group, ...]) -> list[Reading]:
    """:func:`standard_readings`' readings from :func:`_joker_reading_codes`' codes.
    Compiled (webcalc/_pjunit_listing.c ``coded_readings``: the same groups looked up in
    :data:`_CODED`) once every group the codes name has been made; until then, and without
    the compiled part, here (tests/test_pjunit_jokers.py holds the two equal)."""
    if _pjunit is not None:
        got: list[Reading] | None = _pjunit.coded_readings(codes, _CODED, placeholder,
                                                           meld_groups, Reading, "standard")
        if got is not None:
            return got
    shown: dict[int, Group] = {}
    for r in codes:
        for c in r:
            if c not in shown:
                if c >> 21 == 3:
                    shown[c] = _free_group(placeholder, 3 if c & 127 else 2)
                else:
                    shown[c] = _code_group(c)
    return [Reading("standard", tuple([shown[c] for c in r]) + meld_groups) for r in codes]


def is_standard(counts: Sequence[int], jokers: int, melds: int,
                policy: JokerPolicy = FREE_JOKERS) -> bool:
    """Whether the concealed part (``counts`` real + ``jokers``) plus ``melds`` declared
    melds make 4 melds + a pair. Cheap: memoised, no listing."""
    need = 4 - melds
    if need < 0 or sum(counts) + jokers != 3 * need + 2:
        return False
    return can_complete(counts, jokers, need, 1, policy.in_triplet)


def meld_group(m: Meld) -> Group:
    """The reading group of a declared meld (exposed; a concealed kong too, marked by
    its meld)."""
    return Group(m.group_kind, m.tiles, (False,) * len(m.tiles), True, m.tiles, m)


def seven_pairs_reading(counts: Sequence[int], jokers: Sequence[Tile] = ()) -> Reading | None:
    """The ``seven_pairs`` reading of 14 concealed tiles, or ``None`` (C-5).

    ``counts`` are the tiles that play as themselves — where 七对 is read with every tile
    as itself that is every tile, wildcards included, and ``jokers`` is empty. Where
    wildcards stand in, they are ``jokers``: each fills a lone tile's pair; two left over
    form a ``free`` pair.
    Four of a kind is two pairs.
    """
    if sum(counts) + len(jokers) != 14:
        return None
    singles = [k for k in range(NUM_KINDS) if counts[k] % 2]
    if len(singles) > len(jokers):
        return None
    groups: list[tuple[int, tuple[Any, ...]]] = []
    for k in range(NUM_KINDS):
        for _ in range(counts[k] // 2):
            groups.append((0, ((k, False), (k, False))))
        if counts[k] % 2:
            groups.append((0, ((k, False), (k, True))))
    for _ in range((len(jokers) - len(singles)) // 2):
        groups.append((3, ((-1, True),) * 2))
    return Reading("seven_pairs", _materialise(groups, jokers))


def is_seven_pairs(counts: Sequence[int], jokers: int = 0) -> bool:
    """Cheap form of :func:`seven_pairs_reading` ``is not None``."""
    if sum(counts) + jokers != 14:
        return False
    # the odd counts: 1s and 3s when no kind is held over four times (C-4), else each
    odd = (counts.count(1) + counts.count(3) if max(counts) <= 4
           else sum(map((1).__and__, counts)))
    return odd <= jokers


#: the knitted runs 147, 258, 369 (rank − 1): tile geometry for the ``knitted`` shape (the
#: shape itself is its variant's; :mod:`webcalc.efficiency` counts its distance)
KNITTED_RUNS = ((0, 3, 6), (1, 4, 7), (2, 5, 8))


def four_wildcards_reading(concealed: Sequence[Tile], wildcards: Sequence[Tile]) -> Reading | None:
    """四混, a shape the variants that play it opt into: the concealed tiles hold four
    wildcard tiles; the rest lie as single tiles. ``None`` otherwise."""
    wild = [t for t in concealed if t in wildcards]
    if len(wild) < 4:
        return None
    four = tuple(sorted(wild)[:4])
    rest = list(concealed)
    for t in four:
        rest.remove(t)
    groups = [Group("free", four, (True,) * 4, False, four)]
    groups += [Group("single", (t,), (False,), False, (t,)) for t in sorted(rest)]
    return Reading("four_wildcards", tuple(groups))


# -- waits of the special shapes (13 tiles, no melds) ----------------------------------

def seven_pairs_waits(counts: Sequence[int], jokers: int = 0) -> list[int]:
    """Kinds completing 七对 (C-5). ``jokers == 0``: every tile as itself: six pairs and
    one lone tile wait on that tile. With jokers (wildcards standing in) any kind
    whose addition leaves no more lone tiles than jokers; a wildcard kind is not listed
    here (the caller adds it when a joker more completes)."""
    if sum(counts) + jokers != 13:
        return []
    odd = [k for k in range(NUM_KINDS) if counts[k] & 1]
    if jokers == 0:
        return odd if len(odd) == 1 else []
    out = []
    for k in range(NUM_KINDS):
        after = len(odd) - 1 if counts[k] % 2 else len(odd) + 1
        if after <= jokers:
            out.append(k)
    return out
