"""Same answers before and after an engine change: ``analyze()`` on fresh random requests.

Every speed-up of the engine must leave its answers exactly as they were. This module draws
seeded random requests of all four variants — every room option drawn from its spec, 0-8
wildcards, melds (拾/搶 in 晋城), ``visible`` tiles, winning tiles, win methods, settlements,
hands complete, ready, random, of one suit and near the special shapes, and some bad input —
and reduces each answer to a digest of its exact JSON (key order kept; messages as their code
and parameters, :func:`webcalc.messages.to_json`, so a changed catalogue text does not count;
an :class:`~webcalc.errors.InputError` as its code, field and message).

* ``tests/test_engine_same_answers.py`` checks a seeded sample against the digests recorded
  from the engine before the change (``tests/answers_sample.txt``), with the compiled part and
  without it (``WEBCALC_PURE_PYTHON=1``).
* The command line does the same for larger samples::

      .venv/bin/python bench/answers.py record FILE [--count N] [--seed S]
      .venv/bin/python bench/answers.py check FILE

  ``record`` writes one line per request (its digest and its answer's); run it on the old
  engine (``--root`` another checkout), then ``check`` on the new one, with and without
  ``WEBCALC_PURE_PYTHON=1``. ``check`` names the first requests whose answers differ.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

VARIANTS = ("sanmenxia", "zhengzhou", "panjin", "jincheng")
CODES = [f"{r}{s}" for s in "mps" for r in range(1, 10)] + [f"{r}z" for r in range(1, 8)]
ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
KNITTED = ((0, 3, 6), (1, 4, 7), (2, 5, 8))


def _tiles(kinds) -> str:
    return "".join(CODES[k] for k in sorted(kinds))


def _complete(rng, groups):
    """A complete concealed part of ``groups`` groups and a pair (as kind lists)."""
    out = []
    for _ in range(groups):
        if rng.random() < 0.5:
            s = rng.randrange(3) * 9 + rng.randrange(7)
            out += [s, s + 1, s + 2]
        else:
            out += [rng.randrange(34)] * 3
    out += [rng.randrange(34)] * 2
    return out


def _one_suit(rng, n):
    s = rng.randrange(3) * 9
    return [s + rng.randrange(9) for _ in range(n)]


def _special(rng, n):
    roll = rng.random()
    if roll < 0.4:
        kinds = rng.sample(range(34), 7)
        out = [k for k in kinds for _ in range(2)]
    elif roll < 0.7:
        out = list(ORPHANS) + [rng.choice(ORPHANS)]
    else:
        perm = rng.sample(range(3), 3)
        out = [s * 9 + r for s, p in enumerate(perm) for r in KNITTED[p]]
        out += rng.sample(range(27, 34), 5)
    rng.shuffle(out)
    return out[:n]


def _options(rng, variant):
    from webcalc.options import option_specs
    from webcalc.variants import VARIANTS as V

    out = {}
    for spec in option_specs(V[variant].Options):
        if rng.random() < 0.6:
            continue
        if spec["type"] == "bool":
            out[spec["name"]] = rng.random() < 0.5
        elif spec["type"] == "choice":
            out[spec["name"]] = rng.choice([v for v, _ in spec["choices"]])
        else:
            out[spec["name"]] = rng.randint(spec.get("minimum", 0),
                                            min(spec.get("maximum", 10), 10))
    return out


def _melds(rng, variant, wild):
    """0-3 melds as API objects, and their kinds (for the copy count)."""
    kinds_out, melds = [], []
    n = rng.choice((0, 0, 0, 1, 1, 2, 3))
    for _ in range(n):
        roll = rng.random()
        if variant == "jincheng" and (roll < 0.3 or any(len(m) == 1 for m in kinds_out)):
            k = rng.choice(ORPHANS)
            if any(m == [k] for m in kinds_out):
                continue
            melds.append({"type": rng.choice(("shi", "shi", "qiang")), "tiles": CODES[k]})
            kinds_out.append([k])
            continue
        if roll < 0.35 and variant == "panjin":
            s = rng.randrange(3) * 9 + rng.randrange(7)
            ks = [s, s + 1, s + 2]
            melds.append({"type": "chow", "tiles": _tiles(ks)})
        else:
            k = rng.randrange(34)
            kind = rng.choice(("pong", "pong", "kong", "added_kong", "concealed_kong"))
            ks = [k] * (3 if kind == "pong" else 4)
            melds.append({"type": kind, "tiles": _tiles(ks)})
        if rng.random() < 0.3:
            melds[-1]["from"] = rng.randrange(4)
        kinds_out.append(ks)
    return melds, kinds_out


def request(rng) -> dict:
    """One random request (most valid, some not)."""
    from webcalc.errors import InputError
    from webcalc.options import parse_options
    from webcalc.tiles import ALL_TILES
    from webcalc.variants import VARIANTS as V

    variant = rng.choice(VARIANTS)
    v = V[variant]
    options = _options(rng, variant)
    req: dict = {"variant": variant}
    if options:
        req["options"] = options
    try:
        opts = parse_options(v.Options, options)
        on = v.wildcards_on(opts)
    except InputError:
        on = False
    indicator = None
    wild: list[int] = []
    if on and rng.random() < 0.8:
        indicator = rng.randrange(34)
        try:
            wild = [int(t) for t in v.wildcards(opts, ALL_TILES[indicator])]
        except InputError:
            wild = []
        req["indicator"] = CODES[indicator]
    melds, meld_kinds = _melds(rng, variant, wild)
    n = 13 if rng.random() < 0.5 else 14
    conc = n - 3 * sum(1 for m in meld_kinds if len(m) > 1) - sum(
        1 for m in meld_kinds if len(m) == 1)
    if conc < 1:
        melds, meld_kinds, conc = [], [], n
    roll = rng.random()
    if roll < 0.35:
        base = _complete(rng, (conc - 2) // 3)
        if conc % 3 == 1:
            base.remove(rng.choice(base))
    elif roll < 0.6:
        base = [rng.randrange(34) for _ in range(conc)]
    elif roll < 0.8:
        base = _one_suit(rng, conc)
    else:
        base = _special(rng, conc)
    base = base[:conc]
    while len(base) < conc:
        base.append(rng.randrange(34))
    w = 0
    if wild:
        w = rng.choice((0, 1, 1, 2, 2, 3, 4) + ((5, 6, 8) if len(wild) == 2 else ()))
        w = min(w, conc)
    tiles = [t for t in base if t not in wild]
    rng.shuffle(tiles)
    tiles = tiles[: conc - w] + [wild[i % len(wild)] for i in range(w)]
    while len(tiles) < conc:
        tiles.append(rng.randrange(34))
    # keep most requests within the copy limits (C-2); a few are left over them
    if rng.random() < 0.95:
        shown = tiles + [k for m in meld_kinds for k in m] + ([indicator] if indicator is not None
                                                               else [])
        for i, t in enumerate(tiles):
            while shown.count(t) > (3 if t == indicator else 4):
                shown.remove(t)
                t = rng.randrange(34)
                shown.append(t)
            tiles[i] = t
    req["hand"] = _tiles(tiles)
    if melds:
        req["melds"] = melds
    if rng.random() < 0.25:
        shown = tiles + [k for m in meld_kinds for k in m] + ([indicator] if indicator is not None
                                                               else [])
        seen = [rng.randrange(34) for _ in range(rng.randint(1, 12))]
        if rng.random() < 0.95:
            seen = [k for k in seen if shown.count(k) + seen.count(k) <= 4]
        if seen:
            req["visible"] = _tiles(seen)
    if n == 14 and rng.random() < 0.5 and tiles:
        req["winning_tile"] = CODES[rng.choice(tiles)]
    if rng.random() < 0.5:
        methods = sorted(v.win_methods) if rng.random() < 0.9 else [
            "self_draw", "discard", "kong_replacement", "robbing_kong"]
        req["win_by"] = rng.choice(methods)
    if rng.random() < (0.5 if "winning_tile" in req else 0.05):
        req.setdefault("win_by", sorted(v.win_methods)[0])
        s: dict = {"base": rng.choice((1, 2, 5)), "dealer": rng.randrange(4)}
        s["winner"] = None if rng.random() < 0.15 else rng.randrange(4)
        if rng.random() < 0.5 and s["winner"] is not None:
            s["discarder"] = (s["winner"] + rng.randint(1, 3)) % 4
        if rng.random() < 0.3:
            s["pao"] = [rng.randint(0, 2) for _ in range(4)]
        if variant == "jincheng" and rng.random() < 0.5:
            s["ready"] = [rng.random() < 0.5 for _ in range(4)]
        if variant == "panjin" and rng.random() < 0.3:
            s["jiagang"] = [rng.random() < 0.5 for _ in range(4)]
        if variant == "sanmenxia" and rng.random() < 0.3:
            s["biao_discards"] = rng.randint(0, 3)
        req["settlement"] = s
    if rng.random() < 0.02:                               # bad input
        req[rng.choice(("hand", "indicator", "visible"))] = rng.choice(("x1", "123", "1m" * 9))
    return req


def requests(seed: int, count: int) -> list[dict]:
    rng = random.Random(seed)
    return [request(rng) for _ in range(count)]


def _canon(value):
    from webcalc.message_json import to_json
    from webcalc.messages import Joined, Message
    from webcalc.tiles import Tile

    if isinstance(value, (Message, Tile, Joined)):
        return to_json(value)
    if isinstance(value, dict):
        return {k: _canon(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_canon(v) for v in value]
    return value


def answer_text(req: dict) -> str:
    """The exact answer of ``analyze(req)`` as JSON text (or its input error)."""
    from webcalc.analysis import analyze
    from webcalc.errors import InputError

    try:
        out = {"ok": _canon(analyze(req).to_json())}
    except InputError as e:
        out = {"error": [e.code, e.field, _canon(e.message)]}
    return json.dumps(out, ensure_ascii=False)


def _h(text: str, n: int) -> str:
    return hashlib.sha1(text.encode()).hexdigest()[:n]


def digest_line(req: dict) -> str:
    """``<request digest> <answer digest>``."""
    return f"{_h(json.dumps(req, sort_keys=True), 10)} {_h(answer_text(req), 16)}"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("mode", choices=("record", "check"))
    ap.add_argument("file")
    ap.add_argument("--count", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=26)
    ap.add_argument("--root", default=str(ROOT), help="the checkout whose engine answers")
    args = ap.parse_args(argv)
    sys.path.insert(0, args.root)
    path = Path(args.file)
    if args.mode == "record":
        lines = [f"# bench/answers.py seed {args.seed} count {args.count}"]
        lines += [digest_line(r) for r in requests(args.seed, args.count)]
        path.write_text("\n".join(lines) + "\n")
        print(f"recorded {args.count} answers to {path}")
        return 0
    head, *want = path.read_text().splitlines()
    _, _, _, seed, _, count = head.split()
    reqs = requests(int(seed), int(count))
    bad = 0
    for req, line in zip(reqs, want):
        got = digest_line(req)
        if got.split()[0] != line.split()[0]:
            print("the request generator changed: record again", file=sys.stderr)
            return 2
        if got != line:
            bad += 1
            if bad <= 5:
                print("differs:", json.dumps(req, ensure_ascii=False))
    pure = " (pure Python)" if os.environ.get("WEBCALC_PURE_PYTHON") else ""
    print(f"{len(reqs) - bad} of {len(reqs)} answers the same{pure}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
