"""A deliberately simple reference for the engine's win test, written for the tests only.

It knows nothing of the engine's tables or pruning: it tries every substitution of the
wildcard tiles (each becomes one of the 34 kinds, or stays itself), then splits the plain
tiles into melds by brute force. Slow, obvious, and independent of webcalc.decompose.
:func:`ref_win` / :func:`ref_waits` cover every variant with any number of
wildcards, melds of every type (晋城's 拾/搶 too), every 盘锦 option and 断门, and the win
method asked for the waits.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations_with_replacement

ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


def _seq_ok(k: int) -> bool:
    return k < 27 and k % 9 <= 6


@cache
def _splits(real: tuple, joker: tuple, melds: int, pair: int, jokers_in_triplets: bool) -> frozenset:
    """All (has_real_triplet_or_honor_pair, has_sequence) flag pairs over every way to split
    the tiles — ``real[k]`` plain copies and ``joker[k]`` jokers playing kind k."""
    total = [r + j for r, j in zip(real, joker)]
    k = next((i for i in range(34) if total[i]), None)
    if k is None:
        return frozenset({(False, False)}) if melds == 0 and pair == 0 else frozenset()
    out = set()

    def take(kind, n_real, n_joker):
        r, j = list(real), list(joker)
        r[kind] -= n_real
        j[kind] -= n_joker
        return r, j

    def ways(kind, n):
        """(real, joker) splits of n copies of kind."""
        return [(a, n - a) for a in range(n + 1) if a <= real[kind] and n - a <= joker[kind]]

    if pair:
        for a, b in ways(k, 2):
            r, j = take(k, a, b)
            honor_pair = b == 0 and k >= 27
            for t, s in _splits(tuple(r), tuple(j), melds, 0, jokers_in_triplets):
                out.add((t or honor_pair, s))
    if melds:
        for a, b in ways(k, 3):
            if b and not jokers_in_triplets:
                continue
            r, j = take(k, a, b)
            for t, s in _splits(tuple(r), tuple(j), melds - 1, pair, jokers_in_triplets):
                out.add((t or b == 0, s))
        if _seq_ok(k):
            for a0, b0 in ways(k, 1):
                for a1, b1 in ways(k + 1, 1):
                    for a2, b2 in ways(k + 2, 1):
                        r, j = list(real), list(joker)
                        for kind, a, b in ((k, a0, b0), (k + 1, a1, b1), (k + 2, a2, b2)):
                            r[kind] -= a
                            j[kind] -= b
                        for t, _s in _splits(tuple(r), tuple(j), melds - 1, pair, jokers_in_triplets):
                            out.add((t, True))
    return frozenset(out)


def standard_flags(concealed: list[int], wildcards: set[int], melds: int,
                   jokers_in_triplets: bool = True) -> set:
    """Flags of every standard split of ``concealed`` (tile indexes) with ``melds`` declared
    melds, over every substitution of the wildcard tiles."""
    plain = [0] * 34
    n_wild = 0
    for t in concealed:
        if t in wildcards:
            n_wild += 1
        else:
            plain[t] += 1
    need = 4 - melds
    if sum(plain) + n_wild != 3 * need + 2:
        return set()
    flags = set()
    for sub in combinations_with_replacement(range(34), n_wild):
        joker = [0] * 34
        for t in sub:
            joker[t] += 1
        flags |= _splits(tuple(plain), tuple(joker), need, 1, jokers_in_triplets)
    return flags


def seven_pairs(concealed: list[int], wildcards: set[int] = frozenset(), stand_in: bool = False) -> bool:
    if len(concealed) != 14:
        return False
    counts = [0] * 34
    for t in concealed:
        if not (stand_in and t in wildcards):
            counts[t] += 1
    odd = sum(c % 2 for c in counts)
    spare = 14 - sum(counts)
    return odd <= spare


def ref_is_win(variant: str, concealed: list[int], melds: list[tuple[str, list[int]]],
               wildcards: set[int], opts: dict, duanmen: bool = False) -> bool:
    """The reference verdict on a 14-tile hand, read straight from RULES.md."""
    counts = [concealed.count(k) for k in range(34)]
    nm = len(melds)
    if variant in ("sanmenxia", "zhengzhou"):
        if any(counts[w] == 4 for w in wildcards):                      # 四混
            return True
        if nm == 0 and seven_pairs(concealed):                           # 七对, as themselves
            return True
        if variant == "sanmenxia" and nm == 0 and _knitted(counts):
            return True
        return bool(standard_flags(concealed, wildcards, nm))
    if variant == "jincheng":
        if nm == 0 and (seven_pairs(concealed) or (
                all(counts[k] for k in ORPHANS) and sum(counts[k] for k in ORPHANS) == 14)):
            return True
        return bool(standard_flags(concealed, set(), nm))
    # panjin
    real = [t for t in concealed if t not in wildcards] + [t for _, ts in melds for t in ts
                                                            if t not in wildcards]
    suits = {t // 9 for t in real if t < 27}
    allowed = {2} if duanmen else {3}
    if opts.get("one_suit"):
        allowed.add(1)
    if len(suits) not in allowed or not any(t in ORPHANS for t in real):
        return False
    if opts.get("seven_pairs") and nm == 0 and seven_pairs(concealed, wildcards, True):
        return True
    meld_triplet = any(kind != "chow" and ts[0] not in wildcards for kind, ts in melds)
    meld_seq = any(kind == "chow" for kind, _ in melds)
    for trip, seq in standard_flags(concealed, wildcards, nm, jokers_in_triplets=False):
        trip, seq = trip or meld_triplet, seq or meld_seq
        if not trip:
            continue
        if seq and nm == 4:
            continue                                   # 手把一 only as 飘胡
        if seq or opts.get("piaohu"):
            return True
    return False


def _knitted(counts):
    if sum(counts) != 14 or max(counts) > 1 or sum(counts[27:]) != 5:
        return False
    runs = []
    for s in range(3):
        ranks = tuple(r for r in range(9) if counts[s * 9 + r])
        if ranks not in ((0, 3, 6), (1, 4, 7), (2, 5, 8)):
            return False
        runs.append(ranks)
    return len(set(runs)) == 3


# -- a second, joker-counting reference for many wildcards ----------------------
# Trying every substitution is hopeless with 8 wildcards (34^8), so this one keeps the
# wildcards as a count and splits by plain recursion on the lowest real tile. It shares no
# code with webcalc (neither the unit tables nor the decomposer).

@cache
def _joker_splits(real: tuple, jokers: int, melds: int, pair: int, in_triplet: bool) -> frozenset:
    k = next((i for i in range(34) if real[i]), None)
    if k is None:
        if jokers != 3 * melds + 2 * pair:
            return frozenset()
        # leftover jokers: free melds (sequences when they may not make triplets) and pair
        return frozenset({(False, melds > 0 and not in_triplet)})
    out = set()

    def rec(r, j, m, p, trip, seq):
        if j < 0 or m < 0 or p < 0:
            return
        for t, s in _joker_splits(tuple(r), j, m, p, in_triplet):
            out.add((t or trip, s or seq))

    c = real[k]
    r = list(real)
    if pair:
        for n_real in (2, 1):
            if c >= n_real:
                r2 = list(r)
                r2[k] -= n_real
                rec(r2, jokers - (2 - n_real), melds, pair - 1, n_real == 2 and k >= 27, False)
    for n_real in (3, 2, 1):
        if c >= n_real and (n_real == 3 or in_triplet):
            r2 = list(r)
            r2[k] -= n_real
            rec(r2, jokers - (3 - n_real), melds - 1, pair, n_real == 3, False)
    if k < 27:
        suit_lo, suit_hi = (k // 9) * 9, (k // 9) * 9 + 8
        for a in (k - 2, k - 1, k):
            if a < suit_lo or a + 2 > suit_hi:
                continue
            # k itself is real; lower places must be jokers; higher places real or joker
            higher = [x for x in (a, a + 1, a + 2) if x > k]
            lower = [x for x in (a, a + 1, a + 2) if x < k]
            for use in range(1 << len(higher)):
                r2 = list(r)
                r2[k] -= 1
                j = jokers - len(lower)
                ok = True
                for bit, x in enumerate(higher):
                    if use >> bit & 1:
                        if r2[x] == 0:
                            ok = False
                        r2[x] -= 1
                    else:
                        j -= 1
                if ok:
                    rec(r2, j, melds - 1, pair, False, True)
    return frozenset(out)


def ref_is_win_many(variant: str, concealed: list[int], melds: list[tuple[str, list[int]]],
                    wildcards: set[int], opts: dict) -> bool:
    """:func:`ref_is_win` for any number of wildcards, by the joker-counting splitter."""
    real = [0] * 34
    n_wild = 0
    for t in concealed:
        if t in wildcards:
            n_wild += 1
        else:
            real[t] += 1
    nm = len(melds)
    need = 4 - nm
    counts = [concealed.count(k) for k in range(34)]
    in_triplet = variant != "panjin"
    flags = set()
    if sum(real) + n_wild == 3 * need + 2:
        flags = set(_joker_splits(tuple(real), n_wild, need, 1, in_triplet))
    if variant in ("sanmenxia", "zhengzhou"):
        return bool(any(counts[w] == 4 for w in wildcards) or flags
                    or (nm == 0 and seven_pairs(concealed))
                    or (variant == "sanmenxia" and nm == 0 and _knitted(counts)))
    if variant == "jincheng":
        return ref_is_win(variant, concealed, melds, wildcards, opts)
    real_all = [t for t in concealed if t not in wildcards] + [
        t for _, ts in melds for t in ts if t not in wildcards]
    suits = {t // 9 for t in real_all if t < 27}
    allowed = {3} | ({1} if opts.get("one_suit") else set())
    if len(suits) not in allowed or not any(t in ORPHANS for t in real_all):
        return False
    if opts.get("seven_pairs") and nm == 0 and seven_pairs(concealed, wildcards, True):
        return True
    meld_trip = any(kind != "chow" and ts[0] not in wildcards for kind, ts in melds)
    meld_seq = any(kind == "chow" for kind, _ in melds)
    for trip, seq in flags:
        trip, seq = trip or meld_trip, seq or meld_seq
        if trip and not (seq and nm == 4) and (seq or opts.get("piaohu")):
            return True
    return False


# -- the whole of RULES.md's win test, any melds -------------------------------
# Every variant, 0 or more wildcards, declared melds of every type (晋城's 拾/搶 too), every
# 盘锦 option and the dealer's 断门. Built on the joker-counting splitter above; it shares no
# code with webcalc.

TAKEN = ("shi", "qiang")


def _frozen_orphans(concealed: list[int], taken: list[int]) -> bool:
    """JC-10: 十三幺 whose 拾/搶 tiles count toward the thirteen kinds, never the pair."""
    if len(concealed) + len(taken) != 14 or any(t not in ORPHANS for t in concealed):
        return False
    pairs = 0
    for k in ORPHANS:
        held = concealed.count(k) + taken.count(k)
        if held == 0 or held > 2:
            return False
        if held == 2:
            if concealed.count(k) != 2:
                return False                     # a frozen tile is never the pair
            pairs += 1
    return pairs == 1


def ref_win(variant: str, concealed: list[int], melds: list[tuple[str, list[int]]],
            wildcards: set[int], opts: dict, duanmen: bool = False) -> bool:
    """The reference verdict on a 14-tile hand (C-3: a 拾/搶 tile counts one), read
    straight from RULES.md: C-4, C-5, C-8, SMX-3, ZZ-3, PJ-2..PJ-8, JC-2, JC-10."""
    taken = [ts[0] for kind, ts in melds if kind in TAKEN]
    if taken:
        return variant == "jincheng" and len(taken) == len(melds) and _frozen_orphans(
            sorted(concealed), taken)
    counts = [concealed.count(k) for k in range(34)]
    real = [0] * 34
    n_wild = 0
    for t in concealed:
        if t in wildcards:
            n_wild += 1
        else:
            real[t] += 1
    nm = len(melds)
    need = 4 - nm
    flags: set = set()
    if need >= 0 and sum(real) + n_wild == 3 * need + 2:
        flags = set(_joker_splits(tuple(real), n_wild, need, 1, variant != "panjin"))
    if variant in ("sanmenxia", "zhengzhou"):
        return bool(any(counts[w] == 4 for w in wildcards) or flags
                    or (nm == 0 and seven_pairs(concealed))
                    or (variant == "sanmenxia" and nm == 0 and _knitted(counts)))
    if variant == "jincheng":
        return bool(flags or (nm == 0 and (seven_pairs(concealed) or _frozen_orphans(
            sorted(concealed), []))))
    real_all = [t for t in concealed if t not in wildcards] + [
        t for _, ts in melds for t in ts if t not in wildcards]
    suits = {t // 9 for t in real_all if t < 27}                           # PJ-4
    allowed = {2} if duanmen else {3}
    if opts.get("one_suit"):
        allowed.add(1)
    if len(suits) not in allowed or not any(t in ORPHANS for t in real_all):  # PJ-5
        return False
    if opts.get("seven_pairs") and nm == 0 and seven_pairs(concealed, wildcards, True):
        return True                                                        # PJ-8
    meld_trip = any(kind != "chow" and not set(ts) & wildcards for kind, ts in melds)
    meld_seq = any(kind == "chow" for kind, _ in melds)
    for trip, seq in flags:
        trip, seq = trip or meld_trip, seq or meld_seq
        if trip and not (seq and nm == 4) and (seq or opts.get("piaohu")):   # PJ-6, PJ-7
            return True
    return False


def ref_waits(variant: str, concealed: list[int], melds: list[tuple[str, list[int]]],
              wildcards: set[int], opts: dict, indicator: int | None = None,
              win_by: str = "self_draw", duanmen: bool = False) -> set[int]:
    """C-9: the kinds that complete the 13 tiles by ``win_by`` and have a live copy left;
    in 盘锦 no wildcard kind for a discard win (PJ-2)."""
    held = list(concealed) + [t for _, ts in melds for t in ts]
    out = set()
    for k in range(34):
        if held.count(k) + (k == indicator) >= 4:
            continue
        if variant == "panjin" and win_by == "discard" and k in wildcards:
            continue
        if ref_win(variant, sorted(concealed + [k]), melds, wildcards, opts, duanmen):
            out.add(k)
    return out


def ref_has_shape(concealed: list[int], melds: list[tuple[str, list[int]]],
                  wildcards: set[int]) -> bool:
    """Whether 14 tiles have a winning shape at all, whatever a variant's own rules say:
    four melds and a pair with the wildcards anywhere, or seven pairs with them standing in
    (API ``reasons`` appear only then)."""
    real = [0] * 34
    n_wild = 0
    for t in concealed:
        if t in wildcards:
            n_wild += 1
        else:
            real[t] += 1
    need = 4 - len(melds)
    if need >= 0 and sum(real) + n_wild == 3 * need + 2 and _joker_splits(
            tuple(real), n_wild, need, 1, True):
        return True
    return not melds and seven_pairs(concealed, wildcards, True)


@cache
def _jia_splits(real: tuple, jokers: int, melds: int, pair: int, mid: int) -> frozenset:
    """:func:`_joker_splits` for 盘锦 (no joker in a triplet) with a third flag: some
    concealed sequence has the real tile ``mid`` as its middle (PJ-10 夹胡)."""
    k = next((i for i in range(34) if real[i]), None)
    if k is None:
        if jokers != 3 * melds + 2 * pair:
            return frozenset()
        return frozenset({(False, melds > 0, False)})
    out = set()

    def rec(r, j, m, p, trip, seq, jia):
        if j < 0 or m < 0 or p < 0:
            return
        for t, s, x in _jia_splits(tuple(r), j, m, p, mid):
            out.add((t or trip, s or seq, x or jia))

    c = real[k]
    if pair:
        for n_real in (2, 1):
            if c >= n_real:
                r2 = list(real)
                r2[k] -= n_real
                rec(r2, jokers - (2 - n_real), melds, pair - 1, n_real == 2 and k >= 27,
                    False, False)
    if c >= 3:
        r2 = list(real)
        r2[k] -= 3
        rec(r2, jokers, melds - 1, pair, True, False, False)
    if k < 27:
        lo, hi = (k // 9) * 9, (k // 9) * 9 + 8
        for a in (k - 2, k - 1, k):
            if a < lo or a + 2 > hi:
                continue
            higher = [x for x in (a, a + 1, a + 2) if x > k]
            lower = [x for x in (a, a + 1, a + 2) if x < k]
            for use in range(1 << len(higher)):
                r2 = list(real)
                r2[k] -= 1
                j = jokers - len(lower)
                ok = True
                middle_real = a + 1 == k
                for bit, x in enumerate(higher):
                    if use >> bit & 1:
                        if r2[x] == 0:
                            ok = False
                        r2[x] -= 1
                        middle_real = middle_real or x == a + 1
                    else:
                        j -= 1
                if ok:
                    rec(r2, j, melds - 1, pair, False, True, middle_real and a + 1 == mid)
    return frozenset(out)


def ref_jiahu(concealed: list[int], melds: list[tuple[str, list[int]]], wildcards: set[int],
              opts: dict, winning: int, indicator: int | None, duanmen: bool = False) -> bool:
    """PJ-10 夹胡 of a 14-tile 盘锦 win with ``piaohu`` and ``seven_pairs`` off (so every
    legal reading has a sequence and the one with 夹 scores best): the winning tile is real,
    the 13 tiles before waited on it alone (C-9, wildcard kinds left out), and some legal
    reading has a concealed sequence with the winning tile, real, in the middle."""
    if winning in wildcards:
        return False
    before = list(concealed)
    before.remove(winning)
    others = ref_waits("panjin", before, melds, wildcards, opts, indicator, "self_draw",
                       duanmen) - set(wildcards)
    if others != {winning}:
        return False
    real = [0] * 34
    for t in concealed:
        if t not in wildcards:
            real[t] += 1
    n_wild = len(concealed) - sum(real)
    meld_trip = any(kind != "chow" and not set(ts) & wildcards for kind, ts in melds)
    meld_seq = any(kind == "chow" for kind, _ in melds)
    for trip, seq, jia in _jia_splits(tuple(real), n_wild, 4 - len(melds), 1, winning):
        if jia and (trip or meld_trip) and (seq or meld_seq) and len(melds) < 4:
            return True
    return False
