"""Seeded fuzzing of webcalc._pjunit with hostile arguments, run as a script in a subprocess by
tests/test_pjunit_adversarial.py (a crash shows as a negative return code there).

``python tests/pjunit_hostile_fuzz.py MODE SEED N``: MODE ``values`` calls every function N
times with wrong types, extreme ints, odd lengths and odd dict keys; MODE ``objects`` passes
objects whose ``__index__`` empties the containers being read, calls the module again
(re-entrance) or raises. Every call must return or raise ValueError, TypeError, OverflowError
or RuntimeError; a SystemError or MemoryError exits 3. Prints one summary line."""

import os
import random
import sys

# the tree this script is in, not whichever webcalc the interpreter installed (a shared
# environment's editable install may point at another checkout)
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from webcalc import _pjunit as P  # noqa: E402
from webcalc import decompose as D  # noqa: E402
from webcalc.hand import Meld  # noqa: E402
from webcalc.tiles import ALL_TILES, CODES  # noqa: E402

TILES = tuple(ALL_TILES)

EXPECTED = (ValueError, TypeError, OverflowError, RuntimeError)


def _random_counts(rng, n: int) -> list[int]:
    """``n`` tiles drawn at random as 34 counts, each at most 4."""
    counts = [0] * 34
    for _ in range(n):
        counts[rng.randrange(34)] += 1
    return [min(c, 4) for c in counts]


