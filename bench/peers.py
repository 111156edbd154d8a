"""The PyPI peers doing the job ``analyze()`` does on a wildcard-free hand (bench/bench.py).

The job, per hand:

* 13 tiles: the complete check (a 13-tile hand never is: nothing to compute, on any side),
  the shanten, the useful tiles (every kind a draw of which lowers the shanten and of
  which a copy is left: the hand holds fewer than 4) and the waits (the useful tiles of a
  ready hand: the kinds that complete it);
* 14 tiles: the complete check, the hand's shanten, and for every distinct discard the
  shanten of the 13 tiles left and their useful tiles (what ``efficiency`` lists).

Each peer is used in its own fastest way that gives exactly these answers:

* ``mahjong`` (pure Python): :meth:`mahjong.shanten.Shanten.calculate_shanten` on a
  34-count array, changed in place for each draw and discard (it copies what it keeps).
* ``riichienv`` (Rust): ``riichienv.calculate_shanten`` on a list of 136-tile ids, one
  appended and popped per draw. Its Python API has no useful-tile or per-discard call
  (``HandEvaluator.get_waits`` gives a ready hand's waits, which the useful tiles of a
  ready hand already are; the ``Observation`` encoders need a running game), so the draws
  are tried one by one.

Neither peer has a call that lists the useful tiles, so both composites try the draws
that can matter, and only those (the same for both peers):

* every held kind and every suited kind within two of a held tile of its suit, one by one;
* every other kind is *far*: a draw of it forms no pair, sequence or partial sequence
  with the hand, so for the standard shape one far kind is as good as any other, for
  seven pairs it is a new kind like any other, and for thirteen orphans only whether it is
  a terminal/honor matters. One far terminal/honor and one far simple tile are tried, and
  each answers for its whole class. (A far tile can be useful: 1111m234p567p789s is
  1-shanten, its lone 1m having no copy left, and any far draw makes it ready.)

For 14 tiles, drawing back the kind just discarded gives the 14-tile hand itself, whose
shanten is already known: that draw needs no call. (Measured against trying all 34 draws,
on a loaded machine: ``mahjong`` takes about 30 % less CPU on 13 tiles and 20 % less on 14;
riichienv, whose call costs about what the Python around it does, the same on 13 tiles
and about 25 % less on 14.)

Inputs are each package's own form (a 34-count list for ``mahjong``, 136-tile ids for
``riichienv``, the API request for ``analyze()``), built before the clock starts; the
riichienv composite derives its counts from the ids inside the timed call.
"""

from __future__ import annotations

YAOCHU = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
SIMPLES = tuple(k for k in range(27) if k not in YAOCHU)
#: the kinds a held tile of kind k makes "near" (its own kind; in a suit, within two)
NEAR = tuple(tuple(range(max(k - k % 9, k - 2), min(k - k % 9 + 9, k + 3))) if k < 27
             else (k,) for k in range(34))
FAR_CLASSES = (YAOCHU, SIMPLES)         # each far class has one representative tried


def near_kinds(held):
    """The kinds near the held kinds ``held`` (see the module doc)."""
    near = set()
    for k in held:
        near.update(NEAR[k])
    return near


def counts(tiles):
    c = [0] * 34
    for t in tiles:
        c[t] += 1
    return c


def ids136(tiles):
    """136-tile ids: the copies of kind k are 4k, 4k+1, … in the order met."""
    c = [0] * 34
    out = []
    for t in tiles:
        out.append(4 * t + c[t])
        c[t] += 1
    return out


def seven_pairs_c5(c):
    """Shanten of the seven-pairs shape when four of a kind counts as two pairs (RULES C-5;
    riichi's chiitoitsu wants seven distinct kinds): the seven cheapest pair slots, a kind
    giving a second slot at four copies."""
    slots = []
    for n in c:
        slots.append(2 - n if n < 2 else 0)
        slots.append(4 - n if n > 2 else 2)
    slots.sort()
    return sum(slots[:7]) - 1