def values(rng, N):
    INTS = [0, 1, 2, 3, 4, 5, 9, 13, 14, 15, 31, 32, 63, 64, 99, 1000, -1, -2, -14, -100,
            2**31 - 1, -2**31, 2**31, 2**63, -2**63 - 1, 10**30]
    def i():
        return rng.choice(INTS) if rng.random() < 0.4 else rng.randint(0, 6)
    def junk():
        return rng.choice([None, "x", 1.5, [], (), {}, object(), b"ab", [1, 2], True, i()])
    def seq(maxlen=12, good=True):
        n = rng.choice([0, 1, 3, 7, 9, 9, 9, 10, 12, 100]) if not good else rng.choice([3, 7, 9, 9])
        xs = [rng.randint(0, 4) if good and rng.random() < 0.9 else i() for _ in range(n)]
        if rng.random() < 0.05: xs.append(junk())
        return rng.choice([tuple, list])(xs) if rng.random() < 0.95 else junk()
    def states():
        d = {}
        for _ in range(rng.choice([0, 1, 5, 40, 300])):
            key = (rng.randint(0, 4), rng.randint(0, 1), rng.randint(0, 40)) if rng.random() < 0.9 else (i(), i(), i())
            d[key] = rng.randint(0, 10) if rng.random() < 0.9 else i()
        if rng.random() < 0.03: d[rng.choice([None, "x", 1.5, (), b"ab", (1, 2), (1, 2, 3, 4), ("a", 0, 0)])] = 0
        if rng.random() < 0.03: d[(0, 0, 0)] = junk()
        return d if rng.random() < 0.97 else junk()
    def acc():
        d = {}
        for _ in range(rng.choice([0, 1, 5, 60])):
            k = (rng.randint(0, 4), rng.randint(0, 1), rng.randint(0, 31), rng.randint(0, 3), rng.randint(0, 31))
            if rng.random() < 0.1: k = (i(), i(), i(), i(), i())
            d[k] = (rng.randint(0, 9), rng.getrandbits(rng.choice([8, 34, 64])))
            if rng.random() < 0.03: d[k] = (i(), i())
        return d if rng.random() < 0.97 else junk()
    def table():
        rows = []
        for _ in range(rng.choice([0, 1, 5, 80])):
            r = (rng.randint(0, 4), rng.randint(0, 1), rng.randint(0, 31), rng.randint(0, 31), rng.randint(0, 9), rng.getrandbits(34))
            if rng.random() < 0.05: r = tuple(i() for _ in range(6))
            rows.append(r)
        return rows
    def b(): return rng.random() < 0.5
    def text():
        n = rng.choice([0, 1, 2, 13, 14, 40, 199, 200, 201, 1000])
        return "".join(rng.choice("0123456789" * 3 + "mpszMPSZ" * 2 + " x\0东１") for _ in range(n))
    def counts34():
        xs = [rng.choice((0, 0, 0, 1, 1, 2, 3, 4)) if rng.random() < 0.97 else i() for _ in range(rng.choice([34, 34, 34, 33, 35]))]
        return rng.choice([tuple, list])(xs) if rng.random() < 0.97 else junk()
    # complete hands' readings and codes for the listing calls (webcalc/_pjunit_listing.c),
    # some with a declared meld, 七对 and odd groups among them
    hands = []
    for h in range(40):
        hr = random.Random(h)
        w = hr.randint(0, 3)
        jokers = sorted(ALL_TILES[hr.randrange(34)] for _ in range(w))
        melds = (Meld.parse("碰555m"),) if h % 3 == 0 else ()
        counts = [0] * 34
        for _ in range(3 * (4 - len(melds)) + 2 - w):
            counts[hr.randrange(34)] += 1
        codes = P.joker_readings(tuple(counts), w, 4 - len(melds), True) if w else []
        readings = D.standard_readings(counts, jokers, melds)
        seven = D.seven_pairs_reading(counts, jokers)
        hands.append((readings + ([seven] if seven else []), [int(j) for j in jokers],
                      codes or [], tuple(D.meld_group(m) for m in melds)))
    def reading_list():
        rs, pool, _, _ = rng.choice(hands)
        rs = list(rs)
        if rng.random() < 0.1: rs.append(rng.choice([junk(), ("standard", junk()), ("standard", (junk(),)),
                                                     D.Reading("standard", (D.Group("pair", (0, 0), (True, junk())),))]))
        return rs if rng.random() < 0.97 else junk()
    calls = {
        "list_readings": lambda: (reading_list(), rng.choice(hands)[1] if rng.random() < .9 else seq(),
                                  D._LIST_STATIC if rng.random() < .9 else rng.choice([{}, {i(): junk()}, junk()]),
                                  {} if rng.random() < .95 else junk(),
                                  tuple(CODES) if rng.random() < .95 else rng.choice([tuple(CODES[:33]), list(CODES), junk()])),
        "coded_readings": lambda: ([tuple(c if rng.random() < .98 else i() for c in r) for r in rng.choice(hands)[2]] if rng.random() < .95 else junk(),
                                   D._CODED if rng.random() < .9 else rng.choice([{}, {i(): junk()}, junk()]),
                                   rng.randint(0, 33) if rng.random() < .9 else i(),
                                   rng.choice(hands)[3] if rng.random() < .95 else junk(),
                                   D.Reading if rng.random() < .95 else rng.choice([tuple, list, junk()]),
                                   "standard" if rng.random() < .95 else junk()),
        "search": lambda: (seq(), seq(), seq(), rng.choice([0, 9, 18, 27, i()]), b(), rng.randint(0, 31) if rng.random() < .9 else i(),
                           rng.randint(0, 9) if rng.random() < .9 else i(), rng.randint(0, 14) if rng.random() < .9 else i(),
                           rng.randint(0, 9) if rng.random() < .9 else i(), rng.randint(0, 4) if rng.random() < .9 else i(),
                           None if b() else tuple(rng.randint(0, 20) if rng.random() < .9 else i() for _ in range(rng.choice([10, 10, 9, 11]))),
                           tuple(rng.randint(0, 8) for _ in range(rng.choice([0, 0, 1, 3, 9, 10]))), b() and rng.random() < .3, b())
                          + ((tuple(rng.randint(0, 99) if rng.random() < .9 else i() for _ in range(rng.choice([20, 20, 19, 21]))),)
                             if rng.random() < .3 else ()),
        "suit_rests": lambda: (counts34(), rng.randint(0, 7) if rng.random() < .9 else i(),
                               rng.randint(0, 255) if rng.random() < .9 else i()),
        "merge": lambda: (acc(), table(), rng.randint(0, 4) if rng.random() < .9 else i(), rng.randint(0, 31) if rng.random() < .9 else i(),
                          rng.randint(0, 20) if rng.random() < .9 else i(), rng.randint(0, 9) if rng.random() < .9 else i(), b(),
                          rng.randint(0, 31), rng.randint(0, 40) if rng.random() < .9 else i()),
        "discards_drawn": lambda: (counts34(), [rng.choice([4, 4, 3, 0]) if rng.random() < .95 else i() for _ in range(rng.choice([34, 34, 33, 35]))],
                                   rng.randint(0, 4) if rng.random() < .9 else i(), rng.randint(0, 8) if rng.random() < .9 else i(),
                                   rng.randint(0, 4) if rng.random() < .9 else i(), rng.randint(0, 7) if rng.random() < .9 else i(),
                                   rng.randint(0, 31) if rng.random() < .9 else i(), rng.randint(0, 15) if rng.random() < .9 else i(),
                                   rng.randint(0, 4) if rng.random() < .9 else i(), rng.randint(0, 6) if rng.random() < .9 else i(), b(),
                                   [rng.randint(0, 14) if rng.random() < .95 else i() for _ in range(rng.choice([40, 40, 39, 41]))],
                                   [rng.randrange(34) if rng.random() < .9 else i() for _ in range(rng.choice([0, 1, 5, 14, 40]))]),
        "free_merge": lambda: ([[(rng.randint(0, 4), rng.randint(0, 1), rng.randint(0, 31), rng.randint(0, 14)) if rng.random() < .95 else tuple(i() for _ in range(4))
                                 for _ in range(rng.choice([0, 1, 5, 40]))] for _ in range(rng.choice([0, 1, 4, 4, 5]))] if rng.random() < .95 else junk(),
                               rng.randint(0, 4) if rng.random() < .9 else i(), rng.randint(0, 8) if rng.random() < .9 else i(),
                               rng.randint(0, 8) if rng.random() < .9 else i()),
        "standard_drawn": lambda: (counts34(), [rng.choice([4, 4, 3, 0]) if rng.random() < .95 else i() for _ in range(rng.choice([34, 34, 33, 35]))],
                                   rng.randint(0, 4) if rng.random() < .9 else i(), rng.randint(0, 8) if rng.random() < .9 else i(),
                                   rng.randint(0, 4) if rng.random() < .9 else i(), rng.randint(0, 7) if rng.random() < .9 else i(),
                                   rng.randint(0, 31) if rng.random() < .9 else i(), rng.randint(0, 15) if rng.random() < .9 else i(),
                                   rng.randint(0, 4) if rng.random() < .9 else i(), rng.randint(0, 6) if rng.random() < .9 else i(), b(),
                                   [rng.randint(0, 14) if rng.random() < .95 else i() for _ in range(rng.choice([40, 40, 39, 41]))]),
        "panjin_advice": lambda: (counts34(), [rng.choice([4, 4, 3, 0]) if rng.random() < .95 else i() for _ in range(rng.choice([34, 34, 33, 35]))],
                                  rng.randint(0, 4) if rng.random() < .9 else i(), rng.randint(0, 4) if rng.random() < .9 else i(),
                                  rng.randint(0, 4) if rng.random() < .9 else i(), rng.randint(0, 63) if rng.random() < .9 else i(),
                                  rng.randint(0, 15) if rng.random() < .9 else i(), b(), b(), b() and rng.random() < .3,
                                  tuple(rng.randrange(34) if rng.random() < .9 else i() for _ in range(rng.choice([0, 1, 2, 40]))),
                                  counts34(), rng.randint(-1, 33) if rng.random() < .9 else i(),
                                  counts34() if rng.random() < .5 else (), rng.choice([27, 34, 34]) if rng.random() < .9 else i(), b()),
        # the 14-tile call takes the 13-tile one's arguments but the last
        "panjin_advice14": lambda: calls["panjin_advice"]()[:-1],
        "plain_hand": lambda: (text() if rng.random() < .95 else junk(),
                               TILES if rng.random() < .9 else rng.choice([TILES[:33], TILES + (0,), list(TILES), tuple(junk() for _ in range(34)), junk()]),
                               rng.choice([27, 34, 34]) if rng.random() < .9 else i()),
        "plain_readings": lambda: (counts34() if rng.random() < .9 else [rng.choice((0, 4, 5, 14, -1, i())) for _ in range(34)],
                                   rng.randint(0, 4) if rng.random() < .9 else i()),
        "free_unit": lambda: (seq(), seq(), b()),
        "plain_unit": lambda: (seq(), seq(), b()),
        "needs": lambda: (seq(), b(), b()),
        "fold": lambda: (states(), seq(), seq(), b(), b(), rng.randint(0, 4) if rng.random() < .9 else i(), rng.randint(0, 30) if rng.random() < .9 else i(),
                         rng.randint(0, 30) if rng.random() < .9 else i(), rng.randint(0, 12) if rng.random() < .9 else i(), rng.randint(0, 14) if rng.random() < .9 else i()),
        "fold_draws": lambda: (states(), seq(), seq(), b(), b(), rng.randint(0, 4) if rng.random() < .9 else i(), rng.randint(0, 30) if rng.random() < .9 else i(),
                               rng.randint(0, 30) if rng.random() < .9 else i(), rng.randint(0, 12) if rng.random() < .9 else i(),
                               set(rng.randint(-2, 10) for _ in range(rng.randint(0, 5))) if rng.random() < .95 else junk()),
        "rest_places": lambda: tuple(tuple(rng.randint(0, 99) if rng.random() < .9 else i() for _ in range(rng.choice([10, 10, 10, 9]))) for _ in range(4)),
        "free_draws": lambda: (counts34(), tuple(rng.randrange(34) if rng.random() < .95 else i() for _ in range(rng.choice([0, 0, 3, 6, 12, 70]))),
                               rng.randint(-1, 33) if rng.random() < .9 else i(), rng.choice([27, 34, 34]) if rng.random() < .9 else i(),
                               rng.getrandbits(rng.choice([0, 3, 34, 34, 40])) if rng.random() < .9 else i(), rng.randint(0, 15) if rng.random() < .9 else i(),
                               rng.randint(0, 4) if rng.random() < .9 else i(),
                               None if b() else (tuple(rng.randrange(34) if rng.random() < .9 else i() for _ in range(rng.choice([1, 5, 14, 40]))) if rng.random() < .95 else junk())),
    }
    ok = err = 0
    for _ in range(N):
        name = rng.choice(sorted(calls))
        args = calls[name]()
        if rng.random() < 0.02:
            args = args[:-1] if rng.random() < .5 else args + (0,)
        try:
            getattr(P, name)(*args)
            ok += 1
        except EXPECTED:
            err += 1
        except (SystemError, MemoryError) as e:
            print(name, repr(args)[:500], type(e).__name__, e)
            sys.exit(3)
    print("values: returned", ok, "raised", err)