def mahjong_composites(c5: bool = False):
    """``(job13, job14)`` built on ``mahjong``, or None when it is not installed.

    ``job13(c) -> (shanten, useful, waits)``; ``job14(c) -> (complete, shanten,
    {discard: (shanten, useful)})``; ``c`` a 34-count list (restored on return).

    ``c5``: not a peer's job but the check's reference — riichi's shapes with 七对 as
    webcalc reads it (C-5, :func:`seven_pairs_c5`), to tell that rule from a real
    disagreement."""
    try:
        from mahjong.shanten import Shanten
    except ImportError:
        return None
    if c5:
        def sh(c, _sh=Shanten.calculate_shanten):
            return min(_sh(c, use_chiitoitsu=False), seven_pairs_c5(c))
    else:
        sh = Shanten.calculate_shanten        # regular, 七对 and 十三幺: the riichi shapes

    def job13(c):
        s = sh(c)
        near = near_kinds([k for k in range(34) if c[k]])
        useful = []
        for k in near:
            if c[k] < 4:
                c[k] += 1
                if sh(c) < s:
                    useful.append(k)
                c[k] -= 1
        for cls in FAR_CLASSES:
            for k in cls:
                if k not in near:          # the first far kind of the class stands for all
                    c[k] += 1
                    if sh(c) < s:
                        useful += [j for j in cls if j not in near]
                    c[k] -= 1
                    break
        return s, useful, (useful if s == 0 else [])

    def job14(c):
        s14 = sh(c)
        held = [k for k in range(34) if c[k]]
        near = near_kinds(held)
        far = [(js[0], js) for js in ([j for j in cls if j not in near] for cls in FAR_CLASSES)
               if js]
        per = {}
        for d in held:
            c[d] -= 1
            s = sh(c)
            useful = []
            for k in near:
                if k == d:                 # drawing it back: the 14-tile hand itself
                    if s14 < s:
                        useful.append(k)
                elif c[k] < 4:
                    c[k] += 1
                    if sh(c) < s:
                        useful.append(k)
                    c[k] -= 1
            for k, cls in far:
                c[k] += 1
                if sh(c) < s:
                    useful += cls
                c[k] -= 1
            c[d] += 1
            per[d] = (s, useful)
        return s14 == -1, s14, per

    return job13, job14


def riichienv_composites():
    """As :func:`mahjong_composites` on ``riichienv``; the jobs take a list of 136-tile
    ids (left as it was on return)."""
    try:
        from riichienv import calculate_shanten as sh
    except ImportError:
        return None

    def job13(t):
        c = [0] * 34
        for x in t:
            c[x >> 2] += 1
        s = sh(t)
        near = near_kinds({x >> 2 for x in t})
        useful = []
        for k in near:
            if c[k] < 4:
                t.append(4 * k + c[k])
                if sh(t) < s:
                    useful.append(k)
                t.pop()
        for cls in FAR_CLASSES:
            for k in cls:
                if k not in near:          # the first far kind of the class stands for all
                    t.append(4 * k)
                    if sh(t) < s:
                        useful += [j for j in cls if j not in near]
                    t.pop()
                    break
        return s, useful, (useful if s == 0 else [])

    def job14(t):
        c = [0] * 34
        last = {}                          # kind -> index in t of its highest id
        for i, x in enumerate(t):
            c[x >> 2] += 1
            last[x >> 2] = i
        s14 = sh(t)
        near = near_kinds(last)
        far = [(js[0], js) for js in ([j for j in cls if j not in near] for cls in FAR_CLASSES)
               if js]
        per = {}
        for d, i in last.items():
            r = t[:i] + t[i + 1:]
            c[d] -= 1
            s = sh(r)
            useful = []
            for k in near:
                if k == d:                 # drawing it back: the 14-tile hand itself
                    if s14 < s:
                        useful.append(k)
                elif c[k] < 4:
                    r.append(4 * k + c[k])
                    if sh(r) < s:
                        useful.append(k)
                    r.pop()
            for k, cls in far:
                r.append(4 * k)
                if sh(r) < s:
                    useful += cls
                r.pop()
            c[d] += 1
            per[d] = (s, useful)
        return s14 == -1, s14, per

    return job13, job14