def objects(rng, N):
    containers = []
    def nested():
        f = rng.choice(["needs", "free_unit", "plain_unit", "search", "merge", "fold", "fold_draws", "rest_places", "free_draws", "panjin_advice", "panjin_advice14"])
        args = {"needs": ((1, 2, 1), False, True), "free_unit": ((1, 2, 1), (4, 4, 4), False),
                "plain_unit": ((1, 2, 1), (4, 4, 4), False),
                "search": ((1, 2, 1, 0, 0, 1, 0, 0, 2), (4,) * 9, (0,) * 9, 0, False, 8, 9, 4, 0, 4, None, (0,), False, True),
                "merge": ({(0, 0, x, 0, f): (0, 1) for x in range(3) for f in range(32)}, [(g, 0, x, f, 1, 2) for g in range(3) for x in range(4) for f in range(32)], 4, 31, 3, 20, True, 31, 20),
                "fold": ({(0, 0, q): 0 for q in range(10)}, (1, 2, 1, 0, 0, 1, 0, 0, 2), (4,) * 9, False, True, 4, 8, 8, 9, 3),
                "fold_draws": ({(0, 0, q): 0 for q in range(10)}, (1, 2, 1, 0, 0, 1, 0, 0, 2), (4,) * 9, False, True, 4, 8, 8, 9, [0, 1, 2]),
                "rest_places": ((0,) * 10,) * 4,
                "free_draws": ((1,) * 13 + (0,) * 21, (), 20, 34, 1 << 21, 3, 0, (0, 1, 2)),
                "panjin_advice": ((1,) * 13 + (0,) * 21, (4,) * 34, 0, 0, 4, 0, 8, False, False, False, (), (1,) * 13 + (0,) * 21, -1, (), 34, True),
                "panjin_advice14": ((1,) * 14 + (0,) * 20, (4,) * 34, 0, 0, 4, 0, 8, False, False, False, (), (1,) * 14 + (0,) * 20, -1, (), 34)}[f]
        try: getattr(P, f)(*args)
        except Exception: pass
    class E:
        def __init__(self, v): self.v = v
        def __index__(self):
            r = rng.random()
            if r < 0.2:
                for c in containers:
                    try: c.clear()
                    except Exception: pass
            elif r < 0.4: nested()
            elif r < 0.5: raise ValueError("boom")
            return self.v
    def ev(v): return E(v) if rng.random() < 0.2 else v
    def lst(xs):
        l = [ev(x) for x in xs]; containers.append(l); return l
    def dct(d):
        d2 = {tuple(ev(k) for k in key): (tuple(ev(x) for x in val) if isinstance(val, tuple) else ev(val)) for key, val in d.items()}
        containers.append(d2); return d2
    for _ in range(N):
        containers.clear()
        f = rng.randrange(16)
        try:
            if f == 0: P.needs(lst([rng.randint(0, 4) for _ in range(9)]), False, True)
            elif f == 1: P.free_unit(lst([rng.randint(0, 4) for _ in range(9)]), lst([4] * 9), False)
            elif f == 2: P.plain_unit(lst([rng.randint(0, 4) for _ in range(9)]), lst([4] * 9), False)
            elif f == 3: P.search(lst([rng.randint(0, 3) for _ in range(9)]), lst([4] * 9), lst([0] * 9), 0, False, 10, 9, 4, 0, 4, lst([rng.randint(0, 9) for _ in range(10)]) if rng.random() < .5 else None, lst([i for i in range(3)]), False, True)
            elif f == 4: P.merge(dct({(rng.randint(0, 2), 0, rng.randint(0, 5), 0, rng.randint(0, 31)): (rng.randint(0, 5), 3) for _ in range(40)}), lst([tuple(ev(x) for x in (rng.randint(0, 2), rng.randint(0, 1), rng.randint(0, 5), rng.randint(0, 31), 1, 7)) for _ in range(60)]), 4, 31, 3, 20, True, 31, 20)
            elif f == 5: P.fold(dct({(rng.randint(0, 4), rng.randint(0, 1), rng.randint(0, 12)): rng.randint(0, 6) for _ in range(40)}), lst([rng.randint(0, 4) for _ in range(9)]), lst([4] * 9), False, True, 4, 8, 8, 9, ev(3))
            elif f == 6: P.fold_draws(dct({(rng.randint(0, 4), rng.randint(0, 1), rng.randint(0, 12)): rng.randint(0, 6) for _ in range(40)}), lst([rng.randint(0, 4) for _ in range(9)]), lst([4] * 9), False, True, 4, 8, 8, 9, lst([0, 3, 5]))
            elif f == 9: P.discards_drawn(lst([rng.randint(0, 2) for _ in range(34)]), lst([4] * 34), ev(1), 4, 4, 0, 14, 14, 1, ev(3), False, lst([rng.randint(0, 9) for _ in range(40)]), lst([k for k in range(34) if rng.random() < .3]))
            elif f == 10: P.free_merge(lst([lst([tuple(ev(x) for x in (rng.randint(0, 4), rng.randint(0, 1), rng.randint(0, 9), rng.randint(0, 9))) for _ in range(20)]) for _ in range(4)]), 4, ev(2), 3)
            elif f == 11: P.standard_drawn(lst([rng.randint(0, 2) for _ in range(34)]), lst([4] * 34), ev(1), 4, 4, 0, 14, 14, 1, ev(3), False, lst([rng.randint(0, 9) for _ in range(40)]))
            elif f == 12: P.plain_readings(lst([rng.randint(0, 5) for _ in range(34)]), ev(rng.randint(0, 4)))
            elif f == 13: P.plain_hand(rng.choice(["123m456p789s1122z", "0555m", "1z" * 90, ""]), TILES, ev(rng.choice([27, 34])))
            elif f == 14:
                counts = _random_counts(rng, 13)
                P.panjin_advice(lst(counts), lst([4] * 34), ev(rng.randint(0, 2)), ev(rng.randint(0, 2)), ev(4), ev(0), ev(8), False, rng.random() < .3, False,
                                lst([rng.randrange(34) for _ in range(rng.choice([0, 1, 2]))]), lst(counts), ev(rng.randint(-1, 33)),
                                lst([0] * 34) if rng.random() < .5 else (), ev(34), True)
            elif f == 15:
                counts = _random_counts(rng, 14)
                P.panjin_advice14(lst(counts), lst([4] * 34), ev(rng.randint(0, 2)), ev(rng.randint(0, 2)), ev(4), ev(0), ev(8), False, rng.random() < .3, False,
                                  lst([rng.randrange(34) for _ in range(rng.choice([0, 1, 2]))]), lst(counts), ev(rng.randint(-1, 33)),
                                  lst([0] * 34) if rng.random() < .5 else (), ev(34))
            elif f == 7: P.rest_places(*(lst([rng.randint(0, 99) for _ in range(10)]) for _ in range(4)))
            else:
                counts = _random_counts(rng, 14)
                held = [k for k in range(34) if counts[k]]
                P.free_draws(lst(counts), lst([rng.randrange(34) for _ in range(rng.choice([0, 3, 6]))]), ev(rng.randint(-1, 33)), 34,
                             rng.getrandbits(34) if rng.random() < .3 else 1 << rng.randrange(34), ev(rng.randint(0, 15)), rng.randint(0, 2),
                             lst(held) if rng.random() < .5 else None)
        except EXPECTED:
            pass
    print("objects:", N, "calls")


if __name__ == "__main__":
    mode, seed, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    {"values": values, "objects": objects}[mode](random.Random(seed), n)
